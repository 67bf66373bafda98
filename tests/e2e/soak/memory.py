#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""collectd's memory in the soaks, read inside the process (memcount.c).

collectd runs with glibc's allocator as it comes (no MALLOC_ARENA_MAX, no
tcache tuning).  Its VmRSS then wanders in a band as wide as the memory
itself (issue 55: 4.7 to 8.5 MB over 20,000 intervals, no trend), and
glibc's mallinfo2() counts the freed chunks each thread parks in its tcache
as in use.  The soaks judge the blocks collectd holds instead, counted by
memcount.so on the way to glibc: at quiet moments of an unchanged workload
they come back to the same figures unless something leaks.  VmRSS and
mallinfo2 are printed beside them, not judged.

Sample: one line of DIR/mem.PID.txt per request (memcount.c):
  blocks bytes uordblks hblkhd arena
"""
import os
import statistics
import time


def sample(memdir, pid, secs=10):
    """Ask collectd's memcount thread for a line and return it as a dict."""
    fifo = os.path.join(memdir, "mem.%d.fifo" % pid)
    txt = os.path.join(memdir, "mem.%d.txt" % pid)
    end = time.time() + secs
    while not os.path.exists(fifo):
        if time.time() > end:
            raise RuntimeError("no %s: is memcount.so preloaded?" % fifo)
        time.sleep(0.01)
    before = _lines(txt)
    fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    try:
        os.write(fd, b"x")
    finally:
        os.close(fd)
    while True:
        lines = _lines(txt)
        if len(lines) > len(before) and lines[-1].endswith("\n"):
            break
        if time.time() > end:
            raise RuntimeError("memcount in pid %d did not answer" % pid)
        time.sleep(0.005)
    blocks, nbytes, uord, hblk, arena = (int(x) for x in lines[-1].split())
    return {"blocks": blocks, "bytes": nbytes, "mallinfo": uord + hblk, "arena": arena + hblk}


def _lines(path):
    try:
        with open(path) as f:
            return f.readlines()
    except FileNotFoundError:
        return []


def vmrss(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS for pid %d" % pid)


def growth(points):
    """points: [(x, blocks, bytes)] in order of x.  The median of the last third
    less the median of the first third, and the distance in x between them: a
    leak grows both thirds apart, a sample caught mid-burst moves one median
    by nothing."""
    k = max(1, len(points) // 3)
    first, last = points[:k], points[-k:]

    def med(ps, i):
        return statistics.median(p[i] for p in ps)
    return med(last, 1) - med(first, 1), med(last, 2) - med(first, 2), med(last, 0) - med(first, 0)
