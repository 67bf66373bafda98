#!/usr/bin/env python3
"""Lay out the decoder's data tables as tables: one row per field, layout or
metric, columns aligned, clang-format turned off around each table (and only
there).

  scripts/fmt-tables.py FILE...          rewrite the files
  scripts/fmt-tables.py --check FILE...  exit 1 if a file would change

A table is an array `const struct zl_field|zl_layout|zr_record|cp_metric NAME[] = {...};`
or a #define whose body is two or more rows.  A row is `{...}` or `MACRO(...)`;
rows of the same shape that follow each other share column widths.
"""
import re
import sys

OFF, ON = "/* clang-format off */", "/* clang-format on */"
ARRAY = re.compile(r"^(static )?const struct (zl_field|zl_layout|zr_record|cp_metric) \w+\[\] = \{$")
DEFINE = re.compile(r"^#define \w+(\([^)]*\))?\s*\\$")


def skip_string(s, i):
    q = s[i]
    i += 1
    while s[i] != q:
        i += 2 if s[i] == "\\" else 1
    return i + 1


def balanced(s, i):
    """Index after the bracket group that opens at s[i]."""
    pairs = {"{": "}", "(": ")"}
    stack = [pairs[s[i]]]
    i += 1
    while stack:
        c = s[i]
        if c in "\"'":
            i = skip_string(s, i)
            continue
        if s.startswith("/*", i):
            i = s.index("*/", i) + 2
            continue
        if c in pairs:
            stack.append(pairs[c])
        elif c == stack[-1]:
            stack.pop()
        i += 1
    return i


def cells(inner):
    out, depth, cur, i = [], 0, "", 0
    while i < len(inner):
        c = inner[i]
        if c in "\"'":
            j = skip_string(inner, i)
            cur += inner[i:j]
            i = j
            continue
        if c in "({":
            depth += 1
        elif c in ")}":
            depth -= 1
        if c == "," and depth == 0:
            out.append(" ".join(cur.split()) if '"' not in cur else cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    if cur.strip():
        out.append(cur.strip())
    # Join a string cell's continuation whitespace without touching its text.
    return [re.sub(r'"\s+"', '" "', c) if c.startswith('"') else c for c in out]


def items(body):
    """(kind, head, cells or text, trailing comma) for each item of a table body."""
    out, i = [], 0
    ident = re.compile(r"[A-Za-z_]\w*")
    while i < len(body):
        if body[i].isspace():
            i += 1
            continue
        if body.startswith("/*", i):
            j = body.index("*/", i) + 2
            out.append(["comment", body[i:j], None, False])
            i = j
            continue
        if body[i] == "{":
            j = balanced(body, i)
            out.append(["row", "{", cells(body[i + 1:j - 1]), False])
            i = j
        else:
            m = ident.match(body, i)
            if not m:
                raise ValueError("cannot read table near: %r" % body[i:i + 40])
            j = m.end()
            if j < len(body) and body[j] == "(":
                k = balanced(body, j)
                out.append(["row", m.group(0) + "(", cells(body[j + 1:k - 1]), False])
                i = k
            else:
                out.append(["bare", m.group(0), None, False])
                i = j
        while i < len(body) and body[i] in " \t\n":
            i += 1
        if i < len(body) and body[i] == ",":
            out[-1][3] = True
            i += 1
    return out


def render(its, indent):
    lines, run = [], []

    def flush():
        if not run:
            return
        n = max(len(r[2]) for r in run)
        w = [0] * n
        for r in run:
            for k, c in enumerate(r[2][:-1]):
                w[k] = max(w[k], len(c) + 1)
        for r in run:
            close = "}" if r[1] == "{" else ")"
            parts = [(c + ",").ljust(w[k]) for k, c in enumerate(r[2][:-1])] + [r[2][-1]]
            text = indent + r[1] + " ".join(parts).rstrip() + close + ("," if r[3] else "")
            lines.append(re.sub(r"\s+([,)}])", r"\1", text) if False else text)
        run.clear()

    for it in its:
        if it[0] == "row":
            if run and (run[-1][1] != it[1] or len(run[-1][2]) != len(it[2])):
                flush()
            run.append(it)
            continue
        flush()
        lines.append(indent + it[1] + ("," if it[3] else ""))
    flush()
    return lines


def format_text(text):
    src = text.split("\n")
    out, i, pending_on = [], 0, False
    while i < len(src):
        line = src[i]
        block = None
        if ARRAY.match(line):
            j = i
            while src[j] != "};":
                j += 1
            block = [line] + render(items("\n".join(src[i + 1:j])), "    ") + ["};"]
        elif DEFINE.match(line):
            j = i
            while src[j].endswith("\\"):
                j += 1
            try:
                its = items("\n".join(l.rstrip("\\") for l in src[i + 1:j + 1]))
            except ValueError:
                its = []  # a macro that is not a list of rows
            if sum(1 for t in its if t[0] == "row") >= 2:
                rows = render(its, "    ")
                head = re.sub(r"\s*\\$", "", line)
                width = max(len(r) for r in rows + [head]) + 1
                block = ([head.ljust(width) + "\\"] + [r.ljust(width) + "\\" for r in rows[:-1]] +
                         [rows[-1]])
        if block is None:
            if line == ON and pending_on:
                i += 1
                continue
            if pending_on:
                out.append(ON)
                pending_on = False
            out.append(line)
            i += 1
            continue
        # Tables that follow each other share one clang-format off/on pair.
        if not pending_on:
            if out and out[-1] == OFF:
                out.pop()
            out.append(OFF)
        out.extend(block)
        pending_on = True
        i = j + 1
    if pending_on:
        out.append(ON)
    return "\n".join(out)


def main(argv):
    check = argv[:1] == ["--check"]
    files = argv[1:] if check else argv
    bad = 0
    for f in files:
        with open(f, encoding="utf-8") as fh:
            old = fh.read()
        new = format_text(old)
        if new == old:
            continue
        if check:
            print("%s: tables not laid out (make format)" % f)
            bad += 1
        else:
            with open(f, "w", encoding="utf-8") as fh:
                fh.write(new)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
