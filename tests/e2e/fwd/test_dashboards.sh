#!/usr/bin/env bash
# Every metric a dashboard in contrib/grafana/ queries is one the zvm plugin
# emits: collectd with the zvm plugin on zvmsim writes csv, and dashcheck.py
# matches every Graphite target and InfluxDB query (and every template
# variable) against the identifiers written, and fails when two series of
# one panel would get the same legend.  The Prometheus dashboards' names
# come from contrib/prometheus/'s relabelling and recording rules: checked
# here on the names those give the identifiers written (promnames.py), and
# by check-prometheus on a live Prometheus.  The JSON must also be what
# contrib/grafana/mkdash.py generates.
. tests/e2e/fwd/lib.sh
fwd_init dashboards

mkdir -p "$FWD_TMP/gen"
python3 contrib/grafana/mkdash.py "$FWD_TMP/gen"
for f in "$FWD_TMP"/gen/*.json; do
	cmp -s "$f" "contrib/grafana/$(basename "$f")" ||
		fwd_fail "contrib/grafana/$(basename "$f") differs from mkdash.py's output (rerun it)"
done
[ "$(ls contrib/grafana/*.json | wc -l)" = "$(ls "$FWD_TMP"/gen/*.json | wc -l)" ] ||
	fwd_fail "contrib/grafana holds JSON files mkdash.py does not write"

# The SSI panels need a zvmsim that simulates an SSI member (--ssi NAME,
# issue 53); one that does not know the option refuses it.
ssi=
"$FWD_TOP/${BUILD:-build}/zvmsim" run --help 2>&1 | grep -q -e "--ssi" && ssi="--ssi SSI1"
fwd_start_zvmsim $FWD_SIM_ARGS $ssi
conf=$(fwd_zvm_conf "" "")
fwd_start_collectd "$conf"
fwd_run_intervals
fwd_stop_collectd
fwd_stop_pid "$ZVMSIM_PID"
fwd_collectd_ok
python3 tests/e2e/fwd/dashcheck.py --csv "$FWD_TMP/csv" --types /usr/share/collectd/types.db \
	--types types.db --prometheus-config contrib/prometheus/prometheus.yml \
	--rules contrib/prometheus/collectd-zvm.rules.yml contrib/grafana/*.json >&2 ||
	fwd_fail "a dashboard queries metrics the plugin does not emit"
