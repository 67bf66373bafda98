#!/usr/bin/env python3
"""Check the decoder's layering (decoder/README.md) three ways:

  includes   every decoder/ file includes only its own layer and the layers
             below it; the files at decoder/'s top (the public header
             zvmdec.h, the list of built-in tables) may include every layer;
  consumers  plugin/, zvmmon/ and zvmsim/ include from decoder/ its public
             header zvmdec.h and nothing else;
  symbols    no object of a layer refers to a symbol that an object of a
             layer above it defines (nm over the built objects): an upward
             link by symbol that no include shows.  HOOKS lists the only
             ones allowed, and one no longer taken is refused.

Usage: check-layers.py [OBJROOT OBJ...]
  OBJROOT: the directory the decoder's objects are built under (the objects'
  paths below it are the sources' paths below decoder/); OBJ: the objects.
  Without objects, the symbol check is skipped.  A self-test runs first: a
  tree with each kind of break must be refused.  Run from the tree top."""
import os
import re
import subprocess
import sys
import tempfile

from objsyms import nm

# Bottom to top: a folder may include its own rank and lower ranks.
RANKS = ["base", "record", "source", "layout", "payload", "metric"]
# The files directly in decoder/: above every layer.
TOP = "(top)"
# Inside a layer, a module may keep its own order too: each file of the CP
# module includes only the files before it in this list.
MODULES = {"metric/cp": ["met_cp_tab", "met_cp_take", "met_cp_plan", "met_cp_metrics", "met_cp_laws", "met_cp_rows", "met_cp_emit", "met_cp_close", "met_cp"]}
# The decoder's programs and the one header they may include from it.
CONSUMERS = ["plugin", "zvmmon", "zvmsim"]
PUBLIC = "zvmdec.h"
# Symbols a layer takes from above it, and why.  zl_builtin: the layout
# engine searches every built-in table, and some tables are payload/'s; the
# list is kept above the layers (decoder/tables.c) so that layout/ names no
# payload table.
HOOKS = {
    "zl_builtin": "tables.c",
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(rel):
    if "/" not in rel:
        return TOP
    top = rel.split("/", 1)[0]
    return top if top in RANKS else None


def rank(layer):
    return len(RANKS) if layer == TOP else RANKS.index(layer)


def sources(root):
    for dirpath, _, files in os.walk(root):
        for f in sorted(files):
            if f.endswith((".c", ".h", ".def")):
                yield os.path.join(dirpath, f)


def includes_of(path):
    with open(path, encoding="utf-8") as fh:
        return INCLUDE.findall(fh.read())


def check_includes(root):
    errors = []
    for path in sources(root):
        own = layer_of(os.path.relpath(path, root))
        if own is None:
            errors.append("%s: not in a layer folder (%s) nor at decoder/'s top" % (path, ", ".join(RANKS)))
            continue
        for inc in includes_of(path):
            if "/" not in inc:
                # Same-folder includes are fine only for .def tables.
                if inc.endswith(".def") and os.path.exists(os.path.join(os.path.dirname(path), inc)):
                    continue
                errors.append("%s: include \"%s\" without its layer folder" % (path, inc))
                continue
            target = layer_of(inc)
            if target in (None, TOP) or not os.path.exists(os.path.join(root, inc)):
                errors.append("%s: include \"%s\" is not a decoder header" % (path, inc))
            elif rank(target) > rank(own):
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


def check_consumers(top, decoder):
    """A consumer's include that names a file of decoder/ must name the public header."""
    errors = []
    for c in CONSUMERS:
        for path in sources(os.path.join(top, c)):
            for inc in includes_of(path):
                if inc != PUBLIC and os.path.isfile(os.path.join(decoder, inc)):
                    errors.append("%s includes %s: the decoder's programs include only %s"
                                  % (path, inc, PUBLIC))
    return errors


def check_symbols(objroot, objs, hooks):
    layer, table, where = {}, {}, {}
    for o in objs:
        layer[o] = layer_of(os.path.relpath(o, objroot))
        table[o] = nm(o)
        for s in table[o][0]:
            where[s] = o
    errors, used = [], set()
    for o in objs:
        if layer[o] is None:
            errors.append("%s: not in a layer folder" % o)
            continue
        for s in sorted(table[o][1]):
            d = where.get(s)
            if d is None or layer[d] is None or rank(layer[d]) <= rank(layer[o]):
                continue
            if hooks.get(s) == os.path.relpath(d, objroot).rsplit(".", 1)[0] + ".c":
                used.add(s)
                continue
            errors.append("%s (%s) refers to %s, defined in %s (%s): a layer uses only "
                          "the layers below it" % (o, layer[o], s, d, layer[d]))
    errors += ["hook %s: no layer takes it from above any more, remove it from HOOKS" % h
               for h in sorted(set(hooks) - used)]
    return errors


def write(d, rel, body):
    path = os.path.join(d, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write(body)
    return path


def self_test():
    cc = os.environ.get("CC", "cc")
    fails = []
    with tempfile.TemporaryDirectory() as d:
        dec = os.path.join(d, "decoder")
        write(dec, "base/a.h", "")
        write(dec, "record/r.h", '#include "base/a.h"\n')
        write(dec, "base/b.c", '#include "record/r.h"\n')
        write(dec, "zvmdec.h", '#include "record/r.h"\n')
        errs = check_includes(dec)
        if len(errs) != 1 or "base/b.c" not in errs[0]:
            fails.append("an upward include: %r" % errs)
        write(d, "zvmmon/ok.c", '#include "zvmdec.h"\n#include "own.h"\n')
        write(d, "zvmmon/bad.c", '#include "record/r.h"\n')
        errs = check_consumers(d, dec)
        if len(errs) != 1 or "zvmmon/bad.c" not in errs[0]:
            fails.append("a program including a decoder internal: %r" % errs)
        # base/low.c calls record's rec(); layout/lay.c takes the hook list from the top.
        objs = []
        for rel, body in [("base/low.c", "int rec(void);\nint low(void);\nint low(void) { return rec(); }\n"),
                          ("record/rec.c", "int rec(void);\nint rec(void) { return 1; }\n"),
                          ("layout/lay.c", "extern int list[];\nint lay(void);\nint lay(void) { return list[0]; }\n"),
                          ("top.c", "int list[] = {1};\n")]:
            src = write(os.path.join(d, "src"), rel, body)
            obj = os.path.join(d, "obj", rel[:-2] + ".o")
            os.makedirs(os.path.dirname(obj), exist_ok=True)
            subprocess.run([cc, "-c", "-o", obj, src], check=True)
            objs.append(obj)
        errs = check_symbols(os.path.join(d, "obj"), objs, {"list": "top.c"})
        if len(errs) != 1 or "base/low.o" not in errs[0] or "rec" not in errs[0]:
            fails.append("an upward call by symbol (the hook allowed): %r" % errs)
        errs = check_symbols(os.path.join(d, "obj"), objs, {})
        if len(errs) != 2 or not any("layout/lay.o" in e for e in errs):
            fails.append("a symbol from the top without a hook: %r" % errs)
        errs = check_symbols(os.path.join(d, "obj"), objs, {"list": "top.c", "low": "base/low.c"})
        if len(errs) != 2 or not any("hook low" in e for e in errs):
            fails.append("a hook nothing takes from above: %r" % errs)
    if fails:
        sys.exit("check-layers self-test: not caught: " + "; ".join(fails))


def main():
    self_test()
    errs = check_includes("decoder") + check_consumers(".", "decoder")
    objs = sys.argv[2:]
    if objs:
        errs += check_symbols(sys.argv[1], objs, HOOKS)
    for e in errs:
        print(e)
    if errs:
        sys.exit("check-layers: %d break(s) of the layering" % len(errs))
    print("check-layers: every decoder/ include goes to its own layer or one below, the "
          "programs include only %s%s" % (PUBLIC, ", no object refers to a layer above it"
                                          if objs else " (symbols not checked: no objects)"))


if __name__ == "__main__":
    main()
