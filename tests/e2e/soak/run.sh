#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The live soak: the zvm plugin in the real collectd on zvmsim's FUSE
# monreader for SOAK_INTERVALS intervals (default 10000) with faults at random
# (SOAK_SEED, printed; default from the clock).  soak.py drives the run,
# verdict.py holds collectd's csv tree against zvmsim's ground truth and its
# record of what became of every data set.
#
#   run.sh TOP BUILD
set -euo pipefail

TOP=$(cd "${1:-.}" && pwd)
BUILD=${2:-build}
case "$BUILD" in /*) ;; *) BUILD="$TOP/$BUILD" ;; esac
HERE="$TOP/tests/e2e/soak"
# cd_conf_csv: the collectd.conf preamble every zvm test shares.
. "$TOP/tests/e2e/plugin/lib.sh"
N=${SOAK_INTERVALS:-10000}
SEED=${SOAK_SEED:-$(( $(date +%s) % 100000 ))}

fail() { echo "soak: FAIL: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null || fail "$1 missing (make deps installs it)"; }
need collectd
need python3
need fusermount3
[ -e /dev/fuse ] || fail "/dev/fuse missing: the soak needs FUSE for zvmsim's monreader"
[ -f "$BUILD/zvm.so" ] || fail "$BUILD/zvm.so not built (make)"
[ -x "$BUILD/zvmsim" ] || fail "$BUILD/zvmsim not built (make)"
MEMCOUNT="$BUILD/tests/soak/memcount.so"
[ -f "$MEMCOUNT" ] || fail "$MEMCOUNT not built (make $MEMCOUNT)"
for p in csv logfile; do
	[ -f "/usr/lib/collectd/$p.so" ] || fail "/usr/lib/collectd/$p.so missing (collectd-core)"
done

T=$(mktemp -d "${TMPDIR:-/tmp}/zvm-soak.XXXXXX")
cleanup() {
	fusermount3 -u -z "$T/mnt" 2>/dev/null || true
	if [ -n "${KEEP:-}" ]; then echo "soak: kept $T"; else rm -rf "$T"; fi
}
trap cleanup EXIT
mkdir -p "$T/plugins" "$T/cd"
# collectd refuses symlinked plugins: copies.
cp "$BUILD/zvm.so" "$T/plugins/zvm.so"
for p in csv logfile; do cp "/usr/lib/collectd/$p.so" "$T/plugins/"; done

{
	cd_conf_csv "$T/cd" "$T/plugins"
	cat <<CONF
LoadPlugin zvm
<Plugin zvm>
  Device "$T/mnt/monreader"
  RetryInterval 0.2
  MaxRetryInterval 0.5
</Plugin>
CONF
} >"$T/cd/collectd.conf"

# A modest system; no torn kernel copies, so that each Linux sample is either
# in the truth once with agreeing sync counters or not at all; a small IUCV
# message limit, so that an EOVERFLOW costs 13 intervals, not 260.
SIMOPTS="--cpus 2 --guests 6 --linux 2 --fsstatd 1 --procd 1 --devices 2 --vnics 2 --torn 0 --msglim 8"
echo "== soak: $N intervals, seed $SEED (SOAK_SEED=$SEED reproduces the fault schedule)"
python3 "$HERE/soak.py" --sim "$BUILD/zvmsim" --conf "$T/cd/collectd.conf" --dir "$T" \
	--intervals "$N" --seed "$SEED" --simopts "$SIMOPTS" --memcount "$MEMCOUNT" ||
	{ tail -20 "$T/cd/collectd.log" 2>/dev/null; fail "the run did not complete (seed $SEED)"; }
[ "$(grep -c "Exiting normally" "$T/cd/collectd.log")" -ge 3 ] ||
	fail "fewer than three clean collectd shutdowns in the log"
python3 "$HERE/verdict.py" "$T" || fail "the verdict above (seed $SEED)"
echo "soak: passed"
