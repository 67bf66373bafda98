/* SPDX-License-Identifier: MIT */
/*
 * Conservation laws: a hint field turns on after N intervals with its law
 * kept, stays off with the law broken (and the log says why), and turns
 * off again when a kept law breaks.  UnverifiedFields true/false override.
 */
#include "cp_feed.h"

#define T0   VEC_TOD_2026
#define PRB0 UINT64_C(0x7FFFFFFF00000000)

/*
 * One 60 s interval i of a two-CPU system with two guests.  Per CPU per
 * interval: user 20 s, system 3 s, emulation 16 s, wait 37 s (sums to 60 s).
 * Guests: LINUX01 (vCPU 0 and 1) and LINUX02 (vCPU 0) share the 40 s of user
 * time (20 + 10 + 10) and the 32 s of emulation (16 + 8 + 8), unless
 * guest_scale scales the guests' total time (breaking guest-cpu).
 */
static void interval(struct feed *f, unsigned i, double guest_scale)
{
        uint64_t tod = T0 + SEC(60) * i;
        for (unsigned c = 0; c < 2; c++)
                feed_sytprp(f, tod, c, PRB0 - US(16000000ull * i), US(20000000ull * i),
                            US(3000000ull * i), US(37000000ull * i));
        static const struct {
                const char *u;
                unsigned v;
                uint64_t tt, vt;
        } g[] = {{"LINUX01", 0, 20000000, 16000000},
                 {"LINUX01", 1, 10000000, 8000000},
                 {"LINUX02", 0, 10000000, 8000000}};
        for (size_t k = 0; k < 3; k++)
                feed_useact(f, tod, g[k].u, g[k].v, US((uint64_t)(g[k].tt * guest_scale) * i),
                            US(g[k].vt * i), 1000, 0, 0);
        feed_end(f, tod + SEC(1));
}

static void law_holds_turns_on_after_n(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 3);
        interval(f, 0, 1.0); /* first readings: no deltas */
        interval(f, 1, 1.0);
        interval(f, 2, 1.0);
        assert_null(feed_find(f, 0, "user-LINUX01", "percent", "cpu-total"));
        const struct zv_law_status *st = zm_law_status(f->e, "guest-cpu");
        assert_non_null(st);
        assert_int_equal(st->streak, 2);
        assert_false(st->on);
        uint64_t held_back = zm_engine_counters(f->e)->hint_suppressed;
        assert_true(held_back > 0);
        size_t mark = f->n;
        interval(f, 3, 1.0); /* third consecutive HOLD */
        assert_true(st->on);
        const struct zm_metric *m = feed_find(f, mark, "user-LINUX01", "percent", "cpu-total");
        assert_non_null(m);
        assert_string_equal(m->check, "guest-cpu");
        assert_true(m->gauge[0] > 24.99 && m->gauge[0] < 25.01); /* 30 s of 2 x 60 s */
        m = feed_find(f, mark, "user-LINUX02", "virt_cpu_total", "total");
        assert_non_null(m);
        assert_int_equal(m->derive[0], 30000000000ll); /* 3 intervals x 10 s, in ns */
        assert_true(feed_logged(f, "law guest-cpu held for 3 consecutive intervals"));
        assert_string_equal(st->reason,
                            "guests 40000000 us = users' CPU time 40000000 us on 2 CPUs");
        /* the other laws kept in this data turn on too */
        assert_true(zm_law_status(f->e, "guest-vcpu")->on);
        assert_true(zm_law_status(f->e, "cpu-wait")->on);
        assert_non_null(feed_find(f, mark, "cpu0", "percent", "wait"));
        /* a law with nothing to check never turns on */
        assert_false(zm_law_status(f->e, "vnic")->on);
        assert_int_equal(zm_law_status(f->e, "vnic")->held, 0);
        /* verdicts are published as self-metrics */
        m = feed_find(f, mark, "reader", "gauge", "law-guest-cpu");
        assert_non_null(m);
        assert_true(m->gauge[0] == 1.0);
        m = feed_find(f, mark, "reader", "gauge", "law-vnic");
        assert_true(m->gauge[0] == 0.0);
        feed_free(f);
}

static void law_broken_stays_off(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 3);
        for (unsigned i = 0; i < 8; i++)
                interval(f, i, 2.0); /* guests claim twice the users' CPU time */
        const struct zv_law_status *st = zm_law_status(f->e, "guest-cpu");
        assert_false(st->on);
        assert_int_equal(st->failed, 7);
        assert_null(feed_find(f, 0, "user-LINUX01", "percent", "cpu-total"));
        assert_null(feed_find(f, 0, "user-LINUX01", "virt_cpu_total", "total"));
        assert_true(feed_logged(f, "law guest-cpu broken"));
        assert_true(feed_logged(f, "sum of guest VMDTTIME deltas 80000000 us, but SYTPRP "
                                   "PFXUTIME says 40000000 us"));
        /* the last verdict's reason, logged or not, is the reader's */
        assert_string_equal(st->reason, "sum of guest VMDTTIME deltas 80000000 us, but SYTPRP "
                                        "PFXUTIME says 40000000 us");
        /* the law on virtual time still holds and its metric is published */
        assert_true(zm_law_status(f->e, "guest-vcpu")->on);
        assert_non_null(feed_find(f, 0, "user-LINUX01", "percent", "cpu-virtual"));
        feed_free(f);
}

