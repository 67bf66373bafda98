#!/usr/bin/env python3
"""Write the seed corpora for the decoder fuzz targets from the documented layouts
(doc/facts/monitor-stream.md 1, 3-5; capture format in decoder/source/source.h).
Run from the tree top; seeds_sweep.py imports its packers."""
import os
import struct

TOD = (1795305600 * 1000000 + 2208988800 * 1000000) << 12


def hdr(length, dom, rec, tod=TOD):
    return struct.pack(">HHBBHQI", length, 0, dom, 0, rec, tod, 0)


def rec(length, dom, recno, fill=0x11):
    return hdr(length, dom, recno) + bytes([fill]) * (length - 20)


def mce(typ, d0, d1, start, end):
    return struct.pack(">BBBBII", typ, d0, d1, 0, start, end)


def frames(records, dcss):
    """Pack records into 4 KB frames with End-of-Frame, end with Interval End."""
    out = bytearray()
    for r in records:
        used = (dcss + len(out)) & 0xFFF
        if used + len(r) + 20 > 4096:
            out += hdr(20, 1, 13)
            out += bytes(4096 - used - 20)
        out += r
    out += hdr(20, 1, 11)
    return bytes(out)


def dataset(dcss=0x09000F00):
    sample = frames([rec(352, 0, 2)] * 8 + [rec(508, 4, 3)] * 6 + [rec(196, 10, 2)], dcss)
    event = rec(40, 4, 1)
    return (mce(0xE2, 0xFF, 0xE0, dcss, dcss + len(sample) - 1) + sample +
            mce(0xC5, 0x08, 0, 0x09800000, 0x09800000 + len(event) - 1) + event)


def monwrite():
    dcss = 0x09000F80
    sample = frames([rec(300, 0, 2)] * 20, dcss)
    start, end = dcss, dcss + len(sample) - 1
    ctl = bytearray(4096)
    ctl[2], ctl[3] = 0x80, 0x09
    struct.pack_into(">II", ctl, 12, 0x08FFF000, 0x08FFF000 + 11)
    ctl[40:52] = mce(0xE2, 0x80, 0, start, end)
    img = bytearray()
    for page in range(start >> 12, (end >> 12) + 1):
        p = bytearray(4096)
        lo = max(start, page << 12)
        hi = min(end, (page << 12) + 4095)
        p[lo & 0xFFF:(hi & 0xFFF) + 1] = sample[lo - start:hi - start + 1]
        img += p
    return bytes(ctl + img)


def capture():
    out = b"ZVMCAP\r\n" + struct.pack(">HHI", 1, 16, 0)
    for _ in range(2):
        ds = dataset()
        out += struct.pack(">IIQII", 0x44534554, len(ds), 1795305600000000, 0, 0) + ds
    return out


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main():
    c = "tests/fuzz/corpus"
    write(f"{c}/dataset/two_pairs", dataset())
    write(f"{c}/dataset/frame_start", dataset(0x09000000))
    write(f"{c}/monwrite/one_group", b"\x07" + monwrite())
    write(f"{c}/stream/capture", capture())
    write(f"{c}/stream/monwrite", monwrite() * 2)
    write(f"{c}/stream/dataset", dataset())


# seeds_sweep.py imports the record and frame packers.
if __name__ == "__main__":
    main()
