#!/usr/bin/env python3
"""Check that every decoder/ file includes only its own layer and the layers
below it (decoder/README.md).  With --self-test, check that a tree with an
upward include is refused.  Run from the tree top."""
import os
import re
import sys
import tempfile

# Bottom to top: a folder may include its own rank and lower ranks.
RANKS = ["base", "record", "source", "layout", "payload", "metric"]
# Inside a layer, a module may keep its own order too: each file of the CP
# module includes only the files before it in this list.
MODULES = {"metric/cp": ["met_cp_tab", "met_cp_take", "met_cp_plan", "met_cp_metrics", "met_cp_laws", "met_cp_rows", "met_cp_emit", "met_cp_close", "met_cp"]}
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
                else:
                    errors += module_order(root, path, inc)
    return errors


def module_order(root, path, inc):
    rel = os.path.relpath(path, root)
    folder, stem = os.path.dirname(rel), os.path.splitext(os.path.basename(rel))[0]
    order = MODULES.get(folder)
    if order is None or os.path.dirname(inc) != folder:
        return []
    target = os.path.splitext(os.path.basename(inc))[0]
    if stem not in order or target not in order:
        return ["%s: %s is not in the module order of %s" % (path, inc, folder)]
    if order.index(target) > order.index(stem):
        return ["%s includes %s: in %s a file includes only the ones before it (%s)"
                % (path, inc, folder, " < ".join(order))]
    return []


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
