#!/usr/bin/env python3
"""Check the table of Performance Toolkit's reports in doc/metrics-cp.md
(issue 53, item 1) against what the decoder has.  The table is the one place
that says which metrics carry which report; this check keeps it true:

  * every metric it names (`zvm-...` in the metrics column) is in the
    decoder's metric table, as `zvmmon metrics --markdown` prints it;
  * every record it names (DnRm NAME, in any column) is in the registry, as
    `zvmmon layouts --coverage` lists it;
  * a row served (yes, partly) names a metric, a row not served names none,
    and a row not fully served says why;
  * the rows are the reports issue 53 lists, each once;
  * the share printed under the table ("N of M rows served, P % (a yes,
    b partly, c no).") is the one the rows give: N counts yes and partly.

Usage: check-report-table.py [--selftest] ZVMMON [DOC]
  ZVMMON: the zvmmon program; DOC: the document (doc/metrics-cp.md).
--selftest first proves each rule on a planted bad table.  Run from the
tree top."""
import re
import subprocess
import sys

BEGIN = "<!-- BEGIN report table"
END = "<!-- END report table -->"
COLUMNS = ["report", "what it shows", "metrics", "records and fields", "served", "missing, and why"]
SERVED = ("yes", "partly", "no")
# The reports issue 53 names, in its words: a row may not go silently, which
# would raise the share.
ISSUE_REPORTS = [
    "system summary", "CPU per processor", "LPAR", "LPAR log", "storage", "storage log",
    "paging log", "auxiliary storage", "paging and spool devices", "user", "user log",
    "user paging", "user wait states", "scheduler", "device", "device log", "channels",
    "minidisk cache", "virtual NICs", "virtual switches", "SSI", "ISFC", "spool",
]
METRIC = re.compile(r"`(zvm-[^`]+)`")
RECORD = re.compile(r"\bD(\d+)R(\d+)\b( [A-Z][A-Z0-9]{5}(?![A-Z0-9]))?")
SHARE = re.compile(r"^(\d+) of (\d+) rows served, (\d+) % \((\d+) yes, (\d+) partly, (\d+) no\)\.$")


def known_metrics(markdown):
    """The identifier patterns of `zvmmon metrics --markdown`'s table rows."""
    return {m.group(1) for m in re.finditer(r"^\| `([^`]+)` \|", markdown, re.M)}


def known_records(coverage):
    """(DnRm, NAME) of every record `zvmmon layouts --coverage` lists."""
    return {(m.group(1), m.group(2)) for m in re.finditer(r"^(D\d+R\d+)\s+([A-Z][A-Z0-9]{5})\b", coverage, re.M)}


def section(text):
    """The lines between the markers, or None."""
    lines = text.splitlines()
    starts = [i for i, l in enumerate(lines) if l.startswith(BEGIN)]
    ends = [i for i, l in enumerate(lines) if l.strip() == END]
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        return None
    return lines[starts[0] + 1:ends[0]]


def split_row(line):
    return [c.strip() for c in line.strip().strip("|").split(" | ")]


def check_records(name, cells, records):
    errors, named = [], 0
    for col in (3, 5):
        for m in RECORD.finditer(cells[col]):
            rid = "D%sR%s" % (m.group(1), m.group(2))
            if not m.group(3):
                errors.append("%s: record %s without its name (write it as %s NAME)" % (name, rid, rid))
            elif (rid, m.group(3).strip()) not in records:
                errors.append("%s: record %s%s is not in the registry (zvmmon layouts --coverage)"
                              % (name, rid, m.group(3)))
            if col == 3:
                named += 1
    if not named:
        errors.append("%s: names no record in its records column" % name)
    return errors


def check_row(cells, metrics, records):
    """Errors of one row and its served value (None when unreadable)."""
    name = cells[0]
    if len(cells) != len(COLUMNS):
        return ["%s: %d cells, wanted %d" % (name, len(cells), len(COLUMNS))], None
    errors, served = [], cells[4]
    if served not in SERVED:
        errors.append("%s: served is %r, wanted one of %s" % (name, served, ", ".join(SERVED)))
        served = None
    named = METRIC.findall(cells[2])
    rest = METRIC.sub("", cells[2]).replace(",", "").strip()
    if rest not in ("", "-") or (named and rest):
        errors.append("%s: the metrics column holds more than `metric` patterns: %r" % (name, rest))
    errors += ["%s: metric %s is not in zvmmon metrics" % (name, m) for m in named if m not in metrics]
    if served in ("yes", "partly") and not named:
        errors.append("%s: served %s and names no metric" % (name, served))
    if served == "no" and named:
        errors.append("%s: not served but names metrics" % name)
    if served in ("partly", "no") and cells[5] in ("", "-"):
        errors.append("%s: served %s and says not why" % (name, served))
    return errors + check_records(name, cells, records), served


def check_share(line, counts):
    m = SHARE.match(line)
    if not m:
        return ["the share line %r is not \"N of M rows served, P %% (a yes, b partly, c no).\"" % line]
    yes, partly, no = counts["yes"], counts["partly"], counts["no"]
    total, served = yes + partly + no, yes + partly
    want = (served, total, int(100 * served / total + 0.5) if total else 0, yes, partly, no)
    got = tuple(int(g) for g in m.groups())
    if got != want:
        return ["the share line says %r, the rows give \"%d of %d rows served, %d %% (%d yes, %d partly, %d no).\""
                % (line, *want)]
    return []


