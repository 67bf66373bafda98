# Forwarding and install tests (issue 7), included from contrib/module.mk.
#
#   check-fwd      collectd -> write_graphite -> carbon-cache (whisper) and
#                  collectd -> network -> influxd (InfluxQL), with private
#                  servers on free loopback ports; dashboards vs. emitted metrics
#   check-install  make install DESTDIR=tmp, then collectd loads the installed
#                  plugins from there
#   check-prometheus  collectd -> write_prometheus <- a private Prometheus
#                  server scraping it, in collectd's shape and with the
#                  shipped contrib/prometheus/ job, recording rules and
#                  alerts; PromQL answers vs. zvmsim's ground truth in both,
#                  the rules on data that break some alerts, the Prometheus
#                  dashboards' queries live (promtool's own checks of the
#                  same files: check-prometheus-rules, contrib/module.mk)
# Each test script runs from the top of the tree and cleans up after itself.
FWD_TESTS := tests/e2e/fwd/test_harness.sh tests/e2e/fwd/test_graphite.sh \
             tests/e2e/fwd/test_influxdb.sh tests/e2e/fwd/test_replay.sh \
             tests/e2e/fwd/test_dashboards.sh

.PHONY: check-fwd check-install check-prometheus
check-fwd: all
	@set -e; for t in $(FWD_TESTS); do echo "== $$t"; BUILD=$(BUILD) bash $$t; done

check-install: all
	@echo "== tests/e2e/fwd/test_install.sh"
	@BUILD=$(BUILD) MAKE="$(MAKE)" bash tests/e2e/fwd/test_install.sh

check-prometheus: all
	@echo "== tests/e2e/fwd/test_prometheus.sh"
	@BUILD=$(BUILD) bash tests/e2e/fwd/test_prometheus.sh

CHECK_TARGETS += check-fwd check-install check-prometheus
