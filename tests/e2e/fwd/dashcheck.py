#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check that every metric a Grafana dashboard queries is one collectd wrote.

usage: dashcheck.py --csv DIR [--csv DIR ...] --types FILE [--types FILE ...] DASHBOARD.json ...
       dashcheck.py --whisper DIR GRAPHITE-DASHBOARD.json ...
       dashcheck.py --influx PORT INFLUXDB-DASHBOARD.json ...
       dashcheck.py --prometheus PORT [--rate-interval D] [--span S] [--held-back NAME ...]
                    PROMETHEUS-DASHBOARD.json ...
       dashcheck.py --csv DIR --types FILE --prometheus-config PROMETHEUS.yml
                    [--rules RULES.yml ...] PROMETHEUS-DASHBOARD.json ...
Any of them also takes --set NAME=VALUE (variable NAME fixed to VALUE, as
if chosen in Grafana) and --show NAME (print the values variable NAME finds).

The identifiers come from collectd's csv plugin output (DIR/<host>/<plugin[-
instance]>/<type[-instance]>-<date>, whose header names the data sources).
Each dashboard is read as Grafana would read it:

  Graphite   the series paths inside every target (functions around them are
             ignored), with write_graphite's path rules (Prefix "collectd.",
             "." and blanks escaped as "_", the DS name appended when the type
             has more than one), template variables replaced by the values
             their own queries find (a variable's regex capture applied);
  InfluxDB   the query builder fields of every target (measurement, tag
             conditions with = and =~), with the collectd input's mapping
             (measurement <plugin>_<ds>, tags host, instance, type,
             type_instance); variables from their SHOW TAG VALUES queries.

Every variable must find at least one value and every target must match at
least one identifier.  No two series of one panel may get the same legend:
each series' name is worked out as Grafana would name it (Graphite: the
functions of the target evaluated on the series' paths; InfluxDB: the
alias with $tag_<key>, $m, $col, on the GROUP BY tags; Prometheus: the
legend format's {{label}} on the labels a query returns), with a variable
that takes one value (neither multi nor "All") holding one of its values.  A variable whose regex names another variable gets
that variable's choice: one value regex-escaped, several as (a|b), and a
custom all value ("All" with allValue, selected by default) as it is, the
way Grafana interpolates variables in a regex.  A Graphite query
expand(PATH) yields whole paths (Grafana asks /metrics/expand), others the
last node (/metrics/find).

--csv with --prometheus-config checks the Prometheus dashboards too, on the
series a Prometheus would hold with that job's relabelling and the --rules'
recording rules (promnames.py works them out from the identifiers): every
selector of every target must match one, and no collectd_zvm_* name may be
left; the legends are left to the live check.

--whisper takes the series from a carbon-cache's whisper tree instead (the
paths Graphite really has); --influx runs every variable query and every
target, rendered as Grafana renders the query builder's fields into
InfluxQL, on a live influxd (database "collectd") and requires rows;
--prometheus (the only check of the Prometheus dashboards: their names come
from the relabelling and recording rules of contrib/prometheus/, which only
Prometheus applies) asks a live Prometheus for every variable's label values and
runs every target with query_range over the last SPAN seconds (default 600,
$__rate_interval replaced by D, default 4s: four of the tests' one-second
monitor intervals, as Grafana computes it from a data source scrape interval
set to the monitor's), and requires series, none empty, except from a target
naming a metric --held-back NAME (one the run holds back on purpose, as
zvmsim's --break-law makes the plugin hold back a law's metrics): that one
must only run without error.  Exit 0 if so, 1 with a list of what did not match.
"""
import glob
import json
import os
import re
import sys

import promnames

# Variables fixed on the command line (--set NAME=VALUE) and the ones whose
# values are printed (--show NAME).
SETS, SHOWS = {}, set()
# Variables whose choice is "All" with a custom all value: Grafana puts that
# value into other variables' regexes as it is, not escaped.
ALLS = {}


def preset(dname, v, values):
    """A variable --set fixes: its one value, no query."""
    ALLS.pop(v["name"], None)
    if v["name"] not in SETS:
        return False
    values[v["name"]] = {SETS[v["name"]]}
    show(dname, v, values)
    return True


def show(dname, v, values):
    if v.get("includeAll") and v.get("allValue") is not None and v["name"] not in SETS:
        ALLS[v["name"]] = v["allValue"]
    if v["name"] in SHOWS:
        print("dashcheck: %s: $%s = %s" % (dname, v["name"], " ".join(sorted(values[v["name"]]))))


def var_regex(v, values):
    """A variable's regex with the variables in it replaced as Grafana does
    (format "regex"): one value escaped, several as (a|b), a custom all
    value as it is."""
    def rep(m):
        n = m.group(1)
        if n in ALLS:
            return ALLS[n]
        vals = sorted(values.get(n, ()))
        if not vals:
            return m.group(0)
        return re.escape(vals[0]) if len(vals) == 1 else "(%s)" % "|".join(map(re.escape, vals))
    return re.sub(r"\$\{?(\w+)\}?", rep, v["regex"].strip("/"))


def var_value(v, values, val):
    """What a variable's regex keeps of a found value (its first group, or
    the match), as Grafana does; None when the regex drops it."""
    if not v.get("regex"):
        return val
    m = re.search(var_regex(v, values), val)
    if not m:
        return None
    return m.group(1) if m.groups() else m.group(0)


def load_types(files):
    types = {}
    for f in files:
        for line in open(f):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            name, rest = line.split(None, 1)
            types[name] = [d.split(":")[0].strip() for d in rest.split(",")]
    return types


def load_ds_kinds(files):
    """{type: [(DS name, GAUGE|DERIVE|COUNTER|ABSOLUTE)]} of types.db files."""
    kinds = {}
    for f in files:
        for line in open(f):
            line = line.split("#", 1)[0].strip()
            if line:
                name, rest = line.split(None, 1)
                kinds[name] = [tuple(d.strip().split(":")[:2]) for d in rest.split(",")]
    return kinds


def split_node(s):
    a, _, b = s.partition("-")
    return a, b


def load_csv(dirs, types):
    """Identifiers: (host, plugin, pinst, type, tinst) -> DS names."""
    ids = {}
    for d in dirs:
        for f in glob.glob(os.path.join(d, "*", "*", "*")):
            host = os.path.basename(os.path.dirname(os.path.dirname(f)))
            plugin, pinst = split_node(os.path.basename(os.path.dirname(f)))
            base = re.sub(r"-\d{4}-\d{2}-\d{2}$", "", os.path.basename(f))
            typ, tinst = split_node(base)
            with open(f) as fh:
                head = fh.readline().strip().split(",")
            dss = head[1:] if head and head[0] == "epoch" else types.get(typ, ["value"])
            ids[(host, plugin, pinst, typ, tinst)] = dss
    return ids


# ---------------------------------------------------------------- legends
def one_choice(dash, values):
    """The values as Grafana draws a panel: a variable that takes one value
    (neither multi nor "All") holds one of those its query found."""
    single = {v["name"] for v in dash.get("templating", {}).get("list", [])
              if not v.get("multi") and not v.get("includeAll")}
    return {k: set(sorted(v)[:1]) if k in single else v for k, v in values.items()}


def legend_clashes(name, panel, legends, problems):
    """Two series of one panel under the same legend cannot be told apart
    (as once "CP operations per processor": two lines "cpu0")."""
    seen = {}
    for lg in legends:
        seen[lg] = seen.get(lg, 0) + 1
    for lg, n in sorted(seen.items()):
        if n > 1:
            problems.append("%s: panel '%s': %d series share the legend '%s'" % (
                name, panel, n, lg))


# ---------------------------------------------------------------- Graphite
class GraphiteError(Exception):
    pass


def gparse(expr):
    """A Graphite target as a tree: ("path", p), ("str", s), ("num", n) or
    ("call", function, [arguments])."""
    pos = 0

    def arg():
        nonlocal pos
        while expr[pos] == " ":
            pos += 1
        if expr[pos] in "'\"":
            end = expr.index(expr[pos], pos + 1)
            tok, pos = ("str", expr[pos + 1:end]), end + 1
            return tok
        start, depth = pos, 0
        while pos < len(expr) and (depth or expr[pos] not in ",()"):
            depth += {"{": 1, "}": -1}.get(expr[pos], 0)
            pos += 1
        word = expr[start:pos].strip()
        if pos < len(expr) and expr[pos] == "(":
            pos += 1
            args = []
            while expr[pos] != ")":
                args.append(arg())
                while expr[pos] in ", ":
                    pos += 1
            pos += 1
            return ("call", word, args)
        if re.fullmatch(r"-?\d+(\.\d+)?", word):
            return ("num", float(word))
        return ("path", word)
    tree = arg()
    if expr[pos:].strip():
        raise GraphiteError("trailing text after %s" % expr[:pos])
    return tree


def first_path(name):
    m = SERIES_RE.search(name)
    return m.group(0) if m else name


def gmatch(pattern, paths):
    rx = re.compile("^" + gglob_re(pattern) + "$")
    return sorted(p for p in paths if rx.match(p))


def geval(tree, paths):
    """The names of the series a target draws, as graphite-web 1.1 names
    them, for the functions the dashboards use."""
    kind = tree[0]
    if kind == "path":
        return gmatch(tree[1], paths)
    if kind != "call":
        raise GraphiteError("a series list expected, got %r" % (tree[1],))
    fn, args = tree[1], tree[2]
    series = geval(args[0], paths)
    if fn == "alias":
        return [args[1][1]] * len(series)
    if fn == "aliasByNode":
        return [".".join(first_path(n).split(".")[int(a[1])] for a in args[1:]) for n in series]
    if fn == "aliasSub":
        return [re.sub(args[1][1], args[2][1], n) for n in series]
    if fn in ("averageSeries", "sumSeries"):
        return ["%s(%s)" % (fn, args[0][1])] if series else []
    if fn == "highestAverage":
        # Which ones depends on the values: all are candidates.
        return series
    if fn == "groupByNode":
        return sorted({first_path(n).split(".")[int(args[1][1])] for n in series})
    if fn == "applyByNode":
        return gapply(series, int(args[1][1]), args[2][1], args[3][1], paths)
    if fn == "divideSeries":
        divisor = geval(args[1], paths)
        if len(divisor) != 1:
            raise GraphiteError("divideSeries: the divisor %s is %d series, not 1" % (
                args[1][1], len(divisor)))
        return ["divideSeries(%s,%s)" % (n, divisor[0]) for n in series]
    raise GraphiteError("function %s() unknown to dashcheck" % fn)


def gapply(series, nodenum, template, newname, paths):
    """applyByNode: the template once per distinct prefix of nodes 0..N."""
    out = []
    for prefix in sorted({".".join(first_path(n).split(".")[:nodenum + 1]) for n in series}):
        if not geval(gparse(template.replace("%", prefix)), paths):
            raise GraphiteError("applyByNode: %s finds nothing" % template.replace("%", prefix))
        out.append(newname.replace("%", prefix))
    return out


def gescape(s):
    return re.sub(r"[.\s]", "_", s)


def graphite_paths(ids):
    paths = set()
    for (host, plugin, pinst, typ, tinst), dss in ids.items():
        base = "collectd.%s.%s.%s" % (gescape(host), gescape(plugin + ("-" + pinst if pinst else "")),
                                      gescape(typ + ("-" + tinst if tinst else "")))
        if len(dss) > 1:
            for ds in dss:
                paths.add(base + "." + ds)
        else:
            paths.add(base)
    return paths


def gglob_re(expr):
    """A Graphite glob (*, ?, [..], {a,b}) as a regex for one path."""
    out, i = "", 0
    while i < len(expr):
        c = expr[i]
        if c == "*":
            out += "[^.]*"
        elif c == "?":
            out += "[^.]"
        elif c == "{":
            j = expr.index("}", i)
            out += "(?:" + "|".join(re.escape(x) for x in expr[i + 1:j].split(",")) + ")"
            i = j
        elif c == "[":
            j = expr.index("]", i)
            out += expr[i:j + 1]
            i = j
        else:
            out += re.escape(c)
        i += 1
    return out


def subst_graphite(expr, values):
    def rep(m):
        v = values.get(m.group(1))
        if v is None:
            return m.group(0)
        return "{" + ",".join(sorted(v)) + "}"
    return re.sub(r"\$\{?(\w+)\}?", rep, expr)


SERIES_RE = re.compile(r"collectd\.[^,()\s'\"]+")


def graphite_nodes(paths, depth):
    """Every distinct prefix of `depth` nodes."""
    return {".".join(p.split(".")[:depth]) for p in paths if len(p.split(".")) >= depth}


def check_graphite(dash, paths, problems, name):
    values = {}
    for v in dash.get("templating", {}).get("list", []):
        if preset(name, v, values):
            continue
        q = subst_graphite(v["query"], values)
        # expand(Q): Grafana asks /metrics/expand, which returns whole paths.
        expand = q.startswith("expand(") and q.endswith(")")
        if expand:
            q = q[len("expand("):-1]
        depth = len(q.split("."))
        rx = re.compile("^" + gglob_re(q) + "$")
        found = set()
        for n in graphite_nodes(paths, depth):
            if rx.match(n):
                leaf = n if expand else n.split(".")[-1]
                leaf = var_value(v, values, leaf)
                if leaf is None:
                    continue
                found.add(leaf)
        if not found:
            problems.append("%s: variable $%s (%s) finds nothing" % (name, v["name"], q))
        values[v["name"]] = found or {"__none__"}
        show(name, v, values)
    n = 0
    for p in dash["panels"]:
        legends = []
        for t in p.get("targets", []):
            for expr in SERIES_RE.findall(t["target"]):
                n += 1
                rx = re.compile("^" + gglob_re(subst_graphite(expr, values)) + "$")
                if not any(rx.match(x) for x in paths):
                    problems.append("%s: panel '%s': %s matches no series written" %
                                    (name, p["title"], expr))
            try:
                legends += geval(gparse(subst_graphite(t["target"], one_choice(dash, values))),
                                 paths)
            except (GraphiteError, ValueError, IndexError) as x:
                problems.append("%s: panel '%s': %s: %s" % (name, p["title"], t["target"], x))
        legend_clashes(name, p["title"], legends, problems)
    return n


# ---------------------------------------------------------------- InfluxDB
def influx_series(ids):
    """(measurement, {tag: value}) for every identifier and DS."""
    out = []
    for (host, plugin, pinst, typ, tinst), dss in ids.items():
        for ds in dss:
            tags = {"host": host, "type": typ}
            if pinst:
                tags["instance"] = pinst
            if tinst:
                tags["type_instance"] = tinst
            out.append((plugin + "_" + ds, tags))
    return out


def subst_regex(s, values):
    def rep(m):
        v = values.get(m.group(1))
        if v is None:
            return m.group(0)
        return "(" + "|".join(re.escape(x) for x in sorted(v)) + ")"
    return re.sub(r"\$\{?(\w+)\}?", rep, s)


def literal_with_vars(value, values):
    """A regex for a literal tag value in which $var stands for any of its values."""
    out = ""
    for part in re.split(r"(\$\{?\w+\}?)", value):
        m = re.fullmatch(r"\$\{?(\w+)\}?", part)
        if m and m.group(1) in values:
            out += "(" + "|".join(re.escape(x) for x in sorted(values[m.group(1)])) + ")"
        else:
            out += re.escape(part)
    return out


def cond_ok(tags, key, op, value, values):
    have = tags.get(key, "")
    if op == "=":
        return re.fullmatch(literal_with_vars(value, values), have) is not None
    if op == "!=":
        return re.fullmatch(literal_with_vars(value, values), have) is None
    if op == "=~":
        return re.search(subst_regex(value.strip("/"), values), have) is not None
    raise ValueError("operator " + op)


SHOW_RE = re.compile(r'SHOW TAG VALUES FROM "([^"]+)" WITH KEY = "([^"]+)"(?: WHERE (.*))?$')
COND_RE = re.compile(r'"([^"]+)" (=~|=|!=) (/[^/]*/|\'[^\']*\')')


def check_influx(dash, series, problems, name):
    values = {}
    for v in dash.get("templating", {}).get("list", []):
        if preset(name, v, values):
            continue
        m = SHOW_RE.match(v["query"])
        if not m:
            problems.append("%s: variable $%s: query not understood: %s" % (name, v["name"], v["query"]))
            continue
        meas, key, where = m.groups()
        conds = [(k, op, val.strip("'")) for k, op, val in COND_RE.findall(where or "")]
        found = set()
        for mm, tags in series:
            if mm == meas and key in tags and all(cond_ok(tags, k, op, val, values)
                                                  for k, op, val in conds):
                val = tags[key]
                val = var_value(v, values, val)
                if val is None:
                    continue
                found.add(val)
        if not found:
            problems.append("%s: variable $%s (%s) finds nothing" % (name, v["name"], v["query"]))
        values[v["name"]] = found or {"__none__"}
        show(name, v, values)
    n = 0
    for p in dash["panels"]:
        legends = []
        for t in p.get("targets", []):
            n += 1
            conds = [(c["key"], c["operator"], c["value"]) for c in t.get("tags", [])]
            hits = [tags for mm, tags in series if mm == t["measurement"] and
                    all(cond_ok(tags, k, op, val, values) for k, op, val in conds)]
            if not hits:
                problems.append("%s: panel '%s': %s WHERE %s matches no series written" % (
                    name, p["title"], t["measurement"],
                    " AND ".join("%s %s %s" % c for c in conds)))
            keys = [g["params"][0] for g in t.get("groupBy", []) if g["type"] == "tag"]
            one = one_choice(dash, values)
            groups = {tuple((k, tags.get(k, "")) for k in keys) for tags in hits
                      if all(cond_ok(tags, k, op, val, one) for k, op, val in conds)}
            legends += [influx_legend(t, dict(g)) for g in sorted(groups)]
        legend_clashes(name, p["title"], legends, problems)
    return n


def influx_legend(t, tags):
    """A series' name in Grafana's InfluxDB data source: the alias with
    $tag_<key> (or [[tag_<key>]]), $m and $col replaced; without an alias,
    measurement.column and the GROUP BY tags."""
    col = t["select"][0][-1]["type"] if len(t["select"][0]) > 1 else "value"
    alias = t.get("alias") or ""
    if not alias:
        return "%s.%s %s" % (t["measurement"], col, json.dumps(tags, sort_keys=True))

    def rep(m):
        key = m.group(1) or m.group(2)
        if key.startswith("tag_"):
            return tags.get(key[4:], "")
        return {"m": t["measurement"], "measurement": t["measurement"], "col": col}.get(
            key, m.group(0))
    return re.sub(r"\$(\w+)|\[\[(\w+)\]\]", rep, alias)


# ---------------------------------------------------------------- Prometheus
LABEL_VALUES_RE = re.compile(r"^label_values\((.*),\s*(\w+)\)$")


def prom_subst(expr, values, rate_interval):
    """Variables as Grafana's Prometheus data source puts them into a regex
    matcher: (a|b), regex-escaped; $__rate_interval as given."""
    expr = expr.replace("$__rate_interval", rate_interval)
    return re.sub(r"\$\{?(\w+)\}?", lambda m: grafana_regex_value(values.get(m.group(1), [])),
                  expr)


def prom_get(port, path, **params):
    import urllib.parse
    import urllib.request
    url = "http://127.0.0.1:%s/api/v1/%s?%s" % (port, path, urllib.parse.urlencode(params))
    try:
        d = json.load(urllib.request.urlopen(url, timeout=10))
    except Exception as x:
        body = getattr(x, "read", lambda: b"")().decode(errors="replace")
        return None, "%s %s" % (x, body)
    if d.get("status") != "success":
        return None, d.get("error")
    return d["data"], None


def check_prom_live(dash, port, problems, name, rate_interval, span, held_back=()):
    """Variables as Grafana asks for them (/api/v1/label/<l>/values with a
    match[]), every target with query_range over the last SPAN seconds; each
    must return series, none of them empty."""
    import time
    end = time.time()
    start = end - span
    values = {}
    for v in dash.get("templating", {}).get("list", []):
        if preset(name, v, values):
            continue
        q = prom_subst(v["definition"], values, rate_interval)
        m = LABEL_VALUES_RE.match(q)
        found, err = set(), None
        if not m:
            err = "not a label_values() query"
        else:
            data, err = prom_get(port, "label/%s/values" % m.group(2), **{
                "match[]": m.group(1), "start": "%.3f" % start, "end": "%.3f" % end})
            for val in data or []:
                val = var_value(v, values, val)
                if val is None:
                    continue
                found.add(val)
        if not found:
            problems.append("%s: variable $%s: %s -> %s" % (name, v["name"], q, err or "no values"))
        values[v["name"]] = found or {"__none__"}
        show(name, v, values)
    n = 0
    for p in dash["panels"]:
        legends = []
        for t in p.get("targets", []):
            n += 1
            q = prom_subst(t["expr"], values, rate_interval)
            data, err = prom_get(port, "query_range", query=q, start="%.3f" % start,
                                 end="%.3f" % end, step="1")
            res = (data or {}).get("result", [])
            held = any(re.search(r"\b%s\b" % re.escape(h), q) for h in held_back)
            if err or (not held and (not res or any(not r["values"] for r in res))):
                problems.append("%s: panel '%s': %s -> %s" % (name, p["title"], q,
                                                              err or "no series"))
            if one_choice(dash, values) != values:
                data, _ = prom_get(port, "query_range", start="%.3f" % start, end="%.3f" % end,
                                   step="1", query=prom_subst(t["expr"], one_choice(dash, values),
                                                              rate_interval))
                res = (data or {}).get("result", [])
            legends += [prom_legend(t.get("legendFormat"), r["metric"]) for r in res]
        legend_clashes(name, p["title"], legends, problems)
    return n


def prom_legend(fmt, labels):
    """A series' name in Grafana's Prometheus data source: the legend format
    with {{label}} replaced (a missing label by nothing); without one, the
    series' own name and labels."""
    if not fmt or fmt == "__auto":
        return json.dumps(labels, sort_keys=True)
    return re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda m: labels.get(m.group(1), ""), fmt)


