# make bench-plugin: the zvm plugin in the real collectd daemon against a null
# read plugin that dispatches the very value lists zvm dispatched (README.md
# here).  Minutes long, so not part of make bench.  BENCH_SIZES="1000 5000"
# picks guest counts; BENCH_TIMEOUT caps each collectd run (seconds).
BENCHP_DIR  := $(BUILD)/bench-plugin
BENCHP_SINK := $(BENCHP_DIR)/bench_sink.so
BENCHP_REPL := $(BENCHP_DIR)/bench_replay.so
BENCHP_HDRS := tests/bench/plugin/bench_rec.h

# The flags of plugin/module.mk: out-of-tree collectd plugins, only
# module_register (and the sink's counter) exported.
$(BENCHP_DIR)/%.o: tests/bench/plugin/%.c $(BENCHP_HDRS) $(FLAGS_STAMP) | $(CD_INCROOT)/collectd
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(COLLECTD_CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

$(BENCHP_SINK): $(BENCHP_DIR)/bench_sink.o $(BENCHP_DIR)/bench_rec.o
	$(CC) -shared -o $@ $^ $(LDFLAGS_ALL) -lpthread

$(BENCHP_REPL): $(BENCHP_DIR)/bench_replay.o
	$(CC) -shared -o $@ $^ $(LDFLAGS_ALL) -lpthread -ldl

.PHONY: bench-plugin
bench-plugin: $(ZVM_SO) $(BUILD)/zvmsim $(BENCHP_SINK) $(BENCHP_REPL)
	python3 tests/bench/plugin/run.py --top . --build $(BUILD)

# make bench-live: the plugin on zvmsim's live monreader, once per LiveQueue
# setting (tests/bench/plugin/live.sh: BENCH_LIVE_GUESTS, BENCH_LIVE_QUEUES, ...).
.PHONY: bench-live
bench-live: $(ZVM_SO) $(BUILD)/zvmsim $(BENCHP_SINK)
	tests/bench/plugin/live.sh . $(BUILD)
