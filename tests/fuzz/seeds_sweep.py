#!/usr/bin/env python3
"""Seeds that reach the layouts read from IBM's pages alone
(doc/facts/ibm-record-pages.md 3 and 7, tests/unit/test_cp_sweep.c): each
record at IBM's length for its level, 40 bytes longer (fields a later APAR
appends), a byte shorter, and a number no page names, in a monreader data
set (fuzz_dataset, fuzz_stream) and as a record series (fuzz_cp_metrics).
Files are named by their SHA-1, as a merged corpus names them.  Run from the
tree top."""
import hashlib
import os
import struct

from seeds import frames, hdr  # the same header and frame packing (seeds.py)

# (domain, record, IBM's length for the level whose page was read)
RECORDS = [
    (0, 6, 112), (0, 14, 204), (0, 21, 96),
    (1, 7, 326), (1, 16, 128), (1, 21, 48), (1, 28, 40), (1, 29, 40), (1, 32, 24), (1, 37, 36),
    (3, 6, 44), (3, 12, 64), (3, 13, 52), (3, 17, 68), (3, 19, 88), (3, 21, 132), (3, 22, 56),
    (3, 23, 148), (3, 25, 36),
    (5, 1, 32), (5, 2, 28),
    (6, 1, 292), (6, 2, 28), (6, 5, 44), (6, 6, 28), (6, 7, 28), (6, 8, 28), (6, 9, 44),
    (6, 11, 44), (6, 12, 28), (6, 13, 28), (6, 15, 28), (6, 16, 36), (6, 17, 24), (6, 18, 40),
    (6, 19, 40), (6, 22, 80), (6, 23, 88), (6, 31, 84), (6, 33, 80), (6, 34, 124), (6, 36, 44),
    (6, 38, 40), (6, 39, 112), (6, 40, 116), (6, 46, 28), (6, 47, 24), (6, 51, 24),
    (9, 1, 244), (9, 2, 112), (9, 3, 140),
]


def rec(length, dom, recno):
    # the bytes after the header count up, so each field reads a value of its own
    return hdr(length, dom, recno) + bytes((20 + i) & 0xFF for i in range(length - 20))


def records():
    out = []
    for d, r, n in RECORDS:
        out += [rec(n, d, r), rec(n + 40, d, r), rec(n - 1, d, r)]
    out.append(rec(28, 6, 32))  # a number no page names
    return out


def dataset(dcss=0x09000000):
    body = frames(records(), dcss)
    mce = struct.pack(">BBBBII", 0xC5, 0xFF, 0xE0, 0, dcss, dcss + len(body) - 1)
    return mce + body


def write(corpus, data):
    d = os.path.join("tests/fuzz/corpus", corpus)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


write("dataset", dataset())
write("stream", dataset())
write("cp_metrics", b"".join(records()) + hdr(20, 1, 11))
