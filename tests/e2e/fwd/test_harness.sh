#!/usr/bin/env bash
# The forwarding harness proved with collectd's own plugins, no zvm code:
# values with known identifiers and timestamps (PUTVAL through unixsock) and
# the load plugin go through write_graphite into a private carbon-cache and
# through the network plugin into a private influxd, and are read back from
# the whisper files and with InfluxQL.  Every type in the project's types.db
# is sent as well, so a type the collectd input cannot resolve fails here.
. tests/e2e/fwd/lib.sh
fwd_init harness

# A type known only from an extra file: proves that influxd's typesdb
# directory and collectd's TypesDB list load more than one file.
cat >"$FWD_TMP/extra.types.db" <<'EOF'
fwd_custom		value:GAUGE:U:U
EOF

fwd_start_carbon
fwd_start_influxd "$FWD_TMP/extra.types.db"

PD=$(fwd_plugindir logfile unixsock load write_graphite network)
SOCK="$FWD_TMP/collectd.sock"
mkdir -p "$FWD_TMP/collectd"
cat >"$FWD_TMP/collectd.conf" <<EOF
Hostname "fwdtest"
FQDNLookup false
BaseDir "$FWD_TMP/collectd"
PIDFile "$FWD_TMP/collectd/collectd.pid"
PluginDir "$PD"
TypesDB "/usr/share/collectd/types.db" "$FWD_TOP/types.db" "$FWD_TMP/extra.types.db"
Interval 1
# One write thread keeps the values of an identifier in order (StoreRates).
WriteThreads 1
LoadPlugin logfile
<Plugin logfile>
  LogLevel info
  File STDOUT
</Plugin>
LoadPlugin unixsock
<Plugin unixsock>
  SocketFile "$SOCK"
</Plugin>
LoadPlugin load
<LoadPlugin write_graphite>
  FlushInterval 1
</LoadPlugin>
<Plugin write_graphite>
  <Node "carbon">
    Host "127.0.0.1"
    Port "$CARBON_PORT"
    Protocol "tcp"
    Prefix "collectd."
    StoreRates true
  </Node>
</Plugin>
<LoadPlugin network>
  FlushInterval 1
</LoadPlugin>
<Plugin network>
  Server "127.0.0.1" "$INFLUX_COLLECTD"
</Plugin>
EOF
fwd_start_collectd "$FWD_TMP/collectd.conf"

t0=$(($(date +%s) - 20))
t1=$((t0 + 1))
t2=$((t0 + 2))
{
	echo "PUTVAL fwdtest/fwdcheck-a/gauge-x interval=1 $t0:42.125 $t1:-0.0078125"
	echo "PUTVAL fwdtest/fwdcheck-a/derive-d interval=1 $t0:1000 $t1:1500 $t2:2500"
	echo "PUTVAL fwdtest/fwdcheck-a/if_octets-eth0 interval=1 $t0:100:200 $t1:300:600"
	echo "PUTVAL vm.sys1/fwdcheck/gauge-dot interval=1 $t0:7"
	echo "PUTVAL fwdtest/fwdcheck-a/fwd_custom-c interval=1 $t0:12.5"
	# Every type of the project's types.db: 7 for every data source, twice.
	awk '!/^#/ && NF >= 2 { n = split($0, _, ","); v = ""; for (i = 0; i < n; i++) v = v ":7";
		print $1, v }' "$FWD_TOP/types.db" | while read -r type vals; do
		echo "PUTVAL fwdtest/fwdtypes/$type interval=1 $t0$vals $t1$vals"
	done
} >"$FWD_TMP/putval.txt"
fwd_unixsock "$SOCK" <"$FWD_TMP/putval.txt" || fwd_fail "collectd refused a PUTVAL"
ntypes=$(grep -c fwdtypes "$FWD_TMP/putval.txt" || true)
fwd_log "sent $(wc -l <"$FWD_TMP/putval.txt") PUTVAL lines ($ntypes project types)"

