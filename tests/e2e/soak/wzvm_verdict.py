#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The write_zvm soak's verdict: what the generator sent (wzvm_run.json)
against what z/VM sampled (zvmsim's truth: every D10 record with its bytes,
decoded here with tests/e2e/wzvm/wzvm_stream.py, written from doc/write_zvm.md)
and write_zvm's own counters (collectd's csv of plugin write_zvm).

usage: wzvm_verdict.py T

A value is received when any D10 record of applid 31350 holds its entry
(gen-<phase>/gauge-<seq> = seq).  Counter deltas are taken from the last csv
row before a phase started to the last one of the quiet gap after it.
write_zvm counts a lost value once, when it leaves its table never written
(doc/write_zvm.md, self-metrics); every value here has an identifier of its
own, so a value is lost only by the queue or by expiring unwritten.
  every    nothing expired before a write pass met it (dropped_expired: a
           value lives 2 s, four WriteIntervals), and no value counted as
           dropped was received (dropped_queue + dropped_space <= lost)
  1x       every value received, nothing dropped
  10x      the queue overran (dropped_queue grew), and what did not arrive
           is exactly what dropped_queue counted; nothing dropped for space
  faults   the fault was met (write_error grew), the plugin said so once
           and once that it works again, and every value sent after the
           fault ended arrived, with collectd never restarted; for EPERM and
           ENOSPC (3 s, longer than a value lives) values were lost, and
           dropped_space is exactly the values lost during the fault; when
           the device vanishes, at most those (a value in a record the device
           took with it before CP sampled it was written, so not counted)
           (a failed open too: once while the device is away)
  memory   the blocks collectd holds (memory.py, counted inside the process
           on the way to glibc's untuned allocator) at quiet moments: after
           the warm-up and at the end of each cycle, write_zvm's table empty
           and collectd's cache rid of the generated identifiers.  Each later
           cycle ends within BOUND_BLOCKS and BOUND_BYTES of the higher of
           the warm-up's and cycle 1's (every path has run once); with one
           cycle, cycle 1 against the warm-up.  A leak of one table entry per
           value fails it by an order of magnitude.
"""
import glob
import importlib.util
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "wzvm_stream", os.path.join(HERE, "..", "wzvm", "wzvm_stream.py"))
ws = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ws)

APPLID = 31350

# The memory check's bounds (memory.py: the blocks collectd holds, counted
# inside the process, at quiet moments).  A cycle sends 1,040 values, each
# under an identifier of its own; 800 to 900 of them reach write_zvm's table
# (the 10x phase's queue drops the rest), so a leak of one table entry per
# value would add as many blocks of 432 bytes (sizeof(struct wz_item)) a
# cycle.  Unchanged, the quiet moments hold the same blocks to the byte or
# nearly (see the report).  The bounds sit far from both.
BOUND_BLOCKS = 64
BOUND_BYTES = 32 * 1024
problems = []


def bad(msg):
    problems.append(msg)
    if len(problems) <= 20:
        print("BAD      " + msg)


def received(truth):
    """{seq: (phase name, value)} of every generated value CP sampled."""
    got, records, torn = {}, 0, 0
    with open(truth) as f:
        for line in f:
            if '"domain":10' not in line or "LNXAPPL %d." % APPLID not in line:
                continue
            r = json.loads(line)
            if "data_hex" not in r:
                continue
            d = bytes.fromhex(r["data_hex"])
            if d[:4] != b"WZVM":
                continue
            rec = ws.decode_record(d)
            records += 1
            if rec["sync1"] != rec["sync2"]:
                torn += 1
                continue
            if rec["host"] != "collector":
                bad("record of host %r" % rec["host"])
            for e in rec["entries"]:
                if e["plugin"] != "gen":
                    bad("an entry of plugin %r: only the generator's values go to write_zvm" %
                        e["plugin"])
                    continue
                seq = int(e["type_instance"])
                if (e["type"], e["ds_name"], e["ds_type"], e["value"]) != ("gauge", "value", 1, seq):
                    bad("entry %s/%s-%s %s = %r" % (e["plugin"], e["type"], e["type_instance"],
                                                   e["ds_name"], e["value"]))
                got[seq] = (e["plugin_instance"], e["value"])
    if torn:
        bad("%d torn copies of write_zvm records: write() copies them whole" % torn)
    return got, records


def counters(csvdir):
    """{name: [(time, value)]} of write_zvm's DERIVE counters."""
    out = {}
    for f in glob.glob(os.path.join(csvdir, "collector", "write_zvm", "total_*")):
        name = os.path.basename(f)[:-len("-YYYY-MM-DD")].split("-", 1)[1]
        with open(f) as fh:
            fh.readline()
            out.setdefault(name, []).extend(
                (float(t), int(float(v))) for t, v in (ln.strip().split(",") for ln in fh))
    for v in out.values():
        v.sort()
    return out


def at(rows, t):
    v = 0
    for rt, rv in rows:
        if rt > t:
            break
        v = rv
    return v


def main(T):
    run = json.load(open(os.path.join(T, "wzvm_run.json")))
    log = open(os.path.join(T, "cd", "collectd.log")).read()
    got, nrec = received(os.path.join(T, "truth.jsonl"))
    cnt = counters(os.path.join(T, "cd", "csv"))
    for k in ("dropped_queue", "dropped_space", "dropped_expired", "write_error", "queued"):
        if k not in cnt:
            bad("write_zvm's counter %s is not in collectd's csv" % k)
            cnt[k] = []

    def delta(name, ph):
        end = ph["end"] + 2.4
        if not any(ph["end"] + 1.0 < t <= end for t, _ in cnt[name]):
            bad("%s: no %s row in the quiet gap after it" % (ph["name"], name))
        return at(cnt[name], end) - at(cnt[name], ph["start"])

    print("z/VM sampled %d write_zvm records; %d distinct values sent, %d received" %
          (nrec, sum(len(p["sent"]) for p in run["phases"]), len(got)))
    sent_all = set()
    for ph in run["phases"]:
        sent = ph["sent"]
        sent_all.update(sent)
        lost = [s for s in sent if s not in got]
        wrong = [s for s in sent if s in got and got[s][0] != ph["name"]]
        if wrong:
            bad("%s: values under another phase's identifier: %s" % (ph["name"], wrong[:5]))
        dq, ds, we = delta("dropped_queue", ph), delta("dropped_space", ph), delta("write_error", ph)
        de = delta("dropped_expired", ph)
        line = "%-9s sent %5d received %5d lost %4d | dropped_queue +%d dropped_space +%d " \
               "dropped_expired +%d write_error +%d" % (ph["name"], len(sent),
                                                        len(sent) - len(lost), len(lost), dq, ds,
                                                        de, we)
        kind = ph["kind"]
        if de:
            bad("%s: dropped_expired +%d: values expired before a write pass met them" %
                (ph["name"], de))
        if dq + ds > len(lost):
            bad("%s: %d values counted as dropped, %d did not arrive" %
                (ph["name"], dq + ds, len(lost)))
        if kind in ("warm", "1x", "10x"):
            if len(lost) != dq:
                bad("%s: %d values did not arrive, write_zvm counted %d dropped" %
                    (ph["name"], len(lost), dq))
            if ds or we:
                bad("%s: dropped_space +%d, write_error +%d without a fault" % (ph["name"], ds, we))
            if kind == "1x" and dq:
                bad("%s: %d values dropped at the normal rate (a burst is a quarter of the "
                    "queue)" % (ph["name"], dq))
            if kind == "10x" and not dq:
                bad("%s: ten times the rate did not overrun a queue of %d" %
                    (ph["name"], run["queue"]))
        else:
            after = sent[ph["recover_from"]:]
            late = [s for s in after if s not in got]
            during = [s for s in sent[:ph["recover_from"]] if s not in got]
            line += " | lost during the fault %d, after it %d of %d" % (len(during), len(late),
                                                                       len(after))
            if late:
                bad("%s: %d values sent after the fault ended never arrived (first %s)" %
                    (ph["name"], len(late), late[:5]))
            if not we:
                bad("%s: no failed write() counted: the fault was not met" % ph["name"])
            if kind in ("eperm", "enospc"):
                if not during:
                    bad("%s: no value lost during a fault longer than a value lives" %
                        ph["name"])
                if ds != len(during):
                    bad("%s: %d values lost during the fault, write_zvm counted %d as "
                        "dropped_space" % (ph["name"], len(during), ds))
            if dq:
                bad("%s: %d values dropped from the queue at the normal rate" % (ph["name"], dq))
        print(line)
    extra = set(got) - sent_all
    if extra:
        bad("%d values in the records were never sent" % len(extra))

    # One message per episode, one "works again" after each; a device that
    # cannot be opened too (c_complain_once until it opens).
    n = run["cycles"]
    expect = {r"refused to start record \d+ \(EPERM\)": (n, n),
              r"refused to start record \d+ of \d+ \(ENOSPC\)": (n, n),
              "failed: No such device; reopening": (n, n),
              "cannot open .*: No such file or directory": (n, n),
              "writing to the monwriter device works again": (3 * n, 3 * n),
              "Initialization complete": (1, 1)}
    for pat, (lo, hi) in expect.items():
        m = len(re.findall(pat, log))
        if not lo <= m <= hi:
            bad("collectd.log: %d lines match %r, expected %s" %
                (m, pat, lo if lo == hi else "%d to %d" % (lo, hi)))

    # ---- memory ----
    mem = run["mem"]
    print("collectd's memory (pid %d) at quiet moments, blocks/kB held, mallinfo2 kB in use/from "
          "the system, VmRSS kB: %s" %
          (run["pid"], "; ".join("%s %d/%d, %d/%d, %d" % (m[0], m[3], m[4] // 1024, m[5] // 1024,
                                                          m[6] // 1024, m[2]) for m in mem)))
    # The warm-up ends with a 10x phase and cycle 1 with every fault: later
    # cycles come back to the higher of the two unless something leaks.
    by = dict((m[0], m) for m in mem)
    ref = by["warm"]
    if n > 1 and by["cycle 1"][3] > ref[3]:
        ref = by["cycle 1"]
    for c in range(2 if n > 1 else 1, n + 1):
        m = by["cycle %d" % c]
        db, dbytes = m[3] - ref[3], m[4] - ref[4]
        print("held at the end of cycle %d: %+d blocks (bound %d), %+d bytes (bound %d) from %s" %
              (c, db, BOUND_BLOCKS, dbytes, BOUND_BYTES, ref[0]))
        if db > BOUND_BLOCKS or dbytes > BOUND_BYTES:
            bad("collectd holds %+d blocks, %+d bytes more at the end of cycle %d than at %s "
                "(bounds %d, %d): a leak" % (db, dbytes, c, ref[0], BOUND_BLOCKS, BOUND_BYTES))
    print("run time %.1f s" % run["seconds"])
    print("verdict: %s" % ("passed" if not problems else "%d problems" % len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
