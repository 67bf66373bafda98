#!/usr/bin/env bash
# End-to-end tests of zvmmon over generated captures (gen_d10.c).
#   run.sh ZVMMON GEN_D10 WORKDIR
# Every line zvmmon dump prints must parse with jq; the domain 10 output must
# match the golden files here; exit codes must be 0 clean, 1 damaged, 2 unusable.
set -u
Z=$1 GEN=$2 W=$3
HERE=$(cd "$(dirname "$0")" && pwd)
command -v jq >/dev/null || { echo "check-zvmmon: jq missing (make deps)"; exit 1; }
rm -rf "$W" && mkdir -p "$W"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# expect RC DESCRIPTION -- command...
expect() {
	local want=$1 what=$2; shift 3
	"$@" >"$W/out" 2>"$W/err"; local rc=$?
	if [ "$rc" -eq "$want" ]; then ok "$what (exit $rc)"; else fail "$what: exit $rc, want $want"; sed 's/^/    /' "$W/err"; fi
}

# Each line one JSON value: jq must re-emit exactly as many lines as there are.
lines_parse() {
	local f=$1 what=$2 n m
	n=$(wc -l <"$f")
	if ! m=$(jq -c . <"$f" 2>"$W/jqerr" | wc -l) || [ -s "$W/jqerr" ] || [ "$n" != "$m" ]; then
		fail "$what: $n lines, jq read $m values"; head -3 "$W/jqerr"
	else
		ok "$what: all $n lines parse with jq"
	fi
}

# Fields of non-APPLDATA records come from other layout tables and may grow.
normalize() { jq -c 'if .type=="record" and .domain!=10 then del(.fields,.layout,.record_name,.dsect) else . end' "$1"; }

golden() {
	local f=$1 name=$2
	normalize "$f" >"$W/$name.norm"
	if diff -u "$HERE/$name.jsonl" "$W/$name.norm" >"$W/$name.diff"; then
		ok "$name matches golden file"
	else
		fail "$name differs from $HERE/$name.jsonl"; head -40 "$W/$name.diff"
	fi
}

"$GEN" clean "$W/clean.cap" && "$GEN" damaged "$W/damaged.cap" || { echo "generator failed"; exit 1; }

expect 0 "dump clean capture" -- "$Z" dump "$W/clean.cap"
cp "$W/out" "$W/clean.json"
lines_parse "$W/clean.json" "dump clean"
golden "$W/clean.json" clean
[ "$(jq -s '[.[] | select(.appl.stale == true)] | length' "$W/clean.json")" = 2 ] &&
	ok "two stale records flagged" || fail "stale records not flagged"

expect 1 "dump damaged capture" -- "$Z" dump "$W/damaged.cap"
cp "$W/out" "$W/damaged.json"
lines_parse "$W/damaged.json" "dump damaged"
golden "$W/damaged.json" damaged
grep -q 'appl_sync=1' "$W/err" && grep -q 'lx_cpus=1' "$W/err" &&
	ok "error counts on stderr" || fail "error counts missing on stderr: $(cat "$W/err")"

expect 0 "dump --format text" -- "$Z" dump --format text "$W/clean.cap"
grep -q 'cpu_layout=LINUXKRNL.OS.CPU01' "$W/out" && ok "text shows per-CPU data" || fail "text dump"
expect 0 "dump --domain 10 --record 1" -- "$Z" dump --domain 10 --record 1 "$W/clean.cap"
[ "$(wc -l <"$W/out")" = 1 ] && ok "filter by record" || fail "filter by record: $(wc -l <"$W/out") lines"
expect 0 "dump --userid" -- "$Z" dump --userid 'linux0[24]' "$W/clean.cap"
[ "$(jq -r .appl.userid "$W/out" | sort -u | tr '\n' ' ')" = "LINUX02 LINUX04 " ] &&
	ok "filter by userid glob" || fail "filter by userid: $(jq -r .appl.userid "$W/out" | tr '\n' ' ')"