def check_prom_names(dash, series, problems, name):
    """The Prometheus dashboards on the series promnames.py works out: every
    variable finds values, every selector of every target a series."""
    values = {}
    for v in dash.get("templating", {}).get("list", []):
        if preset(name, v, values):
            continue
        m = LABEL_VALUES_RE.match(prom_subst(v["definition"], values, "4s"))
        found = set()
        for sel_name, matchers in promnames.selectors(m.group(1)) if m else []:
            for lab in series:
                if promnames.matches(lab, sel_name, matchers) and m.group(2) in lab:
                    val = lab[m.group(2)]
                    val = var_value(v, values, val)
                    if val is None:
                        continue
                    found.add(val)
        if not found:
            problems.append("%s: variable $%s (%s) finds nothing" % (name, v["name"],
                                                                     v["definition"]))
        values[v["name"]] = found or {"__none__"}
        show(name, v, values)
    n = 0
    for p in dash["panels"]:
        for t in p.get("targets", []):
            for sel_name, matchers in promnames.selectors(prom_subst(t["expr"], values, "4s")):
                n += 1
                if not any(promnames.matches(lab, sel_name, matchers) for lab in series):
                    problems.append("%s: panel '%s': %s{%s} matches no series" % (
                        name, p["title"], sel_name, ", ".join("".join(x) for x in matchers)))
    return n


