#!/usr/bin/env python3
"""Refuse citations a reader of the repository cannot follow.

Usage: check-citations.py [DIR]   (default: the git work tree holding the
current directory)

The project was written from research notes that are not part of the
repository.  Their facts, with public sources, are in doc/facts/; code and
documents cite those pages.  This check fails when a tracked file names one
of the notes again, the place they were kept, or a seed document by its
number (cite the public document instead: doc/facts/README.md).

Exit 0 when no tracked file does, 1 with one line per citation otherwise,
2 when DIR is not in a git work tree.
"""
import re
import subprocess
import sys

# The notes' names, spelled in pieces so that this file does not cite them.
NOTES = [
    "kernel-and-" + "s390-tools",
    "cp-field-" + "offsets",
    "zvm-monitor-" + "records",
    "collectd-and-" + "peers",
    "s390x-collectd-" + "under-qemu",
]
PLACE = "shared/" + "reference"
FORBIDDEN = re.compile(r"\b(%s)\b|%s" % ("|".join(map(re.escape, NOTES)), re.escape(PLACE)))
SEED = re.compile(r"\bseeds? 0\d\d\b")

# Files that may still cite a seed by number, and why.  Research-note names
# have no exemption.
SEED_DATA = {
    "decoder/payload/vm370/lay_vm370.c":
        "the layout rows' source strings are data (zvmmon prints them); the "
        "comments cite the public manual",
}


def tracked_lines(top):
    """(path, line number, text) of every line of every tracked text file."""
    out = subprocess.run(["git", "-C", top, "grep", "-n", "-I", "-z", "-e", ""],
                         capture_output=True).stdout
    for rec in out.split(b"\n"):
        parts = rec.split(b"\0", 2)
        if len(parts) == 3:
            yield parts[0].decode("utf-8", "replace"), int(parts[1]), \
                parts[2].decode("utf-8", "replace")


def main(argv):
    where = argv[0] if argv else "."
    r = subprocess.run(["git", "-C", where, "rev-parse", "--show-toplevel"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print("check-citations: %s is not in a git work tree" % where, file=sys.stderr)
        return 2
    top = r.stdout.strip()
    bad = files = 0
    seen = set()
    for path, n, text in tracked_lines(top):
        seen.add(path)
        m = FORBIDDEN.search(text)
        what = "a research note outside the repository" if m else None
        if not m:
            m = SEED.search(text)
            if m and path not in SEED_DATA:
                what = "a seed document by number"
        if what:
            print("%s:%d: cites %s (%r); cite doc/facts/ instead" % (path, n, what, m.group(0)))
            bad += 1
    files = len(seen)
    print("check-citations: %d files, %d citations of sources outside the repository"
          % (files, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
