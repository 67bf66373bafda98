#!/usr/bin/env bash
# Unit test binaries JOBS at a time (the machine has two cores; a test is one
# thread, and under valgrind or qemu-user a slow one), each under $RUN if set
# (valgrind ..., qemu-s390x -L /).  Each test's output is shown whole and in
# the order given once all have run; every one runs even after a failure, and
# the failures are listed at the end.  The tests share nothing: their files
# come from mkstemp, their data from ZVM_TESTDATA (read only).
# Usage: RUN="..." scripts/run-tests.sh JOBS BIN...
set -u
jobs=$1
shift
run=()
read -r -a run <<<"${RUN:-}"
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

i=0
for t in "$@"; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n || true
	done
	(
		ZVM_TESTDATA=tests/data "${run[@]}" "$t" >"$logs/$i.log" 2>&1
		echo $? >"$logs/$i.rc"
	) &
	i=$((i + 1))
done
wait

failed=()
i=0
for t in "$@"; do
	echo "== $t"
	cat "$logs/$i.log"
	rc=$(cat "$logs/$i.rc" 2>/dev/null || echo 127)
	[ "$rc" = 0 ] || failed+=("$t (exit $rc)")
	i=$((i + 1))
done
if [ ${#failed[@]} -gt 0 ]; then
	printf 'FAILED: %s\n' "${failed[@]}"
	exit 1
fi
echo "run-tests: $# passed${RUN:+ under $RUN}"
