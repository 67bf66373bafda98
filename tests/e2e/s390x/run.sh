#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The real target: Debian's s390x collectd daemon, under qemu-user, with the
# s390x-built zvm.so and write_zvm.so, against zvmsim running natively (its
# FUSE files are read and written by the s390x daemon through the host kernel).
#
# usage: run.sh TOP BUILD S390X_BUILD S390X_CD_ROOT [PART...]   (make check-s390x-daemon)
#
# PART: live, wzvm, replay (default: all three)
#   live     the s390x zvm plugin on zvmsim's monreader: csv equals the ground truth
#   wzvm     write_zvm in an s390x collectd into a stand-in monwriter file and through
#            zvmsim to an s390x zvm plugin (tests/e2e/wzvm/run.sh, all its modes)
#   replay   one MONWRITE file replayed by the x86-64 and the s390x daemon: the same
#            values, value by value, and both equal the ground truth
TOP=$(cd "$1" && pwd)
BUILD=$2
SBUILD="$TOP/$3"
ROOT=$4
shift 4
PARTS=" ${*:-live wzvm replay} "
part() { [[ $PARTS == *" $1 "* ]]; }
ZVM_SO="$TOP/$BUILD/zvm.so"
. "$TOP/tests/e2e/plugin/lib.sh"

SIM="$TOP/$BUILD/zvmsim"
S_COLLECTD="$ROOT/usr/sbin/collectd"
S_PLUGINS="$ROOT/usr/lib/collectd"
S_TYPESDB="$ROOT/usr/share/collectd/types.db"
QEMU=(qemu-s390x -L /)

# Each missing piece named, with what installs it.
need qemu-s390x
need readelf
[ -x "$S_COLLECTD" ] || fail "$S_COLLECTD missing: Debian's collectd-core:s390x is unpacked there by make deps"
for p in libc6:s390x libcap2:s390x libyajl2:s390x; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		fail "$p not installed (make deps: the s390x collectd needs it under qemu-user)"
done
# The binaries under test must really be s390x ones, or the test proves nothing.
for f in "$S_COLLECTD" "$SBUILD/zvm.so" "$SBUILD/write_zvm.so"; do
	[ -f "$f" ] || fail "$f not built"
	readelf -h "$f" | grep -q 'IBM S/390' || fail "$f is not an s390x binary"
done
readelf -h "$ZVM_SO" | grep -q 'X86-64' || fail "$ZVM_SO is not an x86-64 binary"
"${QEMU[@]}" "$S_COLLECTD" -h 2>&1 | grep -q '^Usage: collectd' ||
	fail "the s390x collectd does not start under ${QEMU[*]}: $("${QEMU[@]}" "$S_COLLECTD" -h 2>&1 | head -3)"
[ -x "$SIM" ] || fail "$SIM not built"
[ -e /dev/fuse ] || fail "FUSE is unavailable (/dev/fuse missing): zvmsim's devices need it"
need fusermount3

# $T/plugins: the host's daemon (lib.sh); $T/plugins-s390x: copies, as collectd
# refuses symlinked plugins.
e2e_setup
mkdir -p "$T/plugins-s390x"
cp "$SBUILD/zvm.so" "$T/plugins-s390x/zvm.so"
for p in csv logfile write_log; do
	[ -f "$S_PLUGINS/$p.so" ] || fail "$S_PLUGINS/$p.so missing (collectd-core:s390x)"
	cp "$S_PLUGINS/$p.so" "$T/plugins-s390x/"
done
# s390x|host conf/run ...: lib.sh's helpers for one daemon or the other.
s390x() { PLUGDIR="$T/plugins-s390x" CD_TYPESDB="$S_TYPESDB" COLLECTD="$S_COLLECTD" "$@"; }
host() { PLUGDIR="$T/plugins" "$@"; }

# A small system: code runs about twenty times slower under qemu-user (zvmmon dump
# of an 8 MB MONWRITE file: 0.6 s natively, 12 s cross-built under qemu-s390x).
SYSTEM=(--cpus 2 --guests 3 --linux 2 --devices 1 --vnics 1 --start 1795305600)

