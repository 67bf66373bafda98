# make check-many-systems (issue 14, doc/many-systems.md): two simulated z/VM
# systems, each with its collector collectd (zvm plugin, live monreader)
# sending signed to one central collectd that writes to a private
# carbon-cache and influxd; a third sender with a wrong password is refused
# (tests/e2e/multi/test_many_systems.sh, about a minute).  Included from
# tests/e2e/module.mk; paths spelt out as there.
.PHONY: check-many-systems
check-many-systems: $(BUILD)/zvm.so $(BUILD)/zvmsim
	@echo "== tests/e2e/multi/test_many_systems.sh"
	@BUILD=$(BUILD) bash tests/e2e/multi/test_many_systems.sh
CHECK_TARGETS += check-many-systems
