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

.PHONY: check-zvmmon
check-zvmmon: $(ZVMMON) $(ZVMMON_GEN)
	tests/e2e/zvmmon/run.sh $(ZVMMON) $(ZVMMON_GEN) $(BUILD)/e2e/zvmmon
CHECK_TARGETS += check-zvmmon
