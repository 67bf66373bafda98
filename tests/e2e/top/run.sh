#!/usr/bin/env bash
# zvmmon top against zvmsim's ground truth: batch mode (JSON and text) on
# MONWRITE files, the full screen under tmux (keys sent, the screen read back),
# and the live device path on zvmsim's FUSE monreader.
# run: run.sh ZVMMON ZVMSIM WORKDIR
set -u
Z=$1 SIM=$2 W=$3
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../../.." && pwd)
CHECK="python3 $HERE/truth_top.py"
for t in tmux python3 fusermount3; do
	command -v $t >/dev/null || { echo "check-zvmmon-top: $t missing (make deps)"; exit 1; }
done
[ -c /dev/fuse ] || { echo "check-zvmmon-top: /dev/fuse missing: FUSE is needed"; exit 1; }
rm -rf "$W" && mkdir -p "$W/mnt"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
check() { # what, then the checker's arguments
	local what=$1; shift
	if $CHECK "$@" >"$W/check.out" 2>&1; then ok "$what: $(tail -1 "$W/check.out")"
	else cat "$W/check.out"; fail "$what"; fi
}

# A system with every law kept, and one whose guest-cpu law is broken (8 CPUs:
# zvmsim's break once put the whole excess on one virtual CPU, past the
# engine's timer-reset bound, so the law never saw it on 4 CPUs or more).
"$SIM" monwrite -o "$W/a.mw" --intervals 8 --interval 60 --guests 20 --linux 4 --seed 7 \
	--truth "$W/a.truth" 2>"$W/sim.err" || { cat "$W/sim.err"; fail "zvmsim monwrite"; }
"$SIM" monwrite -o "$W/b.mw" --intervals 8 --interval 60 --guests 12 --linux 3 --cpus 8 \
	--seed 11 --break-law guest-cpu --truth "$W/b.truth" 2>>"$W/sim.err" || fail "zvmsim monwrite (broken)"

# 1. Batch mode.
"$Z" top -b --json "$W/a.mw" >"$W/a.json" 2>"$W/a.err" || fail "top -b --json exit $?"
check "batch JSON equals the truth, sorted by CPU" json "$W/a.truth" "$W/a.json"
"$Z" top -b --json --sort i --filter 'user*' "$W/a.mw" >"$W/af.json" 2>/dev/null || fail "top -b --sort i exit $?"
check "batch JSON sorted by virtual I/O, filtered USER*" json "$W/a.truth" "$W/af.json" --sort i --filter 'user*'
"$Z" top -b --json "$W/b.mw" >"$W/b.json" 2>"$W/b.err" || fail "top -b (broken law) exit $?"
check "guest-cpu broken: CPU% stays '?', the rest are numbers" json "$W/b.truth" "$W/b.json" --broken guest-cpu
"$Z" top -b -n 6 --sort r "$W/a.mw" >"$W/a.txt" 2>/dev/null || fail "top -b -n 6 exit $?"
n=$(grep -c ' interval [0-9]* (60 s)' "$W/a.txt")
[ "$n" = 6 ] && ok "-n 6 prints 6 tables" || fail "-n 6 printed $n tables"
tail -n +$(($(grep -n ' interval 6 ' "$W/a.txt" | cut -d: -f1))) "$W/a.txt" >"$W/a6.txt"
check "batch text, interval 6, sorted by resident storage" screen "$W/a.truth" "$W/a6.txt" 6 --sort r

# 1a. The other screens in batch mode: --screen all as JSON, interval by
# interval against the truth; each screen as text (interval 6) and as JSON
# alone; one in reverse order.
"$Z" top -b --json --screen all "$W/a.mw" >"$W/all.json" 2>/dev/null || fail "top -b --json --screen all exit $?"
check "batch JSON, every screen beyond the guests, equals the truth" screens "$W/a.truth" "$W/all.json"
check "batch JSON --screen all: the guests too" json "$W/a.truth" "$W/all.json"
for s in processors lpar storage devices vnics; do
	"$Z" top -b -n 6 --screen $s "$W/a.mw" >"$W/$s.txt" 2>/dev/null || fail "top -b --screen $s exit $?"
	tail -n +$(($(grep -n ' interval 6 ' "$W/$s.txt" | cut -d: -f1))) "$W/$s.txt" >"$W/${s}6.txt"
	check "batch text --screen $s, interval 6" table "$W/a.truth" "$W/${s}6.txt" 6 $s
	"$Z" top -b --json -n 6 --screen $s "$W/a.mw" >"$W/$s.json" 2>/dev/null || fail "top -b --json --screen $s exit $?"
	python3 - "$W/$s.json" "$W/all.json" $s <<'PY' && ok "batch JSON --screen $s: that screen alone, as in all" || fail "batch JSON --screen $s"
