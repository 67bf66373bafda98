#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""zvmmon dump (JSON Lines) of a fsstat_writer.py file against what it wrote.

usage: check_dump.py TRUTH.json DUMP.jsonl
Every record written must come out, in order, as a D10R2 sample under
userid MONWRITR with the product id the driver builds (LNXAPPL, applid 1,
record 0, the mod level written), its time stamp, mount point and statvfs;
the STOP as one D10R1; an Interval End after each pass.  A monwriter file
has no time of CP's: every record says TOD 0 and "time": null, never the TOD
clock's epoch (1900).
"""
import json, sys

truth = json.load(open(sys.argv[1]))
recs = [json.loads(l) for l in open(sys.argv[2])]
recs = [r for r in recs if r.get("type") == "record"]
samples = [r for r in recs if r["domain"] == 10 and r["record"] == 2]
events = [r for r in recs if r["domain"] == 10 and r["record"] == 1]
ends = [r for r in recs if r["domain"] == 1 and r["record"] == 11]
bad = 0
if len(samples) != len(truth):
    print(f"COUNT   {len(samples)} samples, {len(truth)} written"); bad += 1
keys = ("fs_bsize", "fs_frsize", "fs_blocks", "fs_bfree", "fs_bavail", "fs_files", "fs_ffree",
        "fs_favail")
for t, r in zip(truth, samples):
    a = r["appl"]
    fs = a["filesystems"][0]
    want = {"userid": "MONWRITR", "prodid": "4C4E584150504C0001000000000000%02X" % t["mod"],
            "time_stamp": t["time"], "dir": t["dir"], "statvfs": t["statvfs"][:8],
            "flag": int(fs["fs_flag"], 16) == t["statvfs"][8]}
    got = {"userid": a["userid"], "prodid": a["prodid"], "time_stamp": a["header"]["time_stamp"],
           "dir": fs["fs_dir"], "statvfs": [fs[k] for k in keys], "flag": True}
    if got != want:
        print(f"WRONG   pass {t['pass']} mod {t['mod']}: got {got}, wrote {want}"); bad += 1
for r in samples + events:
    if r.get("tod") != "0x0000000000000000" or r.get("time", "absent") is not None:
        print(f"TIME    a D10 record with tod {r.get('tod')} time {r.get('time', 'absent')}, "
              "want TOD 0 and time null"); bad += 1
        break
passes = len({t["pass"] for t in truth})
stops = [e for e in events if e["appl"]["type"] == "fsstatd"]
freed = max(t["mod"] for t in truth)  # the last pass writes one file system fewer
if len(events) != 1 or len(stops) != 1 or stops[0]["appl"]["mod_level"] != freed:
    print(f"EVENTS  {len(events)} D10R1 records, want the one STOP of mod level {freed}"); bad += 1
if len(ends) != passes:
    print(f"INTERVALS {len(ends)} Interval End records, {passes} passes"); bad += 1
print(f"check_dump.py: {len(samples)} samples, {len(events)} events, {len(ends)} intervals, "
      f"{bad} problems")
sys.exit(1 if bad else 0)
