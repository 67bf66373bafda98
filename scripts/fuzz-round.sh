#!/bin/sh
# A long fuzzing round: every target for SECONDS of CPU time from its
# committed corpus and the seed scripts' seeds, JOBS at a time (no more than
# the machine's cores) at idle priority, then the corpus minimised with
# libFuzzer's -merge=1 and a table of executions and coverage per target.
# Findings stop nothing here: they are listed at the end and must each be
# fixed with a regression test before the corpus is committed.
# Usage: scripts/fuzz-round.sh SECONDS JOBS BIN...
#
# CPU time, not wall clock: on a shared machine a target given 30 minutes of
# wall clock gets what the others leave it.  Each fuzzer's CPU time is read
# from /proc every few seconds and it is told to stop (SIGUSR1: libFuzzer
# finishes the input in hand and prints its final stats) once it has had
# SECONDS; FUZZ_ROUND_WALL (default 3 x SECONDS) bounds the wall clock too.
# A target's source may give its own -max_len (scripts/fuzz-max-len.sh).
#
# Targets are shared out among JOBS lanes, the longest budget first to the
# least loaded lane, and each lane runs its targets in turn: a core never
# waits for a slower target of another lane.
#
# FUZZ_ROUND_PRIOR=FILE continues a round begun in an earlier sitting from the
# corpus it left (libFuzzer's only state): each line "NAME EXECUTIONS CPU_S"
# of that sitting; NAME gets SECONDS minus what it had then, and the table
# gives the totals and the earlier share.
#
# Per target: build/fuzz/round-NAME/{log.txt,work/,findings/,merge.txt};
# minimised corpora in build/fuzz/round-merged/NAME (put one in place with
# tests/fuzz/corpus-install.sh NAME DIR); the table in
# build/fuzz/round-summary.md; line coverage of the merged corpora with
# FUZZ_ROUND_COVERAGE=1 (scripts/fuzz-coverage.sh, per target and the union).
set -u
secs=$1
jobs=$2
shift 2
cores=$(nproc 2>/dev/null || echo 1)
if [ "$jobs" -gt "$cores" ]; then
	echo "fuzz-round: $jobs jobs on $cores cores: running $cores at a time"
	jobs=$cores
fi
[ "$jobs" -ge 1 ] || jobs=1
wall=${FUZZ_ROUND_WALL:-$((3 * secs))}
tck=$(getconf CLK_TCK)
out=build/fuzz
mkdir -p "$out/round-merged"
rows=$out/round-rows.txt
: >"$rows"

# The seed scripts' seeds, written once into a scratch tree.
seeds=$out/round-seeds
rm -rf "$seeds"
mkdir -p "$seeds/tests/fuzz"
cp tests/fuzz/*.py "$seeds/tests/fuzz/"
(cd "$seeds" && for s in tests/fuzz/*seeds*.py; do python3 "$s" >/dev/null; done)

# CPU seconds (user + system) the process has had so far; empty once it has
# ended (a zombie until wait: state Z).
cpu_of() {
	awk -v t="$tck" '{ sub(/^.*\) /, "") } $1 != "Z" { print int(($12 + $13) / t) }' \
		"/proc/$1/stat" 2>/dev/null
}

# Run one fuzzer until it has had $secs of CPU or $wall of wall clock; its
# CPU seconds, as last read (at most 5 s short), in $cpu.
fuzz_for() {
	f=$1 d=$2 ml=$3 budget=$4
	nice -n 19 "$f" -max_total_time="$wall" -max_len="$ml" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$d/findings/" -print_final_stats=1 "$d/work" >"$d/log.txt" 2>&1 &
	pid=$!
	cpu=0
	while c=$(cpu_of $pid) && [ -n "$c" ]; do
		cpu=$c
		if [ "$c" -ge "$budget" ]; then
			kill -USR1 $pid 2>/dev/null
			break
		fi
		sleep 5
	done
	wait $pid
}

# "EXECUTIONS CPU_S" NAME had in the earlier sitting, "0 0" without one.
prior_of() {
	if [ -n "${FUZZ_ROUND_PRIOR:-}" ]; then
		awk -v n="$1" '$1 == n { print $2, $3; f = 1 } END { if (!f) print 0, 0 }' \
			"$FUZZ_ROUND_PRIOR"
	else
		echo 0 0
	fi
}

budget_of() {
	set -- $(prior_of "$1")
	b=$((secs - $2))
	[ "$b" -gt 0 ] || b=0
	echo "$b"
}

one() {
	f=$1
	n=${f##*/fuzz_}
	set -- $(prior_of "$n")
	pex=$1 pcpu=$2
	budget=$(budget_of "$n")
	d=$out/round-$n
	rm -rf "$d"
	mkdir -p "$d/work" "$d/findings"
	cp -r "tests/fuzz/corpus/$n/." "$d/work/" 2>/dev/null || true
	if [ -d "$seeds/tests/fuzz/corpus/$n" ]; then cp -r "$seeds/tests/fuzz/corpus/$n/." "$d/work/"; fi
	ml=$(scripts/fuzz-max-len.sh "$n")
	t0=$(date +%s)
	if [ "$budget" -gt 0 ]; then
		fuzz_for "$f" "$d" "$ml" "$budget"
		rc=$?
	else
		cpu=0 rc=0
		: >"$d/log.txt"
	fi
	t1=$(date +%s)
	ex=$(awk '/^stat::number_of_executed_units/ {print $2}' "$d/log.txt")
	# the last status line: "#N DONE cov: EDGES ft: FEATURES corp: ..."
	cov=$(grep -E '^#[0-9]+' "$d/log.txt" | tail -1 | sed -n 's/.* cov: \([0-9]*\) ft: \([0-9]*\).*/\1 \2/p')
	before=$(find "tests/fuzz/corpus/$n" -type f | wc -l)
	m=$out/round-merged/$n
	rm -rf "$m"
	mkdir -p "$m"
	nice -n 19 "$f" -merge=1 -max_len="$ml" -timeout=10 -rss_limit_mb=2048 "$m" \
		"tests/fuzz/corpus/$n" "$d/work" >"$d/merge.txt" 2>&1
	after=$(find "$m" -type f | wc -l)
	nf=$(find "$d/findings" -type f | wc -l)
	echo "$n $((${ex:-0} + pex)) $((cpu + pcpu)) $((t1 - t0)) ${cov:-? ?} $before $after $nf $rc $pex $pcpu" >>"$rows"
	echo "fuzz-round: $n: ${ex:-?} executions, $cpu CPU s (earlier: $pex, $pcpu), $((t1 - t0)) wall s, cov ${cov:-?}, corpus $before -> $after, $nf findings"
}

