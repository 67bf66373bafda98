#!/usr/bin/env python3
"""Seed corpora for fuzz_cp_metrics and fuzz_layoutfile, written from the documented
layouts (doc/facts/cp-records.md) and doc/layoutfile.md.  Run from the tree top."""
import os
import struct

TOD = (1795305600 * 1000000 + 2208988800 * 1000000) << 12
SEC = 1000000 << 12


def hdr(length, dom, rec, tod):
    return struct.pack(">HHBBHQI", length, 0, dom, 0, rec, tod, 0)


def put(buf, off, fmt, *v):
    struct.pack_into(">" + fmt, buf, off, *v)


def ebc(s, n):
    t = {c: 0xC1 + i for i, c in enumerate("ABCDEFGHI")}
    t.update({c: 0xD1 + i for i, c in enumerate("JKLMNOPQR")})
    t.update({c: 0xE2 + i for i, c in enumerate("STUVWXYZ")})
    t.update({c: 0xF0 + i for i, c in enumerate("0123456789")})
    return bytes(t.get(c, 0x40) for c in s.ljust(n))[:n]


def interval(i):
    tod = TOD + 60 * SEC * i
    out = b""
    for cpu in range(2):  # D0R2 SYTPRP 352: 20 CPUAD, 24 PRBTM, 32 UTIME, 40 TMSYS, 68 TOTWT
        b = bytearray(hdr(352, 0, 2, tod) + bytes(332))
        put(b, 20, "H", cpu)
        put(b, 24, "Q", 0x7FFFFFFF00000000 - (16000000 * i << 12))
        put(b, 32, "Q", 20000000 * i << 12)
        put(b, 40, "Q", 3000000 * i << 12)
        put(b, 68, "Q", 37000000 * i << 12)
        out += b
        b = bytearray(hdr(116, 0, 1, tod) + bytes(96))  # D0R1 SYTSYP
        put(b, 20, "H", cpu)
        put(b, 48, "I", 1000 * i)
        put(b, 72, "I", 10 * i)
        put(b, 76, "I", 5 * i)
        out += b
    b = bytearray(hdr(224, 0, 3, tod) + bytes(204))  # D0R3 SYTRSG
    put(b, 48, "I", 1000000)
    put(b, 52, "I", 200000)
    put(b, 68, "I", 300)
    out += b
    b = bytearray(hdr(464, 3, 1, tod) + bytes(444))  # D3R1 STORSG
    put(b, 28, "I", 300)
    out += b
    b = bytearray(hdr(144, 0, 16, tod) + bytes(124))  # D0R16 SYTCUP, 2 entries of 40
    b[20:28] = ebc("LPAR1", 8)
    b[30] = 2
    put(b, 32, "hh", 64, 40)
    for k in range(2):
        put(b, 64 + 40 * k, "H", k)
        put(b, 64 + 40 * k + 6, "Q", 30000000 * i << 12)
    out += b
    for user, vcpu, tt, vt in (("LINUX01", 0, 20, 16), ("LINUX01", 1, 10, 8), ("LINUX02", 0, 10, 8)):
        b = bytearray(hdr(508, 4, 3, tod) + bytes(488))  # D4R3 USEACT
        b[20:28] = ebc(user, 8)
        put(b, 28, "H", vcpu)
        put(b, 36, "Q", tt * 1000000 * i << 12)
        put(b, 44, "Q", vt * 1000000 * i << 12)
        put(b, 68, "I", 1000)
        put(b, 108, "I", 5 * i)
        put(b, 112, "I", 2 * i)
        out += b
    b = bytearray(hdr(240, 6, 3, tod) + bytes(220))  # D6R3 IODDEV
    put(b, 52, "H", (500 * i) & 0xFFFF)
    put(b, 192, "I", 500 * i)
    put(b, 200, "H", 0x200)
    out += b
    b = bytearray(hdr(316, 8, 1, tod) + bytes(296))  # D8R1 VNDSES
    b[24:32] = ebc("LINUX01", 8)
    put(b, 32, "H", 0x600)
    put(b, 96, "QQQ", 1500000 * i, 64000 * i, 1000 * i)
    put(b, 136, "Q", 1000 * i)
    out += b
    b = bytearray(hdr(184, 1, 4, tod) + bytes(164))  # D1R4 MTRSYS
    b[88:96] = ebc("ZVMSYS1", 8)
    out += b
    return out + hdr(20, 1, 11, tod + SEC)


def main():
    d = "tests/fuzz/corpus/cp_metrics"
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "four-intervals"), "wb") as f:
        f.write(b"".join(interval(i) for i in range(4)))
    with open(os.path.join(d, "one-interval"), "wb") as f:
        f.write(interval(1))
    d = "tests/fuzz/corpus/layoutfile"
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "sytprp"), "w") as f:
        f.write('# doc/layoutfile.md example\n'
                'layout D0R2 SYTPRP min_len 352 level "z/VM 7.4" source "site"\n'
                '  field SYTPRP_PFXCPUAD 20 2 uint verified none - "IBM mon640 MRSYTPRP" "CPU"\n'
                '  field SYTPRP_PFXPRBTM 24 8 timer-down verified counter timer "IBM" "emu"\n'
                '  field SYTPRP_PFXTOTWT 0x44 8 timer hint counter timer "zpmd \\"v53\\"" "wait"\n'
                'end\n'
                'layout D0R16.CPU SYTCUP min_len 38 level "5.3" source "zpmd"\n'
                '  field SYTCUP_LCUCPUID 0 2 uint hint none - "zpmd" ""\n'
                '  field SYTCUP_LCXCPTYP 22 16 ebcdic hint none - "zpmd" ""\n'
                'end\n')


main()
