#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make bench-plugin: the zvm plugin in the real collectd daemon against a
null read plugin dispatching the same value lists (README.md here).

Per guest count, three collectd runs, each stopped with SIGTERM once
bench_sink has written its result:
  record  zvm replays a zvmsim MONWRITE file, bench_sink records every value list
  zvm     the same, bench_sink only counts (the measured run)
  null    bench_replay dispatches the recorded value lists, bench_sink counts
Prints figures, never a verdict on speed; exits 1 only if the harness itself
went wrong (a prerequisite missing, the null run not seeing the recorded set).

Environment: BENCH_SIZES (guest counts, default "1000 5000 10000 20000 50000"),
BENCH_INTERVALS (monitor intervals of the longer file, at least 7; default: 12, and
for a small system as many as make its steady window BENCH_STEADY_VL value lists,
default 1500000, so that each size is timed over about as much work (README.md)),
BENCH_REPEAT (measured runs per size, best kept; default 3 when the record
run took under 5 s, else 1), BENCH_TIMEOUT (seconds per collectd run, default
1800), BENCH_WRITE_THREADS (collectd WriteThreads, default 1), BENCH_KEEP=1
keeps the run directories and recordings.  BENCH_IR=1 runs the zvm and null
daemons under callgrind and prints instructions per value list instead of
CPU: slower (about 50 times), but the same figure run after run; BENCH_IR=cache
adds callgrind's simulated last-level cache misses per value list (slower again).
BENCH_CPUS=LIST runs each collectd under taskset -c LIST (README.md).
BENCH_NULL_PACE=fine paces the null plugin as before November 25, 2026 (default
zvm: as the zvm plugin paces itself).
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SIM_INTERVAL = 60
# The plugin emits a field once a law held for VerifyIntervals (3) intervals:
# intervals 1-3 are a warm-up with fewer value lists, and interval 4 names the
# series that appear then (first sight: tables grow).  The steady cost is the
# difference of two whole runs, one of a file of STEADY_FROM intervals and one
# of the same system with more intervals: everything the runs share (start-up,
# warm-up, first sight) cancels, and nothing depends on when collectd's write
# queue gets to which value (a fast source runs ahead of the writer).
STEADY_FROM = 5
# Value lists per guest per interval with zvmsim's mix of guests (measured: 15.6 at 1,000
# guests, 15.3 at 50,000): how many intervals a steady window of BENCH_STEADY_VL needs.
VL_PER_GUEST = 15
CD_PLUGINS = "/usr/lib/collectd"
CD_TYPES = "/usr/share/collectd/types.db"
ZVM_DONE = ["replayed:", "nothing replayed", "not a readable monitor file"]
NULL_DONE = ["replayed:", "replay failed"]


def die(msg):
    print("bench-plugin: " + msg, file=sys.stderr)
    sys.exit(1)


def say(msg):
    print(msg, file=sys.stderr, flush=True)


def prerequisites(top, build):
    collectd = shutil.which("collectd") or (
        "/usr/sbin/collectd" if os.access("/usr/sbin/collectd", os.X_OK) else None)
    if not collectd:
        die("collectd is not installed (apt-get install collectd-core; make deps)")
    need = {
        # BENCH_ZVM_SO: another build of the plugin (an older commit's, for a before/after)
        "zvm.so": os.environ.get("BENCH_ZVM_SO") or os.path.join(top, build, "zvm.so"),
        "zvmsim": os.path.join(top, build, "zvmsim"),
        "bench_sink.so": os.path.join(top, build, "bench-plugin", "bench_sink.so"),
        "bench_replay.so": os.path.join(top, build, "bench-plugin", "bench_replay.so"),
        "logfile.so": os.path.join(CD_PLUGINS, "logfile.so"),
        "collectd types.db": CD_TYPES,
        "types.db": os.path.join(top, "types.db"),
    }
    if os.environ.get("BENCH_CPUS") and not shutil.which("taskset"):
        die("BENCH_CPUS needs taskset (apt-get install util-linux)")
    for name, path in need.items():
        if not os.path.exists(path):
            die("%s missing: %s (run make bench-plugin, which builds it)" % (name, path))
    return collectd, need


