# zvmmon: the decoder's command line (dump, stat, capture, layouts).
ZVMMON_SRCS := $(sort $(wildcard zvmmon/*.c))
ZVMMON_OBJS := $(patsubst zvmmon/%.c,$(BUILD)/zvmmon/%.o,$(ZVMMON_SRCS))
ZVMMON      := $(BUILD)/zvmmon/zvmmon

$(BUILD)/zvmmon/%.o: zvmmon/%.c $(wildcard zvmmon/*.h decoder/*.h decoder/*.def)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(YAJL_CFLAGS) -Izvmmon -c -o $@ $<

$(ZVMMON): $(ZVMMON_OBJS) $(DEC_LIB)
	$(CC) -o $@ $(ZVMMON_OBJS) $(DEC_LIB) $(LDFLAGS_ALL) $(YAJL_LIBS)

ALL_TARGETS += $(ZVMMON)

.PHONY: install-zvmmon
install-zvmmon: $(ZVMMON)
	install -D -m 0755 $(ZVMMON) $(DESTDIR)$(PREFIX)/bin/zvmmon
	install -D -m 0644 man/zvmmon.1 $(DESTDIR)$(PREFIX)/share/man/man1/zvmmon.1
INSTALL_TARGETS += install-zvmmon

# End-to-end: zvmmon over captures built by a test-only generator.
ZVMMON_GEN := $(BUILD)/e2e/gen_d10
$(ZVMMON_GEN): tests/e2e/zvmmon/gen_d10.c $(wildcard tests/unit/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Itests/unit -o $@ $< $(LDFLAGS_ALL)

# zvmmon runs with ASan and UBSan here: no input may crash it or read out of bounds.
.PHONY: check-zvmmon run-zvmmon-e2e
check-zvmmon:
	@$(MAKE) --no-print-directory BUILD=build/asan SAN=1 run-zvmmon-e2e

run-zvmmon-e2e: $(ZVMMON) $(ZVMMON_GEN)
	tests/e2e/zvmmon/run.sh $(ZVMMON) $(ZVMMON_GEN) $(BUILD)/e2e/zvmmon
CHECK_TARGETS += check-zvmmon

# The same end-to-end run with zvmmon built for s390x, big-endian under qemu-user.
.PHONY: check-zvmmon-s390x
check-zvmmon-s390x:
	@command -v qemu-s390x >/dev/null || { echo "check-zvmmon-s390x: qemu-s390x missing (make deps)"; exit 1; }
	@$(MAKE) --no-print-directory BUILD=build/s390x CC=s390x-linux-gnu-gcc AR=s390x-linux-gnu-ar \
		build/s390x/zvmmon/zvmmon
	@$(MAKE) --no-print-directory BUILD=build build/e2e/gen_d10
	@printf '#!/bin/sh\nexec qemu-s390x -L / %s "$$@"\n' "$(CURDIR)/build/s390x/zvmmon/zvmmon" \
		>build/s390x/zvmmon/zvmmon-qemu && chmod +x build/s390x/zvmmon/zvmmon-qemu
	tests/e2e/zvmmon/run.sh build/s390x/zvmmon/zvmmon-qemu build/e2e/gen_d10 build/s390x/e2e/zvmmon
CHECK_TARGETS += check-zvmmon-s390x
