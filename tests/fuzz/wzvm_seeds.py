#!/usr/bin/env python3
"""Seed corpus for fuzz_wzvm, written from doc/write_zvm.md (format 1).  Run from the tree top."""
import os
import struct

TOD = (1795305600 * 1000000 + 2208988800 * 1000000) << 12


def name(s):
    return bytes([len(s)]) + s.encode()


def entry(ds_type, idx, cnt, raw, plugin, pinst, typ, tinst, ds, flags=0):
    names = name(plugin) + name(pinst) + name(typ) + name(tinst) + name(ds)
    return struct.pack(">HBBBBHQQ", 24 + len(names), ds_type, flags, idx, cnt, 0, TOD, raw) + names


def record(entries, host="lnx01", size=4010, sync=(7, 7), index=0, total=1):
    body = b"".join(entries)
    used = 96 + len(body)
    hdr = b"WZVM" + struct.pack(">BBHQIHHIHH", 1, 0, 96, TOD, sync[0], len(entries), used, 10000,
                                index, total) + host.encode().ljust(64, b"\0")
    return (hdr + body).ljust(size - 4, b"\0") + struct.pack(">I", sync[1])


G = struct.unpack(">Q", struct.pack(">d", 0.75))[0]
seeds = {
    "gauge": record([entry(1, 0, 1, G, "memory", "", "memory", "used", "value")]),
    "multi": record([entry(1, i, 3, G, "load", "", "load", "", n)
                     for i, n in enumerate(("shortterm", "midterm", "longterm"))] +
                    [entry(2, 0, 2, 123, "interface", "eth0", "if_octets", "", "rx"),
                     entry(2, 1, 2, (1 << 64) - 7, "interface", "eth0", "if_octets", "", "tx")]),
    "rate": record([entry(1, 0, 1, G, "cpu", "0", "cpu", "user", "value", flags=1)], size=400),
    "torn": record([entry(0, 0, 1, 5, "x", "", "counter", "", "value")], sync=(8, 7), size=200),
    "empty": record([], host="", size=100),
}
os.makedirs("tests/fuzz/corpus/wzvm", exist_ok=True)
for k, v in seeds.items():
    with open("tests/fuzz/corpus/wzvm/" + k, "wb") as f:
        f.write(v)
