# End-to-end proofs that span components (tests/e2e/laws/, issue 9).
# Paths are spelled out: this file is included before zvmmon/ and zvmsim/
# define their variables, and prerequisites expand when read.
LAWS_SO     := $(BUILD)/zvm.so
LAWS_SIM    := $(BUILD)/zvmsim
LAWS_ZVMMON := $(BUILD)/zvmmon/zvmmon

# make check-laws: the laws in the real collectd daemon against zvmsim's FUSE
# monreader (kept, broken, UnverifiedFields auto/false/true), then zvmmon stat
# over a simulated hour.
.PHONY: check-laws
check-laws: $(LAWS_SO) $(LAWS_SIM) $(LAWS_ZVMMON)
	tests/e2e/laws/run.sh . $(BUILD)
	tests/e2e/laws/hour.sh $(LAWS_SIM) $(LAWS_ZVMMON) $(BUILD)/e2e/laws-hour
CHECK_TARGETS += check-laws
include tests/e2e/hostile/hostile.mk
include tests/e2e/deb/deb.mk
include tests/e2e/procd/procd.mk
include tests/e2e/monwriter/monwriter.mk
include tests/e2e/soak/soak.mk
include tests/e2e/multi/many.mk
include tests/e2e/s390x/s390x.mk
