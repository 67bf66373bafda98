#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare collectd's csv output with the generator's truth.csv.

usage: check.py TRUTH CSVDIR [--absent HOST ...] [--once ID ...] [--jsonlog LOG --interval S]
Every truth line (host/plugin-pinst/type-tinst,time,values) must appear in the csv
file of that identifier with exactly that time and those values (GAUGE as %f, DERIVE
as raw counters).  --absent: no directory for that host.  --once: that identifier
has exactly one row.  --jsonlog: write_log JSON lines; every zvm-produced value list
of a guest carries interval S.
"""
import glob, json, os, sys

def main(a):
    truth, csvdir = a[0], a[1]
    absent, once, jsonlog, interval = [], [], None, None
    i = 2
    while i < len(a):
        if a[i] == "--absent": absent.append(a[i + 1]); i += 2
        elif a[i] == "--once": once.append(a[i + 1]); i += 2
        elif a[i] == "--jsonlog": jsonlog = a[i + 1]; i += 2
        elif a[i] == "--interval": interval = float(a[i + 1]); i += 2
        else: sys.exit("check.py: unknown argument " + a[i])
    rows = {}
    def load(ident):
        if ident not in rows:
            r = {}
            for f in sorted(glob.glob(os.path.join(csvdir, ident + "-*"))):
                for line in open(f):
                    if line.startswith("epoch"):
                        continue
                    p = line.strip().split(",")
                    r.setdefault(p[0], []).append(p[1:])
            rows[ident] = r
        return rows[ident]
    bad = 0
    n = 0
    for line in open(truth):
        ident, t, *vals = line.strip().split(",")
        n += 1
        got = load(ident).get(t)
        if got is None:
            print(f"MISSING {ident} at {t} (expected {vals}); times present: {sorted(load(ident))[:5]}")
            bad += 1
        elif vals not in got:
            print(f"WRONG   {ident} at {t}: expected {vals}, got {got}")
            bad += 1
        elif len(got) != 1:
            print(f"TWICE   {ident} at {t}: {got}")
            bad += 1
    for h in absent:
        if os.path.exists(os.path.join(csvdir, h)):
            print(f"PRESENT {h}: should have been dropped")
            bad += 1
    for ident in once:
        k = sum(len(v) for v in load(ident).values())
        if k != 1:
            print(f"COUNT   {ident}: {k} rows, expected 1")
            bad += 1
    if jsonlog:
        seen = 0
        for line in open(jsonlog):
            s = line.find("[{")
            if s < 0 or '"plugin":"' not in line:
                continue
            for vl in json.loads(line[s:]):
                if vl.get("host") in ("linux01", "linux02") :
                    seen += 1
                    if abs(vl["interval"] - interval) > 1e-6:
                        print(f"INTERVAL {vl['host']}/{vl['plugin']}/{vl['type']}: {vl['interval']} != {interval}")
                        bad += 1
        if not seen:
            print("JSON    no guest value lists in " + jsonlog)
            bad += 1
        else:
            print(f"check.py: {seen} guest value lists carry interval {interval}")
    print(f"check.py: {n} expected values, {bad} problems")
    return 1 if bad else 0

sys.exit(main(sys.argv[1:]))
