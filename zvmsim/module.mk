# zvmsim: the simulated z/VM (FUSE monreader/monwriter, MONWRITE output, truth).
SIM_SRCS := $(sort $(wildcard zvmsim/*.c))
SIM_OBJS := $(patsubst zvmsim/%.c,$(BUILD)/obj/zvmsim/%.o,$(SIM_SRCS))
SIM_BIN  := $(BUILD)/zvmsim
# The pure logic, for unit tests (no FUSE, no main).
SIM_LIB_SRCS := $(filter-out zvmsim/main.c zvmsim/sim_fuse.c,$(SIM_SRCS))

$(BUILD)/obj/zvmsim/%.o: zvmsim/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(FUSE_CFLAGS) -Izvmsim -c -o $@ $<

$(SIM_BIN): $(SIM_OBJS) $(DEC_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $(SIM_OBJS) $(DEC_LIB) $(FUSE_LIBS) -lm

# WITH_SIM=0 leaves zvmsim out of all and install, for a build without
# libfuse3-dev (the Debian package's s390x cross build, debian/rules).
WITH_SIM ?= 1
ifeq ($(WITH_SIM),1)
ALL_TARGETS += $(SIM_BIN)
endif

TEST_EXTRA_test_sim_monwriter := $(SIM_LIB_SRCS) -Izvmsim
TEST_EXTRA_test_sim_monreader := $(SIM_LIB_SRCS) -Izvmsim
TEST_EXTRA_test_sim_frames := $(SIM_LIB_SRCS) -Izvmsim
TEST_EXTRA_test_sim_scale := $(SIM_LIB_SRCS) -Izvmsim
TEST_EXTRA_test_sim_procd := $(SIM_LIB_SRCS) -Izvmsim
TEST_EXTRA_test_sim_activity := $(SIM_LIB_SRCS) -Izvmsim
TEST_EXTRA_test_sim_conditions := $(SIM_LIB_SRCS) -Izvmsim
TEST_EXTRA_test_sim_pages := $(SIM_LIB_SRCS) -Izvmsim

# The zvm plugin's device reader against zvmsim's monreader, in one process (no FUSE).
TEST_EXTRA_test_sim_plugin_reader = $(TEST_EXTRA_test_replay_pace) $(SIM_LIB_SRCS) -Izvmsim
$(BUILD)/tests/test_sim_plugin_reader: $(ZVM_SRCS) $(wildcard plugin/*.h plugin/zvm/*.h) | $(CD_INCROOT)/collectd

# End-to-end: the decoder against zvmsim (tests/e2e/sim).
SIM_LIB_OBJS := $(patsubst zvmsim/%.c,$(BUILD)/obj/zvmsim/%.o,$(SIM_LIB_SRCS))
SIM_E2E := $(BUILD)/tests/e2e/sim_walk $(BUILD)/tests/e2e/monreader_client $(BUILD)/tests/e2e/monwriter_client

$(BUILD)/tests/e2e/%: tests/e2e/sim/%.c $(SIM_LIB_OBJS) $(DEC_LIB) $(wildcard zvmsim/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Izvmsim -o $@ $< $(SIM_LIB_OBJS) $(DEC_LIB) $(LDFLAGS_ALL) -lm -lpthread

# Unit tests of the pure logic rebuild when zvmsim changes.
SIM_UNIT_BINS = $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_sim_*.c))
$(SIM_UNIT_BINS): $(SIM_LIB_SRCS) $(wildcard zvmsim/*.h)

# (The ASan zvmsim has its own build directory so that a parallel check-unit
# never compiles the same objects at the same time.)
# make check-sim: the command line, the FUSE devices through plain C clients, the decoder
# against an hour of a mid-size system, MONWRITE and capture round trips
# against the ground truth, determinism, and the bundled sample.
SIM_TMP  = $(BUILD)/sim-check
SIM_HOUR = --intervals 3600 --cpus 16 --guests 500 --linux 100 --devices 200
SIM_SAMPLE := tests/data/sample.monwrite
SIM_SAMPLE_OPTS := --seed 1 --interval 60 --intervals 30 --cpus 4 --guests 20 --linux 4 \
	--devices 10 --vnics 4 --lpars 2 --fsstatd 2 --procd 2 --ssi SSI1

.PHONY: check-sim sim-sample
check-sim: $(SIM_BIN) $(SIM_E2E)
	@mkdir -p $(SIM_TMP)
	@echo "== check-sim: the command line (--version, each command's --help, zvmsim(1))"
	@tests/e2e/sim/cli.sh $(SIM_BIN)
	@echo "== check-sim: monreader client (read sequences, errno, poll, faults)"
	@$(BUILD)/tests/e2e/monreader_client $(SIM_BIN)
	@echo "== check-sim: monwriter client (errno cases, buffers, domain 10 records)"
	@$(BUILD)/tests/e2e/monwriter_client $(SIM_BIN)
	@echo "== check-sim: both clients against an ASan+UBSan build of zvmsim"
	@$(MAKE) --no-print-directory -j$(BUILD_JOBS) BUILD=build/asan-sim SAN=1 build/asan-sim/zvmsim >/dev/null
	@$(BUILD)/tests/e2e/monreader_client build/asan-sim/zvmsim
	@$(BUILD)/tests/e2e/monwriter_client build/asan-sim/zvmsim
	@echo "== check-sim: decoder and metric laws, 3600 x 1 s intervals, 16 CPUs, 500 guests, 100 Linux, 200 devices"
	@$(BUILD)/tests/e2e/sim_walk gen $(SIM_HOUR) --laws all
	@echo "== check-sim: --break-law breaks exactly that law"
	@for l in $$($(BUILD)/tests/e2e/sim_walk laws); do $(BUILD)/tests/e2e/sim_walk gen --intervals 8 --laws $$l | \
		grep -q "(broken on purpose): ok" || { echo "FAIL: --break-law $$l"; exit 1; }; done
	@for l in $$($(BUILD)/tests/e2e/sim_walk breaks); do $(BUILD)/tests/e2e/sim_walk gen --intervals 8 --laws $$l | \
		grep -q "(broken on purpose): ok" || { echo "FAIL: --break-law $$l"; exit 1; }; done
	@echo "laws broken one at a time: ok"
	@echo "== check-sim: SYTPRP and MTRSYS in the aligned reading: the engine finds it, every law holds"
	@$(BUILD)/tests/e2e/sim_walk gen --intervals 8 --reading aligned --laws all | grep -q "found aligned: ok" || \
		{ echo "FAIL: --reading aligned"; exit 1; }
	@echo "== check-sim: MONWRITE round trip with several MCEs per set and a wrapping DCSS"
	@$(BUILD)/tests/e2e/sim_walk gen --intervals 120 --frames-per-mce 3 --dcss-pages 256 \
		--guests 200 --linux 20 --monwrite $(SIM_TMP)/walk.mw
	@echo "== check-sim: zvmsim monwrite / capture against their truth files"
	@$(SIM_BIN) monwrite -o $(SIM_TMP)/cli.mw --truth $(SIM_TMP)/cli.jsonl --intervals 40 --seed 7 --linux 10 --fsstatd 5 --procd 5 2>/dev/null
	@$(BUILD)/tests/e2e/sim_walk file $(SIM_TMP)/cli.mw $(SIM_TMP)/cli.jsonl
	@$(SIM_BIN) monwrite --capture -o $(SIM_TMP)/cli.cap --truth $(SIM_TMP)/cap.jsonl --intervals 40 --seed 7 --linux 10 --fsstatd 5 --procd 5 2>/dev/null
	@$(BUILD)/tests/e2e/sim_walk file $(SIM_TMP)/cli.cap $(SIM_TMP)/cap.jsonl
	@cmp -s $(SIM_TMP)/cli.jsonl $(SIM_TMP)/cap.jsonl || { echo "FAIL: same seed, different truth"; exit 1; }
	@$(SIM_BIN) monwrite -o $(SIM_TMP)/again.mw --intervals 40 --seed 7 --linux 10 --fsstatd 5 --procd 5 2>/dev/null
	@cmp -s $(SIM_TMP)/cli.mw $(SIM_TMP)/again.mw || { echo "FAIL: same seed, different MONWRITE file"; exit 1; }
	@echo "determinism: same seed, same bytes: ok"
	@echo "== check-sim: bundled sample $(SIM_SAMPLE)"
	@test -f $(SIM_SAMPLE) || { echo "FAIL: $(SIM_SAMPLE) missing (make sim-sample)"; exit 1; }
	@$(BUILD)/tests/e2e/sim_walk file $(SIM_SAMPLE)
	@rm -rf $(SIM_TMP)
	@echo "check-sim: all passed"

# make check-sim-scale: 50,000 guests (tests/e2e/sim/scale.sh): generated in
# seconds, every record and every law kept when read from the file, each law
# broken on purpose at that size, a DCSS pinned too small reported.
.PHONY: check-sim-scale
check-sim-scale: $(SIM_BIN) $(BUILD)/tests/e2e/sim_walk $(BUILD)/zvmmon/zvmmon
	@tests/e2e/sim/scale.sh $(SIM_BIN) $(BUILD)/tests/e2e/sim_walk $(BUILD)/zvmmon/zvmmon $(BUILD)/sim-scale
CHECK_TARGETS += check-sim-scale

# Regenerate the bundled sample (commit the result).
sim-sample: $(SIM_BIN)
	@mkdir -p $(dir $(SIM_SAMPLE))
	$(SIM_BIN) monwrite -o $(SIM_SAMPLE) $(SIM_SAMPLE_OPTS)
	@ls -l $(SIM_SAMPLE)

CHECK_TARGETS += check-sim

.PHONY: install-zvmsim
install-zvmsim: $(SIM_BIN)
	install -D -m 0755 $(SIM_BIN) $(DESTDIR)$(PREFIX)/bin/zvmsim
	install -D -m 0644 man/zvmsim.1 $(DESTDIR)$(PREFIX)/share/man/man1/zvmsim.1
ifeq ($(WITH_SIM),1)
INSTALL_TARGETS += install-zvmsim
endif
