# make check-s390x-daemon: Debian's s390x collectd (collectd-core:s390x, unpacked
# by make deps into S390X_CD_ROOT) under qemu-user with the s390x-built zvm.so and
# write_zvm.so, against zvmsim running natively: live values against the ground
# truth, the write_zvm round trip s390x to s390x, and a MONWRITE replay giving
# the same values as on x86-64 (tests/e2e/s390x/run.sh, about a minute and a half).
# Included from tests/e2e/module.mk; paths spelt out as there.
S390X_CD_ROOT ?= /opt/collectd-s390x
# Its own build directory: check-s390x (unit tests) may build build/s390x at the same time.
S390X_CD_BUILD := build/s390x-daemon

.PHONY: check-s390x-daemon
check-s390x-daemon: $(BUILD)/zvm.so $(BUILD)/zvmsim
	@command -v s390x-linux-gnu-gcc >/dev/null || { echo "check-s390x-daemon: s390x-linux-gnu-gcc missing (make deps)"; exit 1; }
	@command -v qemu-s390x >/dev/null || { echo "check-s390x-daemon: qemu-s390x missing (make deps installs qemu-user)"; exit 1; }
	@[ -x $(S390X_CD_ROOT)/usr/sbin/collectd ] || { echo "check-s390x-daemon: $(S390X_CD_ROOT)/usr/sbin/collectd missing (make deps unpacks collectd-core:s390x there)"; exit 1; }
	@$(MAKE) --no-print-directory -j$(BUILD_JOBS) BUILD=$(S390X_CD_BUILD) CC=s390x-linux-gnu-gcc AR=s390x-linux-gnu-ar \
		$(S390X_CD_BUILD)/zvm.so $(S390X_CD_BUILD)/write_zvm.so
	tests/e2e/s390x/run.sh . $(BUILD) $(S390X_CD_BUILD) $(S390X_CD_ROOT)
CHECK_TARGETS += check-s390x-daemon
