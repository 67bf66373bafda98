#!/usr/bin/env bash
# Install the Debian 12 packages collectd-zvm needs, if any are missing.
# Quiet and quick when everything is there; needs root (or sudo) otherwise.
#
# usage: scripts/deps.sh [demo|all]
#   demo  what `make demo` needs: a compiler, collectd and its headers,
#         libyajl, FUSE 3 and ncurses (a plain `make` builds with these too).
#         Host packages only: no foreign architecture is added.
#   all   (the default, `make deps` and `make check`) the demo's packages and
#         every tool the check groups use: clang, valgrind, the s390x cross
#         compiler and s390x libraries (adds the s390x architecture),
#         qemu-user, carbon-cache, influxd, prometheus, debhelper, lintian...
set -euo pipefail

mode=${1:-all}
case $mode in
demo | all) ;;
*)
	echo "usage: $0 [demo|all]" >&2
	exit 2
	;;
esac

# What the demo builds (zvm.so, zvmsim, zvmmon) and runs (collectd with its
# logfile, write_log and csv plugins, fusermount3).
demo_pkgs=(
	build-essential collectd-core collectd-dev libyajl-dev
	fuse3 libfuse3-dev libncurses-dev
)
check_pkgs=(
	clang clang-format llvm libclang-rt-14-dev valgrind pkg-config jq
	libcmocka-dev python3 python3-yaml tmux
	gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user
	graphite-carbon python3-whisper influxdb influxdb-client
	prometheus libmicrohttpd12 libprotobuf-c1
	systemd groff-base
	debhelper lintian
)
# libc6, libcap2 and libyajl2 (write_log): what Debian's s390x collectd daemon and
# the plugins the s390x tests load need at run time under qemu-user (check-s390x-daemon).
s390x_pkgs=(libcmocka-dev:s390x libyajl-dev:s390x libc6:s390x libcap2:s390x libyajl2:s390x)
# collectd-core:s390x has no Multi-Arch field: installed, it would replace the amd64
# daemon.  It is unpacked beside it instead (doc/facts/collectd.md 6).
S390X_CD_ROOT=${S390X_CD_ROOT:-/opt/collectd-s390x}
S390X_CD_STAMP=$S390X_CD_ROOT/.collectd-core-s390x

wanted=("${demo_pkgs[@]}")
[ "$mode" = demo ] || wanted+=("${check_pkgs[@]}" "${s390x_pkgs[@]}")
missing=()
for p in "${wanted[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "$mode" = all ] && [ ! -f "$S390X_CD_STAMP" ]; then
	missing+=("collectd-core:s390x (unpacked in $S390X_CD_ROOT)")
fi
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps ($mode): installing missing packages: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || { echo "deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
	SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
if [ "$mode" = all ] && ! dpkg --print-foreign-architectures | grep -qx s390x; then
	$SUDO dpkg --add-architecture s390x
fi
$SUDO apt-get update -qq

# Unpacked into a fresh directory that then replaces the old one whole, so an
# interrupted run leaves no half tree behind the stamp.
unpack_s390x_collectd() {
	local tmp deb
	tmp=$(mktemp -d)
	# apt fetches as the unprivileged _apt user, which must be able to write there.
	chmod 0755 "$tmp"
	if getent passwd _apt >/dev/null; then $SUDO chown _apt "$tmp"; fi
	(cd "$tmp" && $SUDO apt-get download -qq collectd-core:s390x)
	deb=$(ls "$tmp"/collectd-core_*_s390x.deb)
	$SUDO rm -rf "$S390X_CD_ROOT.new"
	$SUDO dpkg-deb -x "$deb" "$S390X_CD_ROOT.new"
	dpkg-deb -f "$deb" Package Version Architecture | $SUDO tee "$S390X_CD_ROOT.new/.collectd-core-s390x" >/dev/null
	$SUDO rm -rf "$S390X_CD_ROOT"
	$SUDO mv "$S390X_CD_ROOT.new" "$S390X_CD_ROOT"
	$SUDO rm -rf "$tmp"
}
# Server packages must not start daemons on install: the tests start their own.
printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
$SUDO chmod +x /usr/sbin/policy-rc.d
trap '$SUDO rm -f /usr/sbin/policy-rc.d' EXIT
pkgs=()
for p in "${missing[@]}"; do [[ $p == collectd-core:s390x* ]] || pkgs+=("$p"); done
[ ${#pkgs[@]} -eq 0 ] || $SUDO apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
if [ "$mode" = all ] && [ ! -f "$S390X_CD_STAMP" ]; then
	unpack_s390x_collectd
fi
echo "deps ($mode): done"
