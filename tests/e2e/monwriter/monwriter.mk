# make check-monwriter: monwriter output in plain files (tests/e2e/monwriter/run.sh):
# a mon_fsstatd-like writer and write_zvm in collectd, read back by zvmmon and
# the zvm plugin; the driver's refusals counted.  Paths spelled out (included early).
.PHONY: check-monwriter
check-monwriter: $(BUILD)/zvm.so $(BUILD)/write_zvm.so $(BUILD)/zvmmon/zvmmon
	tests/e2e/monwriter/run.sh . $(BUILD)
CHECK_TARGETS += check-monwriter
