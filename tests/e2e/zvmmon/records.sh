#!/usr/bin/env bash
# The records zvmsim writes from layouts read off IBM's pages alone (issue 52
# item 4), through zvmmon dump: each record's fields as the truth says, at the
# length IBM's page gives, zero past the fields the page let read.
#   run: records.sh ZVMMON ZVMSIM WORKDIR
# Expected values come from IBM's pages and from zvmsim's other records, never
# from zvmmon: MTRMEM's storage is SYTRSG's pageable frames in bytes (zero when
# a fullword cannot say it), SYTSXG's available pages plus STOSXG's in use are
# SYTSXG's size, MTRSCH's interactive bias is SET SRM's default 90, SYTCUG
# counts the partitions whose SYTCUP records the sample holds.
set -u
Z=$1 SIM=$2 W=$3
command -v jq >/dev/null || { echo "check-zvmmon-sim: jq missing (make deps)"; exit 1; }
rm -rf "$W" && mkdir -p "$W"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# domain record dsect length(IBM's page) end of the readable fields
KINDS="1 7 MTRMEM 326 24
1 16 MTRSCH 128 24
0 6 SYTASG 112 24
0 21 SYTSXG 96 28
3 19 STOSXG 88 24
3 25 STOAZN 36 32
1 31 MTRSRV 28 26
0 4 SYTRSP 28 28
0 15 SYTCUG 28 21
3 2 STORSP 32 22"

# A system small enough for MTRMEM's fullword (no guests: 200,000 frames, 800 MB)
# and one past 4 GB.
"$SIM" monwrite -o "$W/small.mw" --truth "$W/small.jsonl" --intervals 3 --guests 0 --linux 0 \
	2>/dev/null || { echo "FAIL: zvmsim monwrite (small)"; exit 1; }
"$SIM" monwrite -o "$W/big.mw" --truth "$W/big.jsonl" --intervals 3 --guests 40 --linux 4 \
	2>/dev/null || { echo "FAIL: zvmsim monwrite (big)"; exit 1; }

# select(kind) over truth or dump: one line per record, its length and fields, keys sorted.
rows() { jq -cS "select(.domain==$1 and .record==$2) | [.length, .fields]" "$3" | sort; }

for sys in small big; do
	while read -r dom rec ds len end; do
		"$Z" dump --hex --domain "$dom" --record "$rec" "$W/$sys.mw" >"$W/$sys.$ds.json" ||
			fail "$sys: dump $ds: exit $?"
		want=$(rows "$dom" "$rec" "$W/$sys.jsonl")
		got=$(rows "$dom" "$rec" "$W/$sys.$ds.json")
		[ -n "$want" ] || { fail "$sys: the truth has no $ds"; continue; }
		[ "$got" = "$want" ] && ok "$sys: $ds: $(echo "$got" | wc -l) record(s) as in the truth" ||
			fail "$sys: $ds: dump $got, truth $want"
		[ "$(jq -r .length "$W/$sys.$ds.json" | sort -u)" = "$len" ] &&
			ok "$sys: $ds is $len bytes long" || fail "$sys: $ds length not $len"
		[ "$(jq -r '.dsect + " " + .layout' "$W/$sys.$ds.json" | sort -u)" = "$ds D${dom}R$rec" ] ||
			fail "$sys: $ds not decoded through D${dom}R$rec"
		tail=$(jq -r ".hex[$((end * 2)):]" "$W/$sys.$ds.json" | tr -d '0\n')
		[ -z "$tail" ] && ok "$sys: $ds zero past byte $end" || fail "$sys: $ds bytes past $end: $tail"
	done <<<"$KINDS"

	pgabl=$(jq -r 'select(.domain==0 and .record==3 and .interval==1) | .fields.SYTRSG_RSAPGABL' "$W/$sys.jsonl")
	store=$(jq -r '.fields.MTRMEM_RSASTORE' "$W/$sys.MTRMEM.json")
	want=$((pgabl * 4096))
	[ $want -gt 4294967295 ] && want=0
	[ -n "$pgabl" ] && [ "$store" = "$want" ] && ok "$sys: MTRMEM_RSASTORE $store for $pgabl frames" ||
		fail "$sys: MTRMEM_RSASTORE $store, want $want ($pgabl frames)"

	sizes=$(jq -r '.fields | "\(.SYTSXG_SXSSIZE) \(.SYTSXG_RSASXAVL)"' "$W/$sys.SYTSXG.json")
	uot=$(jq -r '.fields.STOSXG_RSASXUOT' "$W/$sys.STOSXG.json")
	paste -d' ' <(echo "$sizes") <(echo "$uot") | awk '$1 != $2 + $3 || $1 != 524288 { bad = 1 } END { exit bad }' &&
		ok "$sys: execution space 2 GB = available + in use" || fail "$sys: SYTSXG $sizes, STOSXG $uot"
	[ "$(jq -r .fields.MTRSCH_SRMBIASI "$W/$sys.MTRSCH.json")" = 90 ] && ok "$sys: MTRSCH_SRMBIASI 90" ||
		fail "$sys: MTRSCH_SRMBIASI not 90"
	npar=$(jq -r .fields.SYTCUG_LCUTNPAR "$W/$sys.SYTCUG.json" | sort -u)
	ncup=$(jq -r 'select(.domain==0 and .record==16) | .interval' "$W/$sys.jsonl" | uniq -c | awk '{print $1}' | sort -u)
	[ -n "$npar" ] && [ "$npar" = "$ncup" ] && ok "$sys: SYTCUG_LCUTNPAR $npar = SYTCUP records a sample" ||
		fail "$sys: SYTCUG_LCUTNPAR $npar, SYTCUP records a sample $ncup"
done
[ "$(jq -r .fields.MTRMEM_RSASTORE "$W/small.MTRMEM.json")" != 0 ] || fail "small: no storage stated"

if [ $fails -ne 0 ]; then echo "check-zvmmon-sim: records: $fails failure(s)"; exit 1; fi
echo "check-zvmmon-sim: records from IBM's pages: all passed"
