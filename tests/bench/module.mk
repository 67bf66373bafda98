# Benchmarks: figures measured in one run, reported as ratios; never pass/fail on speed.
build/bench/bench_walk: tests/bench/bench_walk.c $(DEC_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -O2 -o $@ $< $(DEC_LIB) $(LDFLAGS_ALL)

.PHONY: bench-walk
bench-walk: build/bench/bench_walk
	build/bench/bench_walk 256

BENCH_TARGETS += bench-walk

# The shipped consumers (the walk alone, the plugin's path: walk + engine with
# the plugin's default options, and zvmmon dump's: walk + JSON to /dev/null)
# against memcpy of the same bytes.  The input is a zvmsim MONWRITE file with a
# mid-size system's mix (CP domains, kernel APPLDATA, mon_fsstatd, mon_procd),
# about 128 MB, made again whenever zvmsim changes.  $(BUILD)/zvmsim is spelled
# out: zvmsim/module.mk is read after this file.
BENCH_DECODE_MW   := $(BUILD)/bench/decode.monwrite
BENCH_DECODE_SIM  := --seed 1 --intervals 512 --cpus 8 --guests 200 --linux 40 --devices 200 \
                     --vnics 40 --fsstatd 10 --procd 10

# The dump mode links zvmmon's emitters, as zvmmon does (zvmmon/module.mk,
# read after this file: the list is spelt out for the prerequisites).
$(BUILD)/bench/bench_decode: tests/bench/bench_decode.c $(DEC_LIB) $(wildcard zvmmon/emit*.[ch])
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(YAJL_CFLAGS) -Izvmmon -O2 -o $@ $< $(ZVMMON_EMIT_SRCS) $(DEC_LIB) $(LDFLAGS_ALL) $(YAJL_LIBS) -lm

$(BENCH_DECODE_MW): $(BUILD)/zvmsim
	@mkdir -p $(@D)
	$(BUILD)/zvmsim monwrite -o $@ $(BENCH_DECODE_SIM)

.PHONY: bench-decode
bench-decode: $(BUILD)/bench/bench_decode $(BENCH_DECODE_MW)
	$(BUILD)/bench/bench_decode $(BENCH_DECODE_MW) 3

BENCH_TARGETS += bench-decode

# Not a benchmark: a digest of every metric and log line the engine makes of a
# file, so a round that makes the decode cheaper can show it changed nothing.
$(BUILD)/bench/bench_digest: tests/bench/bench_digest.c tests/digest/plugin_options.h $(DEC_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Itests/digest -O2 -o $@ $< $(DEC_LIB) $(LDFLAGS_ALL)

# make check-digest: bench_digest's line for the bundled sample and for a seeded
# 1,000-guest zvmsim file (also with processes selected, so mon_procd's tasks give
# metrics), with the zvm plugin's default engine options, against the lines
# committed in tests/digest/.  A change of behaviour fails it until
# make update-digest writes them anew, to be committed with the change.
# First, tests/digest/defaults.c: those options are the plugin's.
DIGEST_DIR       := $(BUILD)/digest
DIGEST_G1000_SIM := --seed 7 --intervals 5 --interval 60 --guests 1000 --linux 200 --devices 200 \
                    --vnics 50 --fsstatd 20 --procd 20
DIGEST_PROCS     := --process sshd --process java --process-match db2 ^db2 --process-match all .

$(DIGEST_DIR)/g1000.monwrite: $(BUILD)/zvmsim
	@mkdir -p $(@D)
	$(BUILD)/zvmsim monwrite -o $@ $(DIGEST_G1000_SIM)

$(DIGEST_DIR)/defaults: tests/digest/defaults.c tests/digest/plugin_options.h plugin/zvm/zvm_config.c \
		$(wildcard plugin/*.h plugin/zvm/*.h) $(DEC_LIB) | $(CD_INCROOT)/collectd
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(ZVM_CFLAGS) -Itests/unit -Itests/digest -o $@ $< plugin/zvm/zvm_config.c \
		$(DEC_LIB) $(LDFLAGS_ALL)

.PHONY: check-digest update-digest
check-digest: DIGEST_MODE := check
update-digest: DIGEST_MODE := update
check-digest update-digest: $(BUILD)/bench/bench_digest $(DIGEST_DIR)/g1000.monwrite $(DIGEST_DIR)/defaults
	@$(DIGEST_DIR)/defaults
	@rc=0; run() { tests/digest/digest.sh $(DIGEST_MODE) $(BUILD)/bench/bench_digest "$$@" || rc=1; }; \
	run sample tests/data/sample.monwrite "tests/data/sample.monwrite"; \
	run g1000 $(DIGEST_DIR)/g1000.monwrite "zvmsim monwrite $(DIGEST_G1000_SIM)"; \
	run g1000-procs $(DIGEST_DIR)/g1000.monwrite "zvmsim monwrite $(DIGEST_G1000_SIM)" $(DIGEST_PROCS); \
	exit $$rc

CHECK_TARGETS += check-digest

# write_zvm's write callback, built from the plugin's sources against stand-ins
# for collectd's symbols: how long it holds a write thread when the queue is
# full and the device blocks (a FIFO nobody reads).  Percentiles of 1,000,000
# calls; never pass/fail.
$(BUILD)/bench/bench_wzvm: tests/bench/bench_wzvm.c $(WZVM_SRCS) $(wildcard plugin/write_zvm/write_zvm*.h) \
		$(DEC_LIB) | $(WZVM_INCROOT)/collectd
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(WZVM_CFLAGS) -Itests/unit -o $@ $< $(WZVM_SRCS) $(DEC_LIB) $(LDFLAGS_ALL) -lpthread -lm

.PHONY: bench-wzvm
bench-wzvm: $(BUILD)/bench/bench_wzvm
	$(BUILD)/bench/bench_wzvm $(BUILD)/bench 1000000

BENCH_TARGETS += bench-wzvm

# The plugin in the real daemon against a null plugin (minutes; not in BENCH_TARGETS).
include tests/bench/plugin/plugin.mk
