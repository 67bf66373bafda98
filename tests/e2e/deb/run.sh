#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make check-deb: the Debian packages installed on this machine and used as
# a user would.  dpkg installs collectd-zvm and collectd-zvm-sim; the
# installed collectd (/usr/sbin/collectd, its default PluginDir
# /usr/lib/collectd, the installed types.db) reads the installed zvmsim's
# FUSE monreader with the installed zvm plugin and writes to its monwriter
# with the installed write_zvm; the values are held against zvmsim's ground
# truth (tests/e2e/plugin/check_truth.py).  Then both packages are purged and
# the machine must be as it was: every path of the packages as before, no
# dpkg state, no other package installed or removed.  A trap purges on any failure.
# usage: run.sh TOP DEBDIR   (needs root: dpkg)
TOP=$(cd "$1" && pwd)
DEBDIR=$(cd "$2" && pwd)
. "$TOP/tests/e2e/plugin/lib.sh"

[ "$(id -u)" -eq 0 ] || fail "check-deb installs packages: run it as root"
for t in dpkg dpkg-deb dpkg-query apt-get getent fusermount3 python3; do need "$t"; done
[ -e /dev/fuse ] || fail "FUSE is unavailable (/dev/fuse missing): zvmsim's devices need it"
ARCH=$(dpkg --print-architecture)
V=$(dpkg-parsechangelog -l "$TOP/debian/changelog" -S Version)
PKGS=(collectd-zvm collectd-zvm-sim)
DEBS=()
for p in "${PKGS[@]}"; do
	d="$DEBDIR/${p}_${V}_$ARCH.deb"
	[ -f "$d" ] || fail "$d missing (make deb)"
	DEBS+=("$d")
done
# apt waits for the dpkg lock instead of failing while another job installs.
APT=(apt-get -y -q --no-install-recommends -o DPkg::Lock::Timeout=300)
export DEBIAN_FRONTEND=noninteractive

# No "producer | grep -q" below: with pipefail, grep leaving early kills the
# producer with SIGPIPE and the test fails at random.
state() { dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null | tr -d ' ' || true; }
for p in "${PKGS[@]}"; do
	s=$(state "$p")
	case "$s" in "" | un | pn) ;; *) fail "$p is already on this machine (dpkg state '$s'): purge it first, check-deb would change it" ;; esac
done
# Everything they depend on must be there already: then installing adds
# nothing but the two packages, and purging them restores the machine.
for d in "${DEBS[@]}"; do
	for dep in $(dpkg-deb -f "$d" Depends | tr ',' '\n' | sed 's/(.*//; s/|.*//; s/ //g'); do
		[[ $'\n'$(dpkg-query -W -f='${db:Status-Abbrev}\n' "$dep" 2>/dev/null || true) == *$'\n'ii* ]] || fail "$(basename "$d") needs $dep, which is not installed (make deps)"
	done
done

T=$(mktemp -d "${TMPDIR:-/tmp}/zvm-deb.XXXXXX")
M="$T/mnt"
SIMPID="" CDPID=""
GROUP_BEFORE=$(getent group zvmmon || true)
cleanup() {
	local rc=$?
	[ -z "$CDPID" ] || { kill "$CDPID" 2>/dev/null || true; wait "$CDPID" 2>/dev/null || true; }
	if [ -n "$SIMPID" ]; then
		fusermount3 -u "$M" 2>/dev/null || true
		kill "$SIMPID" 2>/dev/null || true
		wait "$SIMPID" 2>/dev/null || true
	fi
	for p in "${PKGS[@]}"; do
		case "$(state "$p")" in "" | un | pn) ;; *)
			echo "check-deb: purging $p after a failure" >&2
			"${APT[@]}" purge "$p" >/dev/null 2>&1 || dpkg --purge "$p" >/dev/null 2>&1 || true ;;
		esac
	done
	# The package keeps the group on purge, as system groups are kept; the
	# test removes the one it caused.
	if [ -z "$GROUP_BEFORE" ] && getent group zvmmon >/dev/null; then delgroup --quiet zvmmon || true; fi
	rm -rf "$T"
	exit $rc
}
trap cleanup EXIT

