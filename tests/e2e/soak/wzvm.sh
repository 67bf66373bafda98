#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The write_zvm soak: write_zvm in the real collectd on zvmsim's FUSE monwriter
# for WZVM_CYCLES cycles (default 1) of the normal rate, ten times that rate
# with a small QueueLength, and the device vanishing, EPERM and ENOSPC in the
# middle of the run.  wzvm_load.py drives it, wzvm_verdict.py holds what z/VM
# sampled (zvmsim's truth) against what was sent and write_zvm's counters.
# Its memory check counts the blocks collectd holds at quiet moments
# (memcount.so preloaded, glibc's allocator untuned; memory.py): a leak of one
# table entry per value fails it (wzvm_verdict.py), and
# tests/unit/test_wzvm_heap.c checks write_zvm's heap alone exactly.
#
#   wzvm.sh TOP BUILD
set -euo pipefail

TOP=$(cd "${1:-.}" && pwd)
BUILD=${2:-build}
case "$BUILD" in /*) ;; *) BUILD="$TOP/$BUILD" ;; esac
HERE="$TOP/tests/e2e/soak"
CYCLES=${WZVM_CYCLES:-1}

fail() { echo "wzvm soak: FAIL: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null || fail "$1 missing (make deps installs it)"; }
need collectd
need python3
need fusermount3
[ -e /dev/fuse ] || fail "/dev/fuse missing: the soak needs FUSE for zvmsim's monwriter"
[ -f "$BUILD/write_zvm.so" ] || fail "$BUILD/write_zvm.so not built (make)"
[ -x "$BUILD/zvmsim" ] || fail "$BUILD/zvmsim not built (make)"
MEMCOUNT="$BUILD/tests/soak/memcount.so"
[ -f "$MEMCOUNT" ] || fail "$MEMCOUNT not built (make $MEMCOUNT)"
for p in csv logfile unixsock match_regex; do
	[ -f "/usr/lib/collectd/$p.so" ] || fail "/usr/lib/collectd/$p.so missing (collectd-core)"
done

T=$(mktemp -d "${TMPDIR:-/tmp}/zvm-wzsoak.XXXXXX")
cleanup() {
	fusermount3 -u -z "$T/mnt" 2>/dev/null || true
	if [ -n "${KEEP:-}" ]; then echo "wzvm soak: kept $T"; else rm -rf "$T"; fi
}
trap cleanup EXIT
mkdir -p "$T/plugins" "$T/cd"
# collectd refuses symlinked plugins: copies.
cp "$BUILD/write_zvm.so" "$T/plugins/"
for p in csv logfile unixsock match_regex; do cp "/usr/lib/collectd/$p.so" "$T/plugins/"; done

# write_zvm's own counters go to csv only, the generator's values to
# write_zvm only: the queue then holds nothing but the generator's values, so
# its drops are theirs, and csv does not make a file per generated identifier.
cat >"$T/cd/collectd.conf" <<CONF
Hostname "collector"
FQDNLookup false
BaseDir "$T/cd"
PIDFile "$T/cd/collectd.pid"
PluginDir "$T/plugins"
TypesDB "/usr/share/collectd/types.db"
Interval 1
LoadPlugin logfile
<Plugin logfile>
  LogLevel "info"
  File "$T/cd/collectd.log"
  Timestamp true
</Plugin>
LoadPlugin unixsock
<Plugin unixsock>
  SocketFile "$T/cd/sock"
  SocketGroup "$(id -gn)"
</Plugin>
LoadPlugin csv
<Plugin csv>
  DataDir "$T/cd/csv"
  StoreRates false
</Plugin>
LoadPlugin match_regex
PostCacheChain "out"
<Chain "out">
  <Rule "self">
    <Match "regex">
      Plugin "^write_zvm\$"
    </Match>
    <Target "write">
      Plugin "csv"
    </Target>
    Target "stop"
  </Rule>
  <Target "write">
    Plugin "write_zvm"
  </Target>
</Chain>
LoadPlugin write_zvm
<Plugin write_zvm>
  Device "$T/mnt/monwriter"
  QueueLength 32
  WriteInterval 0.5
  RetryInterval 0.5
  MaxRecords 64
</Plugin>
CONF

echo "== write_zvm soak: $CYCLES cycle(s) of 1x, 10x, vanish, EPERM, ENOSPC"
python3 "$HERE/wzvm_load.py" --sim "$BUILD/zvmsim" --conf "$T/cd/collectd.conf" --dir "$T" \
	--cycles "$CYCLES" --memcount "$MEMCOUNT" ||
	{ tail -20 "$T/cd/collectd.log" 2>/dev/null; fail "the run did not complete"; }
python3 "$HERE/wzvm_verdict.py" "$T" || fail "the verdict above"
echo "wzvm soak: passed"
