/* SPDX-License-Identifier: MIT */
/*
 * A metric kept past its emit callback.  The engine's metrics refer to their
 * names, which live only until the callback returns; a test that looks at
 * the metrics afterwards keeps a copy of the names beside each one.
 */
#ifndef TEST_KEPT_METRIC_H
#define TEST_KEPT_METRIC_H

#include <stdio.h>

#include "metric/metric.h"

struct kept_names {
        char t[5][ZM_NAME_LEN];
};

static inline const char *kept_name(char *dst, const char *src)
{
        snprintf(dst, ZM_NAME_LEN, "%s", src);
        return dst;
}

static inline void keep_metric(struct zm_metric *dst, struct kept_names *names,
                               const struct zm_metric *m)
{
        *dst = *m;
        dst->host = kept_name(names->t[0], m->host);
        dst->plugin = kept_name(names->t[1], m->plugin);
        dst->plugin_instance = kept_name(names->t[2], m->plugin_instance);
        dst->type = kept_name(names->t[3], m->type);
        dst->type_instance = kept_name(names->t[4], m->type_instance);
}

#endif
