#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two collectd csv trees written from the same input hold the same values.

usage: same_csv.py A_CSV B_CSV --self HOST [--min N]

Every identifier (host/plugin-inst/type-inst; csv adds the date of writing to
the file name, which is dropped) of one tree is in the other with the same
header and the same rows, compared as the text csv printed (GAUGE with
%lf, DERIVE and COUNTER as integers), so a value that differs in its last digit
counts.  The plugin's self-metrics under HOST carry wall-clock times and are
compared by their final value only (data sets, values dispatched, decode errors).
The rows outside HOST must number the value lists the plugin says it dispatched.
--min: at least N values (rows x data sources) outside HOST.
"""
import os
import sys
from collections import Counter

FINAL = ("zvm-reader/total_objects-datasets", "zvm-reader/total_values-dispatched",
         "zvm-reader/errors-decode")


def tree(root):
    """{identifier: [header, row, ...]}, the rows of all its dated files in order."""
    out = {}
    for d, _, files in os.walk(root):
        for f in sorted(files):
            path = os.path.join(d, f)
            with open(path) as fh:
                lines = fh.read().splitlines()
            ident = os.path.relpath(path, root)[:-len("-YYYY-MM-DD")]
            if ident in out:
                out[ident] += lines[1:]
            else:
                out[ident] = lines
    return out


def final(lines):
    return lines[-1].split(",", 1)[1] if len(lines) > 1 else None


def main(a):
    ra, rb = a[0], a[1]
    selfhost, minimum = None, 1
    i = 2
    while i < len(a):
        if a[i] == "--self":
            selfhost = a[i + 1]
            i += 2
        elif a[i] == "--min":
            minimum = int(a[i + 1])
            i += 2
        else:
            sys.exit("same_csv.py: unknown argument " + a[i])
    ta, tb = tree(ra), tree(rb)
    bad, values, rows, hosts = 0, 0, 0, set()
    for rel in sorted(set(ta) | set(tb)):
        host = rel.split(os.sep, 1)[0]
        if host == selfhost:
            continue
        if rel not in ta or rel not in tb:
            print(f"ONLY    {rel} only in {ra if rel in ta else rb}")
            bad += 1
            continue
        la, lb = ta[rel], tb[rel]
        if la[:1] != lb[:1]:
            print(f"HEADER  {rel}: {la[:1]} / {lb[:1]}")
            bad += 1
            continue
        # A multiset: a row dispatched twice in one tree and once in the other differs.
        sa, sb = Counter(la[1:]), Counter(lb[1:])
        for row in sorted((sa - sb) + (sb - sa))[:5]:
            print(f"DIFFER  {rel}: {row} {'more often in ' + (ra if sa[row] > sb[row] else rb)}")
        if sa != sb:
            bad += 1
            continue
        hosts.add(host)
        rows += len(la) - 1
        values += sum(len(r.split(",")) - 1 for r in la[1:])
    for ident in FINAL:
        va = final(ta.get(f"{selfhost}/{ident}", []))
        vb = final(tb.get(f"{selfhost}/{ident}", []))
        if va is None or va != vb:
            print(f"FINAL   {selfhost}/{ident}: {va} / {vb}")
            bad += 1
        else:
            print(f"same_csv.py: {selfhost}/{ident} ends at {va} in both")
    # Every value list the plugin dispatched was written: nothing lost on either side
    # unnoticed because both lost it.
    dispatched = final(ta.get(f"{selfhost}/zvm-reader/total_values-dispatched", []))
    if dispatched is None or rows != int(dispatched):
        print(f"ROWS    {rows} rows outside {selfhost}, the plugin dispatched {dispatched} value lists")
        bad += 1
    if values < minimum:
        print(f"FEW     only {values} values compared (want {minimum})")
        bad += 1
    print(f"same_csv.py: {rows} value lists, {values} values in {len(hosts)} hosts ({', '.join(sorted(hosts))}) "
          f"identical, {bad} problems")
    return 1 if bad else 0


sys.exit(main(sys.argv[1:]))
