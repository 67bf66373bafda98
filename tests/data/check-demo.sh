#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make check-demo: `make demo` still prints the figures README.md shows.  Runs
# the demo (plugin/demo.sh, live on zvmsim over FUSE) and compares its
# summary, each host's series count and the reader's line, with README's
# "What make demo shows" (the example series after "e.g." depend on the file
# system's order and are not compared).  After a change to what the plugin
# or zvmsim makes, copy the demo's output into README.md.
# usage: tests/data/check-demo.sh BUILD
set -euo pipefail
BUILD=${1:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/check-demo.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "check-demo: FAIL: $*" >&2; exit 1; }
command -v collectd >/dev/null || fail "collectd missing (make deps-demo)"
[ -c /dev/fuse ] && command -v fusermount3 >/dev/null || fail "the demo needs FUSE here (/dev/fuse, fusermount3: make deps-demo)"

# The summary lines that are figures: "host NAME: N series" and "reader: ...".
figures() { sed -n '/== summary/,$p' | sed -n -e 's/^ *\(host [^:]*: [0-9]* series\).*/\1/p' -e 's/^ *\(reader: .*\)/\1/p'; }

plugin/demo.sh "$BUILD" >"$T/demo.out" 2>&1 || { tail -20 "$T/demo.out" >&2; fail "the demo failed"; }
grep -q "^demo: zvmsim is running" "$T/demo.out" || { head -5 "$T/demo.out" >&2; fail "the demo did not run zvmsim live"; }
figures <"$T/demo.out" >"$T/got"
sed -n '/^## What `make demo` shows/,/^## /p' README.md | figures >"$T/want"
[ -s "$T/want" ] || fail "README.md has no demo summary"
[ -s "$T/got" ] || { tail -20 "$T/demo.out" >&2; fail "the demo printed no summary"; }
diff -u "$T/want" "$T/got" >&2 || fail "the demo's summary differs from README.md's (- README, + the demo)"
echo "check-demo: the demo prints README.md's figures ($(wc -l <"$T/got") lines: $(tail -1 "$T/got"))"
