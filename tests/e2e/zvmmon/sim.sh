#!/usr/bin/env bash
# zvmmon capture against the simulator's FUSE monreader (zvmsim run), which has
# the kernel driver's semantics: EOVERFLOW after the message limit, EFAULT,
# sever (POLLERR, then EIO).  run: sim.sh ZVMMON ZVMSIM WORKDIR
set -u
Z=$1 SIM=$2 W=$3
for t in fusermount3 jq; do
	command -v $t >/dev/null || { echo "check-zvmmon-sim: $t missing (make deps)"; exit 1; }
done
[ -c /dev/fuse ] || { echo "check-zvmmon-sim: /dev/fuse missing: FUSE is needed"; exit 1; }
rm -rf "$W" && mkdir -p "$W/mnt"
"$SIM" run -m "$W/mnt" --interval 0 --linux 2 --fsstatd 1 --procd 1 --msglim 10 >"$W/sim.log" 2>&1 &
sim=$!
cleanup() { fusermount3 -u "$W/mnt" 2>/dev/null; kill $sim 2>/dev/null; wait $sim 2>/dev/null; }
trap cleanup EXIT
for _ in $(seq 50); do [ -e "$W/mnt/control" ] && break; sleep 0.1; done
[ -e "$W/mnt/control" ] || { echo "check-zvmmon-sim: zvmsim did not mount"; cat "$W/sim.log"; exit 1; }
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

echo "interval 2" >"$W/mnt/control"
(sleep 1; echo overflow >"$W/mnt/control"; sleep 2; echo sever >"$W/mnt/control";
 sleep 3; echo "interval 3" >"$W/mnt/control") &
driver=$!
"$Z" capture -o "$W/sim.cap" --device "$W/mnt/monreader" --seconds 9 2>"$W/err"
rc=$?
wait $driver
cat "$W/err"
[ $rc -eq 1 ] && ok "capture exit 1 (data was lost)" || fail "capture exit $rc, want 1"
grep -q 'EOVERFLOW' "$W/err" && ok "EOVERFLOW reported" || fail "no EOVERFLOW message"
grep -q 'reopening' "$W/err" && ok "severed path reopened" || fail "no reopen after sever"

# Frame statuses (capture format, decoder/source/source.h): some set carries the overflow bit.
flagged=0 sets=0 off=16 size=$(stat -c %s "$W/sim.cap")
while [ "$off" -lt "$size" ]; do
	read -r l0 l1 l2 l3 <<<"$(od -An -tu1 -j$((off + 4)) -N4 "$W/sim.cap")"
	read -r s0 s1 s2 s3 <<<"$(od -An -tu1 -j$((off + 16)) -N4 "$W/sim.cap")"
	len=$(((l0 << 24) | (l1 << 16) | (l2 << 8) | l3))
	[ $(((s3 & 1))) -eq 1 ] && flagged=$((flagged + 1))
	sets=$((sets + 1)) off=$((off + 24 + len))
done
[ "$off" -eq "$size" ] && ok "capture frames chain to the end ($sets sets)" || fail "frames end at $off of $size"
[ $flagged -ge 1 ] && ok "$flagged set(s) flagged EOVERFLOW" || fail "no set flagged EOVERFLOW"
[ $sets -ge 5 ] && ok "sets captured after the sever" || fail "only $sets sets"

# The replay decodes everything and reports the loss the capture flagged, nothing else (exit 1).
"$Z" stat --format json "$W/sim.cap" >"$W/stat.json"; src=$?
[ $src -eq 1 ] && [ "$(jq -c .errors "$W/stat.json")" = "{\"cap_overflow\":$flagged}" ] &&
	ok "captured data decodes; its only errors are the $flagged cap_overflow flagged" ||
	fail "stat exit $src: $(jq -c .errors "$W/stat.json")"
# Both name the set after which data was lost the same way (from 0, as dump's "set").
live=$(sed -n 's/.*was lost after data set \([0-9]*\)$/\1/p' "$W/err" | head -n1)
replay=$("$Z" dump "$W/sim.cap" | jq -r 'select(.type == "error" and .error == "cap_overflow") | .set' | head -n1)
[ -n "$live" ] && [ "$live" = "$replay" ] && ok "capture and replay name the same set ($live)" ||
	fail "capture named set '$live', the replay '$replay'"
[ "$(jq '.appldata.linuxkrnl_mem > 0 and .appldata.lnxappl_fsstatd > 0' "$W/stat.json")" = true ] &&
	ok "Linux guest records present" || fail "no Linux guest records: $(jq -c .appldata "$W/stat.json")"

if [ $fails -ne 0 ]; then echo "check-zvmmon-sim: $fails failure(s)"; exit 1; fi
echo "check-zvmmon-sim: all passed"
