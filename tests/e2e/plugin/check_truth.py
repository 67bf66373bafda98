#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare what collectd wrote (csv) with zvmsim's ground truth (JSON Lines).

usage: check_truth.py TRUTH.jsonl CSVDIR JSONLOG [--skip-intervals a,b,...] [--min N] [--cp-min N]

Linux guests (kernel APPLDATA MEM, OS, NET_SUM; host = userid lower-cased):
  every csv row must equal the truth value at the guest's own timestamp (GAUGE
  exactly as csv prints it, DERIVE as the raw counter), and every truth sample
  of an interval not listed in --skip-intervals must be there.
CP data: host = the system id from D1R4 lower-cased; every time written under
  plugin zvm equals the TOD of a record zvmsim produced; zvm-storage/memory-free
  equals SYTRSG_RSAAVAIL x 4096 (at least --cp-min rows).
write_log JSON: every zvm value list carries the D1R9 interval.
"""
import glob, json, os, sys

EPOCH_US = 2208988800 * 1000000

def unix(tod):
    return ((tod >> 12) - EPOCH_US) / 1e6

def loadavg(a):
    """As the guest's /proc/loadavg prints it (and collectd's load plugin reads it):
    LOAD_INT(a).LOAD_FRAC(a), FSHIFT 11; the record's avenrun already holds FIXED_1/200."""
    return float("%d.%02d" % (a >> 11, ((a & 2047) * 100) >> 11))