M="$T/mnt"
SIMPID=""
sim_stop() { # unmounting ends zvmsim, which then completes its truth file
	[ -n "$SIMPID" ] || return 0
	fusermount3 -u "$M" 2>/dev/null || true
	for _ in $(seq 50); do kill -0 "$SIMPID" 2>/dev/null || break; sleep 0.1; done
	kill "$SIMPID" 2>/dev/null || true
	wait "$SIMPID" 2>/dev/null || true
	SIMPID=""
}
CD=""
cleanup() {
	[ -z "$CD" ] || { kill "$CD" 2>/dev/null || true; wait "$CD" 2>/dev/null || true; }
	sim_stop
	rm -rf "$T"
}
trap cleanup EXIT
st() { awk -v k="$1" '$1 == k { print $2 }' "$M/status"; }
secs() { python3 -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$@"; }
T0=$(date +%s.%N)

if part live; then
echo "== live: s390x collectd, s390x zvm.so, zvmsim's monreader; csv against the ground truth"
t=$(date +%s.%N)
mkdir -p "$M"
"$SIM" run -m "$M" --interval 0 "${SYSTEM[@]}" --truth "$T/live-truth.jsonl" >"$T/zvmsim.log" 2>&1 &
SIMPID=$!
for _ in $(seq 50); do [ -e "$M/monreader" ] && break; sleep 0.1; done
[ -e "$M/monreader" ] || { cat "$T/zvmsim.log"; fail "zvmsim did not mount $M"; }
s390x conf live "  Device \"$M/monreader\"
  RetryInterval 0.5
  MaxRetryInterval 1" json
timeout -s TERM -k 10 90 "${QEMU[@]}" "$S_COLLECTD" -f -C "$T/live/collectd.conf" >"$T/live/stdout" 2>&1 &
CD=$!
for _ in $(seq 300); do [ "$(st reader_open)" = 1 ] && break; sleep 0.1; done
[ "$(st reader_open)" = 1 ] || { cat "$T/live/stdout" "$T/live/collectd.log"; fail "live: the s390x daemon did not open the monreader within 30 s"; }
for _ in $(seq 6); do echo interval >"$M/control"; sleep 0.5; done
# Until the plugin has counted every data set zvmsim made (qemu on a busy machine
# may lag well behind), then one more read callback for the self-metrics.
sets=$(st sets)
for _ in $(seq 300); do [ "$(csvlast live collector/zvm-reader/total_objects-datasets)" = "$sets" ] && break; sleep 0.1; done
echo "live: zvmsim made $sets data sets, the s390x plugin counted $(csvlast live collector/zvm-reader/total_objects-datasets)"
sleep 1.5
kill -TERM "$CD"
rc=0
wait "$CD" || rc=$?
CD=""
grep -q "Exiting normally" "$T/live/collectd.log" || { tail -20 "$T/live/collectd.log"; fail "live: no clean shutdown (rc $rc)"; }
sim_stop
[ "$(csvlast live collector/zvm-reader/errors-decode)" = 0 ] || fail "live: decode errors on zvmsim's data"
[ "$(csvlast live collector/zvm-reader/total_objects-datasets)" = "$sets" ] || fail "live: the plugin did not read all $sets data sets"
# --cp-min 4: memory-free is a hint field, published once the storage law has
# held; of 6 sample intervals that leaves 4 (the x86-64 daemon gives the same).
python3 "$TOP/tests/e2e/plugin/check_truth.py" "$T/live-truth.jsonl" "$T/live/csv" "$T/live/collectd.log" \
	--min 100 --cp-min 4
echo "live: $(secs "$t" "$(date +%s.%N)") s"
fi

if part wzvm; then
echo "== wzvm: s390x write_zvm into a stand-in monwriter and through zvmsim to the s390x zvm plugin"
t=$(date +%s.%N)
COLLECTD_CMD="${QEMU[*]} $S_COLLECTD" CD_PLUGINS="$S_PLUGINS" CD_TYPESDB="$S_TYPESDB" ZVMSIM="$SIM" \
	"$TOP/tests/e2e/wzvm/run.sh" "$SBUILD" all
echo "wzvm: $(secs "$t" "$(date +%s.%N)") s"
fi

if part replay; then
echo "== replay: one MONWRITE file, x86-64 and s390x daemons, value by value"
t=$(date +%s.%N)
# A larger system than the live one: a replay costs the s390x daemon little.
"$SIM" monwrite -o "$T/replay.monwrite" --intervals 10 --cpus 4 --guests 8 --linux 3 --devices 4 \
	--vnics 2 --lpars 2 --fsstatd 1 --procd 1 --start 1795305600 --truth "$T/replay-truth.jsonl" \
	>"$T/monwrite.log" 2>&1 || { cat "$T/monwrite.log"; fail "zvmsim monwrite failed"; }
# The configuration set and the intervals, as zvmsim counts them.
sets=$(sed -n 's/^zvmsim: \([0-9]*\) data sets.*/\1/p' "$T/monwrite.log")
[ -n "$sets" ] || { cat "$T/monwrite.log"; fail "zvmsim monwrite did not say how many data sets it wrote"; }
for a in host s390x; do
	$a conf "replay-$a" "  File \"$T/replay.monwrite\"" json
done
host run replay-host 4
# Under qemu the daemon starts and decodes much slower: a longer run.
s390x run replay-s390x 10 "${QEMU[@]}"
for a in host s390x; do
	logged "replay-$a" 'File ".*replay.monwrite" (monwrite) replayed: '"$sets"' data sets'
	python3 "$TOP/tests/e2e/plugin/check_truth.py" "$T/replay-truth.jsonl" "$T/replay-$a/csv" \
		"$T/replay-$a/collectd.log" --min 100 --cp-min 3
done
python3 "$TOP/tests/e2e/s390x/same_csv.py" "$T/replay-host/csv" "$T/replay-s390x/csv" --self collector --min 1000
echo "replay: $(secs "$t" "$(date +%s.%N)") s"
fi

echo "s390x daemon: all passed in $(secs "$T0" "$(date +%s.%N)") s"