import json, sys
one = [json.loads(l) for l in open(sys.argv[1])]
all_ = [json.loads(l) for l in open(sys.argv[2])][:6]
s = sys.argv[3]
bad = [o["interval"] for o in one if "guests" in o or s not in o]
bad += [a["interval"] for o, a in zip(one, all_) if o[s] != a[s]]
print(f"{len(one)} intervals, {sum(len(o[s]) for o in one)} rows; bad {bad}")
sys.exit(1 if bad or len(one) != 6 else 0)
PY
done
"$Z" top -b -n 6 --screen devices --reverse "$W/a.mw" >"$W/devr.txt" 2>/dev/null || fail "top -b --reverse exit $?"
tail -n +$(($(grep -n ' interval 6 ' "$W/devr.txt" | cut -d: -f1))) "$W/devr.txt" >"$W/devr6.txt"
check "batch text --screen devices --reverse: fewest SSCH first" table "$W/a.truth" "$W/devr6.txt" 6 devices --reverse
"$Z" top -b --screen all --sort x "$W/a.mw" >/dev/null 2>&1 && fail "--sort x accepted on the guests" ||
	ok "--sort names a column of the chosen screen"

# 1b. The engine's messages in batch mode: on stderr, each with the interval it
# came in, so that stdout keeps one table (or one JSON object) per interval.  A
# law's "held" line comes with the first interval that shows its figures
# (truth_top.py: guest-vcpu at interval 4), the broken law's with the one it broke in.
grep -Eq '^zvmmon top: interval [2-8]: law guest-cpu broken' "$W/b.err" &&
	ok "batch JSON: the broken law's message on stderr" || { cat "$W/b.err"; fail "no message for the broken law on stderr"; }
grep -q '^zvmmon top: interval 4: law guest-vcpu held' "$W/b.err" &&
	ok "batch: a law's message carries the interval that first shows its figures" ||
	{ cat "$W/b.err"; fail "law guest-vcpu: no message with interval 4"; }
"$Z" top -b "$W/b.mw" >"$W/b.txt" 2>"$W/bt.err" || fail "top -b (text, broken law) exit $?"
grep -q 'law ' "$W/b.txt" && fail "an engine message inside the text tables"
grep -q 'law guest-cpu broken' "$W/bt.err" && ok "batch text: the message on stderr, not in the tables" ||
	fail "batch text: no message on stderr"

# 1c. Times: a file whose records have no time (TOD 0, as monwriter output read
# back) shows none, not the TOD epoch (1900); a file whose time steps back (two
# files one after the other) is still paced, not stalled.
python3 "$HERE/notime.py" "$Z" "$W/a.mw" "$W/notime.mw" >/dev/null || fail "notime.py"
"$Z" top -b --json -n 3 "$W/notime.mw" >"$W/notime.json" 2>/dev/null || fail "top -b --json (no time) exit $?"
python3 - "$W/notime.json" <<'PY' && ok "no time: JSON \"time\" is null, \"tod\" 0" || fail "no time: JSON time not null"
import json, sys
f = [json.loads(l) for l in open(sys.argv[1])]
bad = [o.get("time", "absent") for o in f if o.get("time", "absent") is not None or o["tod"] != 0]
print(f"{len(f)} intervals, times {bad}" if bad or not f else f"{len(f)} intervals, no time")
sys.exit(1 if bad or len(f) != 3 else 0)
PY
"$Z" top -b -n 1 "$W/notime.mw" >"$W/notime.txt" 2>/dev/null || fail "top -b (no time) exit $?"
if grep -q '1900' "$W/notime.txt" || ! grep -q 'time unknown  interval 1 ' "$W/notime.txt"; then
	head -2 "$W/notime.txt"; fail "no time: the title shows a time"
else ok "no time: the title says time unknown"; fi
cat "$W/a.mw" "$W/a.mw" >"$W/twice.mw"
timeout 20 "$Z" top -b --speed 100000 "$W/twice.mw" >"$W/twice.txt" 2>/dev/null; rc=$?
n=$(grep -c ' interval [0-9]* (60 s)' "$W/twice.txt")
[ $rc -eq 0 ] && [ "$n" = 16 ] && ok "time steps back: --speed still paces, 16 tables" ||
	fail "time steps back: exit $rc (124: stalled), $n tables"
