/* SPDX-License-Identifier: MIT */
/*
 * collectd 5.12's headers, as Debian's collectd-dev installs them (build with
 * -DHAVE_CONFIG_H -I/usr/include/collectd; see plugin/module.mk), and the
 * plugin functions that need collectd types.
 */
#ifndef ZVM_COLLECTD_H
#define ZVM_COLLECTD_H

#include <collectd/core/daemon/collectd.h>
#include <collectd/core/daemon/configfile.h>
#include <collectd/core/daemon/plugin.h>
#include <collectd/core/daemon/utils_complain.h>
#include <collectd/core/daemon/utils_time.h>
#include <collectd/liboconfig/oconfig.h>

struct zvm_config;
int zvm_config_item(struct zvm_config *c, const oconfig_item_t *ci);
int zvm_config_finish(struct zvm_config *c);

#endif
