# SPDX-License-Identifier: MIT
# Sourced by run.sh: the zvm plugin in the real collectd on zvmsim's FUSE
# /dev/monreader.  Intervals are driven through zvmsim's control file, so
# the run is deterministic; faults are injected the same way.
. "$TOP/tests/e2e/plugin/simlib.sh"
# A frame per control element: a sample set of several, so that `cut` leaves some of it.
sim_start "$T/truth.jsonl" --frames-per-mce 1

echo "== live zvmsim: EBUSY, values against the ground truth, sever, EFAULT, EOVERFLOW, oversized,"
echo "   a cut and an empty sample set, EIO at open"
# Another program holds the device: the plugin must say so and wait.
python3 -c 'import os, sys, time; fd = os.open(sys.argv[1], os.O_RDONLY); time.sleep(4)' "$M/monreader" &
HOLD=$!
wait_open 1 5
# LiveQueue 20, below one interval's values: every sample set is paced through the
# markers (doc/plugin.md), and the ground truth below shows that nothing is lost by it.
conf dev "  Device \"$M/monreader\"
  RetryInterval 0.5
  MaxRetryInterval 1
  MaxDataSetSize 262144
  LiveQueue 20" json
timeout -s TERM -k 10 120 collectd -f -C "$T/dev/collectd.conf" >"$T/dev/stdout" 2>&1 &
CD=$!
sleep 2
logged dev "is busy: another program has it open"
logged dev "one reader per guest"
wait "$HOLD"
wait_open 1 5
logged dev "opened; reading monitor data"
SKIP=""
intervals 4
# Sever: the data set in flight and the queue are lost; the plugin reopens by itself.
i0=$(st interval); ctl sever; wait_open 0 3; wait_open 1 5
SKIP="$SKIP,$i0,$((i0 + 1))"
intervals 3
# EFAULT: the set being read is discarded, the device stays open.
i0=$(st interval); ctl efault; ctl interval; sleep 0.5
SKIP="$SKIP,$((i0 + 1))"
intervals 2
# EOVERFLOW: 255 messages queued unread; the data read is kept, the rest dropped by CP.
i0=$(st interval); ctl overflow; sleep 3
i1=$(st interval)
SKIP="$SKIP,$(seq -s, $((i0 + 1)) "$i1")"
intervals 2
# A data set larger than MaxDataSetSize.
i0=$(st interval); ctl bigset 100; ctl interval; sleep 0.5
SKIP="$SKIP,$((i0 + 1))"
intervals 2
# A sample set whose last control element monreader refuses: it ends without Interval End.
i0=$(st interval); ctl cut sample; ctl interval; sleep 0.5
SKIP="$SKIP,$((i0 + 1))"
intervals 2
# A sample set whose control area monreader refuses: an empty set, its records lost.
i0=$(st interval); ctl empty sample; ctl interval; sleep 0.5
SKIP="$SKIP,$((i0 + 1))"
intervals 2
# Opens that fail with EIO (IUCV CONNECT refused, the path severed while connecting): retried.
i0=$(st interval); ctl connect 13 2; ctl sever; wait_open 0 3; wait_open 1 8
SKIP="$SKIP,$i0,$((i0 + 1))"
[ "$(st open_eio)" = 2 ] || fail "zvmsim failed $(st open_eio) opens, not 2"
intervals 3
sleep 1.5 # one more read callback for the self-metrics
t0=$(date +%s.%N)
kill -TERM "$CD"
rc=0; wait "$CD" || rc=$?
t1=$(date +%s.%N)
grep -q "Exiting normally" "$T/dev/collectd.log" || { tail -20 "$T/dev/collectd.log"; fail "dev: no clean shutdown (rc $rc)"; }
python3 -c "import sys; d=$t1-$t0; print('shutdown took %.2f s' % d); sys.exit(0 if d < 5 else 1)" ||
	fail "shutdown took too long"
H=collector/zvm-reader
for k in total_events-reconnects total_events-open_failures total_events-discarded_efault \
	total_events-discarded_eio total_events-overflow total_events-oversized errors-decode \
	total_objects-datasets total_values-dispatched total_values-duplicate \
	total_events-discarded_short total_events-empty_sets \
	total_events-live_waits total_events-live_cuts queue_length-live_ahead; do
	echo "  $k $(csvlast dev $H/$k)"
