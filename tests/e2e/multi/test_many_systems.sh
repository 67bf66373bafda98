#!/usr/bin/env bash
# Many z/VM systems, one central collectd (issue 14, doc/many-systems.md).
#
# Two simulated z/VM systems (zvmsim --system ZVMA and ZVMB, different seeds,
# both with guests LINUX001 and LINUX002) each have a collector collectd with
# the zvm plugin reading that system's monreader live, configured from
# contrib/many-systems-collector.conf.  They send with the network plugin,
# signed (SecurityLevel Sign), to a central collectd configured from
# contrib/many-systems-central.conf (AuthFile), which writes to a private
# carbon-cache and forwards to a private influxd.  A third system's collector
# (ZVMX) signs with a wrong password.  Checked:
#   * each system's values in InfluxDB and Graphite are its ground truth
#     (fwdtruth.py), CP data under the system's host, guests under
#     "<userid>.<system>";
#   * the same-named guests of the two systems stay apart, point for point,
#     and the stores hold exactly the hosts the two collectors dispatched;
#   * the central daemon logged the wrong signature and stored nothing of ZVMX;
#   * the dashboards' queries return data, and the Linux dashboard's system
#     selector lists one system's guests only.
. tests/e2e/fwd/lib.sh
fwd_init many-systems

M=tests/e2e/multi
SYSTEMS="zvma zvmb"
INTRUDER=zvmx
INTERVALS=${MULTI_INTERVALS:-8}

fwd_start_carbon
fwd_start_influxd
CENTRAL_PORT=$(fwd_free_port 1)
PD=$(fwd_plugindir logfile csv network write_graphite "$FWD_TOP/${BUILD:-build}/zvm.so")

# The syslog block of the examples becomes a log file of the test.
SYSLOG_BLOCK='LoadPlugin syslog
<Plugin syslog>
  LogLevel info
</Plugin>'
LOGFILE_BLOCK='LoadPlugin logfile
<Plugin logfile>
  LogLevel info
  File STDOUT
</Plugin>'

# ---------------------------------------------------------------- central
# The AuthFile knows the intruder's username too: it is refused for its
# password, not for being unknown.
printf '%s: %s\n' zvma pw-of-zvma zvmb pw-of-zvmb "$INTRUDER" "pw-of-$INTRUDER" >"$FWD_TMP/passwd"
mkdir -p "$FWD_TMP/central"
python3 $M/instantiate.py contrib/many-systems-central.conf "$FWD_TMP/central.conf" \
	'Hostname "central"' "Hostname \"central\"
PluginDir \"$PD\"
BaseDir \"$FWD_TMP/central\"
PIDFile \"$FWD_TMP/central/collectd.pid\"" \
	$'\nInterval 60\n' $'\nInterval 1\n' \
	'FlushInterval 10' 'FlushInterval 1' \
	'"/usr/share/collectd-zvm/types.db"' "\"$FWD_TOP/types.db\"" \
	"$SYSLOG_BLOCK" "$LOGFILE_BLOCK" \
	'"0.0.0.0" "25826"' "\"127.0.0.1\" \"$CENTRAL_PORT\"" \
	'/etc/collectd/many-systems.passwd' "$FWD_TMP/passwd" \
	'"influxdb.example.com" "25826"' "\"127.0.0.1\" \"$INFLUX_COLLECTD\"" \
	'Host "graphite.example.com"' 'Host "127.0.0.1"' \
	'Port "2003"' "Port \"$CARBON_PORT\"" || fwd_fail "contrib/many-systems-central.conf changed"
fwd_start_collectd "$FWD_TMP/central.conf" "$FWD_TMP/central.log"
CENTRAL_PID=$COLLECTD_PID
fwd_until 20 grep -q "Initialization complete" "$FWD_TMP/central.log" ||
	fwd_fail "the central collectd did not start"
fwd_log "central collectd pid $CENTRAL_PID listening on udp 127.0.0.1:$CENTRAL_PORT (SecurityLevel Sign)"

