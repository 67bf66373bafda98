#!/usr/bin/env bash
# collectd with the zvm plugin reading zvmsim's monreader exposes its values
# with write_prometheus; a private Prometheus server scrapes it while zvmsim
# runs, twice: as job "collectd" in collectd's shape, and as job
# "collectd-zvm" with the project's contrib/prometheus/prometheus.yml
# (relabelling), evaluating its recording rules and alerts.  PromQL through
# Prometheus's HTTP API returns the values zvmsim generated (ground truth),
# in both shapes: raw samples with the monitor's own time stamps, the steps
# query_range draws from them, and irate() of the counters.  The shipped
# rules are about series that exist and evaluate cleanly, and on data that
# break some of their conditions (a law broken by zvmsim, a data set lost,
# collectd stopped) exactly those alerts are active.  The Prometheus
# dashboards' queries return series from the same server.  Then a
# zvmsim run with every --condition, scraped by a fresh Prometheus, raises
# exactly the alerts on processors, steal, I/O wait, paging, storage and a
# slow device, each on the processor set, guest or device that shows it,
# and a run without conditions raises no alert at all.
#
# The monitor intervals here are 1 s, CP's are 60 s: the alerts' windows
# and "for" durations, in minutes for CP, would hold one run's data diluted
# 30-fold (rate() over 5m of 8 s of data) or more.  Prometheus evaluates a
# copy of the shipped files with every duration divided by 30 (5m -> 10s,
# 15m -> 30s; promrules.py scale), the expressions and thresholds as
# shipped; promtool test rules (make check-prometheus-rules) covers the
# shipped durations on written series.
. tests/e2e/fwd/lib.sh
fwd_init prometheus

# Both prerequisites fail here, before anything starts.
fwd_need prometheus prometheus
[ -f /usr/lib/collectd/write_prometheus.so ] ||
	fwd_fail "/usr/lib/collectd/write_prometheus.so missing: install collectd-core (make deps)"
missing=$(ldd /usr/lib/collectd/write_prometheus.so | awk '/not found/ { print $1 }')
[ -z "$missing" ] ||
	fwd_fail "write_prometheus.so lacks ${missing//$'\n'/ }: install libmicrohttpd12 libprotobuf-c1 (make deps)"

SHIPPED=contrib/prometheus
RULES=$FWD_TMP/rules
python3 tests/e2e/fwd/promrules.py scale 30 "$SHIPPED/prometheus.yml" "$RULES" >&2 ||
	fwd_fail "cannot scale the shipped rules' durations"
