#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare what collectd A had (its csv output) with what arrived.

  compare.py records STREAM A_CSV HOST   the buffers write_zvm left in a fake monwriter
  compare.py csv A_CSV B_CSV HOST FROM TO every value A wrote between FROM and TO (unix s)
                                          is in B's csv under the same identifier
"""
import glob
import os
import sys

import wzvm_stream


def ident_path(e):
    p = e["plugin"] + ("-" + e["plugin_instance"] if e["plugin_instance"] else "")
    t = e["type"] + ("-" + e["type_instance"] if e["type_instance"] else "")
    return p + "/" + t


def read_csv_dir(root, host):
    """{identifier: [(time, {ds: text})]} from collectd's csv plugin (files TYPE-DATE)."""
    out = {}
    for f in glob.glob(os.path.join(root, host, "*", "*")):
        ident = os.path.relpath(f, os.path.join(root, host))[:-len("-YYYY-MM-DD")]
        rows = []
        with open(f) as fh:
            head = fh.readline().strip().split(",")
            for line in fh:
                cols = line.strip().split(",")
                if len(cols) != len(head):
                    continue
                rows.append((float(cols[0]), dict(zip(head[1:], cols[1:]))))
        out.setdefault(ident, []).extend(rows)
    return out


def same(a, b):
    """csv prints GAUGE with %lf and DERIVE as an integer: compare as text, then as numbers."""
    if a == b:
        return True
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    return abs(x - y) <= 1e-6 * max(1.0, abs(x))


def check_records(stream, a_csv, host):
    bufs, ops = wzvm_stream.parse_stream(open(stream, "rb").read())
    a = read_csv_dir(a_csv, host)
    seen, bad, n = set(), 0, 0
    for key in sorted(bufs):
        r = wzvm_stream.decode_record(bufs[key])
        assert r["sync1"] == r["sync2"], "sync counters differ in a finished record"
        assert r["host"] == host, r["host"]
        for e in r["entries"]:
            n += 1
            ident = ident_path(e)
            seen.add(ident)
            val = repr(e["value"]) if e["ds_type"] == 1 else str(e["value"])
            rows = [v for t, v in a.get(ident, []) if abs(t - e["time"]) < 0.0015]
            if not rows or not same(rows[0].get(e["ds_name"], "?"), val):
                bad += 1
                print("MISMATCH %s %s at %.3f: record %s, csv %s" % (ident, e["ds_name"], e["time"], val,
                                                                   rows[0] if rows else "no row"))
    newest = max(t for rows in a.values() for t, _ in rows)
    missing = [i for i, rows in a.items() if max(t for t, _ in rows) > newest - 2 and i not in seen
               and not i.startswith("write_zvm/")]
    print("records: %d buffers, %d entries, %d identifiers, ops %s, %d mismatches, %d missing"
          % (len(bufs), n, len(seen), ops, bad, len(missing)))
    for i in missing:
        print("MISSING", i)
    return bad == 0 and not missing and n > 0


def check_csv(a_csv, b_csv, host, t0, t1):
    a, b = read_csv_dir(a_csv, host), read_csv_dir(b_csv, host)
    total, bad, exact_time = 0, 0, 0
    for ident, rows in sorted(a.items()):
        for t, vals in rows:
            if not t0 <= t <= t1:
                continue
            total += 1
            brows = b.get(ident, [])
            # both files come from the same csv plugin: the same value prints the same text
            match = [bt for bt, bv in brows if all(v == bv.get(ds) for ds, v in vals.items())]
            if not match:
                bad += 1
                if bad <= 20:
                    print("NOT IN B: %s at %.3f %s" % (ident, t, vals))
            elif any(abs(bt - t) < 0.0015 for bt in match):
                exact_time += 1
    print("csv: %d values of A between %.0f and %.0f, %d not in B, %d with the same time"
          % (total, t0, t1, bad, exact_time))
    return total > 0 and bad == 0


if __name__ == "__main__":
    if sys.argv[1] == "records":
        ok = check_records(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        ok = check_csv(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]), float(sys.argv[6]))
    sys.exit(0 if ok else 1)
