#!/usr/bin/env bash
# make install DESTDIR=... puts every file where Debian users expect it, and
# the installed pieces work from there: collectd loads the installed zvm and
# write_zvm plugins with the installed types.db and replays a MONWRITE file;
# the installed zvmmon reads it; the man pages render without warnings; the
# example configurations pass collectd's config check with the installed
# plugins; the systemd drop-in passes systemd-analyze; /etc/modules-load.d
# is written only when asked for (MODULESLOADDIR); PREFIX and
# INSTALL_SYSCONF=0 are honoured.
. tests/e2e/fwd/lib.sh
fwd_init install

BUILD=${BUILD:-build}
MAKE=${MAKE:-make}
ZVMSIM="$FWD_TOP/$BUILD/zvmsim"
[ -x "$ZVMSIM" ] || fwd_fail "$ZVMSIM not built (make all)"

R="$FWD_TMP/root"
$MAKE -s --no-print-directory install DESTDIR="$R" PREFIX=/usr BUILD="$BUILD" \
	>"$FWD_TMP/install.log" 2>&1 || { cat "$FWD_TMP/install.log" >&2; fwd_fail "make install failed"; }

# ------------------------------------------------------------ the file list
want=(
	usr/lib/collectd/zvm.so
	usr/lib/collectd/write_zvm.so
	usr/bin/zvmmon
	usr/share/collectd-zvm/types.db
	usr/share/man/man1/zvmmon.1
	usr/share/man/man5/collectd-zvm.5
	usr/share/doc/collectd-zvm/real-zvm.md
	usr/share/doc/collectd-zvm/forwarding.md
	usr/share/doc/collectd-zvm/examples/collector-guest.conf
	usr/share/doc/collectd-zvm/examples/writer-guest.conf
	usr/share/doc/collectd-zvm/examples/replay-to-graphite.conf
	usr/share/doc/collectd-zvm/examples/many-systems-collector.conf
	usr/share/doc/collectd-zvm/examples/many-systems-central.conf
	usr/share/doc/collectd-zvm/examples/many-systems.passwd
	usr/share/doc/collectd-zvm/examples/grafana/zvm-system-graphite.json
	usr/share/doc/collectd-zvm/examples/grafana/zvm-system-influxdb.json
	usr/share/doc/collectd-zvm/examples/grafana/zvm-guests-graphite.json
	usr/share/doc/collectd-zvm/examples/grafana/zvm-guests-influxdb.json
	usr/share/doc/collectd-zvm/examples/grafana/linux-guests-graphite.json
	usr/share/doc/collectd-zvm/examples/grafana/linux-guests-influxdb.json
	usr/share/doc/collectd-zvm/examples/grafana/zvm-system-prometheus.json
	usr/share/doc/collectd-zvm/examples/prometheus/prometheus.yml
	usr/share/doc/collectd-zvm/examples/prometheus/collectd-zvm.rules.yml
	usr/share/doc/collectd-zvm/examples/prometheus/collectd-zvm.alerts.yml
	usr/share/doc/collectd-zvm/examples/system/udev/90-collectd-zvm.rules
	usr/share/doc/collectd-zvm/examples/system/modprobe.d/collectd-zvm.conf
	usr/share/doc/collectd-zvm/examples/system/modules-load.d/collectd-zvm.conf
	usr/share/doc/collectd-zvm/examples/system/systemd/collectd.service.d/zvm.conf
	lib/udev/rules.d/90-collectd-zvm.rules
	etc/modprobe.d/collectd-zvm.conf
	etc/systemd/system/collectd.service.d/zvm.conf
)
# Every man page of the tree (roff or POD), whoever wrote it.
for m in man/*.[0-9] man/*.[0-9].pod; do
	[ -e "$m" ] || continue
	m=$(basename "${m%.pod}")
	want+=("usr/share/man/man${m##*.}/$m")
done
for f in "${want[@]}"; do
	[ -f "$R/$f" ] || fwd_fail "make install did not install /$f"
done
[ -x "$R/usr/bin/zvmmon" ] || fwd_fail "/usr/bin/zvmmon is not executable"
cmp -s "$R/usr/share/collectd-zvm/types.db" types.db || fwd_fail "installed types.db differs"
for j in "$R"/usr/share/doc/collectd-zvm/examples/grafana/*.json; do
	python3 -m json.tool "$j" >/dev/null || fwd_fail "$j is not JSON"
done
# The Debian package's policy: the modules-load.d file is an example only
# (both drivers refuse to load outside z/VM, so systemd-modules-load.service
# would fail at every boot of another machine; debian/README.Debian).
[ ! -e "$R/etc/modules-load.d" ] || fwd_fail "make install wrote /etc/modules-load.d (an opt-in only)"
fwd_log "installed ${#want[@]} expected files under DESTDIR, no /etc/modules-load.d"

# ------------------------------------------------------------ collectd run
# The installed plugin directory, plus copies of the collectd plugins the
# run needs (the DESTDIR tree is scratch).
PD="$R/usr/lib/collectd"
cp /usr/lib/collectd/logfile.so /usr/lib/collectd/csv.so "$PD/"
"$ZVMSIM" monwrite -o "$FWD_TMP/sample.monwrite" --intervals 4 --interval 60 --cpus 2 \
	--guests 4 --linux 2 --seed 7 >"$FWD_TMP/zvmsim.log" 2>&1 ||
	{ cat "$FWD_TMP/zvmsim.log" >&2; fwd_fail "zvmsim monwrite failed"; }
mkdir -p "$FWD_TMP/collectd" "$FWD_TMP/csv"
cat >"$FWD_TMP/collectd.conf" <<EOF
Hostname "installtest"
FQDNLookup false
BaseDir "$FWD_TMP/collectd"
PIDFile "$FWD_TMP/collectd/collectd.pid"
PluginDir "$PD"
TypesDB "/usr/share/collectd/types.db" "$R/usr/share/collectd-zvm/types.db"
Interval 1
LoadPlugin logfile
<Plugin logfile>
  LogLevel info
  File STDOUT
</Plugin>
LoadPlugin zvm
<Plugin zvm>
  File "$FWD_TMP/sample.monwrite"
</Plugin>
LoadPlugin write_zvm
<Plugin write_zvm>
  Device "$FWD_TMP/no-monwriter"
  RetryInterval 1
</Plugin>
LoadPlugin csv
<Plugin csv>
  DataDir "$FWD_TMP/csv"
  StoreRates false
</Plugin>
EOF
fwd_start_collectd "$FWD_TMP/collectd.conf"
has_zvm_values() { [ -n "$(find "$FWD_TMP/csv" -path '*/zvm-cpu*' -type f 2>/dev/null | head -1)" ]; }
fwd_until 30 has_zvm_values || fwd_fail "no zvm values in the csv output"
sleep 2
fwd_stop_collectd
L="$FWD_TMP/collectd.log"
for p in zvm write_zvm; do
	grep -q "plugin_load: plugin \"$p\" successfully loaded" "$L" ||
		fwd_fail "collectd did not load the installed $p plugin"
