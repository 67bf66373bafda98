#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make check-man: the manual pages keep up with what they describe.

* zvmsim(1)'s "The control file" section and doc/zvmsim.md's table of
  control commands name every command zvmsim's control file takes (the
  verbs zvmsim/sim_fuse.c compares in control() and its helpers), and no
  other;
* each page's SEE ALSO names the project's other pages (zvmmon(1),
  zvmsim(1), collectd-zvm(5));
* collectd-zvm(5) says the project's types.db holds no type exactly when it
  holds none.
Exit 1 with a line per problem.
"""
import re
import sys

PAGES = {"zvmmon(1)": "man/zvmmon.1", "zvmsim(1)": "man/zvmsim.1",
         "collectd-zvm(5)": "man/collectd-zvm.5.pod"}


def control_verbs():
    src = open("zvmsim/sim_fuse.c").read()
    return set(re.findall(r'strcmp\(verb, "([a-z]+)"\)', src))


def man_section(text, head):
    m = re.search(r"^\.SS %s\n(.*?)^\.S[SH] " % re.escape(head), text, re.M | re.S)
    return m.group(1) if m else ""


def see_also(name, text):
    if name.endswith("(5)"):
        m = re.search(r"^=head1 SEE ALSO\n(.*?)^=head1", text, re.M | re.S)
        return m.group(1) if m else ""
    m = re.search(r"^\.SH SEE ALSO\n(.*?)(^\.SH |\Z)", text, re.M | re.S)
    # roff: ".BR zvmsim (1)" and "collectd\-zvm" read as "zvmsim(1)".
    return re.sub(r"^\.BR? (\S+) \((\d)\)", r"\1(\2)", m.group(1), flags=re.M).replace(
        "\\-", "-") if m else ""


def main():
    problems = []
    verbs = control_verbs()
    if len(verbs) < 10:
        problems.append("found only %d control verbs in zvmsim/sim_fuse.c: %s" % (
            len(verbs), sorted(verbs)))
    sec = man_section(open(PAGES["zvmsim(1)"]).read(), "The control file")
    # The tag line after each .TP: "interval [N], burst N", "efault [sample]".
    in_man = set()
    for tag in re.findall(r"^\.TP\n(.*)$", sec, re.M):
        in_man.update(re.findall(r"(?<![\w\\])([a-z]{2,})\b", re.sub(r"\\f[A-Z]", " ", tag)))
    in_doc = set(re.findall(r"^\| `([a-z]+)", open("doc/zvmsim.md").read().split(
        "`control` (0666)", 1)[-1].split("\n\n", 2)[1], re.M))
    for where, have in (("zvmsim(1) The control file", in_man), ("doc/zvmsim.md", in_doc)):
        for v in sorted(verbs - have):
            problems.append("%s lacks the control command %s" % (where, v))
        for v in sorted(have - verbs - {"sample"}):
            problems.append("%s names %s, which zvmsim's control file does not take" % (where, v))
    for name, path in PAGES.items():
        sa = see_also(name, open(path).read())
        if not sa:
            problems.append("%s has no SEE ALSO" % name)
        for other in PAGES:
            if other != name and other not in sa:
                problems.append("%s: SEE ALSO lacks %s" % (name, other))
    ntypes = sum(1 for line in open("types.db") if line.split("#", 1)[0].strip())
    says_none = "holds no type" in re.sub(r"\s+", " ", open(PAGES["collectd-zvm(5)"]).read())
    if says_none != (ntypes == 0):
        problems.append("types.db holds %d types, and collectd-zvm(5) says it holds %s" % (
            ntypes, "none" if says_none else "some"))
    for p in problems:
        print("check-man: " + p)
    print("check-man: %d control commands, %d pages: %d problems" % (
        len(verbs), len(PAGES), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
