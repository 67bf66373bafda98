#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End-to-end tests of the zvm plugin in the real collectd 5.12 daemon.
# usage: run.sh TOP BUILD   (from plugin/module.mk: make check-plugin-e2e)
TOP=$(cd "$1" && pwd)
BUILD=$2
ZVM_SO="$TOP/$BUILD/zvm.so"
. "$TOP/tests/e2e/plugin/lib.sh"
e2e_setup
trap 'rm -rf "$T"' EXIT
GEN="$TOP/$BUILD/tests/e2e_gen"
[ -x "$GEN" ] || fail "$GEN not built"

if [ -z "${E2E_ONLY:-}" ]; then
IV=60 # the monitor interval in the generated D1R9; collectd's own is 1 s
"$GEN" "$T" 5 $IV

echo "== capture replay: values, times, interval, drops"
conf cap "  File \"$T/stream.cap\"" json
run cap 4
logged cap 'File ".*stream.cap" (capture) replayed: 5 data sets'
python3 "$TOP/tests/e2e/plugin/check.py" "$T/truth.csv" "$T/cap/csv" --absent linux03 \
	--once linux02/interface-all/if_octets --jsonlog "$T/cap/collectd.log" --interval $IV
[ "$(csvlast cap collector/zvm-reader/total_values-appl_sync)" = 5 ] || fail "appl_sync not 5"
[ "$(csvlast cap collector/zvm-reader/total_values-appl_stale)" = 4 ] || fail "appl_stale not 4"
[ "$(csvlast cap collector/zvm-reader/total_objects-datasets)" = 5 ] || fail "datasets not 5"
not_logged cap "Value too old"

echo "== MONWRITE replay gives the same values"
conf mw "  File \"$T/stream.monwrite\""
run mw 4
logged mw 'File ".*stream.monwrite" (monwrite) replayed: 5 data sets'
python3 "$TOP/tests/e2e/plugin/check.py" "$T/truth.csv" "$T/mw/csv" --absent linux03

echo "== both files: each (identifier, time) dispatched once"
conf both "  File \"$T/stream.cap\" \"$T/stream.monwrite\""
run both 4
python3 "$TOP/tests/e2e/plugin/check.py" "$T/truth.csv" "$T/both/csv" --absent linux03
not_logged both "Value too old"
[ "$(csvlast both collector/zvm-reader/total_values-duplicate)" -gt 0 ] || fail "no duplicates counted"

echo "== missing device: clear message, collectd keeps running, self-metrics report it"
conf nodev "  Device \"$T/no/monreader\"
  RetryInterval 0.2
  MaxRetryInterval 0.5"
run nodev 4
logged nodev "monreader module loaded (modprobe monreader mondcss=NAME"
logged nodev "IUCV \*MONITOR and NAMESAVE"
[ "$(csvlast nodev collector/zvm-reader/gauge-connected)" = 0.000000 ] || fail "connected not 0"
[ "$(csvlast nodev collector/zvm-reader/total_events-open_failures)" -ge 3 ] || fail "open failures not retried"
[ "$(grep -c 'cannot open' "$T/nodev/collectd.log")" -le 3 ] || fail "open failure not rate-limited"

echo "== not a monitor file: an error, nothing dispatched, collectd keeps running"
head -c 70000 /dev/urandom >"$T/junk.bin"
conf junk "  File \"$T/junk.bin\""
run junk 3
logged junk 'File ".*junk.bin": not a readable monitor file'
[ ! -d "$T/junk/csv/linux01" ] || fail "junk produced values"

echo "== bad configuration: collectd refuses the config and says why"
conf badcfg "  IncludeRecord \"D0R\""
rc=0
timeout 10 collectd -f -C "$T/badcfg/collectd.conf" >"$T/badcfg/out" 2>&1 || rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "bad config accepted (exit $rc)"
grep -q 'IncludeRecord "D0R": expected a domain' "$T/badcfg/out" "$T/badcfg/collectd.log" ||
	fail "bad config: no message naming the option"

echo "== LayoutFile: a broken file is refused, naming file and line"
printf '# nothing\nlayout D0R2 SYTPRP min_len\n' >"$T/bad-layouts.txt"
conf badlay "  LayoutFile \"$T/bad-layouts.txt\""
rc=0
timeout 10 collectd -f -C "$T/badlay/collectd.conf" >"$T/badlay/out" 2>&1 || rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "broken LayoutFile accepted (exit $rc)"
grep -q 'LayoutFile: .*bad-layouts.txt:2' "$T/badlay/out" "$T/badlay/collectd.log" ||
	{ cat "$T/badlay/out"; fail "LayoutFile error names no line"; }

echo "== valgrind: 100 intervals replayed and a reconnect loop, in the real daemon"
need valgrind
mkdir -p "$T/vg100" && "$GEN" "$T/vg100" 100 1
conf vg "  File \"$T/vg100/stream.cap\"
  Device \"$T/no/monreader\"
  RetryInterval 0.2
  MaxRetryInterval 0.4"
run vg 25 valgrind -q --leak-check=full --show-leak-kinds=definite,possible \
	--errors-for-leak-kinds=definite,possible --log-file="$T/vg/valgrind.log"
logged vg 'replayed: 100 data sets'
[ ! -s "$T/vg/valgrind.log" ] || { cat "$T/vg/valgrind.log"; fail "valgrind reported errors or leaks"; }
[ "$(csvlast vg collector/zvm-reader/total_events-open_failures)" -ge 10 ] || fail "valgrind run: reconnect loop did not run"

. "$TOP/tests/e2e/plugin/pace.sh"
fi

# E2E_ONLY=device, churn or share: that part alone.
. "$TOP/tests/e2e/plugin/simlib.sh"
case "${E2E_ONLY:-}" in "" | device) . "$TOP/tests/e2e/plugin/device.sh" ;; esac
case "${E2E_ONLY:-}" in "" | churn) . "$TOP/tests/e2e/plugin/churn.sh" ;; esac
case "${E2E_ONLY:-}" in "" | share) . "$TOP/tests/e2e/plugin/share.sh" ;; esac

echo "plugin e2e: all passed"
