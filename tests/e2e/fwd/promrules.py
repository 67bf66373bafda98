#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check the shipped Prometheus configuration (contrib/prometheus/) on a live
Prometheus that scraped collectd with it as job "collectd-zvm".

usage: promrules.py PORT RULES.yml... [--alert NAME[:LABEL=VALUE]]...
       promrules.py scale FACTOR SHIPPED.yml OUTDIR

scale: copy SHIPPED (contrib/prometheus/prometheus.yml) and its rule files
into OUTDIR with every duration of the rules (rate() windows and "for")
divided by FACTOR, the expressions and thresholds as they are: a test whose
monitor intervals are 1 s instead of CP's 60 s sees in seconds what the
shipped rules see in minutes.

Fails (exit 1, a line per problem) unless:
  * the relabelling named every series of the zvm plugin: no collectd_zvm_*
    name is left in the job;
  * every metric a rule records, and every metric a rule's expression reads
    (the names zvm_*, collectd_* and up in it), has a series in the job, so
    that no rule is about a series that does not exist;
  * every rule evaluates without error;
  * the alerts of JOB active now (pending or firing) are exactly the --alert
    ones: each NAME, with LABEL=VALUE when given, active once, and nothing
    else.
"""
import json
import os
import re
import shutil
import sys
import time
import urllib.parse
import urllib.request

import yaml

JOB = "collectd-zvm"
NAME_RE = re.compile(r"\b(zvm_[a-z0-9_]+|collectd_[a-z0-9_]+|up)\b")


def api(port, path, **params):
    url = "http://127.0.0.1:%s/api/v1/%s?%s" % (port, path, urllib.parse.urlencode(params))
    d = json.load(urllib.request.urlopen(url, timeout=10))
    if d.get("status") != "success":
        sys.exit("promrules: %s: %s" % (url, d.get("error")))
    return d["data"]


def series(port, match):
    now = time.time()
    return api(port, "series", **{"match[]": match, "start": "%.3f" % (now - 3600),
                                  "end": "%.3f" % now})


DURATION_RE = re.compile(r"(\[|\bfor: )(\d+)m\b")


def scale(factor, shipped, outdir):
    """The shipped files with each duration (in minutes there) divided by factor."""
    here = os.path.dirname(os.path.abspath(shipped))
    os.makedirs(outdir, exist_ok=True)
    shutil.copy(shipped, outdir)
    n = 0
    for f in yaml.safe_load(open(shipped)).get("rule_files", []):
        text = open(os.path.join(here, f)).read()
        text, k = DURATION_RE.subn(
            lambda m: "%s%gs" % (m.group(1), int(m.group(2)) * 60 / factor), text)
        n += k
        with open(os.path.join(outdir, f), "w") as out:
            out.write(text)
    print("promrules: %d durations divided by %g in %s" % (n, factor, outdir))
    return 0 if n else 1


def main(argv):
    if len(argv) == 4 and argv[0] == "scale":
        return scale(float(argv[1]), argv[2], argv[3])
    port, files, want = None, [], []
    i = 0
    while i < len(argv):
        if argv[i] == "--alert":
            name, _, lv = argv[i + 1].partition(":")
            want.append((name, tuple(lv.split("=", 1)) if lv else None))
            i += 2
        elif port is None:
            port = argv[i]
            i += 1
        else:
            files.append(argv[i])
            i += 1
    if port is None or not files:
        sys.exit(__doc__)
    problems = []
    left = sorted({s["__name__"] for s in series(port, '{__name__=~"collectd_zvm_.+",job="%s"}' % JOB)})
    for n in left:
        problems.append("the relabelling leaves %s unnamed" % n)
    names, nrules = set(), 0
    for f in files:
        for g in yaml.safe_load(open(f))["groups"]:
            for r in g["rules"]:
                nrules += 1
                if "record" in r:
                    names.add(r["record"])
                names.update(NAME_RE.findall(r["expr"]))
    for n in sorted(names):
        if not series(port, '{__name__="%s",job="%s"}' % (n, JOB)):
            problems.append("no series %s in job %s (named in a rule)" % (n, JOB))
    for g in api(port, "rules")["groups"]:
        for r in g["rules"]:
            if r.get("health") != "ok" or r.get("lastError"):
                problems.append("rule %s: health %s %s" % (r["name"], r.get("health"),
                                                           r.get("lastError", "")))
    # The tests' job "collectd" scrapes the same write_prometheus in collectd's
    # shape: an alert on collectd's own names (collectd_cpu_total) is raised
    # there too, a copy of the one in JOB.
    active = [a for a in api(port, "alerts")["alerts"] if a["state"] in ("pending", "firing")
              and a["labels"].get("job", JOB) == JOB]
    for name, lv in want:
        hit = [a for a in active if a["labels"]["alertname"] == name
               and (lv is None or a["labels"].get(lv[0]) == lv[1])]
        if len(hit) != 1:
            problems.append("alert %s%s: %d active (want 1)" % (name, " %s=%s" % lv if lv else "",
                                                                len(hit)))
        for a in hit:
            active.remove(a)
    for a in active:
        problems.append("alert active without a reason: %s %s" % (a["state"], a["labels"]))
    for p in problems:
        print("promrules: " + p)
    print("promrules: %d rules, %d metric names in them, %d alerts as expected: %d problems" % (
        nrules, len(names), len(want), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