done
[ "$(csvlast dev $H/total_events-open_failures)" -ge 1 ] || fail "EBUSY not counted"
[ "$(csvlast dev $H/total_events-reconnects)" -ge 1 ] || fail "no reconnect after the sever"
[ "$(csvlast dev $H/total_events-discarded_efault)" -ge 1 ] || fail "EFAULT not counted"
[ "$(csvlast dev $H/total_events-overflow)" -ge 1 ] || fail "EOVERFLOW not counted"
[ "$(csvlast dev $H/total_events-oversized)" -ge 1 ] || fail "oversized set not counted"
[ "$(csvlast dev $H/total_events-discarded_short)" -ge 1 ] || fail "sample set without Interval End not counted"
[ "$(csvlast dev $H/total_events-empty_sets)" -ge 1 ] || fail "empty data set not counted"
[ "$(csvlast dev $H/total_events-open_failures)" -ge 3 ] || fail "EBUSY and two EIO at open: not all counted"
[ "$(csvlast dev $H/errors-decode)" = 0 ] || fail "decode errors on zvmsim's data"
[ "$(csvlast dev $H/total_events-live_waits)" -ge 1 ] || fail "LiveQueue 20: the reader never waited for the write thread"
[ -n "$(ls "$T/dev/csv/collector/zvm-replay/" 2>/dev/null)" ] || fail "LiveQueue 20: no marker written"
logged dev "reported EOVERFLOW"
logged dev "larger than MaxDataSetSize"
logged dev "ended without its Interval End record"
logged dev "returned an empty data set"
logged dev "the IUCV connection to \*MONITOR failed or was severed"
sim_stop
python3 "$TOP/tests/e2e/plugin/check_truth.py" "$T/truth.jsonl" "$T/dev/csv" "$T/dev/collectd.log" \
	--skip-intervals "$SKIP" --min 200 --cp-min 5

echo "== zvmmon capture of the live device, replayed by File: the same values as the truth"
ZVMMON="$TOP/$BUILD/zvmmon/zvmmon"
[ -x "$ZVMMON" ] || fail "$ZVMMON not built"
sim_start "$T/truth-cap.jsonl"
"$ZVMMON" capture -o "$T/live.cap" --device "$M/monreader" --sets 6 >"$T/zvmmon.log" 2>&1 &
ZP=$!
wait_open 1 5
intervals 5
for _ in $(seq 50); do kill -0 "$ZP" 2>/dev/null || break; sleep 0.1; done
wait "$ZP" || { cat "$T/zvmmon.log"; fail "zvmmon capture failed"; }
sim_stop
conf capreplay "  File \"$T/live.cap\"" json
run capreplay 4
logged capreplay 'live.cap" (capture) replayed: 6 data sets'
python3 "$TOP/tests/e2e/plugin/check_truth.py" "$T/truth-cap.jsonl" "$T/capreplay/csv" \
	"$T/capreplay/collectd.log" --min 50

echo "== valgrind: 100 live intervals from zvmsim in the real daemon, ShareSocket with a reader"
echo "   that reads and one that stalls"
sim_start "$T/truth-vg.jsonl"
conf vgdev "  Device \"$M/monreader\"
  RetryInterval 0.5
  MaxRetryInterval 1
  LiveQueue 20
  ShareSocket \"$T/vgdev/monitor.sock\"
  ShareBuffer 65536"
timeout -s TERM -k 20 120 valgrind -q --leak-check=full --show-leak-kinds=definite,possible \
	--errors-for-leak-kinds=definite,possible --log-file="$T/vgdev/valgrind.log" \
	collectd -f -C "$T/vgdev/collectd.conf" >"$T/vgdev/stdout" 2>&1 &
CD=$!
wait_open 1 30
for _ in $(seq 100); do [ -S "$T/vgdev/monitor.sock" ] && break; sleep 0.1; done
python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); n = 0
while True:
    d = s.recv(65536)
    if not d: break
    n += len(d)
print(n)' "$T/vgdev/monitor.sock" >"$T/vgdev/reader.out" &
READER=$!
python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); time.sleep(100)' "$T/vgdev/monitor.sock" &
STALL=$!
sleep 1
intervals 100 0.1
sleep 2
kill "$STALL" 2>/dev/null || true
kill -TERM "$CD"
wait "$CD" || true
wait "$READER" || true
[ "$(cat "$T/vgdev/reader.out")" -gt 100000 ] || fail "vgdev: the reader got $(cat "$T/vgdev/reader.out") bytes"
[ "$(csvlast vgdev collector/zvm-reader/total_events-share_drops)" -ge 1 ] || fail "vgdev: the stalled reader was not dropped"
grep -q "Exiting normally" "$T/vgdev/collectd.log" || fail "vgdev: no clean shutdown"
[ ! -s "$T/vgdev/valgrind.log" ] || { cat "$T/vgdev/valgrind.log"; fail "valgrind reported errors or leaks"; }
[ "$(csvlast vgdev collector/zvm-reader/total_objects-datasets)" -ge 100 ] || fail "vgdev: fewer than 100 data sets"
echo "valgrind: $(csvlast vgdev collector/zvm-reader/total_objects-datasets) data sets, no errors, no leaks"
sim_stop
