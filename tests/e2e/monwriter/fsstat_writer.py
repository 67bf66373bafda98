#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A mon_fsstatd-like writer: what s390-tools' mon_fsstatd writes to
/dev/monwriter (doc/facts/kernel-drivers.md 2.1, doc/facts/s390-tools.md 2), into a plain file.

usage: fsstat_writer.py OUT TRUTH.json PASSES [--bad]

Each pass: one START_INTERVAL record per file system (applid 1, record 0,
mod level 0, 2, ... for the 602-byte buffers), 13-byte header + 589 bytes:
the 12-byte header (Unix seconds, data_len, data_offset 12), three u16
length-prefixed strings, nine u64 statvfs values, zeros.  The last pass
writes one file system fewer and STOPs the freed buffer, as mon_fsstatd
does.  TRUTH lists every record written (pass, mod level, time, mount
point, statvfs).  --bad appends what the driver refuses: an unknown
mon_function, hdrlen 14, datalen 4011, a buffer rewritten with another
size, a START with no data, and a cut-off header.
"""
import json, os, struct, sys

HDR = struct.Struct(">BHBHHHHB")  # struct monwrite_hdr, 13 bytes


def hdr(fn, applid, rec, mod, datalen, hdrlen=13):
    return HDR.pack(fn, applid, rec, 0, 0, mod, datalen, hdrlen)


def fs_data(ts, dev, mnt, typ, sv):
    body = b"".join(struct.pack(">H", len(s)) + s for s in (dev, mnt, typ))
    body += struct.pack(">9Q", *sv)
    d = struct.pack(">QHH", ts, len(body), 12) + body
    return d + bytes(589 - len(d))


def main(a):
    out, truth, passes, bad = a[0], a[1], int(a[2]), "--bad" in a
    st = os.statvfs("/")
    sv = [st.f_bsize, st.f_frsize, st.f_blocks, st.f_bfree, st.f_bavail, st.f_files,
          st.f_ffree, st.f_favail, st.f_flag]
    fss = [(b"/dev/dasda1", b"/", b"ext4"), (b"/dev/dasdb1", b"/var", b"xfs"),
           (b"/dev/dasdc1", b"/srv/data", b"ext4")]
    recs = []
    with open(out, "wb") as f:
        for p in range(passes):
            ts = 1795305600 + 60 * p
            n = len(fss) - (1 if p == passes - 1 else 0)
            for i in range(n):
                v = list(sv)
                v[3] -= i * 1000 + p  # bfree moves from pass to pass
                v[4] = min(v[4], v[3])
                f.write(hdr(0, 1, 0, 2 * i, 589) + fs_data(ts, *fss[i], v))
                recs.append({"pass": p, "mod": 2 * i, "time": ts, "dir": fss[i][1].decode(),
                             "statvfs": v})
            if n < len(fss):
                f.write(hdr(1, 1, 0, 2 * n, 0))  # STOP the buffer no longer used
        if bad:
            f.write(hdr(7, 1, 0, 0, 0))                     # unknown mon_function
            f.write(hdr(0, 1, 0, 40, 4, hdrlen=14) + b"abcd")  # hdrlen 14
            f.write(hdr(0, 1, 0, 42, 4011) + bytes(4011))    # datalen above 4010
            f.write(hdr(0, 1, 0, 0, 100) + bytes(100))       # mod 0 exists with 589 bytes
            f.write(hdr(0, 1, 0, 44, 0))                     # START without data
            f.write(hdr(0, 1, 0, 46, 589)[:7])               # cut off
    json.dump(recs, open(truth, "w"))


main(sys.argv[1:])
