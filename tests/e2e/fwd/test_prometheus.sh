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
# dashboards' queries return series from the same server.
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
WP_PORT=$(fwd_free_port 1)
fwd_start_prometheus "$WP_PORT" 200ms "$FWD_TOP/$SHIPPED/prometheus.yml"
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

# The shipped rules on this data.  collectd has stopped: up is 0.  The
# durations ("for") are the shipped ones, so these alerts are pending, the
# data-loss one firing; promtool test rules (make check-prometheus-rules)
# covers the durations.
sleep 2
python3 tests/e2e/fwd/promrules.py "$PROM_PORT" "$SHIPPED/collectd-zvm.rules.yml" \
	"$SHIPPED/collectd-zvm.alerts.yml" --alert ZvmLawNotHolding:law=guest-vio \
	--alert ZvmMonitorDataLost:event=discarded_efault --alert ZvmCollectorDown >&2 ||
	fwd_fail "the shipped rules do not hold on this data"

# The Prometheus dashboards' queries, run on this server, return series
# (but guest virtual I/O: the broken guest-vio law holds it back).
python3 tests/e2e/fwd/dashcheck.py --prometheus "$PROM_PORT" --held-back zvm_guest_virtual_io_total \
	contrib/grafana/*-prometheus.json >&2 ||
	fwd_fail "a Prometheus dashboard query returns nothing from Prometheus"
