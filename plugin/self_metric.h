/* SPDX-License-Identifier: MIT */
/*
 * One self-metric value list, as both plugins publish their counters:
 * plugin/plugin_instance/type/type_instance, one value, collectd's own host,
 * time and interval (VALUE_LIST_INIT leaves them to the daemon).
 */
#ifndef ZVM_SELF_METRIC_H
#define ZVM_SELF_METRIC_H

#include <stdio.h>

static inline void self_metric(const char *plugin, const char *pinst, const char *type,
                               const char *tinst, value_t v)
{
        value_list_t vl = VALUE_LIST_INIT;
        vl.values = &v;
        vl.values_len = 1;
        snprintf(vl.plugin, sizeof(vl.plugin), "%s", plugin);
        snprintf(vl.plugin_instance, sizeof(vl.plugin_instance), "%s", pinst);
        snprintf(vl.type, sizeof(vl.type), "%s", type);
        snprintf(vl.type_instance, sizeof(vl.type_instance), "%s", tinst);
        plugin_dispatch_values(&vl);
}

#endif
