#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What `zvmmon top` must show, computed from zvmsim's ground truth alone.

usage:
  truth_top.py json TRUTH.jsonl TOP.jsonl [--broken LAW] [--sort COL] [--filter GLOB]
  truth_top.py screen TRUTH.jsonl SCREEN.txt INTERVAL [--sort COL] [--filter GLOB]

json:   every line of `zvmmon top -b --json` against the truth, interval by
        interval: each figure to 1e-6, each "?" where the documented rule says
        the law cannot be on yet (auto: three holding intervals in a row, the
        first interval has no deltas), the rows in sort order.
screen: a captured screen (tmux capture-pane) or a `-b` text table: the
        title's interval, the numbers to the shown precision, the order.

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
             storage used/free: (RSAPGABL - RSAAVAIL) and RSAAVAIL frames, MiB;
             paging: sum over CPUs of d(PLSPIOPR + PLSPIOPW) per second;
             users: SYTUSR_SYSUSRS
"""
import fnmatch, json, sys

TOD_S = 4096e6
VIO = ["USEACT_VMDVCSCT", "USEACT_VMDVDSCT", "USEACT_VMDVUSCT", "USEACT_VMDVTSCT",
       "USEACT_VMDVOSCT"]
# The law of each column (doc/metrics-cp.md); None: verified, always a number.
LAW = {"cpu": "guest-cpu", "vcpu": "guest-vcpu", "paging": "paging", "vio": "guest-vio",
       "resident": "guest-resident", "load": None, "linux_mem": None,
       "cpu_busy": None, "storage_used": "storage", "storage_free": "storage",
       "sys_paging": "paging", "users": None}
# First interval each law can hold: rates and delta laws need a previous interval.
FIRST_HOLD = {"guest-cpu": 2, "guest-vcpu": 2, "paging": 2, "guest-vio": 2,
              "storage": 1, "guest-resident": 1}
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
        d = iv.setdefault(i, {"g": {}, "prp": {}, "syp": {}, "rsg": None, "usr": None,
                              "os": {}, "mem": {}})
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
        elif dom == 0 and rec == 8:
            d["usr"] = f
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
    s["storage_used"] = (r["SYTRSG_RSAPGABL"] - r["SYTRSG_RSAAVAIL"]) * 4096 / 1048576
    s["storage_free"] = r["SYTRSG_RSAAVAIL"] * 4096 / 1048576
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


SYSJSON = {"cpu_busy": "cpu_busy", "storage_used": "storage_used",
           "storage_free": "storage_free", "sys_paging": "paging", "users": "users"}


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
            "linux_mem": 1, "cpu_busy": 1, "storage_used": 0, "storage_free": 0,
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
        elif w[:1] == ["cpus"]:
            t = line.replace("%", " ").replace("/s", " ").split()
            sysf = {"cpu_busy": shown(t[3]), "storage_used": shown(t[7]),
                    "storage_free": shown(t[9]), "sys_paging": shown(t[11]),
                    "users": shown(t[13])}
        elif w[:1] == ["USERID"]:
            head = True
        elif head and len(w) == 9 and w[6] == "|":
            vals = w[1:6] + w[7:9]
            rows.append((w[0], {c: shown(v) for c, v in zip(COLS, vals)}))
        elif head:
            head = False
    return interval, sysf, rows


def check_screen(truth, screen, interval, sort, glob):
    iv, ck = read_truth(truth), Checker()
    lines = open(screen).read().splitlines()
    got_iv, sysf, rows = parse_screen(lines)
    if got_iv != interval:
        ck.fail(f"screen shows interval {got_iv}, want {interval}")
        return ck
    want_rows, want_sys = expected(iv, interval, None)
    for c, v in sysf.items():
        ck.cell(f"system {c}", v, want_sys[c], 0.5 * 10 ** -DECIMALS[c] + 1e-6)
    got = [u for u, _ in rows]
    want = order(want_rows, sort, glob)
    if got != want:
        ck.fail(f"rows on screen {got}, want {want} (sort {sort}, filter {glob})")
    for uid, cells in rows:
        for c in COLS:
            w = want_rows.get(uid, {}).get(c, "no such guest")
            ck.cell(f"{uid} {c}", cells[c], w, 0.5 * 10 ** -DECIMALS[c] + 1e-6)
    return ck


def main(a):
    opts = {"--broken": None, "--sort": "c", "--filter": None}
    pos = []
    i = 0
    while i < len(a):
        if a[i] in opts:
            opts[a[i]] = a[i + 1]
            i += 2
        else:
            pos.append(a[i])
            i += 1
    sort = KEYS.get(opts["--sort"], opts["--sort"])
    if pos[0] == "json":
        ck = check_json(pos[1], pos[2], opts["--broken"], sort, opts["--filter"])
    else:
        ck = check_screen(pos[1], pos[2], int(pos[3]), sort, opts["--filter"])
    print(f"truth_top.py {pos[0]}: {ck.checked} figures compared with the truth, "
          f"{ck.bad} problems")
    return 1 if ck.bad or not ck.checked else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