# ------------------------------------------------------------------ before
# Every path the packages hold, and whether it exists now.  A file that is
# already there (a make install, say) would be overwritten and then removed
# by the purge: refuse rather than change the machine.
for d in "${DEBS[@]}"; do dpkg-deb -c "$d"; done | awk '{ print $6 }' | sed 's|^\./|/|; s|/$||' |
	grep -v '^$' | sort -u >"$T/paths"
while read -r f; do
	if [ -e "$f" ] || [ -L "$f" ]; then
		[ -d "$f" ] || fail "$f exists before the install (not from these packages): remove it first"
		echo "$f"
	fi
done <"$T/paths" >"$T/exist-before"

# ------------------------------------------------------------------ install
t0=$(date +%s.%N)
"${APT[@]}" install "${DEBS[@]}" >"$T/install.log" 2>&1 || { cat "$T/install.log"; fail "apt-get install failed"; }
t1=$(date +%s.%N)
for p in "${PKGS[@]}"; do
	[ "$(state "$p")" = ii ] || fail "$p not installed after apt-get install (state '$(state "$p")')"
	dpkg -L "$p" >"$T/list-$p"
done
# apt's own summary, not a before/after list of all packages: other jobs on
# this machine may install packages (or run triggers) meanwhile.
grep -qx "0 upgraded, 2 newly installed, 0 to remove and [0-9]* not upgraded." "$T/install.log" ||
	{ cat "$T/install.log"; fail "the install changed other packages too"; }
echo "installed ${PKGS[*]} in $(python3 -c "print('%.1f' % ($t1 - $t0))") s"
for f in /usr/lib/collectd/zvm.so /usr/lib/collectd/write_zvm.so /usr/bin/zvmmon /usr/bin/zvmsim \
	/usr/share/collectd-zvm/types.db /usr/share/man/man1/zvmmon.1.gz /usr/share/man/man1/zvmsim.1.gz \
	/usr/share/man/man5/collectd-zvm.5.gz /lib/udev/rules.d/90-collectd-zvm.rules \
	/lib/systemd/system/collectd.service.d/zvm.conf /etc/modprobe.d/collectd-zvm.conf \
	/usr/share/doc/collectd-zvm/examples/collector-guest.conf /usr/share/doc/collectd-zvm/README.Debian.gz; do
	grep -qx -- "$f" "$T"/list-* || fail "$f is not in the packages (dpkg -L)"
	[ -f "$f" ] || fail "$f listed but not installed"
done
[ ! -e /etc/modules-load.d/collectd-zvm.conf ] || fail "modules-load.d file installed (it is an example only)"
[[ $(dpkg-query -W -f='${Conffiles}\n' collectd-zvm) == *" /etc/modprobe.d/collectd-zvm.conf "* ]] ||
	fail "/etc/modprobe.d/collectd-zvm.conf is not a conffile"
getent group zvmmon >/dev/null || fail "postinst did not create the group zvmmon"
[[ $(/usr/bin/zvmmon --version) == "zvmmon $V "* ]] || fail "installed zvmmon --version is not $V"

# ------------------------------------------------------------------ run
# The installed collectd with its default PluginDir: lib.sh's configuration
# without its PluginDir line, and the installed types.db.
mkdir -p "$M"
/usr/bin/zvmsim run -m "$M" --interval 0 --cpus 2 --guests 4 --linux 2 --devices 2 --vnics 2 \
	--start 1795305600 --writer-userid LNXPKG --truth "$T/truth.jsonl" >"$T/zvmsim.log" 2>&1 &
SIMPID=$!
for _ in $(seq 50); do [ -e "$M/monreader" ] && break; sleep 0.1; done
[ -e "$M/monreader" ] || { cat "$T/zvmsim.log"; fail "the installed zvmsim did not mount $M"; }
st() { awk -v k="$1" '$1 == k { print $2 }' "$M/status"; }
conf dev "  Device \"$M/monreader\"
  RetryInterval 0.5
  MaxRetryInterval 1" json
cat >>"$T/dev/collectd.conf" <<CONF
LoadPlugin load
LoadPlugin write_zvm
<Plugin write_zvm>
  Device "$M/monwriter"
  Include "load"
</Plugin>
CONF
sed -i -e '/^PluginDir /d' \
	-e 's|^TypesDB .*|TypesDB "/usr/share/collectd/types.db" "/usr/share/collectd-zvm/types.db"|' \
	"$T/dev/collectd.conf"
