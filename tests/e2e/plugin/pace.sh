# SPDX-License-Identifier: MIT
# Sourced by run.sh: a replay held to ReplayQueue in the real daemon.  The
# same zvmsim file (30 one-minute intervals of 1,000 guests, about 470,000
# value lists) replayed into csv unpaced (ReplayQueue 0) and paced
# (ReplayQueue 5000): the same values written, the paced run waited for the
# write threads through collectd's own value cache and never let its queue
# grow as the unpaced one did.  Memory is the measure, not time.

# peak_rss: replay_run's peak raised to its collectd's VmRSS now (its locals pid, peak).
peak_rss() {
	local r
	r=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
	[ -z "$r" ] || [ "$r" -le "$peak" ] || peak=$r
}

# replay_run NAME: collectd until the replay is logged and csv stops growing;
# its peak VmRSS (kB) in $T/NAME/peak_kb.
replay_run() {
	local d="$T/$1" peak=0 pid
	"$COLLECTD" -f -C "$d/collectd.conf" >"$d/stdout" 2>&1 &
	pid=$!
	for _ in $(seq 1200); do
		peak_rss
		grep -q "replayed: " "$d/collectd.log" 2>/dev/null && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	csv_settle "$d/csv" 1 peak_rss
	kill -TERM $pid 2>/dev/null || true
	wait $pid || true
	grep -q "Exiting normally" "$d/collectd.log" || { tail "$d/collectd.log"; fail "$1: no clean shutdown"; }
	echo "$peak" >"$d/peak_kb"
}

# Rows of every guest's and the system's csv files (the collector's own left out).
replay_rows() {
	find "$T/$1/csv" -path "$T/$1/csv/collector" -prune -o -type f -print0 |
		xargs -0 cat | grep -vc '^epoch'
}

echo "== ReplayQueue: a long replay held to the write threads' pace, nothing lost"
"$TOP/$BUILD/zvmsim" monwrite -o "$T/long.monwrite" --seed 3 --intervals 30 --cpus 4 \
	--guests 1000 --linux 200 --devices 200 --vnics 50 >"$T/long.log" 2>&1 ||
	{ cat "$T/long.log"; fail "zvmsim monwrite"; }
conf unpaced "  File \"$T/long.monwrite\"
  ReplayQueue 0"
conf paced "  File \"$T/long.monwrite\"
  ReplayQueue 5000"
replay_run unpaced
replay_run paced
logged unpaced "waited 0 times"
logged paced "replayed: .* waited [1-9][0-9]* times"
not_logged paced "did not reach collectd's value cache"
rows_u=$(replay_rows unpaced)
rows_p=$(replay_rows paced)
peak_u=$(cat "$T/unpaced/peak_kb")
peak_p=$(cat "$T/paced/peak_kb")
echo "  $rows_p rows paced, $rows_u unpaced; peak VmRSS paced $((peak_p / 1024)) MB, unpaced $((peak_u / 1024)) MB"
grep -h "replayed: " "$T/paced/collectd.log" | sed 's/^/  /'
[ "$rows_u" -gt 400000 ] || fail "the unpaced replay wrote only $rows_u rows"
[ "$rows_p" = "$rows_u" ] || fail "paced and unpaced replays wrote $rows_p and $rows_u rows"
[ "$((peak_p * 2))" -lt "$peak_u" ] || fail "the paced replay's peak VmRSS ($peak_p kB) is not under half the unpaced one's ($peak_u kB)"
[ -n "$(ls "$T/paced/csv/collector/zvm-replay/" 2>/dev/null)" ] || fail "no zvm-replay marker written"
# Held within ReplayQueue and one burst of the dispatcher (STAGE_MAX, plugin/zvm/zvm_dispatch.h):
# paced per megabyte of the file instead, an interval's CP values, all out of one Interval
# End record, went to the queue before the replay looked again.
ahead=$(sed -n 's/.*replayed: .* at most \([0-9]*\) value lists ahead.*/\1/p' "$T/paced/collectd.log" | tail -n 1)
[ -n "$ahead" ] || fail "the paced replay's log line does not say how far ahead it ran"
[ "$ahead" -le $((5000 + 4096)) ] || fail "the paced replay ran $ahead value lists ahead of the write threads (ReplayQueue 5000 and one burst of 4096 at most)"

echo "== ReplayQueue: markers kept from the writers by a PostCacheChain rule (doc/plugin.md)"
conf quiet "  File \"$T/long.monwrite\"
  ReplayQueue 5000"
# The rule as shipped in the backfill example, so that what users copy is what is tested.
sed -n '/^LoadPlugin match_regex$/,/^<\/Chain>$/p' "$TOP/contrib/replay-to-graphite.conf" >"$T/quiet/chain"
grep -q 'Target "write"' "$T/quiet/chain" || fail "no PostCacheChain rule found in contrib/replay-to-graphite.conf"
cat "$T/quiet/chain" >>"$T/quiet/collectd.conf"
replay_run quiet
logged quiet "replayed: .* waited [1-9][0-9]* times"
not_logged quiet "did not reach collectd's value cache"
rows_q=$(replay_rows quiet)
[ "$rows_q" = "$rows_u" ] || fail "the replay with its markers stopped wrote $rows_q rows, unpaced $rows_u"
[ -z "$(ls "$T/quiet/csv/collector/zvm-replay/" 2>/dev/null)" ] || fail "markers written despite the PostCacheChain rule"
[ -n "$(ls "$T/quiet/csv/collector/zvm-reader/" 2>/dev/null)" ] || fail "the chain stopped the reader's own self-metrics too"
echo "  $rows_q rows, paced, no marker written"