static void law_breaks_after_holding(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 2);
        for (unsigned i = 0; i < 4; i++)
                interval(f, i, 1.0);
        assert_true(zm_law_status(f->e, "guest-cpu")->on);
        /* guests' cumulative time jumps by half again: the law breaks */
        size_t mark = f->n;
        interval(f, 4, 1.5);
        assert_false(zm_law_status(f->e, "guest-cpu")->on);
        assert_null(feed_find(f, mark, "user-LINUX01", "percent", "cpu-total"));
        assert_true(feed_logged(f, "law guest-cpu broken, USEACT_VMDTTIME held back again"));
        /* back to normal, the timers went backwards: a reset, nothing to check */
        interval(f, 5, 1.0);
        assert_int_equal(zm_law_status(f->e, "guest-cpu")->last, ZV_NODATA);
        assert_true(zm_engine_counters(f->e)->timer_resets >= 3);
        /* and the law needs its N intervals again */
        interval(f, 6, 1.0);
        assert_false(zm_law_status(f->e, "guest-cpu")->on);
        interval(f, 7, 1.0);
        assert_true(zm_law_status(f->e, "guest-cpu")->on);
        feed_free(f);
}

static void unverified_true_and_false(void **state)
{
        (void)state;
        struct feed *f = feed_new(1, 3);
        interval(f, 0, 2.0);
        interval(f, 1, 2.0);
        /* true: published at once, even with the law broken (and the verdict still logged) */
        assert_non_null(feed_find(f, 0, "user-LINUX01", "percent", "cpu-total"));
        assert_false(zm_law_status(f->e, "guest-cpu")->on);
        assert_true(feed_logged(f, "law guest-cpu broken"));
        feed_free(f);
        f = feed_new(0, 1);
        for (unsigned i = 0; i < 4; i++)
                interval(f, i, 1.0);
        /* false: never, even with the law kept */
        assert_true(zm_law_status(f->e, "guest-cpu")->on);
        assert_null(feed_find(f, 0, "user-LINUX01", "percent", "cpu-total"));
        assert_null(feed_find(f, 0, "cpu0", "percent", "wait"));
        assert_non_null(feed_find(f, 0, "cpu0", "percent", "busy")); /* verified: always */
        feed_free(f);
}

/* The law list is queryable by position and name, with words for the docs. */
static void law_table(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 3);
        size_t n = 0;
        const struct zv_law_status *st;
        for (; (st = zm_law_at(f->e, n)) != NULL; n++) {
                assert_non_null(st->rule);
                assert_non_null(st->fields);
                assert_ptr_equal(zm_law_status(f->e, st->name), st);
        }
        assert_int_equal(n, ZV_NLAWS);
        assert_null(zm_law_status(f->e, "no-such-law"));
        feed_free(f);
}

/*
 * A reason is the text snprintf makes of the verdict's format, cut at the
 * end of the reason's array.
 */
static void reason_as_printf_makes_it(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 3);
        struct zv_state *v = zv_new();
        char want[sizeof(zv_status(v, ZV_VNIC)->reason)];
        zv_verdict(v, f->e, ZV_VNIC, ZV_HOLD, "%zu NICs, %llu packets, %04X, %u%% %d %ld %lu %.0f",
                   (size_t)3, 18446744073709551615ull, 0xBEEFu, 7u, -5, -6l, 8ul, 2.5);
        snprintf(want, sizeof(want), "%zu NICs, %llu packets, %04X, %u%% %d %ld %lu %.0f",
                 (size_t)3, 18446744073709551615ull, 0xBEEFu, 7u, -5, -6l, 8ul, 2.5);
        assert_string_equal(zv_status(v, ZV_VNIC)->reason, want);
        /* longer than the array: cut inside a number, as vsnprintf cuts it */
        zv_verdict(v, f->e, ZV_VNIC, ZV_FAIL, "%.0f and %.0f", 1e150, 1e150);
        char whole[400];
        snprintf(whole, sizeof(whole), "%.0f and %.0f", 1e150, 1e150);
        assert_true(strlen(whole) > sizeof(want) - 1);
        memcpy(want, whole, sizeof(want) - 1);
        want[sizeof(want) - 1] = '\0';
        assert_string_equal(zv_status(v, ZV_VNIC)->reason, want);
        assert_true(feed_logged(f, want)); /* the log line has the same text */
        /* a string is not kept as a pointer: its text is made at once */
        char key[8] = "LINUX01";
        zv_verdict(v, f->e, ZV_GUEST_CPU, ZV_FAIL, "%s: %llu us", key, 5ull);
        key[0] = 'X';
        assert_string_equal(zv_status(v, ZV_GUEST_CPU)->reason, "LINUX01: 5 us");
        /* the reason read is the last verdict's */
        zv_verdict(v, f->e, ZV_GUEST_CPU, ZV_NODATA, "none");
        assert_string_equal(zv_status(v, ZV_GUEST_CPU)->reason, "none");
        zv_free(v);
        feed_free(f);
}

