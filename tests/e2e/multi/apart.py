#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two z/VM systems' values stay apart at the central daemon's stores.

usage: apart.py INFLUXPORT WHISPERDIR INTRUDER SYS EXPECT CSVDIR SYS EXPECT CSVDIR

EXPECT: fwdtruth.py expectations of one system (guest hosts "<userid>.SYS");
CSVDIR: that system's collector's csv output.  Checked:
  1. every guest userid both systems have (LINUX001 ...): each of its gauge
     series holds, in InfluxDB and in Graphite, exactly its own system's
     points (no point more, none of the other system's values), and the two
     systems' values differ, so that a mix would show;
  2. the hosts InfluxDB and Graphite hold are exactly the hosts the
     collectors dispatched (csv), so no host of the intruder, no guest host
     without its system, nothing else;
  3. no series, tag value or whisper path names the intruder at all.
"""
import json
import os
import subprocess
import sys


def influx(port, q, precision="ns"):
    out = subprocess.check_output(["influx", "-host", "127.0.0.1", "-port", str(port),
                                   "-database", "collectd", "-precision", precision,
                                   "-format", "json", "-execute", q])
    rows = []
    for r in json.loads(out).get("results", []):
        if "error" in r:
            sys.exit("apart: influx: %s: %s" % (q, r["error"]))
        for s in r.get("series", []):
            rows += s.get("values", [])
    return rows


def whisper(path, t0, t1):
    if not os.path.exists(path):
        return None
    d = json.loads(subprocess.check_output(
        ["whisper-fetch", "--json", "--from=%d" % t0, "--until=%d" % t1, path]))
    return {d["start"] + i * d["step"]: v for i, v in enumerate(d["values"]) if v is not None}


def node(a, b):
    return a + ("-" + b if b else "")


def load(path):
    series = {}
    for line in open(path):
        e = json.loads(line)
        if e["kind"] != "gauge":
            continue
        k = (e["host"], e["plugin"], e["pinst"], e["type"], e["tinst"], e["ds"])
        series.setdefault(k, []).append((e["t"], e["v"]))
    return series


def check_series(port, wdir, key, mine, theirs, problems):
    host, plugin, pinst, typ, tinst, ds = key
    where = ["\"host\" = '%s'" % host, "\"type\" = '%s'" % typ,
             "\"instance\" = '%s'" % pinst, "\"type_instance\" = '%s'" % tinst]
    q = "SELECT \"value\" FROM \"%s_%s\" WHERE %s" % (plugin, ds, " AND ".join(where))
    got = influx(port, q)
    want = sorted((int(round(t * 1e9)), v) for t, v in mine)
    other = {v for _, v in theirs}
    if len(got) != len(want):
        problems.append("influx %s: %d points, its system sent %d" % (q, len(got), len(want)))
    for (t, v), (gt, gv) in zip(want, sorted(got)):
        if abs(gt - t) >= 2000 or float(gv) != v:
            problems.append("influx %s: (%d, %r), expected (%d, %r)" % (q, gt, gv, t, v))
    for gt, gv in got:
        if float(gv) in other and float(gv) not in {v for _, v in mine}:
            problems.append("influx %s: %r at %d is the other system's" % (q, gv, gt))
    # Graphite: whisper keeps one point per second; DS names only for
    # multi-DS types (load).
    parts = [host.replace(".", "_"), node(plugin, pinst), node(typ, tinst)]
    if ds != "value":
        parts.append(ds)
    f = os.path.join(wdir, "collectd", *parts) + ".wsp"
    t0, t1 = int(min(t for t, _ in mine)) - 5, int(max(t for t, _ in mine)) + 5
    pts = whisper(f, t0, t1)
    if pts is None:
        problems.append("graphite: no %s" % f)
        return len(got)
    wantg = {int(round(t)): v for t, v in mine}
    if set(pts) != set(wantg):
        problems.append("graphite %s: points at %s, its system sent %s" % (
            f, sorted(pts), sorted(wantg)))
    for t, v in pts.items():
        if t in wantg and abs(v - wantg[t]) > 1e-14 * max(abs(v), 1.0):
            problems.append("graphite %s at %d: %r, expected %r" % (f, t, v, wantg[t]))
    return len(got) + len(pts)


def csv_hosts(d):
    return {h for h in os.listdir(d) if os.path.isdir(os.path.join(d, h))}


def main(a):
    if len(a) != 9:
        sys.exit(__doc__)
    port, wdir, intruder = a[0], a[1], a[2]
    systems = [(a[3], a[4], a[5]), (a[6], a[7], a[8])]
    problems = []
    # 1. The same-named guests, point for point.
    exp = {name: load(path) for name, path, _ in systems}
    (sa, _, _), (sb, _, _) = systems
    guests = lambda s: {k[0][:-len(s) - 1] for k in exp[s] if k[0].endswith("." + s)}
    common = sorted(guests(sa) & guests(sb))
    if not common:
        problems.append("the two systems have no guest userid in common: nothing to keep apart")
    nseries = npoints = 0
    for g in common:
        for ka in sorted(k for k in exp[sa] if k[0] == g + "." + sa):
            kb = (g + "." + sb,) + ka[1:]
            if kb not in exp[sb]:
                continue
            va, vb = exp[sa][ka], exp[sb][kb]
            if {v for _, v in va} == {v for _, v in vb}:
                problems.append("%s: both systems sent the same values: a mix would not show" % (
                    "/".join(ka[1:]),))
            npoints += check_series(port, wdir, ka, va, vb, problems)
            npoints += check_series(port, wdir, kb, vb, va, problems)
            nseries += 2
    # 2. Exactly the hosts the collectors dispatched.
    want = set()
    for _, _, csvdir in systems:
        want |= csv_hosts(csvdir)
    have_i = {r[-1] for r in influx(port, "SHOW TAG VALUES WITH KEY = \"host\"", "s")}
    have_g = set(os.listdir(os.path.join(wdir, "collectd")))
    if have_i != want:
        problems.append("influx hosts: extra %s, missing %s" % (sorted(have_i - want),
                                                               sorted(want - have_i)))
    want_g = {h.replace(".", "_") for h in want}
    if have_g != want_g:
        problems.append("graphite hosts: extra %s, missing %s" % (sorted(have_g - want_g),
                                                                 sorted(want_g - have_g)))
    # 3. Not a trace of the intruder.
    for h in have_i | have_g:
        if intruder in h:
            problems.append("a host of the intruder was stored: %s" % h)
    for p in problems:
        print("apart: " + p)
    print("apart: %d guest userids both systems have (%s): %d series, %d stored points "
          "compared, each with its own system's; hosts stored: %d in InfluxDB, %d in Graphite, "
          "as dispatched, none of %s: %d problems" % (
              len(common), ", ".join(common), nseries, npoints, len(have_i), len(have_g),
              intruder, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