expect 0 "dump --hex" -- "$Z" dump --hex --domain 10 "$W/clean.cap"
# The first record: MRHDR length 196 (00C4), zeros, domain 10, record 2, then CALDATOF 52 at +20.
first=$(head -1 "$W/out" | jq -r .hex)
[ "${first:0:16}" = "00C400000A000002" ] && [ "${first:40:4}" = "0034" ] && [ ${#first} -eq 392 ] &&
	ok "--hex shows the record bytes" || fail "--hex: ${first:0:48}"
expect 0 "dump from stdin" -- sh -c "\"$Z\" dump - <\"$W/clean.cap\""
cmp -s "$W/out" "$W/clean.json" && ok "stdin gives the same dump" || fail "stdin dump differs"

expect 0 "stat clean" -- "$Z" stat --format json "$W/clean.cap"
lines_parse "$W/out" "stat json"
[ "$(jq -c '[.records, .intervals, .appldata.stale, .appldata.opaque, .appldata.linuxkrnl_os]' "$W/out")" = "[17,2,2,2,4]" ] &&
	ok "stat counts" || fail "stat counts: $(jq -c '[.records, .intervals, .appldata]' "$W/out")"
expect 1 "stat damaged" -- "$Z" stat --format json "$W/damaged.cap"
[ "$(jq -c '[.appldata.sync_drops, .errors.appl_offset, .errors.lnx_string]' "$W/out")" = "[1,1,1]" ] &&
	ok "stat error counts" || fail "stat error counts: $(cat "$W/out")"
expect 0 "stat text" -- "$Z" stat "$W/clean.cap"
# A file name that is not UTF-8: shown with '?', and every member still there.
cp "$W/clean.cap" "$W/bad"$'\xff'".cap"
expect 0 "stat json, a file name that is not UTF-8" -- "$Z" stat --format json "$W/bad"$'\xff'".cap"
[ "$(jq -c '[(.input | endswith("/bad?.cap")), .format, .records, .intervals]' "$W/out")" = '[true,"capture",17,2]' ] &&
	ok "stat json: the file name made UTF-8, members in step" || fail "stat json, bad name: $(cat "$W/out")"

# A raw monreader data set (the first frame's payload) is detected as such.
len=$(od -An -tu1 -j20 -N4 "$W/clean.cap" | awk '{print $1*16777216 + $2*65536 + $3*256 + $4}')
dd if="$W/clean.cap" of="$W/set0.bin" bs=1 skip=40 count="$len" status=none
expect 0 "dump raw data set" -- "$Z" dump "$W/set0.bin"
[ "$(jq -c 'del(.offset)' "$W/out" | md5sum)" = "$(jq -c 'select(.set == 0) | del(.offset)' "$W/clean.json" | md5sum)" ] &&
	ok "data set decodes like the capture's first set" || fail "raw data set dump differs"

# Unusable input and usage errors.
: >"$W/empty"
printf 'this is not monitor data\n' >"$W/text"
head -c 5000 /dev/urandom >"$W/random"
expect 2 "empty input" -- "$Z" dump "$W/empty"
# Empty input is said once, as such: no in-band "format not recognised", no error count.
for cmd in "dump $W/empty" "stat $W/empty" "stat --format json /dev/null"; do
	# shellcheck disable=SC2086 # the command's words
	expect 2 "$cmd" -- "$Z" $cmd
	[ ! -s "$W/out" ] && [ "$(cat "$W/err")" = "zvmmon: ${cmd##* }: empty input" ] &&
		ok "$cmd: empty input, said once" || fail "$cmd: $(cat "$W/out" "$W/err")"
done
expect 2 "text input" -- "$Z" dump "$W/text"
expect 2 "missing file" -- "$Z" dump "$W/nonexistent"
# A read error is the reason, said once: no "empty input", no format error after it.
for cmd in dump stat; do
	expect 2 "$cmd a directory" -- "$Z" "$cmd" "$W"
	[ ! -s "$W/out" ] && [ "$(cat "$W/err")" = "zvmmon: $W: read error: Is a directory" ] &&
		ok "$cmd a directory: the read error only" || fail "$cmd a directory: $(cat "$W/out" "$W/err")"
done
expect 2 "no file" -- "$Z" dump
expect 2 "bad option" -- "$Z" dump --bogus "$W/clean.cap"
# getopt's own messages name the program and the command, as every other message does.
for cmd in "dump --bogus" "stat -q" "capture --device" "top --sort" "layouts --markdown=1" "layouts --coverage=1" "metrics -x"; do
	# shellcheck disable=SC2086 # the command's words
	expect 2 "$cmd" -- "$Z" $cmd
	grep -q "^zvmmon ${cmd%% *}: " "$W/err" && ok "$cmd: the message names zvmmon ${cmd%% *}" ||
		fail "$cmd: message $(cat "$W/err")"
done
expect 2 "bad domain" -- "$Z" dump --domain x "$W/clean.cap"
# Domain and record numbers are decimal, as z/VM's tables give them: 010 is ten,
# not octal eight; 08 is eight; hex, signs and blanks are refused.
expect 0 "dump --domain 010 --record 02" -- "$Z" dump --domain 010 --record 02 "$W/clean.cap"
[ "$(jq -c '[.domain, .record]' "$W/out" | sort -u)" = "[10,2]" ] && ok "--domain 010 is domain 10" ||
	fail "--domain 010 --record 02: $(jq -c '[.domain, .record]' "$W/out" | sort -u | tr '\n' ' ')"
expect 0 "dump --domain 10 --record 08" -- "$Z" dump --domain 10 --record 08 "$W/clean.cap"
for n in 0x0a " 10" +10 -0 10x ""; do
	expect 2 "dump --domain '$n'" -- "$Z" dump --domain "$n" "$W/clean.cap"
	grep -qx -- "zvmmon dump: --domain $n: not a domain number" "$W/err" || fail "--domain '$n': message $(cat "$W/err")"
done
expect 2 "dump --userid ''" -- "$Z" dump --userid "" "$W/clean.cap"
grep -qx -- "zvmmon dump: --userid: empty; give a userid or a glob such as LINUX\*" "$W/err" ||
	fail "--userid '': message $(cat "$W/err")"
expect 2 "bad --reading" -- "$Z" dump --reading compiled "$W/clean.cap"
grep -q -- '--reading compiled: packed or aligned' "$W/err" && ok "bad --reading: the message names the option" ||
	fail "bad --reading: message $(cat "$W/err")"
expect 0 "dump --reading packed" -- "$Z" dump --reading packed "$W/clean.cap"
cmp -s "$W/out" "$W/clean.json" && ok "--reading packed is the default dump" || fail "--reading packed differs"
expect 2 "unknown command" -- "$Z" frobnicate
"$Z" dump "$W/random" >/dev/null 2>&1; rc=$?
[ $rc -eq 1 ] || [ $rc -eq 2 ] && ok "random bytes: exit $rc, no crash" || fail "random bytes: exit $rc"
head -c 3000 "$W/clean.cap" >"$W/cut.cap"
expect 1 "capture cut inside a data set" -- "$Z" dump "$W/cut.cap"
lines_parse "$W/out" "dump cut capture"

expect 0 "--help" -- "$Z" --help
# Every input format the decoder reads (doc/historic-formats.md adds vb, tape and
# awstape to the four of zvmmon's first days) is accepted by --input and named by
# --help, the manual page, and the message for input of no format.
man=$HERE/../../../man/zvmmon.1
"$Z" --help >"$W/help"
before=$fails
for n in capture monwrite dataset monwriter vb tape awstape; do
	"$Z" dump --input "$n" "$W/text" >/dev/null 2>"$W/err"
	grep -q "unknown format" "$W/err" && fail "--input $n: unknown format"
	grep -A2 '^Input formats' "$W/help" | grep -qw -- "$n" || fail "--help does not name input format $n"
	grep -A4 '^names it' "$man" | grep -qw -- "$n" || fail "zvmmon.1 does not name input format $n"
done
[ $fails -eq "$before" ] && ok "--input: seven formats, named by --help and zvmmon.1"
"$Z" stat "$W/text" 2>"$W/err"
grep -q "VB file, VM/370 tape or AWSTAPE image" "$W/err" && ok "not monitor data: the message names every format" ||
	fail "not monitor data: $(cat "$W/err")"
grep -q -- "--reading packed|aligned" "$W/help" && grep -q -- "stat \[--format text|json\]" "$W/help" &&
	ok "--help shows dump --reading, stat --format" || fail "--help lacks dump --reading or stat --format"
expect 0 "--version" -- "$Z" --version
# Each command's --help: a usage with every option and what it does, not a line.
expect 0 "dump --help" -- "$Z" dump --help
for o in "-f, --format json|text" "-i, --input FMT" "-d, --domain N" "-r, --record N" \
	"-u, --userid GLOB" "-x, --hex" "-R, --reading packed|aligned"; do
	grep -qF -- "  $o " "$W/out" || grep -qxF -- "  $o" "$W/out" || fail "dump --help lacks $o"
done
python3 - "$W/out" <<'PY' && ok "dump --help: each option with its meaning, the exit status" || fail "dump --help: $(cat "$W/out")"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
opts = [i for i, l in enumerate(lines) if l.startswith("  -")]
assert len(opts) == 7, opts
for i in opts:  # the meaning on the option's line, or on the next, indented under it
    m = re.match(r"  -\w, --[a-z]+(?: \S+)?(?:  +(\S.*))?$", lines[i])
    assert m and (m.group(1) or re.match(r" {10,}\S", lines[i + 1])), lines[i]
assert any(l.startswith("Exit status") for l in lines)
PY
expect 0 "capture --help" -- "$Z" capture --help
for o in "-o, --output FILE" "-D, --device PATH" "-S, --socket PATH" "-n, --sets N" "-s, --seconds N"; do
	grep -qF -- "  $o " "$W/out" || fail "capture --help lacks $o"
done
expect 0 "layouts --markdown" -- "$Z" layouts --markdown
grep -q 'LINUXKRNL.OS.CPU01' "$W/out" && grep -q 'APLSDT_CALDATOF' "$W/out" &&
	ok "layouts list domain 10 tables" || fail "layouts output"
# layouts --coverage: every record named, how far its layout declares it (doc/records.md).
expect 0 "layouts --coverage" -- "$Z" layouts --coverage
grep -Eq '^total +[0-9]+ ' "$W/out" && grep -Eq '^D6R46 +IODPOF +E +page +complete ' "$W/out" &&
	grep -Eq '^D0R7 +SYTSHS +S +page +none ' "$W/out" &&
	ok "layouts --coverage: summary, a complete and a missing layout" || fail "coverage: $(head -3 "$W/out")"
# A LayoutFile's layout counts: SYTSHS taught one field is partial, never complete.
printf 'layout D0R7 SYTSHS min_len 72 level "z/VM 7.3" source "site"\n  field SYTSHS_X 20 4 uint verified none - "site" ""\nend\n' >"$W/shs.txt"
expect 0 "--layouts FILE layouts --coverage" -- "$Z" --layouts "$W/shs.txt" layouts --coverage
grep -Eq '^D0R7 +SYTSHS +S +page +partial ' "$W/out" &&
	ok "coverage reads loaded layouts" || fail "coverage with a LayoutFile: $(grep D0R7 "$W/out")"
# metrics: the CP metric table, one Markdown table per kind of entry (doc/metrics-cp.md).
expect 0 "metrics --markdown" -- "$Z" metrics --markdown
[ "$(grep -c '^<!-- BEGIN generated metrics [a-z]*: ' "$W/out")" = 7 ] &&
	grep -qF '| `zvm-cpu<cpu>/percent-busy` | D0R2 SYTPRP_PFXUTIME + SYTPRP_PFXTMSYS |' "$W/out" &&
	ok "metrics: seven tables, rows as doc/metrics-cp.md has them" || fail "metrics output: $(head -3 "$W/out")"
expect 2 "metrics with an argument" -- "$Z" metrics extra
# The provenance column is read from the layouts: a LayoutFile's hint shows.
printf 'layout D0R8 SYTUSR min_len 100 level "test" source "run.sh"\n  field SYTUSR_SYSUSRS 20 4 uint hint gauge users "site test" ""\nend\n' >"$W/usr.txt"
expect 0 "--layouts FILE metrics" -- "$Z" --layouts "$W/usr.txt" metrics --markdown
grep -F '`zvm-system/users-logged-on`' "$W/out" | grep -qF 'H site test' &&
	ok "metrics: provenance from a loaded layout" || fail "metrics prov: $(grep -F users-logged-on "$W/out")"

# Standard output that cannot be written is a failed run, never a silent success:
# a full disk (/dev/full), and a pipe whose reader is gone with SIGPIPE ignored.
write_fails() {
	local what=$1 msg=$2; shift 2
	"$@" 2>"$W/err"; local rc=$?
	if [ "$rc" -eq 2 ] && grep -qx "zvmmon: write error: $msg" "$W/err"; then ok "$what: exit 2, write error"
	else fail "$what: exit $rc, want 2 and 'write error: $msg'"; sed 's/^/    /' "$W/err"; fi
}
# top needs CP records, which the generated captures do not have.
for cmd in "dump" "dump --format text" "stat" "stat --format json" "top -b" "top -b --json"; do
	f=$W/clean.cap
	[ "${cmd%% *}" = top ] && f=$HERE/../../data/sample.monwrite
	# shellcheck disable=SC2086 # the command's words
	write_fails "$cmd >/dev/full" "No space left on device" sh -c "exec \"\$@\" >/dev/full" - \
		"$Z" $cmd "$f"
done
write_fails "layouts >/dev/full" "No space left on device" sh -c 'exec "$@" >/dev/full' - "$Z" layouts
write_fails "metrics >/dev/full" "No space left on device" sh -c 'exec "$@" >/dev/full' - "$Z" metrics
write_fails "--version >/dev/full" "No space left on device" sh -c 'exec "$@" >/dev/full' - "$Z" --version
# A FIFO opened for writing while open for reading, then the reading end closed:
# every write gets EPIPE, without a race against a reader that exits.
mkfifo "$W/gone"
exec 8<>"$W/gone" 9>"$W/gone" 8<&-
write_fails "dump into a closed pipe, SIGPIPE ignored" "Broken pipe" \
	bash -c "trap '' PIPE; exec \"\$@\" >&9" - "$Z" dump "$W/clean.cap"
# ... and stops there, not at the end of its input: a dump of a 1.4 MB file reads
# its standard input (fd 7, whose file offset this shell shares) only in part.
big=$HERE/../../data/sample.monwrite
for t in '>&9:Broken pipe' '>/dev/full:No space left on device'; do
	to=${t%%:*}
	exec 7<"$big"
	write_fails "dump - $to, SIGPIPE ignored" "${t#*:}" \
		bash -c "trap '' PIPE; exec \"\$@\" <&7 $to" - "$Z" dump -
	pos=$(awk '/^pos:/ {print $2}' "/proc/$$/fdinfo/7")
	size=$(stat -c %s "$big")
	[ "$pos" -lt "$size" ] && [ "$(wc -l <"$W/err")" = 1 ] &&
		ok "dump - $to: stopped after $pos of $size bytes, said once" ||
		fail "dump - $to: read $pos of $size bytes; stderr: $(cat "$W/err")"
	exec 7<&-
done
exec 9>&-

# top -n: a whole number of intervals, 1 or more (0.5 was no limit, 1.9 was 1).
for n in 0.5 1.9 0 -1 " 1" 1x 99999999999999999999999; do
	expect 2 "top -n '$n'" -- "$Z" top -b -n "$n" "$HERE/../../data/sample.monwrite"
	grep -q -- "-n $n: a whole number of intervals" "$W/err" || fail "top -n '$n': message $(cat "$W/err")"
done
# Input top cannot read is said once, the reason only: no "no monitor records" after it.
expect 2 "top -b a directory" -- "$Z" top -b "$W"
[ "$(cat "$W/err")" = "zvmmon top: $W: read error: Is a directory" ] &&
	ok "top -b a directory: the read error only" || fail "top -b a directory: $(cat "$W/err")"
expect 2 "top -b empty input" -- "$Z" top -b "$W/empty"
[ "$(cat "$W/err")" = "zvmmon top: $W/empty: empty input" ] &&
	ok "top -b empty input: said once" || fail "top -b empty input: $(cat "$W/err")"
expect 2 "top -b text input" -- "$Z" top -b "$W/text"
grep -qx "zvmmon top: $W/text: not monitor data this build can read" "$W/err" &&
	! grep -q "no monitor records" "$W/err" && ok "top -b text input: the reason, once" ||
	fail "top -b text input: $(cat "$W/err")"
# --filter is kept in 31 characters: a longer glob is refused, not cut (a cut
# bracket expression matched no guest at all).
long='[ABCDEFGHIJKLMNOPQRSTUVWXYZ]INUX00[0123456789]'
expect 2 "top --filter of ${#long} characters" -- "$Z" top -b --filter "$long" "$HERE/../../data/sample.monwrite"
grep -qxF -- "zvmmon top: --filter $long: at most 31 characters" "$W/err" ||
	fail "top --filter too long: message $(cat "$W/err")"
expect 0 "top -b -n 2" -- "$Z" top -b -n 2 "$HERE/../../data/sample.monwrite"
[ "$(grep -c ' interval [0-9]' "$W/out")" = 2 ] && ok "-n 2: two tables" ||
	fail "-n 2: $(grep -c ' interval [0-9]' "$W/out") tables"

# --layouts: a layout file wins over the built-in D10R2 (same id and min_len).
cat >"$W/layouts.txt" <<'LAYOUTS'
layout D10R2 APLSDT min_len 52 level "test" source "run.sh"
  field APLSDT_CALDATOF 20 2 sint hint none bytes "run.sh" "data offset"
  field APLSDT_RSVD49 49 3 hex uncertain none - "run.sh" "the reserved bytes, shown"
end
LAYOUTS
expect 0 "dump --layouts FILE" -- "$Z" --layouts "$W/layouts.txt" dump --domain 10 --record 2 "$W/clean.cap"
[ "$(jq -c '.fields | keys' "$W/out" | sort -u)" = '["APLSDT_CALDATOF","APLSDT_RSVD49"]' ] &&
	ok "loaded layout used for D10R2" || fail "--layouts not applied: $(head -1 "$W/out")"
printf 'layout D10R2 APLSDT min_len 52\n  field X 60 2 uint\n' >"$W/bad-layouts.txt"
expect 2 "bad layout file" -- "$Z" --layouts "$W/bad-layouts.txt" dump "$W/clean.cap"
grep -q 'bad-layouts.txt:' "$W/err" && ok "layout file error names file and line" || fail "layout error: $(cat "$W/err")"

# capture: a FIFO stands in for the device (data, then a 0-byte read at close).
# The writer holds the FIFO open before zvmmon opens it: a reader that found no
# writer yet would read end-of-file at once, an empty data set.
mkfifo "$W/dev"
(exec 3<>"$W/dev"; cat "$W/set0.bin" >&3; touch "$W/ready"; sleep 1; exec 3>&-) &
writer=$!
for _ in $(seq 100); do [ -e "$W/ready" ] && break; sleep 0.05; done
[ -e "$W/ready" ] || fail "FIFO writer did not start"
expect 0 "capture one set from a FIFO" -- "$Z" capture -o "$W/cap.cap" --device "$W/dev" --sets 1 --seconds 10
wait $writer 2>/dev/null
expect 0 "dump the capture" -- "$Z" dump "$W/cap.cap"
[ "$(jq -c 'del(.offset)' "$W/out" | md5sum)" = "$(jq -c 'select(.set == 0) | del(.offset)' "$W/clean.json" | md5sum)" ] &&
	ok "captured set decodes like the original" || fail "captured set differs"
expect 2 "capture without -o" -- "$Z" capture --device "$W/dev" --sets 1
for opt in --sets --seconds; do
	# A whole number in digits, as top -n takes it: strtol let blanks and a sign through.
	for n in " 1" +1 1.5 0x10 -1 0 ""; do
		expect 2 "capture $opt '$n'" -- "$Z" capture -o "$W/x.cap" --device "$W/nodev" $opt "$n"
		grep -qx -- "zvmmon capture: $opt $n: a positive number is needed" "$W/err" ||
			fail "capture $opt '$n': message $(cat "$W/err")"
	done
	expect 2 "capture $opt out of range" -- "$Z" capture -o "$W/x.cap" --device "$W/nodev" $opt 99999999999999999999999
	grep -q -- "$opt 99999999999999999999999: a positive number is needed" "$W/err" ||
		fail "capture $opt out of range: message $(cat "$W/err")"
done
# Nothing but empty reads (/dev/null, a wrong device): said once, and the capture goes on to its end.
expect 0 "capture from /dev/null for 3 s" -- "$Z" capture -o "$W/null.cap" --device /dev/null --seconds 3
[ "$(grep -c 'empty reads in a row and no data: not a monitor stream' "$W/err")" = 1 ] &&
	ok "capture from /dev/null: the empty reads said once" || fail "capture from /dev/null: $(cat "$W/err")"
expect 2 "capture from a missing device" -- "$Z" capture -o "$W/x.cap" --device "$W/nodev" --sets 1
# A directory opens; it must be refused as unusable before the output is made.
expect 2 "capture from a directory" -- "$Z" capture -o "$W/dir.cap" --device "$W" --sets 1
grep -q "zvmmon capture: $W: Is a directory" "$W/err" && [ ! -e "$W/dir.cap" ] &&
	ok "capture from a directory: said, no output file" || fail "capture from a directory: $(cat "$W/err"); $(ls -l "$W/dir.cap" 2>&1)"

if [ $fails -ne 0 ]; then echo "check-zvmmon: $fails failure(s)"; exit 1; fi
echo "check-zvmmon: all passed"
