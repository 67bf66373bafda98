# shellcheck shell=bash
# Shared harness for the forwarding tests: private carbon-cache, influxd,
# prometheus and collectd instances on free loopback ports, configured and
# kept in one temporary directory, stopped again on every exit path.
#
# Source it from a test script run at the top of the tree:
#   . tests/e2e/fwd/lib.sh
#   fwd_init NAME
#   fwd_start_carbon; fwd_start_influxd; fwd_start_collectd CONF
# Nothing here talks to a system instance: every server this file starts has
# its own configuration, data directory and ports, and a test checks that
# the data arrived in *that* data directory.

set -euo pipefail

FWD_TOP=${FWD_TOP:-$(pwd)}
FWD_PIDS=()
# FUSE mounts of zvmsims besides $FWD_TMP/mnt (tests with several systems).
FWD_MOUNTS=()
declare -A FWD_GRACE=() FWD_WHAT=()
FWD_NAME=fwd
FWD_TMP=
FWD_T0=$(date +%s)

fwd_log() { printf '%s: %s\n' "$FWD_NAME" "$*" >&2; }

fwd_fail() {
	printf '%s: FAIL: %s\n' "$FWD_NAME" "$*" >&2
	exit 1
}

# A missing prerequisite is a failure with a message, never a silent skip.
fwd_need() {
	local cmd=$1 pkg=$2
	command -v "$cmd" >/dev/null 2>&1 ||
		fwd_fail "'$cmd' not found: install the Debian package $pkg (make deps)"
}

# Stop a process this harness started: SIGTERM, then SIGKILL after its grace
# period (FWD_GRACE[pid] seconds, default 10).
fwd_stop_pid() {
	local pid=$1 grace=${FWD_GRACE[$1]:-10} i
	kill -0 "$pid" 2>/dev/null || return 0
	kill -TERM "$pid" 2>/dev/null || true
	for i in $(seq 1 $((grace * 10))); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		fwd_log "pid $pid ${FWD_WHAT[$pid]:-} still running ${grace} s after SIGTERM, killing it"
		kill -KILL "$pid" 2>/dev/null || true
	fi
	wait "$pid" 2>/dev/null || true
}

