#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The conservation laws end to end (issue 9): the real collectd daemon, the zvm
# plugin reading zvmsim's FUSE monreader, csv and logfile output.  Hint metrics
# wait for their law (UnverifiedFields auto), a broken law keeps its metrics
# off and the log says why, UnverifiedFields false/true.  Checks: check.py.
# usage: run.sh TOP BUILD   (tests/e2e/module.mk: make check-laws)
TOP=$(cd "$1" && pwd)
BUILD=$2
ZVM_SO="$TOP/$BUILD/zvm.so"
SIM="$TOP/$BUILD/zvmsim"
. "$TOP/tests/e2e/plugin/lib.sh"
need fusermount3
[ -c /dev/fuse ] || fail "/dev/fuse missing: zvmsim needs FUSE"
[ -x "$SIM" ] || fail "$SIM not built"
e2e_setup

sim_pid=
sim_mnt=
stop_sim() {
	[ -n "$sim_pid" ] || return 0
	fusermount3 -u "$sim_mnt" 2>/dev/null || true
	kill "$sim_pid" 2>/dev/null || true
	wait "$sim_pid" 2>/dev/null || true
	sim_pid=
}
trap 'stop_sim; rm -rf "$T"' EXIT

NEED=3  # VerifyIntervals
SECS=10 # collectd's run: 1 s sample intervals, enough for NEED + 3 of them
SYSTEM=(--interval 1 --cpus 4 --guests 20 --linux 5 --devices 10)

# scenario NAME "zvm options" CHECK-ARGS [zvmsim options...]
scenario() {
	local name=$1 opts=$2 check=$3
	shift 3
	mkdir -p "$T/$name/mnt"
	sim_mnt="$T/$name/mnt"
	"$SIM" run -m "$sim_mnt" "${SYSTEM[@]}" "$@" >"$T/$name/sim.log" 2>&1 &
	sim_pid=$!
	for _ in $(seq 100); do [ -e "$sim_mnt/control" ] && break; sleep 0.1; done
	[ -e "$sim_mnt/control" ] || { cat "$T/$name/sim.log"; fail "$name: zvmsim did not mount"; }
	conf "$name" "  Device \"$sim_mnt/monreader\"
  $opts
  VerifyIntervals $NEED"
	run "$name" $SECS
	stop_sim
	# shellcheck disable=SC2086
	python3 "$TOP/tests/e2e/laws/check.py" "$T/$name/csv" "$T/$name/collectd.log" \
		--host zvmsim --need $NEED $check || {
		grep 'zvm plugin' "$T/$name/collectd.log" | tail -25
		fail "$name"
	}
}

echo "== laws kept, UnverifiedFields auto: hint metrics once their law held $NEED intervals"
scenario keep "UnverifiedFields auto" "--mode auto"
for law in guest-cpu storage; do
	echo "== zvmsim --break-law $law: its metrics never appear, the others' do, the log says why"
	scenario "break-$law" "UnverifiedFields auto" "--mode auto --broken $law" --break-law "$law"
done
echo "== zvmsim --reading aligned: SYTPRP and MTRSYS as zpmd's compiled structs; the engine switches, once"
scenario aligned "UnverifiedFields auto" "--mode auto --reading aligned" --reading aligned
echo "== UnverifiedFields false: hint metrics never, even with every law kept"
scenario false "UnverifiedFields false" "--mode false"
echo "== UnverifiedFields true: hint metrics from the first interval"
scenario true "UnverifiedFields true" "--mode true"
echo "laws e2e: all passed"
