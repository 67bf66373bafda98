# write_zvm: the collectd write plugin that emits LNXAPPL records through
# /dev/monwriter (doc/write_zvm.md).  Built like zvm.so (plugin/module.mk, zvm/module.mk):
# -DHAVE_CONFIG_H and -I/usr/include/collectd, the decoder linked in statically.
WZVM_PLUGDIR      ?= $(COLLECTD_PLUGDIR)
# collectd's headers through the one include root of plugin/module.mk.
WZVM_INCROOT      := $(CD_INCROOT)
WZVM_CFLAGS       := $(COLLECTD_CFLAGS) -Iplugin/write_zvm

WZVM_CORE_SRCS := plugin/write_zvm/write_zvm_queue.c plugin/write_zvm/write_zvm_dev.c plugin/write_zvm/write_zvm_filter.c
WZVM_SRCS      := plugin/write_zvm/write_zvm.c $(WZVM_CORE_SRCS) $(PLUGIN_SHARED_SRCS)
WZVM_OBJS      := $(patsubst plugin/%.c,$(BUILD)/plugin/%.o,$(WZVM_SRCS))
WZVM_SO        := $(BUILD)/write_zvm.so

$(BUILD)/plugin/write_zvm/%.o: plugin/write_zvm/%.c $(FLAGS_STAMP) | $(WZVM_INCROOT)/collectd
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(WZVM_CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

# Only module_register is exported.
$(WZVM_SO): $(WZVM_OBJS) $(DEC_LIB)
	$(CC) -shared -Wl,--exclude-libs,ALL -o $@ $(WZVM_OBJS) $(DEC_LIB) $(LDFLAGS_ALL) -lpthread -lm
	@nm -D --defined-only $@ | grep -q ' module_register$$' || { echo "$@: module_register not exported"; exit 1; }
	@! nm -D --undefined-only $@ | grep -E ' (zvm|zd|zm|zl|zh|zr|dsp|popt|wz|wzvm)_' || { echo "$@: project symbols left undefined (a source missing from the link?)"; exit 1; }

ALL_TARGETS += $(WZVM_SO)

.PHONY: install-write-zvm
install-write-zvm: $(WZVM_SO)
	install -d $(DESTDIR)$(WZVM_PLUGDIR)
	install -m 0644 $(WZVM_SO) $(DESTDIR)$(WZVM_PLUGDIR)/write_zvm.so
INSTALL_TARGETS += install-write-zvm

# Unit tests of the plugin core: no collectd type, but collectd's log and complaints,
# which the test stands in for.
TEST_EXTRA_test_wzvm_plugin := $(WZVM_CFLAGS) $(WZVM_CORE_SRCS)
$(BUILD)/tests/test_wzvm_plugin: $(WZVM_CORE_SRCS) $(wildcard plugin/*.h plugin/write_zvm/write_zvm*.h) | $(WZVM_INCROOT)/collectd

# End-to-end: the real collectd daemon writing through write_zvm, into a stand-in
# file and through zvmsim to a second collectd running the zvm plugin, plus
# zvmsim's EPERM and ENOSPC modes (tests/e2e/wzvm/run.sh).
.PHONY: check-wzvm-e2e
check-wzvm-e2e: $(WZVM_SO) $(BUILD)/zvm.so $(BUILD)/zvmsim
	tests/e2e/wzvm/run.sh $(BUILD) all
CHECK_TARGETS += check-wzvm-e2e

# The writer against zvmsim's monwriter as the driver behaves since mid-2026 (EINVAL
# for a buffer rewritten with another length).
TEST_EXTRA_test_wzvm_monwriter := $(WZVM_CFLAGS) $(WZVM_CORE_SRCS) zvmsim/sim_monwriter.c -Izvmsim
$(BUILD)/tests/test_wzvm_monwriter: $(WZVM_CORE_SRCS) zvmsim/sim_monwriter.c $(wildcard plugin/*.h plugin/write_zvm/write_zvm*.h zvmsim/sim_monwriter.h) | $(WZVM_INCROOT)/collectd

# The collectd glue, with stubs for the daemon's symbols (tests/unit/test_wzvm_glue.c
# includes plugin/write_zvm/write_zvm.c).
TEST_EXTRA_test_wzvm_glue := $(WZVM_CFLAGS) $(WZVM_CORE_SRCS) $(PLUGIN_SHARED_SRCS) -Wl,--wrap=calloc,--wrap=realloc
$(BUILD)/tests/test_wzvm_glue: $(WZVM_SRCS) $(wildcard plugin/*.h plugin/write_zvm/write_zvm*.h) | $(WZVM_INCROOT)/collectd

# write_zvm's heap stays flat over rounds of new identifiers, faults and expiry.
TEST_EXTRA_test_wzvm_heap := $(WZVM_CFLAGS) $(WZVM_CORE_SRCS) $(PLUGIN_SHARED_SRCS)
$(BUILD)/tests/test_wzvm_heap: $(WZVM_SRCS) $(wildcard plugin/*.h plugin/write_zvm/write_zvm*.h) | $(WZVM_INCROOT)/collectd