lanes=$out/round-lanes
rm -rf "$lanes"
mkdir -p "$lanes"
i=0
while [ $i -lt "$jobs" ]; do
	echo 0 >"$lanes/load.$i"
	: >"$lanes/queue.$i"
	i=$((i + 1))
done
for f in "$@"; do
	echo "$(budget_of "${f##*/fuzz_}") $f"
done | sort -rn | while read -r b f; do
	best=0
	i=1
	while [ $i -lt "$jobs" ]; do
		[ "$(cat "$lanes/load.$i")" -lt "$(cat "$lanes/load.$best")" ] && best=$i
		i=$((i + 1))
	done
	echo "$f" >>"$lanes/queue.$best"
	echo $(($(cat "$lanes/load.$best") + b)) >"$lanes/load.$best"
done
i=0
while [ $i -lt "$jobs" ]; do
	(while read -r f; do one "$f"; done <"$lanes/queue.$i") &
	i=$((i + 1))
done
wait

# The table: one row per target, in the order given.
sum=$out/round-summary.md
{
	echo "Fuzz round: $secs CPU seconds a target, $jobs at a time on $cores cores ($(date -u +%Y-%m-%d))."
	echo
	if [ -n "${FUZZ_ROUND_PRIOR:-}" ]; then
		echo "Continued from an earlier sitting ($FUZZ_ROUND_PRIOR): executions and CPU s are totals, the earlier share beside them."
		echo
	fi
	echo "| target | executions | CPU s | earlier: executions, CPU s | exec / CPU s | wall s | edges | features | corpus before | after (merged) | findings |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for f in "$@"; do
		grep "^${f##*/fuzz_} " "$rows"
	done | while read -r n ex cpu w e ft b a nf rc pex pcpu; do
		rate=$([ "$cpu" -gt 0 ] && echo $((ex / cpu)) || echo "-")
		[ "$rc" = 0 ] || nf="$nf (exit $rc)"
		echo "| $n | $ex | $cpu | $pex, $pcpu | $rate | $w | $e | $ft | $b | $a | $nf |"
	done
} >"$sum"
if [ "${FUZZ_ROUND_COVERAGE:-0}" = 1 ]; then
	scripts/fuzz-coverage.sh build/fuzzcov "$out/round-merged" >"$sum.cov" 2>&1 &&
		{ echo; echo "Line coverage of the merged corpora (llvm-cov):"; echo; grep '^|' "$sum.cov"; } >>"$sum"
fi
cat "$sum"
echo "fuzz-round: findings:"
find "$out"/round-*/findings -type f 2>/dev/null || true
