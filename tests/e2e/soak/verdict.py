#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The soak's verdict: collectd's csv tree against zvmsim's ground truth and
zvmsim's own record of what became of every data set.

usage: verdict.py T     (T: soak.py's directory: truth.jsonl, delivery.jsonl,
                         run.json, cd/csv)

Which intervals were hit.  zvmsim --delivery writes one line per message:
"delivered" at its 0-byte read, "efault" when a read into it failed, or why
it was dropped ("eio", "sever", "close" with the bytes already read, or
"no-reader", "severed", "queue-full" unread).  A sample interval is COMPLETE
when its data set was delivered and no EFAULT touched it; otherwise it is
HIT (read in part: some bytes read, or EFAULT) or LOST (not a byte read).
The rule: every value of a complete interval is there and equals the truth;
of a hit interval, either nothing is there or everything is (the plugin may
not dispatch part of a set); of a lost interval, nothing.

Which values belong to an interval.  CP values carry their record's TOD
(zvmsim stamps every record of an interval with one TOD, a second apart).
A Linux sample carries the guest's own timestamp and is in every interval
whose APPLDATA buffer still held it (an idle guest's stale copy), so it
must be there if any of those intervals is complete and must not be if
none is (or none was dispatched whole).

What is compared (expected values computed here from the truth's fields,
with the documented arithmetic of doc/plugin.md and doc/metrics-cp.md):
  Linux guests  every identifier of kernel APPLDATA MEM/OS/NET (per-CPU
                included), mon_fsstatd and mon_procd: exactly (csv text)
  CP gauges     zvm-system/users-logged-on, users-dormant (D0R8),
                zvm-storage/memory-free, memory-used (D0R3): exactly
  CP rates      zvm-cpuN/percent-busy, -user, -overhead (D0R2 timers over
                the TOD difference) between an interval and the last
                complete one before it, to 1e-4 percent; required when that
                is the interval before and no reconnect came between
  CP counters   zvm-cpuN/operations-diagnose, -simulation (D0R1, DERIVE):
                the step between two consecutive rows equals the counters'
                difference (mod 2^32) between their intervals
  every row     of every zvm-* series: its time is the TOD of a record of a
                complete interval (or of a hit one dispatched whole)
"""
import importlib.util
import json
import os
import sys
from collections import Counter, defaultdict

import memory

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "hostile_check", os.path.join(HERE, "..", "hostile", "check.py"))
hc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hc)  # the Linux guests' expectations and the csv reader

EPOCH_US = 2208988800 * 1000000
problems = []


def bad(kind, msg):
    problems.append(kind)
    if Counter(problems)[kind] <= 8:
        print("%-8s %s" % (kind, msg))


def unix(tod):
    return ((tod >> 12) - EPOCH_US) / 1e6


def t3(tod):
    return round(unix(tod), 3)


def g(v):
    return "%.6f" % v


def family_of_layout(lay):
    """Each APPLDATA buffer has its own clock: MEM, OS, NET, mon_fsstatd, mon_procd."""
    return {"LINUXKRNL.MEM": "mem", "LINUXKRNL.OS": "os", "LINUXKRNL.NET": "net"}.get(
        lay, "fs" if lay.startswith("LNXAPPL.1") else "proc")


def family_of_ident(ident):
    """The buffer an identifier comes from (doc/plugin.md, doc/appldata.md)."""
    plugin, typ = ident.split("/", 1)
    if plugin in ("memory", "swap", "vmem"):
        return "mem"
    if plugin in ("load", "interface-all") or plugin.startswith("cpu-"):
        return "os" if plugin != "interface-all" else "net"
    if plugin == "processes":
        # blocked: mon_procd's D tasks for a guest that runs it, else the kernel's nr_iowait
        # (doc/plugin.md); which one, the time says (carried())
        return ("os", "proc") if typ == "ps_state-blocked" else \
            "os" if typ == "ps_state-running" else "proc"
    return "fs" if plugin.startswith("df-") else "proc"


def carried(carriers, host, ident, t):
    """The intervals whose data carried the sample of ident at time t."""
    fam = family_of_ident(ident)
    out = set()
    for f in (fam if isinstance(fam, tuple) else (fam,)):
        out |= carriers.get((host, f, round(t, 3)), set())
    return out


def judge_memory(run):
    """The blocks collectd holds (memory.py) from the warm-up's end on, sampled at
    quiet moments (soak.py, measure): the median of the last third of the samples
    against that of the first.  Unchanged, collectd comes back to the same
    blocks every time (2,302 here, bytes within 128 over 10,000 intervals; a
    sample now and then 5 blocks above or 130 below, which the medians pass
    over); a leak of one block per data set adds one per interval whatever
    its size, and the bound is an eighth of that, at least 8.  The bytes'
    bound is for a block that grows instead."""
    warm = run["warm"]
    pts = [m for m in run["mem"] if m[0] >= warm]
    if len({m[1] for m in pts}) != 1:
        bad("MEMORY", "the memory samples after interval %d are of several collectd processes" % warm)
        return
    if len(pts) < 6:
        bad("MEMORY", "%d memory samples after interval %d: too few to judge" % (len(pts), warm))
        return
    print("collectd's memory (pid %d), interval: blocks/kB held, mallinfo2 kB in use/from the "
          "system, VmRSS kB:" % pts[0][1])
    print("  " + "  ".join("%d: %d/%d, %d/%d, %d" % (m[0], m[3], m[4] // 1024, m[5] // 1024,
                                                     m[6] // 1024, m[2]) for m in pts))
    dblocks, dbytes, span = memory.growth([(m[0], m[3], m[4]) for m in pts])
    max_blocks, max_bytes = max(8, span // 8), max(8192, 8 * span)
    print("held, the last third against the first (%d intervals apart): %+d blocks (bound %d), "
          "%+d bytes (bound %d); not judged: VmRSS from %d to %d kB (peak %d), mallinfo2 in use "
          "from %d to %d kB, from the system %d to %d kB" %
          (span, dblocks, max_blocks, dbytes, max_bytes, pts[0][2], pts[-1][2],
           max(m[2] for m in pts), pts[0][5] // 1024, pts[-1][5] // 1024, pts[0][6] // 1024,
           pts[-1][6] // 1024))
    if dblocks > max_blocks:
        bad("MEMORY", "collectd holds %+d blocks more after %d intervals (bound %d): a leak" %
            (dblocks, span, max_blocks))
    if dbytes > max_bytes:
        bad("MEMORY", "collectd holds %+d bytes more after %d intervals (bound %d): a leak" %
            (dbytes, span, max_bytes))


def main(T):
    run = json.load(open(os.path.join(T, "run.json")))
    truth_path = os.path.join(T, "truth.jsonl")

    # ---- zvmsim's record: the fate of every sample set -------------------------------
    fate, efault, done = {}, set(), {}
    opens = []  # zvmsim interval number at each successful open
    control = Counter()
    for line in open(os.path.join(T, "delivery.jsonl")):
        r = json.loads(line)
        if "event" in r:
            if r["event"] == "open" and r["detail"] == "ok":
                opens.append(r["at"])
            elif r["event"] == "control":
                control[r["detail"].split()[0] + (" " + r["detail"].split()[1]
                                                  if r["detail"].startswith("vanish") else "")] += 1
            elif r["event"] == "open":
                control["open " + r["detail"]] += 1
            continue
        if r["config"]:
            continue
        key = (r["interval"], r["type"])
        if r["fate"] == "efault":
            efault.add(key)
            continue
        if key in fate:
            bad("RECORD", "set %s has two fates: %s and %s" % (key, fate[key], r["fate"]))
        fate[key] = r["fate"]
        done[key] = r["done"]
    state = {}
    for key, f in fate.items():
        if f == "delivered":
            state[key] = "hit" if key in efault else "complete"
        else:
            state[key] = "hit" if done[key] > 0 or key in efault else "lost"

    # ---- the truth --------------------------------------------------------------------
    system = None
    tod_iv = {}                      # CP record time -> (interval, type)
    cp = defaultdict(dict)           # interval -> {(key, field): value}
    cp_tod = {}                      # interval -> TOD of its sample records
    carriers = defaultdict(set)      # (host, buffer, time) -> intervals whose APPLDATA held it
    sets = set()
    for line in open(truth_path):
        r = json.loads(line)
        if "set" in r:
            if not r["config"]:
                sets.add((r["interval"], r["type"]))
            continue
        if "domain" not in r:
            continue
        d, rec, iv = r["domain"], r["record"], r["interval"]
        f = r.get("fields", {})
        if d == 1 and rec == 4:
            system = f["MTRSYS_SYSTMID"].strip().lower()
        if iv == 0:
            continue
        if d != 10:
            tod_iv[t3(r["tod"])] = (iv, r["kind"])
            if r["kind"] == "S" and d == 0:
                cp_tod[iv] = r["tod"]
                for k, v in f.items():
                    cp[iv][(r["key"], k)] = v
            continue
        uid = (f.get("APLSDT_USERID") or "").strip()
        if not uid.startswith("LINUX") or r["kind"] != "S":
            continue
        p, lay = r.get("payload") or {}, r.get("payload_layout") or ""
        if lay.startswith("LINUXKRNL"):
            if p["sync_count_1"] != p["sync_count_2"]:
                continue
            t = unix(p["timestamp"])
        else:
            t = hc.lnxappl(bytes.fromhex(r["data_hex"]))[0]
        carriers[(uid.lower(), family_of_layout(lay), round(t, 3))].add(iv)
    _, _, lexp, guests = hc.truth(truth_path)

    missing_fate = sets - set(fate)
    if missing_fate:
        bad("RECORD", "%d sets without a fate in zvmsim's record, e.g. %s" %
            (len(missing_fate), sorted(missing_fate)[:3]))
    ivs = sorted(i for i, ty in sets if ty == "S")
    complete = [i for i in ivs if state.get((i, "S")) == "complete"]
    comp = set(complete)

    tree, stray = hc.csv_tree(os.path.join(T, "cd", "csv"))
    shost = tree.get(system, {})

    # ---- expected per interval: CP gauges and Linux samples ----------------------------
    def cp_gauges(iv):
        v, t = cp[iv], t3(cp_tod[iv])
        out = {("zvm-system/users-logged-on", t): [g(v[("users", "SYTUSR_SYSUSRS")])],
               ("zvm-system/users-dormant", t): [g(v[("users", "SYTUSR_SRMCDORM")])]}
        av, pg = v[("storage", "SYTRSG_RSAAVAIL")], v[("storage", "SYTRSG_RSAPGABL")]
        out[("zvm-storage/memory-free", t)] = [g(av * 4096.0)]
        if pg >= av:
            out[("zvm-storage/memory-used", t)] = [g((pg - av) * 4096.0)]
        return out

    linux_by_iv = defaultdict(list)  # interval -> [(host, ident, t)]
    for (host, ident), samples in lexp.items():
        for t in samples:
            for iv in carried(carriers, host, ident, t):
                linux_by_iv[iv].append((host, ident, t))

    def present_cp(iv):
        return {k for k in cp_gauges(iv) if hc.near(shost.get(k[0], {}), k[1]) is not None}

    def present_linux(iv):
        # Only samples no complete interval carried: the others are there anyway.
        return {(h, i, t) for h, i, t in linux_by_iv[iv]
                if not carried(carriers, h, i, t) & comp
                and hc.near(tree.get(h, {}).get(i, {}), t) is not None}

    # Hit intervals: absent or complete; lost ones: absent.
    whole = set()  # hit intervals whose values all came (allowed)
    n_hit = n_lost = 0
    for i in ivs:
        st = state.get((i, "S"))
        if st == "complete":
            continue
        pc, pl = present_cp(i), present_linux(i)
        if st == "lost":
            n_lost += 1
        else:
            n_hit += 1
        if not pc and not pl:
            continue
        only = [x for x in linux_by_iv[i]
                if not carried(carriers, x[0], x[1], x[2]) & comp]
        if st == "hit" and len(pc) == len(cp_gauges(i)) and len(pl) == len(only):
            whole.add(i)
            continue
        bad("PARTIAL", "interval %d (%s, fate %s): %d of %d CP and %d of %d Linux values "
            "dispatched" % (i, st, fate.get((i, "S")), len(pc), len(cp_gauges(i)), len(pl),
                            len(only)))
    ok_ivs = comp | whole

    prev_complete = {}
    last = None
    for i in ivs:
        prev_complete[i] = last
        if i in comp:
            last = i

    def reconnect_between(a, b):
        return any(a <= o < b for o in opens)

    # The collectd process that read interval i, and how many complete intervals
    # that process had decoded before it.
    starts = [st[0] for st in run["starts"]]
    seen_in_proc = {}
    counts = Counter()
    for i in ivs:
        k = max(j for j, st in enumerate(starts) if st < i) if any(st < i for st in starts) else -1
        seen_in_proc[i] = counts[k]
        if i in comp:
            counts[k] += 1

    # ---- CP gauges: complete intervals have them all, exactly ----------------------------
    # The storage law (doc/metrics-cp.md, Laws) holds its hint gauges back until it
    # has held in 3 intervals (VerifyIntervals) of the collectd process; the D0R8
    # user counts are verified fields, never held back.
    n_cp = 0
    for i in complete:
        for (ident, t), want in cp_gauges(i).items():
            got = hc.near(shost.get(ident, {}), t)
            if got is None and ident.startswith("zvm-storage/") and seen_in_proc[i] < 2:
                continue
            n_cp += 1
            if got is None:
                bad("MISSING", "%s/%s at %.3f (interval %d, complete)" % (system, ident, t, i))
            elif got != want:
                bad("WRONG", "%s/%s at %.3f: %s, truth %s" % (system, ident, t, got, want))

    # ---- every zvm-* row of the system: a time of an interval that arrived whole ---------
    n_rows = 0
    for ident, rows in shost.items():
        if ident.startswith("zvm-reader/"):
            continue
        for t in rows:
            n_rows += 1
            key = tod_iv.get(t) or tod_iv.get(round(t - 0.001, 3)) or tod_iv.get(round(t + 0.001, 3))
            if key is None:
                bad("CPTIME", "%s/%s at %.3f: no record of zvmsim has that TOD" % (system, ident, t))
            elif key[1] == "S" and key[0] not in ok_ivs:
                bad("FAULTED", "%s/%s at %.3f: from interval %d (%s, fate %s)" %
                    (system, ident, t, key[0], state.get(key), fate.get(key)))
            elif key[1] == "E" and state.get(key) != "complete":
                bad("FAULTED", "%s/%s at %.3f: from the event set of interval %d (%s)" %
                    (system, ident, t, key[0], state.get(key)))

    # ---- CP rates and counters ----------------------------------------------------------
    ncpu = len({k for k, _ in cp[complete[0]] if k.startswith("cpu ")}) if complete else 0
    n_rate = n_ctr = 0
    for c in range(ncpu):
        key = "cpu %d" % c
        series = {ty: shost.get("zvm-cpu%d/percent-%s" % (c, ty), {})
                  for ty in ("busy", "user", "overhead")}
        for i in complete:
            p = prev_complete[i]
            if p is None:
                continue
            el = (cp_tod[i] - cp_tod[p]) // 4096
            du = ((cp[i][(key, "SYTPRP_PFXUTIME")] - cp[p][(key, "SYTPRP_PFXUTIME")]) % 2**64) >> 12
            ds = ((cp[i][(key, "SYTPRP_PFXTMSYS")] - cp[p][(key, "SYTPRP_PFXTMSYS")]) % 2**64) >> 12
            want = {"busy": du + ds, "user": du, "overhead": ds}
            needed = p == i - 1 and not reconnect_between(p, i)
            for ty, rows in series.items():
                got = hc.near(rows, t3(cp_tod[i]))
                if got is None:
                    if needed:
                        bad("MISSING", "zvm-cpu%d/percent-%s at interval %d" % (c, ty, i))
                    continue
                n_rate += 1
                w = min(100.0, max(0.0, 100.0 * want[ty] / el))
                if abs(float(got[0]) - w) > 1e-4:
                    bad("WRONG", "zvm-cpu%d/percent-%s interval %d (since %d): %s, truth %.6f" %
                        (c, ty, i, p, got[0], w))
        for ty, fld in (("diagnose", "SYTSYP_PLSDIAGT"), ("simulation", "SYTSYP_PLSPRVIS")):
            rows = shost.get("zvm-cpu%d/operations-%s" % (c, ty), {})
            times = sorted(rows)
            for a, b in zip(times, times[1:]):
                ia, ib = tod_iv.get(a, (None,))[0], tod_iv.get(b, (None,))[0]
                if ia is None or ib is None or prev_complete.get(ib) != ia:
                    continue  # not consecutive readings of one process
                n_ctr += 1
                step = int(rows[b][0]) - int(rows[a][0])
                want = (cp[ib][(key, fld)] - cp[ia][(key, fld)]) % 2**32
                if step != want:
                    bad("WRONG", "zvm-cpu%d/operations-%s from interval %d to %d: +%d, truth +%d"
                        % (c, ty, ia, ib, step, want))

    # ---- Linux guests ----------------------------------------------------------------
    n_lin = n_lin_missing_ok = 0
    for host in sorted(guests):
        got = tree.get(host, {})
        for ident, rows in got.items():
            want_rows = lexp.get((host, ident))
            if want_rows is None:
                bad("EXTRA", "%s/%s: no such identifier in the truth's mapping" % (host, ident))
                continue
            for t, vals in rows.items():
                w = hc.near(want_rows, t)
                if w is None:
                    bad("EXTRA", "%s/%s at %.3f: no truth sample at that time" % (host, ident, t))
                    continue
                n_lin += 1
                if w != vals:
                    bad("WRONG", "%s/%s at %.3f: %s, truth %s" % (host, ident, t, vals, w))
                cs = carried(carriers, host, ident, t)
                if not cs & ok_ivs:
                    bad("FAULTED", "%s/%s at %.3f: only in intervals %s, none arrived whole" %
                        (host, ident, t, sorted(cs)))
        for (h, ident), samples in lexp.items():
            if h != host:
                continue
            for t in samples:
                cs = carried(carriers, host, ident, t)
                if cs & comp and hc.near(got.get(ident, {}), t) is None:
                    bad("MISSING", "%s/%s at %.3f (in complete interval(s) %s)" %
                        (host, ident, t, sorted(cs & comp)[:3]))
                elif not cs & comp:
                    n_lin_missing_ok += 1
    if stray:
        bad("STRAY", "files outside HOST/PLUGIN/: %s" % stray[:3])
    for host in tree:
        if host not in guests and host not in (system, "collector"):
            bad("HOST", "unexpected host %s" % host)

    # ---- the plugin's own counters (last row of collectd's last process) ----------------
    def last(ident):
        rows = tree.get("collector", {}).get("zvm-reader/" + ident, {})
        return rows[max(rows)][0] if rows else None

    # ---- figures -----------------------------------------------------------------------
    kinds = Counter(f["kind"] for f in run["faults"])
    fates = Counter(fate.values())
    print("faults injected (soak.py): " + ", ".join("%s %d" % kv for kv in sorted(kinds.items())))
    print("zvmsim's record: commands " + ", ".join("%s %d" % kv for kv in sorted(control.items())
                                                    if not kv[0].startswith("interval")))
    print("zvmsim's record: set fates " + ", ".join("%s %d" % kv for kv in sorted(fates.items())) +
          ", EFAULT on %d" % len(efault))
    print("sample intervals: %d, complete %d, hit %d (dispatched whole %d), lost %d; "
          "collectd opened the device %d times" % (len(ivs), len(comp), n_hit, len(whole), n_lost,
                                                   len(opens)))
    print("values compared: CP gauges %d exact, CPU rates %d, CPU counter steps %d, Linux %d "
          "exact; %d CP rows' times checked; %d Linux samples only in faulted intervals" %
          (n_cp, n_rate, n_ctr, n_lin, n_rows, n_lin_missing_ok))
    print("plugin counters (last process): reconnects %s, open_failures %s, discarded_eio %s, "
          "discarded_efault %s, overflow %s, decode errors %s" %
          (last("total_events-reconnects"), last("total_events-open_failures"),
           last("total_events-discarded_eio"), last("total_events-discarded_efault"),
           last("total_events-overflow"), last("errors-decode")))
    if last("errors-decode") not in (None, "0"):
        bad("DECODE", "decode errors on zvmsim's data: %s" % last("errors-decode"))
    if n_hit == 0:
        bad("FEW", "no interval was hit by a fault: the run proves nothing about faults")
    if n_cp < 2 * len(complete) or not n_rate or not n_ctr or not n_lin:
        bad("FEW", "too few values compared")

    # ---- memory ----------------------------------------------------------------------
    judge_memory(run)
    print("run time %.1f s, seed %d" % (run["seconds"], run["seed"]))
    c = Counter(problems)
    print("verdict: %s" % ("passed" if not c else "; ".join("%s %d" % kv for kv in c.items())))
    return 1 if c else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
