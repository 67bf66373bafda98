#!/usr/bin/env bash
# Self-test of scripts/check-citations.py: it must pass a tree that cites
# only what is in it and fail on every kind of citation of a source outside
# the repository, or the repository check proves nothing.
# Usage: tests/citations/selftest.sh [path/to/check-citations.py]
set -uo pipefail
checker=$(realpath "${1:-scripts/check-citations.py}")
command -v git >/dev/null || { echo "citations-selftest: git missing"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
git init -q . || exit 1

# The names are put together here so that this file does not cite them.
notes=("kernel-and-""s390-tools" "cp-field-""offsets" "zvm-monitor-""records"
	"collectd-and-""peers" "s390x-collectd-""under-qemu")
place="shared/""reference"
seed1="seed ""001" seed3="seed ""003"

mkdir -p doc/facts src decoder/payload/vm370
cat > src/clean.c <<'C'
/* A data set (doc/facts/kernel-drivers.md 1.3); run zvmsim --seed 11. */
C
printf '# Facts\n\nSee doc/facts/cp-records.md 6; the fuzz seeds 3 and 4.\n' > doc/facts/x.md
git add src doc
fails=0
expect() { # expect STATUS WHAT [PATTERN...]: exit status, and every PATTERN in the output
	local want=$1 what=$2 p missing=
	shift 2
	out=$(python3 "$checker" 2>&1); got=$?
	for p in "$@"; do grep -qF -- "$p" <<<"$out" || missing=1; done
	if [ "$got" -ne "$want" ] || [ -n "$missing" ]; then
		echo "citations-selftest: FAIL: $what (exit $got, wanted $want)"; echo "$out" | sed 's/^/    /'
		fails=$((fails + 1))
	else
		echo "citations-selftest: ok: $what"
	fi
}
expect 0 "a tree citing doc/facts passes" "2 files, 0 citations"

bad() { # bad FILE LINE WHAT CITED: FILE holding LINE (line 2) must fail, reported at FILE:2
	printf '/*\n%s\n */\n' "$2" > "$1"; git add "$1"
	expect 1 "$3 fails" "$1:2: cites" "'$4'"
	git rm -qf "$1"
}
for n in "${notes[@]}"; do
	bad src/note.c " * Facts: $n.md 2.5." "$n.md in a C comment" "$n"
	bad src/stem.py "written from $n sections 3-5" "$n without .md in a docstring" "$n"
done
bad doc/place.md "Sources: \`$place/x.md\`" "the notes' folder in Markdown" "$place"
bad doc/seed.md "What the seed says ($seed1): ..." "a seed number in Markdown" "$seed1"

# The one exemption covers seed numbers in layout data, never a note's name.
printf '#define SPG "App. C p.358 (%s)"\n' "$seed3" > decoder/payload/vm370/lay_vm370.c
git add decoder
expect 0 "seed number in the exempted layout data passes" "0 citations"
printf '/* %s.md 7 */\n' "${notes[0]}" >> decoder/payload/vm370/lay_vm370.c
git add decoder
expect 1 "note name in the exempted file still fails" "lay_vm370.c:2: cites"
git rm -qf decoder/payload/vm370/lay_vm370.c

# Only tracked files count: a note named in an untracked file is not the repository's.
printf '%s.md\n' "${notes[1]}" > untracked.txt
expect 0 "an untracked file is not checked" "0 citations"

out=$(cd / && python3 "$checker" "$(mktemp -d)" 2>&1); got=$?
if [ "$got" -eq 2 ]; then echo "citations-selftest: ok: outside a work tree"; else
	echo "citations-selftest: FAIL: outside a work tree (exit $got)"; fails=$((fails + 1)); fi

[ "$fails" -eq 0 ] && echo "citations-selftest: all cases behave" || exit 1
