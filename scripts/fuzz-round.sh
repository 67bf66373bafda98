#!/bin/sh
# A long fuzzing round: every target for SECONDS (wall clock) from its
# committed corpus, JOBS at a time at idle priority, then the new inputs
# minimised into tests/fuzz/corpus/NAME with libFuzzer's -merge=1.
# Findings stop nothing here: they are listed at the end and must each be
# fixed with a regression test before the corpus is committed.
# Usage: scripts/fuzz-round.sh SECONDS JOBS BIN...
# Per target: build/fuzz/round-NAME/{log.txt,work/,findings/}; summary in
# build/fuzz/round-summary.txt (executions, wall seconds, corpus before/after).
set -u
secs=$1
jobs=$2
shift 2
sum=build/fuzz/round-summary.txt
: >"$sum"
one() {
	f=$1
	n=${f##*/fuzz_}
	d=build/fuzz/round-$n
	rm -rf "$d"
	mkdir -p "$d/work" "$d/findings"
	cp -r tests/fuzz/corpus/$n/. "$d/work/" 2>/dev/null || true
	t0=$(date +%s)
	nice -n 19 "$f" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$d/findings/" -print_final_stats=1 "$d/work" >"$d/log.txt" 2>&1
	rc=$?
	t1=$(date +%s)
	ex=$(awk '/^stat::number_of_executed_units/ {print $2}' "$d/log.txt")
	before=$(find tests/fuzz/corpus/$n -type f | wc -l)
	# -merge=1 keeps, of the old corpus and the new inputs, a minimal set with
	# the same coverage; it writes into a fresh directory that replaces the old.
	rm -rf "$d/merged"
	mkdir -p "$d/merged"
	nice -n 19 "$f" -merge=1 -max_len=65536 -timeout=10 -rss_limit_mb=2048 "$d/merged" \
		tests/fuzz/corpus/$n "$d/work" >"$d/merge.txt" 2>&1
	after=$(find "$d/merged" -type f | wc -l)
	echo "$n: rc=$rc executions=${ex:-?} wall=$((t1 - t0))s corpus $before -> $after" | tee -a "$sum"
}
while [ $# -gt 0 ]; do
	pids=""
	i=0
	while [ $i -lt "$jobs" ] && [ $# -gt 0 ]; do
		one "$1" &
		pids="$pids $!"
		shift
		i=$((i + 1))
	done
	for p in $pids; do wait "$p"; done
done
echo "fuzz-round: findings:"
ls build/fuzz/round-*/findings/ 2>/dev/null | grep -v '^$' || true
