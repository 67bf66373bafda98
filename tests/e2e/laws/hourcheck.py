#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""zvmmon stat against zvmsim's ground truth (--truth-counts, doc/zvmsim.md):
every (domain, record) generated appears with its domain, record and DSECT
names and its exact count; nothing is "unknown"; the only errors are the
torn APPLDATA copies the simulator made on purpose.

usage: hourcheck.py TRUTH.jsonl STAT.json STAT.txt ZVMMON-EXIT-STATUS
"""
import collections
import json
import re
import sys

truth_path, json_path, text_path, rc = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
errors = []


def fail(msg):
    errors.append(msg)
    print("FAIL: " + msg)


want = collections.Counter()
torn = intervals = 0
with open(truth_path) as f:
    for line in f:
        o = json.loads(line)
        if "set" in o:
            # Every sample set ends with an Interval End; End-of-Frame records
            # are counted per set (doc/zvmsim.md, Ground truth).
            if o["type"] == "S":
                want[(1, 11)] += 1
                intervals += 1
            want[(1, 13)] += o["eof"]
        else:
            want[(o["domain"], o["record"])] += 1
            torn += o.get("note") == "torn"
want = {k: v for k, v in want.items() if v}

st = json.load(open(json_path))
got = {}
for e in st["by_record"]:
    key = (e["domain"], e["record"])
    got[key] = e["count"]
    names = (e.get("domain_name"), e.get("record_name"), e.get("dsect", "unknown"))
    if "unknown" in names or not re.fullmatch(r"[A-Z][A-Z0-9@#$]{2,7}", names[2] or ""):
        fail("D%dR%d named %s" % (key[0], key[1], names))
    else:
        print("ok: D%dR%d %-6s %-45s %8d" % (key[0], key[1], e["dsect"], e["record_name"], e["count"]))
for key in sorted(set(want) | set(got)):
    if want.get(key, 0) != got.get(key, 0):
        fail("D%dR%d: zvmsim made %d, zvmmon stat counts %d" % (key[0], key[1], want.get(key, 0), got.get(key, 0)))
if st.get("unknown_domain") != 0:
    fail("unknown_domain = %s" % st.get("unknown_domain"))
if st.get("intervals") != intervals:
    fail("intervals: zvmmon %s, zvmsim %d" % (st.get("intervals"), intervals))
want_err = {"appl_sync": torn} if torn else {}
if st.get("errors", {}) != want_err:
    fail("errors %s, want %s (the torn copies)" % (st.get("errors"), want_err))
if rc != (1 if torn else 0):
    fail("zvmmon stat exit status %d with %d torn copies" % (rc, torn))

text = open(text_path).read()
left = re.sub(r"\bunknown_domain=0\b", "", text)
if "unknown" in left:
    fail("text output says unknown: %s" % [l.strip() for l in left.splitlines() if "unknown" in l][:3])
for d, r in want:
    if not re.search(r"domain=%d .*record=%d record_name=\"[^\"]+\" dsect=\S+ count=" % (d, r), text):
        fail("text output lacks D%dR%d with its names" % (d, r))

print("%d record types, %d records, %d intervals, %d torn APPLDATA copies (appl_sync)" %
      (len(want), sum(want.values()), intervals, torn))
if errors:
    print("zvmmon hour: %d failure(s)" % len(errors))
    sys.exit(1)
print("zvmmon hour: all named, counts match the truth")
