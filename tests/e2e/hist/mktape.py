#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a VM/370 Monitor tape as an AWSTAPE image, byte by byte from the documents
(VM/370 R6 SPG App. C and DA&CBL MN097; AWSTAPE: 6-byte little-endian chunk headers):
a tape header (CPU serial 023456, session 06/15/82 10:30:00) and four class 0 code 0
records 60 s apart, counters base+k, then two tape marks.  usage: mktape.py OUT"""
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
    return mnh(96, 0, 0, tod(t)) + b''.join(struct.pack('>Q', (1000 + i) << 12) for i in range(4)) + \
        b''.join(struct.pack('>I', base + k) for k in range(13))
out, prev = bytearray(), 0
blocks = [hdr + c0c0(T0 + 60, 100)] + [c0c0(T0 + 60 * (i + 2), 100 + 10 * (i + 1)) for i in range(3)]
for recs in blocks:
    b = struct.pack('>HH', len(recs) + 4, 0) + recs
    out += struct.pack('<HHBB', len(b), prev, 0xA0, 0) + b
    prev = len(b)
out += struct.pack('<HHBB', 0, prev, 0x40, 0) + struct.pack('<HHBB', 0, 0, 0x40, 0)
open(sys.argv[1], 'wb').write(out)