# -------------------------------------------------------------- systems
declare -A SIM_PID COLL_PID
seed=11
for s in $SYSTEMS $INTRUDER; do
	d="$FWD_TMP/$s"
	mkdir -p "$d/mnt" "$d/collectd" "$d/csv"
	FWD_MOUNTS+=("$d/mnt")
	# Every system has LINUX001 and LINUX002: the collision a real shop has.
	"$FWD_TOP/${BUILD:-build}/zvmsim" run -m "$d/mnt" --truth "$d/truth.jsonl" \
		--system "${s^^}" --seed "$seed" --interval 0 --cpus 2 --guests 6 --linux 2 \
		--devices 4 --vnics 2 --lpars 1 --fsstatd 1 --procd 1 --ssi SSI1 >"$FWD_TMP/zvmsim-$s.log" 2>&1 &
	SIM_PID[$s]=$!
	FWD_PIDS+=("${SIM_PID[$s]}")
	seed=$((seed + 1))
	fwd_until 20 test -e "$d/mnt/monreader" || fwd_fail "zvmsim ${s^^} did not mount $d/mnt"

	pw="pw-of-$s"
	[ "$s" = "$INTRUDER" ] && pw="a-wrong-password"
	python3 $M/instantiate.py contrib/many-systems-collector.conf "$FWD_TMP/$s.conf" \
		'FQDNLookup false' "FQDNLookup false
PluginDir \"$PD\"
BaseDir \"$d/collectd\"
PIDFile \"$d/collectd/collectd.pid\"" \
		'change-me-vmsys1' "$pw" \
		'vmsys1' "$s" \
		$'\nInterval 60\n' $'\nInterval 1\n' \
		'FlushInterval 10' 'FlushInterval 1' \
		'"/usr/share/collectd-zvm/types.db"' "\"$FWD_TOP/types.db\"" \
		"$SYSLOG_BLOCK" "$LOGFILE_BLOCK
LoadPlugin csv
<Plugin csv>
  DataDir \"$d/csv\"
  StoreRates false
</Plugin>" \
		'"/dev/monreader"' "\"$d/mnt/monreader\"" \
		'"central.example.com" "25826"' "\"127.0.0.1\" \"$CENTRAL_PORT\"" ||
		fwd_fail "contrib/many-systems-collector.conf changed"
	fwd_start_collectd "$FWD_TMP/$s.conf" "$FWD_TMP/$s.log"
	COLL_PID[$s]=$COLLECTD_PID
done
fwd_log "systems ${SYSTEMS^^} and ${INTRUDER^^} (wrong password) running, $INTERVALS intervals"

for i in $(seq 1 "$INTERVALS"); do
	sleep 1
	for s in $SYSTEMS $INTRUDER; do
		echo interval >"$FWD_TMP/$s/mnt/control" || fwd_fail "zvmsim ${s^^} refused an interval"
	done
done
sleep 2
for s in $SYSTEMS $INTRUDER; do
	kill -0 "${COLL_PID[$s]}" 2>/dev/null || fwd_fail "the collector of ${s^^} died"
done
kill -0 "$CENTRAL_PID" 2>/dev/null || fwd_fail "the central collectd died"
# Collectors first: their last packets go out on shutdown, to a live central.
for s in $SYSTEMS $INTRUDER; do fwd_stop_pid "${COLL_PID[$s]}"; done
sleep 1
fwd_stop_pid "$CENTRAL_PID"
for s in $SYSTEMS $INTRUDER; do fwd_stop_pid "${SIM_PID[$s]}"; done

# --------------------------------------------------------------- daemons
for s in central $SYSTEMS $INTRUDER; do
	L="$FWD_TMP/$s.log"
	grep -q "Exiting normally" "$L" || fwd_fail "collectd $s did not exit normally"
	if grep -qE "Dataset not found|check your types.db" "$L"; then
		grep -E "Dataset not found|check your types.db" "$L" | head -3 >&2
		fwd_fail "collectd $s lacks types the zvm plugin uses"
	fi
done
for s in $SYSTEMS $INTRUDER; do
	grep -q "zvm plugin: system name $s (MTRSYS_SYSTMID" "$FWD_TMP/$s.log" ||
		fwd_fail "collector $s did not name its system ${s^^} (MTRSYS_SYSTMID)"
	[ -n "$(find "$FWD_TMP/$s/csv/$s" -type f 2>/dev/null | head -1)" ] ||
		fwd_fail "collector $s dispatched no CP values under host $s"
done

