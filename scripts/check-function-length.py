#!/usr/bin/env python3
"""Check that every function defined in the tracked C files outside tests/ is
at most LIMIT lines long, counted from the first line of its signature to its
closing brace (issue 18).  The functions still allowed to be longer are listed
in scripts/long-functions.txt, one "path:function  reason" per line; a long
function missing from the list fails, and so does a listed one that is no
longer long, so the list only shrinks.  The script tests itself first on a
made-up tree.  Run from the tree top.

It relies on the tree following .clang-format (make check-format): a function
body opens with "{" alone at column 0 (BreakBeforeBraces: Linux) and closes
with "}" alone at column 0; every other brace at column 0 closes a struct,
union, enum or initializer, whose opening brace ends a line."""
import os
import re
import subprocess
import sys
import tempfile

LIMIT = 60
ALLOW = "scripts/long-functions.txt"
NAME = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def strip_attributes(sig):
    """The signature without its __attribute__((...)), whose parentheses
    would otherwise pass for the function's."""
    while "__attribute__" in sig:
        at = sig.index("__attribute__")
        depth, end = 0, sig.index("(", at)
        while True:
            depth += {"(": 1, ")": -1}.get(sig[end], 0)
            end += 1
            if depth == 0:
                break
        sig = sig[:at] + sig[end:]
    return sig


def functions(text):
    """Yield (name, first line number, line count) of each function defined in
    text, a C file laid out by clang-format."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i] != "{":
            i += 1
            continue
        # The signature is the column-0 line above the brace and the indented
        # lines that continue it.
        start = i - 1
        while start > 0 and lines[start][:1] in (" ", "\t"):
            start -= 1
        m = NAME.search(strip_attributes(" ".join(lines[start:i])))
        end = i + 1
        while end < len(lines) and lines[end] != "}":
            end += 1
        if m and start >= 0:
            yield m.group(1), start + 1, end - start + 1
        i = end + 1


def long_functions(root, paths):
    """Map "path:function" to its line count for every function over LIMIT."""
    found = {}
    for path in paths:
        with open(os.path.join(root, path), encoding="utf-8") as fh:
            for name, _, count in functions(fh.read()):
                if count > LIMIT:
                    found["%s:%s" % (path, name)] = count
    return found


def read_allow(text):
    """Map "path:function" to its reason; a line without a reason is an error."""
    allowed, errors = {}, []
    for n, line in enumerate(text.split("\n"), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 1)
        if len(parts) < 2:
            errors.append("%s:%d: %s has no reason" % (ALLOW, n, parts[0]))
        allowed[parts[0]] = parts[1] if len(parts) > 1 else ""
    return allowed, errors


def check(root, paths, allow_text):
    allowed, errors = read_allow(allow_text)
    found = long_functions(root, paths)
    for key in sorted(found):
        if key not in allowed:
            errors.append("%s: %d lines, over %d and not in %s" % (key, found[key], LIMIT, ALLOW))
    for key in sorted(allowed):
        if key not in found:
            errors.append("%s: listed in %s but no longer over %d lines (or gone): "
                          "remove it from the list" % (key, ALLOW, LIMIT))
    return found, errors


def self_test():
    body = lambda n: "".join("\tx++;\n" for _ in range(n))
    text = ("struct s {\n\tint a;\n};\n\n"
            "static int short_one(int a)\n{\n" + body(3) + "}\n\n"
            "static int long_one(int a,\n                    int b)\n{\n" + body(LIMIT - 3) + "}\n\n"
            "static const int tab[] = {\n\t1,\n};\n\n"
            "__attribute__((format(printf, 1, 2))) int fits(const char *f,\n"
            "                                               ...)\n{\n" + body(LIMIT - 4) + "}\n\n"
            "void listed(void)\n{\n" + body(LIMIT) + "}\n")
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "a.c"), "w") as fh:
            fh.write(text)
        got = {name: count for name, _, count in functions(text)}
        want = {"short_one": 6, "long_one": LIMIT + 1, "fits": LIMIT, "listed": LIMIT + 3}
        if got != want:
            sys.exit("check-function-length self-test: counted %r, expected %r" % (got, want))
        _, errs = check(d, ["a.c"], "a.c:listed  a reason\na.c:short_one  gone long ago\n")
        if (len(errs) != 2 or "a.c:long_one" not in errs[0] or "a.c:short_one" not in errs[1]):
            sys.exit("check-function-length self-test: an unlisted long function or a "
                     "stale entry was not caught: %r" % errs)
        _, errs = check(d, ["a.c"], "a.c:listed\n")
        if not any("no reason" in e for e in errs):
            sys.exit("check-function-length self-test: an entry without a reason passed")


def main():
    self_test()
    out = subprocess.run(["git", "ls-files", "*.c"], capture_output=True, text=True, check=True)
    paths = [p for p in out.stdout.split("\n") if p.endswith(".c") and not p.startswith("tests/")]
    with open(ALLOW, encoding="utf-8") as fh:
        allow_text = fh.read()
    found, errs = check(".", paths, allow_text)
    if "-v" in sys.argv[1:]:
        for key in sorted(found, key=found.get, reverse=True):
            print("%4d %s" % (found[key], key))
    for e in errs:
        print(e)
    if errs:
        sys.exit("check-function-length: %d function(s) break the %d-line limit or its list"
                 % (len(errs), LIMIT))
    print("check-function-length: every function is at most %d lines, but the %d listed in %s"
          % (LIMIT, len(found), ALLOW))


if __name__ == "__main__":
    main()
