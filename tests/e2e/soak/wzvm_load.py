#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Drive the write_zvm soak: one collectd with write_zvm writes to zvmsim's
monwriter while a generator feeds it over collectd's unixsock, at the normal
rate and at ten times that rate, and the device fails under it.

usage: wzvm_load.py --sim ZVMSIM --conf COLLECTD.conf --dir T --cycles C
                    [--scale F]

Every value the generator sends has an identifier of its own
(gen-<cycle><phase>/gauge-<seq>, value <seq>): write_zvm keeps only the latest
value of an identifier, so two values under one identifier could replace each
other before a write pass without anything counting it.  A value therefore
reaches z/VM, or is dropped and counted, or (during a fault) goes with the
device; zvmsim's truth (every D10 record CP sampled, with its bytes) says
which.  The values are sent in bursts every TICK seconds: at the normal rate
a burst is a quarter of QueueLength, so the queue never reaches the half at
which write_zvm's writer thread is woken early, and nothing may be dropped;
at ten times the rate a burst is two and a half times the queue.  CP is slow
at DIAGNOSE X'DC' (zvmsim's mwdelay, MWDELAY ms a write()): ten times the
values fill several records, and the writer thread, busy writing them for
most of each WriteInterval, cannot empty the queue while a burst comes in.
(Without the delay the writer thread keeps up with unixsock on an idle
machine, and whether anything is dropped is up to the scheduler.)

A cycle, each phase followed by a quiet gap in which the queue empties and
collectd reports write_zvm's counters (the verdict reads them at the gaps):
  1x        the normal rate
  10x       ten times the rate: the queue overruns
  vanish    1x; the monwriter node goes (writes get ENODEV, reopens ENOENT)
            and comes back
  eperm     no records left (the generator paused until write_zvm stopped
            them), then CP refuses every DIAGNOSE X'DC' (EPERM) while 1x
            values need a new record; then it accepts them again
  enospc    the same with max_bufs 0 (ENOSPC)
Each fault phase goes on at 1x for RECOVER seconds after the fault ends.
EPERM and ENOSPC last REFUSE seconds, longer than a value lives unwritten
(Timeout 2 x interval 1): the values of their first second expire in the
table, so each such fault loses values, and the verdict can hold the count
write_zvm gives (dropped_space) against them; two seconds lost from 0 to 16
values, by how the bursts fell against the write passes.  The device
vanishes for 2 s: the verdict's count of collectd's complaints about the
failed open is made for that.

T/wzvm_run.json: the phases (cycle, kind, start, fault start and end, end,
all in unix seconds), the values sent per phase, collectd's memory at the
quiet moments after the warm-up and after each cycle (measure(), memory.py),
the pid.
"""
import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import time

import memory

QUEUE = 32          # QueueLength in the configuration run.sh writes
TICK = 0.5          # seconds between bursts
BURST = QUEUE // 4  # values per burst at the normal rate
MWDELAY = 100       # ms per monwriter write()
REFUSE = 3          # seconds of EPERM and ENOSPC
QUIET = 4.0         # seconds after the last value sent before memory is measured


def die(msg):
    print("wzvm_load.py: FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


class Load:
    def __init__(self, a):
        self.a = a
        self.m = os.path.join(a.dir, "mnt")
        self.cd = None
        self.sock = None
        self.seq = 0
        self.phases = []
        # [label, unix time, VmRSS kB, blocks, bytes, mallinfo2 in use, from the system]
        self.mem = []
        self.memdir = os.path.join(a.dir, "mem")
        self.last_sent = 0.0

    # ---- zvmsim ----
    def ctl(self, cmd):
        with open(os.path.join(self.m, "control"), "w") as f:
            f.write(cmd)

    def status(self):
        fd = os.open(os.path.join(self.m, "status"), os.O_RDONLY)
        try:
            text = os.read(fd, 4096).decode()
        finally:
            os.close(fd)
        return dict((k, int(v)) for k, v in (ln.split() for ln in text.splitlines()
                                            if len(ln.split()) == 2))

    def wait(self, cond, secs, what):
        t = time.time() + secs
        while time.time() < t:
            if cond():
                return
            if self.cd.poll() is not None:
                die("collectd exited (status %s) while waiting for: %s" % (self.cd.returncode, what))
            time.sleep(0.05)
        die("timed out after %g s waiting for: %s" % (secs, what))

    # ---- collectd ----
    def start_collectd(self):
        out = open(os.path.join(self.a.dir, "cd", "stdout"), "a")
        # collectd's defaults: glibc's allocator untuned.  memcount.so counts the
        # blocks collectd holds on its way to glibc (memory.py).
        env = dict(os.environ, LD_PRELOAD=self.a.memcount, SOAK_MEM_DIR=self.memdir)
        self.cd = subprocess.Popen(["collectd", "-f", "-C", self.a.conf], stdout=out,
                                   stderr=subprocess.STDOUT, env=env)
        sockpath = os.path.join(self.a.dir, "cd", "sock")
        log = os.path.join(self.a.dir, "cd", "collectd.log")

        def up():
            return (os.path.exists(sockpath) and os.path.exists(log) and
                    "write_zvm plugin: writing to" in open(log).read())
        self.wait(up, 30, "collectd's unixsock and write_zvm")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(sockpath)
        self.rd = self.sock.makefile("r")

    def stop_collectd(self):
        self.sock.close()
        self.cd.send_signal(signal.SIGTERM)
        try:
            rc = self.cd.wait(20)
        except subprocess.TimeoutExpired:
            self.cd.kill()
            die("collectd did not stop within 20 s of SIGTERM")
        if rc != 0:
            die("collectd exited with status %d" % rc)

    def measure(self, label):
        """collectd's memory at a quiet moment: write_zvm's table empty (its values
        expired, its records stopped) and QUIET seconds after the last value sent,
        when collectd's cache has let go of every generated identifier too
        (Timeout 2 x interval 1 s, checked once a second).  What is left is the
        same every time unless something leaks."""
        self.empty_records()
        time.sleep(max(0.0, self.last_sent + QUIET - time.time()))
        try:
            m = memory.sample(self.memdir, self.cd.pid)
            self.mem.append([label, round(time.time(), 2), memory.vmrss(self.cd.pid), m["blocks"],
                             m["bytes"], m["mallinfo"], m["arena"]])
        except (OSError, RuntimeError) as e:
            die("collectd's memory (%s): %s" % (label, e))

    # ---- the generator ----
    def burst(self, ph, n):
        """n PUTVALs in one write, then their n answers: unixsock dispatches them as
        fast as it parses them."""
        lines, seqs = [], []
        for _ in range(n):
            self.seq += 1
            seqs.append(self.seq)
            lines.append("PUTVAL collector/gen-%s/gauge-%d interval=1 N:%d\n" %
                         (ph["name"], self.seq, self.seq))
        self.sock.sendall("".join(lines).encode())
        for s in seqs:
            ans = self.rd.readline()
            if not ans.startswith("0 "):
                die("unixsock refused PUTVAL %d: %r" % (s, ans))
        ph["sent"].extend(seqs)
        self.last_sent = time.time()

    def run_rate(self, ph, secs, mult):
        t = time.time()
        end = t + secs * self.a.scale
        while t < end:
            self.burst(ph, BURST * mult)
            t += TICK
            time.sleep(max(0.0, t - time.time()))

    def gap(self):
        """The queue empties and collectd's read loop reports write_zvm's counters
        twice (Interval 1) before the next phase."""
        time.sleep(2.5)

    def empty_records(self):
        """No value left in write_zvm's table, so no record: the next value needs a
        new one (a START, which is where CP's refusals show)."""
        self.wait(lambda: self.status()["writer_buffers"] == 0, 20,
                  "write_zvm to stop its records once the values expired")

    def phase(self, cycle, kind):
        ph = {"cycle": cycle, "kind": kind, "name": "%d%s" % (cycle, kind), "sent": []}
        if kind in ("eperm", "enospc"):
            self.empty_records()
        ph["start"] = time.time()
        if kind == "1x":
            self.run_rate(ph, 4, 1)
        elif kind == "10x":
            self.run_rate(ph, 4, 10)
        else:
            on, off = {"vanish": ("vanish 2", "vanish 0"), "eperm": ("eperm 1", "eperm 0"),
                       "enospc": ("maxbufs 0", "maxbufs 255")}[kind]
            if kind == "vanish":
                self.run_rate(ph, 1, 1)  # records to lose
            ph["fault_start"] = time.time()
            self.ctl(on)
            self.run_rate(ph, 2 if kind == "vanish" else REFUSE, 1)
            ph["fault_end"] = time.time()
            self.ctl(off)
            ph["recover_from"] = len(ph["sent"])
            self.run_rate(ph, 4, 1)
        ph["end"] = time.time()
        self.phases.append(ph)
        self.gap()

    def run(self):
        t0 = time.time()
        self.ctl("mwdelay %d" % MWDELAY)
        self.start_collectd()
        # warm-up: the records, write_zvm's table, collectd's cache and write
        # queue at the size a 10x phase takes them to, before memory is measured
        ph = {"cycle": 0, "kind": "warm", "name": "0warm", "sent": []}
        ph["start"] = time.time()
        self.run_rate(ph, 3, 1)
        self.run_rate(ph, 4, 10)
        ph["end"] = time.time()
        self.phases.append(ph)
        self.gap()
        self.measure("warm")
        for c in range(1, self.a.cycles + 1):
            for kind in ("1x", "10x", "vanish", "eperm", "enospc"):
                self.phase(c, kind)
            self.measure("cycle %d" % c)
        time.sleep(1.5)
        if self.cd.poll() is not None:
            die("collectd exited during the run")
        self.stop_collectd()
        return time.time() - t0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sim", required=True)
    p.add_argument("--conf", required=True)
    p.add_argument("--dir", required=True)
    p.add_argument("--cycles", type=int, required=True)
    p.add_argument("--scale", type=float, default=1.0)
    p.add_argument("--memcount", required=True, help="memcount.so, preloaded into collectd")
    a = p.parse_args()
    s = Load(a)
    os.makedirs(s.m, exist_ok=True)
    os.makedirs(s.memdir, exist_ok=True)
    # CP samples the monwriter buffers every quarter second: a value stays in
    # write_zvm's records for about two seconds (Timeout 2 x interval 1).
    sim = subprocess.Popen([a.sim, "run", "-m", s.m, "--interval", "0.25", "--cpus", "1",
                            "--guests", "1", "--linux", "0", "--devices", "0", "--vnics", "0",
                            "--writer-userid", "LNXA", "--truth",
                            os.path.join(a.dir, "truth.jsonl")],
                           stdout=open(os.path.join(a.dir, "zvmsim.log"), "w"),
                           stderr=subprocess.STDOUT)
    try:
        for _ in range(100):
            if os.path.exists(os.path.join(s.m, "monwriter")):
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
    json.dump({"cycles": a.cycles, "queue": QUEUE, "mwdelay": MWDELAY, "burst": BURST, "tick": TICK,
               "pid": s.cd.pid, "phases": s.phases, "mem": s.mem,
               "seconds": round(secs, 1)}, open(os.path.join(a.dir, "wzvm_run.json"), "w"))
    print("wzvm_load.py: %d cycles, %d values sent in %.1f s" % (a.cycles, s.seq, secs))


if __name__ == "__main__":
    main()
