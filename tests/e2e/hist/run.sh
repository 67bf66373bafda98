#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End-to-end: a VM/370 Monitor tape (AWSTAPE image) replayed through the zvm
# plugin's File option in the real collectd daemon: vm370 metrics with the
# tape's times, host from the tape header's CPU serial, or the Host option.
# usage: run.sh TOP BUILD   (make check-hist-e2e)
TOP=$(cd "$1" && pwd)
BUILD=$2
ZVM_SO="$TOP/$BUILD/zvm.so"
. "$TOP/tests/e2e/plugin/lib.sh"
e2e_setup
trap 'rm -rf "$T"' EXIT
python3 "$TOP/tests/e2e/hist/mktape.py" "$T/tape.aws"

echo "== VM/370 tape as AWSTAPE: detected, class 0 and class 6 metrics, host = CPU serial"
conf tape "  File \"$T/tape.aws\""
run tape 4
logged tape 'File ".*tape.aws" (awstape) replayed: 0 data sets, 14 records'
d="$T/tape/csv/023456/vm370"
[ -d "$d" ] || fail "no vm370 metrics under host 023456"
# 1982-06-15T10:31:00Z = 392985060; counters are base + k (mktape.py).  The class 0
# code 0 records are 138 bytes: their 42 undeclared bytes (X'EE') must not show anywhere.
grep -q '^392985060.000,100$' "$d"/operations-paging_start_io-* || fail "paging_start_io first value"
grep -q '^392985240.000,134$' "$d"/vmpage_action-flushed_reclaimed-* || fail "flushed_reclaimed last value"
grep -q '^392985060.000,102' "$d"/vmpage_number-free_list-* || fail "free_list gauge"
[ "$(wc -l <"$d"/operations-ptrfr_calls-*)" -eq 5 ] || fail "expected 4 values (plus header) per series"
# class 0 code 1: the attached processor's totals, NXR = base, PWR = base + 3
grep -q '^392985060.000,1000$' "$d"/operations-ap_external_interrupts-* || fail "ap_external_interrupts first value"
grep -q '^392985240.000,1033$' "$d"/vmpage_action-ap_page_writes-* || fail "ap_page_writes last value"
[ "$(ls "$d" | wc -l)" -eq 14 ] || fail "expected 14 vm370 series, got $(ls "$d" | wc -l)"
# class 6: one series per device, from code 0 at the start and code 1 every interval
dv="$T/tape/csv/023456/vm370-device-0190"
[ -d "$dv" ] || fail "no per-device series for device 0190"
grep -q '^392985000.000,5000$' "$dv"/operations-io-* || fail "device 0190 first value (code 0)"
grep -q '^392985240.000,5400$' "$dv"/operations-io-* || fail "device 0190 last value"
[ "$(wc -l <"$dv"/operations-io-*)" -eq 6 ] || fail "expected 5 values (plus header) for device 0190"
grep -q '^392985240.000,7040$' "$T"/tape/csv/023456/vm370-device-0231/operations-io-* || fail "device 0231"

echo "== the Host option overrides the serial"
conf host "  File \"$T/tape.aws\"
  Host \"vm370test\""
run host 4
[ -d "$T/host/csv/vm370test/vm370" ] || fail "Host option not applied"
[ ! -d "$T/host/csv/023456" ] || fail "serial used despite Host"

echo "historic formats e2e: all passed"
