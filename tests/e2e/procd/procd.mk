# make check-procd: mon_procd per-process records through the real collectd
# (tests/e2e/procd/run.sh): Process / ProcessMatch against zvmsim's truth,
# the series cap, refused options.  Paths spelled out (included early).
.PHONY: check-procd
check-procd: $(BUILD)/zvm.so $(BUILD)/zvmsim
	tests/e2e/procd/run.sh . $(BUILD)
CHECK_TARGETS += check-procd
