#!/usr/bin/env bash
# zvmmon dump --reading over a MONWRITE file zvmsim wrote in the aligned
# reading (zvmsim --reading aligned: SYTPRP and MTRSYS as zpmd's compiled
# structs lay them out, doc/metrics-cp.md "Two readings").
#   run: reading.sh ZVMMON ZVMSIM WORKDIR
# Expected values come from what zvmsim was told and from its ground truth,
# never from zvmmon: MTRSYS_SYSTMID (D1R4) is the --system name, at 92 in the
# aligned reading and 88 in the packed one; SYTPRP_PFXTOTWT (D0R2) of each
# processor is the truth's value, at 72 aligned and 68 packed.
set -u
Z=$1 SIM=$2 W=$3
command -v jq >/dev/null || { echo "check-zvmmon-sim: jq missing (make deps)"; exit 1; }
rm -rf "$W" && mkdir -p "$W"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

NAME=RDGTEST
"$SIM" monwrite -o "$W/aligned.mw" --truth "$W/truth.jsonl" --intervals 2 --cpus 4 \
	--reading aligned --system "$NAME" 2>/dev/null || { echo "FAIL: zvmsim monwrite"; exit 1; }
[ "$(jq -r 'select(.domain==1 and .record==4) | .fields.MTRSYS_SYSTMID' "$W/truth.jsonl" | sort -u)" = "$NAME" ] ||
	fail "truth: MTRSYS_SYSTMID is not the --system name"

# dump ARGS... -> $W/d1r4.json and $W/d0r2.json
dump() {
	"$Z" dump "$@" --domain 1 --record 4 "$W/aligned.mw" >"$W/d1r4.json" || fail "dump $* D1R4: exit $?"
	"$Z" dump "$@" --domain 0 --record 2 "$W/aligned.mw" >"$W/d0r2.json" || fail "dump $* D0R2: exit $?"
}
systmid() { jq -r '.fields.MTRSYS_SYSTMID' "$W/d1r4.json" | sort -u; }
totwt() { jq -r "$1" "$2" | sort -n | tr '\n' ' '; }
want_totwt=$(totwt 'select(.domain==0 and .record==2) | .fields.SYTPRP_PFXTOTWT' "$W/truth.jsonl")
[ -n "$want_totwt" ] || fail "truth has no SYTPRP_PFXTOTWT"

dump --reading aligned
[ "$(systmid)" = "$NAME" ] && ok "--reading aligned: MTRSYS_SYSTMID is $NAME" ||
	fail "--reading aligned: MTRSYS_SYSTMID $(systmid), want $NAME"
[ "$(totwt '.fields.SYTPRP_PFXTOTWT' "$W/d0r2.json")" = "$want_totwt" ] &&
	ok "--reading aligned: every SYTPRP_PFXTOTWT as in the truth" ||
	fail "--reading aligned: SYTPRP_PFXTOTWT $(totwt '.fields.SYTPRP_PFXTOTWT' "$W/d0r2.json"), want $want_totwt"
[ "$(jq -r .reading "$W/d1r4.json" "$W/d0r2.json" | sort -u)" = aligned ] &&
	ok "--reading aligned: records say \"reading\":\"aligned\"" || fail "no \"reading\":\"aligned\" in the dump"

for how in default packed; do
	if [ $how = default ]; then dump; else dump --reading packed; fi
	[ "$(systmid)" != "$NAME" ] && ok "$how reading: MTRSYS_SYSTMID is not $NAME (read 4 bytes early)" ||
		fail "$how reading: MTRSYS_SYSTMID is $NAME, read through the wrong layout"
	[ "$(totwt '.fields.SYTPRP_PFXTOTWT' "$W/d0r2.json")" != "$want_totwt" ] &&
		ok "$how reading: SYTPRP_PFXTOTWT differs from the truth" ||
		fail "$how reading: SYTPRP_PFXTOTWT matches the aligned truth"
	[ "$(jq -c 'select(has("reading"))' "$W/d1r4.json" "$W/d0r2.json")" = "" ] &&
		ok "$how reading: no \"reading\" key" || fail "$how reading: a \"reading\" key"
done

"$Z" dump --reading aligned --format text --domain 1 --record 4 "$W/aligned.mw" >"$W/a.txt" 2>/dev/null
grep -q "$NAME" "$W/a.txt" && ok "--format text --reading aligned shows $NAME" || fail "text dump lacks $NAME"

"$Z" dump --reading compiled "$W/aligned.mw" >"$W/out" 2>"$W/err"; rc=$?
[ $rc -eq 2 ] && ok "--reading compiled refused (exit 2)" || fail "--reading compiled: exit $rc, want 2"
grep -q -- '--reading compiled: packed or aligned' "$W/err" && ok "the message names the option and its values" ||
	fail "message: $(cat "$W/err")"
[ -s "$W/out" ] && fail "--reading compiled wrote a dump" || ok "nothing dumped"

if [ $fails -ne 0 ]; then echo "check-zvmmon-sim: reading: $fails failure(s)"; exit 1; fi
echo "check-zvmmon-sim: dump --reading: all passed"
