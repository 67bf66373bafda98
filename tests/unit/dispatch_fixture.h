/* SPDX-License-Identifier: MIT */
/*
 * What the dispatcher's tests share: a metric as a module emits it, a
 * test's clean start (alone or as a fixture with a dispatcher) and one
 * metric through the dispatcher.  Included after cd_stubs.h, whose capture
 * the tests read.
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

/*
 * A dispatcher test's fixture (cmocka_unit_test_setup_teardown), freed by the
 * teardown even after a failed assertion; the teardown also turns
 * cd_count_only off, which a counting test sets.  The dispatcher keeps a
 * pointer to the configuration and reads it as each metric comes, so a test
 * may still change the configuration after the setup.
 */
struct dispatch_fx {
        struct zvm_config c;
        struct zvm_dispatch *d;
        struct zm_engine *e; /* NULL with setup_dispatch */
};

static inline int teardown_dispatch(void **state)
{
        struct dispatch_fx *f = *state;
        cd_count_only = false; /* a counting test that failed half way set it */
        if (!f)
                return 0;
        zm_engine_free(f->e);
        zvm_dispatch_free(f->d);
        zvm_config_free(&f->c);
        free(f);
        *state = NULL;
        return 0;
}

/* fresh(), and a dispatcher without an engine: a guest's host claim holds from the start. */
static inline int setup_dispatch(void **state)
{
        struct dispatch_fx *f = calloc(1, sizeof(*f));
        *state = f;
        if (!f)
                return -1;
        fresh(&f->c);
        f->d = zvm_dispatch_new(&f->c);
        if (f->d)
                return 0;
        teardown_dispatch(state); /* cmocka tears down only what was set up */
        return -1;
}

/* The same with an engine of no modules, which the test drives: a system name, intervals. */
static inline int setup_dispatch_engine(void **state)
{
        if (setup_dispatch(state))
                return -1;
        struct dispatch_fx *f = *state;
        f->e = zm_engine_new(NULL, NULL, NULL, NULL);
        zvm_dispatch_set_engine(f->d, f->e);
        if (f->e)
                return 0;
        teardown_dispatch(state);
        return -1;
}

/* A test's entry in the cmocka table, with its fixture. */
#define DISPATCH_TEST(t) cmocka_unit_test_setup_teardown(t, setup_dispatch, teardown_dispatch)
#define DISPATCH_ENGINE_TEST(t)                                                                    \
        cmocka_unit_test_setup_teardown(t, setup_dispatch_engine, teardown_dispatch)

/* One metric through the dispatcher and out of its stage, as a data set's end does. */
static inline void dispatch(struct zvm_dispatch *d, const struct zm_metric *m)
{
        zvm_dispatch_metric(d, m);
        zvm_dispatch_flush(d);
}

#endif
