# SPDX-License-Identifier: MIT
# Sourced by run.sh after device.sh (its zvmsim helpers): ShareSocket in the real
# collectd on zvmsim's FUSE monreader.  A zvmmon capture --socket must hold
# exactly the data sets the plugin read, byte for byte; zvmmon top --socket must
# show the system; a reader that stops reading must be dropped and counted while
# the plugin's values keep flowing; the socket's mode, and a file in its place.
ZVMMON="$TOP/$BUILD/zvmmon/zvmmon"
[ -x "$ZVMMON" ] || fail "$ZVMMON not built"
SHARE_SYS=(--guests 12 --linux 2)
SHARE_IV=24
S="$T/run/monitor.sock" # its directory does not exist: the plugin makes it

echo "== ShareSocket: zvmmon capture --socket gets the plugin's data sets byte for byte; a stalled reader"
echo "   is dropped and counted, the values flow on; zvmmon top --socket; the socket's mode"
sim_start "$T/truth-share.jsonl" "${SHARE_SYS[@]}" --delivery "$T/share-delivery.jsonl"
conf share "  Device \"$M/monreader\"
  RetryInterval 0.5
  ShareSocket \"$S\"
  ShareBuffer 65536" json
timeout -s TERM -k 10 120 collectd -f -C "$T/share/collectd.conf" >"$T/share/stdout" 2>&1 &
CD=$!
for _ in $(seq 50); do [ -S "$S" ] && break; sleep 0.1; done
[ -S "$S" ] || { tail "$T/share/collectd.log"; fail "share: no socket at $S"; }
[ "$(stat -c %a "$S")" = 660 ] || fail "share: socket mode $(stat -c %a "$S"), not 660"
wait_open 1 5 # the plugin read the configuration set before any reader came
readers() { grep -c "a reader connected" "$T/share/collectd.log" || true; }
"$ZVMMON" capture --socket "$S" -o "$T/share.cap" --sets $((SHARE_IV + 1)) >"$T/share-capture.log" 2>&1 &
ZP=$!
# A reader that reads the header and then nothing: the kernel's buffer and
# ShareBuffer fill, and the plugin must drop it.
python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.recv(16); time.sleep(60)' "$S" &
STALL=$!
for _ in $(seq 50); do [ "$(readers)" -ge 2 ] && break; sleep 0.1; done
[ "$(readers)" -ge 2 ] || fail "share: the readers were not seen connecting"
intervals 3 0.2
"$ZVMMON" top -b --json -n 2 --socket "$S" >"$T/share-top.json" 2>"$T/share-top.err" &
TP=$!
sleep 0.5
intervals $((SHARE_IV - 3)) 0.2
for _ in $(seq 50); do kill -0 "$ZP" 2>/dev/null || break; sleep 0.1; done
wait "$ZP" || { cat "$T/share-capture.log"; fail "zvmmon capture --socket failed"; }
wait "$TP" || { cat "$T/share-top.err"; fail "zvmmon top --socket failed"; }
sleep 1.5 # one more read callback for the self-metrics
kill "$STALL" 2>/dev/null || true
kill -TERM "$CD"
wait "$CD" || true
grep -q "Exiting normally" "$T/share/collectd.log" || fail "share: no clean shutdown"
[ ! -e "$S" ] || fail "share: the socket was left behind at shutdown"
sim_stop
# What zvmsim delivered to the plugin (its reader's fates) and the reference bytes of
# the same system, generated offline: the sample sets must match byte for byte.
"$SIM" monwrite --capture -o "$T/share-ref.cap" --intervals $SHARE_IV --interval 1 --cpus 2 \
	--guests 4 --linux 2 --devices 2 --vnics 2 --start 1795305600 "${SHARE_SYS[@]}" 2>/dev/null ||
	fail "zvmsim monwrite --capture"
