#!/usr/bin/env python3
"""Check that files are split by direction: within one folder, no two files
call each other, directly or through other files of the folder.  Calls are
read from the built objects with nm: a file calls another when its object
refers to a symbol the other's object defines (a function or a table of
them).  The calls between the files of a folder must therefore run one way,
from the files that use to the files that are used, never round.

A hub and its parts (HUBS) say more: the hub calls its parts, and a part
calls neither the hub nor another part of it, so each part can be read
knowing only the folders below.

EXCEPTIONS lists the calls known to close a circle until their files are
reworked; the check ignores them, and refuses one that no longer exists, so
the list only shrinks.

Usage: check-calls.py BUILD OBJ...
  BUILD: the build directory; an object's path below it, less a leading
  obj/, is its source's (build/obj/zvmsim/main.o: zvmsim/main.c).
A self-test runs first: planted circles must be refused.  Run from the tree
top."""
import os
import subprocess
import sys
import tempfile

from objsyms import nm

# hub -> its parts, as source paths.
HUBS = {
    "zvmmon/main.c": ["zvmmon/cmd_capture.c", "zvmmon/cmd_dump.c", "zvmmon/cmd_layouts.c",
                      "zvmmon/cmd_metrics.c", "zvmmon/cmd_stat.c", "zvmmon/cmd_top.c"],
    "zvmmon/emit_core.c": ["zvmmon/emit_json.c", "zvmmon/emit_text.c", "zvmmon/emit_wzvm.c"],
}

# Hubs whose parts call back into the hub's services: the metric engine
# hands each record to its modules (zm_mod_*), and a module asks the engine
# for what the engine keeps (zm_emit, zm_log, the guests CP named).  A hub
# and its parts may call each other; the parts still may not call one another.
SERVICE_HUBS = {
    "decoder/metric/met_engine.c": ["decoder/metric/met_linux.c", "decoder/metric/met_lnxappl.c",
                                    "decoder/metric/met_monitor.c", "decoder/metric/met_procd.c",
                                    "decoder/metric/met_reading.c", "decoder/metric/met_users.c",
                                    "decoder/metric/met_vm370.c",
                                    "decoder/metric/met_wzvm.c"],
}

# Calls (caller, callee) known to close a circle until their files are
# reworked; remove each line as its circle goes.
EXCEPTIONS = set()


def source_of(build, obj):
    rel = os.path.relpath(obj, build)
    if rel.startswith("obj/"):
        rel = rel[4:]
    return rel[:-2] + ".c"


def calls(files):
    """{(caller, callee): symbols} between files of one folder; files: {source: object}."""
    syms = {src: nm(obj) for src, obj in files.items()}
    where = {}
    for src, (defined, _) in syms.items():
        for s in defined:
            where[s] = src
    edges = {}
    for src, (_, undefined) in syms.items():
        for s in undefined:
            d = where.get(s)
            if d and d != src and os.path.dirname(d) == os.path.dirname(src):
                edges.setdefault((src, d), set()).add(s)
    return edges


def circles(nodes, edges):
    """The strongly connected sets of more than one file (Tarjan's algorithm)."""
    succ = {n: sorted(b for (a, b) in edges if a == n) for n in nodes}
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for n in sorted(nodes):
        if n not in index:
            visit(n)
    return out


def show(edge, edges):
    names = sorted(edges[edge])
    more = " ..." if len(names) > 3 else ""
    return "%s -> %s (%s%s)" % (os.path.basename(edge[0]), os.path.basename(edge[1]),
                                " ".join(names[:3]), more)


def check(files, hubs, exceptions, service_hubs=None):
    """files: {source: object}.  Returns the errors."""
    edges = calls(files)
    errors = ["known exception %s -> %s: the call is gone, remove it from EXCEPTIONS" % e
              for e in sorted(exceptions) if e not in edges]
    backs = {(part, hub) for hub, parts in (service_hubs or {}).items() for part in parts}
    kept = {e: s for e, s in edges.items() if e not in exceptions and e not in backs}
    for comp in circles(set(files), kept):
        inside = [show(e, kept) for e in sorted(kept) if e[0] in comp and e[1] in comp]
        errors.append("%s: %s call each other: %s" % (
            os.path.dirname(comp[0]), ", ".join(os.path.basename(c) for c in comp), "; ".join(inside)))
    for hub, parts in sorted(hubs.items()):
        for part in parts:
            for other in [hub] + parts:
                if (part, other) in kept:
                    errors.append("%s is a part of %s and calls %s: %s" % (
                        part, hub, "the hub" if other == hub else "another part",
                        show((part, other), kept)))
    return errors


