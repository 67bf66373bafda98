# The zvm collectd read plugin (README.md here); shared flags in plugin/module.mk.
ZVM_CFLAGS := $(COLLECTD_CFLAGS) -Iplugin/zvm

# The dispatcher (metric -> value list), in its order: plugin/zvm/zvm_dispatch.h.
ZVM_DISPATCH_SRCS := plugin/zvm/zvm_series_text.c plugin/zvm/zvm_host.c plugin/zvm/zvm_series.c \
                     plugin/zvm/zvm_dispatch.c
# The <Plugin zvm> block, read through the option tables both plugins share.
ZVM_CONFIG_SRCS := plugin/zvm/zvm_config.c $(PLUGIN_SHARED_SRCS)
ZVM_SRCS := plugin/zvm/zvm_plugin.c $(ZVM_CONFIG_SRCS) plugin/zvm/zvm_pipe.c plugin/zvm/zvm_reader.c plugin/zvm/zvm_replay.c plugin/zvm/zvm_pace.c \
            plugin/zvm/zvm_share.c \
            $(ZVM_DISPATCH_SRCS) plugin/zvm/zvm_stats.c
ZVM_OBJS := $(patsubst plugin/%.c,$(BUILD)/plugin/%.o,$(ZVM_SRCS))
ZVM_SO   := $(BUILD)/zvm.so