# Logs of the servers are worth reading when a test failed.
fwd_dump_logs() {
	local f
	[ -n "$FWD_TMP" ] && [ -d "$FWD_TMP" ] || return 0
	for f in "$FWD_TMP"/*.log; do
		[ -s "$f" ] || continue
		echo "---- $(basename "$f") (last 30 lines)" >&2
		tail -n 30 "$f" >&2
	done
}

fwd_cleanup() {
	local rc=$? i m
	set +e
	# Newest first: collectd stops before the servers it writes to.
	for ((i = ${#FWD_PIDS[@]} - 1; i >= 0; i--)); do
		fwd_stop_pid "${FWD_PIDS[$i]}"
	done
	# zvmsim unmounts on SIGTERM; a killed one leaves its mount behind.
	for m in ${FWD_TMP:+"$FWD_TMP/mnt"} ${FWD_MOUNTS[@]+"${FWD_MOUNTS[@]}"}; do
		if mountpoint -q "$m" 2>/dev/null; then
			fusermount3 -u "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
		fi
	done
	if [ "$rc" -ne 0 ]; then
		fwd_dump_logs
		if [ -n "${FWD_KEEP:-}" ]; then
			fwd_log "kept $FWD_TMP (FWD_KEEP set)"
			return
		fi
	fi
	if [ "${FWD_KEEP:-}" = always ]; then
		fwd_log "kept $FWD_TMP (FWD_KEEP=always)"
	else
		[ -n "$FWD_TMP" ] && rm -rf "$FWD_TMP"
	fi
	if [ "$rc" -eq 0 ]; then
		fwd_log "PASS ($(($(date +%s) - FWD_T0)) s)"
	fi
}

fwd_init() {
	FWD_NAME=$1
	FWD_TMP=$(mktemp -d "${TMPDIR:-/tmp}/collectd-zvm-$FWD_NAME.XXXXXX")
	trap fwd_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	fwd_need python3 python3
	fwd_need collectd collectd-core
	fwd_note_system_servers
}

# Daemons installed from Debian must not be running (deps.sh blocks their
# start on install); if one is, say so: the tests never use it.
fwd_note_system_servers() {
	local port
	for port in 2003 2004 7002 8086 8088 9090 9103 25826; do
		if fwd_port_busy tcp "$port" || fwd_port_busy udp "$port"; then
			fwd_log "note: something listens on default port $port; this test does not use it"
		fi
	done
}

fwd_port_busy() {
	python3 - "$1" "$2" <<'EOF'
import socket, sys
kind = socket.SOCK_STREAM if sys.argv[1] == "tcp" else socket.SOCK_DGRAM
s = socket.socket(socket.AF_INET, kind)
try:
    s.bind(("127.0.0.1", int(sys.argv[2])))
except OSError:
    sys.exit(0)
sys.exit(1)
EOF
}

# N (default 1) distinct loopback ports, each free for both TCP and UDP
# right now, one per line.  Another process may take one before the server
# binds it; the readiness wait then fails clearly.
fwd_free_port() {
	python3 - "${1:-1}" <<'EOF'
import socket, sys
held, ports = [], []
for _ in range(1000):
    if len(ports) == int(sys.argv[1]):
        break
    t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    t.bind(("127.0.0.1", 0))
    port = t.getsockname()[1]
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        u.bind(("127.0.0.1", port))
    except OSError:
        continue
    held += [t, u]  # kept bound until all are chosen: no duplicates
    ports.append(port)
print("\n".join(map(str, ports)))
EOF
}

# Wait until PID listens on a TCP port (and is still alive).
fwd_wait_tcp() {
	local pid=$1 port=$2 what=$3 secs=${4:-30} i
	for i in $(seq 1 $((secs * 10))); do
		kill -0 "$pid" 2>/dev/null || fwd_fail "$what exited during start-up"
		if python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', $port), 0.5).close()" \
			2>/dev/null; then
			return 0
		fi
		sleep 0.1
	done
	fwd_fail "$what did not listen on 127.0.0.1:$port within $secs s"
}

# Poll a command until it succeeds, up to SECS seconds.
fwd_until() {
	local secs=$1 i
	shift
	for i in $(seq 1 $((secs * 4))); do
		if "$@"; then return 0; fi
		sleep 0.25
	done
	return 1
}

# ---------------------------------------------------------------- carbon-cache
# Sets CARBON_PORT (line protocol), CARBON_WHISPER (the whisper tree), CARBON_PID.
# Every metric gets one archive of 1 s points for RETENTION (default 6h).
fwd_start_carbon() {
	local retention=${1:-1s:6h} d="$FWD_TMP/carbon"
	fwd_need carbon-cache graphite-carbon
	fwd_need whisper-fetch python3-whisper
	mkdir -p "$d/storage/whisper" "$d/storage/lists" "$d/log"
	local pickle query
	{ read -r CARBON_PORT; read -r pickle; read -r query; } < <(fwd_free_port 3)
	CARBON_WHISPER="$d/storage/whisper"
	# Limits off: a test creates hundreds of series at once and checks
	# them seconds later; the packaged defaults throttle creates to 50/min.
	cat >"$d/carbon.conf" <<EOF
[cache]
STORAGE_DIR = $d/storage/
LOCAL_DATA_DIR = $CARBON_WHISPER/
WHITELISTS_DIR = $d/storage/lists/
CONF_DIR = $d/
LOG_DIR = $d/log/
PID_DIR = $d/
DATABASE = whisper
ENABLE_LOGROTATION = False
USER =
MAX_CACHE_SIZE = inf
MAX_UPDATES_PER_SECOND = inf
MAX_CREATES_PER_MINUTE = inf
CACHE_WRITE_STRATEGY = sorted
WHISPER_AUTOFLUSH = False
LINE_RECEIVER_INTERFACE = 127.0.0.1
LINE_RECEIVER_PORT = $CARBON_PORT
ENABLE_UDP_LISTENER = False
PICKLE_RECEIVER_INTERFACE = 127.0.0.1
PICKLE_RECEIVER_PORT = $pickle
CACHE_QUERY_INTERFACE = 127.0.0.1
CACHE_QUERY_PORT = $query
LOG_LISTENER_CONN_SUCCESS = False
EOF
	cat >"$d/storage-schemas.conf" <<EOF
[everything]
pattern = .*
retentions = $retention
EOF
	# Whisper stores the last value written into a slot; average is the
	# default and changes nothing at a single resolution.
	cat >"$d/storage-aggregation.conf" <<EOF
[default]
pattern = .*
xFilesFactor = 0
aggregationMethod = last
EOF
	PYTHONWARNINGS=ignore carbon-cache --config="$d/carbon.conf" --pidfile="$d/carbon.pid" \
		--nodaemon start >"$FWD_TMP/carbon.log" 2>&1 &
	CARBON_PID=$!
	FWD_PIDS+=("$CARBON_PID")
	fwd_wait_tcp "$CARBON_PID" "$CARBON_PORT" "carbon-cache"
	fwd_log "carbon-cache pid $CARBON_PID on 127.0.0.1:$CARBON_PORT, whisper in $CARBON_WHISPER"
}

# Whisper file of a Graphite metric path (a.b.c -> a/b/c.wsp).
fwd_wsp() { printf '%s/%s.wsp\n' "$CARBON_WHISPER" "${1//.//}"; }

# Print "timestamp value" for every non-empty point of PATH since FROM, values
# in full precision (whisper-fetch --json keeps the doubles exact).
fwd_whisper_points() {
	local path=$1 from=$2 f
	f=$(fwd_wsp "$path")
	[ -f "$f" ] || return 1
	whisper-fetch --json --from="$from" "$f" | python3 -c '
import json, sys
d = json.load(sys.stdin)
t = d["start"]
for v in d["values"]:
    if v is not None:
        print(t, repr(float(v)))
    t += d["step"]
'
}

# Value of PATH at timestamp TS (exit 1 if the point is not there yet).
fwd_whisper_at() {
	local path=$1 ts=$2 line
	line=$(fwd_whisper_points "$path" "$((ts - 1))" 2>/dev/null | awk -v t="$ts" '$1 == t { print $2 }')
	[ -n "$line" ] || return 1
	printf '%s\n' "$line"
}

# --------------------------------------------------------------------- influxd
# Sets INFLUX_HTTP (HTTP API port), INFLUX_COLLECTD (collectd UDP input port),
# INFLUX_PID, INFLUX_TYPESDB (the directory handed to the collectd input).
# TYPESDB files: collectd's own types.db and the project's, plus any extra.
fwd_start_influxd() {
	local d="$FWD_TMP/influxdb" f
	fwd_need influxd influxdb
	fwd_need influx influxdb-client
	mkdir -p "$d/meta" "$d/data" "$d/wal" "$d/typesdb"
	local rpc
	{ read -r INFLUX_HTTP; read -r INFLUX_COLLECTD; read -r rpc; } < <(fwd_free_port 3)
	# shellcheck disable=SC2034 # for the tests that source this file
	INFLUX_TYPESDB="$d/typesdb"
	# A directory: the collectd input loads every file in it.
	cp /usr/share/collectd/types.db "$d/typesdb/collectd.types.db"
	cp "$FWD_TOP/types.db" "$d/typesdb/collectd-zvm.types.db"
	for f in "$@"; do cp "$f" "$d/typesdb/"; done
	cat >"$d/influxdb.conf" <<EOF
reporting-disabled = true
bind-address = "127.0.0.1:$rpc"
[meta]
  dir = "$d/meta"
[data]
  dir = "$d/data"
  wal-dir = "$d/wal"
  query-log-enabled = false
[monitor]
  store-enabled = false
[http]
  enabled = true
  bind-address = "127.0.0.1:$INFLUX_HTTP"
  log-enabled = false
  pprof-enabled = false
[logging]
  level = "info"
  suppress-logo = true
[[collectd]]
  enabled = true
  bind-address = "127.0.0.1:$INFLUX_COLLECTD"
  database = "collectd"
  typesdb = "$d/typesdb"
  security-level = "none"
  batch-size = 100
  batch-timeout = "200ms"
  parse-multivalue-plugin = "split"
EOF
	influxd -config "$d/influxdb.conf" >"$FWD_TMP/influxd.log" 2>&1 &
	INFLUX_PID=$!
	FWD_PIDS+=("$INFLUX_PID")
	# influxd 1.6 sometimes hangs in closing its collectd input (after the
	# retention service, before "Closed collectd service"); the instance and
	# its data are thrown away, so it gets a short grace.
	FWD_GRACE[$INFLUX_PID]=3
	FWD_WHAT[$INFLUX_PID]="(influxd; a known hang in its collectd input's shutdown)"
	fwd_wait_tcp "$INFLUX_PID" "$INFLUX_HTTP" "influxd"
	fwd_until 30 fwd_influx_ready || fwd_fail "influxd did not answer /ping on port $INFLUX_HTTP"
	# The collectd input creates its database only with its first batch;
	# creating it here (idempotent) lets a test query before any data came.
	fwd_influx_query "CREATE DATABASE collectd" "" >/dev/null
	fwd_influx_has_db collectd || fwd_fail "influxd: database collectd missing after CREATE DATABASE"
	fwd_log "influxd pid $INFLUX_PID: HTTP 127.0.0.1:$INFLUX_HTTP, collectd input udp 127.0.0.1:$INFLUX_COLLECTD"
}

fwd_influx_ready() {
	python3 -c "
import sys, urllib.request
try:
    r = urllib.request.urlopen('http://127.0.0.1:$INFLUX_HTTP/ping', timeout=2)
    sys.exit(0 if r.status == 204 else 1)
except Exception:
    sys.exit(1)"
}

fwd_influx_has_db() {
	fwd_influx_query "SHOW DATABASES" "" | python3 -c '
import json, sys
d = json.load(sys.stdin)
names = [v[0] for r in d.get("results", []) for s in r.get("series", []) for v in s.get("values", [])]
sys.exit(0 if sys.argv[1] in names else 1)' "$1"
}

# Run an InfluxQL query with the influx CLI; JSON on stdout, epoch seconds.
fwd_influx_query() {
	local q=$1 db=${2-collectd}
	influx -host 127.0.0.1 -port "$INFLUX_HTTP" ${db:+-database "$db"} -precision s \
		-format json -execute "$q"
}

# Print "time value" rows of a query's first series (empty if none).
fwd_influx_rows() {
	fwd_influx_query "$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)
for r in d.get("results", []):
    if "error" in r:
        sys.exit("influx: " + r["error"])
    for s in r.get("series", []):
        for v in s.get("values", []):
            print(" ".join(repr(x) if isinstance(x, float) else str(x) for x in v))
'
}

# ------------------------------------------------------------------ prometheus
# Sets PROM_PORT (HTTP API), PROM_PID.  Scrapes 127.0.0.1:TARGET (a
# write_prometheus endpoint) every EVERY (default 200ms): shorter than the
# tests' one-second monitor intervals, so that no value write_prometheus
# holds is replaced before a scrape took it (it keeps only the newest).
#
# Job "collectd" keeps collectd's shape, with honor_labels: write_prometheus
# puts collectd's host into the label "instance", which Prometheus would
# otherwise rename to "exported_instance" and replace with the scrape
# target's address.  With SHIPPED (contrib/prometheus/prometheus.yml) its
# job "collectd-zvm" scrapes the same endpoint with the shipped relabelling,
# and its recording and alerting rules are evaluated every EVERY
# (tests/e2e/fwd/promconf.py).
fwd_start_prometheus() {
	local target=$1 every=${2:-200ms} shipped=${3:-} d="$FWD_TMP/prometheus"
	fwd_need prometheus prometheus
	python3 -c "import yaml" 2>/dev/null || fwd_fail "python3 cannot import yaml: install python3-yaml (make deps)"
	mkdir -p "$d/data"
	PROM_PORT=$(fwd_free_port 1)
	python3 "$FWD_TOP/tests/e2e/fwd/promconf.py" "$d/prometheus.yml" "127.0.0.1:$target" "$every" \
		${shipped:+"$shipped"} || fwd_fail "cannot write the Prometheus configuration"
	prometheus --config.file="$d/prometheus.yml" --storage.tsdb.path="$d/data" \
		--web.listen-address="127.0.0.1:$PROM_PORT" >"$FWD_TMP/prometheus.log" 2>&1 &
	PROM_PID=$!
	FWD_PIDS+=("$PROM_PID")
	fwd_wait_tcp "$PROM_PID" "$PROM_PORT" "prometheus"
	fwd_until 30 fwd_prom_get /-/ready >/dev/null || fwd_fail "prometheus did not become ready on port $PROM_PORT"
	fwd_log "prometheus pid $PROM_PID: HTTP 127.0.0.1:$PROM_PORT, storage in $d/data, scraping 127.0.0.1:$target every $every"
}

# GET a path of the Prometheus HTTP API; the body on stdout, exit 1 unless 200.
fwd_prom_get() {
	python3 - "http://127.0.0.1:$PROM_PORT$1" <<'EOF'
import sys, urllib.request
try:
    r = urllib.request.urlopen(sys.argv[1], timeout=5)
except Exception as e:
    sys.exit("prometheus: %s: %s" % (sys.argv[1], e))
sys.stdout.write(r.read().decode())
sys.exit(0 if r.status == 200 else 1)
EOF
}

# Every scrape target is up: Prometheus reached write_prometheus and parsed
# what it got (one metric name it rejects fails the whole scrape).
fwd_prom_targets_up() {
	fwd_prom_get /api/v1/targets 2>/dev/null | python3 -c '
import json, sys
t = json.load(sys.stdin)["data"]["activeTargets"]
sys.exit(0 if t and all(x["health"] == "up" for x in t) else 1)'
}

# An instant query for EXPR returns at least one series.
fwd_prom_has() {
	local q
	q=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$1")
	fwd_prom_get "/api/v1/query?query=$q" 2>/dev/null |
		python3 -c 'import json, sys; sys.exit(0 if json.load(sys.stdin)["data"]["result"] else 1)'
}

# One line per target: URL, health, last error.
fwd_prom_targets() {
	fwd_prom_get /api/v1/targets | python3 -c '
import json, sys
for x in json.load(sys.stdin)["data"]["activeTargets"]:
    print(x["scrapeUrl"], x["health"], x.get("lastError", ""))'
}

# -------------------------------------------------------------------- collectd
# A plugin directory of regular files (collectd refuses symlinks): the named
# collectd plugins copied from /usr/lib/collectd, plus any given .so paths.
fwd_plugindir() {
	local d="$FWD_TMP/plugins" p
	mkdir -p "$d"
	for p in "$@"; do
		case $p in
		*/*) cp "$p" "$d/" ;;
		*) cp "/usr/lib/collectd/$p.so" "$d/" ;;
		esac
	done
	printf '%s\n' "$d"
}

