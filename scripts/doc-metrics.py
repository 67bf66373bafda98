#!/usr/bin/env python3
"""Put the tables `zvmmon metrics --markdown` writes into doc/metrics-cp.md,
or check that the ones there are what it writes.  Each table sits between
`<!-- BEGIN generated metrics NAME ... -->` and `<!-- END generated metrics
NAME -->`; the prose around them is the document's own.

  scripts/doc-metrics.py GENERATED DOC          replace the tables in DOC
  scripts/doc-metrics.py --check GENERATED DOC  exit 1 if DOC's tables differ

Before either, a self-test proves the check refuses a changed row, a
missing table and a table the generator does not know.
"""
import difflib
import re
import sys

BLOCK = re.compile(r"^<!-- BEGIN generated metrics ([a-z]+)\b.*?-->\n.*?^<!-- END generated metrics \1 -->\n",
                   re.M | re.S)


def blocks(text):
    return {m.group(1): m for m in BLOCK.finditer(text)}


def splice(gen, doc):
    """(new document text, problems) with doc's tables replaced by gen's."""
    want, have = blocks(gen), blocks(doc)
    problems = ["table %s: no markers in the document (add an empty BEGIN/END pair where it goes)"
                % n for n in want if n not in have]
    problems += ["table %s: in the document, not written by zvmmon metrics" % n
                 for n in have if n not in want]
    out, last = [], 0
    for name, m in sorted(have.items(), key=lambda kv: kv[1].start()):
        out.append(doc[last:m.start()])
        out.append(want[name].group(0) if name in want else m.group(0))
        last = m.end()
    out.append(doc[last:])
    return "".join(out), problems


def check(gen, doc, docname):
    new, problems = splice(gen, doc)
    if new != doc:
        problems.append("%s: the metric tables differ from `zvmmon metrics --markdown` "
                        "(make doc-metrics rewrites them):" % docname)
        problems += [l.rstrip("\n") for l in difflib.unified_diff(
            doc.splitlines(True), new.splitlines(True), docname, "generated", n=0)]
    return problems


def self_test():
    row = "| `zvm-x/a-b` | D0R2 F_G | Δ | V | - | x | GAUGE |\n"
    gen = ("<!-- BEGIN generated metrics cpu: from the table -->\n" + row +
           "<!-- END generated metrics cpu -->\n")
    doc = "# Title\n\nprose\n\n" + gen + "\nmore prose\n"
    cases = [("identical", doc, 0),
             ("a changed row", doc.replace("GAUGE", "DERIVE"), 1),
             ("a missing table", "# Title\n", 1),
             ("an unknown table", doc + gen.replace("cpu", "nic"), 1)]
    for what, text, want in cases:
        got = len(check(gen, text, "doc.md"))
        if (got > 0) != (want > 0):
            sys.exit("doc-metrics self-test: %s was %s" % (what, "refused" if got else "accepted"))
    new, problems = splice(gen, doc.replace("GAUGE", "DERIVE"))
    if problems or new != doc:
        sys.exit("doc-metrics self-test: splicing did not restore the table")


def main(argv):
    self_test()
    only_check = argv[:1] == ["--check"]
    args = argv[1:] if only_check else argv
    if len(args) != 2:
        sys.exit(__doc__)
    with open(args[0], encoding="utf-8") as fh:
        gen = fh.read()
    with open(args[1], encoding="utf-8") as fh:
        doc = fh.read()
    if not blocks(gen):
        sys.exit("doc-metrics: %s holds no generated table" % args[0])
    if only_check:
        problems = check(gen, doc, args[1])
        for p in problems:
            print(p)
        if problems:
            return 1
        print("check-doc-metrics: %s's %d metric tables are the ones zvmmon metrics writes"
              % (args[1], len(blocks(gen))))
        return 0
    new, problems = splice(gen, doc)
    for p in problems:
        print(p)
    if new != doc:
        with open(args[1], "w", encoding="utf-8") as fh:
            fh.write(new)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
