#!/usr/bin/env python3
"""Refuse commands in the documentation that do not do what the text says.

Usage: check-doc-commands.py [--selftest] [DIR]   (default: the git work
tree holding the current directory)

Looks at the commands a reader copies: code blocks and code spans of every
tracked Markdown file, verbatim paragraphs and C<> of every POD page.  Today
one rule, for a mistake the documents made:

  modprobe with several module names needs -a (--all): without it, modprobe
  loads the first module and passes the other names to it as parameters
  ("modprobe appldata_mem appldata_os" loads appldata_mem alone).  A word
  after the module name without "=" is therefore refused.

--selftest first proves the rule on lines it must pass and lines it must
refuse.  Exit 0 when no command breaks it, 1 with one line per command.
"""
import re
import subprocess
import sys

MODPROBE = re.compile(r"(?:^|[\s/`])modprobe((?:\s+[^\s,;()\"|#&`]+)+)")


def modprobe_problem(cmd):
    """What is wrong with a modprobe invocation in CMD, or None."""
    m = MODPROBE.search(cmd)
    if not m:
        return None
    words = m.group(1).split()
    opts = [w for w in words if w.startswith("-")]
    names = [w for w in words if not w.startswith("-")]
    if "-a" in opts or "--all" in opts or any(o.startswith("-") and not o.startswith("--")
                                               and "a" in o[1:] and "=" not in o for o in opts):
        return None
    # -r removes: it takes several names without -a.
    if "-r" in opts or "--remove" in opts:
        return None
    extra = [w for w in names[1:] if "=" not in w]
    if extra:
        return "modprobe %s: %s would be parameters of %s, not modules (add -a)" % (
            " ".join(words), " ".join(extra), names[0])
    return None


def code_of_markdown(lines):
    """(line number, code text) of fenced and indented blocks and code spans."""
    fence = None
    prev_blank = True
    in_indented = False
    for n, line in enumerate(lines, 1):
        s = line.rstrip("\n")
        f = re.match(r"\s*(```|~~~)", s)
        if fence:
            if f and f.group(1) == fence:
                fence = None
            else:
                yield n, s
            continue
        if f:
            fence = f.group(1)
            continue
        if s.startswith("    ") and (prev_blank or in_indented) and s.strip():
            in_indented = True
            yield n, s
        elif s.strip():
            in_indented = False
        prev_blank = not s.strip()
        for span in re.findall(r"`([^`]+)`", s):
            yield n, span


def code_of_pod(lines):
    for n, line in enumerate(lines, 1):
        s = line.rstrip("\n")
        if s[:1] in (" ", "\t"):
            yield n, s
        for span in re.findall(r"C<+\s*([^>]+?)\s*>+", s):
            yield n, span


def problems(path, text):
    lines = text.splitlines()
    code = code_of_pod(lines) if path.endswith(".pod") else code_of_markdown(lines)
    for n, c in code:
        p = modprobe_problem(c)
        if p:
            yield "%s:%d: %s" % (path, n, p)


def selftest():
    good = ["modprobe monreader mondcss=MONDCSS", "modprobe -a appldata_mem appldata_os",
            "/sbin/modprobe -q monwriter", "modprobe --all a b",
            "(modprobe monreader mondcss=NAME, default MONDCSS)", "modprobe -r a b"]
    bad = ["modprobe appldata_mem appldata_os appldata_net_sum", "sudo modprobe -v a b"]
    fails = 0
    for g in good:
        if modprobe_problem(g):
            print("check-doc-commands selftest: FAIL: refused %r" % g)
            fails += 1
    for b in bad:
        if not modprobe_problem(b):
            print("check-doc-commands selftest: FAIL: passed %r" % b)
            fails += 1
    # Prose is no command: "the udev, modprobe and systemd files".
    md = ("text\n\n    modprobe a b\n\n```\nmodprobe c d\n```\nsee `modprobe e f`\n"
          "the udev, modprobe and systemd files\n")
    got = [p.split(":")[1] for p in problems("x.md", md)]
    if got != ["3", "6", "8"]:
        print("check-doc-commands selftest: FAIL: Markdown code found on lines %s, wanted 3 6 8" % got)
        fails += 1
    pod = "=head1 X\n\n  modprobe a b\n\nRun C<modprobe c d>.\n"
    got = [p.split(":")[1] for p in problems("x.pod", pod)]
    if got != ["3", "5"]:
        print("check-doc-commands selftest: FAIL: POD code found on lines %s, wanted 3 5" % got)
        fails += 1
    print("check-doc-commands selftest: %s" % ("all cases behave" if not fails else "%d failed" % fails))
    return fails == 0


def main(argv):
    args = argv[1:]
    if args[:1] == ["--selftest"]:
        if not selftest():
            return 1
        args = args[1:]
    top = args[0] if args else "."
    files = subprocess.run(["git", "-C", top, "ls-files", "*.md", "*.pod"],
                           capture_output=True, text=True)
    if files.returncode != 0:
        print("check-doc-commands: %s is not in a git work tree" % top)
        return 2
    bad = []
    paths = files.stdout.split()
    for p in paths:
        with open("%s/%s" % (top, p), encoding="utf-8", errors="replace") as f:
            bad.extend(problems(p, f.read()))
    for b in bad:
        print("check-doc-commands: " + b)
    print("check-doc-commands: %d files, %d commands refused" % (len(paths), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