$(BUILD)/plugin/zvm/zvm_%.o: plugin/zvm/zvm_%.c $(FLAGS_STAMP) | $(CD_INCROOT)/collectd
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(ZVM_CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

# Only module_register is exported (collectd looks up nothing else).
$(ZVM_SO): $(ZVM_OBJS) $(DEC_LIB)
	$(CC) -shared -Wl,--exclude-libs,ALL -o $@ $(ZVM_OBJS) $(DEC_LIB) $(LDFLAGS_ALL) -lpthread
	@nm -D --defined-only $@ | grep -q ' module_register$$' || { echo "$@: module_register not exported"; exit 1; }
	@# A shared object links with undefined symbols (collectd's come from the daemon): none of ours may be.
	@! nm -D --undefined-only $@ | grep -E ' (zvm|zd|zm|zl|zh|zr|dsp|popt|wz|wzvm)_' || { echo "$@: project symbols left undefined (a source missing from the link?)"; exit 1; }

ALL_TARGETS += $(ZVM_SO)

.PHONY: install-plugin
install-plugin: $(ZVM_SO)
	install -d $(DESTDIR)$(COLLECTD_PLUGDIR) $(DESTDIR)$(PREFIX)/share/collectd-zvm
	install -m 0644 $(ZVM_SO) $(DESTDIR)$(COLLECTD_PLUGDIR)/zvm.so
	install -m 0644 types.db $(DESTDIR)$(PREFIX)/share/collectd-zvm/types.db
INSTALL_TARGETS += install-plugin

# Unit tests of the plugin: they compile plugin sources with collectd's headers and
# stub the daemon symbols themselves (tests/unit/cd_stubs.h).
TEST_PLUGIN_FLAGS := $(ZVM_CFLAGS)
# The device's reader paces its data sets (zvm_pace.c, LiveQueue) and shares them
# (zvm_share.c, ShareSocket).
ZVM_READER_SRCS := plugin/zvm/zvm_pipe.c plugin/zvm/zvm_reader.c plugin/zvm/zvm_pace.c \
	plugin/zvm/zvm_share.c
# test_plugin_dispatch fails an allocation on demand (--wrap=calloc): a series without memory.
TEST_EXTRA_test_plugin_dispatch := $(TEST_PLUGIN_FLAGS) $(ZVM_DISPATCH_SRCS) $(ZVM_CONFIG_SRCS) \
	plugin/zvm/zvm_stats.c $(ZVM_READER_SRCS) -Wl,--wrap=calloc
TEST_EXTRA_test_dispatch_series := $(TEST_PLUGIN_FLAGS) $(ZVM_DISPATCH_SRCS) $(ZVM_CONFIG_SRCS) \
	plugin/zvm/zvm_stats.c $(ZVM_READER_SRCS)
TEST_EXTRA_test_dispatch_forget := $(TEST_EXTRA_test_dispatch_series)
TEST_EXTRA_test_plugin_hosts := $(TEST_EXTRA_test_dispatch_series)
TEST_EXTRA_test_replay_pace := $(TEST_PLUGIN_FLAGS) $(ZVM_READER_SRCS) $(ZVM_DISPATCH_SRCS) \
	$(ZVM_CONFIG_SRCS) plugin/zvm/zvm_stats.c plugin/zvm/zvm_replay.c
# test_plugin_reader fails the growth of the reader's buffer on demand by wrapping the
# allocator at link time.
TEST_EXTRA_test_plugin_reader := $(TEST_EXTRA_test_replay_pace) -Wl,--wrap=realloc
# The watchdog: the test includes zvm_plugin.c itself, to reach its statics.
TEST_EXTRA_test_plugin_watchdog := $(TEST_PLUGIN_FLAGS) $(filter-out plugin/zvm/zvm_plugin.c,$(ZVM_SRCS))
# test_scale counts the pipeline's allocations by wrapping the allocator at link time.
TEST_EXTRA_test_scale := $(TEST_PLUGIN_FLAGS) $(ZVM_DISPATCH_SRCS) $(ZVM_CONFIG_SRCS) \
	plugin/zvm/zvm_stats.c $(ZVM_READER_SRCS) -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
# test_plugin_share includes zvm_share.c itself (its queues are looked at), and counts
# what a set costs with no reader by wrapping the allocator.
TEST_EXTRA_test_plugin_share := $(TEST_PLUGIN_FLAGS) $(ZVM_CONFIG_SRCS) plugin/zvm/zvm_stats.c \
	-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
# test_procd: the Process / ProcessMatch options next to the aggregation.
TEST_EXTRA_test_procd := $(TEST_PLUGIN_FLAGS) $(ZVM_CONFIG_SRCS)
$(BUILD)/tests/test_procd: $(ZVM_CONFIG_SRCS) $(wildcard plugin/*.h plugin/zvm/*.h) | $(CD_INCROOT)/collectd
$(BUILD)/tests/test_plugin_dispatch $(BUILD)/tests/test_dispatch_series $(BUILD)/tests/test_plugin_reader \
		$(BUILD)/tests/test_dispatch_forget $(BUILD)/tests/test_plugin_hosts \
		$(BUILD)/tests/test_replay_pace $(BUILD)/tests/test_plugin_watchdog \
		$(BUILD)/tests/test_scale $(BUILD)/tests/test_plugin_share: $(ZVM_SRCS) \
	$(wildcard plugin/*.h plugin/zvm/*.h) | $(CD_INCROOT)/collectd

# End-to-end tests in the real collectd daemon (tests/e2e/plugin/).
E2E_GEN := $(BUILD)/tests/e2e_gen
$(E2E_GEN): tests/e2e/plugin/gen.c $(wildcard tests/unit/vec*.h) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -Itests/unit -o $@ $<

.PHONY: check-plugin-e2e
check-plugin-e2e: $(ZVM_SO) $(E2E_GEN) $(BUILD)/zvmsim $(BUILD)/zvmmon/zvmmon
	tests/e2e/plugin/run.sh . $(BUILD)
CHECK_TARGETS += check-plugin-e2e

# make demo: the demo's packages first (not the checks' toolchain), then the demo.
.PHONY: demo-run
demo: deps-demo
	@$(MAKE) --no-print-directory demo-run
demo-run: $(ZVM_SO) $(E2E_GEN) $(BUILD)/zvmsim
	@plugin/demo.sh $(BUILD)

# Historic formats (VM/370 Monitor tape as an AWSTAPE image) through the real daemon.
.PHONY: check-hist-e2e
check-hist-e2e: $(ZVM_SO)
	tests/e2e/hist/run.sh . $(BUILD)
CHECK_TARGETS += check-hist-e2e
