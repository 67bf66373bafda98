#!/usr/bin/env python3
"""Check that each plugin's self-metrics table lists what the plugin reports.

The zvm plugin reports its counters in plugin/zvm/zvm_stats.c (derive(), gauge()),
write_zvm in plugin/write_zvm/write_zvm.c (submit()), each call with the type and the
type instance as literals.  Their tables are in doc/plugin.md and
doc/write_zvm.md, under a heading that starts "Self-metrics": the first
column names each metric as `type-instance` (or `type` alone), several in
one cell separated by commas.  A name made at run time (`errors-decode-KIND`)
is written with a capital placeholder and left out of the comparison.

  scripts/check-self-metrics.py   exit 1 when a table and its plugin differ

Before it, a self-test proves the check refuses a metric the table lacks and a
row the plugin does not report.
"""
import re
import sys

PAIRS = [("plugin/zvm/zvm_stats.c", "doc/plugin.md"), ("plugin/write_zvm/write_zvm.c", "doc/write_zvm.md")]
CALL = re.compile(r'\b(?:derive|gauge|submit)\(\s*"([a-z_]+)",\s*"([a-z_]*)"')
NAME = re.compile(r"`([^`]+)`")


def reported(code):
    return {t + ("-" + ti if ti else "") for t, ti in CALL.findall(code)}


def documented(doc):
    """The names in the first column of the tables of the Self-metrics section."""
    names, inside = set(), False
    for line in doc.splitlines():
        if line.startswith("#"):
            inside = re.match(r"#+ Self-metrics", line) is not None
            continue
        if inside and line.startswith("| `"):
            first = line.split("|")[1]
            names |= {n for n in NAME.findall(first) if not re.search(r"[A-Z]", n)}
    return names


def compare(code, doc, label):
    have, told = reported(code), documented(doc)
    problems = ["%s: reports %s, which its table does not list" % (label, n)
                for n in sorted(have - told)]
    problems += ["%s: its table lists %s, which it does not report" % (label, n)
                 for n in sorted(told - have)]
    if not have:
        problems.append("%s: no self-metric calls found (has their form changed?)" % label)
    return problems


def self_test():
    code = 'derive("total_values", "a", x);\n submit(\n  "queue_length", "", v);'
    doc = "## Self-metrics\n\n| id | m |\n|---|---|\n| `total_values-a` | x |\n| `queue_length` | y |\n"
    assert compare(code, doc, "t") == [], compare(code, doc, "t")
    assert compare(code + 'gauge("gauge", "b", 1);', doc, "t"), "a metric the table lacks"
    assert compare(code, doc + "| `total_values-c`, `errors-decode-KIND` | z |\n", "t"), "an extra row"
    assert compare(code, doc.replace("Self-metrics", "Other"), "t"), "no section"


def main():
    self_test()
    problems = []
    for src, doc in PAIRS:
        with open(src) as f, open(doc) as g:
            problems += compare(f.read(), g.read(), "%s (%s)" % (src, doc))
    for p in problems:
        print("check-self-metrics: " + p, file=sys.stderr)
    if problems:
        return 1
    print("check-self-metrics: %d plugins' self-metric tables list what they report" % len(PAIRS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
