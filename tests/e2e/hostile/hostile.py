#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A hostile guest (EVIL01) on zvmsim's monwriter, and the driver of the run.

usage: hostile.py MOUNT SUMMARY.json --pid COLLECTD_PID --system HOST --collector HOST
                  [--intervals N] [--flood N] [--pace S] [--early K]

Everything written here is built by hand from doc/write_zvm.md (record format
1: 96-byte header, 24-byte entries with five length-prefixed names, trailer
sync_count_2 at datalen - 4), from the 13-byte monwrite_hdr
(doc/facts/kernel-drivers.md 2) and from the LNXAPPL header of s390-tools
(doc/appldata.md: time_stamp u64, data_len u16, data_offset u16).  No code of
the project is used to make the bytes.

Each crafted record lives in a monwriter buffer of its own (its own mod
level), so that CP shows it once per sample interval and the reader's verdict
on it does not depend on its neighbours.  The driver requests every sample
interval itself (zvmsim --interval 0, "interval" on the control file), waits
until the reader has taken the data set, samples collectd's VmRSS, and knows
exactly which buffers CP showed in each interval.  From that it computes the
counters the zvm plugin must report (appl_bad, appl_sync) and writes them,
with everything the checker needs, to SUMMARY.json.  At the end it stops
collectd (SIGTERM) while the monwriter file is still open, so that the STOP
events of the close are not part of the counted run.
"""
import argparse
import errno
import json
import os
import signal
import struct
import sys
import time

# ---- the formats, from the documents ------------------------------------------------

TOD_UNIX_EPOCH = 0x7D91048BCA000000  # TOD of 1970-01-01 (bit 51 = 1 us)
START_INTERVAL, STOP, GEN_EVENT, START_CONFIG = 0, 1, 2, 3
WZVM_APPLID = 0x7A76
DATALEN = 4010
GAUGE, DERIVE, COUNTER, ABSOLUTE = 1, 2, 0, 3


def tod(unix_s):
    return TOD_UNIX_EPOCH + (int(round(unix_s * 1e6)) << 12)


def mwhdr(fn, applid, rec, ver, rel, mod, datalen):
    """monwrite_hdr: mon_function, applid, record_num, version, release, mod_level, datalen, hdrlen."""
    return struct.pack(">BHBHHHHB", fn, applid, rec, ver, rel, mod, datalen, 13)


def B(s):
    return s if isinstance(s, bytes) else s.encode("ascii")


def entry(plugin, pinst, type_, tinst, ds, value, t, ds_type=GAUGE, ds_index=0, ds_count=1,
          flags=0, elen_delta=0, elen=None):
    """One WZVM.ENTRY: entry_len, ds_type, flags, ds_index, ds_count, reserved, time, value, names."""
    names = b"".join(bytes([len(B(n))]) + B(n) for n in (plugin, pinst, type_, tinst, ds))
    if ds_type == GAUGE:
        v = struct.pack(">d", value)
    elif ds_type == DERIVE:
        v = struct.pack(">q", value)
    else:
        v = struct.pack(">Q", value & 0xFFFFFFFFFFFFFFFF)
    n = 24 + len(names) + elen_delta if elen is None else elen
    return struct.pack(">HBBBBHQ", n, ds_type, flags, ds_index, ds_count, 0, tod(t)) + v + names


def record(entries, ts, sync1, sync2=None, host="", host_raw=None, datalen=DATALEN,
           nentries=None, used=None, version=1, hdr_len=96, rec_index=0, rec_total=1):
    """One write_zvm record of datalen bytes; the optional arguments are the lies."""
    body = b"".join(entries)
    real_used = 96 + len(body)
    assert real_used <= datalen - 4, "entries do not fit"
    hb = host_raw if host_raw is not None else B(host).ljust(64, b"\0")
    assert len(hb) == 64
    hdr = b"WZVM" + struct.pack(">BBHQIHHIHH", version, 0, hdr_len, tod(ts), sync1 & 0xFFFFFFFF,
                                len(entries) if nentries is None else nentries,
                                real_used if used is None else used, 1000, rec_index, rec_total)
    d = bytearray(datalen)
    d[0:96] = hdr + hb
    d[96:real_used] = body
    d[datalen - 4:] = struct.pack(">I", (sync1 if sync2 is None else sync2) & 0xFFFFFFFF)
    return bytes(d)


def lnxappl(secs, body, datalen, data_offset=12, data_len=None):
    """s390-tools LNXAPPL data: time_stamp (Unix s), data_len, data_offset, then the body."""
    h = struct.pack(">QHH", secs, len(body) if data_len is None else data_len, data_offset)
    d = bytearray(datalen)
    d[0:12] = h
    d[12:12 + len(body)] = body
    return bytes(d)


def fs_body(dev, mnt, typ, sv):
    s = b""
    for x in (dev, mnt, typ):
        s += struct.pack(">H", len(x)) + x
    return s + struct.pack(">9Q", *sv)


# ---- the device ---------------------------------------------------------------------


class Monwriter:
    def __init__(self, path):
        self.fd = os.open(path, os.O_WRONLY)
        self.writes = 0

    def put(self, fn, mod, data=b"", applid=WZVM_APPLID, rec=1, ver=1, rel=0, datalen=None):
        """One write() of header and data; returns 0 or the errno."""
        n = len(data) if datalen is None else datalen
        try:
            os.write(self.fd, mwhdr(fn, applid, rec, ver, rel, mod, n) + data)
            self.writes += 1
            return 0
        except OSError as e:
            return e.errno

    def close(self):
        os.close(self.fd)


def must(rc, what):
    if rc:
        sys.exit("hostile.py: %s: %s" % (what, os.strerror(rc)))


# ---- the crafted records -------------------------------------------------------------
#
# Every record carries at least one entry that would be valid on its own, named
# plugin "<plugin>-<record name>" or with plugin_instance <record name>, so that
# the checker can tell from the csv tree whether anything of a refused record got
# through.  kind: what the reader must do with the whole record each time CP
# shows it:
#   ok      dispatched (subject to the rules on host and plugin names)
#   bad     dropped, counted in appl_bad
#   sync    dropped, counted in appl_sync
#   quirk   an update whose datalen differs from the buffer's: what CP shows
#           depends on the driver's quirk; counted in one of the two or valid


def long_name(n, c="n"):
    return (c * n)[:n]


def specials(cfg):
    """(name, kind, applid, builder(ts, k) -> data, expectation) for every crafted buffer."""
    sysh, coll = cfg.system, cfg.collector
    out = []

    def wz(name, kind, build, expect):
        out.append((name, kind, WZVM_APPLID, build, expect))

    def good(name, host, plugin, pinst, expect, extra=()):
        def build(ts, k):
            es = [entry(plugin, pinst, "gauge", "", "value", 1000.0 + k, ts)]
            es += [f(ts, k) for f in extra]
            return record(es, ts, k, host=host)
        wz(name, "ok", build, expect)

    # Values the guest may publish: NaN, infinities, counters going backwards, name
    # lengths 0 and 63, odd but legal characters, a 3-value type.
    def own(ts, k):
        es = [
            entry("hostile", "nan", "gauge", "", "value", float("nan"), ts),
            entry("hostile", "inf", "gauge", "", "value", float("inf"), ts),
            entry("hostile", "ninf", "gauge", "", "value", float("-inf"), ts),
            entry("hostile", "backwards", "derive", "", "value", 10**9 - 1000 * k, ts, DERIVE),
            entry("hostile", "backwards", "counter", "", "value", 2**64 - 1 - k if k % 2 else k, ts,
                  COUNTER),
            entry("hostile", "absolute", "absolute", "", "value", 2**63 + k, ts, ABSOLUTE),
            entry("hostile", "", "gauge", long_name(63, "t"), "value", 1.0, ts),
            entry("hostile", long_name(63, "p"), "gauge", "", "value", 2.0, ts),
            entry("hostile", "sp ace", "gauge", "~!@#$%^&*()_+={}[]|\\:;\"'<>,.?`", "value", 3.0, ts),
        ]
        for i, dsn in enumerate(("shortterm", "midterm", "longterm")):
            es.append(entry("hostile", "load", "load", "", dsn, 0.5 * (i + 1), ts, GAUGE, i, 3))
        # Time going backwards for one identifier: the older value is not dispatched.
        es.append(entry("hostile", "timeback", "gauge", "", "value", k, ts - (1000 if k % 2 else 0)))
        return record(es, ts, k)
    wz("own", "ok", own, {"own": ["hostile-nan/gauge", "hostile-inf/gauge", "hostile-ninf/gauge",
                                  "hostile-backwards/derive", "hostile-backwards/counter",
                                  "hostile-absolute/absolute", "hostile/gauge-" + long_name(63, "t"),
                                  "hostile-" + long_name(63, "p") + "/gauge",
                                  "hostile-load/load", "hostile-timeback/gauge"]})

    # Host claims.  The guest is trusted (TrustedGuestHost) with every one of these
    # names, so only the rules "never the system's, the collector's or another
    # guest's host" stand between it and them; "evilfwd" is the one it may use.
    for name, host in (("claim-system", sysh), ("claim-system-uc", sysh.upper()),
                       ("claim-collector", coll), ("claim-collector-uc", coll.upper()),
                       ("claim-guest", "linux001"), ("claim-guest-uc", "LINUX001"),
                       ("claim-guest-mixed", "Linux001"), ("claim-guest2", "linux002")):
        # memory/memory-used with a time ten years ahead: were the claim taken, the
        # claimed host's own memory-used values would all be older from then on.
        good(name, host, "claim", name, {"refused_host": ["claim-" + name + "/gauge"]},
             extra=[lambda ts, k: entry("memory", "", "memory", "used", "value", 666.0,
                                        ts + 10 * 365 * 86400),
                    lambda ts, k: entry("zvm-system", "", "gauge", "", "value", 666.0, ts)])
    good("claim-trusted", "evilfwd", "claim", "claim-trusted",
         {"fwd": ["claim-claim-trusted/gauge"]})
    good("claim-empty", "", "claim", "claim-empty", {"own": ["claim-claim-empty/gauge"]})

    # The reader's own plugin names, under the guest's host and under claimed ones.
    for name, plugin, host in (("zvm", "zvm", ""), ("zvm-uc", "ZVM", ""),
                               ("zvm-reader", "zvm", ""), ("zvmfoo", "zvmfoo", ""),
                               ("vm370", "vm370", ""), ("vm370-uc", "VM370", ""),
                               ("zvm-at-system", "zvm", sysh), ("vm370-at-collector", "vm370", coll)):
        def build(ts, k, plugin=plugin, host=host, name=name):
            pinst = "reader" if name == "zvm-reader" else name
            return record([entry(plugin, pinst, "total_values", "series_capped", "value", 0, ts,
                                 DERIVE)], ts, k, host=host)
        wz("reserved-" + name, "ok", build, {"reserved": [name]})
    # The same names spelt as plugin "vm370-x" / "zvm-x": the identifier
    # evil01/vm370-tape/... is what plugin "vm370", instance "tape" would give.
    wz("reserved-vm370-dash", "ok",
       lambda ts, k: record([entry("vm370-tape", "", "gauge", "", "value", 1.0, ts)], ts, k),
       {"reserved_dash": ["vm370-tape/gauge"]})
    # A plugin name ".." : in the csv tree evil01/../gauge is outside the guest's host.
    wz("dotdot", "ok",
       lambda ts, k: record([entry("..", "", "gauge", "dotdot", "value", 1.0, ts)], ts, k),
       {"dotdot": ["../gauge-dotdot"]})
    # Plugin names collectd's write_prometheus serves unescaped, as a metric name and a
    # label name beside its own "instance": Prometheus would refuse its whole page.
    wz("prom-names", "ok",
       lambda ts, k: record([entry("my.app", "x", "gauge", "", "value", 1.0, ts),
                             entry("instance", "x", "gauge", "", "value", 1.0, ts)], ts, k),
       {"prom_names": ["my.app-x/gauge", "instance-x/gauge"]})
    # A type collectd does not know: refused by collectd, per value.
    wz("unknown-type", "ok",
       lambda ts, k: record([entry("hostile", "unknowntype", "no_such_type_x", "", "value", 1.0, ts)],
                            ts, k),
       {"unknown_type": ["hostile-unknowntype/no_such_type_x"]})

    # Groups that break the ds_index / ds_count rule inside otherwise valid records:
    # nothing of the record may be dispatched (doc/plugin.md: a guest cannot make the
    # plugin dispatch part of a record), and the record is counted in appl_bad.
    wz("partial-order", "bad", lambda ts, k: record([
        entry("partial", "order-ok", "gauge", "", "value", 1.0, ts),
        entry("partial", "order-bad", "if_octets", "", "tx", 5, ts, DERIVE, 1, 2)], ts, k),
       {"absent": ["partial-order-ok/gauge", "partial-order-bad/if_octets"]})
    wz("partial-incomplete", "bad", lambda ts, k: record([
        entry("partial", "incomplete-bad", "if_octets", "", "rx", 5, ts, DERIVE, 0, 2),
        entry("partial", "incomplete-ok", "gauge", "", "value", 1.0, ts)], ts, k),
       {"absent": ["partial-incomplete-ok/gauge", "partial-incomplete-bad/if_octets"]})
    wz("partial-trailing", "bad", lambda ts, k: record([
        entry("partial", "trailing-ok", "gauge", "", "value", 1.0, ts),
        entry("partial", "trailing-bad", "if_octets", "", "rx", 5, ts, DERIVE, 0, 2)], ts, k),
       {"absent": ["partial-trailing-ok/gauge", "partial-trailing-bad/if_octets"]})

    # Records that break the format: dropped whole, counted in appl_bad.
    def bad(name, make):
        wz(name, "bad", make, {"absent": ["badrec-" + name + "/gauge"]})

    def okent(name, ts):
        return entry("badrec", name, "gauge", "", "value", 1.0, ts)

    for name, pl, pi, ty, ti in (("slash", "a/b", "", "gauge", ""),
                                 ("ctrl", "hostile", "", "gauge", "x\x01y"),
                                 ("del", "hostile", "x\x7f", "gauge", ""),
                                 ("nonascii", "hostile", b"caf\xc3\xa9", "gauge", ""),
                                 ("high", b"\xff\xfe", "", "gauge", ""),
                                 ("plugin-len0", "", "x", "gauge", ""),
                                 ("type-len0", "hostile", "", "", ""),
                                 ("len64", "hostile", long_name(64), "gauge", ""),
                                 ("len127", "hostile", "", "gauge", long_name(127)),
                                 ("len128", long_name(128), "", "gauge", "")):
        bad(name, lambda ts, k, n=name, a=(pl, pi, ty, ti): record(
            [okent(n, ts), entry(a[0], a[1], a[2], a[3], "value", 1.0, ts)], ts, k))
    bad("dsname-len0", lambda ts, k: record(
        [okent("dsname-len0", ts), entry("hostile", "", "gauge", "", "", 1.0, ts)], ts, k))
    bad("host-64", lambda ts, k: record([okent("host-64", ts)], ts, k, host_raw=b"h" * 64))
    bad("host-slash", lambda ts, k: record([okent("host-slash", ts)], ts, k, host="linux001/../x"))
    bad("host-ctrl", lambda ts, k: record([okent("host-ctrl", ts)], ts, k, host="evil\n01"))
    bad("host-junk", lambda ts, k: record(
        [okent("host-junk", ts)], ts, k, host_raw=b"ok\0junk".ljust(64, b"\0")))
    bad("elen-long", lambda ts, k: record(
        [okent("elen-long", ts), entry("hostile", "", "gauge", "", "value", 1.0, ts, elen=3000)], ts, k))
    bad("elen-short", lambda ts, k: record(
        [okent("elen-short", ts), entry("hostile", "", "gauge", "", "value", 1.0, ts, elen=10)], ts, k))
    bad("elen-plus1", lambda ts, k: record(
        [okent("elen-plus1", ts), entry("hostile", "", "gauge", "", "value", 1.0, ts, elen_delta=1),
         b"\0"], ts, k))
    bad("elen-minus1", lambda ts, k: record(
        [okent("elen-minus1", ts), entry("hostile", "", "gauge", "", "value", 1.0, ts, elen_delta=-1)],
        ts, k))
    bad("elen-zero", lambda ts, k: record(
        [okent("elen-zero", ts), entry("hostile", "", "gauge", "", "value", 1.0, ts, elen=0)], ts, k))
    bad("count-more", lambda ts, k: record([okent("count-more", ts)], ts, k, nentries=2))
    bad("count-less", lambda ts, k: record(
        [okent("count-less", ts), entry("hostile", "", "gauge", "", "value", 1.0, ts)], ts, k,
        nentries=1))
    bad("count-huge", lambda ts, k: record([okent("count-huge", ts)], ts, k, nentries=65535))
    bad("used-big", lambda ts, k: record([okent("used-big", ts)], ts, k, used=DATALEN))
    bad("used-max", lambda ts, k: record([okent("used-max", ts)], ts, k, used=65535))
    bad("used-small", lambda ts, k: record([okent("used-small", ts)], ts, k, used=50))
    bad("used-cut", lambda ts, k: record(
        [okent("used-cut", ts), entry("hostile", "", "gauge", "", "value", 1.0, ts)], ts, k,
        used=96 + 60))
    bad("used-more", lambda ts, k: record([okent("used-more", ts)], ts, k, used=96 + 200))
    for name, dst, fl, di, dc in (("dstype4", 4, 0, 0, 1), ("dstype255", 255, 0, 0, 1),
                                  ("rate-on-derive", DERIVE, 1, 0, 1), ("dscount0", GAUGE, 0, 0, 0),
                                  ("dsindex-ge-count", GAUGE, 0, 3, 3)):
        bad(name, lambda ts, k, n=name, a=(dst, fl, di, dc): record(
            [okent(n, ts), entry("hostile", "", "gauge", "", "value", 1, ts, a[0], a[2], a[3], a[1])],
            ts, k))
    bad("version2", lambda ts, k: record([okent("version2", ts)], ts, k, version=2))
    bad("hdrlen100", lambda ts, k: record([okent("hdrlen100", ts)], ts, k, hdr_len=100))
    wz("short", "bad", lambda ts, k: b"WZVM" + bytes(56), {"absent": []})

    # Torn copies: the two sync counters differ (appl_sync).
    wz("torn", "sync", lambda ts, k: record([okent("torn", ts)], ts, k, sync2=k + 1),
       {"absent": ["badrec-torn/gauge"]})
    wz("torn-wrap", "sync", lambda ts, k: record([okent("torn-wrap", ts)], ts, 0xFFFFFFFF, sync2=0),
       {"absent": ["badrec-torn-wrap/gauge"]})

    # s390-tools formats with lying lengths (applid 1 mon_fsstatd, 2 mon_procd).
    base = cfg.secs0

    def fs(name, make):
        out.append((name, "bad", 1, make, {"absent": ["df-" + name]}))
    sv = (4096, 4096, 1000, 500, 400, 100, 50, 50, 0)
    fs("fs-offset", lambda ts, k: lnxappl(base + k, fs_body(b"/dev/x", b"/fs-offset", b"ext4", sv),
                                          602, data_offset=4))
    fs("fs-datalen", lambda ts, k: lnxappl(base + k, fs_body(b"/dev/x", b"/fs-datalen", b"ext4", sv),
                                           602, data_len=4000))
    fs("fs-strlen", lambda ts, k: lnxappl(base + k, struct.pack(">H", 60000) + b"/dev/x", 602))
    fs("fs-statcut", lambda ts, k: lnxappl(
        base + k, fs_body(b"/dev/x", b"/fs-statcut", b"ext4", sv)[:-20], 602))
    fs("fs-free", lambda ts, k: lnxappl(
        base + k, fs_body(b"/dev/x", b"/fs-free", b"ext4", (4096, 4096, 10, 500, 400, 1, 1, 1, 0)), 602))
    fs("fs-time", lambda ts, k: lnxappl(
        2**63 + k, fs_body(b"/dev/x", b"/fs-time", b"ext4", sv), 602))
    # More malformed buffers than the plugin's memory of recent log messages (each
    # message names the buffer's product id, so each is a message of its own).
    for i in range(24):
        fs("fs-many-%d" % i, lambda ts, k, i=i: lnxappl(
            base + k, fs_body(b"/dev/x", b"/fs-many-%d" % i, b"ext4", sv), 602, data_offset=4))
    out.append(("procd-short", "bad", 2,
                lambda ts, k: lnxappl(base + k, bytes(20), 191), {"absent": ["uptime", "users"]}))
    return out


# ---- the run --------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mount")
    ap.add_argument("summary")
    ap.add_argument("--pid", type=int, required=True)
    ap.add_argument("--system", required=True)
    ap.add_argument("--collector", required=True)
    ap.add_argument("--intervals", type=int, default=40)
    ap.add_argument("--flood", type=int, default=100000)
    ap.add_argument("--pace", type=float, default=0.3)
    ap.add_argument("--early", type=int, default=10)
    ap.add_argument("--full-at", type=int, default=6)
    cfg = ap.parse_args()
    cfg.secs0 = int(time.time())
    ctl_path = os.path.join(cfg.mount, "control")
    status_path = os.path.join(cfg.mount, "status")

    def status():
        d = {}
        with open(status_path) as f:
            for line in f:
                k, _, v = line.partition(" ")
                d[k] = v.strip()
        return d

    def ctl(cmd):
        with open(ctl_path, "w") as f:
            f.write(cmd)

    def alive():
        try:
            with open("/proc/%d/status" % cfg.pid) as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            return None
        return None

    def drained(what):
        t0 = time.time()
        while status().get("queued") != "0":
            if time.time() - t0 > 20:
                sys.exit("hostile.py: the reader did not take the data sets (%s) within 20 s" % what)
            if alive() is None:
                sys.exit("hostile.py: collectd (pid %d) died (%s)" % (cfg.pid, what))
            time.sleep(0.02)

    mw = Monwriter(os.path.join(cfg.mount, "monwriter"))
    crafted = specials(cfg)
    exp = {"appl_bad": 0, "appl_sync": 0, "quirk": 0, "bad_records": 0, "sync_records": 0}
    rss = []
    flood_next = 0

    # Before the first sample interval: a trusted claim of a host that is another
    # guest's, at a moment when that guest's data have not been seen yet (a
    # GEN_EVENT is shown by CP at once, as D10R1 in an event set).
    now = time.time()
    race = record([entry("claim", "claim-guest2", "gauge", "", "value", 666.0, now)], now, 1,
                  host="linux002")
    must(mw.put(GEN_EVENT, 999, race), "GEN_EVENT")
    drained("event")

    # Flood: distinct identifiers, never seen again.  An entry is 24 + 5 + names.
    def flood_record(ts, k):
        nonlocal flood_next
        es, size = [], 96 + 4
        while flood_next < cfg.flood:
            e = entry("flood", "%x" % flood_next, "gauge", "", "value", float(flood_next), ts)
            if size + len(e) > DATALEN:
                break
            es.append(e)
            size += len(e)
            flood_next += 1
        return record(es, ts, k) if es else None

    active_flood = set()
    resized_len = [0]
    quirk_started = [False]
    enospc = full = None
    extra_bufs = []
    t_start = time.time()
    for k in range(1, cfg.intervals + 1):
        ts = time.time()
        nbad = nsync = nquirk = 0
        # 1. the crafted buffers, rewritten every interval with a new timestamp
        for i, (name, kind, applid, build, _) in enumerate(crafted):
            data = build(ts, k)
            rec = 0 if applid in (1, 2) else 1
            must(mw.put(START_INTERVAL, i, data, applid=applid, rec=rec), "START " + name)
            nbad += kind == "bad"
            nsync += kind == "sync"
        # 2. a record that changes size every interval: STOP, then START with another size
        sz = (4010, 1500, 600)[k % 3]
        if resized_len[0]:
            must(mw.put(STOP, 500), "STOP resized")
        must(mw.put(START_INTERVAL, 500, record(
            [entry("hostile", "resized", "gauge", "", "value", float(sz), ts)], ts, k, datalen=sz)),
            "START resized")
        resized_len[0] = sz
        # ... and one updated in place with another datalen (the driver consumes the
        # buffer's own datalen but places the bytes by the new one)
        if not quirk_started[0]:
            must(mw.put(START_INTERVAL, 501, record(
                [entry("hostile", "quirk", "gauge", "", "value", 1.0, ts)], ts, k)), "START quirk")
            quirk_started[0] = True
        else:
            r2 = record([entry("hostile", "quirk", "gauge", "", "value", 2.0, ts)], ts, k, datalen=2000)
            must(mw.put(START_INTERVAL, 501, bytes(DATALEN - 2000) + r2, datalen=2000), "quirk update")
            nquirk += 1
        # 3. the flood, from the second interval on (the crafted series come first, so
        # that they are within the guest's series cap)
        if k >= 2 and flood_next < cfg.flood:
            left = cfg.intervals - k + 1
            goal = flood_next + (cfg.flood - flood_next + left - 1) // left
            mods = []
            while flood_next < goal:
                data = flood_record(ts, k)
                if data is None:
                    break
                must(mw.put(START_INTERVAL, 1000 + len(mods), data), "START flood")
                mods.append(1000 + len(mods))
            for m in sorted(active_flood - set(mods)):
                must(mw.put(STOP, m), "STOP flood")
            active_flood = set(mods)
        elif active_flood:
            for m in sorted(active_flood):
                must(mw.put(STOP, m), "STOP flood")
            active_flood = set()
        # 4. once: every buffer the driver allows (max_bufs), then one more
        for m in extra_bufs:
            must(mw.put(STOP, m), "STOP extra")
        extra_bufs = []
        if k == cfg.full_at:
            have = int(status()["writer_buffers"])
            m = 2000
            while have < 255:
                data = flood_record(ts, k) or record(
                    [entry("hostile", "full", "gauge", "", "value", 1.0, ts)], ts, k)
                must(mw.put(START_INTERVAL, m, data), "START buffer %d" % (have + 1))
                extra_bufs.append(m)
                have += 1
                m += 1
            enospc = mw.put(START_INTERVAL, m, record(
                [entry("hostile", "onetoomany", "gauge", "", "value", 1.0, ts)], ts, k))
            full = int(status()["writer_buffers"])
        exp["appl_bad"] += nbad
        exp["appl_sync"] += nsync
        exp["quirk"] += nquirk
        ctl("interval")
        drained("interval %d" % k)
        time.sleep(cfg.pace)
        r = alive()
        if r is None:
            sys.exit("hostile.py: collectd (pid %d) is gone after interval %d" % (cfg.pid, k))
        rss.append((k, round(time.time() - t_start, 2), r, flood_next))
    exp["bad_records"] = sum(1 for c in crafted if c[1] == "bad")
    exp["sync_records"] = sum(1 for c in crafted if c[1] == "sync")

    # Two read callbacks of collectd (Interval 1) so that the self-metrics hold the end.
    time.sleep(2.5)
    rss.append(("end", round(time.time() - t_start, 2), alive(), flood_next))
    st = status()
    t0 = time.time()
    os.kill(cfg.pid, signal.SIGTERM)
    while alive() is not None and os.path.exists("/proc/%d" % cfg.pid):
        # a zombie (the shell has not reaped it yet) has no VmRSS: that is gone enough
        if time.time() - t0 > 15:
            break
        time.sleep(0.05)
    shutdown = time.time() - t0
    mw.close()

    summary = {
        "intervals": cfg.intervals, "flood": flood_next, "flood_requested": cfg.flood, "expect": exp, "rss_kb": rss,
        "early": cfg.early, "enospc": errno.errorcode.get(enospc, enospc) if enospc else None,
        "buffers_at_full": full,
        "monwriter_writes": mw.writes, "shutdown_s": round(shutdown, 2),
        "status": st, "system": cfg.system, "collector": cfg.collector,
        "records": [{"name": c[0], "kind": c[1], "expect": c[4]} for c in crafted],
        "seconds": round(time.time() - t_start, 1),
    }
    with open(cfg.summary, "w") as f:
        json.dump(summary, f, indent=1)
    print("hostile.py: %d intervals, %d flood identifiers, %d crafted buffers, %d monwriter writes, "
          "%.1f s" % (cfg.intervals, flood_next, len(crafted), mw.writes, summary["seconds"]))


if __name__ == "__main__":
    main()