# Start collectd in the foreground on CONF; COLLECTD_PID, log in collectd.log.
# No "collectd -t" first: 5.12's exits 0 without reading the file (collectd
# issue #3216), and -T would run a second reader on zvmsim's data sets.  A
# configuration collectd refuses makes it exit at once: that is looked for.
fwd_start_collectd() {
	local conf=$1 log=${2:-$FWD_TMP/collectd.log} i
	collectd -f -C "$conf" >"$log" 2>&1 &
	COLLECTD_PID=$!
	FWD_PIDS+=("$COLLECTD_PID")
	for i in 1 2 3 4 5 6 7 8 9 10; do
		kill -0 "$COLLECTD_PID" 2>/dev/null ||
			{ cat "$log" >&2; fwd_fail "collectd exited at start on $conf"; }
		sleep 0.1
	done
}

fwd_stop_collectd() { fwd_stop_pid "$COLLECTD_PID"; }

# Send collectd unixsock commands (one per line on stdin) to SOCKET; every
# answer must be a success ("0 ..." or a positive count).
fwd_unixsock() {
	# The script comes as an argument: stdin carries the commands.
	python3 -c '
import socket, sys, time
path = sys.argv[1]
for _ in range(100):
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        break
    except OSError:
        time.sleep(0.1)
else:
    sys.exit("unixsock: cannot connect to " + path)
f = s.makefile("rw")
n = 0
for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    f.write(line + "\n")
    f.flush()
    answer = f.readline().strip()
    if answer.startswith("-") or not answer:
        sys.exit("unixsock: %r -> %r" % (line, answer))
    n += 1
if n == 0:
    sys.exit("unixsock: no commands on stdin")
' "$1"
}

