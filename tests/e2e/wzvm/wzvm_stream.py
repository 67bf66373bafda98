#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Decode what write_zvm wrote, independently of the C code under test.

Written from doc/write_zvm.md and doc/facts/kernel-drivers.md 2: a byte stream of
13-byte monwrite_hdr + datalen bytes, buffers keyed by (applid, record_num,
version, release, mod_level), STOP carries no data; each buffer holds one
write_zvm record.
"""
import struct
import sys

TOD_UNIX_EPOCH = 0x7D91048BCA000000


def tod_to_unix(tod):
    return ((tod - TOD_UNIX_EPOCH) >> 12) / 1e6


def parse_stream(b):
    """Replay the driver: returns {key: data} of the buffers left started, and op counts."""
    bufs, ops, off = {}, {"start": 0, "update": 0, "stop": 0}, 0
    while off < len(b):
        if len(b) - off < 13:
            raise ValueError("stream ends inside a monwrite_hdr at %d" % off)
        fn, applid, rec, ver, rel, mod, datalen, hdrlen = struct.unpack_from(">BHBHHHHB", b, off)
        if hdrlen != 13 or fn > 3 or datalen > 4010:
            raise ValueError("invalid monwrite_hdr at %d" % off)
        off += 13
        key = (applid, rec, ver, rel, mod)
        if fn == 1:
            if key in bufs:
                del bufs[key]
                ops["stop"] += 1
            continue
        data = b[off:off + datalen]
        off += datalen
        if key in bufs:
            if len(bufs[key]) != datalen:
                raise ValueError("update of %r with another datalen" % (key,))
            ops["update"] += 1
        else:
            ops["start"] += 1
        bufs[key] = data
    return bufs, ops


def decode_record(d):
    """Header, trailer and entries of one record (doc/write_zvm.md, format 1)."""
    if d[0:4] != b"WZVM":
        raise ValueError("no eyecatcher")
    ver, flags, hdr_len, ts, sync1, n, used, ival, idx, total = struct.unpack_from(">BBHQIHHIHH", d, 4)
    if ver != 1 or hdr_len != 96 or used > len(d) - 4:
        raise ValueError("bad header")
    host = d[32:96].split(b"\0", 1)[0].decode("ascii")
    sync2 = struct.unpack_from(">I", d, len(d) - 4)[0]
    entries, off = [], 96
    for _ in range(n):
        elen, dst, fl, di, dc = struct.unpack_from(">HBBBB", d, off)
        t, raw = struct.unpack_from(">QQ", d, off + 8)
        names, p = [], off + 24
        for _ in range(5):
            ln = d[p]
            names.append(d[p + 1:p + 1 + ln].decode("ascii"))
            p += 1 + ln
        if p - off != elen:
            raise ValueError("entry length")
        if dst == 1:
            value = struct.unpack(">d", struct.pack(">Q", raw))[0]
        elif dst == 2:
            value = struct.unpack(">q", struct.pack(">Q", raw))[0]
        else:
            value = raw
        entries.append(dict(ds_type=dst, flags=fl, ds_index=di, ds_count=dc, time=tod_to_unix(t),
                            value=value, plugin=names[0], plugin_instance=names[1], type=names[2],
                            type_instance=names[3], ds_name=names[4]))
        off += elen
    if off != used:
        raise ValueError("used disagrees with the entries")
    return dict(host=host, timestamp=tod_to_unix(ts), sync1=sync1, sync2=sync2, index=idx,
                total=total, interval_ms=ival, entries=entries)


if __name__ == "__main__":
    bufs, ops = parse_stream(open(sys.argv[1], "rb").read())
    print(ops)
    for k in sorted(bufs):
        r = decode_record(bufs[k])
        print(k, r["host"], r["index"], r["total"], len(r["entries"]), r["sync1"], r["sync2"])
