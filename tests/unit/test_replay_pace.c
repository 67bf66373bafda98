/* SPDX-License-Identifier: MIT */
/*
 * A replay's pace (zvm_pace.c) against cd_stubs.h's model of collectd's
 * write threads and value cache: the replay stays within ReplayQueue value
 * lists of the writers, however slow they are, and gets every value through;
 * a marker dropped by collectd is sent again; a marker kept out of the cache
 * turns pacing off instead of holding the replay for ever; the pace holds
 * within one record's values too, burst by burst.  The device's pace
 * (LiveQueue) waits no longer than its round's deadline and marks only when
 * the queue could be near its limit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cd_stubs.h"

#include "metric/met_module.h"
#include "vec.h"
#include "zvm.h"
#include "zvm_dispatch.h"

static const atomic_bool running = false;

/* zvm_pace.c's PROBE_S: a wait that ends sooner ended for another reason. */
#define PACE_PROBE_TEST_S 10.0

/* One chunk of a replay: n value lists handed over, as the dispatcher counts them. */
static void chunk(size_t n)
{
        value_t v = {.gauge = 1};
        value_list_t vl = VALUE_LIST_INIT;
        vl.values = &v;
        vl.values_len = 1;
        snprintf(vl.plugin, sizeof(vl.plugin), "cpu");
        snprintf(vl.type, sizeof(vl.type), "percent");
        for (size_t i = 0; i < n; i++)
                assert_int_equal(plugin_dispatch_values(&vl), 0);
        zvm_stats_add(&zvm_stats()->dispatched, n);
}

static void fresh(void)
{
        cd_reset();
        zvm_stats_reset();
        cd_count_only = true; /* the markers are kept in cd_marks */
}

/* The value lists still queued for the write threads, markers included. */
static size_t queued(void)
{
        return cd_ndispatched - (cd_written < cd_ndispatched ? cd_written : cd_ndispatched);
}

/*
 * 200 chunks of 300 value lists against writers that take 50 per look into
 * the cache: unpaced, all 60,000 would be queued at the end.  Paced at 1,000
 * the queue never holds more than the limit, the chunk that was on its way
 * and its marker; the writers take everything.
 */
static void replay_held_to_its_queue(void **state)
{
        (void)state;
        fresh();
        cd_written = 0;
        cd_write_step = 50;
        struct zvm_pace p;
        zvm_pace_init(&p, 1000);
        size_t most = 0;
        for (int i = 0; i < 200; i++) {
                chunk(300);
                zvm_pace_step(&p, &running);
                if (queued() > most)
                        most = queued();
        }
        assert_true(most <= 1000 + 300 + 2);
        assert_true(p.waits > 10);
        assert_false(p.off);
        assert_true(p.ahead_max > 1000 && p.ahead_max <= 1300);
        assert_int_equal(p.marks, cd_nmarks);
        /* each marker carries the count handed over before it */
        for (size_t i = 1; i < cd_nmarks; i++)
                assert_true(cd_marks[i].v.derive >= cd_marks[i - 1].v.derive);
        assert_int_equal(cd_marks[cd_nmarks - 1].v.derive, 200 * 300);
        assert_int_equal(zvm_stats()->dispatched, 60000);
}

/* ReplayQueue 0: no markers, no waits, everything queued at once. */
static void replay_unpaced_at_zero(void **state)
{
        (void)state;
        fresh();
        cd_written = 0;
        cd_write_step = 50;
        struct zvm_pace p;
        zvm_pace_init(&p, 0);
        for (int i = 0; i < 20; i++) {
                chunk(300);
                zvm_pace_step(&p, &running);
        }
        assert_int_equal(cd_nmarks, 0);
        assert_int_equal(p.waits, 0);
        assert_int_equal(queued(), 6000);
}

/* The marker is the self-metric the cache is asked for: collectd's host, zvm-replay. */
static void marker_names_what_the_cache_is_asked(void **state)
{
        (void)state;
        fresh();
        cd_count_only = false;
        struct zvm_pace p;
        zvm_pace_init(&p, 1000);
        zvm_stats_add(&zvm_stats()->dispatched, 7);
        zvm_pace_step(&p, &running);
        assert_int_equal(cd_nvl, 1);
        assert_string_equal(cd_vls[0].host, "collector");
        assert_string_equal(cd_vls[0].plugin, "zvm");
        assert_string_equal(cd_vls[0].pinst, "replay");
        assert_string_equal(cd_vls[0].type, "total_values");
        assert_string_equal(cd_vls[0].tinst, "dispatched");
        assert_int_equal(cd_vls[0].v[0].derive, 7);
        assert_string_equal(p.name, "collector/zvm-replay/total_values-dispatched");
}

