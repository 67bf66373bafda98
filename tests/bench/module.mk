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

$(BUILD)/bench/bench_decode: tests/bench/bench_decode.c $(DEC_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(YAJL_CFLAGS) -O2 -o $@ $< $(DEC_LIB) $(LDFLAGS_ALL) $(YAJL_LIBS) -lm

$(BENCH_DECODE_MW): $(BUILD)/zvmsim
	@mkdir -p $(@D)
	$(BUILD)/zvmsim monwrite -o $@ $(BENCH_DECODE_SIM)

.PHONY: bench-decode
bench-decode: $(BUILD)/bench/bench_decode $(BENCH_DECODE_MW)
	$(BUILD)/bench/bench_decode $(BENCH_DECODE_MW) 3

BENCH_TARGETS += bench-decode

# Not a benchmark: a digest of every metric and log line the engine makes of a
# file, so a round that makes the decode cheaper can show it changed nothing.
$(BUILD)/bench/bench_digest: tests/bench/bench_digest.c $(DEC_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -O2 -o $@ $< $(DEC_LIB) $(LDFLAGS_ALL)

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
