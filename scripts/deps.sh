#!/usr/bin/env bash
# Install the Debian 12 packages collectd-zvm needs, if any are missing.
# Quiet and quick when everything is there; needs root (or sudo) otherwise.
set -euo pipefail

host_pkgs=(
	build-essential clang clang-format llvm libclang-rt-14-dev valgrind pkg-config jq
	collectd-core collectd-dev libyajl-dev libcmocka-dev
	fuse3 libfuse3-dev python3 libncurses-dev tmux
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

missing=()
for p in "${host_pkgs[@]}" "${s390x_pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ -f "$S390X_CD_STAMP" ] || missing+=("collectd-core:s390x (unpacked in $S390X_CD_ROOT)")
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing missing packages: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || { echo "deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
	SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
if ! dpkg --print-foreign-architectures | grep -qx s390x; then
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
[ -f "$S390X_CD_STAMP" ] || unpack_s390x_collectd
echo "deps: done"
