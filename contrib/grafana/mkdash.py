#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write the Grafana dashboards of contrib/grafana/ (run from the tree top).

Each dashboard is declared once below, as panels of collectd identifiers,
and rendered three times: for Graphite (write_graphite with Prefix
"collectd.", StoreRates true, the default escaping), for InfluxDB 1.x (its
collectd input, parse-multivalue-plugin "split": measurement <plugin>_<ds>,
tags host, instance, type, type_instance) and for Prometheus (write_prometheus
scraped with contrib/prometheus/prometheus.yml and its recording rules: the
zvm plugin's series as zvm_* names in base units with labels system,
collector, cpu, userid, device...; the Linux guests' under collectd's names,
collectd_[<plugin>_]<type>[_<ds>][_total], with labels <plugin> = plugin
instance, type = type instance, host = host).  `python3 contrib/grafana/mkdash.py`
rewrites the JSON files; check-fwd fails when they differ from this script's
output or a query finds no series of a simulated run (the Prometheus ones
through the shipped relabelling and rules, tests/e2e/fwd/promnames.py), and
check-prometheus runs the Prometheus ones' queries on a live Prometheus.

A series spec: (host variable, plugin, plugin_instance glob, type,
type_instance glob, data source name, DERIVE?, how to combine, legend[,
per=(type, type_instance)]).  Globs use * only; "$var" is a dashboard
variable.  With per, each series is divided by the one of the same plugin
instance with that type and type instance (both rates: milliseconds per
SSCH); InfluxQL cannot divide one series by another, so panels of such
series are for Graphite and Prometheus only (a panel's "only").  A legend
names what tells the panel's series apart: "pinst" (the plugin instance:
cpu, device, userid...), "tinst" (the type instance, without the part the
spec's glob fixes), "pinst+tinst", "pinst WORDS" (the plugin instance and
words naming the series' spec), or words alone for a single series; the
dashboard test fails when two series of a panel get the same legend.

A variable: (name, label, plugin, plugin_instance, host variable or None,
type, type_instance[, options]).  With host None it lists hosts (those that
have that series), else the plugin instances of that host.  Options:
  all=REGEX      an "All" choice, the default, standing for REGEX when the
                 variable is used inside another variable's regex
  system=VAR     list only hosts of the z/VM system chosen in VAR: hosts
                 "<name>.<system>" (GuestHostFormat "%u.<system>", the setting
                 doc/many-systems.md recommends), or all with VAR's "All"
"""
import json
import os
import sys

GAUGE, DERIVE = False, True


def S(host, plugin, pinst, typ, tinst, ds="value", derive=GAUGE, combine="each", legend=None,
      node=None, per=None):
    return dict(host=host, plugin=plugin, pinst=pinst, type=typ, tinst=tinst, ds=ds,
                derive=derive, combine=combine, legend=legend, node=node, per=per)


def P(title, unit, series, stack=False, desc="", only=None):
    return dict(title=title, unit=unit, series=series, stack=stack, desc=desc, only=only)


# Units the Prometheus dashboards show instead: ratios (0-1) for collectd's
# percent, seconds for its milliseconds (rates of them: seconds per second).
PROM_UNITS = {"percent": "percentunit", "ms": "s"}


# ---------------------------------------------------------------- Prometheus
# The Prometheus dashboards use the names contrib/prometheus/ gives the zvm
# plugin's series (prometheus.yml relabels them at scrape time, and
# collectd-zvm.rules.yml records base units): (plugin instance kind, type,
# type instance glob, DS) -> (metric, extra matchers).  A name ending in
# _total is a counter.  Other plugins' series (the Linux guests') keep
# collectd's names, with collectd's host in the label "host".
PROM_ZVM = {
    ("cpu", "percent", "busy", "value"): ("zvm_processor_busy_ratio", []),
    ("cpu", "percent", "user", "value"): ("zvm_processor_user_ratio", []),
    ("cpu", "percent", "overhead", "value"): ("zvm_processor_overhead_ratio", []),
    ("cpu", "percent", "emulation", "value"): ("zvm_processor_emulation_ratio", []),
    ("cpu", "percent", "wait", "value"): ("zvm_processor_wait_ratio", []),
    ("cpu", "operations", "diagnose", "value"): ("zvm_processor_diagnose_total", []),
    ("cpu", "operations", "simulation", "value"): ("zvm_processor_simulated_instructions_total", []),
    ("system", "users", "logged-on", "value"): ("zvm_users_logged_on", []),
    ("system", "users", "dormant", "value"): ("zvm_users_dormant", []),
    ("system", "operations", "transactions-mp-trivial", "value"): ("zvm_transactions_total",
                                                                   ['kind="trivial"']),
    ("system", "operations", "transactions-mp-nontrivial", "value"): ("zvm_transactions_total",
                                                                      ['kind="nontrivial"']),
    ("system", "response_time", "transactions-mp-trivial", "value"): (
        "zvm_transaction_response_seconds", ['kind="trivial"']),
    ("system", "response_time", "transactions-mp-nontrivial", "value"): (
        "zvm_transaction_response_seconds", ['kind="nontrivial"']),
    ("system", "operations", "fast-ccw-translations", "value"): (
        "zvm_fast_ccw_translations_total", []),
    ("storage", "memory", "used", "value"): ("zvm_storage_used_bytes", []),
    ("storage", "memory", "free", "value"): ("zvm_storage_free_bytes", []),
    ("storage", "memory", "save-areas", "value"): ("zvm_storage_bytes", ['area="save-areas"']),
    ("storage", "memory", "execution-space", "value"): ("zvm_storage_bytes",
                                                        ['area="execution-space"']),
    ("storage", "vmpage_io", "paging", "in"): ("zvm_system_page_reads_total", []),
    ("storage", "vmpage_io", "paging", "out"): ("zvm_system_page_writes_total", []),
    ("storage", "operations", "paging-slots-90-full", "value"): (
        "zvm_paging_slots_90_full_total", []),
    ("ssi", "operations", "entered-*", "value"): ("zvm_ssi_state_entered_total", []),
    ("ssi", "total_time_in_ms", "*", "value"): ("zvm_ssi_state_seconds_total", []),
    ("ssi", "operations", "sync-started", "value"): ("zvm_ssi_syncs_started_total", []),
    ("ssi", "operations", "sync-proceed-replies", "value"): (
        "zvm_ssi_sync_proceed_replies_total", []),
    ("lpar", "percent", "cpu*", "value"): ("zvm_lpar_cpu_busy_ratio", []),
    ("device", "operations", "ssch", "value"): ("zvm_device_ssch_total", []),
    ("device", "total_time_in_ms", "connect", "value"): ("zvm_device_connect_seconds_total", []),
    ("device", "total_time_in_ms", "pending", "value"): ("zvm_device_pending_seconds_total", []),
    ("device", "total_time_in_ms", "disconnect", "value"): (
        "zvm_device_disconnect_seconds_total", []),
    ("device", "total_time_in_ms", "device-active", "value"): (
        "zvm_device_active_only_seconds_total", []),
    ("user", "percent", "cpu-total", "value"): ("zvm_guest_cpu_busy_ratio", []),
    ("user", "percent", "cpu-virtual", "value"): ("zvm_guest_virtual_cpu_busy_ratio", []),
    ("user", "memory", "resident", "value"): ("zvm_guest_resident_bytes", []),
    ("user", "vmpage_io", "paging", "in"): ("zvm_guest_page_reads_total", []),
    ("user", "vmpage_io", "paging", "out"): ("zvm_guest_page_writes_total", []),
    ("user", "operations", "virtual-io", "value"): ("zvm_guest_virtual_io_total", []),
    ("vnic", "if_octets", "", "rx"): ("zvm_vnic_receive_bytes_total", []),
    ("vnic", "if_octets", "", "tx"): ("zvm_vnic_transmit_bytes_total", []),
    ("vnic", "if_packets", "", "rx"): ("zvm_vnic_receive_packets_total", []),
    ("vnic", "if_packets", "", "tx"): ("zvm_vnic_transmit_packets_total", []),
    ("vnic", "if_errors", "", "rx"): ("zvm_vnic_receive_errs_total", []),
    ("vnic", "if_errors", "", "tx"): ("zvm_vnic_transmit_errs_total", []),
    ("vnic", "if_dropped", "", "rx"): ("zvm_vnic_receive_drop_total", []),
    ("vnic", "if_dropped", "", "tx"): ("zvm_vnic_transmit_drop_total", []),
    ("reader", "total_objects", "datasets", "value"): ("zvm_reader_datasets_total", []),
    ("reader", "total_objects", "records", "value"): ("zvm_reader_records_total", []),
    ("reader", "errors", "decode", "value"): ("zvm_reader_decode_errors_total", []),
    ("reader", "total_events", "overflow", "value"): ("zvm_reader_events_total",
                                                      ['event="overflow"']),
    ("reader", "total_events", "reconnects", "value"): ("zvm_reader_events_total",
                                                        ['event="reconnects"']),
    ("reader", "gauge", "connected", "value"): ("zvm_reader_connected", []),
    ("reader", "gauge", "law-*", "value"): ("zvm_law_verified", []),
    ("reader", "total_events", "law-*-failed", "value"): ("zvm_law_failed_intervals_total", []),
}
# Recorded series and what they are recorded from: (raw name, divisor).  A
# recorded sample bears the time of the rule's evaluation, the raw one the
# monitor's own time stamp, so an expression dividing one series by another
# takes both raw, or the pairs miss each other.
PROM_RAW = {"zvm_device_%s_seconds_total" % t: ("zvm_device_%s_milliseconds_total" % t, 1000)
            for t in ("connect", "pending", "disconnect", "active_only")}
# What a legend's "pinst" and "tinst" show, per kind of plugin instance.
PROM_ZVM_LEGEND = {"cpu": ("cpu{{cpu}}", ""), "lpar": ("{{partition}}", "cpu{{cpu}}"),
                   "device": ("{{device}}", ""), "user": ("{{userid}}", ""),
                   "vnic": ("{{userid}} {{device}}", ""), "ssi": ("", "{{state}}"),
                   "reader": ("", "{{law}}")}


def zvm_kind(pinst):
    """cpu*, lpar-*, user-..., vnic-..., device-* -> their kind; others as they are."""
    for k in ("cpu", "lpar", "user", "vnic", "device"):
        if pinst.startswith(k):
            return k
    return pinst


def prom_name(s):
    """write_prometheus's name: collectd_[<plugin>_]<type>[_<ds>][_total]."""
    parts = ["collectd"] + ([s["plugin"]] if s["plugin"] != s["type"] else []) + [s["type"]]
    parts += [s["ds"]] if s["ds"] != "value" else []
    parts += ["total"] if s["derive"] else []
    return "_".join(parts)


def prom_label_names(s):
    """Labels of the plugin and type instance: the plugin instance under the
    plugin's name, the type instance under "type", or under the plugin's
    name when there is no plugin instance."""
    pl = s["plugin"] if s["pinst"] else None
    tl = ("type" if s["pinst"] else s["plugin"]) if s["tinst"] else None
    return pl, tl


def prom_match(label, pattern):
    if "*" in pattern or "$" in pattern:
        return '%s=~"%s"' % (label, glob_re(pattern))
    return '%s="%s"' % (label, pattern)


def prom_series(s):
    """(metric, matchers, counter?, legend of pinst, legend of tinst) of a
    series spec, in the shipped names."""
    if s["plugin"] == "zvm":
        kind = zvm_kind(s["pinst"])
        name, extra = PROM_ZVM[(kind, s["type"], s["tinst"], s["ds"])]
        # The reader's own counters are the collector's; its verdicts on the
        # laws are the z/VM system's (doc/metrics-cp.md, Self-metrics).
        own = kind == "reader" and not s["tinst"].startswith("law-")
        m = ['%s=~"%s"' % ("collector" if own else "system", s["host"])]
        if kind in ("user", "vnic"):
            # user-$guest, vnic-$guest-*: the userid label.
            m.append(prom_match("userid", s["pinst"].split("-")[1]))
        lp, lt = PROM_ZVM_LEGEND.get(kind, ("", ""))
        return name, m + extra, name.endswith("_total"), lp, lt
    pl, tl = prom_label_names(s)
    m = ['host=~"%s"' % s["host"]]
    if pl and s["pinst"] != "*":
        m.append(prom_match(pl, s["pinst"]))
    if tl and s["tinst"] != "*":
        m.append(prom_match(tl, s["tinst"]))
    return prom_name(s), m, s["derive"], "{{%s}}" % pl, "{{%s}}" % tl


def prom_expr(s, raw=False):
    name, m, counter, _, _ = prom_series(s)
    scale = ""
    if raw and name in PROM_RAW:
        name, div = PROM_RAW[name]
        scale = " / %d" % div
    e = "%s{%s}" % (name, ", ".join(m))
    if counter:
        # write_prometheus exports raw counters.  $__rate_interval spans four
        # of the data source's scrape intervals: set that to the monitor's
        # sample interval, so that a window holds at least two samples.
        e = "rate(%s[$__rate_interval])" % e
    return e + scale


def prom_target(s, ref):
    _, _, _, lp, lt = prom_series(s)
    e = prom_expr(s, raw=bool(s["per"]))
    if s["per"]:
        # The two names carry the same labels: one result per device.  No
        # division by an idle device's zero.
        d = prom_expr(dict(s, type=s["per"][0], tinst=s["per"][1], per=None), raw=True)
        e = "%s / (%s > 0)" % (e, d)
    c = s["combine"]
    if c == "avg":
        e = "avg(%s)" % e
    elif c == "sum":
        e = "sum(%s)" % e
    elif c == "top10":
        e = "topk(10, %s)" % e
    elif c == "sum_by_tinst":
        e = "sum by (%s) (%s)" % (lt.strip("{}"), e)
    lg = s["legend"] or ""
    if c in ("each", "top10", "sum_by_tinst"):
        lg = lg.replace("pinst+tinst", "%s %s" % (lp, lt))
        lg = lg.replace("pinst", lp).replace("tinst", lt)
    return dict(refId=ref, datasource={"type": "prometheus", "uid": "${DS_PROMETHEUS}"},
                expr=e, legendFormat=lg, range=True)


def var_opts(v):
    return v[7] if len(v) > 7 else {}


def host_filter(v, full):
    """The variable regex that keeps hosts of the chosen system: FULL is the
    pattern of a whole query result with HOST where the host goes, ESC the
    character a '.' in a host name becomes there."""
    sysvar = var_opts(v).get("system")
    if not sysvar:
        return ""
    return "/^%s$/" % full.replace("HOST", "((.*[._])?$%s)" % sysvar)


def all_choice(v, d):
    """An "All" choice that Grafana puts into other variables' regexes as is
    (a custom all value is not escaped); selected by default."""
    a = var_opts(v).get("all")
    if a is not None:
        d.update(includeAll=True, allValue=a, current={"text": "All", "value": "$__all"})
    return d


def prom_var(v):
    name, label, plugin, pinst, host, typ, tinst = v[:7]
    s = S(host or "", plugin, pinst, typ, tinst, ds="shortterm" if typ == "load" else "value")
    metric, m, _, _, _ = prom_series(s)
    if plugin == "zvm":
        kind = zvm_kind(pinst)
        if host is None:
            # The hosts themselves: systems, or collectors for the reader.
            m = [x for x in m if not x.startswith(("system=", "collector="))]
            lab = "collector" if kind == "reader" else "system"
        else:
            m = [x for x in m if not x.startswith("userid=")]
            lab = "userid"
        regex = ""
    else:
        m = [x for x in m if not x.startswith("host=")] if host is None else m
        lab, regex = "host", host_filter(v, "HOST")
    sel = "%s{%s}" % (metric, ", ".join(m)) if m else metric
    q = "label_values(%s, %s)" % (sel, lab)
    return all_choice(v, dict(
        name=name, label=label, type="query", definition=q,
        query=dict(query=q, refId="PrometheusVariableQueryEditor-VariableQuery"),
        datasource={"type": "prometheus", "uid": "${DS_PROMETHEUS}"}, refresh=2,
        multi=host is not None, includeAll=host is not None, regex=regex))


# ---------------------------------------------------------------- dashboards
def device_times(per):
    """Connect, function pending, disconnect and device-active-only time of
    the devices (D6R3), as rates or divided by the SSCH rate."""
    return [S("$system", "zvm", "device-*", "total_time_in_ms", t, derive=DERIVE, combine="top10",
              legend="pinst " + t, per=("operations", "ssch") if per else None)
            for t in ("connect", "pending", "disconnect", "device-active")]


SYSTEM = dict(
    uid="collectd-zvm-system", title="z/VM system (collectd-zvm)",
    vars=[("system", "z/VM system", "zvm", "system", None, "users", "logged-on"),
          ("collector", "collector guest", "zvm", "reader", None, "gauge", "connected")],
    panels=[
        P("Processor busy", "percent",
          [S("$system", "zvm", "cpu*", "percent", "busy", legend="pinst")],
          desc="CP's view of each logical processor: user plus overhead time (D0R2 SYTPRP)."),
        P("Processor time split (mean of processors)", "percent",
          [S("$system", "zvm", "cpu*", "percent", t, combine="avg", legend=t)
           for t in ("user", "overhead", "emulation", "wait")], stack=False,
          desc="Time charged to users (guests and CP's work for them), to the system (CP "
               "overhead), emulation time and wait time, in percent of elapsed time (D0R2 "
               "SYTPRP)."),
        P("Processor wait", "percent",
          [S("$system", "zvm", "cpu*", "percent", "wait", legend="pinst")],
          desc="Time each logical processor waited with nothing to dispatch (D0R2 "
               "SYTPRP PFXTOTWT), in percent of elapsed time."),
        P("CP operations per processor", "ops",
          [S("$system", "zvm", "cpu*", "operations", "diagnose", derive=DERIVE,
             legend="pinst diagnose"),
           S("$system", "zvm", "cpu*", "operations", "simulation", derive=DERIVE,
             legend="pinst simulation")],
          desc="DIAGNOSE instructions and simulated privileged instructions per second (D0R1)."),
        P("Users", "short",
          [S("$system", "zvm", "system", "users", "logged-on", legend="logged on"),
           S("$system", "zvm", "system", "users", "dormant", legend="dormant")]),
        P("Real storage", "bytes",
          [S("$system", "zvm", "storage", "memory", "used", legend="used"),
           S("$system", "zvm", "storage", "memory", "free", legend="free"),
           S("$system", "zvm", "storage", "memory", "save-areas", legend="save areas"),
           S("$system", "zvm", "storage", "memory", "execution-space",
             legend="execution space")],
          desc="Pageable frames in use and available (D0R3 SYTRSG), frames holding save "
               "areas (D3R1 STORSG) and the size of the system execution space (D0R21 "
               "SYTSXG)."),
        P("System paging", "short",
          [S("$system", "zvm", "storage", "vmpage_io", "paging", ds="in", derive=DERIVE,
             legend="pages read/s"),
           S("$system", "zvm", "storage", "vmpage_io", "paging", ds="out", derive=DERIVE,
             legend="pages written/s")],
          desc="Pages CP read from and wrote to paging devices per second, all processors "
               "(D0R1 SYTSYP)."),
        P("Paging slots 90% full", "short",
          [S("$system", "zvm", "storage", "operations", "paging-slots-90-full", derive=DERIVE,
             legend="times 90% full/s")],
          desc="How often the available paging slots reached 90% full (D0R6 SYTASG): "
               "add paging space before CP runs out."),
        P("Transactions (virtual-MP users)", "short",
          [S("$system", "zvm", "system", "operations", "transactions-mp-" + k, derive=DERIVE,
             legend=k + "/s") for k in ("trivial", "nontrivial")],
          desc="Trivial and non-trivial transactions per second of virtual-MP users "
               "(D0R8 SYTUSR)."),
        P("Transaction response time (virtual-MP users)", "s",
          [S("$system", "zvm", "system", "response_time", "transactions-mp-" + k, legend=k)
           for k in ("trivial", "nontrivial")],
          desc="Mean response time of a trivial and of a non-trivial transaction in the "
               "interval (D0R8 SYTUSR)."),
        P("Fast CCW translations", "ops",
          [S("$system", "zvm", "system", "operations", "fast-ccw-translations", derive=DERIVE,
             legend="fast CCW translations/s")],
          desc="DASD channel programs CP translated on its fast path, per second (D0R19 "
               "SYTSYG)."),
        P("LPAR processors", "percent",
          [S("$system", "zvm", "lpar-*", "percent", "cpu*", legend="pinst+tinst")],
          desc="Busy time of the logical processors of each partition (D0R16 SYTCUP)."),
        P("Device I/O (busiest 10)", "iops",
          [S("$system", "zvm", "device-*", "operations", "ssch", derive=DERIVE, combine="top10",
             legend="pinst")],
          desc="Start subchannel operations per second by real device (D6R3)."),
        P("Device time per second (highest 10 each)", "ms", device_times(False),
          desc="Connect, function pending, disconnect and device-active-only time of each "
               "device per second of elapsed time (D6R3): the share of time it spends in each."),
        P("Device response time per SSCH (highest 10 each)", "ms", device_times(True),
          only=("graphite", "prometheus"),
          desc="Connect, function pending, disconnect and device-active-only time per start "
               "subchannel (D6R3); their sum is the I/O response time. (InfluxQL cannot "
               "divide one series by another: the InfluxDB dashboard shows the times per "
               "second only.)"),
        P("SSI state entered", "short",
          [S("$system", "zvm", "ssi", "operations", "entered-*", derive=DERIVE, legend="tinst")],
          desc="Times per second this member entered each SSI state: joining, joined, "
               "leaving, isolated, suspended (D11R2 SSISMI)."),
        P("SSI time in state", "ms",
          [S("$system", "zvm", "ssi", "total_time_in_ms", "*", derive=DERIVE, legend="tinst")],
          desc="Time per second this member spent in each SSI state (D11R2 SSISMI)."),
        P("SSI synchronizations", "short",
          [S("$system", "zvm", "ssi", "operations", "sync-started", derive=DERIVE,
             legend="started/s"),
           S("$system", "zvm", "ssi", "operations", "sync-proceed-replies", derive=DERIVE,
             legend="proceed-with-reply messages/s")],
          desc="SSI synchronizations started and Proceed-With-Reply messages sent (D11R1 "
               "SSISCS)."),
        P("Laws: hint metrics trusted", "short",
          [S("$system", "zvm", "reader", "gauge", "law-*", legend="tinst")],
          desc="1 while a law has held for VerifyIntervals intervals and the hint metrics it "
               "guards are published, 0 otherwise (no data yet, or broken): doc/metrics-cp.md, "
               "Laws."),
        P("Laws: intervals failed", "short",
          [S("$system", "zvm", "reader", "total_events", "law-*-failed", derive=DERIVE,
             legend="tinst")],
          desc="Intervals per second in which a law was checked and failed: its hint metrics "
               "are held back, and the collectd log says why. A law with no data does not "
               "count here."),
        P("Collector: data sets and records", "short",
          [S("$collector", "zvm", "reader", "total_objects", "datasets", derive=DERIVE,
             legend="data sets/s"),
           S("$collector", "zvm", "reader", "total_objects", "records", derive=DERIVE,
             legend="records/s")]),
        P("Collector: problems", "short",
          [S("$collector", "zvm", "reader", "errors", "decode", derive=DERIVE,
             legend="decode errors/s"),
           S("$collector", "zvm", "reader", "total_events", "overflow", derive=DERIVE,
             legend="overflows/s"),
           S("$collector", "zvm", "reader", "total_events", "reconnects", derive=DERIVE,
             legend="reconnects/s"),
           S("$collector", "zvm", "reader", "gauge", "connected", legend="connected")],
          desc="The zvm plugin's self-metrics (ReportStats true)."),
    ])


def vnic(typ, what):
    """One guest's virtual NICs, received and sent (D8R1)."""
    return [S("$system", "zvm", "vnic-$guest-*", typ, "", ds=ds, derive=DERIVE,
              legend="pinst %s %s" % (ds, what)) for ds in ("rx", "tx")]


GUESTS = dict(
    uid="collectd-zvm-guests", title="z/VM guests (collectd-zvm)",
    vars=[("system", "z/VM system", "zvm", "system", None, "users", "logged-on"),
          ("guest", "guest", "zvm", "user-*", "$system", "percent", "cpu-total")],
    panels=[
        P("Guest CPU (CP's view, total)", "percent",
          [S("$system", "zvm", "user-$guest", "percent", "cpu-total", legend="pinst")],
          desc="Total CPU time CP charged to each guest, in percent of one processor (D4R3)."),
        P("Guest CPU (virtual)", "percent",
          [S("$system", "zvm", "user-$guest", "percent", "cpu-virtual", legend="pinst")]),
        P("Guest resident storage", "bytes",
          [S("$system", "zvm", "user-$guest", "memory", "resident", legend="pinst")]),
        P("Guest paging", "short",
          [S("$system", "zvm", "user-$guest", "vmpage_io", "paging", ds="in", derive=DERIVE,
             legend="pinst pages read/s"),
           S("$system", "zvm", "user-$guest", "vmpage_io", "paging", ds="out", derive=DERIVE,
             legend="pinst pages written/s")],
          desc="Pages CP read and wrote for each guest per second (D4R3 USEACT)."),
        P("Guest virtual I/O", "iops",
          [S("$system", "zvm", "user-$guest", "operations", "virtual-io", derive=DERIVE,
             legend="pinst")],
          desc="Virtual I/O requests per second of each guest: console, DASD, unit record, "
               "tape and other (D4R3 USEACT)."),
        P("Guest virtual NIC traffic", "Bps", vnic("if_octets", "bytes"),
          desc="Bytes per second through each guest's virtual NICs (D8R1)."),
        P("Guest virtual NIC packets", "pps", vnic("if_packets", "packets"),
          desc="Packets per second through each guest's virtual NICs (D8R1)."),
        P("Guest virtual NIC errors and drops", "pps",
          vnic("if_errors", "errors") + vnic("if_dropped", "dropped"),
          desc="Packets in error and packets discarded per second by each guest's virtual "
               "NICs (D8R1 VNDSES)."),
    ])

LINUX = dict(
    uid="collectd-zvm-linux", title="Linux guests on z/VM (collectd-zvm)",
    # Guests of one system, when the collectors name guests "%u.<system>";
    # "All" (the default) lists every Linux guest, whatever its host name.
    vars=[("system", "z/VM system", "zvm", "system", None, "users", "logged-on", {"all": ".*"}),
          ("guest", "Linux guest", "load", "", None, "load", "", {"system": "system"})],
    panels=[
        P("CPU by state (all CPUs)", "short",
          [S("$guest", "cpu", "*", "cpu", "*", derive=DERIVE, combine="sum_by_tinst",
             legend="tinst")],
          stack=True,
          desc="Jiffies per second from the kernel APPLDATA OS record; steal is time the "
               "guest wanted to run but z/VM ran someone else."),
        P("CPU steal (all CPUs)", "short",
          [S("$guest", "cpu", "*", "cpu", "steal", derive=DERIVE, combine="sum",
             legend="steal")]),
        P("Load average", "short",
          [S("$guest", "load", "", "load", "", ds="shortterm", legend="1 min"),
           S("$guest", "load", "", "load", "", ds="midterm", legend="5 min"),
           S("$guest", "load", "", "load", "", ds="longterm", legend="15 min")]),
        P("Memory", "bytes",
          [S("$guest", "memory", "", "memory", t, legend=t)
           for t in ("used", "buffered", "cached", "free")], stack=True),
        P("Swap", "bytes",
          [S("$guest", "swap", "", "swap", t, legend=t) for t in ("used", "free")], stack=True),
        P("Paging", "short",
          [S("$guest", "vmem", "", "vmpage_io", "memory", ds="in", derive=DERIVE,
             legend="pages in/s"),
           S("$guest", "vmem", "", "vmpage_io", "memory", ds="out", derive=DERIVE,
             legend="pages out/s")]),
        P("Network (all interfaces)", "Bps",
          [S("$guest", "interface", "all", "if_octets", "", ds="rx", derive=DERIVE, legend="rx"),
           S("$guest", "interface", "all", "if_octets", "", ds="tx", derive=DERIVE,
             legend="tx")]),
        P("Processes", "short",
          [S("$guest", "processes", "", "ps_state", "*", legend="tinst")]),
        P("File systems: used", "bytes",
          [S("$guest", "df", "*", "df_complex", "used", legend="pinst")],
          desc="From s390-tools mon_fsstatd records."),
        P("Uptime", "s", [S("$guest", "uptime", "", "uptime", "", legend="uptime")],
          desc="From s390-tools mon_procd records."),
    ])

DASHBOARDS = [("zvm-system", SYSTEM), ("zvm-guests", GUESTS), ("linux-guests", LINUX)]


# ---------------------------------------------------------------- Graphite
def node(name, inst):
    return name + ("-" + inst if inst else "")


def gpath(s):
    p = "collectd.%s.%s.%s" % (s["host"], node(s["plugin"], s["pinst"]),
                               node(s["type"], s["tinst"]))
    if s["ds"] != "value":
        p += "." + s["ds"]
    return p


def graphite_target(s):
    p = gpath(s)
    if s["per"]:
        # applyByNode pairs each dividend with the divisor of its own plugin
        # instance (node 2), by name.
        p = "applyByNode(%s, 2, 'divideSeries(%%.%s, %%.%s)', '%%')" % (
            p, node(s["type"], s["tinst"]), node(*s["per"]))
    c = s["combine"]
    if c == "avg":
        t = "averageSeries(%s)" % p
    elif c == "sum":
        t = "sumSeries(%s)" % p
    elif c == "top10":
        t = "highestAverage(%s, 10)" % p
    elif c == "sum_by_tinst":
        return "groupByNode(%s, 3, 'sumSeries')" % p
    else:
        t = p
    lg = s["legend"]
    if lg == "tinst":
        # The type instance without the type and the glob's fixed start.
        return "aliasSub(aliasByNode(%s, 3), '^%s-%s', '')" % (
            t, s["type"], s["tinst"].split("*")[0])
    if lg in ("pinst", "pinst+tinst"):
        nodes = {"pinst": "2", "pinst+tinst": "2, 3"}[lg]
        return "aliasByNode(%s, %s)" % (t, nodes)
    if lg and lg.startswith("pinst "):
        return "aliasSub(aliasByNode(%s, 2), '$', ' %s')" % (t, lg.split(" ", 1)[1])
    return "alias(%s, '%s')" % (t, lg)


def graphite_var(v):
    name, label, plugin, pinst, host, typ, tinst = v[:7]
    ds = {"type": "graphite", "uid": "${DS_GRAPHITE}"}
    if host is None:
        # Hosts that have a given child: Graphite's find names only the last
        # node ("zvm-system"), but a query expand(...) makes Grafana ask
        # /metrics/expand, which returns whole paths (Grafana's Graphite data
        # source, metricFindQuery); the regex takes the host out of them.
        child = "%s.%s" % (node(plugin, pinst), node(typ, tinst))
        if typ == "load":
            child += ".shortterm"  # write_graphite appends the DS of multi-DS types
        full = "collectd\\.HOST\\.%s" % child.replace(".", "\\.")
        regex = host_filter(v, full) or "/^%s$/" % full.replace("HOST", "([^.]*)")
        return all_choice(v, dict(name=name, label=label, type="query",
                                  query="expand(collectd.*.%s)" % child, datasource=ds,
                                  refresh=2, multi=False, includeAll=False, regex=regex))
    prefix = node(plugin, pinst.split("*")[0])
    return dict(name=name, label=label, type="query",
                query="collectd.%s.%s" % (host, node(plugin, pinst)), datasource=ds,
                refresh=2, multi=True, includeAll=True, regex="/^%s(.*)$/" % prefix)


# ---------------------------------------------------------------- InfluxDB
def glob_re(g):
    out = ""
    for part in g.split("*"):
        out += part.replace(".", "\\.") + ".*"
    return out[:-2]


def tag(key, pattern, first=False):
    t = {"key": key}
    if not first:
        t["condition"] = "AND"
    if "*" in pattern or "$" in pattern:
        t.update(operator="=~", value="/^%s$/" % glob_re(pattern))
    else:
        t.update(operator="=", value=pattern)
    return t


def influx_target(s, ref):
    tags = [tag("host", s["host"], True)]
    # An empty instance is no tag at all in the collectd input's points.
    if s["pinst"] not in ("*", ""):
        tags.append(tag("instance", s["pinst"]))
    tags.append(tag("type", s["type"]))
    if s["tinst"] not in ("*", ""):
        tags.append(tag("type_instance", s["tinst"]))
    c = s["combine"]
    agg = {"sum": "sum", "sum_by_tinst": "sum"}.get(c, "mean")
    sel = [{"type": "field", "params": ["value"]}, {"type": agg, "params": []}]
    if s["derive"]:
        # The network plugin sends raw counters; InfluxDB keeps them raw.
        sel.append({"type": "non_negative_derivative", "params": ["1s"]})
    group = [{"type": "time", "params": ["$__interval"]}]
    lg = s["legend"] or ""
    alias = lg
    if c in ("each", "top10"):
        if "pinst" in lg:
            group.append({"type": "tag", "params": ["instance"]})
        if "tinst" in lg:
            group.append({"type": "tag", "params": ["type_instance"]})
        alias = lg.replace("pinst+tinst", "$tag_instance $tag_type_instance") \
                  .replace("pinst", "$tag_instance").replace("tinst", "$tag_type_instance")
    elif c == "sum_by_tinst":
        group.append({"type": "tag", "params": ["type_instance"]})
        alias = "$tag_type_instance"
    group.append({"type": "fill", "params": ["null"]})
    return dict(refId=ref, datasource={"type": "influxdb", "uid": "${DS_INFLUXDB}"},
                measurement="%s_%s" % (s["plugin"], s["ds"]), policy="default",
                resultFormat="time_series", orderByTime="ASC", tags=tags, select=[sel],
                groupBy=group, alias=alias)


def influx_var(v):
    name, label, plugin, pinst, host, typ, tinst = v[:7]
    meas = "%s_%s" % (plugin, "shortterm" if typ == "load" else "value")
    if host is None:
        where = ["\"type\" = '%s'" % typ]
        if pinst:
            where.append("\"instance\" = '%s'" % pinst)
        if tinst:
            where.append("\"type_instance\" = '%s'" % tinst)
        q = "SHOW TAG VALUES FROM \"%s\" WITH KEY = \"host\" WHERE %s" % (meas, " AND ".join(where))
        regex = host_filter(v, "HOST")
    else:
        q = ("SHOW TAG VALUES FROM \"%s\" WITH KEY = \"instance\" WHERE \"host\" =~ /^%s$/ "
             "AND \"type\" = '%s' AND \"instance\" =~ /^%s$/"
             % (meas, glob_re(host), typ, glob_re(pinst)))
        regex = "/^%s(.*)$/" % pinst.split("*")[0]
    return all_choice(v, dict(name=name, label=label, type="query", query=q,
                              datasource={"type": "influxdb", "uid": "${DS_INFLUXDB}"}, refresh=2,
                              multi=host is not None, includeAll=host is not None, regex=regex))


# ---------------------------------------------------------------- dashboard
def dashboard(d, flavour):
    panels = []
    for p in d["panels"]:
        if p["only"] and flavour not in p["only"]:
            continue
        i = len(panels)
        if flavour == "graphite":
            targets = [dict(refId=chr(65 + j), target=graphite_target(s),
                            datasource={"type": "graphite", "uid": "${DS_GRAPHITE}"})
                       for j, s in enumerate(p["series"])]
        elif flavour == "prometheus":
            targets = [prom_target(s, chr(65 + j)) for j, s in enumerate(p["series"])]
        else:
            targets = [influx_target(s, chr(65 + j)) for j, s in enumerate(p["series"])]
        stack = {"mode": "normal" if p["stack"] else "none", "group": "A"}
        panels.append({
            "id": i + 1, "type": "timeseries", "title": p["title"], "description": p["desc"],
            "gridPos": {"h": 8, "w": 12, "x": 12 * (i % 2), "y": 8 * (i // 2)},
            "datasource": {"type": flavour, "uid": "${DS_%s}" % flavour.upper()},
            "fieldConfig": {"defaults": {"unit": PROM_UNITS.get(p["unit"], p["unit"])
                                         if flavour == "prometheus" else p["unit"],
                                         "custom": {"stacking": stack, "fillOpacity": 10}},
                            "overrides": []},
            "options": {"legend": {"displayMode": "list", "placement": "bottom"},
                        "tooltip": {"mode": "multi"}},
            "targets": targets,
        })
    mkvar = {"graphite": graphite_var, "influxdb": influx_var, "prometheus": prom_var}[flavour]
    ds_name = "DS_" + flavour.upper()
    pretty = {"graphite": "Graphite", "influxdb": "InfluxDB", "prometheus": "Prometheus"}[flavour]
    how = {"graphite": "sent with write_graphite (Prefix \"collectd.\", StoreRates true)",
           "influxdb": "sent with the network plugin to InfluxDB's collectd input (typesdb: "
                       "collectd's and collectd-zvm's types.db)",
           "prometheus": "exposed by write_prometheus and scraped with the relabelling "
                         "and recording rules of contrib/prometheus/ (zvm_* names in base "
                         "units); set the data source's scrape interval to the monitor's "
                         "sample interval"}[flavour]
    return {
        "__inputs": [{"name": ds_name, "label": flavour.capitalize(), "type": "datasource",
                      "pluginId": flavour, "pluginName": pretty}],
        "uid": d["uid"] + "-" + flavour, "title": d["title"] + " - " + pretty,
        "description": "collectd-zvm: values from the zvm collectd plugin, " + how,
        "tags": ["collectd-zvm", "z/VM", flavour], "editable": True, "schemaVersion": 36,
        "version": 1, "time": {"from": "now-6h", "to": "now"}, "refresh": "1m",
        "templating": {"list": [mkvar(v) for v in d["vars"]]},
        "panels": panels,
    }


def main(argv):
    outdir = argv[1] if len(argv) > 1 else "contrib/grafana"
    for name, d in DASHBOARDS:
        for flavour in ("graphite", "influxdb", "prometheus"):
            path = os.path.join(outdir, "%s-%s.json" % (name, flavour))
            with open(path, "w") as f:
                json.dump(dashboard(d, flavour), f, indent=2, sort_keys=True)
                f.write("\n")


if __name__ == "__main__":
    main(sys.argv)
