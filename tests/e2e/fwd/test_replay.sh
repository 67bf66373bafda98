#!/usr/bin/env bash
# contrib/replay-to-graphite.conf as shipped (only the file, the Graphite
# address and the paths of a test changed): a MONWRITE file zvmsim wrote is
# replayed into a private carbon-cache with its original time stamps, and the
# whisper files hold the ground truth.
. tests/e2e/fwd/lib.sh
fwd_init replay

SIM="$FWD_TOP/${BUILD:-build}/zvmsim"
[ -x "$SIM" ] || fwd_fail "$SIM not built (make all)"
fwd_start_carbon
# Ten one-minute intervals that ended a few minutes ago: inside carbon's
# retention, in the past as a replay is.
start=$(($(date +%s) - 900))
"$SIM" monwrite -o "$FWD_TMP/MONDATA.monwrite" --intervals 10 --interval 60 --start "$start" \
	--truth "$FWD_TMP/truth.jsonl" --seed 5 --cpus 2 --guests 4 --linux 2 --devices 2 --ssi SSI5 \
	>"$FWD_TMP/zvmsim.log" 2>&1 || fwd_fail "zvmsim monwrite failed"

PD=$(fwd_plugindir logfile csv write_graphite match_regex "$FWD_TOP/${BUILD:-build}/zvm.so")
mkdir -p "$FWD_TMP/csv" "$FWD_TMP/collectd"
{
	echo "PluginDir \"$PD\""
	echo "BaseDir \"$FWD_TMP/collectd\""
	echo "PIDFile \"$FWD_TMP/collectd/collectd.pid\""
	sed -e "s|^  File \"/srv/monwrite/.*|  File \"$FWD_TMP/MONDATA.monwrite\"|" \
		-e "s|Host \"graphite.example.com\"|Host \"127.0.0.1\"|" \
		-e "s|Port \"2003\"|Port \"$CARBON_PORT\"|" \
		-e "s|\"/usr/share/collectd-zvm/types.db\"|\"$FWD_TOP/types.db\"|" \
		contrib/replay-to-graphite.conf
	# The csv copy tells which values collectd dispatched.
	printf 'LoadPlugin csv\n<Plugin csv>\n  DataDir "%s"\n</Plugin>\n' "$FWD_TMP/csv"
} >"$FWD_TMP/collectd.conf"
grep -q "MONDATA.monwrite" "$FWD_TMP/collectd.conf" || fwd_fail "the example's File line was not found"
grep -q "Port \"$CARBON_PORT\"" "$FWD_TMP/collectd.conf" || fwd_fail "the example's Port line was not found"
fwd_start_collectd "$FWD_TMP/collectd.conf"
replayed() { grep -q 'replayed: ' "$FWD_TMP/collectd.log"; }
fwd_until 60 replayed || fwd_fail "collectd did not finish the replay"
sleep 2
fwd_stop_collectd
fwd_collectd_ok

python3 tests/e2e/fwd/fwdtruth.py expect "$FWD_TMP/truth.jsonl" "$FWD_TMP/csv" >"$FWD_TMP/expect.jsonl"
check() { python3 tests/e2e/fwd/fwdtruth.py graphite "$CARBON_WHISPER" "$FWD_TMP/expect.jsonl" 5; }
fwd_until 30 check >/dev/null || { check | tail -20 >&2; fwd_fail "Graphite does not hold the replayed ground truth"; }
check | tail -1 >&2