def self_test():
    cc = os.environ.get("CC", "cc")
    cases = {
        # a.c and b.c call each other; c.c only calls a.c
        "pair/a.c": "int b(void);\nint a(void);\nint a2(void);\nint a(void) { return b(); }\nint a2(void) { return 2; }\n",
        "pair/b.c": "int a2(void);\nint b(void);\nint b(void) { return a2(); }\n",
        "pair/c.c": "int a(void);\nint c(void);\nint c(void) { return a(); }\n",
        # x -> y -> z -> x, a circle of three
        "ring/x.c": "int y(void);\nint x(void);\nint x(void) { return y(); }\n",
        "ring/y.c": "int z(void);\nint y(void);\nint y(void) { return z(); }\n",
        "ring/z.c": "int x(void);\nint z(void);\nint z(void) { return x(); }\n",
        # h.c is the hub of p.c and q.c; p.c calls q.c
        "hub/h.c": "int p(void);\nint q(void);\nint h(void);\nint h(void) { return p() + q(); }\n",
        "hub/p.c": "int q(void);\nint p(void);\nint p(void) { return q(); }\n",
        "hub/q.c": "int q(void);\nint q(void) { return 1; }\n",
        # s.c hands work to m.c and n.c, which call s.c's services; m.c calling n.c is refused
        "svc/s.c": "int m(void);\nint n(void);\nint s(void);\nint s_emit(void);\nint s(void) { return m() + n(); }\nint s_emit(void) { return 0; }\n",
        "svc/m.c": "int s_emit(void);\nint n(void);\nint m(void);\nint m(void) { return s_emit() + n(); }\n",
        "svc/n.c": "int s_emit(void);\nint n(void);\nint n(void) { return s_emit(); }\n",
        # one way only: no finding
        "line/u.c": "int v(void);\nint u(void);\nint u(void) { return v(); }\n",
        "line/v.c": "int v(void);\nint v(void) { return 1; }\n",
    }
    fails = []
    with tempfile.TemporaryDirectory() as d:
        files = {}
        for src, body in cases.items():
            path = os.path.join(d, "src", src)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as fh:
                fh.write(body)
            obj = os.path.join(d, "obj", src[:-2] + ".o")
            os.makedirs(os.path.dirname(obj), exist_ok=True)
            subprocess.run([cc, "-c", "-o", obj, path], check=True)
            files[src] = obj
        hubs = {"hub/h.c": ["hub/p.c", "hub/q.c"], "svc/s.c": ["svc/m.c", "svc/n.c"]}
        svc = {"svc/s.c": ["svc/m.c", "svc/n.c"]}
        errs = check(files, hubs, set(), svc)
        want = ["pair: a.c, b.c call each other", "ring: x.c, y.c, z.c call each other",
                "hub/p.c is a part of hub/h.c and calls another part",
                "svc/m.c is a part of svc/s.c and calls another part"]
        for w in want:
            if not any(e.startswith(w) for e in errs):
                fails.append("not caught: %s" % w)
        if len(errs) != len(want):
            fails.append("%d findings for %d planted: %r" % (len(errs), len(want), errs))
        errs = check(files, hubs, {("pair/b.c", "pair/a.c"), ("ring/z.c", "ring/x.c"), ("line/v.c", "line/u.c")}, svc)
        errs = [e for e in errs if not e.startswith("svc/m.c")]
        if len(errs) != 2 or not any("line/v.c -> line/u.c" in e and "gone" in e for e in errs):
            fails.append("exceptions not honoured or a stale one not refused: %r" % errs)
    if fails:
        sys.exit("check-calls self-test: " + "; ".join(fails))


def main():
    self_test()
    build, objs = sys.argv[1], sys.argv[2:]
    files = {source_of(build, o): o for o in objs}
    for src in files:
        if not os.path.isfile(src):
            sys.exit("check-calls: %s has no source %s" % (files[src], src))
    errs = check(files, HUBS, EXCEPTIONS, SERVICE_HUBS)
    for e in errs:
        print(e)
    if errs:
        sys.exit("check-calls: %d finding(s)" % len(errs))
    print("check-calls: %d files; in each folder the calls run one way (%d known exceptions)"
          % (len(files), len(EXCEPTIONS)))


if __name__ == "__main__":
    main()
