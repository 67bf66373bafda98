# The soak (issue 13): tests/e2e/soak/.  Included from tests/e2e/module.mk;
# paths spelt out as there.
#
#   make soak            1,000 live intervals with random faults (SOAK_SEED,
#                        printed), values against the truth, collectd's VmRSS
#   make check-soak      the same over SOAK_INTERVALS=100, and soak-valgrind
#                        over 50 intervals (part of make check)
.PHONY: soak check-soak
soak: $(BUILD)/zvm.so $(BUILD)/zvmsim
	SOAK_INTERVALS=$${SOAK_INTERVALS:-1000} tests/e2e/soak/run.sh . $(BUILD)

check-soak: $(BUILD)/zvm.so $(BUILD)/zvmsim
	SOAK_INTERVALS=100 tests/e2e/soak/run.sh . $(BUILD)
	SOAK_VG_INTERVALS=50 tests/e2e/soak/valgrind.sh . $(BUILD)
CHECK_TARGETS += check-soak

# valgrind memcheck over a MONWRITE replay in collectd: 1,000 intervals for
# make soak-valgrind, 50 in check-soak.
.PHONY: soak-valgrind
soak-valgrind: $(BUILD)/zvm.so $(BUILD)/zvmsim
	SOAK_VG_INTERVALS=$${SOAK_VG_INTERVALS:-1000} tests/e2e/soak/valgrind.sh . $(BUILD)