WP_PORT=$(fwd_free_port 1)
fwd_start_prometheus "$WP_PORT" 200ms "$RULES/prometheus.yml"
# guest-vio broken in every interval: the plugin holds its metric back.
fwd_start_zvmsim $FWD_SIM_ARGS --break-law guest-vio
conf=$(fwd_zvm_conf '
LoadPlugin write_prometheus
<Plugin write_prometheus>
  Host "127.0.0.1"
  Port "'"$WP_PORT"'"
</Plugin>' write_prometheus)
fwd_start_collectd "$conf"
fwd_wait_tcp "$COLLECTD_PID" "$WP_PORT" "collectd's write_prometheus"
# write_prometheus holds only the newest value of a series: zvmsim's first
# interval comes after Prometheus scraped write_prometheus once (its scrape
# manager takes up new targets on a 5 s tick), so that none is replaced
# unseen.
fwd_until 30 fwd_prom_targets_up ||
	{ fwd_prom_targets >&2; fwd_fail "Prometheus did not scrape write_prometheus"; }
fwd_run_intervals
# The last interval's values are scraped within 200 ms; 2 s passed already.
fwd_prom_targets_up || { fwd_prom_targets >&2; fwd_fail "Prometheus cannot scrape write_prometheus"; }
# One more sample set, lost to EFAULT: a data set the reader discards.
echo "efault sample" >"$FWD_TMP/mnt/control" || fwd_fail "zvmsim refused efault"
echo interval >"$FWD_TMP/mnt/control" || fwd_fail "zvmsim refused an interval"
sleep 2
fwd_stop_collectd
fwd_stop_pid "$ZVMSIM_PID"
fwd_collectd_ok
grep -q "EFAULT" "$FWD_TMP/collectd.log" || fwd_fail "the plugin did not see the EFAULT"

# The shipped rules on this data, at once: their windows are 10 to 30 s.
# collectd has stopped: up is 0.  Active (pending or firing): the law
# zvmsim broke, the data set lost, the silent collector, and nothing else.
python3 tests/e2e/fwd/promrules.py "$PROM_PORT" "$RULES/collectd-zvm.rules.yml" \
	"$RULES/collectd-zvm.alerts.yml" --alert ZvmLawNotHolding:law=guest-vio \
	--alert ZvmMonitorDataLost:event=discarded_efault --alert ZvmCollectorDown >&2 ||
	fwd_fail "the shipped rules do not hold on this data"

python3 tests/e2e/fwd/fwdtruth.py expect "$FWD_TMP/truth.jsonl" "$FWD_TMP/csv" >"$FWD_TMP/expect.jsonl"
fwd_log "$(wc -l <"$FWD_TMP/expect.jsonl") expected values from the ground truth"
for mode in prometheus prometheus-native; do
	python3 tests/e2e/fwd/fwdtruth.py $mode "$PROM_PORT" "$FWD_TMP/expect.jsonl" "$FWD_MIN_SAMPLES" \
		>"$FWD_TMP/check-$mode.out" ||
		{ tail -20 "$FWD_TMP/check-$mode.out" >&2; fwd_fail "Prometheus does not hold the ground truth ($mode)"; }
	tail -1 "$FWD_TMP/check-$mode.out" >&2
done
n=$(fwd_prom_get "/api/v1/series?match%5B%5D=%7B__name__%3D~%22collectd_.%2A%22%2Cjob%3D%22collectd%22%7D" |
	python3 -c 'import json,sys; print(len(json.load(sys.stdin)["data"]))')
fwd_log "$n collectd series in Prometheus (job collectd)"

# The Prometheus dashboards' queries, run on this server, return series
# (but guest virtual I/O: the broken guest-vio law holds it back), no two
# under one legend.
python3 tests/e2e/fwd/dashcheck.py --prometheus "$PROM_PORT" --held-back zvm_guest_virtual_io_total \
	contrib/grafana/*-prometheus.json >&2 ||
	fwd_fail "a Prometheus dashboard query returns nothing from Prometheus"

# ---- The alerts on capacity and service times, live: on data that break
# each condition, and not on data that do not.  zvmsim --condition all
# (every law still kept) makes all processors over 90 % busy, LINUX001 wait
# 30 % of its time for a processor (steal), the last Linux guest (LINUX002)
# 40 % in I/O wait, the last guest page 3000 pages/s, storage 3 % available
# and the last device (0103) take 40 ms per SSCH; the other guests and
# devices stay as they were.  Each run has a fresh Prometheus (no series or
# alerts of the run before), checks while collectd still runs (no
# ZvmCollectorDown) and lasts twelve intervals: the rate() windows (10 s)
# are full of its data.  The alerts are pending (or firing, for the shorter
# durations).
alerts_run() {
	local args=$1 t0 lag tick
	shift
	fwd_stop_pid "$PROM_PID"
	rm -rf "$FWD_TMP/prometheus"
	fwd_start_prometheus "$WP_PORT" 200ms "$RULES/prometheus.yml"
	t0=$(date +%s)
	fwd_start_zvmsim $FWD_SIM_ARGS $args
	fwd_start_collectd "$conf" "$FWD_TMP/collectd-alerts.log"
	fwd_wait_tcp "$COLLECTD_PID" "$WP_PORT" "collectd's write_prometheus"
	fwd_until 30 fwd_prom_targets_up ||
		{ fwd_prom_targets >&2; fwd_fail "Prometheus did not scrape write_prometheus ($args)"; }
	# The monitor's clock stood still while the servers started: the
	# intervals it missed come at once (none later than now), so that the
	# run's samples reach up to the present and fill the windows.
	lag=$(($(date +%s) - t0 - 1))
	if [ "$lag" -gt 0 ]; then
		echo "interval $lag" >"$FWD_TMP/mnt/control" || fwd_fail "zvmsim refused $lag intervals"
	fi
	FWD_INTERVALS=12 fwd_run_intervals
	# Intervals go on while the rules are checked: the windows stay full
	# however long the check takes.
	(while sleep 1; do echo interval >"$FWD_TMP/mnt/control" || exit; done) &
	tick=$!
	FWD_PIDS+=("$tick")
	python3 tests/e2e/fwd/promrules.py "$PROM_PORT" "$RULES/collectd-zvm.rules.yml" \
		"$RULES/collectd-zvm.alerts.yml" "$@" >&2 ||
		fwd_fail "the shipped alerts on zvmsim ${args:-without conditions} are not as expected"
	fwd_stop_pid "$tick"
	fwd_stop_collectd
	fwd_stop_pid "$ZVMSIM_PID"
}
alerts_run ""
alerts_run "--condition all" --alert ZvmProcessorsBusy:system=zvmsim \
	--alert LinuxGuestCPUStealHigh:host=linux001 --alert LinuxGuestCPUWaitHigh:host=linux002 \
	--alert ZvmPagingRateHigh:system=zvmsim --alert ZvmStorageShort:system=zvmsim \
	--alert ZvmDeviceSlow:device=0103