# ---------------------------------------------------------------- live
def whisper_paths(wdir):
    paths = set()
    for root, _, files in os.walk(wdir):
        for f in files:
            if f.endswith(".wsp"):
                rel = os.path.relpath(os.path.join(root, f[:-4]), wdir)
                paths.add(rel.replace(os.sep, "."))
    return paths


def influx_series_run(port, q):
    """The series an InfluxQL query returns (each with its GROUP BY tags)."""
    import subprocess
    out = subprocess.run(["influx", "-host", "127.0.0.1", "-port", str(port), "-database",
                          "collectd", "-format", "json", "-execute", q],
                         capture_output=True, text=True)
    if out.returncode != 0 or not out.stdout.strip():
        return None, (out.stderr or out.stdout).strip()
    d = json.loads(out.stdout)
    series = []
    for r in d.get("results", []):
        if "error" in r:
            return None, r["error"]
        series.extend(r.get("series", []))
    return series, None


def influx_run(port, q):
    series, err = influx_series_run(port, q)
    return [row for srs in series or [] for row in srs.get("values", [])], err


def grafana_regex_value(values):
    """What Grafana puts for $var inside /regex/: (a|b), regex-escaped."""
    return "(" + "|".join(re.escape(v) for v in sorted(values)) + ")"


def render_influx(t, values):
    """InfluxQL for a query-builder target, as Grafana renders it (1.x syntax)."""
    sel = t["select"][0]
    expr = '"%s"' % sel[0]["params"][0]
    for part in sel[1:]:
        if part["type"] == "non_negative_derivative":
            expr = "non_negative_derivative(%s, %s)" % (expr, part["params"][0])
        else:
            expr = "%s(%s)" % (part["type"], expr)
    conds = []
    for c in t.get("tags", []):
        v = c["value"]
        if c["operator"] in ("=~", "!~"):
            v = re.sub(r"\$(\w+)", lambda m: grafana_regex_value(values.get(m.group(1), [])), v)
        else:
            v = "'%s'" % v
        cond = '"%s" %s %s' % (c["key"], c["operator"], v)
        conds.append((c.get("condition", "") + " " + cond).strip())
    where = " ".join(conds)
    group = []
    for g in t.get("groupBy", []):
        if g["type"] == "time":
            # $__interval: the test data span seconds at 1 s intervals.
            group.append("time(1s)")
        elif g["type"] == "tag":
            group.append('"%s"' % g["params"][0])
        elif g["type"] == "fill":
            fill = g["params"][0]
    q = 'SELECT %s FROM "%s" WHERE (%s) AND time > now() - 1h GROUP BY %s fill(%s)' % (
        expr, t["measurement"], where, ", ".join(group), fill)
    return q


