# SPDX-License-Identifier: MIT
# Shared helpers of the zvm plugin's end-to-end tests (the hostile and soak runs
# take cd_conf_csv from here too): a private PluginDir with
# copies (collectd refuses symlinks) of zvm.so and collectd's csv, logfile and
# write_log plugins, a config generator, and a run with a time limit.
set -euo pipefail

# Which daemon runs: the host's by default; check-s390x-daemon sets these to
# Debian's s390x collectd and its types.db (tests/e2e/s390x/run.sh).
COLLECTD=${COLLECTD:-collectd}
CD_TYPESDB=${CD_TYPESDB:-/usr/share/collectd/types.db}

fail() { echo "FAIL: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null || fail "$1 missing (make deps installs it)"; }

e2e_setup() {
	need collectd
	need python3
	local cd_plugins=/usr/lib/collectd
	for p in csv logfile write_log match_regex; do
		[ -f "$cd_plugins/$p.so" ] || fail "$cd_plugins/$p.so missing (collectd-core)"
	done
	[ -f "$ZVM_SO" ] || fail "$ZVM_SO not built"
	T=$(mktemp -d "${TMPDIR:-/tmp}/zvm-e2e.XXXXXX")
	mkdir -p "$T/plugins"
	cp "$ZVM_SO" "$T/plugins/zvm.so"
	for p in csv logfile write_log match_regex; do cp "$cd_plugins/$p.so" "$T/plugins/"; done
}

# cd_conf_csv DIR PLUGINDIR: what every zvm test's collectd.conf starts with:
# the collector's name, DIR for its files, the project's types.db beside
# collectd's, a 1 s interval, the log with time stamps and csv under DIR/csv.
# The tests add their zvm block.
cd_conf_csv() {
	cat <<CONF
Hostname "collector"
FQDNLookup false
BaseDir "$1"
PIDFile "$1/collectd.pid"
PluginDir "$2"
TypesDB "$CD_TYPESDB" "$TOP/types.db"
Interval 1
# csv locks each file with F_SETLK and drops a value when two write threads meet
# on one file, which a replay burst (or an EOVERFLOW burst) provokes: one write
# thread keeps it exact.
WriteThreads 1
LoadPlugin logfile
<Plugin logfile>
  LogLevel "info"
  File "$1/collectd.log"
  Timestamp true
</Plugin>
LoadPlugin csv
<Plugin csv>
  DataDir "$1/csv"
  StoreRates false
</Plugin>
CONF
}

# conf NAME "zvm options..." [json]: a collectd.conf in $T/NAME (plugins from
# $PLUGDIR when set, else $T/plugins)
conf() {
	local d="$T/$1"
	mkdir -p "$d"
	{
		cd_conf_csv "$d" "${PLUGDIR:-$T/plugins}"
		printf 'LoadPlugin zvm\n<Plugin zvm>\n%s\n</Plugin>\n' "$2"
	} >"$d/collectd.conf"
	if [ "${3:-}" = json ]; then
		printf 'LoadPlugin write_log\n<Plugin write_log>\n  Format JSON\n</Plugin>\n' >>"$d/collectd.conf"
	fi
}

# run NAME SECONDS [wrapper...]: collectd in the foreground, stopped with SIGTERM
# (the wrapper is valgrind, or qemu-s390x for the s390x daemon)
run() {
	local name=$1 d="$T/$1" secs=$2
	shift 2
	local rc=0
	timeout -s TERM -k 20 "$secs" "$@" "$COLLECTD" -f -C "$d/collectd.conf" >"$d/stdout" 2>&1 || rc=$?
	[ $rc -eq 124 ] || { cat "$d/stdout" "$d/collectd.log" 2>/dev/null | tail -30; fail "$name: collectd exited with $rc before the time limit"; }
	grep -q "Exiting normally" "$d/collectd.log" || { tail -20 "$d/collectd.log"; fail "$name: no clean shutdown"; }
}

logged() { grep -q -- "$2" "$T/$1/collectd.log" || { tail -20 "$T/$1/collectd.log"; fail "$1: log lacks: $2"; }; }
not_logged() { ! grep -q -- "$2" "$T/$1/collectd.log" || { grep -- "$2" "$T/$1/collectd.log" | head; fail "$1: log has: $2"; }; }

# The last value collectd wrote for an identifier (csv), e.g. csvlast NAME host/zvm-reader/gauge-connected
csvlast() { tail -qn1 "$T/$1/csv/$2"-* 2>/dev/null | tail -n1 | cut -d, -f2; }

# csv_settle DIR PAUSE [CMD...]: until the csv files under DIR stop growing
# (at most 300 looks, PAUSE s apart), running CMD at each look.  The
# collector's own self-metrics grow every second: left out.
csv_settle() {
	local dir=$1 pause=$2 prev=-1 now
	shift 2
	for _ in $(seq 300); do
		[ $# -eq 0 ] || "$@"
		now=$(find "$dir" -path "$dir/collector" -prune -o -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
		[ "$now" = "$prev" ] && return 0
		prev=$now
		sleep "$pause"
	done
}