python3 "$TOP/tests/e2e/monwriter/fsstat_writer.py" "$W/fs.bin" "$W/fs.json" 4 >/dev/null
"$Z" top -b --json "$W/fs.bin" >"$W/fs.out" 2>"$W/fs.err"
if grep -q '1900' "$W/fs.out" "$W/fs.err" || ! grep -q 'no CP sample records' "$W/fs.err"; then
	cat "$W/fs.err"; fail "monwriter output: a 1900 time, or no word of why there is no table"
else ok "monwriter output (no time, no CP samples): no table, and why; no 1900"; fi

# 1d. A device that ends (a regular file given as --device): said, and top ends.
timeout 20 "$Z" top -b --device "$W/a.mw" >"$W/devfile.txt" 2>"$W/devfile.err"; rc=$?
[ $rc -ne 124 ] && grep -q 'end of file' "$W/devfile.err" && ok "a device that ends: said, exit $rc" ||
	{ cat "$W/devfile.err"; fail "a device that ends: exit $rc (124: it waited forever)"; }

# 1e. A device that reads empty for ever (/dev/null): said once, and top waits on.
timeout 4 "$Z" top -b --device /dev/null >"$W/devnull.txt" 2>"$W/devnull.err"; rc=$?
[ $rc -eq 124 ] && [ "$(grep -c 'empty reads in a row and no data: not a monitor stream' "$W/devnull.err")" = 1 ] &&
	ok "a device that reads empty for ever: said once" ||
	{ cat "$W/devnull.err"; fail "a device that reads empty for ever: exit $rc, not said once"; }

# 2. The full screen under tmux, stepped interval by interval.
T="tmux -L zvmmon-top-$$ -f /dev/null"
cleanup() { $T kill-server 2>/dev/null; fusermount3 -u "$W/mnt" 2>/dev/null
	[ -n "${sim:-}" ] && { kill "$sim" 2>/dev/null; wait "$sim" 2>/dev/null; }; }
trap cleanup EXIT
$T new-session -d -s top -x 110 -y 40 "$Z top --step '$W/a.mw'; echo \"exit \$?\" >'$W/exit'; sleep 60"
screen() { $T capture-pane -p -t "${PANE:-top}" >"$W/screen.txt"; }
wait_for() { # text on screen, up to 10 s; then the screen once it has settled
	for _ in $(seq 100); do
		screen
		grep -q -- "$1" "$W/screen.txt" && { sleep 0.2; screen; return 0; }
		sleep 0.1
	done
	echo "--- screen:"; cat "$W/screen.txt"; return 1
}
wait_for 'interval 1 (60 s)' && ok "first interval on screen" || fail "no first interval on screen"
grep -q '\[paused\]' "$W/screen.txt" && ok "--step starts paused" || fail "--step did not pause"
for _ in 1 2 3 4 5; do $T send-keys -t top n; done
wait_for 'interval 6 (60 s)' && ok "n stepped to interval 6" || fail "n did not step to interval 6"
$T send-keys -t top i
wait_for 'sort VIO/s' && check "screen sorted by VIO/s (key i)" screen "$W/a.truth" "$W/screen.txt" 6 --sort i ||
	fail "key i did not sort by VIO/s"
cp "$W/screen.txt" "$W/screen-vio.txt"
$T send-keys -t top / 'linux*' Enter
wait_for 'filter linux\*' && check "screen filtered linux*, sorted by VIO/s" screen "$W/a.truth" "$W/screen.txt" 6 --sort i --filter 'linux*' ||
	fail "the filter did not apply"
$T send-keys -t top m
wait_for 'sort USED-MiB' && check "screen sorted by the Linux guests' memory (key m)" screen "$W/a.truth" "$W/screen.txt" 6 --sort m --filter 'linux*' ||
	fail "key m did not sort"
cp "$W/screen.txt" "$W/screen-final.txt"
# Each screen by its key, read back against the truth of interval 6.
n=2
for s in processors lpar storage devices vnics; do
	$T send-keys -t top $n
	if wait_for "\[$n " >/dev/null; then
		cp "$W/screen.txt" "$W/screen-$s.txt"
		check "key $n: the $s screen" table "$W/a.truth" "$W/screen-$s.txt" 6 $s
	else fail "key $n did not show the $s screen"; fi
	n=$((n + 1))
done
$T send-keys -t top R
wait_for '(reversed)' >/dev/null && check "R on the vNICs: least received first" table "$W/a.truth" "$W/screen.txt" 6 vnics --reverse ||
	fail "R did not reverse"
$T send-keys -t top R 1
wait_for '\[1 guests\]' >/dev/null && check "key 1: back to the guests, filter and sort kept" screen "$W/a.truth" "$W/screen.txt" 6 --sort m --filter 'linux*' ||
	fail "key 1 did not go back to the guests"
