#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The verdict of check-hostile: collectd's csv tree, its log and the zvm
plugin's self-metrics against zvmsim's ground truth and what hostile.py wrote.

usage: check.py TRUTH.jsonl CSVDIR SUMMARY.json COLLECTD.log

1. The well-behaved guests (every Linux guest of zvmsim) lose nothing: under
   their hosts there are exactly the identifiers doc/plugin.md maps their
   kernel APPLDATA, mon_fsstatd and mon_procd records to, every csv row equals
   the truth at its time, and every truth sample is there.  Expected values
   are computed here from the truth's fields and data_hex with the documented
   arithmetic, not by the code under test.
2. Nothing of the hostile guest lands under the z/VM system's host (only
   zvm-* series, every time a CP record's TOD) or the collector's host (only
   zvm-reader), in any host other than its own and the one it is trusted
   with, or outside a host directory.
3. The hostile guest has at most MaxSeriesPerGuest (1000) series in the csv
   tree, and the cap is reached.
4. Each crafted record got the verdict the threat model gives it (present
   under the guest's own host, refused, or dropped whole).
5. Every refusal is counted: series_capped, host_refused, names_refused > 0,
   appl_bad and appl_sync equal to what CP showed of the bad and torn records
   (give or take the records whose size changed in place), decode errors 0.
   Each kind of refusal is logged once, not per value (the series cap's too).
6. collectd's VmRSS stays flat; it ran to the end and stopped within 5 s.

A sub-check that fails because of a bug whose fix is not a one-liner prints
"KNOWN BUG: ..."; any failure makes the exit status 1.
"""
import json
import os
import re
import struct
import sys

EPOCH_US = 2208988800 * 1000000
CAP = 1000                  # MaxSeriesPerGuest's default (doc/plugin.md)
RSS_BOUND_KB = 8 * 1024     # see rss_check()
RSS_TAIL_KB = 1024

problems = []


def fail(msg):
    problems.append("FAIL: " + msg)
    print("FAIL: " + msg)


def known(msg):
    problems.append("KNOWN BUG: " + msg)
    print("KNOWN BUG: " + msg)


def ok(msg):
    print("ok: " + msg)


def unix(tod):
    return ((tod >> 12) - EPOCH_US) / 1e6


def g(v):
    return "%.6f" % v


# ---- the truth: what the well-behaved guests' records must become --------------------

def df_instance(mnt):
    """collectd's df plugin naming (doc/plugin.md): "/" is root, else the leading
    slash goes and the others become dashes."""
    if mnt == b"/":
        return "root"
    s = mnt[1:] if mnt.startswith(b"/") else mnt
    return s.decode("ascii").replace("/", "-")


def lnxappl(data):
    secs, dlen, doff = struct.unpack_from(">QHH", data, 0)
    return secs, data[doff:doff + dlen]


def loadavg(a):
    """A load average as the guest's /proc/loadavg prints it and collectd's load plugin
    reads it there: LOAD_INT(a).LOAD_FRAC(a), two digits, FSHIFT 11; the record's avenrun
    a already holds the kernel's FIXED_1/200 (doc/plugin.md)."""
    return float("%d.%02d" % (a >> 11, ((a & 2047) * 100) >> 11))


def truth(path):
    system, cp_tods, expect, guests = None, set(), {}, set()

    def put(host, ident, t, *vals):
        # The first record with this identifier and time wins: later ones are stale copies.
        expect.setdefault((host, ident), {}).setdefault(round(t, 3), list(vals))

    # mon_procd's task records in state D, per guest, interval and pass: collectd's
    # processes plugin counts them as blocked, the summary among the sleeping.  A guest
    # that runs mon_procd gets its blocked from there, never from the kernel's nr_iowait.
    dtasks, procd = {}, set()
    for line in open(path):
        r = json.loads(line)
        if r.get("payload_layout") == "LNXAPPL.2.1" and r.get("record") == 2:
            f = r.get("fields", {})
            uid = (f.get("APLSDT_USERID") or "").strip()
            secs, _ = lnxappl(bytes.fromhex(r.get("data_hex", "")))
            k = (uid, r["interval"], secs)
            dtasks[k] = dtasks.get(k, 0) + (r["payload"].get("state") == "D")
        if r.get("payload_layout") == "LNXAPPL.2.0":
            procd.add((r.get("fields", {}).get("APLSDT_USERID") or "").strip().lower())

    for line in open(path):
        r = json.loads(line)
        if "domain" not in r:
            continue
        d, rec = r["domain"], r["record"]
        if d == 1 and rec == 4:
            system = r["fields"]["MTRSYS_SYSTMID"].strip().lower()
        if d != 10:
            cp_tods.add(round(unix(r["tod"]), 3))
            continue
        f = r.get("fields", {})
        uid = (f.get("APLSDT_USERID") or f.get("APLEDT_USERID") or "").strip()
        lay = r.get("payload_layout") or ""
        if not uid.startswith("LINUX"):
            continue  # the hostile guest (EVIL01) and zvmsim's filler
        host = uid.lower()
        guests.add(host)
        p = r.get("payload") or {}
        data = bytes.fromhex(r.get("data_hex", ""))
        if lay.startswith("LINUXKRNL"):
            if p["sync_count_1"] != p["sync_count_2"]:
                continue
            t = unix(p["timestamp"])
            if lay == "LINUXKRNL.MEM":
                used = max(0, p["totalram"] - p["freeram"] - p["bufferram"] - p["cached"])
                put(host, "memory/memory-used", t, g(used * 1024))
                put(host, "memory/memory-free", t, g(p["freeram"] * 1024))
                put(host, "memory/memory-buffered", t, g(p["bufferram"] * 1024))
                put(host, "memory/memory-cached", t, g(p["cached"] * 1024))
                if p["totalswap"] >= p["freeswap"]:  # as collectd's swap plugin: else nothing
                    put(host, "swap/swap-used", t, g((p["totalswap"] - p["freeswap"]) * 1024))
                    put(host, "swap/swap-free", t, g(p["freeswap"] * 1024))
                put(host, "swap/swap_io-in", t, str(p["pswpin"]))
                put(host, "swap/swap_io-out", t, str(p["pswpout"]))
                put(host, "vmem/vmpage_io-memory", t, str(p["pgpgin"]), str(p["pgpgout"]))
                put(host, "vmem/vmpage_io-swap", t, str(p["pswpin"]), str(p["pswpout"]))
                put(host, "vmem/vmpage_faults", t, str(p["pgfault"]), str(p["pgmajfault"]))
            elif lay == "LINUXKRNL.OS":
                put(host, "load/load", t, g(loadavg(p["avenrun_1"])), g(loadavg(p["avenrun_5"])),
                    g(loadavg(p["avenrun_15"])))
                put(host, "processes/ps_state-running", t, g(p["nr_running"]))
                if host not in procd:
                    put(host, "processes/ps_state-blocked", t, g(p["nr_iowait"]))
                # Per-CPU entries (doc/appldata.md): at cpu_offset, per_cpu_size apart;
                # user nice system idle irq softirq iowait [steal cpu_id] as u32.
                mod01 = (f.get("APLSDT_PRODID") or "").upper().endswith("F0F1")
                for i in range(p["nr_cpus"]):
                    o = p["cpu_offset"] + i * p["per_cpu_size"]
                    f = struct.unpack_from(">9I" if mod01 else ">7I", data, o)
                    cpu = f[8] if mod01 else i
                    for s, v in zip(("user", "nice", "system", "idle", "interrupt", "softirq",
                                     "wait", "steal"), f[:8]):
                        put(host, "cpu-%d/cpu-%s" % (cpu, s), t, str(v))
            elif lay == "LINUXKRNL.NET":
                for ty, a, b in (("if_octets", "rx_bytes", "tx_bytes"),
                                 ("if_packets", "rx_packets", "tx_packets"),
                                 ("if_errors", "rx_errors", "tx_errors"),
                                 ("if_dropped", "rx_dropped", "tx_dropped")):
                    put(host, "interface-all/" + ty, t, str(p[a]), str(p[b]))
        elif lay == "LNXAPPL.1.0.FS":
            secs, body = lnxappl(data)
            o, strs = 0, []
            for _ in range(3):
                n = struct.unpack_from(">H", body, o)[0]
                strs.append(body[o + 2:o + 2 + n])
                o += 2 + n
            bsize, frsize, blocks, bfree, bavail = struct.unpack_from(">5Q", body, o)
            assert (blocks, bfree, bavail) == (p["fs_blocks"], p["fs_bfree"], p["fs_bavail"])
            fr = frsize or bsize
            pi = "df-" + df_instance(strs[1])
            put(host, pi + "/df_complex-used", secs, g((blocks - bfree) * fr))
            put(host, pi + "/df_complex-free", secs, g(bavail * fr))
            put(host, pi + "/df_complex-reserved", secs, g((bfree - bavail) * fr))
        elif lay == "LNXAPPL.2.0":
            secs, _ = lnxappl(data)
            put(host, "uptime/uptime", secs, g(p["uptime"]))
            put(host, "users/users", secs, g(p["users"]))
            d = min(dtasks.get((uid, r["interval"], secs), 0), p["task_sleeping"])
            put(host, "processes/ps_state-sleeping", secs, g(p["task_sleeping"] - d))
            put(host, "processes/ps_state-blocked", secs, g(d))
            put(host, "processes/ps_state-stopped", secs, g(p["task_stopped"]))
            put(host, "processes/ps_state-zombies", secs, g(p["task_zombie"]))
    return system, cp_tods, expect, guests


# ---- the csv tree ----------------------------------------------------------------------

DATE = re.compile(r"-\d{4}-\d{2}-\d{2}$")


def csv_tree(root):
    """{host: {ident: {time: [values]}}} and the files that are not HOST/PLUGIN/FILE."""
    tree, stray = {}, []
    for dirpath, dirs, files in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        depth = 0 if rel == "." else rel.count(os.sep) + 1
        for f in files:
            if depth != 2:
                stray.append(os.path.join(rel, f))
                continue
            host, plugin = rel.split(os.sep)
            ident = plugin + "/" + DATE.sub("", f)
            rows = tree.setdefault(host, {}).setdefault(ident, {})
            for line in open(os.path.join(dirpath, f), errors="replace"):
                if line.startswith("epoch"):
                    continue
                q = line.strip().split(",")
                rows[round(float(q[0]), 3)] = q[1:]
        if depth >= 2:
            stray += [os.path.join(rel, d) + "/" for d in dirs]
    return tree, stray


def near(rows, t):
    for dt in (0, -0.001, 0.001):
        v = rows.get(round(t + dt, 3))
        if v is not None:
            return v
    return None


def last(tree, host, ident):
    rows = tree.get(host, {}).get("zvm-reader/" + ident)
    if not rows:
        return None
    return rows[max(rows)][0]


def main(a):
    truth_path, root, summary_path, log_path = a
    S = json.load(open(summary_path))
    system, cp_tods, expect, guests = truth(truth_path)
    tree, stray = csv_tree(root)
    coll, evil, fwd = S["collector"], "evil01", "evilfwd"
    if system != S["system"]:
        fail("the truth's system id %s is not the one the run used (%s)" % (system, S["system"]))

    print("== 1. the well-behaved guests: %s" % ", ".join(sorted(guests)))
    if len(guests) < 2:
        fail("fewer than two Linux guests in the truth")
    n_rows = n_exp = 0
    for host in sorted(guests):
        got = tree.get(host, {})
        want = {i: v for (h, i), v in expect.items() if h == host}
        extra = sorted(set(got) - set(want))
        raced = [i for i in got if i.startswith("claim-")]
        bad = missing = 0
        for ident, rows in got.items():
            for t, vals in rows.items():
                n_rows += 1
                w = near(want.get(ident, {}), t)
                if w is None:
                    if ident in want:
                        bad += 1
                        if bad <= 5:
                            print("  EXTRA %s/%s at %.3f: %s (no truth sample at that time)" %
                                  (host, ident, t, vals))
                elif w != vals:
                    bad += 1
                    if bad <= 5:
                        print("  WRONG %s/%s at %.3f: %s, truth %s" % (host, ident, t, vals, w))
        for ident, samples in want.items():
            for t in samples:
                n_exp += 1
                if near(got.get(ident, {}), t) is None:
                    missing += 1
                    if missing <= 5:
                        print("  MISSING %s/%s at %.3f" % (host, ident, t))
        if raced:
            # hostile.py claimed this host (it is trusted with it) in a GEN_EVENT before the
            # guest's first sample interval, then in every interval.
            known("guest EVIL01, trusted with host \"%s\", claimed it before guest %s's first "
                  "record reached the plugin (a monwriter GEN_EVENT, shown by CP at once) and "
                  "keeps it in every interval: %d of its series (%s) and %d foreign rows in %s's "
                  "own series are under \"%s\", and %d of %s's samples are lost (a hostile "
                  "memory-used value dated ten years ahead makes every later one of %s's "
                  "\"older\").  The first claimant of a name binds it (bind_host() in "
                  "plugin/zvm/zvm_host.c); the guest whose own host it is gets no precedence" %
                  (host, host.upper(), len(extra), ", ".join(extra[:3]), bad, host.upper(), host,
                   missing, host.upper(), host.upper()))
        else:
            if extra:
                fail("%s has series no record of its own produced: %s" %
                     (host, ", ".join(extra[:8])))
            if bad:
                fail("%s: %d csv rows differ from the truth" % (host, bad))
            if missing:
                fail("%s: %d truth samples missing" % (host, missing))
    print("  %d truth samples of %d series, %d csv rows compared" %
          (n_exp, len(expect), n_rows))
    if n_exp < 1000:
        fail("only %d truth samples of the well-behaved guests: the run was too short" % n_exp)
    elif not any(("linux" in p) for p in problems):
        ok("every value of the well-behaved guests arrived, equal to zvmsim's truth; nothing else "
           "under their hosts")

    print("== 2. nothing of the hostile guest under the system's or the collector's host")
    sysrows = 0
    cp = dict.fromkeys(cp_tods, 1)
    for ident, rows in tree.get(system, {}).items():
        if not ident.startswith("zvm-"):
            fail("%s/%s under the z/VM system's host is not CP data" % (system, ident))
            continue
        for t in rows:
            sysrows += 1
            if near(cp, t) is None:
                fail("%s/%s: time %.3f is no CP record's TOD" % (system, ident, t))
                break
    if sysrows < 100:
        fail("only %d rows of CP data under %s" % (sysrows, system))
    reader_types = ("total_objects", "total_bytes", "total_events", "total_values", "errors",
                    "gauge", "timestamp", "queue_length")
    for ident in tree.get(coll, {}):
        pl, ty = ident.split("/", 1)
        if pl != "zvm-reader" or not ty.startswith(reader_types):
            fail("%s/%s under the collector's host is not the reader's own" % (coll, ident))
    hosts = set(tree)
    allowed = guests | {system, coll, evil, fwd}
    for h in sorted(hosts - allowed):
        idents = sorted(tree[h])
        lower = h.lower()
        if lower in guests | {system, coll}:
            fail("host \"%s\" (%d series: %s) is %s's host in other letters: a claim compared "
                 "case-sensitively with the hosts in use (owner_of() in plugin/zvm/zvm_host.c uses "
                 "strcmp while the system and collector names are compared with strcasecmp)" %
                 (h, len(idents), ", ".join(idents[:4]),
                  "the system" if lower == system else "the collector" if lower == coll
                  else "guest " + lower.upper()))
        else:
            fail("unexpected host \"%s\": %s" % (h, ", ".join(idents[:6])))
    if stray:
        fail("files outside HOST/PLUGIN/ in the csv tree: %s (a guest plugin name \"..\" leaves "
             "its host directory: csv writes evil01/../TYPE)" % ", ".join(stray[:5]))
    print("  %d rows of CP data, %d hosts in the csv tree: %s" %
          (sysrows, len(hosts), ", ".join(sorted(hosts))))

    print("== 3. the hostile guest's series (MaxSeriesPerGuest %d)" % CAP)
    mine = ["%s/%s" % (h, i) for h in (evil, fwd) for i in tree.get(h, {})]
    flood = sum(1 for i in tree.get(evil, {}) if i.startswith("flood-"))
    print("  %d distinct csv series under %s and %s (%d of them flood identifiers); %d flood "
          "identifiers written" % (len(mine), evil, fwd, flood, S["flood"]))
    if len(mine) > CAP:
        fail("the hostile guest has %d series, more than MaxSeriesPerGuest %d" % (len(mine), CAP))
    if len(mine) < CAP * 9 // 10:
        fail("the hostile guest has only %d series: the flood did not reach the cap" % len(mine))
    if S["flood"] != S["flood_requested"] or S["flood"] < 100000:
        fail("%d flood identifiers written, %d requested (at least 100,000)" %
             (S["flood"], S["flood_requested"]))

    print("== 4. the crafted records")
    evil_ids = set(tree.get(evil, {}))
    everything = ["%s/%s" % (h, i) for h in tree for i in tree[h]]

    def anywhere(prefix):
        return [x for x in everything if x.split("/", 1)[1].startswith(prefix)]
    for r in S["records"]:
        e, name = r["expect"], r["name"]
        for i in e.get("own", []):
            if i not in evil_ids:
                fail("%s: %s/%s missing (a valid value of the guest's own)" % (name, evil, i))
        for i in e.get("refused_host", []):
            # A claim taken is reported above (sections 1 and 2): here, that a refused
            # claim's values are kept under the guest's own host.
            if i not in evil_ids and not anywhere(i):
                fail("%s: %s dispatched nowhere; a refused claim keeps the guest's own host" %
                     (name, i))
            print("  %-20s %s -> %s" % (name, i, ", ".join(x.split("/")[0] for x in anywhere(i))))
        for i in e.get("prom_names", []):
            if anywhere(i):
                fail("%s: %s dispatched; a plugin name Prometheus cannot take as a label name "
                     "makes write_prometheus's whole page unreadable" % (name, i))
        for i in e.get("fwd", []):
            if i not in tree.get(fwd, {}):
                fail("%s: %s/%s missing (the host the guest is trusted with)" % (name, fwd, i))
        for i in e.get("absent", []):
            got = [x for x in anywhere(i) if x.split("/")[0] not in guests]
            if not got:
                continue
            if name.startswith("partial-"):
                known("%s: a record whose data sources break the ds_index/ds_count order was "
                      "partly dispatched (%s); the zvm plugin must drop it whole and count it "
                      "(met_wzvm.c checks the groups only while emitting)" % (name, ", ".join(got)))
            else:
                fail("%s: %s dispatched from a record that must be dropped whole" %
                     (name, ", ".join(got)))
    for h in (evil, fwd):
        for i in tree.get(h, {}):
            pl = i.split("/", 1)[0].lower()
            if pl.startswith("zvm") or pl == "vm370":
                fail("%s/%s: a guest's value in the reader's own plugin names" % (h, i))
            elif pl.startswith("vm370-"):
                fail("%s/%s: plugin \"%s\" gives the identifier of plugin vm370 with an instance; "
                     "the reserved-name check compares \"vm370\" exactly (strcasecmp in "
                     "reserved_plugin(), plugin/zvm/zvm_host.c) where it takes \"zvm\" as a "
                     "prefix" % (h, i, i.split("/", 1)[0]))
    counts = {k: sum(1 for r in S["records"] if r["kind"] == k) for k in ("ok", "bad", "sync")}
    print("  %d crafted buffers: %d valid, %d malformed, %d torn; a resized one; one updated with "
          "another datalen; ENOSPC after %s buffers: %s" %
          (len(S["records"]), counts["ok"], counts["bad"], counts["sync"],
           S["buffers_at_full"], S["enospc"]))
    if S["enospc"] != "ENOSPC" or S["buffers_at_full"] != 255:
        fail("the driver's limit was not reached: %s buffers, then %s" %
             (S["buffers_at_full"], S["enospc"]))
    nan = [i for i in evil_ids if i.startswith("hostile-")]
    vals = {v for i in nan for row in tree[evil][i].values() for v in row}
    print("  NaN and infinities arrived as %s" % sorted(v for v in vals if not v[-1].isdigit()))

    print("== 5. every refusal counted, each logged once")
    H = coll
    c = {k: last(tree, H, k) for k in (
        "total_values-series_capped", "total_values-host_refused", "total_values-names_refused",
        "total_values-appl_bad", "total_values-appl_sync", "total_values-appl_stale",
        "total_values-duplicate", "total_values-filtered", "total_values-dispatched",
        "errors-decode", "total_objects-datasets", "total_objects-records")}
    for k, v in sorted(c.items()):
        print("  %s/zvm-reader/%s %s" % (H, k, v))
    dec = {i: tree[H][i] for i in tree.get(H, {}) if i.startswith("zvm-reader/errors-decode-")}
    for i, rows in sorted(dec.items()):
        print("  %s/%s %s" % (H, i, rows[max(rows)][0]))
    num = {k: (int(v) if v is not None else None) for k, v in c.items()}
    for k in ("total_values-series_capped", "total_values-host_refused",
              "total_values-names_refused"):
        if not num[k]:
            fail("%s is %s, expected > 0" % (k, c[k]))
    X = S["expect"]
    for k, key in (("total_values-appl_bad", "appl_bad"), ("total_values-appl_sync", "appl_sync")):
        lo, hi = X[key], X[key] + X["quirk"]
        v = num[k]
        if v is None or not lo <= v <= hi:
            per = X[key] // S["intervals"]
            missed = (lo - v) / S["intervals"] if v is not None else None
            msg = ("%s is %s; the bad records CP showed make %d (+ up to %d for the record "
                   "resized in place): %d records x %d intervals" %
                   (k, v, lo, X["quirk"], per, S["intervals"]))
            if key == "appl_bad" and v is not None and v < lo and missed == int(missed):
                known(msg + "; %d malformed records per interval are dropped without being "
                      "counted (a data-source group left incomplete: met_wzvm.c starts a new "
                      "group at ds_index 0 and drops the unfinished one silently)" % missed)
            else:
                fail(msg)
        else:
            ok("%s = %d, as many as the malformed/torn records CP showed (%d..%d)" % (k, v, lo, hi))
    # A guest controls only the application data of its D10 records; CP writes the
    # record headers, frames and control elements.  Nothing it writes may therefore
    # surface as a decode error: its garbage is appl_bad / appl_sync.
    if num["errors-decode"] != 0:
        fail("errors-decode is %s: the hostile guest's data reached the decoder's error "
             "counters, although it controls only the application data" % c["errors-decode"])
    log = open(log_path, errors="replace").read().splitlines()
    hostlog = [l for l in log if "guest EVIL01 wrote metrics for host" in l]
    namelog = [l for l in log if "guest EVIL01 wrote values as" in l]
    wzlog = [l for l in log if "write_zvm record of guest EVIL01" in l]
    evlog = [l for l in log if "zvm plugin:" in l and "EVIL01" in l]
    lxlog = [l for l in log if "zvm plugin: guest EVIL01: LNXAPPL" in l]
    dsnf = [l for l in log if "Dataset not found" in l]
    dot = [l for l in log if "Cowardly refusing" in l]
    nlx = sum(1 for r in S["records"] if r["kind"] == "bad" and r["name"].startswith(("fs-", "procd")))
    print("  log: %d lines in all; about EVIL01: %d (host refusal %d, plugin-name refusal %d, "
          "write_zvm record kinds %d, s390-tools records %d from %d malformed buffers); "
          "\"Dataset not found\" %d, csv \"Cowardly refusing\" %d" %
          (len(log), len(evlog), len(hostlog), len(namelog), len(wzlog), len(lxlog), nlx,
           len(dsnf), len(dot)))
    if len(hostlog) != 1 or len(namelog) != 1:
        fail("the host and plugin-name refusals are to be logged once per guest: %d and %d lines" %
             (len(hostlog), len(namelog)))
    # The series cap: said at the guest's first refusal, with its userid, then only counted
    # while refusals go on (again only after 60 intervals without one: longer than the run).
    caplog = [l for l in log if "guest EVIL01 has " in l and "MaxSeriesPerGuest" in l]
    if len(caplog) != 1:
        fail("the series cap's refusal of EVIL01 is to be logged once: %d lines" % len(caplog))
    # Repeats thinned out: a message again on its 2nd, 4th, 8th ... time, so at most
    # 1 + log2(intervals) lines per malformed buffer over the run.
    thin = nlx * (1 + S["intervals"].bit_length())
    if len(lxlog) > thin:
        known("malformed s390-tools records of one guest are logged %d times in %d intervals "
              "(%d buffers; thinned out, it would be at most %d): the thinning remembers 16 "
              "messages (LOG_MEMORY in plugin/zvm/zvm_dispatch.c) and each buffer's message names "
              "its product id, so %d buffers evict each other and every one is logged in every "
              "interval" % (len(lxlog), S["intervals"], nlx, thin, nlx))
    if len(dsnf) > 3:
        known("a guest's value of a type collectd does not know is refused by collectd, not by "
              "the zvm plugin: no counter (total_values-dispatched counts it), and one log line "
              "per value and interval (%d lines for 1 series in %d intervals); the plugin could "
              "check the type (plugin_get_ds) and count the refusal" % (len(dsnf), S["intervals"]))
    if len(dot) > 3:
        known("a guest's plugin name \"..\" is dispatched (printable, no '/'); csv refuses to write "
              "HOST/../TYPE, per value and interval (%d \"Cowardly refusing\" lines, each with a "
              "\"Filter subsystem\" line), and no counter of the zvm plugin moves; such names "
              "should be refused and counted (names_refused)" % len(dot))

    print("== 6. collectd: memory, life, shutdown")
    rss_check(S)
    print("  shutdown after SIGTERM took %.2f s" % S["shutdown_s"])
    if S["shutdown_s"] > 5:
        fail("collectd took %.1f s to stop" % S["shutdown_s"])

    print("check.py: %d problems" % len(problems))
    return 1 if problems else 0


def rss_check(S):
    """collectd's VmRSS, sampled after every interval.

    Early (interval 10: the series cap has been full since interval 2, and
    collectd's value cache and csv files hold every series that will ever
    pass) against late (the last interval), while 3/4 of the 100,000
    identifiers arrive.  One structure grows with the identifiers a guest
    names, by design: the write_zvm module remembers the newest time of each,
    in 16-byte slots of a table that doubles when half full (at most 2^18
    identifiers); for 100,000 identifiers that is 2^18 slots = 4 MB, all of
    which may be allocated after the early sample.  The bound, 8 MB, is those
    4 MB plus as much again for the allocator (glibc maps large blocks on
    their own and grows its heaps in steps).

    That bound is generous, and freed memory the allocator keeps can hide a
    small leak for a while, so the tail of the run is held to a tight bound
    as well: from the first sample after 70,000 identifiers (the table has
    doubled for the last time at 2^16) to the end, ~30,000 more identifiers
    arrive and nothing is meant to grow.  1 MB is about 32 bytes per
    identifier, the smallest chunk malloc hands out: state kept per refused
    identifier anywhere crosses it.  (Tried: a 48-byte malloc per capped value
    grew the tail by 1.8 MB and the early-late figure by 7.2 MB.)"""
    rss = [r for r in S["rss_kb"] if r[0] != "end"]
    early = next(r for r in rss if r[0] == S["early"])
    late = rss[-1]
    peak = max(r[2] for r in rss)
    grow = late[2] - early[2]
    n = late[3] - early[3]
    print("  VmRSS: interval %s %d kB, interval %s %d kB: growth %+d kB (bound %d kB) while %d "
          "identifiers arrived (%.1f bytes each); peak %d kB" %
          (early[0], early[2], late[0], late[2], grow, RSS_BOUND_KB, n, grow * 1024.0 / max(1, n),
           peak))
    tail = next((r for r in rss if r[3] >= 70000), None)
    if tail is None or late[3] - tail[3] < 20000:
        fail("too few identifiers after the 70,000th for the tail of the memory check")
    else:
        tg, tn = late[2] - tail[2], late[3] - tail[3]
        print("  VmRSS tail: interval %s %d kB, interval %s %d kB: growth %+d kB (bound %d kB) "
              "while %d identifiers arrived" %
              (tail[0], tail[2], late[0], late[2], tg, RSS_TAIL_KB, tn))
        if tg > RSS_TAIL_KB:
            fail("collectd's VmRSS grew by %d kB in the tail of the run (%d identifiers): state "
                 "kept per identifier" % (tg, tn))
    print("  VmRSS samples (interval: kB): " + " ".join("%s:%d" % (r[0], r[2]) for r in rss))
    if grow > RSS_BOUND_KB:
        fail("collectd's VmRSS grew by %d kB between interval %s and %s" %
             (grow, early[0], late[0]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
