#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make bench-live: the zvm plugin reading a live zvmsim monreader (FUSE) in the
# real collectd, once for each LiveQueue setting, interleaved.  A live system
# hands over each sample interval's values when its Interval End comes (about 8
# value lists a guest at once); LiveQueue holds the reader to that many ahead
# of collectd's write thread.  Prints, per run: collectd's peak VmRSS, its CPU
# (all threads) per value list handed over, and the reader's pacing counters.
# Figures only: nothing here passes or fails on speed or memory.
#
# usage: live.sh TOP BUILD
# Environment: BENCH_LIVE_GUESTS (10000), BENCH_LIVE_INTERVALS (8 sample
# intervals a run), BENCH_LIVE_SECONDS (the sample interval zvmsim declares
# and keeps, 5), BENCH_LIVE_QUEUES (the LiveQueue settings, "0 50000"),
# BENCH_LIVE_REPEAT (runs of each, 1).
set -euo pipefail
TOP=$(cd "$1" && pwd)
BUILD=$2
G=${BENCH_LIVE_GUESTS:-10000}
N=${BENCH_LIVE_INTERVALS:-8}
SI=${BENCH_LIVE_SECONDS:-5}
QUEUES=${BENCH_LIVE_QUEUES:-0 50000}
REPEAT=${BENCH_LIVE_REPEAT:-1}

fail() { echo "bench-live: $*" >&2; exit 1; }
command -v collectd >/dev/null || fail "collectd missing (make deps)"
command -v fusermount3 >/dev/null || fail "fusermount3 missing (make deps)"
[ -e /dev/fuse ] || fail "FUSE is unavailable (/dev/fuse missing)"
for f in "$BUILD/zvm.so" "$BUILD/zvmsim" "$BUILD/bench-plugin/bench_sink.so"; do
	[ -e "$TOP/$f" ] || fail "$f not built"
done
for p in csv logfile match_regex; do
	[ -f "/usr/lib/collectd/$p.so" ] || fail "/usr/lib/collectd/$p.so missing (collectd-core)"
done

T=$(mktemp -d "${TMPDIR:-/tmp}/zvm-bench-live.XXXXXX")
SIM=""
CD=""
cleanup() {
	[ -z "$CD" ] || kill -TERM "$CD" 2>/dev/null || true
	[ -z "$SIM" ] || { fusermount3 -u "$T/mnt" 2>/dev/null || true; wait "$SIM" 2>/dev/null || true; }
	rm -rf "$T"
}
trap cleanup EXIT
mkdir -p "$T/plugins"
cp "$TOP/$BUILD/zvm.so" "$TOP/$BUILD/bench-plugin/bench_sink.so" "$T/plugins/"
for p in csv logfile match_regex; do cp "/usr/lib/collectd/$p.so" "$T/plugins/"; done

# conf DIR LIVEQUEUE: values to bench_sink (counted, dropped), the reader's own
# counters to csv, so that the run's figures can be read back.
conf() {
	cat <<EOF
Hostname "collector"
BaseDir "$1"
PIDFile "$1/pid"
PluginDir "$T/plugins"
TypesDB "/usr/share/collectd/types.db" "$TOP/types.db"
Interval 1
WriteThreads 1
LoadPlugin logfile
<Plugin logfile>
  File "$1/collectd.log"
  LogLevel info
</Plugin>
LoadPlugin csv
<Plugin csv>
  DataDir "$1/csv"
</Plugin>
<LoadPlugin bench_sink>
  Globals true
</LoadPlugin>
<Plugin bench_sink>
  Result "$1/result"
  EndAfterLog "bench-live never logs this"
</Plugin>
LoadPlugin match_regex
PostCacheChain "PostCache"
<Chain "PostCache">
  <Rule "self">
    <Match "regex">
      Plugin "^zvm$"
      PluginInstance "^(reader|replay)$"
    </Match>
    <Target "write">
      Plugin "csv"
    </Target>
    Target "stop"
  </Rule>
  <Target "write">
    Plugin "bench_sink"
  </Target>
</Chain>
LoadPlugin zvm
<Plugin zvm>
  Device "$T/mnt/monreader"
  MaxDataSetSize 1073741824
  LiveQueue $2
</Plugin>
EOF
}

last() { tail -qn1 "$1/csv/collector/zvm-reader/$2"-* 2>/dev/null | tail -n1 | cut -d, -f2; }

# run LIVEQUEUE K: one run; prints its line of figures.
run() {
	local d="$T/q$1-$2" peak=0 r
	mkdir -p "$d" "$T/mnt"
	"$TOP/$BUILD/zvmsim" run -m "$T/mnt" --interval "$SI" --cpus 8 --guests "$G" \
		--linux $((G / 5)) --devices $((G / 5)) --vnics $((G / 20)) >"$d/sim.log" 2>&1 &
	SIM=$!
	for _ in $(seq 100); do [ -e "$T/mnt/monreader" ] && break; sleep 0.1; done
	[ -e "$T/mnt/monreader" ] || { cat "$d/sim.log"; fail "zvmsim did not mount"; }
	conf "$d" "$1" >"$d/collectd.conf"
	collectd -f -C "$d/collectd.conf" >"$d/stdout" 2>&1 &
	CD=$!
	# N intervals and a few seconds for the last one's values to go out
	local end=$(($(date +%s) + N * SI + 4))
	while [ "$(date +%s)" -lt "$end" ]; do
		r=$(awk '/^VmRSS/ { print $2 }' "/proc/$CD/status" 2>/dev/null) ||
			{ cat "$d/stdout"; fail "collectd ended early (LiveQueue $1)"; }
		[ "$r" -le "$peak" ] || peak=$r
		sleep 0.1
	done
	local cpu
	cpu=$(awk '{ print ($14 + $15) / 100 }' "/proc/$CD/stat")
	sleep 1.5 # the reader's counters of the last interval into csv
	kill -TERM "$CD"
	wait "$CD" || true
	CD=""
	fusermount3 -u "$T/mnt"
	wait "$SIM" || true
	SIM=""
	local vl
	vl=$(last "$d" total_values-dispatched)
	[ -n "$vl" ] && [ "$vl" -gt 0 ] || { tail "$d/collectd.log"; fail "no values dispatched (LiveQueue $1)"; }
	printf '%10s %8d %13d %9d %12.0f %6s %5s %9.0f\n' "$1" "$N" "$vl" $((peak / 1024)) \
		"$(echo "$cpu $vl" | awk '{ print $1 * 1e9 / $2 }')" "$(last "$d" total_events-live_waits)" \
		"$(last "$d" total_events-live_cuts)" "$(last "$d" queue_length-live_ahead)"
}

echo "bench-live: $G guests ($((G / 5)) Linux, $((G / 5)) devices, $((G / 20)) NICs), zvmsim's live monreader,"
echo "  $N sample intervals of $SI s a run; collectd (WriteThreads 1) writes to a sink that drops every value"
echo "  (CPU: all of collectd's threads from start to the last interval, the first intervals' series included)"
printf '%10s %8s %13s %9s %12s %6s %5s %9s\n' LiveQueue intervals "value lists" "peak MB" "CPU ns/VL" waits cuts "ahead max"
for k in $(seq "$REPEAT"); do
	for q in $QUEUES; do run "$q" "$k"; done
done
