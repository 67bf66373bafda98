#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A guest whose identifiers churn, on zvmsim's monwriter, and the verdict.

usage: churn.py write MOUNT TIMES.json [--intervals N]
       churn.py check TIMES.json CSVDIR COLLECTD.log HOST

write: guest CHURN01 (zvmsim --writer-userid) rewrites one write_zvm buffer
every sample interval, requested on zvmsim's control file: a series that
stays (churn-steady/gauge) and three of a generation that changes every
three intervals (churn-gG-a, -b, -c), with its own host name as collectd's
Hostname on the guest would give it.  TIMES.json: each interval's stamp.

check, against the zvm plugin run with MaxSeriesPerGuest 4 and
SeriesIdleTimeout 2 (doc/plugin.md): generation 0 fits the cap (four series
with steady); each later one is refused in its first two intervals, while
the one before it has had no value in only one, then two of them, and
stored in its third, once the one before has been idle for two intervals
and forgotten.  So every series of every generation is stored (more
series than the cap over the run), never more than four at a time; steady
in every interval; the first refusal logged once, with the userid; and the
guest's own host name is no claim (nothing refused, no line about it).

The records are built from doc/write_zvm.md by tests/e2e/hostile/hostile.py's
functions (no code of the project makes the bytes).
"""
import importlib.util
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "hostile", os.path.join(HERE, "..", "hostile", "hostile.py"))
hostile = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hostile)

PER_GEN = 3  # intervals of one generation


def names(k):
    """The plugin instances written in interval k (1-based)."""
    gen = (k - 1) // PER_GEN
    return ["steady"] + ["g%d-%s" % (gen, x) for x in "abc"]


def write(mount, times_path, intervals, host):
    def status():
        d = {}
        with open(os.path.join(mount, "status")) as f:
            for line in f:
                k, _, v = line.partition(" ")
                d[k] = v.strip()
        return d

    mw = hostile.Monwriter(os.path.join(mount, "monwriter"))
    times = []
    for k in range(1, intervals + 1):
        ts = time.time()
        es = [hostile.entry("churn", n, "gauge", "", "value", float(k), ts) for n in names(k)]
        hostile.must(mw.put(hostile.START_INTERVAL, 7, hostile.record(es, ts, k, host=host)),
                     "START churn")
        with open(os.path.join(mount, "control"), "w") as f:
            f.write("interval")
        t0 = time.time()
        while status().get("queued") != "0":
            if time.time() - t0 > 20:
                sys.exit("churn.py: the reader did not take interval %d within 20 s" % k)
            time.sleep(0.02)
        times.append(ts)
        time.sleep(0.2)
    mw.close()
    json.dump({"times": times}, open(times_path, "w"))


def rows(csvdir, host, pinst, times):
    """The intervals (1-based) of the csv rows of churn-PINST/gauge under host: each row's
    time is an interval's stamp (within csv's 3 decimals); -1 for a row of no interval."""
    d = os.path.join(csvdir, host, "churn-" + pinst)
    out = set()
    if not os.path.isdir(d):
        return out
    for f in os.listdir(d):
        for line in open(os.path.join(d, f)):
            if line.startswith("epoch"):
                continue
            t = float(line.split(",")[0])
            out.add(next((i + 1 for i, w in enumerate(times) if abs(w - t) < 0.0015), -1))
    return out


def check(times_path, csvdir, log_path, host):
    times = json.load(open(times_path))["times"]
    n = len(times)
    problems = []
    stored = 0
    gens = n // PER_GEN
    seen = {}
    for gen in range(gens):
        k = gen * PER_GEN + 1
        for x in "abc":
            pinst = "g%d-%s" % (gen, x)
            got = seen[pinst] = rows(csvdir, host, pinst, times)
            want = set(range(k, k + PER_GEN)) if gen == 0 else {k + PER_GEN - 1}
            if got != want:
                problems.append("churn-%s: rows in intervals %s, expected in %s (generation %d, "
                                "intervals %d-%d)" % (pinst, sorted(got), sorted(want), gen, k,
                                                      k + PER_GEN - 1))
            stored += bool(got)
    steady = rows(csvdir, host, "steady", times)
    if steady != set(range(1, n + 1)):
        problems.append("churn-steady: rows in intervals %s of 1-%d" % (sorted(steady), n))
    for k in range(1, n + 1):  # never more than the cap at one time
        alive = 1 + sum(1 for got in seen.values() if k in got)
        if alive > 4:
            problems.append("%d series with a value in interval %d: more than MaxSeriesPerGuest "
                            "4" % (alive, k))
    log = open(log_path, errors="replace").read().splitlines()
    cap = [l for l in log if "guest CHURN01 has 4 series, MaxSeriesPerGuest" in l]
    if len(cap) != 1 or "churn/g1-a/gauge/" not in cap[0]:
        problems.append("the cap's refusal is to be logged once, naming churn/g1-a: %s" % cap)
    claims = [l for l in log if "guest CHURN01 wrote metrics for host" in l]
    if claims:
        problems.append("the guest's own host was taken for a claim: %s" % claims[0])
    print("churn: %d generations of 3 series and one steady in %d intervals; %d series stored "
          "(cap 4); log: %s" % (gens, n, stored + 1,
                                cap[0].split("zvm plugin: ", 1)[-1] if cap else "-"))
    for p in problems:
        print("FAIL: " + p)
    return 1 if problems else 0


def main(a):
    if a and a[0] == "write" and len(a) >= 3:
        iv = int(a[a.index("--intervals") + 1]) if "--intervals" in a else 12
        write(a[1], a[2], iv, a[a.index("--host") + 1] if "--host" in a else "churn01")
        return 0
    if a and a[0] == "check" and len(a) == 5:
        return check(a[1], a[2], a[3], a[4])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
