#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Copy a monitor file with every record header's TOD set to 0, as monwriter
output read back has it (the file holds no time; src_monwriter.c): what
`zvmmon top` shows for a table whose time is unknown.

usage: notime.py ZVMMON IN OUT
The records' offsets come from `zvmmon dump` (the 20-byte MRHDR: TOD at +8).
"""
import json, subprocess, sys

zvmmon, src, dst = sys.argv[1:4]
data = bytearray(open(src, "rb").read())
dump = subprocess.run([zvmmon, "dump", src], capture_output=True, text=True, check=True)
n = 0
for line in dump.stdout.splitlines():
    r = json.loads(line)
    if r.get("type") != "record" or "domain" not in r:
        continue
    off = r["offset"]
    data[off + 8:off + 16] = bytes(8)
    n += 1
open(dst, "wb").write(data)
print(f"notime.py: {n} record TODs set to 0")
