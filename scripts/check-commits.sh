#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make check-commits: every commit after SINCE has a subject of at most 72
# characters, and every one that is not a merge has a body (the why, and
# figures where something was measured).  Commits before SINCE were made
# before the rule and are left as they are.
# usage: scripts/check-commits.sh [SINCE [HEAD]]   (--selftest: prove it refuses)
set -euo pipefail
SINCE=${1:-0c87fc8}

check() { # $1: range; prints a line per commit that breaks the rule
	local h subj body merge
	for h in $(git rev-list "$1"); do
		subj=$(git log -1 --format=%s "$h")
		body=$(git log -1 --format=%b "$h" | grep -c . || true)
		merge=$(git log -1 --format=%P "$h" | wc -w)
		if [ ${#subj} -gt 72 ]; then
			echo "$(git rev-parse --short "$h"): subject of ${#subj} characters (at most 72): $subj"
		fi
		if [ "$merge" -lt 2 ] && [ "$body" -eq 0 ]; then
			echo "$(git rev-parse --short "$h"): no body saying why: $subj"
		fi
	done
}

if [ "$SINCE" = --selftest ]; then
	d=$(mktemp -d)
	trap 'rm -rf "$d"' EXIT
	git -C "$d" init -q
	git -C "$d" -c user.name=t -c user.email=t@t commit -q --allow-empty -m base
	git -C "$d" -c user.name=t -c user.email=t@t commit -q --allow-empty -m "good subject" -m "why"
	git -C "$d" -c user.name=t -c user.email=t@t commit -q --allow-empty -m "no body"
	git -C "$d" -c user.name=t -c user.email=t@t commit -q --allow-empty \
		-m "$(printf 'x%.0s' $(seq 73))" -m "why"
	out=$(cd "$d" && check HEAD~3..HEAD)
	[ "$(echo "$out" | grep -c 'no body')" = 1 ] && [ "$(echo "$out" | grep -c '73 characters')" = 1 ] &&
		[ "$(echo "$out" | wc -l)" = 2 ] || { echo "check-commits selftest: not refused as it must be: $out"; exit 1; }
	echo "check-commits selftest: a long subject and a missing body are refused"
	exit 0
fi

git rev-parse -q --verify "$SINCE^{commit}" >/dev/null ||
	{ echo "check-commits: commit $SINCE is not in this clone (a shallow clone? git fetch --unshallow)"; exit 1; }
bad=$(check "$SINCE..${2:-HEAD}")
n=$(git rev-list --count "$SINCE..${2:-HEAD}")
if [ -n "$bad" ]; then
	echo "$bad"
	echo "check-commits: $(echo "$bad" | wc -l) problem(s) in $n commits since $SINCE"
	exit 1
fi
echo "check-commits: $n commits since $SINCE, each subject at most 72 characters, each with a body"