def main(a):
    truth, csvdir, jsonlog = a[0], a[1], a[2]
    skip, minimum, cp_min = set(), 1, 0
    i = 3
    while i < len(a):
        if a[i] == "--skip-intervals":
            skip = {int(x) for x in a[i + 1].split(",") if x}
            i += 2
        elif a[i] == "--min":
            minimum = int(a[i + 1]); i += 2
        elif a[i] == "--cp-min":
            cp_min = int(a[i + 1]); i += 2
        else:
            sys.exit("check_truth.py: unknown argument " + a[i])
    expect = {}      # (ident, time) -> (values, interval)
    cp_tods, system, interval = set(), None, None
    seen_ts = set()
    rsg = {}  # D0R3 time -> SYTRSG_RSAAVAIL (frames)
    # A guest that runs mon_procd gets ps_state-blocked from its task records, not from
    # the kernel's nr_iowait (doc/plugin.md): those are not checked here.
    procd = set()
    for line in open(truth):
        r = json.loads(line)
        if r.get("payload_layout") == "LNXAPPL.2.0":
            procd.add(r["fields"]["APLSDT_USERID"].strip().lower())
    for line in open(truth):
        r = json.loads(line)
        if "domain" not in r:
            continue  # zvmsim's own summary lines
        d, rec = r["domain"], r["record"]
        if d == 1 and rec == 4:
            system = r["fields"]["MTRSYS_SYSTMID"].strip().lower()
        if d == 1 and rec == 9:
            interval = float(r["fields"]["MTRSPR_INTERVAL"])
        if d != 10:
            cp_tods.add(round(unix(r["tod"]), 3))
            if d == 0 and rec == 3 and "SYTRSG_RSAAVAIL" in r.get("fields", {}):
                rsg[round(unix(r["tod"]), 3)] = r["fields"]["SYTRSG_RSAAVAIL"]
            continue
        p, lay = r.get("payload"), r.get("payload_layout", "")
        if not p or not lay.startswith("LINUXKRNL") or p["sync_count_1"] != p["sync_count_2"]:
            continue
        host = r["fields"]["APLSDT_USERID"].strip().lower()
        key = (host, lay, p["timestamp"])
        if key in seen_ts:      # stale: reported once
            continue
        seen_ts.add(key)
        t = unix(p["timestamp"])
        iv = r["interval"]
        def put(ident, *vals):
            expect[(host + "/" + ident, t)] = (list(vals), iv)
        g = lambda v: "%.6f" % v
        if lay == "LINUXKRNL.MEM":
            used = max(0, p["totalram"] - p["freeram"] - p["bufferram"] - p["cached"])
            put("memory/memory-used", g(used * 1024))
            put("memory/memory-free", g(p["freeram"] * 1024))
            put("memory/memory-buffered", g(p["bufferram"] * 1024))
            put("memory/memory-cached", g(p["cached"] * 1024))
            put("swap/swap-free", g(p["freeswap"] * 1024))
            put("swap/swap_io-in", str(p["pswpin"]))
            put("vmem/vmpage_io-memory", str(p["pgpgin"]), str(p["pgpgout"]))
            put("vmem/vmpage_faults", str(p["pgfault"]), str(p["pgmajfault"]))
        elif lay == "LINUXKRNL.OS":
            put("load/load", g(loadavg(p["avenrun_1"])), g(loadavg(p["avenrun_5"])),
                g(loadavg(p["avenrun_15"])))
            put("processes/ps_state-running", g(p["nr_running"]))
            if host not in procd:
                put("processes/ps_state-blocked", g(p["nr_iowait"]))
        elif lay == "LINUXKRNL.NET":
            put("interface-all/if_octets", str(p["rx_bytes"]), str(p["tx_bytes"]))
            put("interface-all/if_packets", str(p["rx_packets"]), str(p["tx_packets"]))
            put("interface-all/if_errors", str(p["rx_errors"]), str(p["tx_errors"]))
    bad = 0
    got = {}
    idents = {k[0] for k in expect}
    for ident in idents:
        for f in glob.glob(os.path.join(csvdir, ident + "-*")):
            for line in open(f):
                if line.startswith("epoch"):
                    continue
                q = line.strip().split(",")
                got[(ident, float(q[0]))] = q[1:]
    def near(ident, t):
        for dt in (0, -0.001, 0.001):
            v = got.get((ident, round(t + dt, 3)))
            if v is not None:
                return v
        return None
    byident = {}
    for (ident, t), (vals, iv) in expect.items():
        byident.setdefault(ident, []).append(t)
    # A: every written row equals the truth at its time.
    written = 0
    for (ident, t), vals in got.items():
        written += 1
        cand = [e for e in byident.get(ident, []) if abs(e - t) < 0.0015]
        if not cand:
            print(f"EXTRA   {ident} at {t}: {vals} (no truth sample at that time)")
            bad += 1
        elif expect[(ident, cand[0])][0] != vals:
            print(f"WRONG   {ident} at {t}: got {vals}, truth {expect[(ident, cand[0])][0]}")
            bad += 1
    # B: completeness outside the faulty intervals.
    missing = 0
    for (ident, t), (vals, iv) in expect.items():
        if iv in skip:
            continue
        if near(ident, t) is None:
            missing += 1
            if missing <= 10:
                print(f"MISSING {ident} at {t:.3f} (interval {iv})")
    bad += missing
    if written < minimum:
        print(f"FEW     only {written} guest values written")
        bad += 1
    # CP: host and record times.
    if not system:
        print("TRUTH   no D1R4 system id"); bad += 1
    else:
        cpdir = os.path.join(csvdir, system)
        files = glob.glob(os.path.join(cpdir, "zvm-*", "*"))
        if not files:
            print(f"CP      no zvm-* series under host {system}")
            bad += 1
        for f in files:
            for line in open(f):
                if line.startswith("epoch"):
                    continue
                t = round(float(line.split(",")[0]), 3)
                if t not in cp_tods and round(t - 0.001, 3) not in cp_tods and round(t + 0.001, 3) not in cp_tods:
                    print(f"CPTIME  {f}: time {t} is no record TOD")
                    bad += 1
                    break
    # A CP gauge against the truth: zvm-storage/memory-free = SYTRSG_RSAAVAIL x 4096
    # at the D0R3 record's TOD (held back by the cp module until its law holds).
    if system:
        n_cp = 0
        for f in glob.glob(os.path.join(csvdir, system, "zvm-storage", "memory-free-*")):
            for line in open(f):
                if line.startswith("epoch"):
                    continue
                q = line.strip().split(",")
                t = round(float(q[0]), 3)
                want = rsg.get(t, rsg.get(round(t - 0.001, 3), rsg.get(round(t + 0.001, 3))))
                n_cp += 1
                if want is None or q[1] != "%.6f" % (want * 4096.0):
                    print(f"CPVALUE zvm-storage/memory-free at {t}: {q[1]}, truth {want} frames")
                    bad += 1
        if n_cp < cp_min:
            print(f"CP      only {n_cp} zvm-storage/memory-free values (want {cp_min})")
            bad += 1
        else:
            print(f"check_truth.py: {n_cp} zvm-storage/memory-free values equal SYTRSG_RSAAVAIL x 4096")
    # Interval from write_log JSON.
    n_iv = 0
    for line in open(jsonlog):
        s = line.find("[{")
        if s < 0:
            continue
        for vl in json.loads(line[s:]):
            # the plugin's own: its counters and a replay's pacing markers (collectd's interval)
            if vl.get("plugin_instance") in ("reader", "replay"):
                continue
            n_iv += 1
            if interval is None or abs(vl["interval"] - interval) > 1e-6:
                print(f"INTERVAL {vl['host']}/{vl['plugin']}/{vl['type']}: {vl['interval']} != {interval}")
                bad += 1
                break
    print(f"check_truth.py: {len(expect)} truth values, {written} written, {n_iv} value lists "
          f"with interval {interval}, system {system}, {bad} problems")
    return 1 if bad else 0

sys.exit(main(sys.argv[1:]))
