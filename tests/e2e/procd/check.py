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

Which process a task is comes from the truth, not from its pid: under
zvmsim --procd-churn the truth has a "procd_pass" line per pass naming the
process (a number per guest) behind each pid, and the processes that exited
(without those lines every pid is one process, as zvmsim's fixed tasks are).
The counters then follow doc/plugin.md: a process that was in the previous
pass adds its increase; a process that was not (it started since, possibly
under a pid another process had) adds its whole count, as the pass has fewer
than 100 tasks; one that exited adds nothing more, so no sum goes back.  A
pid taken by a new process must show a counter that fell (doc/plugin.md:
that is how a reader tells), else the truth holds a reuse no reader could
see and the check fails.  With churn, the run must have exits, starts of
processes inside and outside the specific entries, pid reuse with the same
and with another command, and a reuse where only one of the two counters
fell, or the check fails as too weak.
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
    ident = {}  # (guest, ts) -> {pid: process}, from the procd_pass lines
    for line in open(truth):
        r = json.loads(line)
        if "procd_pass" in r:
            p = r["procd_pass"]
            ident[(p["guest"], p["time_stamp"])] = {t["pid"]: t["process"] for t in p["tasks"]}
            continue
        if r.get("payload_layout") != "LNXAPPL.2.1" or r.get("kind") != "S":
            continue
        g = r["fields"]["APLSDT_USERID"].strip()
        ts, f = task(r["data_hex"])
        per = passes.setdefault(g, {})
        # a stale copy (the same pass sampled again) repeats its tasks
        if ts in per and r["interval"] != per[ts][0]:
            continue
        per.setdefault(ts, [r["interval"], []])[1].append(f)
    churn = {g for g, _ in ident}
    # what the churn exercised: a check that saw none of it proves nothing
    seen = dict.fromkeys(("exit", "exit_named", "start", "start_named", "start_other",
                          "reuse_same_cmd", "reuse_other_cmd", "reuse_one_fell"), 0)
    named = [sp for n, sp in specs.items() if sp != "re:."]  # entries narrower than "all"
    expect = {}
    multi = bad = 0
    for g, per in passes.items():
        host = g.lower()
        prev, cpu, flt = None, {}, {}
        for ts in sorted(per):
            tasks = per[ts][1]
            if g in churn and (g, ts) not in ident:
                print(f"NOPASS  {g} pass {ts}: sampled, but the truth has no procd_pass line")
                bad += 1
            who = ident.get((g, ts), {})
            if g in churn and set(who) != {f["pid"] for f in tasks}:
                print(f"PIDS    {g} pass {ts}: sampled pids {sorted(f['pid'] for f in tasks)}, "
                      f"the truth's pass {sorted(who)}")
                bad += 1
            for f in tasks:
                f["process"] = who.get(f["pid"], ("pid", f["pid"]))
            now = {f["process"]: f for f in tasks}
            if prev is not None:
                by_pid = {f["pid"]: f for f in prev.values()}
                is_named = lambda f: any(matches(sp, f, g) for sp in named)
                for q, f in prev.items():
                    if q not in now:
                        seen["exit"] += 1
                        seen["exit_named"] += is_named(f)
                for q, f in now.items():
                    if q in prev:
                        continue
                    seen["start"] += 1
                    seen["start_named" if is_named(f) else "start_other"] += 1
                    old = by_pid.get(f["pid"])
                    if old is None:
                        continue
                    seen["reuse_same_cmd" if old["cmd"] == f["cmd"] else "reuse_other_cmd"] += 1
                    # one counter fell, the other did not: still a new process for both
                    seen["reuse_one_fell"] += ((f["total_time"] < old["total_time"]) !=
                                               (f["maj_flt"] < old["maj_flt"]))
                    if f["total_time"] >= old["total_time"] and f["maj_flt"] >= old["maj_flt"]:
                        print(f"HIDDEN  {g} pass {ts}: pid {f['pid']} reused with no counter "
                              "falling: no reader can tell (the truth is unfit)")
                        bad += 1
            for name, spec in specs.items():
                sel = [f for f in tasks if matches(spec, f, g)]
                if any(matches(spec, f, g) is None for f in tasks):
                    continue
                multi += len(sel) > 1
                for f in sel:
                    p = prev.get(f["process"]) if prev is not None else None
                    if prev is None:
                        dc = dm = 0  # the guest's first pass is the base
                    elif p is not None:  # the same process: its increase
                        dc, dm = f["total_time"] - p["total_time"], f["maj_flt"] - p["maj_flt"]
                        if dc < 0 or dm < 0:
                            print(f"BACK    {g} pass {ts}: process {f['process']} counters fell")
                            bad += 1
                    elif len(tasks) < 100:  # a new process: all it has counted
                        dc, dm = f["total_time"], f["maj_flt"]
                    else:
                        print(f"CUT     {g} pass {ts}: 100 tasks, not modelled here")
                        bad += 1
                        dc = dm = 0
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
            prev = now
    got = {}
    for f in glob.glob(os.path.join(csvdir, "*", "processes-*", "*")):
        rel = os.path.relpath(f, csvdir)
        ident = re.sub(r"-\d{4}-\d\d-\d\d$", "", rel)
        for line in open(f):
            if line.startswith("epoch"):
                continue
            q = line.strip().split(",")
            got[(ident, int(float(q[0])))] = q[1:]
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
    if churn and not all(seen.values()):
        print(f"FEW     churn without every case: {seen}")
        bad += 1
    print(f"check.py: {len(expect)} truth values over {len(passes)} guests, {len(got)} written, "
          f"{multi} aggregates of several tasks, {bad} problems")
    if churn:
        print("check.py: churn " + ", ".join(f"{k} {v}" for k, v in seen.items()))
    return 1 if bad else 0


sys.exit(main(sys.argv[1:]))
