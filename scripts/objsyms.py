# SPDX-License-Identifier: MIT
"""The global symbols of an object file, as nm prints them: what the checks
of calls between files (check-calls.py) and between layers (check-layers.py)
are built from."""
import subprocess


def nm(obj):
    """(defined, undefined) global symbols of an object."""
    out = subprocess.run(["nm", "-P", obj], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        if f[1] in ("U", "w", "v"):
            undefined.add(f[0])
        elif f[1].isupper():
            defined.add(f[0])
    return defined, undefined
