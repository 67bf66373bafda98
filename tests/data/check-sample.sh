#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make check-sample: the bundled tests/data/sample.monwrite still reads as the
# zvmsim system `make sim-sample` describes (zvmsim/module.mk SIM_SAMPLE_OPTS:
# seed 1, 30 one-minute intervals, 4 CPUs, 20 guests, 4 Linux, 10 devices,
# 4 vNICs, 2 LPARs, SSI member).  A sample left behind by a change to zvmsim's records or
# to the decoder's layouts reads as "(system?)" (neither reading of SYTPRP
# and MTRSYS fits), and the demo's replay then files CP data under the
# collector's host name: this fails first.  Regenerate with make sim-sample.
# usage: tests/data/check-sample.sh BUILD
set -euo pipefail
BUILD=${1:-build}
S=tests/data/sample.monwrite
Z=$BUILD/zvmmon/zvmmon
T=$(mktemp -d "${TMPDIR:-/tmp}/check-sample.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() {
	echo "check-sample: FAIL: $*" >&2
	echo "check-sample: regenerate the sample with make sim-sample (and commit it)" >&2
	exit 1
}
[ -f "$S" ] || fail "$S missing"

# 0. The bytes make sim-sample writes today: a sample that still reads, but
# lacks records zvmsim has learnt to write since, is stale too.
if [ -n "${SIM_SAMPLE_OPTS:-}" ]; then
	# shellcheck disable=SC2086 # the options are words
	"$BUILD/zvmsim" monwrite -o "$T/fresh.monwrite" $SIM_SAMPLE_OPTS >/dev/null 2>&1 ||
		fail "zvmsim monwrite $SIM_SAMPLE_OPTS failed"
	cmp -s "$S" "$T/fresh.monwrite" || fail "$S is not what make sim-sample writes now"
fi

# 1. zvmmon top: the system name from MTRSYS under the default (packed) reading.
"$Z" top -b -n 3 "$S" >"$T/top.out" 2>"$T/top.err" || { cat "$T/top.err" >&2; fail "zvmmon top failed"; }
grep -Fqx "zvmmon top: interval 1: system name zvmsim (MTRSYS_SYSTMID, packed reading)" "$T/top.err" ||
	{ cat "$T/top.err" >&2; fail "zvmmon top does not find the system name zvmsim in the packed reading"; }
! grep -q "neither reading" "$T/top.err" || fail "zvmmon top: $(grep -m1 "neither reading" "$T/top.err")"
! grep -Fq "(system?)" "$T/top.out" || fail "zvmmon top shows (system?)"
n=$(grep -c "^zvmsim  2026-11-22 00:0[123]:00 UTC  interval [123] (60 s)$" "$T/top.out" || true)
[ "$n" = 3 ] || { head -3 "$T/top.out" >&2; fail "zvmmon top: $n of 3 frames headed zvmsim, 2026-11-22, 60 s"; }
grep -Eq "^cpus 4 busy [0-9.]+%  used [0-9.]+ GiB  free [0-9.]+ GiB .* users 20$" "$T/top.out" ||
	{ cat "$T/top.out" >&2; fail "zvmmon top: no frame with 4 CPUs, storage used and free and 20 users"; }
n=$(grep -Ec "^(LINUX00[1-4]|USER0(0[1-9]|1[0-2])|OPERATOR|PERFSVM|RSCS|TCPIP) " "$T/top.out" || true)
[ "$n" = 60 ] || fail "zvmmon top: $n guest rows in 3 frames (want 20 each)"

# 2. zvmmon stat: the counts the options make.
"$Z" stat "$S" >"$T/stat.out" 2>&1 || { cat "$T/stat.out" >&2; fail "zvmmon stat failed"; }
want="format=monwrite .* sets=35 mces=35 records=3639 .* intervals=31 first_time=2026-11-22T00:00:00.000000Z last_time=2026-11-22T00:30:00.000000Z"
grep -Eq "$want" "$T/stat.out" || { head -1 "$T/stat.out" >&2; fail "zvmmon stat: not $want"; }
for r in "record=2 .* dsect=SYTPRP count=120" "record=4 .* dsect=MTRSYS count=1" \
	"record=15 .* dsect=MTRUSR count=20" "record=3 .* dsect=USEACT count=810" \
	"record=3 .* dsect=IODDEV count=300" "record=1 .* dsect=VNDSES count=120" \
	"record=16 .* dsect=SYTCUP count=60"; do
	grep -Eq "$r" "$T/stat.out" || fail "zvmmon stat: no $r"
done
grep -Eq "^  errors: *$" "$T/stat.out" || fail "zvmmon stat: decode errors: $(grep -A3 "errors:" "$T/stat.out")"

# 3. The demo's replay (no FUSE) in the real collectd: CP data under zvmsim.
if command -v collectd >/dev/null; then
	ZVM_DEMO_NO_FUSE=1 plugin/demo.sh "$BUILD" 3 >"$T/demo.out" 2>&1 || { cat "$T/demo.out" >&2; fail "the demo's replay failed"; }
	grep -Fq "zvm plugin: system name zvmsim (MTRSYS_SYSTMID, packed reading)" "$T/demo.out" ||
		{ tail -20 "$T/demo.out" >&2; fail "the demo's replay does not name the system zvmsim"; }
	grep -Eq "^host zvmsim: [0-9]+ series" "$T/demo.out" || fail "the demo's replay stored no series under host zvmsim"
	grep -Fq "reader: 35 data sets, 3639 records," "$T/demo.out" ||
		fail "the demo's replay: $(grep "^reader:" "$T/demo.out")"
	grep -Fq ", 0 decode errors" "$T/demo.out" || fail "the demo's replay: $(grep "^reader:" "$T/demo.out")"
else
	fail "collectd missing (make deps-demo)"
fi
echo "check-sample: $S reads as zvmsim (packed reading, 4 CPUs, 20 guests, 35 sets, 3639 records), in zvmmon and in the demo's replay"