def check(text, metrics, records, reports=ISSUE_REPORTS):
    """Every error of the document's report table."""
    lines = section(text)
    if lines is None:
        return ["no single %s ... %s section" % (BEGIN, END)]
    rows = [l for l in lines if l.startswith("|")]
    if len(rows) < 2 or split_row(rows[0]) != COLUMNS:
        return ["the table's header is not | %s |" % " | ".join(COLUMNS)]
    errors, counts, names = [], {s: 0 for s in SERVED}, []
    for line in rows[2:]:
        cells = split_row(line)
        names.append(cells[0])
        errs, served = check_row(cells, metrics, records)
        errors += errs
        if served:
            counts[served] += 1
    errors += ["report %r is listed more than once" % n for n in sorted(set(names)) if names.count(n) > 1]
    errors += ["report %r of issue 53 has no row" % n for n in reports if n not in names]
    errors += ["row %r is not a report issue 53 lists" % n for n in names if n not in reports]
    shares = [l.strip() for l in lines if l.strip() and not l.startswith("|")]
    if len(shares) != 1:
        return errors + ["wanted one share line under the table, found %d" % len(shares)]
    return errors + check_share(shares[0], counts)


GOOD = """text before
<!-- BEGIN report table: test -->
| report | what it shows | metrics | records and fields | served | missing, and why |
|---|---|---|---|---|---|
| alpha | a | `zvm-a/x`, `zvm-a/y` | D0R2 SYTPRP: PFXUTIME | yes | - |
| beta | b | `zvm-a/y` | D0R1 SYTSYP: PLSDIAGT | partly | type: D1R5 MTRPRP is a hint |
| gamma | c | - | D0R12 SYTUWT | no | no field readable |

2 of 3 rows served, 67 % (1 yes, 1 partly, 1 no).
<!-- END report table -->
text after
"""
# (change to the good table, a piece of the error it must cause)
PLANTED = [
    (("`zvm-a/x`", "`zvm-a/z`"), "metric zvm-a/z is not in zvmmon metrics"),
    (("D0R2 SYTPRP", "D0R2 SYTPRX"), "record D0R2 SYTPRX is not in the registry"),
    (("D0R1 SYTSYP:", "D0R1:"), "record D0R1 without its name"),
    (("D0R12 SYTUWT |", "none |"), "gamma: names no record"),
    (("| `zvm-a/y` | D0R1", "| - | D0R1"), "beta: served partly and names no metric"),
    (("| - | D0R12", "| `zvm-a/x` | D0R12"), "gamma: not served but names metrics"),
    (("| no field readable |", "| - |"), "gamma: served no and says not why"),
    (("| yes |", "| maybe |"), "alpha: served is 'maybe'"),
    (("`zvm-a/x`, `zvm-a/y`", "`zvm-a/x`, zvm-a/y"), "more than `metric` patterns"),
    (("2 of 3 rows served, 67 %", "3 of 3 rows served, 67 %"), "the rows give \"2 of 3 rows served, 67 %"),
    (("67 %", "66 %"), "the share line says"),
    (("| gamma | c |", "| delta | c |"), "report 'gamma' of issue 53 has no row"),
    (("| beta | b |", "| alpha | b |"), "report 'alpha' is listed more than once"),
    (("2 of 3 rows served, 67 % (1 yes, 1 partly, 1 no).", "most rows served"), "is not \"N of M"),
    (("<!-- END report table -->", ""), "no single"),
]


def selftest():
    metrics = {"zvm-a/x", "zvm-a/y"}
    records = {("D0R2", "SYTPRP"), ("D0R1", "SYTSYP"), ("D1R5", "MTRPRP"), ("D0R12", "SYTUWT")}
    reports = ["alpha", "beta", "gamma"]
    fails = []
    got = check(GOOD, metrics, records, reports)
    if got:
        fails.append("the good table is refused: %s" % "; ".join(got))
    for (old, new), want in PLANTED:
        assert old in GOOD, old
        got = check(GOOD.replace(old, new, 1), metrics, records, reports)
        if not any(want in e for e in got):
            fails.append("%r -> %r: wanted an error with %r, got %r" % (old, new, want, got))
    for f in fails:
        print("check-report-table selftest: FAIL: %s" % f)
    print("check-report-table selftest: %s" % ("%d planted tables refused" % len(PLANTED) if not fails
                                                else "%d failed" % len(fails)))
    return not fails


def run(zvmmon, *args):
    out = subprocess.run([zvmmon, *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("check-report-table: %s %s failed: %s" % (zvmmon, " ".join(args), out.stderr.strip()))
    return out.stdout


def main(argv):
    args = argv[1:]
    if args[:1] == ["--selftest"]:
        if not selftest():
            return 1
        args = args[1:]
        if not args:
            return 0
    if not 1 <= len(args) <= 2:
        sys.exit(__doc__)
    zvmmon, doc = args[0], args[1] if len(args) > 1 else "doc/metrics-cp.md"
    metrics = known_metrics(run(zvmmon, "metrics", "--markdown"))
    records = known_records(run(zvmmon, "layouts", "--coverage"))
    with open(doc, encoding="utf-8") as fh:
        text = fh.read()
    errors = check(text, metrics, records)
    for e in errors:
        print("check-report-table: %s: %s" % (doc, e))
    if errors:
        return 1
    table = "\n".join(section(text))
    share = [l for l in section(text) if SHARE.match(l.strip())][0].strip()
    print("check-report-table: %s: the table names %d metrics and %d records, all known; %s"
          % (doc, len(set(METRIC.findall(table))), len(set(RECORD.findall(table))), share))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
