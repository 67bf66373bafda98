#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Drive the live soak: zvmsim makes N intervals on request, collectd with the
zvm plugin reads zvmsim's monreader, and faults come at random (seeded).

usage: soak.py --sim ZVMSIM --conf COLLECTD.conf --dir T --intervals N --seed S
               [--warm W] [--rate P]

zvmsim runs with --delivery, so it records itself what became of every data
set (delivered whole, read in part, dropped and why) and every control
command; the verdict (verdict.py) trusts that record, not this script.  This
script writes T/run.json: the seed, the faults in the order injected (kind,
zvmsim's interval number before and after), collectd's start intervals and
pids, the memory samples (memory.py) and the run time.

Fault kinds (each a different path through the plugin's reader):
  sever     an interval, then at once the IUCV sever: the set is read whole,
            in part or not at all, as the race goes; the plugin reopens
  eio       zvmsim severs the path after the first read into the next sample
            set: EIO in the middle of a data set
  efault    the first read of the next sample set fails with EFAULT: the
            plugin skips that set and keeps the device
(eio and efault let an event set that comes first pass: they must hit a sample
interval, or a run whose severs all raced clear would prove nothing about
partial sample sets, and the verdict fails such a run)
  overflow  msglim + 5 intervals at once: msglim queued, 5 lost, EOVERFLOW
  ebusy     a second reader's open() gets EBUSY while collectd has the
            device; then, after a sever, that reader takes the device first
            and collectd's reopens get EBUSY until it lets go
  vanish    the monreader node goes (collectd's reopens get ENOENT) while
            two intervals are made, and comes back
  restart   collectd is stopped (SIGTERM) and started again; an interval is
            made while it is down
Both restarts come first, then every other kind once, all before interval W
(a warm-up in the measured process, so that its memory at W already holds
each path's buffers); after W, every interval has probability P of a fault
of a random kind other than restart, so the memory samples from W on are of
one collectd process.  collectd runs with glibc's allocator untuned, with
memcount.so preloaded to count the blocks it holds (memory.py).
"""
import argparse
import errno
import json
import os
import random
import signal
import subprocess
import sys
import time

import memory

QUIET = 4.0  # seconds
KINDS = ["sever", "eio", "efault", "overflow", "ebusy", "vanish"]


def die(msg):
    print("soak.py: FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


class Soak:
    def __init__(self, a):
        self.a = a
        self.m = os.path.join(a.dir, "mnt")
        self.cd = None
        self.starts = []   # (zvmsim interval when collectd started, pid)
        self.faults = []
        # [interval, pid, VmRSS kB, blocks, bytes, mallinfo2 in use, mallinfo2 from the system]
        self.mem = []
        self.memdir = os.path.join(a.dir, "mem")
        self.fault_end = 0.0
        self.delivery = os.path.join(a.dir, "delivery.jsonl")

    # ---- zvmsim ----
    def status(self):
        # One read(): zvmsim makes the text afresh for each request, so a second
        # read at an offset could join the halves of two different texts.
        for _ in range(100):
            fd = os.open(os.path.join(self.m, "status"), os.O_RDONLY)
            try:
                text = os.read(fd, 4096).decode()
            finally:
                os.close(fd)
            out = dict((k, int(v)) for k, v in (ln.split() for ln in text.splitlines()
                                                if len(ln.split()) == 2))
            if "queued" in out and "interval" in out and "reader_open" in out:
                return out
            time.sleep(0.01)
        die("zvmsim's status file is unreadable: %r" % text)

    def ctl(self, cmd):
        with open(os.path.join(self.m, "control"), "w") as f:
            f.write(cmd)

    def iv(self):
        return self.status()["interval"]

    def opens(self):
        n = 0
        with open(self.delivery) as f:
            for line in f:
                if '"event":"open","detail":"ok"' in line:
                    n += 1
        return n

    def wait(self, cond, secs, what):
        t = time.time() + secs
        while time.time() < t:
            if cond():
                return
            if self.cd and self.cd.poll() is not None:
                die("collectd exited (status %s) while waiting for: %s" % (self.cd.returncode, what))
            time.sleep(0.005)
        die("timed out after %g s waiting for: %s" % (secs, what))

    def drained(self, secs=30):
        """The reader has taken every queued message (a 0-byte read each)."""
        self.wait(lambda: self.status()["queued"] == 0, secs, "the reader to empty the queue")

    def reopened(self, before, secs=30):
        self.wait(lambda: self.opens() > before, secs, "collectd to reopen the device")
        self.wait(lambda: self.status()["queued"] == 0, secs, "the configuration set to be read")

    def interval(self):
        self.ctl("interval")
        if self.status()["reader_open"]:
            self.drained()

    # ---- collectd ----
    def start_collectd(self):
        before = self.opens() if os.path.exists(self.delivery) else 0
        out = open(os.path.join(self.a.dir, "cd", "stdout"), "a")
        # collectd's defaults: glibc's allocator untuned.  memcount.so counts the
        # blocks collectd holds on its way to glibc (memory.py).
        env = dict(os.environ, LD_PRELOAD=self.a.memcount, SOAK_MEM_DIR=self.memdir)
        self.cd = subprocess.Popen(["collectd", "-f", "-C", self.a.conf], stdout=out,
                                   stderr=subprocess.STDOUT, env=env)
        self.starts.append([self.iv(), self.cd.pid])
        self.reopened(before)

    def settled(self):
        """collectd's write thread has caught up: the csv tree stopped growing.  At
        shutdown collectd drops what is still queued ("value lists were left"),
        which would look like values the plugin never dispatched."""
        root = os.path.join(self.a.dir, "cd", "csv")

        def size():
            n = 0
            for d, _, files in os.walk(root):
                for f in files:
                    n += os.path.getsize(os.path.join(d, f))
            return n
        last, same = -1, 0
        t = time.time() + 60
        while same < 2 and time.time() < t:
            time.sleep(0.3)
            now = size()
            same = same + 1 if now == last else 0
            last = now
        if same < 2:
            die("collectd's csv output did not settle within 60 s")

    def stop_collectd(self):
        self.settled()
        self.cd.send_signal(signal.SIGTERM)
        try:
            rc = self.cd.wait(20)
        except subprocess.TimeoutExpired:
            self.cd.kill()
            die("collectd did not stop within 20 s of SIGTERM")
        if rc != 0:
            die("collectd exited with status %d" % rc)
        self.cd = None

    def measure(self):
        """collectd's memory at a quiet moment: QUIET seconds after the last fault,
        right after an interval, once its csv settled.  collectd's cache then
        holds what every interval refreshes and nothing else.  The plugin reports
        its laws and its reading once per connection (12 identifiers), and the
        cache holds each for Timeout (2) x Interval (1 s) after its last value:
        60 blocks for about three seconds after every reopen.  A wait without
        intervals expires every other identifier too: hence the interval."""
        wait = self.fault_end + QUIET - time.time()
        if wait > 0:
            time.sleep(wait)
            # everything expired meanwhile: what one interval after a gap cannot
            # give (a rate needs two) comes with the next
            self.interval()
            self.interval()
        self.interval()
        j = self.iv()
        self.settled()
        pid = self.cd.pid
        try:
            m = memory.sample(self.memdir, pid)
            self.mem.append([j, pid, memory.vmrss(pid), m["blocks"], m["bytes"], m["mallinfo"],
                             m["arena"]])
        except (OSError, RuntimeError) as e:
            die("collectd's memory at interval %d: %s" % (j, e))

    # ---- faults ----
    def fault(self, kind):
        i0 = self.iv()
        o0 = self.opens()
        detail = ""
        if kind == "sever":
            self.ctl("interval")
            self.ctl("sever")
            self.reopened(o0)
        elif kind == "eio":
            self.ctl("eio sample")
            self.ctl("interval")
            self.reopened(o0)
        elif kind == "efault":
            self.ctl("efault sample")
            self.interval()
        elif kind == "overflow":
            self.ctl("overflow")
            self.drained()
        elif kind == "ebusy":
            # A second reader while collectd has the device.
            try:
                fd = os.open(os.path.join(self.m, "monreader"), os.O_RDONLY | os.O_NONBLOCK)
                os.close(fd)
                die("a second open() of monreader succeeded while collectd had it")
            except OSError as e:
                if e.errno != errno.EBUSY:
                    die("a second open() of monreader failed with %s, not EBUSY" % e)
            # Then that reader takes the device when collectd lets go of it.
            self.ctl("sever")
            t = time.time() + 10
            fd = None
            while fd is None and time.time() < t:
                try:
                    fd = os.open(os.path.join(self.m, "monreader"), os.O_RDONLY | os.O_NONBLOCK)
                except OSError as e:
                    if e.errno != errno.EBUSY:
                        die("open() of monreader: %s" % e)
                    time.sleep(0.002)
            if fd is None:
                die("the second reader never got the device")
            if self.opens() != o0 + 1:
                die("collectd reopened the device before the second reader did")
            self.ctl("interval")
            self.ctl("interval")
            time.sleep(1.0)  # collectd's reopens (RetryInterval 0.2 s) meet EBUSY
            os.close(fd)
            self.reopened(o0 + 1)
        elif kind == "vanish":
            self.ctl("vanish 1")
            self.ctl("interval")
            self.ctl("interval")
            time.sleep(1.0)  # collectd's reopens meet ENOENT
            self.ctl("vanish 0")
            self.reopened(o0)
        elif kind == "restart":
            self.stop_collectd()
            self.ctl("interval")
            self.start_collectd()
        self.faults.append({"kind": kind, "from": i0, "to": self.iv(), "detail": detail})
        self.fault_end = time.time()

    def run(self):
        a = self.a
        rng = random.Random(a.seed)
        warm = a.warm
        t0 = time.time()
        self.start_collectd()
        # The restarts first: the warm-up of every other kind then happens in the
        # process whose memory is measured.
        plan = list(KINDS)
        rng.shuffle(plan)
        plan = ["restart", "restart"] + plan
        # Warm-up faults are spread over intervals 3 .. warm-25 in order: the
        # last may start at warm-25 and, overflow included, still end before warm.
        slots = sorted(rng.sample(range(3, max(3 + len(plan), warm - 25)), len(plan)))
        # about 16 samples from the warm-up's end on (memory.py judges thirds of them)
        mem_every = max(1, (a.intervals - warm) // 16)
        while True:
            i = self.iv()
            if i >= a.intervals:
                break
            if plan and i >= slots[0]:
                slots.pop(0)
                self.fault(plan.pop(0))
                continue
            if not plan and warm + 1 <= i < a.intervals - 5 and rng.random() < a.rate:
                self.fault(rng.choice(KINDS))
                continue
            self.interval()
            j = self.iv()
            if j == warm or (j > warm and (j - warm) % mem_every == 0) or j >= a.intervals - 1:
                self.measure()
        if plan or not any(r[0] <= warm + 3 for r in self.mem):
            die("the warm-up faults did not fit before interval %d (%s left)" % (warm, plan))
        time.sleep(1.5)  # the self-metrics of the last interval
        self.stop_collectd()
        return time.time() - t0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sim", required=True)
    p.add_argument("--conf", required=True)
    p.add_argument("--dir", required=True)
    p.add_argument("--intervals", type=int, required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--warm", type=int)
    p.add_argument("--rate", type=float, default=0.04)
    p.add_argument("--simopts", default="")
    p.add_argument("--memcount", required=True, help="memcount.so, preloaded into collectd")
    a = p.parse_args()
    if a.warm is None:
        a.warm = 100 if a.intervals >= 1000 else a.intervals // 2
    s = Soak(a)
    os.makedirs(s.m, exist_ok=True)
    os.makedirs(os.path.join(a.dir, "cd"), exist_ok=True)
    os.makedirs(s.memdir, exist_ok=True)
    sim = subprocess.Popen([a.sim, "run", "-m", s.m, "--interval", "0", "--start", "1795305600",
                            "--truth", os.path.join(a.dir, "truth.jsonl"), "--delivery",
                            s.delivery] + a.simopts.split(),
                           stdout=open(os.path.join(a.dir, "zvmsim.log"), "w"),
                           stderr=subprocess.STDOUT)
    try:
        for _ in range(100):
            if os.path.exists(os.path.join(s.m, "monreader")):
                break
            time.sleep(0.05)
        else:
            die("zvmsim did not mount %s" % s.m)
        secs = s.run()
    finally:
        if s.cd and s.cd.poll() is None:
            s.cd.kill()
            s.cd.wait()
        subprocess.call(["fusermount3", "-u", s.m], stderr=subprocess.DEVNULL)
        try:
            rc = sim.wait(20)
        except subprocess.TimeoutExpired:
            sim.kill()
            rc = sim.wait()
    if rc != 0:
        die("zvmsim exited with status %d" % rc)
    json.dump({"seed": a.seed, "intervals": a.intervals, "warm": a.warm, "rate": a.rate,
               "faults": s.faults, "starts": s.starts, "mem": s.mem,
               "seconds": round(secs, 1)}, open(os.path.join(a.dir, "run.json"), "w"), indent=1)
    print("soak.py: %d intervals in %.1f s, %d faults, collectd started %d times" %
          (a.intervals, secs, len(s.faults), len(s.starts)))


if __name__ == "__main__":
    main()
