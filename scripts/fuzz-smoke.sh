#!/bin/sh
# CI's fuzz smoke runs: each target for FUZZ_SECONDS from a scratch copy of
# its committed corpus, two at a time (the machine has two cores; a target is
# single-threaded).  Findings land in build/fuzz/findings-NAME and fail the run.
# Usage: scripts/fuzz-smoke.sh SECONDS BIN...
set -u
secs=$1
shift
one() {
	f=$1
	n=${f##*/fuzz_}
	rm -rf build/fuzz/work-$n build/fuzz/findings-$n
	mkdir -p build/fuzz/work-$n build/fuzz/findings-$n
	cp -r tests/fuzz/corpus/$n/. build/fuzz/work-$n/ 2>/dev/null || true
	if "$f" -max_total_time="$secs" -max_len="$(scripts/fuzz-max-len.sh "$n")" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix=build/fuzz/findings-$n/ -print_final_stats=1 \
		build/fuzz/work-$n tests/fuzz/corpus/$n 2>build/fuzz/log-$n.txt; then
		echo "== fuzz $n: $secs s, $(grep -E '^stat::number_of_executed_units' build/fuzz/log-$n.txt | awk '{print $2}') executions"
	else
		tail -40 build/fuzz/log-$n.txt
		echo "fuzz $n: FINDING"
		return 1
	fi
}
fail=0
while [ $# -gt 0 ]; do
	one "$1" &
	a=$!
	shift
	b=""
	if [ $# -gt 0 ]; then
		one "$1" &
		b=$!
		shift
	fi
	wait "$a" || fail=1
	if [ -n "$b" ]; then wait "$b" || fail=1; fi
done
exit $fail
