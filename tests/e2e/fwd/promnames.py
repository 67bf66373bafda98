# SPDX-License-Identifier: MIT
"""The series a Prometheus scraping write_prometheus with the shipped
contrib/prometheus/ job would hold, worked out from collectd identifiers
without a Prometheus: dashcheck.py --csv checks the Prometheus dashboards'
names with it, including those of metrics no simulated run writes yet.

write_prometheus (5.12) names a value collectd_<plugin>_<type>[_<ds>][_total]
(<plugin>_ left out when plugin and type are equal, _<ds> when the data
source is "value", _total unless it is a GAUGE), with the plugin instance
under a label named after the plugin, the type instance under "type" (under
the plugin's name when there is no plugin instance) and the host under
"instance", which the scrape makes "exported_instance".  The job's
metric_relabel_configs are applied as Prometheus applies them (actions
replace and labeldrop; regexes anchored; ${n} in replacements), and each
recording rule of the form `record: NEW, expr: OLD / NUMBER` adds NEW with
OLD's labels.  The live check (check-prometheus) remains the judge: this
only saves waiting for it.
"""
import re

import yaml


def wp_series(ident, dss):
    """write_prometheus's series of one identifier: [(name, labels)]."""
    host, plugin, pinst, typ, tinst = ident
    out = []
    for ds, kind in dss:
        parts = ["collectd"] + ([plugin] if plugin != typ else []) + [typ]
        parts += [ds] if ds != "value" else []
        parts += ["total"] if kind != "GAUGE" else []
        labels = {"__name__": "_".join(parts), "exported_instance": host,
                  "job": "collectd-zvm", "instance": "collector:9103"}
        if pinst:
            labels[plugin] = pinst
        if tinst:
            labels["type" if pinst else plugin] = tinst
        out.append(labels)
    return out


def expand(replacement, m):
    return re.sub(r"\$\{(\w+)\}|\$(\w+)",
                  lambda g: m.group(int(g.group(1) or g.group(2))) or "", replacement)


def relabel(labels, configs):
    """Prometheus's relabelling of one series (None: dropped)."""
    for c in configs:
        action = c.get("action", "replace")
        rx = re.compile("^(?:%s)$" % c.get("regex", "(.*)"))
        if action == "labeldrop":
            labels = {k: v for k, v in labels.items() if not rx.match(k)}
            continue
        if action != "replace":
            raise ValueError("relabel action %s unknown to promnames" % action)
        value = c.get("separator", ";").join(labels.get(s, "") for s in c["source_labels"])
        m = rx.match(value)
        if not m:
            continue
        new = expand(c.get("replacement", "$1"), m)
        if new:
            labels[c["target_label"]] = new
        else:
            labels.pop(c["target_label"], None)
    return labels


def recorded(series, rule_files):
    """The series the recording rules `NEW = OLD / NUMBER` add."""
    out = []
    for f in rule_files:
        for g in yaml.safe_load(open(f))["groups"]:
            for r in g["rules"]:
                m = re.fullmatch(r"\s*(\w+)\s*/\s*[0-9.e]+\s*", r.get("expr", ""))
                if "record" not in r or not m:
                    continue
                out += [dict(s, __name__=r["record"]) for s in series
                        if s["__name__"] == m.group(1)]
    return out


def prom_series(ids, ds_kinds, config, rule_files):
    """Every series the job holds: ids as dashcheck's load_csv gives them,
    ds_kinds {type: [(ds, GAUGE|DERIVE|...)]}."""
    conf = yaml.safe_load(open(config))
    relabels = conf["scrape_configs"][0].get("metric_relabel_configs", [])
    series = []
    for ident, dss in ids.items():
        kinds = dict(ds_kinds.get(ident[3], []))
        for labels in wp_series(ident, [(ds, kinds.get(ds, "GAUGE")) for ds in dss]):
            series.append(relabel(labels, relabels))
    return series + recorded(series, rule_files)


SELECTOR_RE = re.compile(r"([A-Za-z_:][A-Za-z0-9_:]*)\{([^}]*)\}")
MATCHER_RE = re.compile(r'(\w+)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"')


def selectors(expr):
    """The series selectors name{matchers} of an expression, or the bare
    metric name it is: [(name, [(label, op, value)])]."""
    if re.fullmatch(r"\s*[A-Za-z_:][A-Za-z0-9_:]*\s*", expr):
        return [(expr.strip(), [])]
    return [(m.group(1), MATCHER_RE.findall(m.group(2))) for m in SELECTOR_RE.finditer(expr)
            if m.group(1) not in ("by", "without", "on", "ignoring")]


def matches(labels, name, matchers):
    if labels.get("__name__") != name:
        return False
    for label, op, value in matchers:
        have = labels.get(label, "")
        hit = re.fullmatch(value, have) is not None if op in ("=~", "!~") else have == value
        if hit != (op in ("=", "=~")):
            return False
    return True
