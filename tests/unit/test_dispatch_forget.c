/* SPDX-License-Identifier: MIT */
/*
 * The dispatcher forgets series idle for more than SeriesIdleTimeout
 * intervals (dsp_forget_idle, zvm_series.c), as collectd's cache does
 * after its Timeout: guests whose identifiers churn, and guests and
 * devices that come and go, leave no tables behind that grow for as long
 * as collectd runs.  What is kept stays whole: names, hosts, order and
 * each identifier's newest time.
 */
#include "vec_appl.h"

#include "cd_stubs.h"

#include "dispatch_fixture.h"

#define STEP ((uint64_t)4096 * 1000000) /* a second of TOD */

/* Series "s<k>" of guest G<k % 10> (CP's data about it when k is odd) at second t. */
static void value(struct zvm_dispatch *d, int k, int t)
{
        char guest[9], ti[16];
        snprintf(guest, sizeof(guest), "G%d", k % 10);
        snprintf(ti, sizeof(ti), "s%d", k);
        struct zm_metric m = metric(k % 2 ? ZM_SYSTEM : ZM_GUEST, guest, 10, 2,
                                    VEC_TOD_2026 + (uint64_t)t * STEP, k);
        m.type_instance = ti;
        zvm_dispatch_metric(d, &m);
}

/* Series first..last-1 at second t, then the interval's end (engine and dispatcher). */
static void interval(struct dispatch_fx *f, int first, int last, int t)
{
        for (int k = first; k < last; k++)
                value(f->d, k, t);
        struct zd_record end;
        memset(&end, 0, sizeof(end));
        end.domain = 1;
        end.number = 11;
        zm_engine_interval_end(f->e, &end);
        zvm_dispatch_interval_end(f->d);
        zvm_dispatch_flush(f->d);
}

static const struct cd_vl *last_of(int k)
{
        char ti[16];
        snprintf(ti, sizeof(ti), "s%d", k);
        for (size_t i = cd_nvl; i-- > 0;)
                if (strcmp(cd_vls[i].tinst, ti) == 0)
                        return &cd_vls[i];
        return NULL;
}

/*
 * SeriesIdleTimeout 2: series 100..199 come in interval 0 only, 0..99 in
 * every interval.  At the end of interval 2 the idle ones have had no value
 * in two intervals: gone, with their identifiers; the others are found
 * again as they were.  When the forgotten ones come back they are new
 * series, and a value older than their last one goes out (collectd's cache
 * has forgotten it too).
 */
static void idle_series_forgotten(void **state)
{
        struct dispatch_fx *f = *state;
        f->c.engine.series_idle = 2;
        interval(f, 0, 200, 10);
        assert_int_equal(f->d->ns, 200);
        interval(f, 0, 100, 11);
        assert_int_equal(f->d->ns, 200); /* idle for one interval */
        interval(f, 0, 100, 12);
        assert_int_equal(f->d->ns, 100); /* for two */
        assert_int_equal(f->d->nid, 100);
        size_t n = cd_nvl;
        interval(f, 0, 100, 14); /* the kept ones: found again, nothing made */
        assert_int_equal(f->d->ns, 100);
        assert_int_equal(cd_nvl, n + 100);
        const struct cd_vl *v = last_of(42);
        assert_non_null(v);
        assert_string_equal(v->host, "g2");
        assert_true(v->v[0].gauge == 42);
        interval(f, 0, 1, 14); /* their newest time is still known */
        assert_int_equal(zvm_stats()->duplicates, 1);
        n = cd_nvl;
        value(f->d, 150, 5); /* older than its forgotten last value: new again, sent */
        value(f->d, 151, 5);
        zvm_dispatch_flush(f->d);
        assert_int_equal(cd_nvl, n + 2);
        assert_int_equal(f->d->ns, 102);
        v = last_of(151);
        assert_string_equal(v->host, ""); /* CP's data: the system's host (none known yet) */
        assert_string_equal(last_of(150)->host, "g0");
}

/*
 * An identifier two guests' series share (GuestHost naming them alike)
 * outlives the one forgotten, with its newest time, while the other uses it.
 */
static void shared_identifier_outlives_one_series(void **state)
{
        struct dispatch_fx *f = *state;
        f->c.engine.series_idle = 1;
        oconfig_item_t ci = item("GuestHost", 2, "G0", "shared");
        assert_int_equal(zvm_config_item(&f->c, &ci), 0);
        ci = item("GuestHost", 2, "G1", "shared");
        assert_int_equal(zvm_config_item(&f->c, &ci), 0);
        struct zm_metric a = metric(ZM_GUEST, "G0", 10, 2, VEC_TOD_2026 + 20 * STEP, 1);
        struct zm_metric b = metric(ZM_GUEST, "G1", 10, 2, VEC_TOD_2026 + 20 * STEP, 2);
        zvm_dispatch_metric(f->d, &a); /* made first: the identifier's names are its */
        zvm_dispatch_metric(f->d, &b); /* same identifier and time: a duplicate */
        for (int t = 21; t <= 23; t++) {
                b.tod = VEC_TOD_2026 + (uint64_t)t * STEP;
                interval(f, 0, 0, t);
                zvm_dispatch_metric(f->d, &b);
        }
        interval(f, 0, 0, 24);
        assert_int_equal(f->d->ns, 1); /* G0's series is gone */
        assert_int_equal(f->d->nid, 1);
        size_t dup = zvm_stats()->duplicates;
        a.tod = VEC_TOD_2026 + 22 * STEP; /* G0 again, older than G1's last value there */
        dispatch(f->d, &a);
        assert_int_equal(zvm_stats()->duplicates, dup + 1);
        assert_int_equal(f->d->nid, 1);
        assert_string_equal(cd_vls[cd_nvl - 1].host, "shared");
}

/* SeriesIdleTimeout 0: nothing is ever forgotten. */
static void idle_zero_keeps_everything(void **state)
{
        struct dispatch_fx *f = *state;
        f->c.engine.series_idle = 0;
        interval(f, 0, 100, 1);
        for (int t = 2; t < 12; t++)
                interval(f, 0, 1, t);
        assert_int_equal(f->d->ns, 100);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            DISPATCH_ENGINE_TEST(idle_series_forgotten),
            DISPATCH_ENGINE_TEST(shared_identifier_outlives_one_series),
            DISPATCH_ENGINE_TEST(idle_zero_keeps_everything),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