# ---------------------------------------------------------------- Graphite
expect_wsp() {
	local path=$1 ts=$2 want=$3 got
	if ! fwd_until 30 fwd_whisper_at "$path" "$ts" >/dev/null; then
		fwd_fail "graphite: no point for $path at $ts ($(fwd_wsp "$path"))"
	fi
	got=$(fwd_whisper_at "$path" "$ts")
	python3 -c "import sys; sys.exit(0 if float('$got') == float('$want') else 1)" ||
		fwd_fail "graphite: $path at $ts = $got, expected $want"
}
expect_wsp collectd.fwdtest.fwdcheck-a.gauge-x "$t0" 42.125
expect_wsp collectd.fwdtest.fwdcheck-a.gauge-x "$t1" -0.0078125
# StoreRates true: write_graphite sends DERIVE as per-second rates.
expect_wsp collectd.fwdtest.fwdcheck-a.derive-d "$t1" 500
expect_wsp collectd.fwdtest.fwdcheck-a.derive-d "$t2" 1000
# More than one data source: the DS name is the last path component.
expect_wsp collectd.fwdtest.fwdcheck-a.if_octets-eth0.rx "$t1" 200
expect_wsp collectd.fwdtest.fwdcheck-a.if_octets-eth0.tx "$t1" 400
# Dots in a field become the escape character.
expect_wsp collectd.vm_sys1.fwdcheck.gauge-dot "$t0" 7
expect_wsp collectd.fwdtest.fwdcheck-a.fwd_custom-c "$t0" 12.5
fwd_until 30 test -f "$(fwd_wsp collectd.fwdtest.load.load.shortterm)" ||
	fwd_fail "graphite: the load plugin's values never arrived"
fwd_log "graphite: values, rates, DS names and escaping as expected"

# ---------------------------------------------------------------- InfluxDB
expect_influx() {
	local q=$1 want=$2 got
	if ! fwd_until 30 test -n "$(fwd_influx_rows "$q")"; then
		fwd_fail "influxdb: no rows for: $q"
	fi
	got=$(fwd_influx_rows "$q" | tr '\n' ';')
	[ "$got" = "$want" ] || fwd_fail "influxdb: $q -> '$got', expected '$want'"
}
W="host='fwdtest' AND instance='a'"
expect_influx "SELECT value FROM fwdcheck_value WHERE $W AND type='gauge' AND type_instance='x'" \
	"$t0 42.125;$t1 -0.0078125;"
# The network plugin sends raw counters; InfluxDB stores them as they are.
expect_influx "SELECT value FROM fwdcheck_value WHERE $W AND type='derive' AND type_instance='d'" \
	"$t0 1000;$t1 1500;$t2 2500;"
expect_influx "SELECT value FROM fwdcheck_rx WHERE $W AND type='if_octets' AND type_instance='eth0'" \
	"$t0 100;$t1 300;"
expect_influx "SELECT value FROM fwdcheck_tx WHERE $W AND type='if_octets' AND type_instance='eth0'" \
	"$t0 200;$t1 600;"
expect_influx "SELECT value FROM fwdcheck_value WHERE host='vm.sys1' AND type_instance='dot'" "$t0 7;"
expect_influx "SELECT value FROM fwdcheck_value WHERE $W AND type='fwd_custom'" "$t0 12.5;"
awk '!/^#/ && NF >= 2' "$FWD_TOP/types.db" | while read -r type specs; do
	specs=${specs//[[:space:]]/}
	IFS=, read -ra dss <<<"$specs"
	for ds in "${dss[@]}"; do
		dsname=${ds%%:*}
		expect_influx "SELECT value FROM fwdtypes_$dsname WHERE host='fwdtest' AND type='$type'" \
			"$t0 7;$t1 7;"
	done
done
fwd_until 30 test -n "$(fwd_influx_rows "SELECT count(value) FROM load_shortterm WHERE host='fwdtest'")" ||
	fwd_fail "influxdb: the load plugin's values never arrived"
if grep -q "unable to find" "$FWD_TMP/influxd.log"; then
	grep "unable to find" "$FWD_TMP/influxd.log" | head -3 >&2
	fwd_fail "influxdb: the collectd input is missing types"
fi
fwd_log "influxdb: values, raw counters, multi-DS split and every project type as expected"

fwd_stop_collectd
grep -q "Exiting normally" "$FWD_TMP/collectd.log" || fwd_fail "collectd did not exit normally"
