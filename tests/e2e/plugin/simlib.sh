# SPDX-License-Identifier: MIT
# Sourced by device.sh and share.sh: zvmsim's FUSE monreader for the plugin's
# live tests, driven through its control file so that runs are deterministic.
SIM="$TOP/$BUILD/zvmsim"
[ -x "$SIM" ] || fail "$SIM not built (make $BUILD/zvmsim)"
[ -e /dev/fuse ] || fail "FUSE is unavailable (/dev/fuse missing): the device tests need zvmsim's FUSE monreader"
need fusermount3

M="$T/mnt"
mkdir -p "$M"
SIMPID=""
sim_start() { # sim_start TRUTHFILE [ZVMSIM OPTION...]
	local truth=$1
	shift
	"$SIM" run -m "$M" --interval 0 --cpus 2 --guests 4 --linux 2 --devices 2 --vnics 2 \
		--start 1795305600 --truth "$truth" "$@" >"$T/zvmsim.log" 2>&1 &
	SIMPID=$!
	for _ in $(seq 50); do [ -e "$M/monreader" ] && return 0; sleep 0.1; done
	cat "$T/zvmsim.log"
	fail "zvmsim did not mount $M"
}
sim_stop() { # unmounting ends zvmsim, which then completes its truth file
	[ -n "$SIMPID" ] || return 0
	fusermount3 -u "$M" 2>/dev/null || true
	for _ in $(seq 50); do kill -0 "$SIMPID" 2>/dev/null || break; sleep 0.1; done
	kill "$SIMPID" 2>/dev/null || true
	wait "$SIMPID" 2>/dev/null || true
	SIMPID=""
}
trap 'sim_stop; rm -rf "$T"' EXIT
st() { awk -v k="$1" '$1 == k { print $2 }' "$M/status"; }
ctl() { echo "$*" >"$M/control"; }
wait_open() { # wait_open 0|1 SECONDS
	for _ in $(seq $(($2 * 10))); do [ "$(st reader_open)" = "$1" ] && return 0; sleep 0.1; done
	fail "reader_open did not become $1 within $2 s"
}
intervals() { for _ in $(seq "$1"); do ctl interval; sleep "${2:-0.3}"; done; }