python3 - "$T/share.cap" "$T/share-ref.cap" "$T/share-delivery.jsonl" <<'PY' || fail "share: the capture is not the plugin's data sets"
import json, struct, sys
def frames(path):
    b = open(path, "rb").read()
    assert b[:16] == b"ZVMCAP\r\n\0\1\0\x10\0\0\0\0", "capture header"
    out, o = [], 16
    while o < len(b):
        magic, n, us, status, rsv = struct.unpack(">4sIQII", b[o:o + 24])
        assert magic == b"DSET" and status == 0 and rsv == 0, "frame header at %d" % o
        out.append(b[o + 24:o + 24 + n])
        o += 24 + n
    return out
got, ref = frames(sys.argv[1]), frames(sys.argv[2])
delivered = [json.loads(l) for l in open(sys.argv[3]) if '"fate":"delivered"' in l]
want = len(got)
assert [d["bytes"] for d in delivered[:want]] == [len(g) for g in got], \
    "lengths %s, zvmsim delivered %s" % ([len(g) for g in got], [d["bytes"] for d in delivered[:want]])
assert delivered[0]["config"], "the first frame is the configuration set"
# the configuration set carries the time the plugin opened the device: its length only
assert len(got[0]) == len(ref[0]), "configuration set"
for i in range(1, want):
    assert got[i] == ref[i], "data set %d differs from zvmsim's" % i
print("share: %d data sets, %d bytes, as zvmsim delivered them; sets 1..%d byte for byte"
      % (want, sum(map(len, got)), want - 1))
PY
H=collector/zvm-reader
[ "$(csvlast share $H/total_events-share_drops)" = 1 ] ||
	fail "share: share_drops $(csvlast share $H/total_events-share_drops), not 1"
[ "$(csvlast share $H/total_objects-datasets)" -ge $((SHARE_IV + 1)) ] || fail "share: data sets missing"
logged share "fell more than ShareBuffer (65536 bytes) behind and was dropped"
grep -q '"system":"zvmsim"' "$T/share-top.json" || { cat "$T/share-top.json" "$T/share-top.err"; fail "share: top --socket showed no zvmsim table"; }
[ "$(wc -l <"$T/share-top.json")" = 2 ] || fail "share: top -n 2 printed $(wc -l <"$T/share-top.json") tables"
# The values kept flowing for every interval, the stalled reader notwithstanding.
python3 "$TOP/tests/e2e/plugin/check_truth.py" "$T/truth-share.jsonl" "$T/share/csv" \
	"$T/share/collectd.log" --min 100 --cp-min 5

echo "== ShareSocket: a file in its place is not replaced; the plugin reads on"
sim_start "$T/truth-share2.jsonl"
mkdir -p "$T/run2" && echo keep >"$T/run2/monitor.sock"
conf share2 "  Device \"$M/monreader\"
  ShareSocket \"$T/run2/monitor.sock\"
  ShareSocketPerms \"0600\""
timeout -s TERM -k 10 60 collectd -f -C "$T/share2/collectd.conf" >"$T/share2/stdout" 2>&1 &
CD=$!
wait_open 1 5
intervals 3
sleep 1.5
kill -TERM "$CD"
wait "$CD" || true
sim_stop
logged share2 "a regular file is there, not a socket; it is not replaced"
[ "$(cat "$T/run2/monitor.sock")" = keep ] || fail "share2: the file was replaced"
[ "$(csvlast share2 collector/zvm-reader/total_objects-datasets)" -ge 3 ] || fail "share2: the plugin stopped reading"

echo "== Device naming a directory or a file: said to be no device"
mkdir -p "$T/notdev" && echo x >"$T/notdev/file"
for p in "$T/notdev" "$T/notdev/file"; do
	conf notdev "  Device \"$p\"
  RetryInterval 0.2
  MaxRetryInterval 0.5"
	run notdev 3
	logged notdev "is a [a-z ]*, not a character device"
	not_logged notdev "returned an empty data set"
	not_logged notdev "NAMESAVE"
	rm -rf "$T/notdev/csv" "$T/notdev/collectd.log"
done
