#!/usr/bin/env python3
"""Check that relative links in Markdown files lead somewhere.

Usage: check-links.py [FILE.md ...]
Without arguments: every Markdown file git tracks (git ls-files '*.md').

A link target must be a file or directory git tracks (a link to an untracked
or ignored file is broken for anyone reading a clone or the web view); outside
a git work tree, a path that exists is enough.  A #fragment into a Markdown
file must name one of its headings, slugged the way GitHub slugs them.
Web links (scheme:...) and links inside code are not checked.
Exit 0 when every link resolves, 1 with one line per broken link otherwise.
"""
import os
import re
import subprocess
import sys
import unicodedata
import urllib.parse

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
# An inline link or image: ...](target) or ...](target "title").
INLINE = re.compile(r"\]\(\s*(<[^>\n]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
REFDEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HREF = re.compile(r"<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*[\"']([^\"']*)[\"']", re.I)
HTML_ID = re.compile(r"<[a-z][^>]*?\b(?:id|name)\s*=\s*[\"']([^\"']+)[\"']", re.I)
LIST_ITEM = re.compile(r"^ {0,3}([-*+]|\d+[.)])[ \t]")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def strip_code_spans(line):
    """Blank out `code spans` so nothing in them is taken for a link."""
    out, i = [], 0
    while i < len(line):
        if line[i] == "`":
            j = i
            while j < len(line) and line[j] == "`":
                j += 1
            ticks = line[i:j]
            end = line.find(ticks, j)
            while end != -1 and end + len(ticks) < len(line) and line[end + len(ticks)] == "`":
                end = line.find(ticks, end + len(ticks) + 1)
            if end == -1:
                out.append(ticks)
                i = j
                continue
            out.append(" " * (end + len(ticks) - i))
            i = end + len(ticks)
        else:
            out.append(line[i])
            i += 1
    return "".join(out)


def prose_lines(text):
    """(line number, line) of every line outside fenced and indented code."""
    fence = None
    prev_blank = True
    in_indented = False
    in_list = False
    for n, line in enumerate(text.split("\n"), 1):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                    and not line.strip()[len(m.group(1)):].strip():
                fence = None
            prev_blank = False
            continue
        if m:
            fence = m.group(1)
            continue
        blank = not line.strip()
        # An indented code block starts only after a blank line, and a list
        # item's continuation is indented too: take 4+ spaces after a blank
        # line as code unless it continues a list.
        if not blank and (line.startswith("    ") or line.startswith("\t")):
            if (prev_blank and not in_list) or in_indented:
                in_indented = True
                prev_blank = False
                continue
        elif not blank:
            in_indented = False
            in_list = bool(LIST_ITEM.match(line))
        prev_blank = blank
        yield n, line


def heading_text(raw):
    """The text GitHub renders for a heading's Markdown source."""
    t = raw.strip()
    t = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", t)  # links and images: their text
    t = re.sub(r"!?\[([^\]]*)\]\[[^\]]*\]", r"\1", t)
    t = re.sub(r"<[^>]+>", "", t)  # inline HTML
    # Emphasis markers go; backticks go, their contents stay.
    code = []

    def keep(m):
        code.append(m.group(2))
        return "\0%d\0" % (len(code) - 1)

    t = re.sub(r"(`+)(.+?)\1", keep, t)
    t = t.replace("*", "")
    t = re.sub(r"(?<![A-Za-z0-9])_+([^_]+?)_+(?![A-Za-z0-9])", r"\1", t)
    t = re.sub(r"\0(\d+)\0", lambda m: code[int(m.group(1))], t)
    return t


def slug(text):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    out = []
    for ch in heading_text(text).strip().lower():
        cat = unicodedata.category(ch)
        if ch in " -_" or cat[0] in "LNM":
            out.append("-" if ch == " " else ch)
    return "".join(out)


def anchors(text):
    """Every #fragment a Markdown file offers: heading slugs (repeats get -1, -2, ...) and HTML ids."""
    seen = {}
    found = set()
    prev = None
    for _, line in prose_lines(text):
        m = ATX.match(line)
        title = None
        if m:
            title = m.group(2) or ""
        elif prev is not None and SETEXT.match(line) and prev.strip() \
                and not re.match(r"^ {0,3}([-*+>|#]|\d+[.)])", prev):
            title = prev
        if title is not None:
            base = slug(title)
            n = seen.get(base, 0)
            found.add(base if n == 0 else "%s-%d" % (base, n))
            seen[base] = n + 1
        for hid in HTML_ID.findall(line):
            found.add(hid)
        prev = line
    return found


def links(text):
    """(line number, target) of every link outside code."""
    for n, line in prose_lines(text):
        bare = strip_code_spans(line)
        for m in INLINE.finditer(bare):
            yield n, m.group(1)
        m = REFDEF.match(bare)
        if m:
            yield n, m.group(1)
        for m in HREF.finditer(bare):
            yield n, m.group(1)


class Tree:
    """What counts as existing: tracked by git when inside a work tree, else on disk."""

    def __init__(self, top):
        self.top = top
        self.files = self.dirs = None
        if top:
            out = subprocess.run(["git", "-C", top, "ls-files", "-z"], check=True,
                                 capture_output=True).stdout.decode("utf-8")
            self.files = set(p for p in out.split("\0") if p)
            self.dirs = {""}
            for p in self.files:
                d = os.path.dirname(p)
                while d not in self.dirs:
                    self.dirs.add(d)
                    d = os.path.dirname(d)

    def is_file(self, path):
        if self.files is None:
            return os.path.isfile(path)
        return self.rel(path) in self.files

    def exists(self, path):
        if self.files is None:
            return os.path.exists(path)
        r = self.rel(path)
        return r in self.files or r in self.dirs

    def rel(self, path):
        r = os.path.relpath(os.path.abspath(path), self.top)
        return "" if r == "." else r


def git_top(path):
    r = subprocess.run(["git", "-C", path, "rev-parse", "--show-toplevel"],
                       capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else None


def main(argv):
    if argv:
        files = argv
        top = git_top(os.path.dirname(os.path.abspath(files[0])))
    else:
        top = git_top(".")
        if not top:
            print("check-links: not in a git work tree; name the files", file=sys.stderr)
            return 2
        out = subprocess.run(["git", "-C", top, "ls-files", "-z", "*.md"], check=True,
                             capture_output=True).stdout.decode("utf-8")
        files = [os.path.join(top, p) for p in out.split("\0") if p]
    tree = Tree(top)
    cache = {}

    def anchors_of(path):
        if path not in cache:
            with open(path, encoding="utf-8") as f:
                cache[path] = anchors(f.read())
        return cache[path]

    broken = checked = 0
    for md in files:
        with open(md, encoding="utf-8") as f:
            text = f.read()
        shown = os.path.relpath(md)
        for n, target in links(text):
            target = target.strip("<>")
            if not target or SCHEME.match(target) or target.startswith("//"):
                continue
            checked += 1
            path, _, frag = target.partition("#")
            path = urllib.parse.unquote(path.split("?", 1)[0])
            frag = urllib.parse.unquote(frag)
            if path.startswith("/"):
                dest = os.path.join(top or "/", path.lstrip("/"))
            else:
                dest = os.path.join(os.path.dirname(md), path) if path else md
            why = None
            if not tree.exists(dest):
                why = "no such file" + (" tracked by git" if tree.files is not None
                                        and os.path.exists(dest) else "")
            elif frag and dest.endswith(".md") and tree.is_file(dest) \
                    and frag not in anchors_of(dest):
                why = "no heading with anchor #%s" % frag
            if why:
                print("%s:%d: broken link %s (%s)" % (shown, n, target, why))
                broken += 1
    print("check-links: %d files, %d relative links, %d broken" % (len(files), checked, broken))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
