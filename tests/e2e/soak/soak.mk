# The soak (issue 13): tests/e2e/soak/.  Included from tests/e2e/module.mk;
# paths spelt out as there.
#
#   make soak            10,000 live intervals with random faults (SOAK_SEED,
#                        printed), values against the truth, the blocks
#                        collectd holds (memory.py); then write_zvm's soak
#                        (wzvm.sh), WZVM_CYCLES=6 cycles of 1x, 10x, vanish,
#                        EPERM, ENOSPC (about 4 min)
#   make check-soak      the same over SOAK_INTERVALS=100 and two write_zvm
#                        cycles, and soak-valgrind over 50 intervals (part of
#                        make check)
# collectd runs with glibc's allocator as it comes; memcount.so, preloaded,
# counts the blocks it holds.  Both memory bounds fail on a leak of one block
# per data set (the reader's soak) or per value (write_zvm's), whatever its size.
.PHONY: soak check-soak soak-wzvm
# The soaks' memory probe, preloaded into collectd (tests/e2e/soak/memcount.c).
SOAK_MEMCOUNT := $(BUILD)/tests/soak/memcount.so
$(SOAK_MEMCOUNT): tests/e2e/soak/memcount.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -fPIC -shared -o $@ $< -lpthread

soak: $(BUILD)/zvm.so $(BUILD)/zvmsim $(BUILD)/write_zvm.so $(SOAK_MEMCOUNT)
	SOAK_INTERVALS=$${SOAK_INTERVALS:-10000} tests/e2e/soak/run.sh . $(BUILD)
	WZVM_CYCLES=$${WZVM_CYCLES:-6} tests/e2e/soak/wzvm.sh . $(BUILD)

# write_zvm's soak alone (WZVM_CYCLES, default 1: about 50 s).
soak-wzvm: $(BUILD)/zvmsim $(BUILD)/write_zvm.so $(SOAK_MEMCOUNT)
	tests/e2e/soak/wzvm.sh . $(BUILD)

check-soak: $(BUILD)/zvm.so $(BUILD)/zvmsim $(BUILD)/write_zvm.so $(SOAK_MEMCOUNT)
	SOAK_INTERVALS=100 tests/e2e/soak/run.sh . $(BUILD)
	WZVM_CYCLES=2 tests/e2e/soak/wzvm.sh . $(BUILD)
	SOAK_VG_INTERVALS=50 tests/e2e/soak/valgrind.sh . $(BUILD)
CHECK_TARGETS += check-soak

# valgrind memcheck over a MONWRITE replay in collectd: 1,000 intervals for
# make soak-valgrind, 50 in check-soak.
.PHONY: soak-valgrind
soak-valgrind: $(BUILD)/zvm.so $(BUILD)/zvmsim
	SOAK_VG_INTERVALS=$${SOAK_VG_INTERVALS:-1000} tests/e2e/soak/valgrind.sh . $(BUILD)
