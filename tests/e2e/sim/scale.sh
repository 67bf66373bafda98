#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# zvmsim at 50,000 guests (doc/zvmsim.md, Size): the file is generated in
# seconds (the time is printed, not asserted), decodes to its truth, holds
# every record of every guest, and keeps every law in every interval after
# the first when the metric engine reads the file; each --break-law breaks
# its law at that size; a DCSS pinned too small loses records visibly.
# usage: scale.sh ZVMSIM SIM_WALK ZVMMON WORKDIR   (zvmsim/module.mk: make check-sim-scale)
set -euo pipefail
SIM=$1 WALK=$2 ZVMMON=$3 W=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
for b in "$SIM" "$WALK" "$ZVMMON"; do [ -x "$b" ] || fail "$b not built"; done
command -v python3 >/dev/null || fail "python3 missing (make deps installs it)"
rm -rf "$W" && mkdir -p "$W"
trap 'rm -rf "$W"' EXIT
GUESTS=50000 N=3
SYSTEM=(--guests $GUESTS --linux 10000 --devices 10000 --vnics 2500 --interval 60)
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

echo "== check-sim-scale: $N intervals of $GUESTS guests (10000 Linux, 10000 devices, 2500 NICs)"
t0=$(now)
"$SIM" monwrite -o "$W/big.mw" --truth "$W/big.jsonl" --truth-counts --intervals $N "${SYSTEM[@]}" \
	2>"$W/sim.err" || { cat "$W/sim.err"; fail "zvmsim monwrite"; }
t1=$(now)
cat "$W/sim.err"
grep -q "did not fit" "$W/sim.err" && fail "zvmsim lost records at $GUESTS guests"
echo "generated $(stat -c %s "$W/big.mw") bytes in $(secs "$t0" "$t1") s"
"$WALK" file "$W/big.mw" "$W/big.jsonl" --laws all

# Every guest has at least one virtual CPU, so one USEACT each per interval:
# counted from the file, not taken from zvmsim's own truth.
"$ZVMMON" stat --format json "$W/big.mw" >"$W/stat.json" 2>/dev/null || [ $? -le 1 ] || fail "zvmmon stat"
python3 - "$W/stat.json" $GUESTS $N <<'PY'
import json, sys
st, guests, n = json.load(open(sys.argv[1])), int(sys.argv[2]), int(sys.argv[3])
got = {(e["domain"], e["record"]): e["count"] for e in st["by_record"]}
useact, users = got.get((4, 3), 0), got.get((1, 15), 0)
print("USEACT records: %d for %d intervals of %d guests (MTRUSR %d)" % (useact, n, guests, users))
if useact < guests * n or users != guests:
    sys.exit("FAIL: fewer USEACT records than guests x intervals")
PY

echo "== check-sim-scale: each --break-law at $GUESTS guests breaks its law"
t0=$(now)
for law in $("$WALK" laws); do
	"$SIM" monwrite -o "$W/broken.mw" --intervals 2 "${SYSTEM[@]}" --break-law "$law" 2>/dev/null ||
		fail "zvmsim --break-law $law"
	"$WALK" file "$W/broken.mw" --laws "$law" >"$W/broken.txt" 2>&1 || { cat "$W/broken.txt"; fail "--break-law $law"; }
	grep "(broken on purpose)" "$W/broken.txt"
done
echo "laws broken one at a time at $GUESTS guests: ok ($(secs "$t0" "$(now)") s)"

echo "== check-sim-scale: 20000 guests in a DCSS pinned at 4096 pages: records lost, and said so"
"$SIM" monwrite -o "$W/small.mw" --truth "$W/small.jsonl" --truth-counts --intervals 2 --guests 20000 \
	--linux 4000 --devices 4000 --vnics 1000 --interval 60 --dcss-pages 4096 2>"$W/small.err" ||
	{ cat "$W/small.err"; fail "zvmsim monwrite --dcss-pages 4096"; }
cat "$W/small.err"
grep -q "did not fit their area of the DCSS (4096 pages)" "$W/small.err" || fail "zvmsim did not report the lost records"
# The file still decodes cleanly and agrees with the truth, which counts what was lost.
"$WALK" file "$W/small.mw" "$W/small.jsonl" --lost some
rm -rf "$W"
echo "check-sim-scale: all passed"
