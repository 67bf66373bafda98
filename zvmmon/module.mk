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