def check_influx_live(dash, port, problems, name):
    values = {}
    for v in dash.get("templating", {}).get("list", []):
        if preset(name, v, values):
            continue
        q = re.sub(r"\$(\w+)", lambda m: grafana_regex_value(values.get(m.group(1), [])),
                   v["query"])
        rows, err = influx_run(port, q)
        found = set()
        for r in rows or []:
            val = r[-1]
            val = var_value(v, values, val)
            if val is None:
                continue
            found.add(val)
        if not found:
            problems.append("%s: variable $%s: %s -> %s" % (name, v["name"], q, err or "no values"))
        values[v["name"]] = found or {"__none__"}
        show(name, v, values)
    n = 0
    for p in dash["panels"]:
        legends = []
        for t in p.get("targets", []):
            n += 1
            q = render_influx(t, values)
            series, err = influx_series_run(port, q)
            rows = [row for srs in series or [] for row in srs.get("values", [])]
            if err or not any(r[1] is not None for r in rows):
                problems.append("%s: panel '%s': %s -> %s" % (name, p["title"], q,
                                                              err or "no values"))
            if one_choice(dash, values) != values:
                series, _ = influx_series_run(port, render_influx(t, one_choice(dash, values)))
            legends += [influx_legend(t, srs.get("tags") or {}) for srs in series or []]
        legend_clashes(name, p["title"], legends, problems)
    return n


