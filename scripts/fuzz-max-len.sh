#!/bin/sh
# The largest input worth giving fuzz target NAME: the bound its source
# declares on a line " * fuzz-round: -max_len=N" (one for its format: a
# bigger input is slower and reaches nothing more), else 65536.  Read by
# both fuzz-smoke.sh and fuzz-round.sh.  Run from the tree top.
# Usage: scripts/fuzz-max-len.sh NAME
ml=$(sed -n 's/^ \* fuzz-round: -max_len=\([0-9]*\).*/\1/p' "tests/fuzz/fuzz_$1.c" | head -1)
echo "${ml:-65536}"
