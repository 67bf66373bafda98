/* SPDX-License-Identifier: MIT */
/*
 * A metric kept past its emit callback.  The engine's metrics refer to their
 * names, which live only until the callback returns; a test that looks at
 * the metrics afterwards keeps a copy of the names beside each one.
 */
#ifndef TEST_KEPT_METRIC_H
#define TEST_KEPT_METRIC_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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
        if (!dst->id && dst->key) /* the engine makes it only for the series cap */
                dst->id = zm_key_id(m);
        dst->host = kept_name(names->t[0], m->host);
        dst->plugin = kept_name(names->t[1], m->plugin);
        dst->plugin_instance = kept_name(names->t[2], m->plugin_instance);
        dst->type = kept_name(names->t[3], m->type);
        dst->type_instance = kept_name(names->t[4], m->type_instance);
}

/*
 * For every pair of m[0..n): one id exactly when the same source record,
 * guest and five names (the series).  keyed_only: pairs where both carry a
 * module's key (metrics without one get no id unless the series cap asks).
 */
static inline void assert_ids_follow_names(const struct zm_metric *m, size_t n, bool keyed_only)
{
        for (size_t i = 0; i < n; i++)
                for (size_t j = i + 1; j < n; j++) {
                        const struct zm_metric *a = &m[i], *b = &m[j];
                        if (keyed_only && (!a->key || !b->key))
                                continue;
                        bool same = a->domain == b->domain && a->record == b->record &&
                                    !strcmp(a->guest, b->guest) && !strcmp(a->plugin, b->plugin) &&
                                    !strcmp(a->plugin_instance, b->plugin_instance) &&
                                    !strcmp(a->type, b->type) &&
                                    !strcmp(a->type_instance, b->type_instance);
                        if (same != (a->id == b->id))
                                fail_msg("%s %s/%s/%s/%s (id %llx) and %s %s/%s/%s/%s (id %llx)",
                                         a->guest, a->plugin, a->plugin_instance, a->type,
                                         a->type_instance, (unsigned long long)a->id, b->guest,
                                         b->plugin, b->plugin_instance, b->type, b->type_instance,
                                         (unsigned long long)b->id);
                }
}

#endif