done
grep -q "Exiting normally" "$L" || fwd_fail "collectd did not exit normally"
if grep -E "Dataset not found|Initialization of plugin .* failed" "$L"; then
	fwd_fail "collectd could not use the installed plugins or types.db"
fi
n=$(find "$FWD_TMP/csv" -type f | wc -l)
fwd_log "collectd loaded zvm.so and write_zvm.so from DESTDIR; $n csv series from the replay"

"$R/usr/bin/zvmmon" stat "$FWD_TMP/sample.monwrite" >"$FWD_TMP/stat.txt" 2>&1 ||
	{ cat "$FWD_TMP/stat.txt" >&2; fwd_fail "the installed zvmmon failed on the sample"; }

# ------------------------------------------------------------ man pages
# Rendered the way man(1) does, with every groff warning turned on.
fwd_need groff groff-base
for m in "$R"/usr/share/man/man*/*; do
	w=$(groff -man -Tutf8 -ww -z "$m" 2>&1) || w="groff failed: $w"
	[ -z "$w" ] || fwd_fail "$(basename "$m"): $w"
	groff -man -Tutf8 -P-cbou "$m" 2>/dev/null | grep -q "^NAME" || fwd_fail "$(basename "$m") has no NAME section"
done

# ------------------------------------------------------------ examples
# Each example passes collectd's configuration check (every option is parsed
# by the installed plugins) with the installed types.db.  collectd 5.12's -t
# exits 0 at once without reading the file (collectd issue #3216, fixed after
# 5.12), so the check is -T: it loads the plugins and hands each its block,
# and exits 1 ("Parsing the config file failed") when a plugin is missing or
# refuses an option; then it runs the plugins once.  For that run the copy
# logs to stdout instead of syslog, names devices, servers and files that
# lead nowhere on this machine, and the central's AuthFile is the example's.
for p in syslog write_graphite network cpu memory load swap interface df match_regex; do
	cp "/usr/lib/collectd/$p.so" "$PD/"
done
EX="$R/usr/share/doc/collectd-zvm/examples"
check_example() { # SOURCE NAME: collectd -T accepts SOURCE (a copy adapted to this machine)
	local t="$FWD_TMP/check-$2"
	{
		echo "PluginDir \"$PD\""
		echo "BaseDir \"$FWD_TMP/check-base\""
		echo "PIDFile \"$FWD_TMP/check-base/collectd.pid\""
		sed -e "s|\"/usr/share/collectd-zvm/types.db\"|\"$R/usr/share/collectd-zvm/types.db\"|" \
			-e "s|\"/etc/collectd/many-systems.passwd\"|\"$EX/many-systems.passwd\"|" \
			-e "s|\"/dev/mon\(reader\|writer\)\"|\"$FWD_TMP/no-mon\\1\"|" \
			-e 's|"[a-z]*\.example\.com"|"127.0.0.1"|; s|<Listen "0\.0\.0\.0"|<Listen "127.0.0.1"|' \
			-e 's|^LoadPlugin syslog$|LoadPlugin logfile|' \
			-e 's|^<Plugin syslog>$|<Plugin logfile>\n  File STDOUT|' "$1"
	} >"$t"
	collectd -T -C "$t" >"$t.log" 2>&1 || { cat "$t.log" >&2; return 1; }
	! grep -Ei "unknown option|block refused|Could not find plugin|isn't loaded|failed to handle option|Parsing the config" "$t.log" >&2
}
mkdir -p "$FWD_TMP/check-base"
n=0
for ex in "$EX"/*.conf; do
	check_example "$ex" "$(basename "$ex")" || fwd_fail "collectd -T rejects $(basename "$ex")"
	n=$((n + 1))
done
# The check must refuse what collectd refuses: an option no plugin has, a
# plugin not installed.
sed 's|^<Plugin zvm>$|&\n  NoSuchOption 1|' "$EX/collector-guest.conf" >"$FWD_TMP/bad-option.conf"
printf 'LoadPlugin no_such_plugin\n' | cat - "$EX/writer-guest.conf" >"$FWD_TMP/bad-plugin.conf"
for bad in bad-option.conf bad-plugin.conf; do
	! check_example "$FWD_TMP/$bad" "$bad" 2>/dev/null || fwd_fail "the example check accepts $bad"
done
fwd_log "$n examples pass collectd -T with the installed plugins (and a broken one does not)"

# ------------------------------------------------------------ system files
fwd_need systemd-analyze systemd
u="$FWD_TMP/units"
mkdir -p "$u/collectd.service.d"
cp /lib/systemd/system/collectd.service "$u/"
cp "$R/etc/systemd/system/collectd.service.d/zvm.conf" "$u/collectd.service.d/"
# Only messages about collectd.service or the drop-in count: verify also
# looks at unrelated units installed on the machine.
SYSTEMD_UNIT_PATH="$u:" systemd-analyze verify --man=no "$u/collectd.service" \
	>"$FWD_TMP/verify.log" 2>&1 || true
if grep -E "collectd\.service|zvm\.conf" "$FWD_TMP/verify.log"; then
	fwd_fail "systemd-analyze verify complains about the drop-in"
fi
grep -Eq '^monreader$' "$R/usr/share/doc/collectd-zvm/examples/system/modules-load.d/collectd-zvm.conf" ||
	fwd_fail "the modules-load.d example lacks monreader"
grep -Eq '^options monreader mondcss=' "$R/etc/modprobe.d/collectd-zvm.conf" || fwd_fail "modprobe.d lacks mondcss"
grep -Eq '^options monwriter max_bufs=' "$R/etc/modprobe.d/collectd-zvm.conf" || fwd_fail "modprobe.d lacks max_bufs"

# The opt-in README.md documents: MODULESLOADDIR names the directory.
R3="$FWD_TMP/root3"
$MAKE -s --no-print-directory install DESTDIR="$R3" MODULESLOADDIR=/etc/modules-load.d \
	BUILD="$BUILD" >"$FWD_TMP/install3.log" 2>&1 ||
	{ cat "$FWD_TMP/install3.log" >&2; fwd_fail "make install MODULESLOADDIR=/etc/modules-load.d failed"; }
cmp -s "$R3/etc/modules-load.d/collectd-zvm.conf" contrib/modules-load.d/collectd-zvm.conf ||
	fwd_fail "MODULESLOADDIR=/etc/modules-load.d did not install the example there"
fwd_log "modules-load.d: an example by default, installed with MODULESLOADDIR=/etc/modules-load.d"

# ------------------------------------------------------------ PREFIX, INSTALL_SYSCONF
R2="$FWD_TMP/root2"
$MAKE -s --no-print-directory install DESTDIR="$R2" PREFIX=/usr/local INSTALL_SYSCONF=0 \
	BUILD="$BUILD" >"$FWD_TMP/install2.log" 2>&1 ||
	{ cat "$FWD_TMP/install2.log" >&2; fwd_fail "make install PREFIX=/usr/local failed"; }
for f in usr/local/lib/collectd/zvm.so usr/local/share/collectd-zvm/types.db \
	usr/local/share/man/man5/collectd-zvm.5 usr/local/share/doc/collectd-zvm/examples/collector-guest.conf; do
	[ -f "$R2/$f" ] || fwd_fail "PREFIX=/usr/local: /$f missing"
done
[ ! -e "$R2/usr/lib" ] && [ ! -e "$R2/usr/share" ] || fwd_fail "PREFIX=/usr/local installed below /usr"
[ ! -e "$R2/etc" ] && [ ! -e "$R2/lib" ] || fwd_fail "INSTALL_SYSCONF=0 still installed system files"
fwd_log "PREFIX=/usr/local and INSTALL_SYSCONF=0 honoured"
