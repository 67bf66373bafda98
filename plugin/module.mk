# What both collectd plugins share: how they are built out of tree against
# Debian's collectd-dev (doc/facts/collectd.md 1: -DHAVE_CONFIG_H and
# -I/usr/include/collectd are both needed), the option tables
# (plugin_options.c, built into both), complaints (complaint.h) and
# self-metric value lists (self_metric.h).  Each plugin's own rules are in
# its folder: zvm/module.mk, write_zvm/module.mk.
# The decoder is linked in statically: a plugin needs nothing but collectd and libc.
COLLECTD_INC     ?= /usr/include/collectd
COLLECTD_PLUGDIR ?= $(PREFIX)/lib/collectd
# Debian's headers include "collectd/core/..."; a private include root with a
# `collectd` link lets cross compilers (which do not search /usr/include) find them.
CD_INCROOT       := $(BUILD)/cdinc
COLLECTD_CFLAGS  := -DHAVE_CONFIG_H -I$(CD_INCROOT) -I$(COLLECTD_INC) -Iplugin

$(CD_INCROOT)/collectd:
	@mkdir -p $(CD_INCROOT)
	ln -sfn $(COLLECTD_INC) $@

# Sources built into both plugins.
PLUGIN_SHARED_SRCS := plugin/plugin_options.c

$(BUILD)/plugin/plugin_%.o: plugin/plugin_%.c $(FLAGS_STAMP) | $(CD_INCROOT)/collectd
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(COLLECTD_CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

# The option table on a table of its own (tests/unit/test_plugin_options.c).
TEST_EXTRA_test_plugin_options := $(COLLECTD_CFLAGS) $(PLUGIN_SHARED_SRCS)
$(BUILD)/tests/test_plugin_options: $(PLUGIN_SHARED_SRCS) $(wildcard plugin/*.h) | $(CD_INCROOT)/collectd
