#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# zvmsim's command line (make check-sim): --version says the package's version,
# and each command's --help lists its options, each with what it does, and
# only those it takes; every option --help names is in zvmsim(1).
# usage: cli.sh ZVMSIM
set -u
SIM=$1
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
fails=0
fail() { echo "FAIL: zvmsim CLI: $*"; fails=$((fails + 1)); }
W=$(mktemp -d "${TMPDIR:-/tmp}/zvmsim-cli.XXXXXX")
trap 'rm -rf "$W"' EXIT

V=$(sed -n '1s/^collectd-zvm (\([^)]*\)).*/\1/p' "$TOP/debian/changelog")
out=$("$SIM" --version) || fail "--version: exit $?"
[ "$out" = "zvmsim $V (collectd-zvm)" ] || fail "--version says '$out', not zvmsim $V"

# help CMD: the options listed, one per line; each must come with its meaning.
help() {
	"$SIM" "$@" --help >"$W/help" 2>"$W/err" || fail "$* --help: exit $?"
	python3 - "$W/help" <<'PY' || fail "$* --help: an option without its meaning: $(cat "$W/help")"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
names = []
for i, l in enumerate(lines):
    m = re.match(r"  (?:-\w,|   ) --([a-z-]+)(?: \S+)?(?: {2,}(\S.*))?$", l)
    if not m:
        continue
    meaning = m.group(2) or (i + 1 < len(lines) and re.match(r" {30}\S", lines[i + 1]))
    assert meaning, l
    names.append(m.group(1))
open(sys.argv[1] + ".names", "w").write("\n".join(names) + "\n")
PY
	cat "$W/help.names"
}
run=$(help run) || true
mw=$(help monwrite) || true
all=$(help) || true
for o in mount seed cpus guests linux interval domains fault delivery msglim max-bufs monwriter-eperm truth help; do
	grep -qx -- "$o" <<<"$run" || fail "run --help lacks --$o"
done
for o in output capture intervals; do
	grep -qx -- "$o" <<<"$run" && fail "run --help lists --$o, which run does not take"
	grep -qx -- "$o" <<<"$mw" || fail "monwrite --help lacks --$o"
done
grep -qx mount <<<"$mw" && fail "monwrite --help lists --mount"
grep -qx version <<<"$all" || fail "--help lacks --version"
# every option --help names is in the manual page
for o in $all; do
	grep -qF -- "\\-\\-${o//-/\\-}" "$TOP/man/zvmsim.1" || fail "zvmsim(1) lacks --$o"
done
# getopt's own messages name the command whole, as zvmsim's do
"$SIM" monwrite --no-such-option >/dev/null 2>"$W/err" && fail "monwrite --no-such-option: exit 0"
grep -q "^zvmsim monwrite: unrecognized option" "$W/err" ||
	fail "an unknown option's message does not begin \"zvmsim monwrite:\": $(head -1 "$W/err")"
"$SIM" run --cpus >/dev/null 2>"$W/err" && fail "run --cpus (no argument): exit 0"
grep -q "^zvmsim run: option.*requires an argument" "$W/err" ||
	fail "a missing argument's message does not begin \"zvmsim run:\": $(head -1 "$W/err")"
[ $fails -eq 0 ] && echo "zvmsim CLI: --version $V; run, monwrite and --help list $(wc -w <<<"$all") options, each with its meaning, all in zvmsim(1)"
exit $((fails > 0))