$T send-keys -t top h
wait_for 'zvmmon top: keys' && ok "h shows the help" || fail "no help screen"
grep -q 'rows .* of ' "$W/screen.txt" && fail "help: the table still shown"
$T send-keys -t top x q
for _ in $(seq 50); do [ -s "$W/exit" ] && break; sleep 0.1; done
[ "$(cat "$W/exit" 2>/dev/null)" = "exit 0" ] && ok "q quits, exit 0" || fail "q: $(cat "$W/exit" 2>/dev/null || echo 'still running')"
echo "--- screen (interval 6, sorted by VIO/s):"; sed -n '1,12p' "$W/screen-vio.txt"

# 2b. Scrolling: a 120-guest system (31 rows a page at 40 lines) reaches its
# last guest with End, pages with PgUp/PgDn, steps with the arrows; at 80
# columns every figure of the system line is there whole, on one line or two.
"$SIM" monwrite -o "$W/big.mw" --intervals 3 --interval 60 --guests 120 --linux 4 --cpus 16 \
	--seed 3 --truth "$W/big.truth" 2>>"$W/sim.err" || fail "zvmsim monwrite (120 guests)"
$T new-session -d -s big -x 80 -y 40 "$Z top --step --sort u '$W/big.mw'; sleep 60"
PANE=big
if wait_for 'interval 1 (60 s)' >/dev/null; then
	$T send-keys -t big n n
	wait_for 'interval 3 (60 s)' >/dev/null || fail "120 guests: n did not step to interval 3"
	check "120 guests at 80 columns: the first page, system line whole" screen "$W/big.truth" "$W/screen.txt" 3 --sort u --first 1
	$T send-keys -t big End
	wait_for 'rows 90-120 of 120' >/dev/null && check "End: the last guest" screen "$W/big.truth" "$W/screen.txt" 3 --sort u --first 90 ||
		fail "End did not reach the last guest"
	$T send-keys -t big PPage
	wait_for 'rows 59-89 of 120' >/dev/null && check "PgUp: a page back" screen "$W/big.truth" "$W/screen.txt" 3 --sort u --first 59 ||
		fail "PgUp did not go a page back"
	$T send-keys -t big Home Down
	wait_for 'rows 2-32 of 120' >/dev/null && check "Home, Down: from the second guest" screen "$W/big.truth" "$W/screen.txt" 3 --sort u --first 2 ||
		fail "Home and Down did not scroll to row 2"
	$T send-keys -t big NPage
	wait_for 'rows 33-63 of 120' >/dev/null && ok "PgDn: a page on" || fail "PgDn did not go a page on"
	$T send-keys -t big q
else fail "120 guests: no first interval"; fi
PANE=

# -n N on the full screen ends as top(1) -n does: right after the Nth interval,
# which stays on the terminal (printed there once the full screen is left).
$T new-session -d -s n3 -x 110 -y 40 "$Z top -n 3 --speed 1000 '$W/a.mw'; echo \"exit \$?\" >'$W/exit-n'; sleep 60"
for _ in $(seq 100); do [ -s "$W/exit-n" ] && break; sleep 0.1; done
$T capture-pane -p -t n3 >"$W/screen-n.txt"
[ "$(cat "$W/exit-n" 2>/dev/null)" = "exit 0" ] && ok "-n 3 on the full screen: exit 0" ||
	fail "-n 3 on the full screen: $(cat "$W/exit-n" 2>/dev/null || echo 'still running')"
check "-n 3: interval 3 stays on the terminal after top ends" screen "$W/a.truth" "$W/screen-n.txt" 3
# Paused at the Nth interval longer than the replay's gap (--speed 30: 2 s),
# space ends with the Nth, not the one that fell due meanwhile.
$T new-session -d -s n2 -x 110 -y 40 "$Z top --step -n 2 '$W/a.mw'; echo \"exit \$?\" >'$W/exit-n2'; sleep 60"
PANE=n2 wait_for 'interval 1 (60 s)' >/dev/null || fail "--step -n 2: no first interval"
$T send-keys -t n2 n
PANE=n2 wait_for 'interval 2 (60 s)' >/dev/null || fail "--step -n 2: n did not step"
sleep 3
$T send-keys -t n2 ' '
for _ in $(seq 50); do [ -s "$W/exit-n2" ] && break; sleep 0.1; done
$T capture-pane -p -t n2 >"$W/screen-n2.txt"
check "--step -n 2: space after a long pause ends with interval 2 on the terminal" screen "$W/a.truth" "$W/screen-n2.txt" 2

