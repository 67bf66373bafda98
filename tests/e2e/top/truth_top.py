#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What `zvmmon top` must show, computed from zvmsim's ground truth alone.

usage:
  truth_top.py json TRUTH.jsonl TOP.jsonl [--broken LAW] [--sort COL] [--filter GLOB]
  truth_top.py screen TRUTH.jsonl SCREEN.txt INTERVAL [--sort COL] [--filter GLOB] [--first N]
  truth_top.py screens TRUTH.jsonl TOP.jsonl [--broken LAW]
  truth_top.py table TRUTH.jsonl SCREEN.txt INTERVAL NAME [--reverse] [--first N]

json:   every line of `zvmmon top -b --json` against the truth, interval by
        interval: each figure to 1e-6, each "?" where the documented rule says
        the law cannot be on yet (auto: three holding intervals in a row, the
        first interval has no deltas), the rows in sort order.
screen: a captured screen (tmux capture-pane) or a `-b` text table: the
        title's interval, the numbers to the shown precision, the order.
screens: `zvmmon top -b --json --screen all`: every screen beyond the guests
        (processors, lpar, storage, devices, vnics), interval by interval.
table:  a captured screen or `-b --screen NAME` text of one of those screens:
        its rows' keys and numbers, to the shown precision, in the default
        order (largest first, or reversed), or a window of it (--first N: the
        screen's "rows N-M of T" line, checked too).

Expectations come from the truth and doc/metrics-cp.md, never from zvmmon:
  cpu, vcpu  sum over the guest's virtual CPUs of d(USEACT_VMDTTIME / VMDVTIME)
             in CPU-timer units (4096 per us) over d(record TOD), as % of one CPU
  paging     sum of d(CALCPPGR + CALCPPGW) per second (32-bit counters)
  vio        sum of d(VMDVCSCT + VMDVDSCT + VMDVUSCT + VMDVTSCT + VMDVOSCT) per second
  resident   sum of VMDCTPVR x 4096 bytes, in MiB
  load       the newest untorn LINUXKRNL.OS sample: avenrun_1 as /proc/loadavg prints it
  linux_mem  the newest untorn LINUXKRNL.MEM sample: (totalram - freeram -
             bufferram - cached) KiB, in MiB
  system     busy: mean over CPUs of d(PFXUTIME + PFXTMSYS) / d(TOD), %;
             storage used/free: (RSAPGABL - RSAAVAIL) and RSAAVAIL frames, GiB;
             paging: sum over CPUs of d(PLSPIOPR + PLSPIOPW) per second;
             users: SYTUSR_SYSUSRS
  processors per CPU address: busy, user, overhead, emulation, wait: d(PFXUTIME
             + PFXTMSYS), d(PFXUTIME), d(PFXTMSYS), |d(PFXPRBTM)|, d(PFXTOTWT)
             over d(TOD) of its SYTPRP records, %; diagnose, simulation, ssch:
             d(PLSDIAGT), d(PLSPRVIS), d(PLSCTSS + PLSCTRS) per s (SYTSYP)
  lpar       a row per partition and logical CPU (SYTCUP_LCUPNAME, LCUPCPCT);
             the entries' times are not in the truth: 0 <= management <=
             dispatched <= 100
  storage    used, free, pageable (used + free) GiB; paging in/out per s: sums
             over CPUs of d(PLSPIOPR), d(PLSPIOPW); users logged on, dormant
             (SYTUSR_SYSUSRS, SRMCDORM)
  devices    per RDEVDEV (4 hex digits): d(SCGSSCH) per s; connect, pending,
             disconnect, device-active: d(SCMCNTIM ...) x 128 us per SSCH, ms
  vnics      per VNDSES_OWNER-VDEVDEV: d(SESRXBYT), d(SESTXBYT), packets,
             errors, discards per s
"""
import fnmatch, json, re, sys

TOD_S = 4096e6
GIB = 1 << 30
VIO = ["USEACT_VMDVCSCT", "USEACT_VMDVDSCT", "USEACT_VMDVUSCT", "USEACT_VMDVTSCT",
       "USEACT_VMDVOSCT"]
# The law of each column (doc/metrics-cp.md); None: verified, always a number.
LAW = {"cpu": "guest-cpu", "vcpu": "guest-vcpu", "paging": "paging", "vio": "guest-vio",
       "resident": "guest-resident", "load": None, "linux_mem": None,
       "cpu_busy": None, "storage_used": "storage", "storage_free": "storage",
       "sys_paging": "paging", "users": None}
# First interval each law can hold: rates and delta laws need a previous interval.
FIRST_HOLD = {"guest-cpu": 2, "guest-vcpu": 2, "paging": 2, "guest-vio": 2,
              "storage": 1, "guest-resident": 1, "cpu-wait": 2, "lpar": 2, "device-ssch": 2,
              "device-time": 2, "vnic": 2}
KEYS = {"u": "userid", "c": "cpu", "v": "vcpu", "p": "paging", "i": "vio", "r": "resident",
        "l": "load", "m": "linux_mem"}
COLS = ["cpu", "vcpu", "paging", "vio", "resident", "load", "linux_mem"]


def law_on(law, interval, broken):
    """auto: on once the law held VerifyIntervals (3) intervals in a row."""
    if law is None:
        return True
    if law == broken:
        return False
    return interval >= FIRST_HOLD[law] + 2


def read_truth(path):
    iv = {}  # interval -> {"guests": {userid: {...}}, "cpus": {...}, ...}
    for line in open(path):
        if not line.endswith("\n"):
            break  # zvmsim stopped mid-write: a set after the last one delivered
        r = json.loads(line)
        if "domain" not in r:
            continue
        i = r["interval"]
        d = iv.setdefault(i, {"g": {}, "prp": {}, "syp": {}, "rsg": None, "usr": None, "one": {},
                              "os": {}, "mem": {}, "cup": {}, "dev": {}, "nic": {}})
        f, dom, rec = r.get("fields", {}), r["domain"], r["record"]
        if dom == 4 and rec == 3:
            g = d["g"].setdefault(f["USEACT_VMDUSER"].strip(), {"tod": r["tod"], "tt": 0,
                                  "vt": 0, "pg": 0, "vio": 0, "res": 0})
            g["tod"] = min(g["tod"], r["tod"])
            g["tt"] += f["USEACT_VMDTTIME"]
            g["vt"] += f["USEACT_VMDVTIME"]
            g["pg"] += f["USEACT_CALCPPGR"] + f["USEACT_CALCPPGW"]
            g["vio"] += sum(f[k] for k in VIO)
            g["res"] += f["USEACT_VMDCTPVR"]
            g.setdefault("vcpu", []).append(f)
        elif dom == 0 and rec == 2:
            d["prp"][f["SYTPRP_PFXCPUAD"]] = (r["tod"], f)
        elif dom == 0 and rec == 1:
            d["syp"][f["SYTSYP_PFXCPUAD"]] = (r["tod"], f)
        elif dom == 0 and rec == 3:
            d["rsg"] = f
        elif dom == 0 and rec == 16:
            d["cup"][f["SYTCUP_LCUPNAME"].strip()] = f["SYTCUP_LCUPCPCT"]
        elif dom == 6 and rec == 3:
            d["dev"]["%04X" % f["IODDEV_RDEVDEV"]] = (r["tod"], f)
        elif dom == 8 and rec == 1:
            d["nic"]["%s-%04X" % (f["VNDSES_OWNER"].strip(), f["VNDSES_VDEVDEV"])] = (r["tod"], f)
        elif dom == 0 and rec == 8:
            d["usr"] = f
            d["one"]["usr"] = (r["tod"], f)
        elif (dom, rec) in ONE:
            d["one"][ONE[(dom, rec)]] = (r["tod"], f)
        elif dom == 10 and r.get("payload_layout", "").startswith("LINUXKRNL"):
            p = r["payload"]
            if p["sync_count_1"] != p["sync_count_2"]:
                continue  # torn: the guest keeps showing its last good sample
            uid = f["APLSDT_USERID"].strip()
            if r["payload_layout"] == "LINUXKRNL.OS":
                a = p["avenrun_1"]  # as /proc/loadavg prints it (doc/plugin.md)
                d["os"][uid] = float("%d.%02d" % (a >> 11, ((a & 2047) * 100) >> 11))
            elif r["payload_layout"] == "LINUXKRNL.MEM":
                used = max(0, p["totalram"] - p["freeram"] - p["bufferram"] - p["cached"])
                d["mem"][uid] = used * 1024 / 1048576
    return iv


def d32(a, b):
    return (b - a) % (1 << 32)


def expected(iv, i, broken):
    """{userid: {col: value or "?" or "-"}}, {sys col: ...} for interval i."""
    cur, prev = iv[i], iv.get(i - 1)
    rows = {}
    lin_os, lin_mem = {}, {}
    for k in sorted(x for x in iv if x <= i):
        lin_os.update(iv[k]["os"])
        lin_mem.update(iv[k]["mem"])
    for uid, g in cur["g"].items():
        p = prev["g"].get(uid) if prev else None
        e = {}
        if p:
            dt = (g["tod"] - p["tod"]) / TOD_S
            e["cpu"] = (g["tt"] - p["tt"]) / 4096 * 1000 / 1e9 / dt * 100
            e["vcpu"] = (g["vt"] - p["vt"]) / 4096 * 1000 / 1e9 / dt * 100
            e["paging"] = sum(d32(a["USEACT_CALCPPGR"], b["USEACT_CALCPPGR"]) +
                              d32(a["USEACT_CALCPPGW"], b["USEACT_CALCPPGW"])
                              for a, b in zip(p["vcpu"], g["vcpu"])) / dt
            e["vio"] = sum(d32(a[k], b[k]) for a, b in zip(p["vcpu"], g["vcpu"]) for k in VIO) / dt
        e["resident"] = g["res"] * 4096 / 1048576
        if uid in lin_os:
            e["load"] = lin_os[uid]
        if uid in lin_mem:
            e["linux_mem"] = lin_mem[uid]
        for c in COLS:
            if not law_on(LAW[c], i, broken):
                e[c] = "?"
            elif c not in e:
                e[c] = "-"
        rows[uid] = e
    s = {}
    if prev:
        busy = []
        for cpu, (tod, f) in cur["prp"].items():
            if cpu in prev["prp"]:
                ptod, pf = prev["prp"][cpu]
                dt = (tod - ptod) / 4096
                u = (f["SYTPRP_PFXUTIME"] - pf["SYTPRP_PFXUTIME"] +
                     f["SYTPRP_PFXTMSYS"] - pf["SYTPRP_PFXTMSYS"]) / 4096
                busy.append(min(100, max(0, 100 * u / dt)))
        if busy:
            s["cpu_busy"] = sum(busy) / len(busy)
        pg, dt = 0, None
        for cpu, (tod, f) in cur["syp"].items():
            if cpu in prev["syp"]:
                ptod, pf = prev["syp"][cpu]
                dt = (tod - ptod) / TOD_S
                pg += d32(pf["SYTSYP_PLSPIOPR"], f["SYTSYP_PLSPIOPR"]) + \
                    d32(pf["SYTSYP_PLSPIOPW"], f["SYTSYP_PLSPIOPW"])
        if dt:
            s["sys_paging"] = pg / dt
    r = cur["rsg"]
    s["storage_used"] = (r["SYTRSG_RSAPGABL"] - r["SYTRSG_RSAAVAIL"]) * 4096 / GIB
    s["storage_free"] = r["SYTRSG_RSAAVAIL"] * 4096 / GIB
    s["users"] = cur["usr"]["SYTUSR_SYSUSRS"]
    for c in ("cpu_busy", "storage_used", "storage_free", "sys_paging", "users"):
        if not law_on(LAW[c], i, broken):
            s[c] = "?"
        elif c not in s:
            s[c] = "-"
    return rows, s


def order(rows, sort, glob):
    """The userids in the documented order: numbers first, largest first, ties A-Z."""
    ids = [u for u in rows if not glob or fnmatch.fnmatchcase(u, glob.upper())]
    if sort == "userid":
        return sorted(ids)
    num = lambda u: isinstance(rows[u][sort], float) or isinstance(rows[u][sort], int)
    return sorted(ids, key=lambda u: (0, -rows[u][sort], u) if num(u) else (1, 0, u))


def near(got, want, tol):
    if isinstance(want, str):
        return got == want
    return not isinstance(got, str) and got is not None and abs(got - want) <= tol


class Checker:
    def __init__(self):
        self.bad = 0
        self.checked = 0

    def fail(self, msg):
        self.bad += 1
        if self.bad <= 20:
            print("FAIL", msg)

    def cell(self, where, got, want, tol):
        self.checked += 1
        if not near(got, want, tol):
            self.fail(f"{where}: shown {got}, truth {want}")


def tol(want):
    """The engine takes CPU timers and elapsed times in whole microseconds: over
    zvmsim run's short intervals (about a second) that is a few parts in 10^6."""
    return 1e-5 + (1e-5 * abs(want) if not isinstance(want, str) else 0)


def json_cell(obj, name):
    v = obj.get(name)
    if v is not None:
        return v
    return "?" if name in obj.get("unproven", []) else "-"


SYSJSON = {"cpu_busy": "cpu_busy", "storage_used": "storage_used_gib",
           "storage_free": "storage_free_gib", "sys_paging": "paging", "users": "users"}


def check_json(truth, top, broken, sort, glob):
    iv, ck = read_truth(truth), Checker()
    frames = [json.loads(l) for l in open(top)]
    samples = sorted(i for i in iv if iv[i]["g"])
    if [f["interval"] for f in frames] != samples:
        ck.fail(f"intervals shown {[f['interval'] for f in frames]}, truth has {samples}")
    for f in frames:
        i = f["interval"]
        if i not in iv:
            continue
        rows, sysw = expected(iv, i, broken)
        for c, name in SYSJSON.items():
            ck.cell(f"interval {i} system {name}", json_cell(f, name), sysw[c], tol(sysw[c]))
        got = [g["userid"] for g in f["guests"]]
        want = order(rows, sort, glob)
        if got != want:
            ck.fail(f"interval {i}: rows {got}, want {want} (sort {sort}, filter {glob})")
        for g in f["guests"]:
            for c in COLS:
                w = rows.get(g["userid"], {}).get(c, "no such guest")
                ck.cell(f"interval {i} {g['userid']} {c}", json_cell(g, c), w, tol(w))
    return ck


DECIMALS = {"cpu": 1, "vcpu": 1, "paging": 1, "vio": 1, "resident": 1, "load": 2,
            "linux_mem": 1, "cpu_busy": 1, "storage_used": 2, "storage_free": 2,
            "sys_paging": 1, "users": 0}


def shown(tok):
    return tok if tok in ("?", "-") else float(tok)


def parse_screen(lines):
    """The interval, the system figures and the rows of a screen or text table."""
    interval, sysf, rows, head = None, {}, [], False
    for line in lines:
        w = line.split()
        if "interval" in w and interval is None:
            interval = int(w[w.index("interval") + 1])
        elif w[:1] == ["cpus"] or (sysf and w[:1] in (["free"], ["paging"], ["users"])):
            sysf.update(parse_sys(line))
        elif w[:1] == ["USERID"]:
            head = True
        elif head and len(w) == 9 and w[6] == "|":
            vals = w[1:6] + w[7:9]
            rows.append((w[0], {c: shown(v) for c, v in zip(COLS, vals)}))
        elif head:
            head = False
    return interval, sysf, rows


SYSRE = {"cpu_busy": r"busy (\S+?)%?(?:\s|$)", "storage_used": r"used (\S+)",
         "storage_free": r"free (\S+)", "sys_paging": r"paging (\S+?)(?:/s)?(?:\s|$)",
         "users": r"users (\S+)"}


def parse_sys(line):
    """The system line's fields (or those on it: the rest may be on a second line)."""
    out = {}
    for k, rx in SYSRE.items():
        m = re.search(rx, line)
        if m:
            out[k] = shown(m.group(1))
    return out


def check_screen(truth, screen, interval, sort, glob, first=None):
    """first: the screen shows a window from row first on (its "rows a-b of N" line too)."""
    iv, ck = read_truth(truth), Checker()
    lines = open(screen).read().splitlines()
    got_iv, sysf, rows = parse_screen(lines)
    if got_iv != interval:
        ck.fail(f"screen shows interval {got_iv}, want {interval}")
        return ck
    want_rows, want_sys = expected(iv, interval, None)
    if sorted(sysf) != sorted(SYSRE):  # a field left out must be on the second line
        ck.fail(f"system line: fields {sorted(sysf)}, want {sorted(SYSRE)}")
    for c, v in sysf.items():
        ck.cell(f"system {c}", v, want_sys[c], 0.5 * 10 ** -DECIMALS[c] + 1e-6)
    got = [u for u, _ in rows]
    want = order(want_rows, sort, glob)
    if first:
        want = want[first - 1:first - 1 + len(got)]
        m = next((re.search(r"rows (\d+)-(\d+) of (\d+)", l) for l in lines
                  if re.search(r"rows \d+-\d+ of", l)), None)
        win = tuple(int(x) for x in m.groups()) if m else None
        ck.checked += 1
        if win != (first, first + len(got) - 1, len(want_rows)):
            ck.fail(f"window {win}, want rows {first}-{first + len(got) - 1} of {len(want_rows)}")
    if got != want:
        ck.fail(f"rows on screen {got}, want {want} (sort {sort}, filter {glob})")
    for uid, cells in rows:
        for c in COLS:
            w = want_rows.get(uid, {}).get(c, "no such guest")
            ck.cell(f"{uid} {c}", cells[c], w, 0.5 * 10 ** -DECIMALS[c] + 1e-6)
    return ck

# The screens beyond the guests: each column's law (None: verified).
SCREEN_LAW = {
    "processors": {"busy": None, "user": None, "overhead": None, "emulation": None,
                   "wait": "cpu-wait", "diagnose": None, "simulation": None, "ssch": None},
    "lpar": {"dispatched": "lpar", "management": "lpar"},
    "storage": {"value": "item"},  # each item's own law: STORAGE_LAW
    "devices": {"ssch": "device-ssch", "connect_ms": "device-time", "pending_ms": "device-time",
                "disconnect_ms": "device-time", "active_ms": "device-time"},
    "vnics": {c: "vnic" for c in ("rx_bytes", "tx_bytes", "rx_packets", "tx_packets",
                                  "rx_errors", "tx_errors", "rx_dropped", "tx_dropped")},
}
STORAGE_LAW = {"storage used GiB": "storage", "storage free GiB": "storage",
               "storage pageable GiB": "storage", "paging in /s": "paging",
               "paging out /s": "paging", "users logged on": None, "users dormant": None}
KEYNAME = {"processors": "cpu", "lpar": "partition_cpu", "storage": "item", "devices": "device",
           "vnics": "vnic"}
# Headings on the screen and in -b text: the key column's, then each column's member.
HEAD = {"CPU": "cpu", "BUSY%": "busy", "USER%": "user", "SYS%": "overhead", "EMUL%": "emulation",
        "WAIT%": "wait", "DIAG/s": "diagnose", "SIMUL/s": "simulation", "SSCH/s": "ssch",
        "DISP%": "dispatched", "MGMT%": "management", "VALUE": "value", "CONN-ms": "connect_ms",
        "PEND-ms": "pending_ms", "DISC-ms": "disconnect_ms", "ACTV-ms": "active_ms",
        "RX-B/s": "rx_bytes", "TX-B/s": "tx_bytes", "RXPK/s": "rx_packets",
        "TXPK/s": "tx_packets", "RXER/s": "rx_errors", "TXER/s": "tx_errors",
        "RXDR/s": "rx_dropped", "TXDR/s": "tx_dropped"}
KEYHEAD = {"processors": "CPU", "lpar": "PARTITION CPU", "storage": "ITEM", "devices": "DEVICE",
           "vnics": "OWNER-DEV"}
DEFAULT_SORT = {"processors": "busy", "lpar": "dispatched", "storage": None, "devices": "ssch",
                "vnics": "rx_bytes"}


def pct(a, b, dt_us):
    return min(100, max(0, 100 * abs(b - a) / 4096 / dt_us))


def processors(cur, prev, rated):
    """rated: the interval before prev too; a "sum of deltas" (DERIVE) has a rate from then."""
    rows = {}
    for cpu, (tod, f) in cur["prp"].items():
        if prev and cpu in prev["prp"]:
            e = rows.setdefault(str(cpu), {})
            ptod, p = prev["prp"][cpu]
            dt = (tod - ptod) / 4096
            ut = lambda k: pct(p["SYTPRP_" + k], f["SYTPRP_" + k], dt)
            e["busy"] = min(100, max(0, 100 * ((f["SYTPRP_PFXUTIME"] - p["SYTPRP_PFXUTIME"]) +
                                               (f["SYTPRP_PFXTMSYS"] - p["SYTPRP_PFXTMSYS"])) /
                                     4096 / dt))
            e["user"], e["overhead"] = ut("PFXUTIME"), ut("PFXTMSYS")
            e["emulation"], e["wait"] = ut("PFXPRBTM"), ut("PFXTOTWT")
    for cpu, (tod, f) in cur["syp"].items():
        if rated and cpu in prev["syp"]:
            e = rows.setdefault(str(cpu), {})
            ptod, p = prev["syp"][cpu]
            dt = (tod - ptod) / TOD_S
            d = lambda *ks: sum(d32(p["SYTSYP_" + k], f["SYTSYP_" + k]) for k in ks) / dt
            e["diagnose"], e["simulation"] = d("PLSDIAGT"), d("PLSPRVIS")
            e["ssch"] = d("PLSCTSS", "PLSCTRS")
    return rows


# Records of one entry a system whose values the storage screen shows.
ONE = {(0, 19): "sysg", (0, 21): "sxg", (3, 1): "storsg", (0, 6): "asg"}
# Their rows: (label, record, field, GiB or 1) for readings; (label, record,
# field) for "sums of deltas" per second; (label, count, time) for the mean
# response time of a transaction, TOD units to seconds.
ONE_READ = [("storage save areas GiB", "storsg", "STORSG_RSASAVFR"),
            ("execution space GiB", "sxg", "SYTSXG_SXSSIZE")]
ONE_RATE = [("paging slots 90% full /s", "asg", "SYTASG_CAL90FUL"),
            ("fast CCW translations /s", "sysg", "SYTSYG_FTRDONE"),
            ("MP trivial transactions /s", "usr", "SYTUSR_CALMPTCT"),
            ("MP non-trivial transactions /s", "usr", "SYTUSR_CALMPNCT")]
ONE_MEAN = [("MP trivial response s", "SYTUSR_CALMPTCT", "SYTUSR_CALMPTRV"),
            ("MP non-trivial response s", "SYTUSR_CALMPNCT", "SYTUSR_CALMPNTR")]
STORAGE_LAW.update({label: None for label, *_ in ONE_READ + ONE_RATE + ONE_MEAN})


def one_rows(cur, prev, rated):
    rows = {}
    for label, rec, k in ONE_READ:
        if rec in cur["one"]:
            rows[label] = cur["one"][rec][1][k] * 4096 / GIB
    for label, rec, k in ONE_RATE:
        if rec not in cur["one"] or not prev or rec not in prev["one"]:
            continue
        (tod, f), (ptod, p) = cur["one"][rec], prev["one"][rec]
        rows[label] = d32(p[k], f[k]) / ((tod - ptod) / TOD_S) if rated else "-"
    if prev and "usr" in prev["one"]:
        f, p = cur["one"]["usr"][1], prev["one"]["usr"][1]
        for label, n, t in ONE_MEAN:
            dn = d32(p[n], f[n])
            if dn:
                rows[label] = (f[t] - p[t]) / 4096 / 1e6 / dn
    return rows


def storage(cur, prev, rated):
    u, fr = cur["usr"], cur["rsg"]
    used = (fr["SYTRSG_RSAPGABL"] - fr["SYTRSG_RSAAVAIL"]) * 4096 / GIB
    free = fr["SYTRSG_RSAAVAIL"] * 4096 / GIB
    rows = {"storage used GiB": used, "storage free GiB": free,
            "storage pageable GiB": used + free, "users logged on": u["SYTUSR_SYSUSRS"],
            "users dormant": u["SYTUSR_SRMCDORM"]}
    rows.update(one_rows(cur, prev, rated))
    if prev and not rated:  # the row is there, its rate not yet (a "sum of deltas")
        rows["paging in /s"] = rows["paging out /s"] = "-"
    elif prev:
        for name, k in (("paging in /s", "SYTSYP_PLSPIOPR"), ("paging out /s", "SYTSYP_PLSPIOPW")):
            tot, dt = 0, None
            for cpu, (tod, f) in cur["syp"].items():
                if cpu in prev["syp"]:
                    ptod, p = prev["syp"][cpu]
                    dt = (tod - ptod) / TOD_S
                    tot += d32(p[k], f[k])
            if dt:
                rows[name] = tot / dt
    return {k: {"value": v} for k, v in rows.items()}


def per_s(cur, prev, key, cols):
    rows = {}
    for k, (tod, f) in cur[key].items():
        if prev and k in prev[key]:
            e = rows.setdefault(k, {})
            ptod, p = prev[key][k]
            dt = (tod - ptod) / TOD_S
            for c, fields in cols.items():
                e[c] = sum(d32(p[x], f[x]) for x in fields) / dt
    return rows


def devices(cur, prev):
    rows = per_s(cur, prev, "dev", {"ssch": ["IODDEV_SCGSSCH"], "connect_ms": ["IODDEV_SCMCNTIM"],
                                    "pending_ms": ["IODDEV_SCMFPTIM"],
                                    "disconnect_ms": ["IODDEV_SCMDDTIM"],
                                    "active_ms": ["IODDEV_SCMDATIM"]})
    for k, e in rows.items():
        tod, f = cur["dev"][k]
        ptod, p = prev["dev"][k]
        n = d32(p["IODDEV_SCGSSCH"], f["IODDEV_SCGSSCH"])
        # The engine counts whole ms (sum of deltas x 128 / 1000): up to 1 ms off
        # in an interval, over its SSCH.
        e["_tol"] = 1.0 / n if n else 0
        for c in ("connect_ms", "pending_ms", "disconnect_ms", "active_ms"):
            if c in e:  # 128 us units per s, over SSCH per s: ms per SSCH
                e[c] = e[c] * 0.128 / e["ssch"] if e["ssch"] > 0 else "-"
    return rows


def vnics(cur, prev):
    n = "VNDSES_SES"
    return per_s(cur, prev, "nic", {"rx_bytes": [n + "RXBYT"], "tx_bytes": [n + "TXBYT"],
                                    "rx_packets": [n + "RXPKT"], "tx_packets": [n + "TXPKT"],
                                    "rx_errors": [n + "RXERR"], "tx_errors": [n + "TXERR"],
                                    "rx_dropped": [n + "RXDSC"], "tx_dropped": [n + "TXDSC"]})


def lpar(cur, prev):
    """Only the rows: the truth holds no entry times (their bounds are checked apart)."""
    return {"%s cpu%d" % (p, j): {} for p, n in cur["cup"].items() for j in range(n)
            if prev and p in prev["cup"]}


def screens_expected(iv, i, broken):
    """{screen: {key: {col: value, "?" or "-"}}}; a column absent from a row: not known."""
    cur, prev = iv[i], iv.get(i - 1)
    prev = prev if prev and prev["g"] else None  # interval 0: the configuration set
    # The processors' counts (SYTSYP) are DERIVE values the engine makes as a
    # "sum of deltas" from the second interval: their rates start at the third.
    rated = prev if i - 2 in iv and iv[i - 2]["g"] else None
    out = {"processors": processors(cur, prev, rated), "lpar": lpar(cur, prev),
           "storage": storage(cur, prev, rated), "devices": devices(cur, prev),
           "vnics": vnics(cur, prev)}
    for name, rows in out.items():
        for k, e in rows.items():
            for c, law in SCREEN_LAW[name].items():
                law = STORAGE_LAW[k] if law == "item" else law
                if e.get(c) == "-":  # no value: the storage column has no law of its own
                    continue
                if not law_on(law, i, broken):
                    e[c] = "?"
                elif c not in e and name != "lpar":
                    e[c] = "-"
    return out


def screen_order(rows, sort, reverse):
    """Numbers largest first (reverse: smallest), then the rest; ties and keys by number."""
    nat = lambda k: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", k)]
    if sort is None:
        return None  # the storage screen: as made, not checked here
    num = lambda k: isinstance(rows[k].get(sort), (int, float))
    sign = 1 if reverse else -1
    return sorted(rows, key=lambda k: (0, sign * rows[k][sort], nat(k)) if num(k)
                  else (1, 0, nat(k)))


def lpar_bounds(ck, where, got):
    d, m = got.get("dispatched"), got.get("management")
    if isinstance(d, (int, float)) and isinstance(m, (int, float)):
        ck.checked += 1
        if not (0 <= m <= d <= 100.05):
            ck.fail(f"{where}: management {m} dispatched {d} out of 0 <= m <= d <= 100")


def check_rows(ck, where, name, got, want, tolf):
    """got, want: {key: {col: value}}; every row present, every known cell near."""
    if sorted(got) != sorted(want):
        ck.fail(f"{where} {name}: rows {sorted(got)}, truth {sorted(want)}")
    for k, cells in got.items():
        if name == "lpar":
            lpar_bounds(ck, f"{where} lpar {k}", cells)
        for c, w in want.get(k, {}).items():
            if c in cells:
                t = tolf(c, cells[c], w) + (want[k].get("_tol", 0) if c.endswith("_ms") else 0)
                ck.cell(f"{where} {name} {k} {c}", cells[c], w, t)


def check_screens(truth, top, broken):
    iv, ck = read_truth(truth), Checker()
    for line in open(top):
        f = json.loads(line)
        i = f["interval"]
        want = screens_expected(iv, i, broken)
        for name in SCREEN_LAW:
            got = {r[KEYNAME[name]]: {c: json_cell(r, c) for c in SCREEN_LAW[name]}
                   for r in f[name]}
            check_rows(ck, f"interval {i}", name, got, want[name], lambda c, g, w: tol(w))
            order = screen_order(want[name], DEFAULT_SORT[name], False)
            keys = [r[KEYNAME[name]] for r in f[name]]
            if order is not None and name != "lpar" and keys != order:
                ck.fail(f"interval {i} {name}: order {keys}, want {order}")
    return ck


def token(tok):
    """A cell as shown: its value and the half unit of its last digit (k/M/G/T: 1000s)."""
    if tok in ("?", "-", ">"):
        return tok, 0
    mult = {"k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}.get(tok[-1], 1)
    num = tok[:-1] if mult != 1 else tok
    dec = len(num.split(".")[1]) if "." in num else 0
    return float(num) * mult, 0.5 * 10 ** -dec * mult


def parse_table(lines, name):
    """{key: {col: (value, tolerance)}} and the keys in order, from the heading on."""
    head, rows, order, window = None, {}, [], None
    for line in lines:
        m = re.search(r"rows (\d+)-(\d+) of (\d+)", line)
        if m:
            window = tuple(int(x) for x in m.groups())
        if line.startswith(KEYHEAD[name] + " "):
            head = [HEAD[h] for h in line[len(KEYHEAD[name]):].replace("|", " ").split()]
            width = len(line) - len(line[len(KEYHEAD[name]):].lstrip())
            continue
        if head is None:
            continue
        if not line.strip() or len(line) < width:
            break
        vals = line[width:].replace("|", " ").split()
        if len(vals) != len(head):
            break
        key = line[:width].strip()
        rows[key] = {c: token(v) for c, v in zip(head, vals)}
        order.append(key)
    return rows, order, window


def check_table(truth, screen, interval, name, reverse, first):
    iv, ck = read_truth(truth), Checker()
    lines = open(screen).read().splitlines()
    got_iv = next((int(l.split()[l.split().index("interval") + 1]) for l in lines
                   if "interval" in l.split()), None)
    if got_iv != interval:
        ck.fail(f"screen shows interval {got_iv}, want {interval}")
        return ck
    want = screens_expected(iv, interval, None)[name]
    rows, order, window = parse_table(lines, name)
    cells = {k: {c: v for c, (v, _) in r.items()} for k, r in rows.items()}
    tols = {k: {c: t for c, (_, t) in r.items()} for k, r in rows.items()}
    # The rows shown are rows of the truth (a window: not all of them); their
    # numbers to the precision shown, below.
    check_rows(ck, f"interval {interval}", name, cells, {k: {} for k in want if k in rows},
               lambda c, g, w: 0)
    for k in rows:
        if k not in want:
            ck.fail(f"{name}: row {k} shown, not in the truth")
    for k in rows:  # "?" and "-" exactly
        for c, w in want.get(k, {}).items():
            if isinstance(w, str) and c in cells[k]:
                ck.cell(f"{name} {k} {c}", cells[k][c], w, 0)
    for k in rows:  # to the precision shown
        for c, w in want.get(k, {}).items():
            if not isinstance(w, str) and c in cells[k] and not isinstance(cells[k][c], str):
                extra = want[k].get("_tol", 0) if c.endswith("_ms") else 0
                ck.cell(f"{name} {k} {c} (shown)", cells[k][c], w, tols[k][c] + extra + 1e-6)
    full = screen_order(want, DEFAULT_SORT[name], reverse)
    if full is not None and name != "lpar":
        lo = first - 1 if first else 0
        if order != full[lo:lo + len(order)]:
            ck.fail(f"{name}: rows {order}, want {full[lo:lo + len(order)]}")
    if first:
        ck.checked += 1
        if not window or window[0] != first or window[2] != len(want) or \
                window[1] != first + len(order) - 1:
            ck.fail(f"{name}: window {window}, want rows {first}-{first + len(order) - 1} "
                    f"of {len(want)}")
    elif len(order) != len(want):
        ck.fail(f"{name}: {len(order)} rows shown, truth has {len(want)}")
    return ck


def main(a):
    opts = {"--broken": None, "--sort": "c", "--filter": None, "--first": None}
    pos = []
    i = 0
    reverse = False
    while i < len(a):
        if a[i] == "--reverse":
            reverse = True
            i += 1
        elif a[i] in opts:
            opts[a[i]] = a[i + 1]
            i += 2
        else:
            pos.append(a[i])
            i += 1
    sort = KEYS.get(opts["--sort"], opts["--sort"])
    if pos[0] == "json":
        ck = check_json(pos[1], pos[2], opts["--broken"], sort, opts["--filter"])
    elif pos[0] == "screens":
        ck = check_screens(pos[1], pos[2], opts["--broken"])
    elif pos[0] == "table":
        first = int(opts["--first"]) if opts["--first"] else None
        ck = check_table(pos[1], pos[2], int(pos[3]), pos[4], reverse, first)
    else:
        first = int(opts["--first"]) if opts["--first"] else None
        ck = check_screen(pos[1], pos[2], int(pos[3]), sort, opts["--filter"], first)
    print(f"truth_top.py {pos[0]}: {ck.checked} figures compared with the truth, "
          f"{ck.bad} problems")
    return 1 if ck.bad or not ck.checked else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
