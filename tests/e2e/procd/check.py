#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare the processes-plugin series collectd wrote (csv) with zvmsim's truth.

usage: check.py TRUTH.jsonl CSVDIR SPEC...
SPEC is NAME=cmd:COMMAND, NAME=re:REGEX or NAME=re:REGEX@GUEST (the
Process / ProcessMatch entries of the collectd.conf under test).

The expectation is computed from the truth's raw task records (data_hex),
read by the documented mon_procd layout (doc/facts/s390-tools.md 3:
12-byte header, 111-byte task_t, six u16-length-prefixed strings), with
collectd's processes-plugin rules (doc/plugin.md): per guest and pass, the
tasks whose command equals COMMAND or whose command line (trailing blanks
trimmed; the command when empty) matches REGEX; ps_count = number of tasks,
ps_vm/ps_rss/ps_data/ps_code = sum of size/resident/drs/trs x 1024,
ps_cputime user = sum since the guest's first pass of each task's
total_time increase x 10000 (microseconds), ps_pagefaults majflt likewise
from maj_flt.  Each pass once (stale copies are not reported again), at the
pass's own time stamp.
"""
import glob, json, os, re, struct, sys


def task(hexdata):
    d = bytes.fromhex(hexdata)
    ts, dlen, doff = struct.unpack(">QHH", d[:12])
    t = d[doff:doff + dlen]
    f = {}
    (f["pid"],) = struct.unpack(">I", t[0:4])
    (f["total_time"],) = struct.unpack(">Q", t[26:34])
    f["size"], f["swap"], f["resident"], f["trs"], f["drs"] = struct.unpack(">5Q", t[42:82])
    (f["maj_flt"],) = struct.unpack(">Q", t[98:106])
    off, s = 111, []
    for _ in range(6):
        (n,) = struct.unpack(">H", t[off:off + 2])
        s.append(t[off + 2:off + 2 + n].decode("latin-1"))
        off += 2 + n
    f["cmd"], f["cmdline"] = s[4], s[5]
    return ts, f


def matches(spec, f, guest):
    kind, _, arg = spec.partition(":")
    if kind == "cmd":
        return f["cmd"] == arg
    pat, _, only = arg.partition("@")
    if only and only.upper() != guest:
        return None  # entry does not apply to this guest
    line = f["cmdline"].rstrip(" \0") or f["cmd"]
    return re.search(pat, line) is not None


def main(a):
    truth, csvdir, specs = a[0], a[1], dict(x.split("=", 1) for x in a[2:])
    passes = {}  # guest -> {ts: [tasks]} in the order first seen
    for line in open(truth):
        r = json.loads(line)
        if r.get("payload_layout") != "LNXAPPL.2.1" or r.get("kind") != "S":
            continue
        g = r["fields"]["APLSDT_USERID"].strip()
        ts, f = task(r["data_hex"])
        per = passes.setdefault(g, {})
        # a stale copy (the same pass sampled again) repeats its tasks
        if ts in per and r["interval"] != per[ts][0]:
            continue
        per.setdefault(ts, [r["interval"], []])[1].append(f)
    expect = {}
    multi = 0
    for g, per in passes.items():
        host = g.lower()
        prev, cpu, flt = None, {}, {}
        for ts in sorted(per):
            tasks = per[ts][1]
            for name, spec in specs.items():
                sel = [f for f in tasks if matches(spec, f, g)]
                if any(matches(spec, f, g) is None for f in tasks):
                    continue
                multi += len(sel) > 1
                for f in sel:
                    p = prev.get(f["pid"]) if prev is not None else None
                    if prev is None:
                        dc = dm = 0
                    elif p is not None and f["total_time"] >= p["total_time"]:
                        dc, dm = f["total_time"] - p["total_time"], f["maj_flt"] - p["maj_flt"]
                    else:
                        dc, dm = (f["total_time"], f["maj_flt"]) if len(tasks) < 100 else (0, 0)
                    cpu[name] = cpu.get(name, 0) + dc * 10000
                    flt[name] = flt.get(name, 0) + dm
                base = f"{host}/processes-{name}/"
                g6 = lambda v: "%.6f" % v
                expect[(base + "ps_count", ts)] = [g6(len(sel)), "nan"]
                for t, k in (("ps_vm", "size"), ("ps_rss", "resident"), ("ps_data", "drs"),
                             ("ps_code", "trs")):
                    expect[(base + t, ts)] = [g6(sum(f[k] for f in sel) * 1024)]
                expect[(base + "ps_cputime", ts)] = [str(cpu.get(name, 0)), "0"]
                expect[(base + "ps_pagefaults", ts)] = ["0", str(flt.get(name, 0))]
            prev = {f["pid"]: f for f in tasks}
    got = {}
    for f in glob.glob(os.path.join(csvdir, "*", "processes-*", "*")):
        rel = os.path.relpath(f, csvdir)
        ident = re.sub(r"-\d{4}-\d\d-\d\d$", "", rel)
        for line in open(f):
            if line.startswith("epoch"):
                continue
            q = line.strip().split(",")
            got[(ident, int(float(q[0])))] = q[1:]
    bad = 0
    for k, v in sorted(expect.items()):
        if k not in got:
            print(f"MISSING {k[0]} at {k[1]}: truth {v}")
            bad += 1
        elif got[k] != v:
            print(f"WRONG   {k[0]} at {k[1]}: got {got[k]}, truth {v}")
            bad += 1
    for k in sorted(set(got) - set(expect)):
        print(f"EXTRA   {k[0]} at {k[1]}: {got[k]}")
        bad += 1
    if len(expect) < 50 or multi == 0:
        print(f"FEW     {len(expect)} expected values, {multi} aggregates of several tasks")
        bad += 1
    print(f"check.py: {len(expect)} truth values over {len(passes)} guests, {len(got)} written, "
          f"{multi} aggregates of several tasks, {bad} problems")
    return 1 if bad else 0


sys.exit(main(sys.argv[1:]))