/*
 * collectd dropped the marker a wait was for (WriteQueueLimitHigh): after a
 * second without progress a new one goes out and the wait ends.
 */
static void dropped_marker_sent_again(void **state)
{
        (void)state;
        fresh();
        cd_written = 0;
        cd_write_step = 100;
        struct zvm_pace p;
        zvm_pace_init(&p, 1000);
        chunk(100);
        zvm_pace_step(&p, &running); /* the first marker, which reaches the cache */
        chunk(2000);
        cd_drop_marks = 1;
        zvm_pace_step(&p, &running);
        assert_int_equal(p.waits, 1);
        assert_true(p.marks >= 3);
        assert_true(queued() <= 500 + 1);
        assert_false(p.off);
}

/*
 * A PreCacheChain keeps every marker out of the cache: after ten seconds
 * the replay goes on without pacing, and says so once.
 */
static void marker_never_cached_turns_pacing_off(void **state)
{
        (void)state;
        fresh();
        cd_cache_blind = true;
        struct zvm_pace p;
        zvm_pace_init(&p, 1000);
        chunk(5000);
        zvm_pace_step(&p, &running);
        assert_true(p.off);
        assert_non_null(strstr(cd_lastlog, "did not reach collectd's value cache"));
        int logs = cd_nlog;
        size_t marks = cd_nmarks;
        chunk(5000);
        zvm_pace_step(&p, &running);
        assert_int_equal(cd_nlog, logs);
        assert_int_equal(cd_nmarks, marks);
}

/* Shutdown ends a wait at once. */
static void shutdown_ends_a_wait(void **state)
{
        (void)state;
        fresh();
        cd_written = 0; /* writers that never move */
        struct zvm_pace p;
        zvm_pace_init(&p, 1000);
        chunk(100);
        zvm_pace_step(&p, &running);
        chunk(5000);
        static const atomic_bool stopping = true;
        zvm_pace_step(&p, &stopping);
        assert_int_equal(p.waits, 1);
        assert_false(p.off);
}

/*
 * The device's round: writers that stop hold a wait only until the round's
 * deadline; the round's later bursts then go out without waiting or
 * marking, and the next round waits again.  A pace whose marker never came
 * through waits for the probe instead (marker_never_cached_turns_pacing_off).
 */
static void live_round_ends_at_its_deadline(void **state)
{
        (void)state;
        fresh();
        cd_written = 0;
        cd_write_step = 200;
        struct zvm_pace p;
        zvm_pace_init(&p, 1000);
        zvm_pace_round(&p, 0);
        chunk(100);
        zvm_pace_step(&p, &running);
        chunk(100);
        zvm_pace_step(&p, &running); /* the first marker is seen in the cache */
        assert_true(p.probed);
        cd_write_step = 0; /* the writers stop */
        double t0 = zvm_monotonic();
        zvm_pace_round(&p, t0 + 0.2);
        chunk(5000);
        zvm_pace_step(&p, &running);
        double t1 = zvm_monotonic();
        assert_true(t1 >= t0 + 0.2);
        assert_true(t1 < t0 + PACE_PROBE_TEST_S); /* ended by the deadline, not the probe */
        assert_int_equal(p.waits, 1);
        assert_int_equal(p.cuts, 1);
        assert_true(p.cut);
        assert_false(p.off);
        size_t marks = cd_nmarks;
        chunk(5000);
        zvm_pace_step(&p, &running);
        assert_int_equal(p.waits, 1);
        assert_int_equal(cd_nmarks, marks);
        zvm_pace_round(&p, zvm_monotonic() + 0.1);
        zvm_pace_step(&p, &running);
        assert_int_equal(p.waits, 2);
        assert_int_equal(p.cuts, 2);
}

