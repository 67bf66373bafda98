# SPDX-License-Identifier: MIT
# Sourced by run.sh: a guest whose identifiers churn, against the series cap
# (MaxSeriesPerGuest 4, SeriesIdleTimeout 2) in the real collectd on zvmsim's
# FUSE monreader and monwriter.  churn.py writes the guest's records, drives
# the intervals and gives the verdict (its docstring says what is checked).
CSIM="$TOP/$BUILD/zvmsim"
[ -x "$CSIM" ] || fail "$CSIM not built (make $BUILD/zvmsim)"
[ -e /dev/fuse ] || fail "FUSE is unavailable (/dev/fuse missing): the churn test needs zvmsim"
need fusermount3

echo "== a guest whose identifiers churn: idle series make room under MaxSeriesPerGuest"
CM="$T/churn-mnt"
mkdir -p "$CM"
"$CSIM" run -m "$CM" --interval 0 --cpus 1 --guests 2 --linux 1 --devices 1 --vnics 1 \
	--writer-userid CHURN01 >"$T/churn-zvmsim.log" 2>&1 &
CSIMPID=$!
churn_stop() {
	fusermount3 -u "$CM" 2>/dev/null || true
	for _ in $(seq 50); do kill -0 "$CSIMPID" 2>/dev/null || break; sleep 0.1; done
	kill "$CSIMPID" 2>/dev/null || true
	wait "$CSIMPID" 2>/dev/null || true
}
trap 'churn_stop; rm -rf "$T"' EXIT
for _ in $(seq 50); do [ -e "$CM/monreader" ] && break; sleep 0.1; done
[ -e "$CM/monreader" ] || { cat "$T/churn-zvmsim.log"; fail "zvmsim did not mount $CM"; }
conf churn "  Device \"$CM/monreader\"
  RetryInterval 0.5
  MaxRetryInterval 1
  MaxSeriesPerGuest 4
  SeriesIdleTimeout 2"
timeout -s TERM -k 10 60 collectd -f -C "$T/churn/collectd.conf" >"$T/churn/stdout" 2>&1 &
CD=$!
for _ in $(seq 100); do
	[ "$(awk '$1 == "reader_open" { print $2 }' "$CM/status")" = 1 ] && break
	sleep 0.1
done
python3 "$TOP/tests/e2e/plugin/churn.py" write "$CM" "$T/churn/times.json" --intervals 12 ||
	{ tail -20 "$T/churn/collectd.log"; fail "churn: the writer failed"; }
sleep 2 # two read callbacks: the self-metrics hold the end
kill -TERM "$CD"
wait "$CD" || true
grep -q "Exiting normally" "$T/churn/collectd.log" || fail "churn: no clean shutdown"
churn_stop
python3 "$TOP/tests/e2e/plugin/churn.py" check "$T/churn/times.json" "$T/churn/csv" \
	"$T/churn/collectd.log" churn01 || fail "churn: see the lines FAIL above"
[ "$(csvlast churn collector/zvm-reader/total_values-series_capped)" -gt 0 ] ||
	fail "churn: nothing counted in series_capped"
[ "$(csvlast churn collector/zvm-reader/total_values-host_refused)" = 0 ] ||
	fail "churn: the guest's own host was counted as refused"
