#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Make a test configuration of a contrib/ example by exact replacements.

usage: instantiate.py EXAMPLE OUT OLD NEW [OLD NEW ...]

Every OLD must occur in the example: when an example changes, the test
fails here, by name, instead of running something else than the example.
"""
import sys


def main(a):
    if len(a) < 4 or len(a) % 2:
        sys.exit(__doc__)
    text = open(a[0]).read()
    for old, new in zip(a[2::2], a[3::2]):
        if old not in text:
            sys.exit("instantiate: %s no longer holds %r" % (a[0], old))
        text = text.replace(old, new)
    open(a[1], "w").write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