# ---------------------------------------------------------------------- zvmsim
# Start zvmsim on $FWD_TMP/mnt (monreader, monwriter) with ARGS; the ground
# truth goes to $FWD_TMP/truth.jsonl.  ZVMSIM_PID.
fwd_start_zvmsim() {
	local sim="$FWD_TOP/${BUILD:-build}/zvmsim"
	[ -x "$sim" ] || fwd_fail "$sim not built (make all)"
	[ -c /dev/fuse ] || fwd_fail "/dev/fuse missing: zvmsim needs FUSE (package fuse3)"
	fwd_need fusermount3 fuse3
	mkdir -p "$FWD_TMP/mnt"
	"$sim" run -m "$FWD_TMP/mnt" --truth "$FWD_TMP/truth.jsonl" "$@" >"$FWD_TMP/zvmsim.log" 2>&1 &
	ZVMSIM_PID=$!
	FWD_PIDS+=("$ZVMSIM_PID")
	fwd_until 20 test -e "$FWD_TMP/mnt/monreader" || fwd_fail "zvmsim did not mount $FWD_TMP/mnt"
	fwd_log "zvmsim pid $ZVMSIM_PID on $FWD_TMP/mnt ($*)"
}

# The zvm plugin on zvmsim's monreader, writing to csv (for the identifiers)
# plus the collectd plugins named in PLUGINS configured by EXTRA; prints the
# configuration file's path.
fwd_zvm_conf() {
	local extra=$1 plugins=$2 conf="$FWD_TMP/collectd.conf" pd
	pd=$(fwd_plugindir logfile csv $plugins "$FWD_TOP/${BUILD:-build}/zvm.so")
	mkdir -p "$FWD_TMP/collectd" "$FWD_TMP/csv"
	cat >"$conf" <<EOF
Hostname "collector"
FQDNLookup false
BaseDir "$FWD_TMP/collectd"
PIDFile "$FWD_TMP/collectd/collectd.pid"
PluginDir "$pd"
TypesDB "/usr/share/collectd/types.db" "$FWD_TOP/types.db"
Interval 1
# One write thread keeps each series in time order (StoreRates needs it).
WriteThreads 1
LoadPlugin logfile
<Plugin logfile>
  LogLevel info
  File STDOUT
</Plugin>
LoadPlugin zvm
<Plugin zvm>
  Device "$FWD_TMP/mnt/monreader"
  GuestHostFormat "%u"
  ReportStats true
</Plugin>
LoadPlugin csv
<Plugin csv>
  DataDir "$FWD_TMP/csv"
  StoreRates false
</Plugin>
$extra
EOF
	printf '%s\n' "$conf"
}

