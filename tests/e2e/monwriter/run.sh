#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# monwriter output in plain files (src_monwriter.c): a mon_fsstatd-like
# writer and write_zvm in the real collectd write what they would write to
# /dev/monwriter; zvmmon dump / stat and the zvm plugin read it back.
# usage: run.sh TOP BUILD   (make check-monwriter)
TOP=$(cd "$1" && pwd)
BUILD=$2
ZVM_SO="$TOP/$BUILD/zvm.so"
. "$TOP/tests/e2e/plugin/lib.sh"
e2e_setup
trap 'rm -rf "$T"' EXIT
ZVMMON="$TOP/$BUILD/zvmmon/zvmmon"
[ -x "$ZVMMON" ] || fail "$ZVMMON not built"
[ -f "$TOP/$BUILD/write_zvm.so" ] || fail "$BUILD/write_zvm.so not built"
HERE="$TOP/tests/e2e/monwriter"

echo "== monwriter: a mon_fsstatd-like writer's file, dumped"
python3 "$HERE/fsstat_writer.py" "$T/fs.bin" "$T/fs.json" 4
"$ZVMMON" stat "$T/fs.bin" >"$T/fs.stat" || { cat "$T/fs.stat"; fail "zvmmon stat: errors on a clean file"; }
grep -q "format=monwriter .* intervals=4" "$T/fs.stat" || { cat "$T/fs.stat"; fail "not read as monwriter output"; }
"$ZVMMON" dump "$T/fs.bin" >"$T/fs.jsonl" || fail "zvmmon dump failed"
python3 "$HERE/check_dump.py" "$T/fs.json" "$T/fs.jsonl"

echo "== monwriter: what the driver refuses is counted"
python3 "$HERE/fsstat_writer.py" "$T/bad.bin" "$T/bad.json" 2 --bad
rc=0; "$ZVMMON" stat "$T/bad.bin" >"$T/bad.stat" 2>&1 || rc=$?
for k in mwr_function mwr_hdrlen mwr_datalen mwr_resize mwr_empty mwr_truncated; do
	grep -q "errors:.* $k=1" "$T/bad.stat" || { cat "$T/bad.stat"; fail "$k not counted once"; }
done
rc=0; "$ZVMMON" dump "$T/bad.bin" >/dev/null 2>"$T/bad.err" || rc=$?
[ $rc = 1 ] || fail "zvmmon dump exit $rc on refused records (want 1)"

echo "== monwriter: the zvm plugin replays it (df under the MONWRITR guest)"
conf fsrep "  File \"$T/fs.bin\""
run fsrep 3
logged fsrep 'fs.bin" (monwriter) replayed'
python3 - "$T/fs.json" "$T/fsrep/csv/monwritr" <<'PY' || fail "df values differ from what was written"
import json, glob, os, sys
truth, d = json.load(open(sys.argv[1])), sys.argv[2]
bad = n = 0
for t in truth:
    inst = "root" if t["dir"] == "/" else t["dir"].strip("/").replace("/", "-")
    v = t["statvfs"]
    want = "%.6f" % ((v[2] - v[3]) * v[1])
    rows = {}
    for f in glob.glob(os.path.join(d, "df-" + inst, "df_complex-used-*")):
        rows.update({int(float(l.split(",")[0])): l.strip().split(",")[1] for l in open(f) if not l.startswith("epoch")})
    n += 1
    if rows.get(t["time"]) != want:
        print("df-%s used at %d: got %s, wrote %s" % (inst, t["time"], rows.get(t["time"]), want)); bad += 1
print("plugin replay: %d df-used values checked, %d wrong" % (n, bad))
sys.exit(1 if bad else 0)
PY

echo "== monwriter: write_zvm in collectd writes to a plain file; zvm plugin reads it back"
cp "$TOP/$BUILD/write_zvm.so" "$T/plugins/"
for p in memory load; do cp "/usr/lib/collectd/$p.so" "$T/plugins/"; done
mkdir -p "$T/wa"
cat >"$T/wa/collectd.conf" <<CONF
Hostname "lnxa"
FQDNLookup false
BaseDir "$T/wa"
PIDFile "$T/wa/pid"
PluginDir "$T/plugins"
TypesDB "/usr/share/collectd/types.db"
Interval 1
LoadPlugin logfile
<Plugin logfile>
  File "$T/wa/collectd.log"
  LogLevel info
</Plugin>
LoadPlugin memory
LoadPlugin load
LoadPlugin csv
<Plugin csv>
  DataDir "$T/wa/csv"
</Plugin>
LoadPlugin write_zvm
<Plugin write_zvm>
  Device "$T/wzvm.bin"
  WriteInterval 1
</Plugin>
CONF
: >"$T/wzvm.bin"
rc=0; timeout -s TERM 5 collectd -f -C "$T/wa/collectd.conf" >"$T/wa/stdout" 2>&1 || rc=$?
[ $rc = 124 ] || { cat "$T/wa/stdout"; fail "write_zvm collectd exited with $rc"; }
"$ZVMMON" stat "$T/wzvm.bin" >"$T/wzvm.stat" || { cat "$T/wzvm.stat"; fail "zvmmon stat: errors in write_zvm's output"; }
grep -q "format=monwriter" "$T/wzvm.stat" || { cat "$T/wzvm.stat"; fail "write_zvm output not read as monwriter"; }
conf wrep "  File \"$T/wzvm.bin\"
  TrustedGuestHost \"MONWRITR\" \"lnxa\""
run wrep 3
python3 - "$T/wa/csv/lnxa" "$T/wrep/csv/lnxa" <<'PY' || fail "values read back differ from what collectd wrote"
import glob, os, sys
a, b = sys.argv[1], sys.argv[2]
def rows(d):
    out = {}
    for f in glob.glob(os.path.join(d, "memory", "memory-used-*")):
        out.update({l.split(",")[0]: l.strip().split(",")[1:] for l in open(f) if not l.startswith("epoch")})
    return out
ra, rb = rows(a), rows(b)
common = set(ra) & set(rb)
wrong = [t for t in common if [float(x) for x in ra[t]] != [float(x) for x in rb[t]]]
print("write_zvm round trip: %d memory-used values written, %d read back, %d differ" % (len(ra), len(rb), len(wrong)))
sys.exit(1 if not rb or wrong or not set(rb) <= set(ra) else 0)
PY
echo "monwriter e2e: all passed"