def main(argv):
    csvs, typefiles, dashes = [], [], []
    whisper = influx = prom = promconf = None
    rules, held_back = [], []
    rate_interval, span = "4s", 600
    i = 0
    while i < len(argv):
        if argv[i] == "--csv":
            csvs.append(argv[i + 1]); i += 2
        elif argv[i] == "--types":
            typefiles.append(argv[i + 1]); i += 2
        elif argv[i] == "--whisper":
            whisper = argv[i + 1]; i += 2
        elif argv[i] == "--influx":
            influx = argv[i + 1]; i += 2
        elif argv[i] == "--prometheus":
            prom = argv[i + 1]; i += 2
        elif argv[i] == "--prometheus-config":
            promconf = argv[i + 1]; i += 2
        elif argv[i] == "--held-back":
            held_back.append(argv[i + 1]); i += 2
        elif argv[i] == "--rules":
            rules.append(argv[i + 1]); i += 2
        elif argv[i] == "--rate-interval":
            rate_interval = argv[i + 1]; i += 2
        elif argv[i] == "--set":
            k, _, val = argv[i + 1].partition("=")
            SETS[k] = val; i += 2
        elif argv[i] == "--show":
            SHOWS.add(argv[i + 1]); i += 2
        elif argv[i] == "--span":
            span = int(argv[i + 1]); i += 2
        else:
            dashes.append(argv[i]); i += 1
    if not (csvs or whisper or influx or prom) or not dashes:
        sys.exit(__doc__)
    if csvs:
        ids = load_csv(csvs, load_types(typefiles))
        if not ids:
            sys.exit("dashcheck: no identifiers in " + " ".join(csvs))
        paths, series = graphite_paths(ids), influx_series(ids)
        nident = len(ids)
        if promconf:
            pseries = promnames.prom_series(ids, load_ds_kinds(typefiles), promconf, rules)
    elif whisper:
        paths, series = whisper_paths(whisper), []
        nident = len(paths)
        if not paths:
            sys.exit("dashcheck: no whisper files in " + whisper)
    else:
        paths, series, nident = set(), [], 0
    problems, total = [], 0
    if csvs and promconf:
        for n in sorted({x["__name__"] for x in pseries
                         if x["__name__"].startswith("collectd_zvm_")}):
            problems.append("%s: the relabelling leaves %s unnamed" % (promconf, n))
    for f in dashes:
        dash = json.load(open(f))
        kinds = {t.get("datasource", {}).get("type") for p in dash["panels"]
                 for t in p.get("targets", [])}
        name = os.path.basename(f)
        live = influx or prom
        if kinds == {"prometheus"} and prom:
            total += check_prom_live(dash, prom, problems, name, rate_interval, span, held_back)
        elif kinds == {"prometheus"} and csvs and promconf:
            total += check_prom_names(dash, pseries, problems, name)
        elif kinds == {"prometheus"}:
            problems.append("%s: Prometheus dashboards are checked on a live Prometheus only "
                            "(--prometheus PORT): their names come from its relabelling and "
                            "recording rules" % name)
        elif kinds == {"graphite"} and not live:
            total += check_graphite(dash, paths, problems, name)
        elif kinds == {"influxdb"} and influx:
            total += check_influx_live(dash, influx, problems, name)
        elif kinds == {"influxdb"} and csvs:
            total += check_influx(dash, series, problems, name)
        else:
            problems.append("%s: targets of unknown or mixed data sources %s" % (name, kinds))
    for p in problems:
        print("dashcheck: " + p)
    what = ("live influxd" if influx else "live prometheus" if prom else "%d %s" % (
        nident, "whisper series" if whisper else "identifiers"))
    print("dashcheck: %d queries in %d dashboards against %s: %d problems" % (
        total, len(dashes), what, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
