#!/usr/bin/env bash
# collectd with the zvm plugin reading zvmsim's monreader writes through
# write_graphite to a private carbon-cache; the whisper files, read with
# whisper-fetch, hold the values zvmsim generated (ground truth): GAUGE
# values exactly, DERIVE values as the rates between consecutive samples
# (StoreRates true).
. tests/e2e/fwd/lib.sh
fwd_init graphite

fwd_start_carbon
fwd_start_zvmsim $FWD_SIM_ARGS
conf=$(fwd_zvm_conf '
<LoadPlugin write_graphite>
  FlushInterval 1
</LoadPlugin>
<Plugin write_graphite>
  <Node "carbon">
    Host "127.0.0.1"
    Port "'"$CARBON_PORT"'"
    Protocol "tcp"
    Prefix "collectd."
    StoreRates true
  </Node>
</Plugin>' write_graphite)
fwd_start_collectd "$conf"
fwd_run_intervals
fwd_stop_collectd
fwd_stop_pid "$ZVMSIM_PID"
fwd_collectd_ok

python3 tests/e2e/fwd/fwdtruth.py expect "$FWD_TMP/truth.jsonl" "$FWD_TMP/csv" >"$FWD_TMP/expect.jsonl"
fwd_log "$(wc -l <"$FWD_TMP/expect.jsonl") expected values from the ground truth"
# carbon-cache writes its cache to whisper within a second or two.
fwd_until 30 python3 tests/e2e/fwd/fwdtruth.py graphite "$CARBON_WHISPER" "$FWD_TMP/expect.jsonl" \
	"$FWD_MIN_SAMPLES" >/dev/null ||
	{ python3 tests/e2e/fwd/fwdtruth.py graphite "$CARBON_WHISPER" "$FWD_TMP/expect.jsonl" \
		"$FWD_MIN_SAMPLES" | tail -20 >&2; fwd_fail "Graphite does not hold the ground truth"; }
python3 tests/e2e/fwd/fwdtruth.py graphite "$CARBON_WHISPER" "$FWD_TMP/expect.jsonl" "$FWD_MIN_SAMPLES" |
	tail -1 >&2
n=$(find "$CARBON_WHISPER" -name '*.wsp' | wc -l)
fwd_log "$n whisper files written"

# The Graphite dashboards' series exist in this carbon-cache.
python3 tests/e2e/fwd/dashcheck.py --whisper "$CARBON_WHISPER" contrib/grafana/*-graphite.json >&2 ||
	fwd_fail "a Graphite dashboard queries series carbon-cache does not have"
