# make check-hostile: a hostile guest (EVIL01, tests/e2e/hostile/hostile.py) writes
# crafted records through zvmsim's monwriter while the zvm plugin reads zvmsim's
# monreader in the real collectd; check.py holds collectd's csv output, log and
# self-metrics against zvmsim's ground truth (tests/e2e/hostile/run.sh, about 20 s).
# Included from tests/e2e/module.mk; paths spelt out as there.
.PHONY: check-hostile
check-hostile: $(BUILD)/zvm.so $(BUILD)/zvmsim
	tests/e2e/hostile/run.sh . $(BUILD)
CHECK_TARGETS += check-hostile