# The simulated system of the forwarding tests: small, every kind of source,
# an SSI member (domain 11).
# Intervals are driven from here ("--interval 0": one sample interval, 1 s
# of monitor time, per "interval" written to the control file), one per
# second of wall time, so that the monitor's time stamps stay close to now:
# carbon-cache drops points from the future or beyond its retention.
FWD_SIM_ARGS=${FWD_SIM_ARGS:---interval 0 --seed 11 --cpus 2 --guests 6 --linux 2 --devices 4 --vnics 2 --lpars 1 --fsstatd 2 --procd 2 --ssi SSI1}
FWD_INTERVALS=${FWD_INTERVALS:-8}
FWD_MIN_SAMPLES=${FWD_MIN_SAMPLES:-3}

# Let collectd read FWD_INTERVALS sample intervals, then a little more.
fwd_run_intervals() {
	local i
	for i in $(seq 1 "$FWD_INTERVALS"); do
		sleep 1
		echo interval >"$FWD_TMP/mnt/control" || fwd_fail "zvmsim refused an interval"
	done
	sleep 2
	kill -0 "$COLLECTD_PID" 2>/dev/null || fwd_fail "collectd died"
}

# collectd ran cleanly: loaded the zvm plugin, exited normally, no unknown types.
fwd_collectd_ok() {
	local L="$FWD_TMP/collectd.log"
	grep -q 'plugin_load: plugin "zvm" successfully loaded' "$L" || fwd_fail "collectd did not load zvm.so"
	grep -q "Exiting normally" "$L" || fwd_fail "collectd did not exit normally"
	if grep -qE "Dataset not found|check your types.db" "$L"; then
		grep -E "Dataset not found|check your types.db" "$L" | head -3 >&2
		fwd_fail "collectd lacks types the zvm plugin uses"
	fi
	[ -n "$(find "$FWD_TMP/csv" -type f | head -1)" ] || fwd_fail "collectd wrote no values at all"
}
