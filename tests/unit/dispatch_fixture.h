/* SPDX-License-Identifier: MIT */
/*
 * What the dispatcher's tests share: a metric as a module emits it, a
 * test's clean start and one metric through the dispatcher.  Included after
 * cd_stubs.h, whose capture the tests read.
 */
#ifndef DISPATCH_FIXTURE_H
#define DISPATCH_FIXTURE_H

#include "cd_cfitem.h"
#include "metric/met_module.h"
#include "zvm.h"
#include "zvm_dispatch.h"

/* A metric as a module would emit it. */
static inline struct zm_metric metric(enum zm_scope scope, const char *guest, uint8_t dom,
                                      uint16_t rec, uint64_t tod, double v)
{
        struct zm_metric m;
        memset(&m, 0, sizeof(m));
        m.scope = scope;
        snprintf(m.guest, sizeof(m.guest), "%s", guest);
        m.domain = dom;
        m.record = rec;
        m.tod = tod;
        zm_metric_name(&m, "memory", "", "memory", "free");
        m.host = "";
        zm_metric_gauge(&m, v);
        return m;
}

/* A test's start: nothing dispatched or counted yet, the configuration's defaults. */
static inline void fresh(struct zvm_config *c)
{
        cd_reset();
        zvm_stats_reset();
        zvm_config_defaults(c);
}

/* One metric through the dispatcher and out of its stage, as a data set's end does. */
static inline void dispatch(struct zvm_dispatch *d, const struct zm_metric *m)
{
        zvm_dispatch_metric(d, m);
        zvm_dispatch_flush(d);
}

#endif
