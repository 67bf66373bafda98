#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check what the zvm plugin wrote (collectd csv) against the laws' contract
(doc/metrics-cp.md, "Laws"): hint metrics wait for their law, the law
self-metrics (zvm-reader/gauge-law-<name>) give the verdict, the counters of
failed intervals (zvm-reader/total_events-law-<name>-failed) grow for a broken
law only, the log says why.

usage: check.py CSVDIR LOG --host H --mode auto|true|false --need N [--broken LAW]...
                [--reading packed|aligned]

Intervals are counted by the rows of the law gauges (one per sample
interval), not by wall time, so a slow machine does not change the verdict.
"""
import argparse
import glob
import os
import re
import sys

# Every law and the series (plugin_instance glob, type-type_instance glob) that
# wait for it (doc/metrics-cp.md).  A law the plugin reports that is missing
# here fails the check: a new law needs its end-to-end proof.
LAWS = {
    "cpu-wait": [("zvm-cpu*", "percent-wait")],
    "guest-cpu": [("zvm-user-*", "percent-cpu-total"), ("zvm-user-*", "virt_cpu_total-total")],
    "guest-vcpu": [("zvm-user-*", "percent-cpu-virtual"), ("zvm-user-*", "virt_cpu_total-virtual")],
    "paging": [("zvm-user-*", "vmpage_io-paging"), ("zvm-storage", "vmpage_io-paging")],
    "storage": [("zvm-storage", "memory-free"), ("zvm-storage", "memory-used")],
    "guest-resident": [("zvm-user-*", "memory-resident")],
    "lpar": [("zvm-lpar-*", "percent-cpu*")],
    "device-ssch": [("zvm-device-*", "operations-ssch")],
    "vnic": [("zvm-vnic-*", "if_*")],
    "guest-vio": [("zvm-user-*", "operations-virtual-io")],
    "device-time": [("zvm-device-*", "total_time_in_ms-*")],
}
# guest-resident is judged only in intervals that keep the storage law.
DEPENDS = {"guest-resident": ["storage"]}
# Verified metrics: always published, from the first interval they can be.
VERIFIED = [("zvm-cpu*", "percent-busy"), ("zvm-cpu*", "operations-diagnose"),
            ("zvm-system", "users-logged-on")]

errors = []


def fail(msg):
    errors.append(msg)
    print("FAIL: " + msg)


def ok(msg):
    print("ok: " + msg)


def rows(path):
    out = []
    with open(path) as f:
        next(f, None)
        for line in f:
            parts = line.strip().split(",")
            if len(parts) >= 2:
                out.append((float(parts[0]), [float(v) for v in parts[1:]]))
    return out


def series(csv, host, inst, ti):
    """{name: rows} of every csv series matching; collectd appends a date."""
    found = {}
    for p in glob.glob(os.path.join(csv, host, inst, ti + "-[0-9][0-9][0-9][0-9]-*")):
        name = os.path.relpath(p, os.path.join(csv, host))[:-11]
        found.setdefault(name, []).extend(rows(p))
    for r in found.values():
        r.sort()
    return found


def index_of(epochs, t):
    """The sample interval (0-based) a time stamp belongs to."""
    best = min(range(len(epochs)), key=lambda i: abs(epochs[i] - t))
    return best if abs(epochs[best] - t) < 0.5 else None


def check_failed_counters(a, epochs, gauges, off):
    """Each law's count of failed intervals, beside its gauge in every interval:
    it grows for a law zvmsim broke (in intervals whose gauge is 0), and stays
    0 for a law kept.  A law off only because another is broken (DEPENDS) may
    fail or have no data: not judged."""
    counters = series(a.csv, a.host, "zvm-reader", "total_events-law-*-failed")
    reported = {n[len("zvm-reader/total_events-law-"):-len("-failed")] for n in counters}
    if reported != set(LAWS):
        fail("law failed counters %s, this check knows %s" % (sorted(reported), sorted(LAWS)))
    for law in sorted(set(LAWS) & reported):
        c = counters["zvm-reader/total_events-law-%s-failed" % law]
        if [t for t, _ in c if t != epochs[-1]] != epochs[:-1]:
            fail("%s: failed counter not one row per sample interval like the gauges" % law)
            continue
        vals = [v[0] for _, v in c]
        if any(b < x for x, b in zip(vals, vals[1:])):
            fail("%s: failed counter goes down: %s" % (law, vals))
            continue
        on = {t: v[0] for t, v in gauges["zvm-reader/gauge-law-" + law]}
        grew = [t for (_, x), (t, y) in zip(c, c[1:]) if y[0] > x[0]]
        if [t for t in grew if on.get(t) == 1.0]:
            fail("%s: failed counter grew in an interval whose gauge is 1" % law)
        if law in a.broken:
            # Broken in every interval that has deltas: from the second on.
            if vals[-1] < len(vals) - 2:
                fail("%s (broken): failed counter %s, want one more each interval" % (law, vals))
            else:
                ok("%s (broken): failed counter 0 -> %d over %d intervals" % (law, vals[-1], len(vals)))
        elif law not in off:
            if any(vals):
                fail("%s: kept, yet its failed counter reads %s" % (law, vals))
        else:
            ok("%s (off with %s): failed counter %d, not judged" % (law, DEPENDS.get(law), vals[-1]))
    kept = sorted(set(LAWS) & reported - off)
    if kept and not [e for e in errors if "kept, yet" in e]:
        ok("failed counters of the %d kept laws stay 0" % len(kept))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("log")
    ap.add_argument("--host", required=True)
    ap.add_argument("--mode", choices=["auto", "true", "false"], required=True)
    ap.add_argument("--need", type=int, required=True, help="VerifyIntervals")
    ap.add_argument("--broken", action="append", default=[])
    ap.add_argument("--reading", choices=["packed", "aligned"], default="packed",
                    help="the layout reading zvmsim wrote SYTPRP and MTRSYS in")
    a = ap.parse_args()
    log = open(a.log, errors="replace").read()
    off = set(a.broken)
    for law, deps in DEPENDS.items():
        if off & set(deps):
            off.add(law)

    gauges = series(a.csv, a.host, "zvm-reader", "gauge-law-*")
    reported = {n.split("/gauge-law-", 1)[1] for n in gauges}
    if reported != set(LAWS):
        fail("law gauges %s, this check knows %s" % (sorted(reported), sorted(LAWS)))
    if not gauges:
        return
    # The sample intervals: every law's gauge has a row in each.  But for the
    # last: the run ends with SIGTERM, and collectd drops what its write queue
    # still holds when its write threads stop, so the last interval's gauges
    # (dispatched law by law) may be cut anywhere in their list.
    epochs = sorted({t for g in gauges.values() for t, _ in g})
    for name, g in gauges.items():
        if [t for t, _ in g if t != epochs[-1]] != epochs[:-1]:
            fail("%s: not one row per sample interval like the others" % name)
    if len(epochs) < a.need + 3:
        fail("only %d sample intervals seen, need %d" % (len(epochs), a.need + 3))
        return
    ok("%d sample intervals, %d laws reported" % (len(epochs), len(gauges)))

    # The reading the engine settled on (zvm-reader/gauge-cp-reading: 0 packed,
    # 1 aligned, -1 neither), under the system's own name from SYSTMID.
    want = {"packed": 0.0, "aligned": 1.0}[a.reading]
    rd = series(a.csv, a.host, "zvm-reader", "gauge-cp-reading")
    vals = [v[0] for r in rd.values() for _, v in r]
    if not vals:
        fail("no zvm-reader/gauge-cp-reading under host %s" % a.host)
    elif any(v != want for v in vals):
        fail("cp-reading %s, want %s throughout" % (sorted(set(vals)), want))
    else:
        ok("cp-reading %s (%s) in all %d intervals" % (want, a.reading, len(vals)))
    switched = len(re.findall(r"CP layout reading aligned:", log))
    if a.reading == "aligned" and switched != 1:
        fail("log has %d lines 'CP layout reading aligned: ...', want exactly 1" % switched)
    elif a.reading == "packed" and switched:
        fail("packed data, yet the log says the reading switched to aligned")
    elif switched:
        ok("logged once: " + re.search(r"CP layout reading aligned:[^\n]*", log).group(0))

    for inst, ti in VERIFIED:
        s = series(a.csv, a.host, inst, ti)
        if not s:
            fail("verified metric %s/%s missing" % (inst, ti))
            continue
        first = min(index_of(epochs, r[0][0]) for r in s.values())
        if first > 1:
            fail("verified metric %s/%s first in interval %d, want 1 or 2" % (inst, ti, first + 1))
        else:
            ok("verified %s/%s from interval %d (%d series)" % (inst, ti, first + 1, len(s)))

    for law, pats in LAWS.items():
        g = gauges.get("zvm-reader/gauge-law-" + law)
        if g is None:
            continue
        verdict = [v[0] for _, v in g]
        on = verdict.index(1.0) if 1.0 in verdict else None
        found = {}
        for inst, ti in pats:
            found.update(series(a.csv, a.host, inst, ti))
        firsts = {n: index_of(epochs, r[0][0]) for n, r in found.items()}

        if law in off:
            if a.mode == "auto" or a.mode == "false":
                if on is not None:
                    fail("%s (broken): gauge turned on in interval %d" % (law, on + 1))
            if a.mode != "true" and found:
                fail("%s (broken): %d series published, e.g. %s" % (law, len(found), sorted(found)[0]))
            elif a.mode != "true":
                ok("%s (broken): gauge 0 in all %d intervals, none of its metrics published" % (law, len(epochs)))
            if law in a.broken:
                m = re.search(r"law %s broken, .* held back[^:]*: (.*\d.*)" % re.escape(law), log)
                if not m:
                    fail("%s (broken): no log line 'law %s broken ...' with the numbers" % (law, law))
                else:
                    ok("%s (broken): logged: %s" % (law, m.group(1).strip()))
            continue

        if a.mode in ("auto", "false"):
            if on is None:
                fail("%s: gauge never turned on in %d intervals" % (law, len(epochs)))
                continue
            if any(v != 1.0 for v in verdict[on:]) or any(v != 0.0 for v in verdict[:on]):
                fail("%s: gauge not 0...0 1...1: %s" % (law, verdict))
            # A level law can hold from the first interval; a law on deltas
            # from the second: on after need-1 or need intervals of nothing.
            if not a.need - 1 <= on <= a.need:
                fail("%s: turned on in interval %d, want %d or %d" % (law, on + 1, a.need, a.need + 1))
            verdict_text = {"false": "proven, but UnverifiedFields false", "true": "proven \\(UnverifiedFields true"}.get(a.mode, "now trusted")
            if not re.search(r"law %s held for %d consecutive intervals: .* %s" % (re.escape(law), a.need, verdict_text), log):
                fail("%s: log lacks 'law %s held for %d consecutive intervals'" % (law, law, a.need))

        if a.mode == "false":
            if found:
                fail("%s: UnverifiedFields false, yet %d series published, e.g. %s" % (law, len(found), sorted(found)[0]))
            else:
                ok("%s: on in interval %d, its metrics still withheld (UnverifiedFields false)" % (law, on + 1))
            continue
        if not found:
            fail("%s: none of its metrics published (%s)" % (law, pats))
            continue
        first = min(firsts.values(), key=lambda i: 99 if i is None else i)
        if a.mode == "auto":
            early = sorted(n for n, i in firsts.items() if i is None or i < on)
            if early:
                fail("%s: published before the law held (interval %d): %s in interval %s" %
                     (law, on + 1, early[0], firsts[early[0]]))
            elif first != on:
                fail("%s: on in interval %d, its first metric only in interval %d" % (law, on + 1, first + 1))
            else:
                ok("%s: held back %d intervals, on and published from interval %d (%d series)" %
                   (law, on, on + 1, len(found)))
        else:  # true: from the first interval a value can be computed
            if first > 1:
                fail("%s: UnverifiedFields true, first metric only in interval %d" % (law, first + 1))
            else:
                ok("%s: published from interval %d (%d series)" % (law, first + 1, len(found)))

    check_failed_counters(a, epochs, gauges, off)

    # The plugin's own counters are under collectd's Hostname ("collector").
    sup = series(a.csv, "collector", "zvm-reader", "total_values-hint_suppressed")
    last = max((r[-1][1][0] for r in sup.values() if r), default=None)
    if last is None:
        fail("no hint_suppressed self-counter")
    elif (last > 0) != (a.mode != "true"):
        fail("hint_suppressed = %d with UnverifiedFields %s" % (last, a.mode))
    else:
        ok("hint_suppressed = %d values held back" % last)


main()
if errors:
    print("%d failure(s)" % len(errors))
    sys.exit(1)
