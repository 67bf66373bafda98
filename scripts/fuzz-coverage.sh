#!/bin/sh
# Line coverage of decoder/ (and the plugin sources the plugin targets use)
# by the committed fuzz corpora: each target is built with clang's source
# coverage, run once over its corpus (no fuzzing), and llvm-cov reports each
# target's share (a table row a target) and the union.
# Usage: scripts/fuzz-coverage.sh [BUILD_DIR] [CORPUS_ROOT]
# (defaults build/fuzzcov, tests/fuzz/corpus; a target's corpus is CORPUS_ROOT/NAME)
set -eu
out=${1:-build/fuzzcov}
root=${2:-tests/fuzz/corpus}
for t in clang llvm-profdata llvm-cov; do
	command -v $t >/dev/null || { echo "fuzz-coverage: $t missing (make deps)"; exit 1; }
done
mkdir -p "$out"
rm -f "$out"/*.profraw
make --no-print-directory build/cdinc/collectd >/dev/null
srcs=$(find decoder -name '*.c' | sort)
# Each target's extra flags and sources, as tests/fuzz/module.mk builds it:
# "fuzz_NAME FLAGS..." a line, written by make fuzz-coverage and make fuzz-round.
[ -f "$out/extras.txt" ] || { echo "fuzz-coverage: $out/extras.txt missing (run make fuzz-coverage)"; exit 1; }
bins=""
echo "| target | corpus inputs | decoder/ lines covered |"
echo "|---|---:|---|"
for f in tests/fuzz/fuzz_*.c; do
	n=$(basename "$f" .c); n=${n#fuzz_}
	[ -d "$root/$n" ] || continue # a round given some targets only
	extra=$(sed -n "s/^fuzz_$n //p" "$out/extras.txt")
	# shellcheck disable=SC2086
	clang -fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping -g -O1 -std=c11 \
		-D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -Idecoder -I/usr/include/yajl \
		-o "$out/cov_$n" "$f" $extra $srcs -lyajl -lm -lpthread
	LLVM_PROFILE_FILE="$out/$n.profraw" "$out/cov_$n" -runs=0 "$root/$n" \
		>"$out/run-$n.log" 2>&1
	execs=$(find "$root/$n" -type f | wc -l)
	llvm-profdata merge -sparse "$out/$n.profraw" -o "$out/$n.profdata"
	# TOTAL row: ... Lines, Missed Lines, Cover, ...: the target's line coverage.
	lines=$(llvm-cov report -instr-profile="$out/$n.profdata" "$out/cov_$n" decoder |
		awk '/^TOTAL/ {print $10 " of " $8}')
	echo "| $n | $execs | $lines |"
	if [ -z "$bins" ]; then bins="$out/cov_$n"; else bins="$bins -object $out/cov_$n"; fi
done
llvm-profdata merge -sparse "$out"/*.profraw -o "$out/all.profdata"
# shellcheck disable=SC2086
llvm-cov report -instr-profile="$out/all.profdata" $bins decoder plugin/zvm/zvm_series_text.c \
	plugin/zvm/zvm_host.c plugin/zvm/zvm_series.c plugin/zvm/zvm_dispatch.c plugin/zvm/zvm_config.c >"$out/report.txt"
# TOTAL row: ... Lines, Missed Lines, Cover, Branches ...: print the line columns.
awk '/^TOTAL/ {print "fuzz-coverage: decoder and the plugin mapping: " $8 " lines, " $9 " missed, " $10 " covered"}' "$out/report.txt"
echo "fuzz-coverage: per file in $out/report.txt"
