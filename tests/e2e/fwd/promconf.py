#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write the Prometheus configuration of the forwarding tests.

usage: promconf.py OUT TARGET EVERY [SHIPPED.yml]

OUT gets one job "collectd" scraping TARGET (host:port of write_prometheus)
every EVERY with honor_labels: collectd's own names and labels, against
which fwdtruth.py checks the ground truth.  With SHIPPED (the project's
contrib/prometheus/prometheus.yml) its jobs are added as they are, scraping
TARGET instead of their example targets, and its rule files (absolute paths,
next to SHIPPED) are loaded and evaluated every EVERY as well: the shipped
relabelling, recording rules and alerts on the same data.  The only changes
to the shipped file are the target and the intervals (and scrape_timeout,
which may not exceed the interval).
"""
import os
import sys

import yaml


def main(argv):
    if len(argv) not in (4, 5):
        sys.exit(__doc__)
    out, target, every = argv[1:4]
    conf = {"global": {"scrape_interval": every, "scrape_timeout": every,
                       "evaluation_interval": every},
            "scrape_configs": [{"job_name": "collectd", "honor_labels": True,
                                "static_configs": [{"targets": [target]}]}]}
    if len(argv) == 5:
        shipped = yaml.safe_load(open(argv[4]))
        here = os.path.dirname(os.path.abspath(argv[4]))
        conf["rule_files"] = [os.path.join(here, f) for f in shipped.get("rule_files", [])]
        for job in shipped["scrape_configs"]:
            job["static_configs"] = [{"targets": [target]}]
            conf["scrape_configs"].append(job)
    with open(out, "w") as f:
        yaml.safe_dump(conf, f, sort_keys=False)


if __name__ == "__main__":
    main(sys.argv)