# 3. Live: the device path on zvmsim's monreader (data sets between 0-byte reads).
"$SIM" run -m "$W/mnt" --interval 0 --guests 10 --linux 2 --seed 5 --truth "$W/live.truth" >"$W/run.log" 2>&1 &
sim=$!
for _ in $(seq 50); do [ -e "$W/mnt/control" ] && break; sleep 0.1; done
if [ -e "$W/mnt/control" ]; then
	timeout 30 "$Z" top -b --json -n 5 --device "$W/mnt/monreader" >"$W/live.json" 2>"$W/live.err" &
	top=$!
	sleep 1
	echo "interval 5" >"$W/mnt/control"
	wait $top; rc=$?
	[ $rc -eq 0 ] && ok "live: 5 intervals read from the device" || { cat "$W/live.err"; fail "live top exit $rc"; }
	cleanup; sim=
	check "live device: figures equal the truth" json "$W/live.truth" "$W/live.json"
else
	cat "$W/run.log"; fail "zvmsim did not mount"
fi

# 4. Device errors on the live path (zvmsim's control file): EFAULT, the
# message limit (EOVERFLOW) and a sever (EIO, then a reopen) are survived and
# said: in batch mode on stderr with the interval they came in, counted at the
# end (exit 1: data was lost), stdout still one JSON object per interval; on the
# full screen in the message line, counted in the status.
if [ -z "${sim:-}" ]; then
	"$SIM" run -m "$W/mnt" --interval 0 --guests 6 --linux 1 --seed 5 --msglim 10 --frames-per-mce 1 >"$W/run2.log" 2>&1 &
	sim=$!
	for _ in $(seq 50); do [ -e "$W/mnt/control" ] && break; sleep 0.1; done
fi
ctl() { echo "$*" >"$W/mnt/control"; sleep 0.5; }
if [ -e "$W/mnt/control" ]; then
	# 2 + 1 + 1 (of 2: the other cut, dropped) + 10 (the message limit: 5 of 15 intervals lost) + 3 after the sever
	"$Z" top -b --json -n 16 --device "$W/mnt/monreader" >"$W/faults.json" 2>"$W/faults.err" &
	top=$!
	sleep 1
	ctl interval 2; ctl efault; ctl interval 1; ctl cut sample; ctl interval 2; ctl overflow; ctl sever
	ctl interval 3
	for _ in $(seq 30); do kill -0 $top 2>/dev/null || break; ctl interval 1; done
	kill $top 2>/dev/null
	wait $top; rc=$?
	echo "--- what top -b said of the faulty device:"; grep monreader "$W/faults.err"
	[ $rc -eq 1 ] && ok "device errors: exit 1 (data was lost)" || fail "device errors: exit $rc, want 1"
	for what in 'interval [0-9]*: .*EFAULT' 'interval [0-9]*: .*EOVERFLOW' 'interval [0-9]*: .*EIO.*reopened' \
		'interval [0-9]*: .*without its Interval End.*dropped' \
		'^zvmmon top: .*monreader: 4 device errors.* 1 sample set cut short'; do
		grep -q "$what" "$W/faults.err" && ok "device errors: stderr has '$what'" || fail "device errors: no '$what' on stderr"
	done
	python3 -c 'import json,sys; n=[json.loads(l)["interval"] for l in open(sys.argv[1])]; sys.exit(n!=list(range(1,17)))' \
		"$W/faults.json" && ok "device errors: stdout is 16 JSON intervals" || fail "device errors: stdout is not 16 JSON intervals"
	$T new-session -d -s live -x 110 -y 40 "$Z top --device '$W/mnt/monreader'; echo \"exit \$?\" >'$W/exit-live'; sleep 60"
	PANE=live
	sleep 1
	ctl interval 2
	wait_for ' interval 2 ' >/dev/null || fail "live full screen: no interval 2"
	ctl sever; ctl interval 1
	wait_for 'EIO' && grep -q '\[live, 1 input error\]' "$W/screen.txt" &&
		ok "live full screen: the sever in the message line, counted in the status" ||
		{ cat "$W/screen.txt"; fail "live full screen: the sever not shown"; }
	$T send-keys -t live q
	for _ in $(seq 50); do [ -s "$W/exit-live" ] && break; sleep 0.1; done
	grep -q 'exit 1' "$W/exit-live" 2>/dev/null && ok "live full screen: exit 1 after the sever" ||
		fail "live full screen: $(cat "$W/exit-live" 2>/dev/null || echo 'still running')"
else
	cat "$W/run2.log"; fail "zvmsim did not mount (device errors)"
fi

if [ $fails -ne 0 ]; then echo "check-zvmmon-top: $fails failure(s)"; exit 1; fi
echo "check-zvmmon-top: all passed"
