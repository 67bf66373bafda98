#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every value the writing collectd dispatched, against what write_zvm wrote
and what the zvm plugin read back (make check-monwriter, run.sh).

usage: check_values.py exact|merged WRITER_CSV DUMP.jsonl READER_CSV

WRITER_CSV is the writing collectd's csv directory of host lnxa: what it
dispatched.  DUMP is `zvmmon dump` of write_zvm's output file: what it wrote,
pass by pass (every record of a pass has the pass's time stamp).  READER_CSV
is the reading collectd's csv directory: what came back, under lnxa, or
under monwritr (the guest's own host) for the values of the first passes,
whose claim of lnxa the plugin refuses until CP's first sample interval is
over (doc/plugin.md, TrustedGuestHost); a plain file has no CP records, so
its first two passes end that interval.

write_zvm keeps the newest value of every identifier and writes it once per
WriteInterval: a value replaced by the next one of its identifier before a
pass came is merged away by design, and not counted as lost
(doc/write_zvm.md).  Everything else is a loss.

exact:  WriteInterval is well below collectd's Interval, so no value can be
        replaced before a pass: every value dispatched must be written, and
        come back, with its time and value.
merged: WriteInterval equals Interval.  Every value written must come back,
        and every value not written must be merged: a newer value of its
        identifier was dispatched, and no pass from a quarter interval after
        the value's time (it reaches the plugin within milliseconds) until the
        newer value's time held anything older.  The newest value of each
        identifier is written (the last pass at shutdown).

Both: nothing written that was not dispatched, every loss counter of the
plugin (LOSSES, and any other dropped_* it reports) is reported and stays 0,
and its count of merged values is no more than the merges found here (0 for
exact).
"""
import datetime
import glob
import json
import os
import sys
from collections import defaultdict

TOL = 0.002  # csv prints milliseconds, the records microseconds
# write_zvm's loss counters (doc/write_zvm.md, self-metrics): here nothing may be lost, and a
# counter that is not reported cannot show a loss.  write_error is not one: a failed write
# loses only what the loss counters count.
LOSSES = ("dropped_queue", "dropped_space", "dropped_expired", "dropped_name",
          "dropped_invalid", "dropped_nomem", "dropped_rate")


def csv_values(d):
    """{identifier: {time: [values]}} of a csv host directory."""
    out = defaultdict(dict)
    for f in glob.glob(os.path.join(d, "*", "*")):
        ident = os.path.basename(os.path.dirname(f)) + "/" + os.path.basename(f).rsplit("-", 3)[0]
        for line in open(f):
            if not line.startswith("epoch"):
                p = line.strip().split(",")
                out[ident][float(p[0])] = [float(x) for x in p[1:]]
    return out


def utc(s):
    t = datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ")
    return t.replace(tzinfo=datetime.timezone.utc).timestamp()


def written(dump):
    """{identifier: {time: [values]}} and the passes, [(time, {identifier: entry time})]."""
    out, passes = defaultdict(dict), defaultdict(dict)
    for line in open(dump):
        r = json.loads(line)
        w = r.get("appl", {}).get("write_zvm") if r.get("type") == "record" else None
        if not w or r["record"] != 2:
            continue
        lists = defaultdict(list)
        for e in w["entries"]:
            pi = e["plugin"] + ("-" + e["plugin_instance"] if e["plugin_instance"] else "")
            ti = e["type"] + ("-" + e["type_instance"] if e["type_instance"] else "")
            lists[(pi + "/" + ti, utc(e["time"]))].append(float(e["value"]))
        for (ident, t), v in lists.items():
            out[ident][t] = v
            passes[utc(w["timestamp"]["time"])][ident] = t
    return out, sorted(passes.items())


def find(rows, t):
    """The time in rows within TOL of t, or None."""
    near = [u for u in rows if abs(u - t) < TOL]
    return near[0] if near else None


def same(a, b):
    return len(a) == len(b) and all(abs(x - y) <= 1e-6 * max(1, abs(x)) for x, y in zip(a, b))


def loss_problems(disp):
    """Each of LOSSES, and every other dropped_* write_zvm reports, at 0 in its last reading."""
    pre = "write_zvm/total_values-"
    seen = {i[len(pre):] for i in disp if i.startswith(pre + "dropped_")}
    out = []
    for c in sorted(set(LOSSES) | seen):
        rows = disp.get(pre + c, {})
        if not rows or rows[max(rows)] != [0]:
            out.append(f"{pre}{c}: {rows and rows[max(rows)]}, want 0")
    return out


def main(mode, wcsv, dump, rcsv):
    disp = csv_values(wcsv)
    wrote, passes = written(dump)
    back, hosts = defaultdict(dict), {}
    for h in ("lnxa", "monwritr"):
        got = csv_values(os.path.join(rcsv, h))
        hosts[h] = sum(len(v) for v in got.values())
        for ident, rows in got.items():
            back[ident].update(rows)
    problems, n = [], defaultdict(int)
    interval = 1.0  # collectd's Interval in run.sh
    for ident in sorted(set(disp) | set(wrote)):
        d, w, b = disp.get(ident, {}), wrote.get(ident, {}), back.get(ident, {})
        for t, v in sorted(w.items()):
            u = find(d, t)
            if u is None or not same(d[u], v):
                problems.append(f"{ident} at {t:.6f}: written {v}, dispatched {d.get(u)}")
            u = find(b, t)
            if u is None or not same(b[u], v):
                problems.append(f"{ident} at {t:.6f}: written {v}, read back {b.get(u)}")
        for t in b:
            if find(w, t) is None:
                problems.append(f"{ident} at {t:.3f}: read back, never written")
        times = sorted(d)
        for i, t in enumerate(times):
            n["dispatched"] += 1
            if find(w, t) is not None:
                n["written"] += 1
                n["read back"] += find(b, t) is not None
                continue
            if mode == "exact":
                problems.append(f"{ident} at {t:.3f}: dispatched, never written")
                continue
            if i + 1 == len(times):
                problems.append(f"{ident} at {t:.3f}: the newest value, never written")
                continue
            late = [p for p, held in passes
                    if t + interval / 4 <= p < times[i + 1] and held.get(ident, 0) < t - TOL]
            if late:
                problems.append(f"{ident} at {t:.3f}: never written, though the pass at "
                                f"{late[0]:.6f} held an older value")
                continue
            n["merged"] += 1
    problems += loss_problems(disp)
    # The plugin's own count of merged values: never more than the merges seen here (its
    # last reading may come before the last merges), none where none can happen.
    rows = disp.get("write_zvm/total_values-merged", {})
    counted = rows[max(rows)][0] if rows else None
    if counted is None or counted > n["merged"] or (mode == "exact" and counted != 0):
        problems.append(f"write_zvm/total_values-merged: {counted}, {n['merged']} merged here")
    mu = ("memory/memory-used", len(disp.get("memory/memory-used", {})),
          len(wrote.get("memory/memory-used", {})), len(back.get("memory/memory-used", {})))
    for p in problems[:20]:
        print("  " + p)
    print(f"check_values.py {mode}: {len(passes)} passes; {n['dispatched']} values dispatched, "
          f"{n['written']} written, {n['read back']} read back ({hosts['lnxa']} under lnxa, "
          f"{hosts['monwritr']} under monwritr), {n['merged']} merged; "
          f"%s: %d dispatched, %d written, %d read back; {len(problems)} problems" % mu)
    return 1 if problems or not n["written"] else 0


sys.exit(main(*sys.argv[1:5]))
