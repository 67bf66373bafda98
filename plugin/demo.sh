#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make demo: the real collectd with the zvm plugin, reading a live zvmsim
# monreader over FUSE (or, where FUSE is unavailable, replaying the bundled
# sample MONWRITE file), showing what is dispatched, stopping by itself.
# usage: plugin/demo.sh BUILD [SECONDS]   (ZVM_DEMO_NO_FUSE=1 forces the replay)
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$1
SECS=${2:-8}
SO="$TOP/$BUILD/zvm.so"
SIM="$TOP/$BUILD/zvmsim"
[ -f "$SO" ] || { echo "demo: $SO not built" >&2; exit 1; }
command -v collectd >/dev/null || { echo "demo: collectd missing (make deps-demo)" >&2; exit 1; }

D=$(mktemp -d "${TMPDIR:-/tmp}/zvm-demo.XXXXXX")
SIMPID=""
cleanup() {
	if [ -n "$SIMPID" ]; then
		fusermount3 -u "$D/mnt" 2>/dev/null || true
		kill "$SIMPID" 2>/dev/null || true
		wait "$SIMPID" 2>/dev/null || true
	fi
	rm -rf "$D"
}
trap cleanup EXIT
mkdir -p "$D/plugins"
cp "$SO" "$D/plugins/zvm.so"
for p in logfile write_log csv; do cp "/usr/lib/collectd/$p.so" "$D/plugins/"; done
[ -n "${DEMO_KEEP:-}" ] && trap - EXIT

live=0
if [ -z "${ZVM_DEMO_NO_FUSE:-}" ] && [ -x "$SIM" ] && [ -e /dev/fuse ] && command -v fusermount3 >/dev/null; then
	mkdir -p "$D/mnt"
	# Intervals are driven from here (control file), one per second.
	"$SIM" run -m "$D/mnt" --interval 0 --cpus 2 --guests 6 --linux 2 --devices 3 \
		--vnics 2 --fsstatd 1 --procd 1 >"$D/zvmsim.log" 2>&1 &
	SIMPID=$!
	for _ in $(seq 50); do [ -e "$D/mnt/monreader" ] && break; sleep 0.1; done
	if [ -e "$D/mnt/monreader" ]; then
		live=1
		SOURCE="Device \"$D/mnt/monreader\""
		echo "demo: zvmsim is running: $D/mnt/monreader (simulated z/VM, 2 CPUs, 6 guests, 2 Linux)"
	else
		echo "demo: zvmsim could not mount FUSE ($(tail -1 "$D/zvmsim.log")); replaying a file instead"
		kill "$SIMPID" 2>/dev/null || true
		SIMPID=""
	fi
fi
if [ $live = 0 ]; then
	SAMPLE="$TOP/tests/data/sample.monwrite"
	if [ ! -f "$SAMPLE" ]; then
		SAMPLE="$D/sample.monwrite"
		if [ -x "$SIM" ]; then
			"$SIM" monwrite -o "$SAMPLE" --intervals 5 --cpus 2 --guests 6 --linux 2 >/dev/null
		else
			"$TOP/$BUILD/tests/e2e_gen" "$D" 5 60 && mv "$D/stream.monwrite" "$SAMPLE"
		fi
	fi
	SOURCE="File \"$SAMPLE\""
	echo "demo: replaying $SAMPLE (MONWRITE file) with its original timestamps"
fi

sed -e "s|@DIR@|$D|g" -e "s|@PLUGINDIR@|$D/plugins|g" -e "s|@TYPESDB@|$TOP/types.db|g" \
	-e "s|@SOURCE@|$SOURCE|" "$TOP/contrib/collectd-zvm-demo.conf" >"$D/collectd.conf"

echo "demo: starting collectd -f -C $D/collectd.conf for $SECS s"
collectd -f -C "$D/collectd.conf" >"$D/stdout" 2>&1 &
CDPID=$!
# Graphite lines (host.plugin-instance.type-instance value time) and the plugin's messages.
# A sample of each host's series as they come: two values per kind of plugin
# instance (zvm-cpu, zvm-user, cpu-, df-root...), so that the z/VM system's
# (whose rates need two intervals) are not crowded out by the Linux guests'
# (which come whole with the first).  The plugin's own counters are left out.
tail -n +1 -F --pid="$CDPID" "$D/collectd.log" 2>/dev/null |
	grep --line-buffered -E "zvm plugin|^[a-z0-9_-]+[.].* [-0-9.e+]+ [0-9]+.?$" |
	grep --line-buffered -v -e "^demo-collector" -e "^[^ ]*[.]zvm-reader[.]" |
	sed -u -e 's/^\[[^]]*\] //' -e 's/\r$//' |
	awk -v max=60 -v per_host=18 -v per_kind=2 '
		/^zvm plugin/ { print; fflush(); next }
		{
			split($1, p, "."); k = p[2]; sub(/[0-9]+$/, "", k)
			if (split(k, q, "-") > 2) k = q[1] "-" q[2]
			h = p[1]; k = h "." k
			if (shown >= max || nh[h] >= per_host || nk[k] >= per_kind) { more++; next }
			shown++; nh[h]++; nk[k]++; print; fflush()
		}
		END { if (more) print "... and " more " more values (the csv summary below counts the series)" }' &
TAILPID=$!
for i in $(seq "$SECS"); do
	sleep 1
	[ $live = 1 ] && echo interval >"$D/mnt/control" 2>/dev/null || true
done
kill -TERM "$CDPID"
wait "$CDPID" || true
wait "$TAILPID" 2>/dev/null || true

echo
echo "== summary"
grep -q "Exiting normally" "$D/collectd.log" && echo "collectd stopped cleanly"
if [ -d "$D/csv" ]; then
	for h in "$D"/csv/*; do
		[ -d "$h" ] || continue
		n=$(find "$h" -type f | wc -l)
		echo "host $(basename "$h"): $n series, e.g. $(find "$h" -type f | head -3 | sed "s|$h/||; s|-[0-9-]*$||" | tr '\n' ' ')"
	done
	last() { tail -qn1 "$D"/csv/demo-collector/zvm-reader/"$1"-* 2>/dev/null | tail -1 | cut -d, -f2; }
	echo "reader: $(last total_objects-datasets) data sets, $(last total_objects-records) records," \
		"$(last total_values-dispatched) values dispatched, $(last errors-decode) decode errors"
fi
