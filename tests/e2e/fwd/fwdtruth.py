#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Expected collectd values from zvmsim's ground truth, and their check in
Graphite (whisper-fetch), InfluxDB (InfluxQL through the influx CLI) and
Prometheus (PromQL through its HTTP API).

usage:
  fwdtruth.py expect [--guest-host FMT] TRUTH.jsonl [CSVDIR]
                                                    expectations, JSON Lines
  fwdtruth.py graphite WHISPERDIR EXPECT [MIN]        check the whisper files
  fwdtruth.py influx HTTPPORT EXPECT [MIN]            check influxd
  fwdtruth.py prometheus HTTPPORT EXPECT [MIN]        check Prometheus (PromQL)
  fwdtruth.py prometheus-native HTTPPORT EXPECT [MIN] the same under the names
                                                    contrib/prometheus/ gives

The expectations are computed here from the raw record fields zvmsim wrote,
with the documented arithmetic (doc/plugin.md, doc/facts/collectd.md), never
with the plugin's code:
  Linux kernel APPLDATA OS   load/load: avenrun_N as /proc/loadavg prints it (GAUGE)
  Linux kernel APPLDATA NET  interface-all/if_octets, if_packets: rx, tx (DERIVE)
  Linux kernel APPLDATA MEM  memory/memory-free: freeram * 1024 (GAUGE)
  CP D0R8 SYTUSR             zvm-system/users-logged-on, -dormant: SYSUSRS,
                             SRMCDORM (GAUGE; host = D1R4 MTRSYS_SYSTMID in
                             lower case, time = the record's TOD)
  CP D0R3 SYTRSG             zvm-storage/memory-free: RSAAVAIL * 4096 (GAUGE)
  CP D4R3 USEACT             zvm-user-<VMDUSER>/memory-resident: VMDCTPVR *
                             4096 summed over the guest's virtual CPUs'
                             records of one TOD (GAUGE)
  CP (issue 53, SPEC53)       host = the system as above, time = the record's TOD:
    GAUGE readings           zvm-storage/memory-execution-space: D0R21
                             SYTSXG_SXSSIZE * 4096; zvm-storage/memory-save-areas:
                             D3R1 STORSG_RSASAVFR * 4096
    DERIVE sums of deltas    between consecutive sample records of the
                             system, from the first sample collectd read
                             (a counter of 4 bytes wraps at 2^32, one of 8
                             bytes that goes down was reset: no value then),
                             times the field's unit conversion, floored:
                             zvm-system/operations-transactions-mp-trivial,
                             -nontrivial (D0R8 SYTUSR_CALMPTCT, CALMPNCT),
                             zvm-system/operations-fast-ccw-translations
                             (D0R19 SYTSYG_FTRDONE),
                             zvm-storage/operations-paging-slots-90-full (D0R6
                             SYTASG_CAL90FUL), zvm-ssi/operations-entered-STATE
                             (D11R2 SSISMI_PLMN*), zvm-ssi/total_time_in_ms-STATE
                             (D11R2 SSISMI_PLMT*, microseconds / 1000),
                             zvm-ssi/operations-sync-started, -sync-proceed-replies
                             (D11R1 SSISCS_PLMSYCNT, PLMSYPRO)
    response time (GAUGE)    zvm-system/response_time-transactions-mp-trivial,
                             -nontrivial: (delta of SYTUSR_CALMPTRV / CALMPNTR, TOD
                             units, / 4096 / 1e6 s) / delta of CALMPTCT / CALMPNCT;
                             no value when the count did not move.  A quotient
                             is compared to a relative 1e-12 ("tol"), as the
                             plugin may divide in another order.
A kernel sample is expected only if its sync counters agree and its
timestamp is new for that guest (the plugin drops torn and stale copies).
Time = the Linux record's own timestamp; host = the userid in lower case,
or what --guest-host FMT makes of it with the zvm plugin's documented
GuestHostFormat rules (doc/plugin.md: %u lower case, %U as CP writes it,
%% a percent sign, anything else copied).

With CSVDIR (collectd's csv output of the same run), only samples collectd
dispatched are expected: zvmsim may have produced an interval more than
collectd read before it was stopped.  A system-wide series (SPEC53's)
collectd wrote nothing of stays expected over the time its host's other
series were read, so that a metric the plugin does not dispatch fails; a
guest's may be left out on purpose (ExcludeGuest).  The values still come
from the truth.

Graphite gets DERIVE values as rates (write_graphite StoreRates true): the
check compares the rate between consecutive expected samples.  InfluxDB
gets the values as dispatched (network plugin): raw counters and the
plugin's sums compared exactly, quotients within their "tol".  Prometheus gets raw
counters too (write_prometheus), under the names and labels that plugin
makes; its check also reads query_range steps and irate() of counters.
prometheus-native checks the same samples in job "collectd-zvm", scraped
with contrib/prometheus/prometheus.yml's relabelling: CP values under their
zvm_* names with the labels system (and userid), Linux values under
collectd's names with the label host; "instance" is the scrape target there.
Every expectation
must be found; MIN (default 1) is the least number of samples each series
must have had, so that a run too short to prove anything fails.
"""
import json
import os
import subprocess
import sys

TOD_UNIX_EPOCH = 0x7D91048BCA000000


def tod_to_unix(tod):
    return (tod - TOD_UNIX_EPOCH) / 4096.0 / 1e6


def guest_host(fmt, userid):
    out, i = "", 0
    while i < len(fmt):
        if fmt[i] == "%" and i + 1 < len(fmt) and fmt[i + 1] in "uU%":
            out += {"u": userid.lower(), "U": userid, "%": "%"}[fmt[i + 1]]
            i += 2
        else:
            out += fmt[i]
            i += 1
    return out


# SPEC53's CP readings: (domain, record) -> [(field, plugin instance, type,
# type instance, factor)], GAUGE.
CP_READINGS = {
    (0, 21): [("SYTSXG_SXSSIZE", "storage", "memory", "execution-space", 4096)],
    (3, 1): [("STORSG_RSASAVFR", "storage", "memory", "save-areas", 4096)],
}

# SPEC53's CP sums: (domain, record) -> [(field, bytes, plugin instance,
# type, type instance, divisor)], DERIVE: the running sum of the field's
# deltas, divided (floored) by the divisor.
_SSI_STATES = (("JONG", "joining"), ("JOND", "joined"), ("LEAV", "leaving"),
               ("ISOL", "isolated"), ("SUSP", "suspended"))
CP_SUMS = {
    (0, 8): [("SYTUSR_CALMPTCT", 4, "system", "operations", "transactions-mp-trivial", 1),
             ("SYTUSR_CALMPNCT", 4, "system", "operations", "transactions-mp-nontrivial", 1)],
    (0, 19): [("SYTSYG_FTRDONE", 4, "system", "operations", "fast-ccw-translations", 1)],
    (0, 6): [("SYTASG_CAL90FUL", 4, "storage", "operations", "paging-slots-90-full", 1)],
    (11, 2): [("SSISMI_PLMN" + k, 4, "ssi", "operations", "entered-" + st, 1)
              for k, st in _SSI_STATES]
    + [("SSISMI_PLMT" + k, 8, "ssi", "total_time_in_ms", st, 1000) for k, st in _SSI_STATES],
    (11, 1): [("SSISCS_PLMSYCNT", 4, "ssi", "operations", "sync-started", 1),
              ("SSISCS_PLMSYPRO", 4, "ssi", "operations", "sync-proceed-replies", 1)],
}

# SPEC53's response times: D0R8 (time field, count field, type instance).
CP_RESPONSE = [("SYTUSR_CALMPTRV", "SYTUSR_CALMPTCT", "transactions-mp-trivial"),
               ("SYTUSR_CALMPNTR", "SYTUSR_CALMPNCT", "transactions-mp-nontrivial")]


def delta(now, before, nbytes):
    """A counter's change: 4 bytes wrap; None for 8 bytes that went down (a reset)."""
    if nbytes < 8:
        return (now - before) % (1 << (8 * nbytes))
    return now - before if now >= before else None


class CpSystem:
    """SPEC53's expectations from the system's sample records, in truth order."""

    def __init__(self, out):
        self.out, self.prev, self.acc = out, {}, {}

    def add(self, system, pinst, typ, tinst, kind, t, v, **extra):
        # system-wide: no guest option of the plugin leaves them out (dispatched())
        e = dict(host=system, plugin="zvm", pinst=pinst, type=typ, tinst=tinst, ds="value",
                 kind=kind, t=t, v=v, system_wide=True)
        e.update(extra)
        self.out.append(e)

    def record(self, system, r, f):
        k = (r["domain"], r["record"])
        t = tod_to_unix(r["tod"])
        for fld, pinst, typ, tinst, mul in CP_READINGS.get(k, []):
            if fld in f:
                self.add(system, pinst, typ, tinst, "gauge", t, float(f[fld] * mul))
        prev = self.prev.get(k)
        self.prev[k] = f
        if prev is None:
            return
        for fld, nbytes, pinst, typ, tinst, div in CP_SUMS.get(k, []):
            if fld not in f or fld not in prev:
                continue
            d = delta(f[fld], prev[fld], nbytes)
            if d is None:
                continue
            before = self.acc.get(fld, 0)
            self.acc[fld] = before + d
            # acc and prev: the sums since the first sample of the truth, so
            # that rebase() can start them where collectd started reading.
            self.add(system, pinst, typ, tinst, "derive", t, self.acc[fld] // div,
                     acc=self.acc[fld], prev=before, div=div)
        if k == (0, 8):
            for tfld, cfld, tinst in CP_RESPONSE:
                if not all(x in f and x in prev for x in (tfld, cfld)):
                    continue
                n, dt = delta(f[cfld], prev[cfld], 4), delta(f[tfld], prev[tfld], 8)
                if n and dt is not None:
                    self.add(system, "system", "response_time", tinst, "gauge", t,
                             dt / 4096.0 / 1e6 / n, tol=1e-12)


def rebase(exp):
    """The plugin's sums start at its first sample: a sum series starts at
    the first expectation kept, from the sum it had in the truth before."""
    base = {}
    for e in exp:
        if "acc" in e:
            b = base.setdefault(series_key(e), e["prev"])
            e["v"] = (e["acc"] - b) // e["div"]
    return exp


def expect(truth_path, guest_fmt="%u"):
    seen = {}
    out = []
    resident = {}
    system = None
    cp = CpSystem(out)
    for line in open(truth_path):
        r = json.loads(line)
        f = r.get("fields") or {}
        if r.get("domain") == 1 and r.get("record") == 4 and f.get("MTRSYS_SYSTMID"):
            system = f["MTRSYS_SYSTMID"].strip().lower()
        if system and r.get("kind") == "S":
            cp.record(system, r, f)
        if r.get("domain") == 0 and r.get("record") == 8 and system and "SYTUSR_SYSUSRS" in f:
            for tinst, fld in (("logged-on", "SYTUSR_SYSUSRS"), ("dormant", "SYTUSR_SRMCDORM")):
                out.append(dict(host=system, plugin="zvm", pinst="system", type="users",
                                tinst=tinst, ds="value", kind="gauge",
                                t=tod_to_unix(r["tod"]), v=float(f[fld])))
        if r.get("domain") == 0 and r.get("record") == 3 and system and "SYTRSG_RSAAVAIL" in f:
            out.append(dict(host=system, plugin="zvm", pinst="storage", type="memory",
                            tinst="free", ds="value", kind="gauge",
                            t=tod_to_unix(r["tod"]), v=f["SYTRSG_RSAAVAIL"] * 4096.0))
        if r.get("domain") == 4 and r.get("record") == 3 and system and "USEACT_VMDUSER" in f:
            # One record per virtual CPU; only the base CPU's carries the
            # guest's frames, the others 0, and the plugin sums them.
            k = (f["USEACT_VMDUSER"].strip(), r["tod"])
            if k not in resident:
                resident[k] = dict(host=system, plugin="zvm", pinst="user-" + k[0],
                                   type="memory", tinst="resident", ds="value", kind="gauge",
                                   t=tod_to_unix(r["tod"]), v=0.0)
                out.append(resident[k])
            resident[k]["v"] += f["USEACT_VMDCTPVR"] * 4096.0
        if r.get("domain") != 10 or r.get("record") != 2:
            continue
        lay = r.get("payload_layout") or ""
        p = r.get("payload") or {}
        userid = (r.get("fields") or {}).get("APLSDT_USERID", "")
        if not lay.startswith("LINUXKRNL.") or not userid:
            continue
        if p.get("sync_count_1") != p.get("sync_count_2"):
            continue
        key = (userid, lay)
        ts = p["timestamp"]
        if seen.get(key) == ts:
            continue  # stale: reported once
        seen[key] = ts
        host = guest_host(guest_fmt, userid.strip())
        t = tod_to_unix(ts)

        def add(plugin, pinst, typ, tinst, ds, kind, v):
            out.append(dict(host=host, plugin=plugin, pinst=pinst, type=typ, tinst=tinst,
                            ds=ds, kind=kind, t=t, v=v))
        if lay == "LINUXKRNL.OS":
            for ds, f in (("shortterm", "avenrun_1"), ("midterm", "avenrun_5"),
                          ("longterm", "avenrun_15")):
                # as the guest's /proc/loadavg prints it: LOAD_INT.LOAD_FRAC (doc/plugin.md)
                a = p[f] & 0xFFFFFFFF
                add("load", "", "load", "", ds, "gauge",
                    float("%d.%02d" % (a >> 11, ((a & 2047) * 100) >> 11)))
        elif lay == "LINUXKRNL.NET":
            for typ, rx, tx in (("if_octets", "rx_bytes", "tx_bytes"),
                                ("if_packets", "rx_packets", "tx_packets")):
                add("interface", "all", typ, "", "rx", "derive", p[rx])
                add("interface", "all", typ, "", "tx", "derive", p[tx])
        elif lay == "LINUXKRNL.MEM":
            add("memory", "", "memory", "free", "value", "gauge", p["freeram"] * 1024.0)
    return out


def csv_times(csvdir, pattern):
    import glob
    times = set()
    for f in glob.glob(os.path.join(csvdir, pattern)):
        for line in open(f):
            if line[:1].isdigit():
                times.add(int(round(float(line.split(",")[0]))))
    return times


def dispatched(exp, csvdir):
    """The expectations collectd dispatched.  A system-wide series (one no
    guest option leaves out, as ExcludeGuest does a guest's) that collectd
    wrote nothing of is kept within the span its host's other series were
    read in, so that a metric the plugin lacks is missed, not passed over."""
    cache, span, out = {}, {}, []
    for e in exp:
        k = (e["host"], e["plugin"], e["pinst"], e["type"], e["tinst"])
        if k not in cache:
            cache[k] = csv_times(csvdir, os.path.join(
                e["host"], node(e["plugin"], e["pinst"]), node(e["type"], e["tinst"]) + "-*"))
        if e["host"] not in span:
            every = csv_times(csvdir, os.path.join(e["host"], "*", "*"))
            span[e["host"]] = (min(every), max(every)) if every else (1, 0)
        t = int(round(e["t"]))
        lo, hi = span[e["host"]]
        if t in cache[k] or (e.get("system_wide") and not cache[k] and lo <= t <= hi):
            out.append(e)
    return out


def series_key(e):
    return (e["host"], e["plugin"], e["pinst"], e["type"], e["tinst"], e["ds"])


def by_series(exp):
    s = {}
    for e in exp:
        s.setdefault(series_key(e), []).append(e)
    for v in s.values():
        v.sort(key=lambda e: e["t"])
    return s


def node(a, b):
    return a + ("-" + b if b else "")


def close(a, b, rate=False, tol=0.0):
    # write_graphite prints gauges with 15 significant digits, but the rates
    # StoreRates makes of counters with "%f": 6 decimals (seen on 5.12).
    # tol: the relative difference a quotient may have (its "tol").
    if rate:
        return abs(a - b) <= 5.000001e-7 + 1e-14 * abs(b)
    return a == b or abs(a - b) <= max(1e-14, tol) * max(abs(a), abs(b))


def check_graphite(wdir, exp, minimum):
    bad, checked = 0, 0
    types_multi = {"load", "if_octets", "if_packets"}
    for k, es in sorted(by_series(exp).items()):
        host, plugin, pinst, typ, tinst, ds = k
        path = [host.replace(".", "_"), node(plugin, pinst), node(typ, tinst)]
        if typ in types_multi:
            path.append(ds)
        f = os.path.join(wdir, "collectd", *path) + ".wsp"
        if not os.path.exists(f):
            print("graphite: MISSING file %s" % f)
            bad += 1
            continue
        t0, t1 = int(es[0]["t"]) - 2, int(es[-1]["t"]) + 2
        try:
            d = json.loads(subprocess.check_output(
                ["whisper-fetch", "--json", "--from=%d" % t0, "--until=%d" % t1, f],
                stderr=subprocess.STDOUT))
        except subprocess.CalledProcessError as x:
            print("graphite: whisper-fetch %s: %s" % (f, x.output.decode().strip()))
            bad += 1
            continue
        pts = {d["start"] + i * d["step"]: v for i, v in enumerate(d["values"]) if v is not None}
        want = []
        if es[0]["kind"] == "gauge":
            want = [(int(round(e["t"])), e["v"]) for e in es]
        else:
            for a, b in zip(es, es[1:]):
                if b["t"] > a["t"] and b["v"] >= a["v"]:
                    want.append((int(round(b["t"])), (b["v"] - a["v"]) / (b["t"] - a["t"])))
        if len(want) < minimum:
            print("graphite: %s: only %d expected points (need %d)" % (f, len(want), minimum))
            bad += 1
        for t, v in want:
            checked += 1
            got = pts.get(t)
            if got is None:
                print("graphite: MISSING %s at %d (expected %r)" % (".".join(path), t, v))
                bad += 1
            elif not close(got, v, es[0]["kind"] != "gauge", es[0].get("tol", 0.0)):
                print("graphite: WRONG %s at %d: %r, expected %r" % (".".join(path), t, got, v))
                bad += 1
    print("fwdtruth: graphite: %d points checked against the ground truth, %d problems" % (
        checked, bad))
    return bad


def check_influx(port, exp, minimum):
    bad, checked = 0, 0
    for k, es in sorted(by_series(exp).items()):
        host, plugin, pinst, typ, tinst, ds = k
        where = ["\"host\" = '%s'" % host, "\"type\" = '%s'" % typ]
        where.append("\"instance\" = '%s'" % pinst if pinst else "\"instance\" = ''")
        where.append("\"type_instance\" = '%s'" % tinst if tinst else "\"type_instance\" = ''")
        q = "SELECT \"value\" FROM \"%s_%s\" WHERE %s" % (plugin, ds, " AND ".join(where))
        out = subprocess.check_output(["influx", "-host", "127.0.0.1", "-port", str(port),
                                       "-database", "collectd", "-precision", "ns",
                                       "-format", "json", "-execute", q])
        d = json.loads(out)
        pts = {}
        for r in d.get("results", []):
            if "error" in r:
                print("influx: %s: %s" % (q, r["error"]))
                bad += 1
            for s in r.get("series", []):
                for t, v in s["values"]:
                    pts[int(t)] = v
        if len(es) < minimum:
            print("influx: %s: only %d expected points (need %d)" % (q, len(es), minimum))
            bad += 1
        for e in es:
            checked += 1
            # collectd's cdtime_t has 2^-30 s resolution; the network plugin
            # sends it as is and InfluxDB stores nanoseconds.
            t = int(round(e["t"] * 1e9))
            got = [v for tt, v in pts.items() if abs(tt - t) < 2000]
            if not got:
                print("influx: MISSING %s at %s (expected %r); %d points there" % (
                    q, e["t"], e["v"], len(pts)))
                bad += 1
            elif float(got[0]) != float(e["v"]) and not (
                    "tol" in e and close(float(got[0]), float(e["v"]), tol=e["tol"])):
                print("influx: WRONG %s at %s: %r, expected %r" % (q, e["t"], got[0], e["v"]))
                bad += 1
    print("fwdtruth: influxdb: %d points checked against the ground truth, %d problems" % (
        checked, bad))
    return bad


# ---------------------------------------------------------------- Prometheus
def prom_name(plugin, typ, ds, derive):
    """write_prometheus's metric name (5.12 metric_family_name): the plugin
    unless it equals the type, the type, the DS name unless "value", and
    "_total" for counters."""
    parts = ["collectd"] + ([plugin] if plugin != typ else []) + [typ]
    parts += [ds] if ds != "value" else []
    parts += ["total"] if derive else []
    return "_".join(parts)


def prom_labels(host, plugin, pinst, tinst):
    """write_prometheus's labels: the plugin instance under the plugin's
    name, the type instance under "type" (or the plugin's name when there is
    no plugin instance), the host under "instance"."""
    labels = {}
    if pinst:
        labels[plugin] = pinst
    if tinst:
        labels["type" if pinst else plugin] = tinst
    labels["instance"] = host
    return labels


# The shipped relabelling (contrib/prometheus/prometheus.yml) of the CP
# series the expectations hold: (plugin instance kind, type, type instance)
# -> metric name; the plugin instance "user-<userid>" gives the label userid.
NATIVE_CP = {
    ("system", "users", "logged-on"): "zvm_users_logged_on",
    ("system", "users", "dormant"): "zvm_users_dormant",
    ("storage", "memory", "free"): "zvm_storage_free_bytes",
    ("user", "memory", "resident"): "zvm_guest_resident_bytes",
}


# Issue 53's series: (kind, type, type instance) -> (name, extra labels), as
# the shipped relabelling gives them.
for _st in ("joining", "joined", "leaving", "isolated", "suspended"):
    NATIVE_CP[("ssi", "operations", "entered-" + _st)] = ("zvm_ssi_state_entered_total", {"state": _st})
    NATIVE_CP[("ssi", "total_time_in_ms", _st)] = ("zvm_ssi_state_milliseconds_total", {"state": _st})
for _k in ("trivial", "nontrivial"):
    NATIVE_CP[("system", "operations", "transactions-mp-" + _k)] = ("zvm_transactions_total", {"kind": _k})
    NATIVE_CP[("system", "response_time", "transactions-mp-" + _k)] = (
        "zvm_transaction_response_seconds", {"kind": _k})
for _a in ("save-areas", "execution-space"):
    NATIVE_CP[("storage", "memory", _a)] = ("zvm_storage_bytes", {"area": _a})
NATIVE_CP[("storage", "operations", "paging-slots-90-full")] = "zvm_paging_slots_90_full_total"
NATIVE_CP[("system", "operations", "fast-ccw-translations")] = "zvm_fast_ccw_translations_total"
NATIVE_CP[("ssi", "operations", "sync-started")] = "zvm_ssi_syncs_started_total"
NATIVE_CP[("ssi", "operations", "sync-proceed-replies")] = "zvm_ssi_sync_proceed_replies_total"


def native_series(host, plugin, pinst, typ, tinst, ds, derive):
    """Name and labels in job collectd-zvm: zvm_* with system (and userid)
    for CP data, collectd's name with host for the Linux plugins' series."""
    if plugin != "zvm":
        labels = prom_labels(host, plugin, pinst, tinst)
        labels["host"] = labels.pop("instance")
        name = prom_name(plugin, typ, ds, derive)
    else:
        kind, _, ident = pinst.partition("-")
        name = NATIVE_CP.get((kind, typ, tinst))
        extra = {}
        if isinstance(name, tuple):
            name, extra = name
        if name is None:
            sys.exit("fwdtruth: no native name for zvm-%s/%s-%s: add it to NATIVE_CP" % (
                pinst, typ, tinst))
        labels = {"system": host}
        labels.update(extra)
        if kind == "user":
            labels["userid"] = ident
    labels["job"] = "collectd-zvm"
    return name, labels


def prom_api(port, path, **params):
    import urllib.parse
    import urllib.request
    url = "http://127.0.0.1:%d/api/v1/%s?%s" % (int(port), path, urllib.parse.urlencode(params))
    try:
        d = json.load(urllib.request.urlopen(url, timeout=10))
    except Exception as x:  # an HTTP 400 carries PromQL's complaint in its body
        body = getattr(x, "read", lambda: b"")().decode(errors="replace")
        return None, "%s: %s %s" % (url, x, body)
    if d.get("status") != "success":
        return None, "%s: %s" % (url, d.get("error"))
    return d["data"], None


def prom_ms(t):
    # collectd's CDTIME_T_TO_MS rounds to the nearest millisecond.
    return int(round(t * 1000))


def check_prom(port, exp, minimum, native=False):
    """Raw samples (a range selector), the step function query_range draws
    from them, and irate() of counters, all through Prometheus's HTTP API;
    NATIVE: under the shipped names (native_series)."""
    bad, checked, nseries = 0, 0, 0
    for k, es in sorted(by_series(exp).items()):
        host, plugin, pinst, typ, tinst, ds = k
        derive = es[0]["kind"] != "gauge"
        if native:
            name, labels = native_series(host, plugin, pinst, typ, tinst, ds, derive)
        else:
            name, labels = prom_name(plugin, typ, ds, derive), prom_labels(host, plugin, pinst, tinst)
        # The scrape target's address, in job collectd-zvm.
        allowed = {"__name__", "job"} | ({"instance"} if native else set())
        sel = "%s{%s}" % (name, ",".join('%s="%s"' % kv for kv in sorted(labels.items())))
        nseries += 1
        if len(es) < minimum:
            print("prometheus: %s: only %d expected samples (need %d)" % (sel, len(es), minimum))
            bad += 1
        want = [(prom_ms(e["t"]), e["v"]) for e in es]
        t_end = want[-1][0] / 1000.0 + 1
        span = int(t_end - want[0][0] / 1000.0) + 2
        # 1. The raw samples, timestamps as write_prometheus exported them.
        data, err = prom_api(port, "query", query="%s[%ds]" % (sel, span), time="%.3f" % t_end)
        if err:
            print("prometheus: " + err)
            bad += 1
            continue
        got = data["result"]
        if len(got) != 1:
            print("prometheus: %s[%ds]: %d series (want 1)" % (sel, span, len(got)))
            bad += 1
            continue
        extra = set(got[0]["metric"]) - set(labels) - allowed
        if extra:
            print("prometheus: %s has unexpected labels %s" % (sel, sorted(extra)))
            bad += 1
        pts = {int(round(float(t) * 1000)): float(v) for t, v in got[0]["values"]}
        for ms, v in want:
            checked += 1
            have = pts.pop(ms, None)
            if have is None:
                print("prometheus: MISSING %s at %.3f (expected %r)" % (sel, ms / 1000.0, v))
                bad += 1
            elif not close(have, v, tol=es[0].get("tol", 0.0)):
                print("prometheus: WRONG %s at %.3f: %r, expected %r" % (sel, ms / 1000.0, have, v))
                bad += 1
        for ms, v in sorted(pts.items()):
            print("prometheus: EXTRA %s at %.3f: %r, in no expectation" % (sel, ms / 1000.0, v))
            bad += 1
        if not derive:
            # 2. query_range: at every step, the newest sample at or before it.
            data, err = prom_api(port, "query_range", query=sel, start="%.3f" % (want[0][0] / 1e3),
                                 end="%.3f" % (want[-1][0] / 1e3), step="0.5")
            if err:
                print("prometheus: " + err)
                bad += 1
                continue
            rows = data["result"][0]["values"] if len(data["result"]) == 1 else []
            if not rows:
                print("prometheus: query_range %s: no series" % sel)
                bad += 1
            for t, v in rows:
                checked += 1
                ms = int(round(float(t) * 1000))
                exp_v = [wv for wms, wv in want if wms <= ms][-1]
                if not close(float(v), exp_v, tol=es[0].get("tol", 0.0)):
                    print("prometheus: WRONG query_range %s at %s: %s, expected %r" % (
                        sel, t, v, exp_v))
                    bad += 1
            continue
        # 3. irate() at each sample's time: the rate from the sample before.
        for (ms1, v1), (ms2, v2) in zip(want, want[1:]):
            if v2 < v1 or ms2 <= ms1:
                continue
            checked += 1
            win = (ms2 - ms1) // 1000 + 1
            q = "irate(%s[%ds])" % (sel, win)
            data, err = prom_api(port, "query", query=q, time="%.3f" % (ms2 / 1e3))
            r = (v2 - v1) / ((ms2 - ms1) / 1000.0)
            if err or len(data["result"]) != 1:
                print("prometheus: MISSING %s at %.3f (expected %r): %s" % (
                    q, ms2 / 1e3, r, err or data["result"]))
                bad += 1
                continue
            have = float(data["result"][0]["value"][1])
            if abs(have - r) > 1e-9 * max(abs(r), 1.0):
                print("prometheus: WRONG %s at %.3f: %r, expected %r" % (q, ms2 / 1e3, have, r))
                bad += 1
    print("fwdtruth: prometheus%s: %d series, %d values checked against the ground truth, "
          "%d problems" % (" (shipped names)" if native else "", nseries, checked, bad))
    return bad


def main(a):
    guest_fmt = "%u"
    if len(a) >= 3 and a[0] == "expect" and a[1] == "--guest-host":
        guest_fmt = a[2]
        a = a[:1] + a[3:]
    if len(a) >= 2 and a[0] == "expect":
        exp = expect(a[1], guest_fmt)
        if len(a) > 2:
            exp = dispatched(exp, a[2])
        for e in rebase(exp):
            print(json.dumps(e, sort_keys=True))
        return 0
    if len(a) >= 3 and a[0] in ("graphite", "influx", "prometheus", "prometheus-native"):
        exp = [json.loads(l) for l in open(a[2])]
        if not exp:
            print("fwdtruth: no expectations (no Linux APPLDATA in the truth?)")
            return 1
        minimum = int(a[3]) if len(a) > 3 else 1
        fn = {"graphite": check_graphite, "influx": check_influx, "prometheus": check_prom,
              "prometheus-native": lambda p, e, m: check_prom(p, e, m, native=True)}[a[0]]
        return 1 if fn(a[1], exp, minimum) else 0
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
