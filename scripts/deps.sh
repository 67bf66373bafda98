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
s390x_pkgs=(libcmocka-dev:s390x libyajl-dev:s390x)

missing=()
for p in "${host_pkgs[@]}" "${s390x_pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
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
# Server packages must not start daemons on install: the tests start their own.
printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
$SUDO chmod +x /usr/sbin/policy-rc.d
trap '$SUDO rm -f /usr/sbin/policy-rc.d' EXIT
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: done"
