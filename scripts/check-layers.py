#!/usr/bin/env python3
"""Check that every decoder/ file includes only its own layer and the layers
below it (decoder/README.md).  With --self-test, check that a tree with an
upward include is refused.  Run from the tree top."""
import os
import re
import sys
import tempfile

# Bottom to top: a folder may include its own rank and lower ranks.
RANKS = ["base", "record", "source", "layout", "payload", "metric", "emit"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(path):
    top = path.split("/", 1)[0]
    return top if top in RANKS else None


def check(root):
    errors = []
    for dirpath, _, files in os.walk(root):
        for f in sorted(files):
            if not f.endswith((".c", ".h", ".def")):
                continue
            path = os.path.join(dirpath, f)
            own = layer_of(os.path.relpath(path, root))
            if own is None:
                errors.append("%s: not in a layer folder (%s)" % (path, ", ".join(RANKS)))
                continue
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            for inc in INCLUDE.findall(text):
                if "/" not in inc:
                    # Same-folder includes are fine only for .def tables.
                    if inc.endswith(".def") and os.path.exists(os.path.join(dirpath, inc)):
                        continue
                    errors.append("%s: include \"%s\" without its layer folder" % (path, inc))
                    continue
                target = layer_of(inc)
                if target is None or not os.path.exists(os.path.join(root, inc)):
                    errors.append("%s: include \"%s\" is not a decoder header" % (path, inc))
                elif RANKS.index(target) > RANKS.index(own):
                    errors.append("%s (%s) includes %s (%s): a layer includes only the "
                                  "layers below it" % (path, own, inc, target))
    return errors


def self_test():
    with tempfile.TemporaryDirectory() as d:
        for sub, name, body in [("base", "a.h", ""),
                                ("record", "r.h", '#include "base/a.h"\n'),
                                ("base", "b.c", '#include "record/r.h"\n')]:
            os.makedirs(os.path.join(d, sub), exist_ok=True)
            with open(os.path.join(d, sub, name), "w") as fh:
                fh.write(body)
        errs = check(d)
        if len(errs) != 1 or "base/b.c" not in errs[0]:
            sys.exit("check-layers self-test: an upward include was not caught: %r" % errs)


def main():
    self_test()
    errs = check("decoder")
    for e in errs:
        print(e)
    if errs:
        sys.exit("check-layers: %d include(s) break the layering" % len(errs))
    print("check-layers: every decoder/ include goes to its own layer or one below")


if __name__ == "__main__":
    main()