# ------------------------------------------------------ the wrong password
# collectd 5.12's network plugin (src/network.c, parse_part_sign_sha256)
# logs a failed HMAC check with the username and drops the whole packet.
refusals=$(grep -c "signature failed.*$INTRUDER\|$INTRUDER.*signature failed" "$FWD_TMP/central.log" || true)
[ "$refusals" -gt 0 ] || {
	grep -i "network plugin" "$FWD_TMP/central.log" | head -5 >&2
	fwd_fail "the central collectd logged no failed signature of $INTRUDER"
}
for s in $SYSTEMS; do
	! grep -qi "signature.*$s\b" "$FWD_TMP/central.log" ||
		fwd_fail "the central collectd refused packets of $s, whose password is right"
done
fwd_log "central refused $refusals packets of $INTRUDER: $(grep -m1 "signature failed" "$FWD_TMP/central.log" | sed 's/^.*network plugin/network plugin/')"

# ------------------------------------------------------ the ground truth
for s in $SYSTEMS; do
	python3 tests/e2e/fwd/fwdtruth.py expect --guest-host "%u.$s" "$FWD_TMP/$s/truth.jsonl" \
		"$FWD_TMP/$s/csv" >"$FWD_TMP/expect-$s.jsonl"
	n=$(wc -l <"$FWD_TMP/expect-$s.jsonl")
	[ "$n" -gt 0 ] || fwd_fail "no expected values of ${s^^}"
	influx() { python3 tests/e2e/fwd/fwdtruth.py influx "$INFLUX_HTTP" "$FWD_TMP/expect-$s.jsonl" 3; }
	graphite() { python3 tests/e2e/fwd/fwdtruth.py graphite "$CARBON_WHISPER" "$FWD_TMP/expect-$s.jsonl" 3; }
	fwd_until 30 influx >/dev/null || { influx | tail -20 >&2; fwd_fail "InfluxDB does not hold ${s^^}'s ground truth"; }
	fwd_until 30 graphite >/dev/null || { graphite | tail -20 >&2; fwd_fail "Graphite does not hold ${s^^}'s ground truth"; }
	fwd_log "${s^^}: $n expected values; $(influx | tail -1 | sed 's/^fwdtruth: //'); $(graphite | tail -1 | sed 's/^fwdtruth: //')"
done

# -------------------------------------- apart, and nothing of the intruder
args=()
for s in $SYSTEMS; do args+=("$s" "$FWD_TMP/expect-$s.jsonl" "$FWD_TMP/$s/csv"); done
python3 $M/apart.py "$INFLUX_HTTP" "$CARBON_WHISPER" "$INTRUDER" "${args[@]}" >&2 ||
	fwd_fail "the two systems' values are mixed, or the stores hold hosts no collector dispatched"
[ -n "$(find "$FWD_TMP/$INTRUDER/csv" -type f | head -1)" ] ||
	fwd_fail "the intruder's collector dispatched nothing: its refusal proves nothing"

# ------------------------------------------------------------ dashboards
python3 tests/e2e/fwd/dashcheck.py --influx "$INFLUX_HTTP" contrib/grafana/*-influxdb.json >&2 ||
	fwd_fail "an InfluxDB dashboard query returns nothing from the central daemon's influxd"
python3 tests/e2e/fwd/dashcheck.py --whisper "$CARBON_WHISPER" contrib/grafana/*-graphite.json >&2 ||
	fwd_fail "a Graphite dashboard queries series the central daemon's carbon-cache does not have"
# The system selector: choosing one system lists that system's guests only.
for s in $SYSTEMS; do
	want="linux001.$s linux002.$s"
	got=$(python3 tests/e2e/fwd/dashcheck.py --influx "$INFLUX_HTTP" --set "system=$s" --show guest \
		contrib/grafana/linux-guests-influxdb.json | sed -n 's/^dashcheck: .*\$guest = //p')
	[ "$got" = "$want" ] || fwd_fail "InfluxDB Linux dashboard, system $s: guests '$got', expected '$want'"
	got=$(python3 tests/e2e/fwd/dashcheck.py --whisper "$CARBON_WHISPER" --set "system=$s" --show guest \
		contrib/grafana/linux-guests-graphite.json | sed -n 's/^dashcheck: .*\$guest = //p')
	[ "$got" = "${want//./_}" ] || fwd_fail "Graphite Linux dashboard, system $s: guests '$got', expected '${want//./_}'"
done
fwd_log "dashboards: the Linux guests' system selector lists each system's own guests"