/*
 * A quiet pace (the device) sends no marker while even the last count seen
 * leaves it within half its limit: writers that keep up see one marker per
 * half limit of values, not one per burst.
 */
static void quiet_pace_marks_near_its_limit(void **state)
{
        (void)state;
        fresh();
        struct zvm_pace p;
        zvm_pace_init(&p, 1000);
        p.quiet = true;
        chunk(400);
        zvm_pace_step(&p, &running);
        assert_int_equal(cd_nmarks, 0);
        chunk(200); /* 600 handed over, none seen written: maybe past half the limit */
        zvm_pace_step(&p, &running);
        assert_int_equal(cd_nmarks, 1);
        for (int i = 0; i < 10; i++) { /* 1,000 more: seen written at 600, marked once more */
                chunk(100);
                zvm_pace_step(&p, &running);
        }
        assert_int_equal(cd_nmarks, 2);
        assert_int_equal(p.waits, 0);
        assert_int_equal(cd_marks[1].v.derive, 1200);
}

/* The replay's hook (zvm_dispatch_after_burst): the queue as the burst left it, then the pace. */
struct hook {
        struct zvm_pace p;
        size_t most;
};

static void step_after_burst(void *ctx)
{
        struct hook *h = ctx;
        if (queued() > h->most)
                h->most = queued();
        zvm_pace_step(&h->p, &running);
}

/* One system series' value, i milliseconds on: never dropped as the same time again. */
static struct zm_metric value_at(uint64_t i)
{
        struct zm_metric m;
        memset(&m, 0, sizeof(m));
        m.scope = ZM_SYSTEM;
        m.domain = 1;
        m.record = 4;
        m.tod = VEC_TOD_2026 + ((i * 1000) << 12);
        zm_metric_name(&m, "memory", "", "memory", "free");
        m.host = "";
        zm_metric_gauge(&m, 1);
        return m;
}

/*
 * One record can close an interval of hundreds of thousands of values (CP's
 * Interval End at 50,000 guests: 410,000).  Here one record's 60,000 values
 * go through the dispatcher with no data set's end among them, against
 * writers that take 50 per look into the cache.  Paced after every burst the
 * queue never holds more than ReplayQueue, one burst and its marker; paced
 * once after the record, as a replay was per chunk of the file, all 60,000
 * would have been queued.
 */
static void one_record_paced_burst_by_burst(void **state)
{
        (void)state;
        fresh();
        cd_written = 0;
        cd_write_step = 50;
        struct zvm_config c;
        zvm_config_defaults(&c);
        struct zvm_dispatch *d = zvm_dispatch_new(&c);
        assert_non_null(d);
        struct hook h = {.most = 0};
        zvm_pace_init(&h.p, 1000);
        zvm_dispatch_after_burst(d, step_after_burst, &h);
        for (uint64_t i = 0; i < 60000; i++) {
                struct zm_metric m = value_at(i);
                zvm_dispatch_metric(d, &m);
        }
        zvm_dispatch_flush(d); /* the data set's end */
        assert_int_equal(zvm_stats()->dispatched, 60000);
        assert_true(h.most > 1000);
        assert_true(h.most <= 1000 + STAGE_MAX + 1);
        assert_true(h.p.waits >= 10);
        assert_true(h.p.ahead_max <= 1000 + STAGE_MAX);
        /* the hook gone, a burst goes out without a step */
        zvm_dispatch_after_burst(d, NULL, NULL);
        size_t marks = cd_nmarks;
        struct zm_metric m = value_at(61000);
        zvm_dispatch_metric(d, &m);
        zvm_dispatch_flush(d);
        assert_int_equal(cd_nmarks, marks);
        zvm_dispatch_free(d);
        zvm_config_free(&c);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(replay_held_to_its_queue),
            cmocka_unit_test(replay_unpaced_at_zero),
            cmocka_unit_test(marker_names_what_the_cache_is_asked),
            cmocka_unit_test(dropped_marker_sent_again),
            cmocka_unit_test(marker_never_cached_turns_pacing_off),
            cmocka_unit_test(shutdown_ends_a_wait),
            cmocka_unit_test(one_record_paced_burst_by_burst),
            cmocka_unit_test(live_round_ends_at_its_deadline),
            cmocka_unit_test(quiet_pace_marks_near_its_limit),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