def sim_file(zvmsim, cache, guests, intervals):
    """A cached MONWRITE file; made again when zvmsim is newer."""
    path = os.path.join(cache, "zvmsim-g%d-i%d.mw" % (guests, intervals))
    if os.path.exists(path) and os.path.getmtime(path) >= os.path.getmtime(zvmsim):
        return path
    tmp = path + ".tmp"
    cmd = [zvmsim, "monwrite", "-o", tmp, "--intervals", str(intervals), "--interval",
           str(SIM_INTERVAL), "--guests", str(guests), "--linux", str(guests // 5),
           "--devices", str(guests // 5), "--vnics", str(max(1, guests // 20))]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    os.replace(tmp, path)
    return path


class Bench:
    def __init__(self, collectd, paths, tmp, timeout, wthreads, intervals, repeat, ir=False):
        self.collectd, self.tmp, self.ir = collectd, tmp, ir
        self.timeout, self.wthreads = timeout, wthreads
        self.intervals, self.repeat = intervals, repeat  # intervals: {guests: count}
        self.plugdir = os.path.join(tmp, "plugins")
        os.makedirs(self.plugdir)
        # Copies: collectd refuses to load a plugin through a symlink.
        for so in ("zvm.so", "bench_sink.so", "bench_replay.so"):
            # Under collectd's name for it: BENCH_ZVM_SO may be called anything.
            shutil.copy(paths[so], os.path.join(self.plugdir, so))
        shutil.copy(paths["logfile.so"], self.plugdir)
        self.types = paths["types.db"]

    def conf(self, d, sink, source, wthreads):
        return """Hostname "bench"
FQDNLookup false
BaseDir "{d}"
PIDFile "{d}/collectd.pid"
PluginDir "{pd}"
TypesDB "{cdt}" "{t}"
# Long enough that collectd's own read loop adds nothing worth measuring.
Interval 10
WriteThreads {wt}
LoadPlugin logfile
<Plugin logfile>
  LogLevel "info"
  File "{d}/collectd.log"
  Timestamp true
</Plugin>
# First, so its init (the start of the measured CPU) precedes the source's.
<LoadPlugin bench_sink>
  Globals true
</LoadPlugin>
<Plugin bench_sink>
{sink}
</Plugin>
{source}
""".format(d=d, pd=self.plugdir, cdt=CD_TYPES, t=self.types, wt=wthreads, sink=sink,
           source=source)

    def zvm_source(self, d, mw):
        # The Device that never opens keeps the worker (and the plugin's state)
        # alive after the replay, as on a real system, so memory is read with
        # the state in place; ReportStats false keeps self-metrics out of the set.
        # ReplayQueue 0: the replay runs ahead of the write thread as the null
        # plugin does (README.md), with no pacing markers among the values;
        # BENCH_PACE=N holds both to N value lists ahead.
        return """LoadPlugin zvm
<Plugin zvm>
  File "{mw}"
  Device "{d}/no-monreader"
  RetryInterval 86400
  MaxRetryInterval 86400
  ReportStats false
  ReplayQueue {pace}
</Plugin>""".format(mw=mw, d=d, pace=pace())

    def null_source(self, rec):
        # BENCH_NULL_PACE: "zvm" (the default) leaves bench_replay's own defaults, which
        # pace as the zvm plugin's ReplayQueue does; "fine" is the pacing of earlier
        # tables (a look every 64 value lists, 100 us naps, no hysteresis).
        n = str(int(os.environ.get("BENCH_NULL_INFLIGHT") or pace()))
        fine = ("\n  Burst 64\n  ResumeAt %s\n  NapMicroseconds 100" % n
                if null_pace() == "fine" else "")
        return """LoadPlugin bench_replay
<Plugin bench_replay>
  File "{rec}"
  MaxInFlight {n}{fine}
</Plugin>""".format(rec=rec, n=n, fine=fine)

    def run(self, name, source_fn, done_texts, record=None, expect=0):
        """One collectd run; returns the result dict (done=0 if it timed out)."""
        d = os.path.join(self.tmp, name)
        os.makedirs(d)
        result = os.path.join(d, "result")
        sink = ['  Result "%s"' % result,
                "  EndAfterLog " + " ".join('"%s"' % t for t in done_texts)]
        if expect:
            sink.append("  Expect %d" % expect)
        if record:
            sink.append('  Record "%s"' % record)
        conf = os.path.join(d, "collectd.conf")
        with open(conf, "w") as f:
            # One write thread records the value lists in exactly the queue's order.
            wt = 1 if record else self.wthreads
            f.write(self.conf(d, "\n".join(sink), source_fn(d), wt))
        out = open(os.path.join(d, "stdout"), "w")
        cmd = [self.collectd, "-f", "-C", conf]
        if self.ir and not record:
            # bench_sink dumps the counts when the last value has arrived (dump 1).
            cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=%s/cg.out" % d] + \
                (["--cache-sim=yes"] + last_level() if self.ir == "cache" else []) + cmd
        if os.environ.get("BENCH_CPUS"):
            # One core for all of collectd's threads: the reader and the write thread then
            # take turns instead of sharing the last-level cache while both run (README.md).
            cmd = ["taskset", "-c", os.environ["BENCH_CPUS"]] + cmd
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        start = time.monotonic()
        timed_out = False
        try:
            while not os.path.exists(result):
                if p.poll() is not None:
                    out.close()
                    die("%s: collectd exited with %d before the end of the run:\n%s" %
                        (name, p.returncode, tail(d)))
                if time.monotonic() - start > self.timeout:
                    timed_out = True
                    break
                time.sleep(0.05)
        except BaseException:  # ^C: leave no daemon behind
            if p.poll() is None:
                p.kill()
                p.wait()
            raise
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=120)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            say("%s: collectd did not stop within 120 s of SIGTERM; killed" % name)
        out.close()
        if not os.path.exists(result):
            die("%s: no result from bench_sink:\n%s" % (name, tail(d)))
        r = read_result(result)
        if self.ir and not record:
            cg = os.path.join(d, "cg.out.1")
            r["ir"] = callgrind_total(cg, name)
            r["ir_own"] = own_instructions(cg)
            r["ir_walk"] = walk_instructions(cg)
            if self.ir == "cache":
                r["ll"] = callgrind_total(cg, name, LL_EVENTS)
                r["ll_own"] = own_instructions(cg, LL_EVENTS)
        r["dir"] = d
        r["timed_out"] = timed_out
        r["clean"] = "Exiting normally" in read(os.path.join(d, "collectd.log"))
        if not r["clean"]:
            say("%s: no clean shutdown (see %s)" % (name, d))
        return r


# BENCH_IR=cache: callgrind's simulated last-level misses, data and instructions, read
# and write (the last level as sysfs describes it: last_level).
LL_EVENTS = ("ILmr", "DLmr", "DLmw")


def own_instructions(path, events=("Ir",)):
    """The instructions (or the events named) of the plugin's own code (its plugin/ and
    decoder/ sources, inlined headers included) in one callgrind dump: what runs on top
    of collectd."""
    total = 0
    for ev in events:
        out = subprocess.run(["callgrind_annotate", "--auto=no", "--threshold=100",
                              "--inclusive=no", "--show=" + ev, "--sort=" + ev, path],
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            m = re.match(r"^\s*([\d,]+)\s+\([\s\d.]+%\)\s+(\S+)", line)
            if m and re.match(r"^(/.*/)?(plugin|decoder)/", m.group(2)) and \
                    "tests/bench" not in m.group(2):
                total += int(m.group(1).replace(",", ""))
    return total


def walk_instructions(path):
    """collectd's walks of its value cache for series that stopped (uc_check_timeout, with
    what it calls) in one callgrind dump.  collectd walks every Interval of wall time, and
    under callgrind a run takes about 50 times as long as without: the walks follow the
    clock, not the values, and the run that took longer did more of them."""
    out = subprocess.run(["callgrind_annotate", "--auto=no", "--threshold=100",
                          "--inclusive=yes", "--show=Ir", "--sort=Ir", path],
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        m = re.match(r"^\s*([\d,]+)\s+\([\s\d.]+%\)\s+\S*:uc_check_timeout\b", line)
        if m:
            return int(m.group(1).replace(",", ""))
    return 0


def callgrind_total(path, name, events=("Ir",)):
    """All threads' instructions (or the sum of the events named) in one callgrind dump."""
    if not os.path.exists(path):
        die("%s: no callgrind dump %s (is valgrind installed? apt-get install valgrind)" %
            (name, path))
    names = []
    for line in read(path).splitlines():
        if line.startswith("events:"):
            names = line.split()[1:]
        if line.startswith(("summary:", "totals:")):
            counts = dict(zip(names, (int(x) for x in line.split()[1:])))
            if all(ev in counts for ev in events):
                return sum(counts[ev] for ev in events)
            die("%s: %s has no %s events" % (name, path, "/".join(events)))
    die("%s: no totals in %s" % (name, path))


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def tail(d, n=20):
    lines = (read(os.path.join(d, "stdout")) + read(os.path.join(d, "collectd.log"))).splitlines()
    return "\n".join(lines[-n:])


def read_result(path):
    r = {"segs": []}
    for line in read(path).splitlines():
        k, _, v = line.partition(" ")
        if k == "seg":
            count, cpu, wall, t = v.split()
            r["segs"].append((int(count), int(cpu), int(wall), float(t)))
        else:
            r[k] = int(v)
    return r


def log_notes(name, d):
    """What collectd or the source said about the value lists: refusals, warnings."""
    kinds = [("refused (dataset not found)", "Dataset not found"),
             ("refused (value count != types.db)", "ds->ds_num"),
             ("invalid value list", "Invalid value list"),
             ("older than the cached value", "Value too old"),
             ("dropped by the write queue limit", "Low water mark")]
    lines = read(os.path.join(d, "collectd.log")).splitlines()
    notes = []
    for label, text in kinds:
        hits = [l for l in lines if text in l]
        if hits:
            notes.append("%s: %d log lines %s, e.g. %s" % (name, len(hits), label,
                                                           hits[0].split("] ", 2)[-1][:200]))
    other = [l for l in lines if ("[error]" in l or "[warning]" in l)
             and "no-monreader" not in l and "monreader" not in l]
    if other:
        notes.append("%s: %d other errors/warnings, e.g. %s" % (name, len(other), other[0][:200]))
    return notes


def fmt_row(cells, widths):
    return "  ".join(str(c).rjust(w) for c, w in zip(cells, widths))


HEAD = ["guests", "steady", "value lists", "series", "CPU/ival zvm s", "null s",
        "ns/VL zvm", "null", "ratio", "RSS zvm MB", "null MB", "extra B/series",
        "heap zvm MB", "null MB", "extra B/series"]
WIDTH = [7, 5, 11, 9, 14, 7, 9, 6, 6, 10, 8, 14, 11, 8, 14]


def best_pair(b, name, mw, rec, n, reps):
    """The zvm and the null run with the least CPU of reps runs each (noise only ever
    adds), taken in turns (zvm, null, zvm, null, ...) so that a machine that gets
    busier or quieter during the measurement weighs on both sides alike."""
    runs = {"zvm": [], "null": []}
    sources = (("zvm", lambda d: b.zvm_source(d, mw), ZVM_DONE),
               ("null", lambda d: b.null_source(rec), NULL_DONE))
    for i in range(reps):
        for kind, source_fn, done in sources:
            runs[kind].append(b.run("%s-%s-%d" % (name, kind, i), source_fn, done, expect=n))
        if any(r[-1]["timed_out"] for r in runs.values()):
            break
    pick = [min(runs[k], key=lambda r: (r["timed_out"], r["cpu_ns"])) for k in ("zvm", "null")]
    return pick[0], pick[1]


def measure_file(b, mw, name, reps):
    """Record, then the zvm run and the null run of one file: (n, series, z, u) or a reason."""
    rec = os.path.join(b.tmp, name + ".rec")
    r = b.run(name + "-record", lambda d: b.zvm_source(d, mw), ZVM_DONE, record=rec)
    if r["timed_out"]:
        return "record run did not finish in %d s (%d value lists by then)" % (b.timeout,
                                                                               r["count"])
    n, series = r["count"], r.get("series", 0)
    if not r.get("record_ok", 0):
        die("%s: the record run could not record every value list" % name)
    if n == 0:
        die("%s: the zvm plugin dispatched nothing:\n%s" % (name, tail(r["dir"])))
    reps = reps or (3 if r["wall_ns"] < 60e9 else 1)
    z, u = best_pair(b, name, mw, rec, n, reps)
    if os.environ.get("BENCH_KEEP") != "1":
        os.remove(rec)
    if u["timed_out"] or u["count"] != n:
        die("%s: the null run saw %d value lists, the record run %d" % (name, u["count"], n))
    if z["timed_out"]:
        return "zvm run did not finish in %d s (%d of %d value lists by then)" % (
            b.timeout, z["count"], n)
    return n, series, z, u


def measure(b, zvmsim, cache, guests, notes):
    iv = b.intervals[guests]
    k = iv - STEADY_FROM
    runs = {}
    for ivs in (STEADY_FROM, iv):
        say("bench-plugin: %d guests, %d intervals: record, zvm, null" % (guests, ivs))
        mw = sim_file(zvmsim, cache, guests, ivs)
        m = measure_file(b, mw, "g%d-i%d" % (guests, ivs), b.repeat)
        if isinstance(m, str):
            return [guests, ivs, m], True
        n, series, z, u = m
        notes += log_notes("%d guests, %d intervals, zvm run" % (guests, ivs), z["dir"])
        if z["count"] != n:
            # Paced, a marker is sent again after a second without progress: a few more
            # or fewer of them is the write thread's timing, not the plugin's output.
            why = ("pacing markers sent again" if pace() != "0" else
                   "the plugin's output is not repeatable")
            notes.append("%d guests: the zvm run dispatched %d value lists, the record run %d "
                         "(%s)" % (guests, z["count"], n, why))
        runs[ivs] = m
    (n0, _, z0, u0), (n, series, z, u) = runs[STEADY_FROM], runs[iv]
    if b.ir:
        # Under callgrind the CPU, wall and RSS figures are valgrind's: the warm-up is
        # told in instructions, which the steady columns use too.
        notes.append("%d guests, the first %d intervals alone (the %d-interval file, series "
                     "made), instructions: Ir/VL zvm %.0f null %.0f, ratio %.2f, own %.0f, "
                     "(null+own)/null %.2f, %d value lists" % (
                         guests, STEADY_FROM, STEADY_FROM, z0["ir"] / n0, u0["ir"] / n0,
                         z0["ir"] / u0["ir"], z0["ir_own"] / n0,
                         (u0["ir"] + z0["ir_own"]) / u0["ir"], n0))
        if b.ir == "cache" and n > n0:
            v = n - n0
            notes.append("%d guests, steady, simulated last-level cache misses (data and "
                         "instructions, read and write) per value list: zvm %.2f null %.2f, "
                         "ratio %.2f; the plugin's own code %.2f" % (
                             guests, (z["ll"] - z0["ll"]) / v, (u["ll"] - u0["ll"]) / v,
                             (z["ll"] - z0["ll"]) / max(u["ll"] - u0["ll"], 1),
                             (z["ll_own"] - z0["ll_own"]) / v))
        return ir_row(guests, iv, n0, z0, u0, n, series, z, u), False
    notes.append("%d guests, whole run of %d intervals (warm-up included): CPU/ival zvm %.3f s "
                 "null %.3f s, ns/VL zvm %.0f null %.0f, ratio %.2f; wall zvm %.2f s null %.2f s; "
                 "peak RSS zvm %.0f MB null %.0f MB" % (
                     guests, iv, z["cpu_ns"] / iv / 1e9, u["cpu_ns"] / iv / 1e9,
                     z["cpu_ns"] / n, u["cpu_ns"] / n, z["cpu_ns"] / u["cpu_ns"],
                     z["wall_ns"] / 1e9, u["wall_ns"] / 1e9, z["hwm_kb"] / 1024,
                     u["hwm_kb"] / 1024))
    # The shorter file alone is the first measurement (whole-process CPU of a
    # few intervals): the plugin makes its series then, so it is reported, not hidden.
    notes.append("%d guests, the first %d intervals alone (the %d-interval file, series made): "
                 "CPU zvm %.2f s null %.2f s, ratio %.2f, %d value lists" % (
                     guests, STEADY_FROM, STEADY_FROM, z0["cpu_ns"] / 1e9,
                     u0["cpu_ns"] / 1e9, z0["cpu_ns"] / u0["cpu_ns"], n0))
    cz, cu, v = z["cpu_ns"] - z0["cpu_ns"], u["cpu_ns"] - u0["cpu_ns"], n - n0
    if v <= 0 or cz <= 0 or cu <= 0:
        notes.append("%d guests: the longer file added no work (%d value lists, CPU zvm %d ns, "
                     "null %d ns): noise; the row is the whole run" % (guests, v, cz, cu))
        cz, cu, v, k = z["cpu_ns"], u["cpu_ns"], n, iv
    if "src_cpu_ns" in z and "src_cpu_ns" in u:
        dz = [(z[k] - z0[k]) / v for k in ("src_cpu_ns", "rest_cpu_ns")]
        du = [(u[k] - u0[k]) / v for k in ("src_cpu_ns", "rest_cpu_ns")]
        # bench_replay's thread has ended by the time the sink reads the threads: its
        # CPU is only in the whole-process figure.
        notes.append("%d guests, steady, per value list by thread: the zvm plugin's reader "
                     "(decode, engine, dispatch, collectd's enqueue) %.0f ns; collectd's "
                     "other threads (the write thread) zvm run %.0f ns, null run %.0f ns" %
                     (guests, dz[0], dz[1], du[1]))
    extra = (z["rss_anon_kb"] - u["rss_anon_kb"]) * 1024 / series if series else 0
    row = [guests, "%d-%d" % (STEADY_FROM + 1, iv), v, series, "%.3f" % (cz / k / 1e9),
           "%.3f" % (cu / k / 1e9), "%.0f" % (cz / v), "%.0f" % (cu / v),
           "%.2f" % (cz / cu), "%.1f" % (z["rss_anon_kb"] / 1024),
           "%.1f" % (u["rss_anon_kb"] / 1024), "%.0f" % extra,
           "%.1f" % (z["heap_inuse_kb"] / 1024), "%.1f" % (u["heap_inuse_kb"] / 1024),
           "%.0f" % ((z["heap_inuse_kb"] - u["heap_inuse_kb"]) * 1024 / series if series else 0)]
    return row, False


IR_HEAD = ["guests", "steady", "value lists", "series", "Ir/VL zvm", "null", "ratio",
           "own Ir/VL", "(null+own)/null", "no walk zvm", "null", "ratio",
           "whole run Ir/VL zvm", "null", "ratio"]
IR_WIDTH = [7, 5, 11, 9, 9, 6, 6, 9, 15, 11, 6, 6, 19, 6, 6]


def ir_row(guests, iv, n0, z0, u0, n, series, z, u):
    """BENCH_IR: instructions of all threads up to the last value, per value list; and
    without collectd's cache walks (walk_instructions), whose number follows the clock."""
    v = n - n0
    iz, iu, io = z["ir"] - z0["ir"], u["ir"] - u0["ir"], z["ir_own"] - z0["ir_own"]
    wz, wu = z["ir_walk"] - z0["ir_walk"], u["ir_walk"] - u0["ir_walk"]
    whole = ["%.0f" % (z["ir"] / n), "%.0f" % (u["ir"] / n), "%.2f" % (z["ir"] / u["ir"])]
    if v <= 0:
        return [guests, "-", v, series] + ["-"] * 8 + whole
    return [guests, "%d-%d" % (STEADY_FROM + 1, iv), v, series, "%.0f" % (iz / v),
            "%.0f" % (iu / v), "%.2f" % (iz / iu), "%.0f" % (io / v),
            "%.2f" % ((iu + io) / iu), "%.0f" % ((iz - wz) / v), "%.0f" % ((iu - wu) / v),
            "%.2f" % ((iz - wz) / (iu - wu))] + whole


def last_level():
    """BENCH_IR=cache: the last-level cache as the kernel knows it (sysfs), for callgrind to
    simulate.  callgrind asks CPUID, which in a virtual machine can describe another cache
    than the guest shares (335 MB, simulated as 256 MB direct-mapped, where sysfs says 32 MB,
    16 ways): the plugin's tables would then fit."""
    base = "/sys/devices/system/cpu/cpu0/cache"
    best = None
    for idx in sorted(os.listdir(base)) if os.path.isdir(base) else []:
        try:
            def rd(name):
                with open(os.path.join(base, idx, name)) as f:
                    return f.read().strip()
            if rd("type") == "Instruction":
                continue
            level, size = int(rd("level")), rd("size")
            ways, line = int(rd("ways_of_associativity")), int(rd("coherency_line_size"))
            nbytes = int(size.rstrip("KM")) << {"K": 10, "M": 20}.get(size[-1:], 0)
        except (OSError, ValueError):
            continue
        if best is None or level > best[0]:
            best = (level, nbytes, ways, line)
    return ["--LL=%d,%d,%d" % best[1:]] if best else []


def null_pace():
    """BENCH_NULL_PACE: how the null plugin paces itself, "zvm" (default) or "fine"."""
    return os.environ.get("BENCH_NULL_PACE") or "zvm"


def pace():
    """BENCH_PACE: how far ahead of collectd's write thread both sources may run (0: no limit)."""
    return str(int(os.environ.get("BENCH_PACE") or "0"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", default=".")
    ap.add_argument("--build", default="build")
    a = ap.parse_args()
    top = os.path.abspath(a.top)
    env = os.environ.get
    try:
        sizes = [int(s) for s in env("BENCH_SIZES", "1000 5000 10000 20000 50000").split()]
        fixed = int(env("BENCH_INTERVALS", "0"))
        steady_vl = int(env("BENCH_STEADY_VL", "1500000"))
        repeat = int(env("BENCH_REPEAT", "0"))
        timeout = float(env("BENCH_TIMEOUT", "1800"))
        wthreads = int(env("BENCH_WRITE_THREADS", "1"))
        pace()
        int(env("BENCH_NULL_INFLIGHT") or "0")
        if null_pace() not in ("zvm", "fine"):
            raise ValueError
    except ValueError:
        die("BENCH_SIZES, BENCH_INTERVALS, BENCH_REPEAT, BENCH_TIMEOUT, BENCH_WRITE_THREADS, "
            "BENCH_PACE and BENCH_NULL_INFLIGHT take numbers; BENCH_NULL_PACE takes zvm or fine")
    if not sizes or min(sizes) < 20:
        die("BENCH_SIZES needs guest counts of at least 20")
    if len(set(sizes)) != len(sizes):
        die("BENCH_SIZES names a guest count twice (its runs would share their directories)")
    if fixed and fixed < STEADY_FROM + 2:
        die("BENCH_INTERVALS needs at least %d (warm-up, then steady intervals)" %
            (STEADY_FROM + 2))
    collectd, paths = prerequisites(top, a.build)
    cache = os.path.join(top, a.build, "bench-plugin")
    os.makedirs(cache, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="zvm-bench-plugin.")
    ir = env("BENCH_IR") or "0"
    if ir not in ("0", "1", "cache"):
        die("BENCH_IR=%s: 1 (instructions) or cache (instructions and simulated last-level "
            "cache misses)" % ir)
    ir = False if ir == "0" else ir
    # A 1,000-guest window of 7 intervals was 0.15 s of CPU, as short as the machine's
    # hiccups: its ratio went from 1.06 to 1.44 between runs of one build.  Instructions
    # do not need the length (and would take 50 times as long).
    intervals = {g: fixed or (12 if ir else max(12, STEADY_FROM + -(-steady_vl // (
        VL_PER_GUEST * g)))) for g in sizes}
    if ir:
        if not shutil.which("valgrind"):
            die("BENCH_IR=1 needs valgrind (apt-get install valgrind)")
        repeat = 1  # the counts do not vary as times do
    b = Bench(collectd, paths, tmp, timeout, wthreads, intervals, repeat, ir)
    rows, notes, nsvl, nowalk, own = [], [], {}, {}, {}
    try:
        for g in sizes:
            row, unfinished = measure(b, paths["zvmsim"], cache, g, notes)
            rows.append(row)
            if not unfinished and not ir:
                nsvl[g] = (float(row[6]), float(row[7]))
            elif not unfinished and row[4] != "-":
                nsvl[g] = (float(row[4]), float(row[5]))
                nowalk[g] = (float(row[9]), float(row[10]))
                own[g] = float(row[7])
    finally:
        if env("BENCH_KEEP") == "1":
            say("bench-plugin: run directories kept in " + tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)

    print("zvm plugin in collectd %s against a null plugin dispatching the same value lists" %
          version(collectd))
    longer = sorted(set(intervals.values()))
    print("(zvmsim MONWRITE files of %d and %s %d-s intervals; steady = the intervals after "
          "the %dth as the difference of the two runs, value lists of those intervals;" % (
              STEADY_FROM, " / ".join(str(i) for i in longer), SIM_INTERVAL, STEADY_FROM))
    print(" CPU = all collectd threads; RSS = RssAnon after malloc_trim, with the plugin's state "
          "held; heap = malloc's bytes in use then (mallinfo2), without the freed write-queue "
          "copies malloc keeps in pieces; WriteThreads %d)" % wthreads)
    if pace() != "0":
        print("(BENCH_PACE: both sources held to %s value lists ahead of the write thread: the "
              "zvm plugin by its ReplayQueue, the null plugin by MaxInFlight, paced %s)" % (
                  pace(), "finely (BENCH_NULL_PACE=fine: every 64, no hysteresis)"
                  if null_pace() == "fine" else "as the zvm plugin is"))
    if os.environ.get("BENCH_CPUS"):
        print("(BENCH_CPUS: every collectd run pinned to CPU(s) %s with taskset: CPU without "
              "the threads running in parallel, not comparable with an unpinned table)" %
              os.environ["BENCH_CPUS"])
    if ir == "cache":
        print("(BENCH_IR=cache: last level simulated as %s, from sysfs)" %
              (" ".join(last_level()) or "callgrind's own guess: no cache in sysfs"))
    head, width, unit = (IR_HEAD, IR_WIDTH, "instructions") if ir else (HEAD, WIDTH, "ns")
    if ir:
        print(" BENCH_IR: instructions of all collectd threads under callgrind, up to the last "
              "value; own = the plugin's own code (plugin/, decoder/), the rest of the zvm run "
              "being collectd and libc, which vary by a few percent between runs with how the "
              "threads interleave; no walk = without collectd's walks of its cache for "
              "stopped series (uc_check_timeout), made every Interval of wall time, which "
              "under callgrind is about 50 times as long as without; the CPU, RSS and heap "
              "columns are left out)")
    print(fmt_row(head, width))
    for row in rows:
        if len(row) == len(head):
            print(fmt_row(row, width))
        else:
            print(fmt_row(row[:-1], width) + "  " + row[-1])
    if len(nsvl) > 1:
        lo, hi = min(nsvl), max(nsvl)
        (zh, nh), (zl, nl) = nsvl[hi], nsvl[lo]
        # The null run's figure holds bench_replay's own work, which the zvm run has not:
        # in instructions the plugin's own code is counted apart, and is its share.
        share = " (the plugin's share, zvm - null: %.2f)" % ((zh - nh) / (zl - nl)) \
            if zl > nl and zh > nh and not ir else ""
        print("zvm %s per value list at %d guests / at %d guests: %.2f; collectd alone (null): "
              "%.2f%s" % (unit, hi, lo, zh / zl, nh / nl, share))
        if ir:
            (zh, nh), (zl, nl) = nowalk[hi], nowalk[lo]
            print("  without collectd's cache walks: zvm %.2f, collectd alone (null) %.2f; the "
                  "plugin's own code %.0f -> %.0f instructions per value list: %.2f" % (
                      zh / zl, nh / nl, own[lo], own[hi], own[hi] / own[lo]))
    for n in notes:
        print("  " + n)


def version(collectd):
    try:
        out = subprocess.run([collectd, "-h"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("collectd "):
                return line.split()[1].rstrip(",")
    except OSError:
        pass
    return "?"


if __name__ == "__main__":
    main()
