#!/usr/bin/env bash
# A build directory remembers its flags ($(BUILD)/flags): an object made with
# one set is out of date for a build with another, and up to date for the
# same set again.  Without this, `make LTO=` or `make OPT=-O3` in a directory
# built before linked the old objects in silently.  make -q asks whether a
# target is up to date without building it (0 yes, 1 no).
set -uo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
obj="$tmp/decoder/base/hash.o"
fail() { echo "check-build: $*"; exit 1; }
q() { make -q --no-print-directory BUILD="$tmp" "$@" "$obj"; }

make -s --no-print-directory BUILD="$tmp" "$obj" || fail "cannot build $obj"
[ -s "$tmp/flags" ] || fail "no $tmp/flags after a build"
q; [ $? -eq 0 ] || fail "the same flags again remade $obj"
q OPT="-O1 -g"; [ $? -eq 1 ] || fail "OPT=-O1 did not make $obj out of date"
grep -q -- '-O1' "$tmp/flags" || fail "$tmp/flags does not hold the new flags"
make -s --no-print-directory BUILD="$tmp" OPT="-O1 -g" "$obj" || fail "cannot build $obj with -O1"
q OPT="-O1 -g"; [ $? -eq 0 ] || fail "-O1 again remade $obj"
q EXTRA_CFLAGS=-DZD_FLAGS_TEST; [ $? -eq 1 ] || fail "EXTRA_CFLAGS did not make $obj out of date"
echo "check-build: objects are remade when their build directory's flags change, and only then"
