#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# mon_procd's per-process records in the real collectd: zvmsim writes a
# capture with mon_procd-style writers, collectd replays it with Process and
# ProcessMatch, and check.py compares every processes-* series with the
# truth.  Then the configuration errors collectd must refuse.
# usage: run.sh TOP BUILD   (make check-procd)
TOP=$(cd "$1" && pwd)
BUILD=$2
ZVM_SO="$TOP/$BUILD/zvm.so"
. "$TOP/tests/e2e/plugin/lib.sh"
e2e_setup
trap 'rm -rf "$T"' EXIT
SIM="$TOP/$BUILD/zvmsim"
[ -x "$SIM" ] || fail "$SIM not built"

echo "== procd: Process / ProcessMatch against the truth, processes exiting and starting"
# --procd-churn: between passes tasks exit and start, some under a pid just freed
# (check.py fails unless the run has every case of it)
"$SIM" monwrite --capture -o "$T/procd.cap" --truth "$T/truth.jsonl" --intervals 8 --seed 3 \
	--guests 6 --linux 4 --procd 4 --procd-churn 25 --start 1795305600 2>/dev/null
conf procs "  File \"$T/procd.cap\"
  Process \"httpd\"
  Process \"java\"
  Process \"nosuchproc\"
  ProcessMatch \"db\" \"^/usr/bin/(db2sysc|postgres) \"
  ProcessMatch \"all\" \".\"
  <ProcessMatch \"cron2\" \"cron\">
    Guest \"LINUX002\"
  </ProcessMatch>"
run procs 4
logged procs 'procd.cap" (capture) replayed'
python3 "$TOP/tests/e2e/procd/check.py" "$T/truth.jsonl" "$T/procs/csv" \
	httpd=cmd:httpd java=cmd:java nosuchproc=cmd:nosuchproc \
	"db=re:^/usr/bin/(db2sysc|postgres) " all=re:. cron2=re:cron@LINUX002
[ "$(csvlast procs collector/zvm-reader/total_values-procd_torn)" = 0 ] || fail "procd_torn not 0"

echo "== procd: nothing per process unless configured"
conf none "  File \"$T/procd.cap\""
run none 3
! ls -d "$T"/none/csv/*/processes-?* >/dev/null 2>&1 || fail "processes-NAME series without Process options"
[ -d "$T/none/csv/linux001/processes" ] || fail "the guest-wide processes series are gone"

echo "== procd: the series cap holds"
conf cap "  File \"$T/procd.cap\"
  MaxSeriesPerGuest 40
  ProcessMatch \"all\" \".\""
run cap 3
[ "$(csvlast cap collector/zvm-reader/total_values-series_capped)" -gt 0 ] || fail "cap: nothing capped"
for h in "$T"/cap/csv/linux*; do
	n=$(find "$h" -type f | wc -l)
	[ "$n" -le 40 ] || fail "cap: $h has $n series"
done

echo "== procd: bad options are refused, naming the option"
refused() { # refused NAME "zvm options" "message"
	conf "$1" "$2"
	local rc=0
	timeout 10 collectd -f -C "$T/$1/collectd.conf" >"$T/$1/out" 2>&1 || rc=$?
	[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "$1: accepted (exit $rc)"
	grep -q -- "$3" "$T/$1/out" "$T/$1/collectd.log" 2>/dev/null ||
		{ cat "$T/$1/out"; fail "$1: no message: $3"; }
}
refused badre "  ProcessMatch \"x\" \"(unclosed\"" 'ProcessMatch "x": regular expression "(unclosed" does not compile'
refused dup "  Process \"a\"
  ProcessMatch \"a\" \"b\"" 'ProcessMatch "a" is configured twice'
refused slash "  Process \"a/b\"" "a process name needs 1 to 127 characters, no '/'"
refused args "  ProcessMatch \"x\"" 'ProcessMatch needs two strings'
refused child "  <Process \"x\">
    Host \"y\"
  </Process>" 'only Guest "PATTERN" ... is allowed inside'

echo "procd e2e: all passed"
