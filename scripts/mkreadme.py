#!/usr/bin/env python3
"""Build README.md from doc/README.in.md: each line `@include doc/X.md` is replaced by
that file with its headings moved one level down, so every fact is written once, in doc/."""
import re
import sys

src = sys.argv[1] if len(sys.argv) > 1 else "doc/README.in.md"
out = []
for line in open(src, encoding="utf-8"):
    m = re.match(r"@include\s+(\S+)\s*$", line)
    if not m:
        out.append(line)
        continue
    fence = False
    for inc in open(m.group(1), encoding="utf-8"):
        if inc.startswith("```"):
            fence = not fence
        if not fence and inc.startswith("#"):
            inc = "#" + inc
        out.append(inc)
    if out and not out[-1].endswith("\n"):
        out.append("\n")
text = "".join(out)
text = "<!-- Generated from doc/README.in.md by scripts/mkreadme.py (make readme); edit those. -->\n" + text
sys.stdout.write(text)
