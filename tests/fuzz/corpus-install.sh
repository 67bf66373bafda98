#!/bin/sh
# Put a minimised corpus (libFuzzer -merge=1 output, files named by their
# SHA-1) in place of tests/fuzz/corpus/NAME, then the seeds the seed scripts
# (tests/fuzz/*seeds*.py) write for NAME under their own names, any SHA-1
# named copy of one dropped: the scripts run again on the committed tree
# change nothing.  Run from the tree top.
# Usage: tests/fuzz/corpus-install.sh NAME MERGED_DIR
set -eu
n=$1
src=$2
c=tests/fuzz/corpus/$n
[ -d "$src" ] || { echo "corpus-install: $src: no such directory"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tests/fuzz"
cp tests/fuzz/*.py "$tmp/tests/fuzz/"
(cd "$tmp" && for s in tests/fuzz/*seeds*.py; do python3 "$s"; done)
rm -rf "$c"
mkdir -p "$c"
cp -r "$src/." "$c/"
if [ -d "$tmp/tests/fuzz/corpus/$n" ]; then
	for f in "$tmp/tests/fuzz/corpus/$n"/*; do
		rm -f "$c/$(sha1sum "$f" | cut -c1-40)"
		cp "$f" "$c/"
	done
fi
echo "corpus-install: $n: $(find "$c" -type f | wc -l) files, $(du -sb "$c" | cut -f1) bytes"
