# What both collectd plugins share: how they are built out of tree against
# Debian's collectd-dev (doc/facts/collectd.md 1: -DHAVE_CONFIG_H and
# -I/usr/include/collectd are both needed), and plugin/self_metric.h.  Each
# plugin's own rules are in its folder: zvm/module.mk, write_zvm/module.mk.
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

