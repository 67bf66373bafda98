# zvmmon: the decoder's command line (dump, stat, capture, layouts, top).
# CURSES=0 builds `zvmmon top` without its full screen (batch mode only): the
# s390x cross build, which has no s390x ncurses to link.
CURSES ?= 1
ifeq ($(CURSES),1)
ZVMMON_SRCS := $(filter-out zvmmon/top_noview.c,$(sort $(wildcard zvmmon/*.c)))
CURSES_LIBS := -lncurses
else
ZVMMON_SRCS := $(filter-out zvmmon/top_view.c,$(sort $(wildcard zvmmon/*.c)))
CURSES_LIBS :=
endif
ZVMMON_OBJS := $(patsubst zvmmon/%.c,$(BUILD)/zvmmon/%.o,$(ZVMMON_SRCS))
ZVMMON      := $(BUILD)/zvmmon/zvmmon

$(BUILD)/zvmmon/%.o: zvmmon/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(YAJL_CFLAGS) -Izvmmon -c -o $@ $<

$(ZVMMON): $(ZVMMON_OBJS) $(DEC_LIB)
	$(CC) -o $@ $(ZVMMON_OBJS) $(DEC_LIB) $(LDFLAGS_ALL) $(YAJL_LIBS) $(CURSES_LIBS)

ALL_TARGETS += $(ZVMMON)

.PHONY: install-zvmmon
install-zvmmon: $(ZVMMON)
	install -D -m 0755 $(ZVMMON) $(DESTDIR)$(PREFIX)/bin/zvmmon
	install -D -m 0644 man/zvmmon.1 $(DESTDIR)$(PREFIX)/share/man/man1/zvmmon.1
INSTALL_TARGETS += install-zvmmon

# End-to-end: zvmmon over captures built by a test-only generator.
ZVMMON_GEN := $(BUILD)/e2e/gen_d10
$(ZVMMON_GEN): tests/e2e/zvmmon/gen_d10.c $(wildcard tests/unit/*.h) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Itests/unit -o $@ $< $(LDFLAGS_ALL)

# zvmmon runs with ASan and UBSan here: no input may crash it or read out of bounds.
# Own build directories, so that make -j check does not build the same objects
# twice at once (check-unit uses build/asan, check-s390x build/s390x).
.PHONY: check-zvmmon run-zvmmon-e2e
check-zvmmon:
	@$(MAKE) --no-print-directory -j$(BUILD_JOBS) BUILD=build/zvmmon-asan SAN=1 run-zvmmon-e2e

run-zvmmon-e2e: $(ZVMMON) $(ZVMMON_GEN)
	tests/e2e/zvmmon/run.sh $(ZVMMON) $(ZVMMON_GEN) $(BUILD)/e2e/zvmmon
CHECK_TARGETS += check-zvmmon

# The same end-to-end run with zvmmon built for s390x, big-endian under qemu-user.
.PHONY: check-zvmmon-s390x
check-zvmmon-s390x:
	@command -v qemu-s390x >/dev/null || { echo "check-zvmmon-s390x: qemu-s390x missing (make deps)"; exit 1; }
	@$(MAKE) --no-print-directory -j$(BUILD_JOBS) BUILD=build/zvmmon-s390x CC=s390x-linux-gnu-gcc AR=s390x-linux-gnu-ar CURSES=0 \
		build/zvmmon-s390x/zvmmon/zvmmon
	@$(MAKE) --no-print-directory BUILD=build build/e2e/gen_d10
	@printf '#!/bin/sh\nexec qemu-s390x -L / %s "$$@"\n' "$(CURDIR)/build/zvmmon-s390x/zvmmon/zvmmon" \
		>build/zvmmon-s390x/zvmmon/zvmmon-qemu && chmod +x build/zvmmon-s390x/zvmmon/zvmmon-qemu
	tests/e2e/zvmmon/run.sh build/zvmmon-s390x/zvmmon/zvmmon-qemu build/e2e/gen_d10 build/zvmmon-s390x/e2e/zvmmon
CHECK_TARGETS += check-zvmmon-s390x

# zvmmon's emitters (emit.h: records and its own reports as JSON Lines or text),
# for the unit tests and fuzz targets that check what zvmmon dump prints.
ZVMMON_EMIT_SRCS := zvmmon/emit_core.c zvmmon/emit_json.c zvmmon/emit_text.c zvmmon/emit_wzvm.c
ZVMMON_EMIT_TESTS := test_emit test_wzvm_emit test_vm370_layouts
$(foreach t,$(ZVMMON_EMIT_TESTS),$(eval TEST_EXTRA_$(t) := -Izvmmon $(ZVMMON_EMIT_SRCS)))
$(patsubst %,$(BUILD)/tests/%,$(ZVMMON_EMIT_TESTS)): $(ZVMMON_EMIT_SRCS) zvmmon/emit.h
FUZZ_EXTRA_fuzz_d10 := -Izvmmon $(ZVMMON_EMIT_SRCS)
FUZZ_EXTRA_fuzz_wzvm := -Izvmmon $(ZVMMON_EMIT_SRCS)
build/fuzz/fuzz_d10 build/fuzz/fuzz_wzvm: $(ZVMMON_EMIT_SRCS) zvmmon/emit.h

# The capture loop is tested against a scripted device, and a ShareSocket's stream
# (tests/unit/test_zvmmon_capture.c).
TEST_EXTRA_test_zvmmon_capture := zvmmon/capture_loop.c zvmmon/capture_stream.c
$(BUILD)/tests/test_zvmmon_capture: zvmmon/capture_loop.c zvmmon/capture_stream.c zvmmon/capture.h

# top's model (its message queue, its pacing, its screens' tables) and its text,
# without input or screen.
TOP_UNIT_SRCS := zvmmon/top_model.c zvmmon/top_frames.c zvmmon/top_fmt.c zvmmon/top_batch.c \
	zvmmon/top_order.c zvmmon/top_cell.c zvmmon/top_tab.c zvmmon/top_defs.c $(ZVMMON_EMIT_SRCS)
TEST_EXTRA_test_zvmmon_top := $(TOP_UNIT_SRCS)
$(BUILD)/tests/test_zvmmon_top: $(TOP_UNIT_SRCS) zvmmon/top.h zvmmon/top_model.h

# zvmmon capture against zvmsim's FUSE monreader: EOVERFLOW, EFAULT, sever;
# zvmmon dump --reading over a file zvmsim wrote in the aligned reading;
# zvmmon dump of the records zvmsim writes from IBM's pages against its truth.
.PHONY: check-zvmmon-sim
check-zvmmon-sim: $(ZVMMON) $(SIM_BIN)
	tests/e2e/zvmmon/sim.sh $(ZVMMON) $(SIM_BIN) $(BUILD)/e2e/zvmmon-sim
	tests/e2e/zvmmon/reading.sh $(ZVMMON) $(SIM_BIN) $(BUILD)/e2e/zvmmon-reading
	tests/e2e/zvmmon/records.sh $(ZVMMON) $(SIM_BIN) $(BUILD)/e2e/zvmmon-records
CHECK_TARGETS += check-zvmmon-sim

# The layout reference, generated from the decoder's tables (not part of make check).
.PHONY: doc-layouts
doc-layouts: $(ZVMMON)
	$(ZVMMON) layouts --markdown >doc/layouts.md

# The CP record coverage: doc/records.md, generated from the record registry, the
# layout tables and the metric table; check-doc-records fails when they differ.
.PHONY: doc-records check-doc-records
doc-records: $(ZVMMON)
	$(ZVMMON) layouts --coverage --markdown >doc/records.md

check-doc-records: $(ZVMMON)
	@mkdir -p $(BUILD)
	@$(ZVMMON) layouts --coverage --markdown >$(BUILD)/records.gen.md
	@diff -u doc/records.md $(BUILD)/records.gen.md >$(BUILD)/records.diff || \
		{ head -40 $(BUILD)/records.diff; echo "check-doc-records: doc/records.md differs from the tables (make doc-records)"; exit 1; }
	@echo "check-doc-records: doc/records.md matches the registry and the layouts"
CHECK_TARGETS += check-doc-records

# The CP metric reference: doc/metrics-cp.md's tables, generated from the
# decoder's metric table; check-doc-metrics fails when they differ, or when a
# plugin's self-metrics table (doc/plugin.md, doc/write_zvm.md) and what the
# plugin reports differ.
.PHONY: doc-metrics check-doc-metrics
doc-metrics: $(ZVMMON)
	$(ZVMMON) metrics --markdown >$(BUILD)/metrics-cp.gen.md
	python3 scripts/doc-metrics.py $(BUILD)/metrics-cp.gen.md doc/metrics-cp.md

check-doc-metrics: $(ZVMMON)
	@$(ZVMMON) metrics --markdown >$(BUILD)/metrics-cp.gen.md
	@python3 scripts/doc-metrics.py --check $(BUILD)/metrics-cp.gen.md doc/metrics-cp.md
	@python3 scripts/check-self-metrics.py
CHECK_TARGETS += check-doc-metrics

include tests/e2e/top/top.mk
