#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# valgrind memcheck over a MONWRITE replay through the zvm plugin in the real
# collectd: zvmsim writes SOAK_VG_INTERVALS (default 1000) one-minute
# intervals of a modest system, the plugin replays them (File), csv writes
# every value.  Any memcheck error, and any definite or possible leak, fails.
# No suppression file: none was needed for collectd 5.12 or glibc here.
#
#   valgrind.sh TOP BUILD
set -euo pipefail

TOP=$(cd "${1:-.}" && pwd)
BUILD=${2:-build}
case "$BUILD" in /*) ;; *) BUILD="$TOP/$BUILD" ;; esac
# cd_conf_csv: the collectd.conf preamble every zvm test shares.
. "$TOP/tests/e2e/plugin/lib.sh"
N=${SOAK_VG_INTERVALS:-1000}

fail() { echo "soak-valgrind: FAIL: $*" >&2; exit 1; }
for c in collectd valgrind python3; do command -v $c >/dev/null || fail "$c missing (make deps installs it)"; done
[ -f "$BUILD/zvm.so" ] || fail "$BUILD/zvm.so not built (make)"
[ -x "$BUILD/zvmsim" ] || fail "$BUILD/zvmsim not built (make)"

T=$(mktemp -d "${TMPDIR:-/tmp}/zvm-soakvg.XXXXXX")
trap 'if [ -n "${KEEP:-}" ]; then echo "kept $T"; else rm -rf "$T"; fi' EXIT
mkdir -p "$T/plugins" "$T/cd"
cp "$BUILD/zvm.so" "$T/plugins/zvm.so"
for p in csv logfile; do cp "/usr/lib/collectd/$p.so" "$T/plugins/"; done

"$BUILD/zvmsim" monwrite -o "$T/day.monwrite" --intervals "$N" --cpus 4 --guests 20 --linux 4 \
	--devices 10 --vnics 4 >"$T/zvmsim.log" 2>&1 || { cat "$T/zvmsim.log"; fail "zvmsim monwrite"; }

{
	cd_conf_csv "$T/cd" "$T/plugins"
	cat <<CONF
LoadPlugin zvm
<Plugin zvm>
  File "$T/day.monwrite"
</Plugin>
CONF
} >"$T/cd/collectd.conf"

echo "== valgrind: $N MONWRITE intervals replayed through the zvm plugin in collectd"
t0=$(date +%s)
valgrind -q --leak-check=full --show-leak-kinds=definite,possible \
	--errors-for-leak-kinds=definite,possible --log-file="$T/valgrind.log" \
	collectd -f -C "$T/cd/collectd.conf" >"$T/cd/stdout" 2>&1 &
CD=$!
# Stop once the replay is done and the csv tree has stopped growing.
for _ in $(seq 1800); do
	grep -q "replayed: " "$T/cd/collectd.log" 2>/dev/null && break
	kill -0 $CD 2>/dev/null || break
	sleep 1
done
csv_settle "$T/cd/csv" 2
kill -TERM $CD 2>/dev/null || true
rc=0
wait $CD || rc=$?
t1=$(date +%s)
grep -q "Exiting normally" "$T/cd/collectd.log" || { tail "$T/cd/collectd.log"; fail "no clean shutdown (exit $rc)"; }
grep "replayed: " "$T/cd/collectd.log" | sed 's/^/  /'
SETS=$(sed -n 's/^zvmsim: \([0-9]*\) data sets.*/\1/p' "$T/zvmsim.log")
grep -q "replayed: $SETS data sets" "$T/cd/collectd.log" || fail "not all $SETS data sets replayed"
rows=$(find "$T/cd/csv" -type f -exec cat {} + | grep -vc '^epoch')
echo "  $rows csv rows, $((t1 - t0)) s under valgrind"
[ "$rows" -gt $((N * 50)) ] || fail "only $rows values written"
if [ -s "$T/valgrind.log" ]; then cat "$T/valgrind.log"; fail "valgrind reported errors or leaks"; fi
echo "soak-valgrind: no errors, no definite or possible leaks"
