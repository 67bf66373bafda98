#!/bin/sh
# One case of make check-digest (or make update-digest): bench_digest's line for
# INPUT, with the zvm plugin's default engine options and any OPTIONs given,
# against the committed tests/digest/NAME.txt, which also pins the input's md5
# (a file made by zvmsim must be the same file every time).
#
# usage: digest.sh check|update BENCH_DIGEST NAME INPUT DESCRIPTION [OPTION...]
set -eu
[ $# -ge 5 ] || { echo "usage: $0 check|update BENCH_DIGEST NAME INPUT DESCRIPTION [OPTION...]" >&2; exit 2; }
mode=$1 bench=$2 name=$3 input=$4 what=$5
shift 5
committed=tests/digest/$name.txt
case $mode in check | update) ;; *) echo "$0: no mode $mode" >&2; exit 2 ;; esac
[ -r "$input" ] || { echo "check-digest: $name: cannot read $input" >&2; exit 2; }

now=$(mktemp)
trap 'rm -f "$now"' EXIT
{
	echo "# The line bench_digest writes for"
	echo "#   $what"
	echo "# with the zvm plugin's default engine options${*:+, plus}"
	[ $# -eq 0 ] || echo "#   $*"
	echo "# make check-digest compares; make update-digest writes this file anew."
	echo "input $(md5sum <"$input" | cut -d' ' -f1) $(wc -c <"$input") bytes"
	"$bench" "$@" "$input"
} >"$now"

if [ "$mode" = update ]; then
	if cmp -s "$now" "$committed"; then
		echo "update-digest: $committed unchanged"
	else
		cp "$now" "$committed"
		echo "update-digest: $committed written; commit it with the change that moved it:"
		sed -n 's/^/  /;/^  [a-z]/p' "$committed"
	fi
	exit 0
fi

if cmp -s "$now" "$committed"; then
	echo "check-digest: $name: $(grep '^digest' "$now")"
	exit 0
fi
if [ ! -f "$committed" ]; then
	echo "check-digest: $committed is missing: make update-digest writes it." >&2
	exit 1
fi
echo "check-digest: $name ($input): the engine's output is not the committed one." >&2
grep -v '^#' "$committed" | sed 's/^/  committed: /' >&2
grep -v '^#' "$now" | sed 's/^/  now:       /' >&2
[ "$(grep '^input' "$committed")" = "$(grep '^input' "$now")" ] || echo \
	"  The input differs: zvmsim wrote another file for the same options and seed." >&2
[ "$(grep '^digest' "$committed")" = "$(grep '^digest' "$now")" ] || echo \
	"  The digest differs: the engine made other metrics or log lines of it." >&2
cat >&2 <<MSG
  If the change of behaviour is intended, run \`make update-digest\` and commit
  $committed in the same commit as the change, saying why in its body.
MSG
exit 1
