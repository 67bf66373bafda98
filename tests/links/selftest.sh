#!/usr/bin/env bash
# Self-test of scripts/check-links.py: it must pass a file whose links all
# resolve and fail each kind of broken link, or the repository check proves
# nothing.  Usage: tests/links/selftest.sh [path/to/check-links.py]
set -uo pipefail
checker=$(realpath "${1:-scripts/check-links.py}")
command -v git >/dev/null || { echo "links-selftest: git missing"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
git init -q . || exit 1
mkdir -p doc contrib
printf 'rule\n' > contrib/a.rules
printf 'not tracked\n' > untracked.md

cat > doc/target.md <<'MD'
# Target page

## Threat model: what a guest can and cannot do

## `write_zvm` options

## Repeated
## Repeated

Setext heading
--------------
MD

cat > doc/good.md <<'MD'
# Good

[same page](#good), [other page](target.md#threat-model-what-a-guest-can-and-cannot-do),
[code in heading](target.md#write_zvm-options), [second repeat](target.md#repeated-1),
[setext](target.md#setext-heading), [up and over](../contrib/a.rules "title"),
[a directory](../contrib/), [web](https://example.com/missing.md), <mailto:x@example.com>,
![image](../contrib/a.rules)

[ref]: target.md

`[in code span](missing.md)`

```
[in a fence](missing.md)
```

    [indented code](missing.md)
MD

git add doc contrib
fails=0
expect() { # expect STATUS WHAT FILE [PATTERN]
	local want=$1 what=$2 file=$3 pat=${4:-}
	out=$(python3 "$checker" "$file" 2>&1); got=$?
	if [ "$got" -ne "$want" ] || { [ -n "$pat" ] && ! grep -qF -- "$pat" <<<"$out"; }; then
		echo "links-selftest: FAIL: $what (exit $got, wanted $want)"; echo "$out" | sed 's/^/    /'
		fails=$((fails + 1))
	else
		echo "links-selftest: ok: $what"
	fi
}

# Nine relative links outside code: proof they were all seen, not skipped.
expect 0 "every link resolves, code and web links ignored" doc/good.md "9 relative links, 0 broken"

bad() { # bad NAME MARKDOWN PATTERN
	printf '# Bad\n\n%s\n' "$2" > "doc/$1.md"; git add "doc/$1.md"
	expect 1 "$1 fails" "doc/$1.md" "$3"
}
bad missing-file   'See [the page](nothere.md).'                 'doc/missing-file.md:3: broken link nothere.md'
bad missing-anchor 'See [it](target.md#no-such-heading).'        '#no-such-heading'
bad missing-self   'See [above](#not-a-heading).'                '#not-a-heading'
bad wrong-dir      'See [rules](contrib/a.rules).'               'broken link contrib/a.rules'
bad untracked      'See [it](../untracked.md).'                  'tracked by git'
bad ref-def        "$(printf 'See [x].\n\n[x]: gone.md')"        'broken link gone.md'

# Without arguments the checker takes every tracked *.md and so finds them too.
out=$(python3 "$checker" 2>&1); got=$?
if [ "$got" -eq 1 ] && grep -q 'broken link nothere.md' <<<"$out" && ! grep -q 'doc/good.md' <<<"$out"; then
	echo "links-selftest: ok: git ls-files mode"
else
	echo "links-selftest: FAIL: git ls-files mode (exit $got)"; echo "$out" | sed 's/^/    /'
	fails=$((fails + 1))
fi

[ "$fails" -eq 0 ] && echo "links-selftest: all cases behave" || exit 1
