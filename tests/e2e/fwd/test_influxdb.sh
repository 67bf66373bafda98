#!/usr/bin/env bash
# collectd with the zvm plugin reading zvmsim's monreader sends its values
# with the network plugin to a private influxd, whose collectd input loads
# collectd's and the project's types.db; InfluxQL queries return the values
# zvmsim generated (ground truth), exactly, DERIVE values as raw counters.
. tests/e2e/fwd/lib.sh
fwd_init influxdb

fwd_start_influxd
fwd_start_zvmsim $FWD_SIM_ARGS
conf=$(fwd_zvm_conf '
<LoadPlugin network>
  FlushInterval 1
</LoadPlugin>
<Plugin network>
  Server "127.0.0.1" "'"$INFLUX_COLLECTD"'"
</Plugin>' network)
fwd_start_collectd "$conf"
fwd_run_intervals
fwd_stop_collectd
fwd_stop_pid "$ZVMSIM_PID"
fwd_collectd_ok

python3 tests/e2e/fwd/fwdtruth.py expect "$FWD_TMP/truth.jsonl" "$FWD_TMP/csv" >"$FWD_TMP/expect.jsonl"
fwd_log "$(wc -l <"$FWD_TMP/expect.jsonl") expected values from the ground truth"
check() { python3 tests/e2e/fwd/fwdtruth.py influx "$INFLUX_HTTP" "$FWD_TMP/expect.jsonl" "$FWD_MIN_SAMPLES"; }
fwd_until 30 check >/dev/null || { check | tail -20 >&2; fwd_fail "InfluxDB does not hold the ground truth"; }
check | tail -1 >&2
if grep -q "unable to find" "$FWD_TMP/influxd.log"; then
	grep "unable to find" "$FWD_TMP/influxd.log" | head -3 >&2
	fwd_fail "influxd's collectd input lacks types the zvm plugin uses"
fi
n=$(fwd_influx_query "SHOW SERIES" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(sum(len(s["values"]) for r in d["results"] for s in r.get("series", [])))')
fwd_log "$n series in InfluxDB"

# The InfluxDB dashboards' queries, run on this influxd, return values.
python3 tests/e2e/fwd/dashcheck.py --influx "$INFLUX_HTTP" contrib/grafana/*-influxdb.json >&2 ||
	fwd_fail "an InfluxDB dashboard query returns nothing from influxd"