grep -q PluginDir "$T/dev/collectd.conf" && fail "the configuration still names a PluginDir"
/usr/sbin/collectd -f -C "$T/dev/collectd.conf" >"$T/dev/stdout" 2>&1 &
CDPID=$!
for _ in $(seq 100); do [ "$(st reader_open)" = 1 ] && break; sleep 0.1; done
[ "$(st reader_open)" = 1 ] || { cat "$T/dev/stdout" "$T/dev/collectd.log"; fail "collectd did not open zvmsim's monreader"; }
# Which files the daemon really mapped: the packaged plugins, nothing from a build tree.
maps=$(grep -oE '/[^ ]*(zvm|write_zvm)\.so$' "/proc/$CDPID/maps" | sort -u | tr '\n' ' ')
[ "$maps" = "/usr/lib/collectd/write_zvm.so /usr/lib/collectd/zvm.so " ] ||
	fail "collectd mapped '$maps', not the installed plugins"
for _ in $(seq 6); do echo interval >"$M/control"; sleep 0.4; done
sleep 1.5
kill -TERM "$CDPID"
wait "$CDPID" || true
CDPID=""
logged dev 'plugin "zvm" successfully loaded'
logged dev 'plugin "write_zvm" successfully loaded'
logged dev "write_zvm plugin: writing to"
logged dev "Exiting normally"
not_logged dev "Dataset not found"
[ "$(csvlast dev collector/zvm-reader/errors-decode)" = 0 ] || fail "decode errors on zvmsim's data"
fusermount3 -u "$M"
for _ in $(seq 50); do kill -0 "$SIMPID" 2>/dev/null || break; sleep 0.1; done
wait "$SIMPID" 2>/dev/null || true
SIMPID=""
python3 "$TOP/tests/e2e/plugin/check_truth.py" "$T/truth.jsonl" "$T/dev/csv" "$T/dev/collectd.log" \
	--min 100 --cp-min 4
# write_zvm's records went through zvmsim's monwriter into the monitor stream
# (as guest LNXPKG) and came back through the zvm plugin.
ls "$T"/dev/csv/lnxpkg/load*/load-* >/dev/null 2>&1 ||
	{ ls "$T/dev/csv"; fail "no load values of guest lnxpkg: write_zvm -> zvmsim -> zvm round trip broken"; }
echo "write_zvm -> zvmsim -> zvm: $(cat "$T"/dev/csv/lnxpkg/load*/load-* | grep -vc epoch) load values of guest lnxpkg"

# ------------------------------------------------------------------ purge
"${APT[@]}" purge "${PKGS[@]}" >"$T/purge.log" 2>&1 || { cat "$T/purge.log"; fail "apt-get purge failed"; }
for p in "${PKGS[@]}"; do
	s=$(state "$p")
	case "$s" in "" | un | pn) ;; *) fail "$p still known to dpkg after purge (state '$s')" ;; esac
	ls /var/lib/dpkg/info/"$p".* >/dev/null 2>&1 && fail "dpkg still holds /var/lib/dpkg/info/$p.*"
	while read -r f; do
		[ "$f" = /. ] && continue
		if grep -qx -- "$f" "$T/exist-before"; then
			[ -d "$f" ] || fail "$f existed before the install and is gone"
		elif [ -e "$f" ] || [ -L "$f" ]; then
			fail "$f (dpkg -L $p) is left after the purge"
		fi
	done <"$T/list-$p"
done
while read -r f; do
	if ! grep -qx -- "$f" "$T/exist-before" && { [ -e "$f" ] || [ -L "$f" ]; }; then
		fail "$f is left after the purge"
	fi
done <"$T/paths"
grep -qx "0 upgraded, 0 newly installed, 2 to remove and [0-9]* not upgraded." "$T/purge.log" ||
	{ cat "$T/purge.log"; fail "the purge changed other packages too"; }
if [ -z "$GROUP_BEFORE" ]; then
	getent group zvmmon >/dev/null || fail "purge removed the group zvmmon (README.Debian says it stays)"
fi
echo "purged: every path as before the install ($(wc -l <"$T/paths") paths), no dpkg state, no other package touched"
echo "check-deb: passed"
