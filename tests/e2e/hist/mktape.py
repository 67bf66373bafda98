#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a VM/370 Monitor tape as an AWSTAPE image, byte by byte from the documents
(VM/370 R6 SPG App. C pp. 358-364 and DA&CBL MN097, MN600; AWSTAPE: 6-byte
little-endian chunk headers): a tape header (CPU serial 023456, session 06/15/82
10:30:00) and a class 6 code 0 record (MONITOR START TAPE), then four intervals 60 s
apart of class 0 code 0 (138 bytes, as long as a real one: the SPG's 84 bytes of
data, then 42 bytes no field declares), class 0 code 1 (counters base+k) and class 6
code 1 (devices 0190 and 0231), then two tape marks.  usage: mktape.py OUT"""
import struct, sys, calendar
def ebc(s, n):
    t = {**{str(i): 0xF0+i for i in range(10)}, '/': 0x61, ':': 0x7A, ' ': 0x40}
    for i, c in enumerate('ABCDEFGHI'): t[c] = 0xC1+i
    for i, c in enumerate('JKLMNOPQR'): t[c] = 0xD1+i
    for i, c in enumerate('STUVWXYZ'): t[c] = 0xE2+i
    s = s.ljust(n)
    return bytes(t[c] for c in s)
def tod(unix): return ((unix + 2208988800) * 1000000) << 12
def mnh(length, cls, code, t):
    return struct.pack('>HHBH', length, 0, cls, code) + ((t >> 16) & 0xFFFFFFFFFF).to_bytes(5, 'big')
T0 = calendar.timegm((1982, 6, 15, 10, 30, 0, 0, 0, 0))
hdr = mnh(80, 0, 97, tod(T0)) + bytes([0, 2, 0x34, 0x56, 0x31, 0x68, 0, 0]) + ebc('REL6', 8) + \
    ebc('06/15/82', 8) + ebc('10:30:00', 8) + ebc('OPERATOR', 8) + struct.pack('>IIIIIIHH', 0xC100, 0x34000, 0x10000, 0xF00000, 0x2000, 0, 0, 1)
def c0c0(t, base):
    return mnh(138, 0, 0, tod(t)) + b''.join(struct.pack('>Q', (1000 + i) << 12) for i in range(4)) + \
        b''.join(struct.pack('>I', base + k) for k in range(13)) + b'\xee' * 42
def c0c1(t, base):  # 4 doublewords (times), 19 fullwords: NXR, CSV, PRD, PWR, ...
    return mnh(120, 0, 1, tod(t)) + b''.join(struct.pack('>Q', (2000 + i) << 12) for i in range(4)) + \
        b''.join(struct.pack('>I', base + k) for k in range(19))
def c6(t, code, devs):  # MN600NUM, then per device: address, type, volser, I/O count
    return mnh(14 + 14 * len(devs), 6, code, tod(t)) + struct.pack('>H', len(devs)) + \
        b''.join(struct.pack('>HH', a, 0x3330) + ebc('VMSYS', 6) + struct.pack('>I', n) for a, n in devs)
def interval(i):  # i = 1..4, at T0 + 60 i
    t = T0 + 60 * i
    return c0c0(t, 100 + 10 * (i - 1)) + c0c1(t, 1000 + 10 * (i - 1)) + \
        c6(t, 1, [(0x0190, 5000 + 100 * i), (0x0231, 7000 + 10 * i)])
out, prev = bytearray(), 0
blocks = [hdr + c6(T0, 0, [(0x0190, 5000), (0x0231, 7000)]) + interval(1)] + [interval(i) for i in range(2, 5)]
for recs in blocks:
    b = struct.pack('>HH', len(recs) + 4, 0) + recs
    out += struct.pack('<HHBB', len(b), prev, 0xA0, 0) + b
    prev = len(b)
out += struct.pack('<HHBB', 0, prev, 0x40, 0) + struct.pack('<HHBB', 0, 0, 0x40, 0)
open(sys.argv[1], 'wb').write(out)
