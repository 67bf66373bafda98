#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# zvmmon stat over a simulated hour (3600 one-second intervals of a small
# system): every record zvmsim generates is named (domain, record, DSECT),
# nothing is "unknown", and the counts match zvmsim's ground truth.
# usage: hour.sh ZVMSIM ZVMMON WORKDIR
set -euo pipefail
SIM=$1 ZVMMON=$2 W=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v python3 >/dev/null || fail "python3 missing (make deps installs it)"
[ -x "$SIM" ] || fail "$SIM not built"
[ -x "$ZVMMON" ] || fail "$ZVMMON not built"
rm -rf "$W" && mkdir -p "$W"
trap 'rm -rf "$W"' EXIT
echo "== zvmmon stat over a simulated hour: 3600 x 1 s, 4 CPUs, 20 guests, 5 Linux, 10 devices"
"$SIM" monwrite -o "$W/hour.mw" --truth "$W/truth.jsonl" --truth-counts --intervals 3600 --interval 1 \
	--cpus 4 --guests 20 --linux 5 --devices 10 --fsstatd 2 --procd 2 2>"$W/sim.err" ||
	{ cat "$W/sim.err"; fail "zvmsim monwrite"; }
rc=0
"$ZVMMON" stat "$W/hour.mw" >"$W/stat.txt" 2>"$W/stat.err" || rc=$?
[ $rc -le 1 ] || { cat "$W/stat.err"; fail "zvmmon stat exit $rc"; }
"$ZVMMON" stat --format json "$W/hour.mw" >"$W/stat.json" 2>/dev/null || [ $? -le 1 ] || fail "zvmmon stat --format json"
python3 "$(dirname "$0")/hourcheck.py" "$W/truth.jsonl" "$W/stat.json" "$W/stat.txt" $rc