/* The counter a law publishes beside its gauge: its value in f's metrics from mark on. */
static int64_t failed_counter(const struct feed *f, size_t mark, const char *law)
{
        char ti[64];
        snprintf(ti, sizeof(ti), "law-%s-failed", law);
        const struct zm_metric *m = feed_find(f, mark, "reader", "total_events", ti);
        assert_non_null(m);
        assert_string_equal(m->plugin, "zvm");
        assert_int_equal(m->scope, ZM_SYSTEM);
        assert_int_equal(m->nvalues, 1);
        assert_int_equal(m->ds[0], ZM_DERIVE);
        return m->derive[0];
}

/*
 * Beside each gauge, every interval, a cumulative count of the intervals in
 * which the law was checked and broken: a law with no data (gauge 0 as
 * well) and a law that holds keep it at 0, so an alert can tell them from
 * the law that breaks.  The CP module's own verdicts: guest-cpu holds (1,
 * 2), breaks (3, 4: the guests claim more CPU time than the users had),
 * has no data (5: the guests' timers went back, a reset) and holds again.
 */
static void failed_counter_counts_broken_intervals_only(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 3);
        static const double scale[] = {1.0, 1.0, 1.0, 2.0, 2.0, 1.0, 1.0};
        static const int64_t want[] = {0, 0, 0, 1, 2, 2, 2};
        for (unsigned i = 0; i < 7; i++) {
                size_t mark = f->n;
                interval(f, i, scale[i]);
                assert_int_equal(failed_counter(f, mark, "guest-cpu"), want[i]);
                assert_int_equal(failed_counter(f, mark, "guest-vcpu"), 0); /* held */
                assert_int_equal(failed_counter(f, mark, "vnic"), 0);       /* no data */
                const struct zm_metric *g = feed_find(f, mark, "reader", "gauge", "law-vnic");
                assert_true(g && g->gauge[0] == 0.0); /* the gauge cannot tell vnic apart */
        }
        const struct zv_law_status *st = zm_law_status(f->e, "guest-cpu");
        assert_int_equal(st->failed, 2);
        assert_int_equal(st->held, 3);
        assert_int_equal(st->nodata, 2);
        assert_true(zm_law_status(f->e, "vnic")->nodata == 7);
        assert_true(zm_law_status(f->e, "guest-vcpu")->held >= 5);
        feed_free(f);
}

/* The same from verdicts given one by one: each law counts its own FAILs only. */
static void failed_counter_is_per_law(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 1);
        struct zv_state *v = zv_new();
        static const enum zv_verdict lpar[] = {ZV_HOLD, ZV_FAIL, ZV_NODATA,
                                               ZV_FAIL, ZV_HOLD, ZV_FAIL};
        static const int64_t want[] = {0, 1, 1, 2, 2, 3};
        for (size_t i = 0; i < sizeof(lpar) / sizeof(lpar[0]); i++) {
                zv_verdict(v, f->e, ZV_LPAR, lpar[i], "lpar %zu", i);
                zv_verdict(v, f->e, ZV_VNIC, ZV_NODATA, "no NICs");
                zv_verdict(v, f->e, ZV_PAGING, i % 2 ? ZV_NODATA : ZV_HOLD, "paging %zu", i);
                size_t mark = f->n;
                zv_emit(v, f->e, NULL);
                assert_int_equal(f->n - mark, 2 * ZV_NLAWS); /* a gauge and a counter per law */
                assert_int_equal(failed_counter(f, mark, "lpar"), want[i]);
                assert_int_equal(failed_counter(f, mark, "vnic"), 0);
                assert_int_equal(failed_counter(f, mark, "paging"), 0);
                assert_int_equal(failed_counter(f, mark, "device-time"), 0); /* never judged */
        }
        zv_free(v);
        feed_free(f);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(law_holds_turns_on_after_n),
            cmocka_unit_test(law_broken_stays_off),
            cmocka_unit_test(law_breaks_after_holding),
            cmocka_unit_test(unverified_true_and_false),
            cmocka_unit_test(law_table),
            cmocka_unit_test(reason_as_printf_makes_it),
            cmocka_unit_test(failed_counter_counts_broken_intervals_only),
            cmocka_unit_test(failed_counter_is_per_law),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
