/* SPDX-License-Identifier: MIT */
/*
 * The system's one-per-interval records (SYTUSR's virtual-MP transactions,
 * SYTSYG, SYTSXG, SYTASG, STORSG) and the SSI records (SSISCS, SSISMI) as
 * metrics: values over two intervals, a 32-bit counter that wraps, a mean
 * response time without transactions, records too short for their fields.
 * Every record is written here from the layouts' offsets (decoder/layout/cp/
 * lay_d0.c, lay_d3.c, lay_d11.c; doc/facts/cp-records.md 4, 5, 14).
 */
#include "cp_feed.h"

#include "layout/lay_file.h"

#define T0 VEC_TOD_2026

/*
 * D0R8 SYTUSR, 108 bytes (6.4): 20 SYSUSRS, 24 SRMCDORM, 28 CALMPTRV (8, TOD units),
 * 36 CALMPTCT, 40 CALMPNTR (8, TOD units), 48 CALMPNCT.  len: as written (a short
 * record is cut from the same bytes).
 */
static void feed_sytusr(struct feed *f, uint64_t tod, size_t len, uint64_t trv, uint32_t tct,
                        uint64_t ntr, uint32_t nct)
{
        memset(f->buf, 0, 108);
        vec_hdr(f->buf, (uint16_t)len, 0, 8, tod);
        be32(f->buf + 20, 42);
        be32(f->buf + 24, 3);
        be64(f->buf + 28, trv);
        be32(f->buf + 36, tct);
        be64(f->buf + 40, ntr);
        be32(f->buf + 48, nct);
        feed_rec(f, len);
}

/* D0R19 SYTSYG, 112 bytes (4.3+): 20 XCTMSACT (8), 28 FTRDONE. */
static void feed_sytsyg(struct feed *f, uint64_t tod, uint32_t ftr)
{
        memset(f->buf, 0, 112);
        vec_hdr(f->buf, 112, 0, 19, tod);
        be32(f->buf + 28, ftr);
        feed_rec(f, 112);
}

/* D0R21 SYTSXG, 96 bytes (7.3): 20 SXSSIZE (pages), 24 RSASXAVL. */
static void feed_sytsxg(struct feed *f, uint64_t tod, uint32_t pages)
{
        memset(f->buf, 0, 96);
        vec_hdr(f->buf, 96, 0, 21, tod);
        be32(f->buf + 20, pages);
        be32(f->buf + 24, 77);
        feed_rec(f, 96);
}

/* D0R6 SYTASG, 112 bytes (7.3): 20 CAL90FUL. */
static void feed_sytasg(struct feed *f, uint64_t tod, uint32_t full90)
{
        memset(f->buf, 0, 112);
        vec_hdr(f->buf, 112, 0, 6, tod);
        be32(f->buf + 20, full90);
        feed_rec(f, 112);
}

/* D3R1 STORSG, 844 bytes (6.4): 20 CALSSUBT, 28 RSASAVFR (frames). */
static void feed_storsg(struct feed *f, uint64_t tod, uint32_t frames)
{
        memset(f->buf, 0, 844);
        vec_hdr(f->buf, 844, 3, 1, tod);
        be32(f->buf + 20, 5);
        be32(f->buf + 28, frames);
        feed_rec(f, 844);
}

/* D11R1 SSISCS, 60 bytes (6.4): 20 PLMSYCNT, 24 PLMSYPRO, 28 PLMSYPRP. */
static void feed_ssiscs(struct feed *f, uint64_t tod, size_t len, uint32_t started,
                        uint32_t replies)
{
        memset(f->buf, 0, 60);
        vec_hdr(f->buf, (uint16_t)len, 11, 1, tod);
        be32(f->buf + 20, started);
        be32(f->buf + 24, replies);
        be32(f->buf + 28, 99);
        feed_rec(f, len);
}

/* D11R2 SSISMI, 116 bytes (6.2-7.1): 20-39 entries into joining, joined, leaving, isolated,
 * suspended (4 each); 40-79 microseconds in each (8 each); 80 PLMNSTAB, 84 PLMNINFL. */
static void feed_ssismi(struct feed *f, uint64_t tod, size_t len, const uint32_t n[5],
                        const uint64_t us[5])
{
        memset(f->buf, 0, 116);
        vec_hdr(f->buf, (uint16_t)len, 11, 2, tod);
        for (int i = 0; i < 5; i++) {
                be32(f->buf + 20 + 4 * i, n[i]);
                be64(f->buf + 40 + 8 * i, us[i]);
        }
        be32(f->buf + 80, 4);
        be32(f->buf + 84, 6);
        feed_rec(f, len);
}

static const char *const state_name[5] = {"joining", "joined", "leaving", "isolated", "suspended"};

/* Interval i's readings of every record: base values, then the deltas below each interval. */
static void feed_all(struct feed *f, unsigned i)
{
        uint64_t tod = T0 + SEC(60) * i;
        /* Each interval: 400 trivial transactions taking 0.2 s in all (0.5 ms each) and 50
         * non-trivial ones taking 5 s (0.1 s each); TOD units are 4096 a microsecond. */
        feed_sytusr(f, tod, 108, US(10000000) + US(200000) * i, 1000 + 400 * i,
                    US(40000000) + US(5000000) * i, 100 + 50 * i);
        feed_sytsyg(f, tod, 500 + 1234 * i);
        feed_sytsxg(f, tod, 2000 + 48 * i);
        feed_sytasg(f, tod, 7 + 2 * i);
        feed_storsg(f, tod, 300 + 20 * i);
        feed_ssiscs(f, tod, 60, 3 + 4 * i, 9 + 8 * i);
        /* joining, joined, leaving, isolated, suspended: entered 1, 2, 3, 4, 5 times an
         * interval; 2 ms, 58 s, 3 ms, 0 and 1.5 ms in each */
        const uint32_t n[5] = {1 + i, 1 + 2 * i, 3 * i, 4 * i, 5 * i};
        const uint64_t us[5] = {5000 + 2000 * i, 60000000 + 58000000ull * i, 3000 * i, 0, 1500 * i};
        feed_ssismi(f, tod, 116, n, us);
        feed_end(f, tod + SEC(1));
}

static const struct zm_metric *must(const struct feed *f, size_t from, const char *pi,
                                    const char *type, const char *ti)
{
        const struct zm_metric *m = feed_find(f, from, pi, type, ti);
        if (!m)
                fail_msg("no %s/%s-%s", pi, type, ti);
        assert_string_equal(m->plugin, "zvm");
        assert_null(m->check); /* VERIFIED fields: no law to name */
        return m;
}

static void near(double got, double want)
{
        if (got < want * (1 - 1e-9) || got > want * (1 + 1e-9))
                fail_msg("%.12g, not %.12g", got, want);
}

static void two_intervals(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 3);
        feed_all(f, 0);
        /* Readings from the first interval; nothing from a delta yet. */
        near(must(f, 0, "storage", "memory", "execution-space")->gauge[0], 2000.0 * 4096);
        near(must(f, 0, "storage", "memory", "save-areas")->gauge[0], 300.0 * 4096);
        assert_null(feed_find(f, 0, "system", "operations", "transactions-mp-trivial"));
        assert_null(feed_find(f, 0, "system", "response_time", "transactions-mp-trivial"));
        assert_null(feed_find(f, 0, "ssi", "operations", "entered-joining"));
        for (unsigned i = 1; i <= 2; i++) {
                size_t mark = f->n;
                feed_all(f, i);
                const struct zm_metric *m =
                    must(f, mark, "system", "operations", "transactions-mp-trivial");
                assert_int_equal(m->ds[0], ZM_DERIVE);
                assert_int_equal(m->derive[0], 400 * i);
                assert_true(m->tod == T0 + SEC(60) * i);
                assert_int_equal(m->domain, 0);
                assert_int_equal(m->record, 8);
                assert_int_equal(
                    must(f, mark, "system", "operations", "transactions-mp-nontrivial")->derive[0],
                    50 * i);
                m = must(f, mark, "system", "response_time", "transactions-mp-trivial");
                assert_int_equal(m->ds[0], ZM_GAUGE);
                near(m->gauge[0], 0.0005);
                near(must(f, mark, "system", "response_time", "transactions-mp-nontrivial")
                         ->gauge[0],
                     0.1);
                assert_int_equal(
                    must(f, mark, "system", "operations", "fast-ccw-translations")->derive[0],
                    1234 * i);
                near(must(f, mark, "storage", "memory", "execution-space")->gauge[0],
                     (2000.0 + 48 * i) * 4096);
                near(must(f, mark, "storage", "memory", "save-areas")->gauge[0],
                     (300.0 + 20 * i) * 4096);
                assert_int_equal(
                    must(f, mark, "storage", "operations", "paging-slots-90-full")->derive[0],
                    2 * i);
                assert_int_equal(must(f, mark, "ssi", "operations", "sync-started")->derive[0],
                                 4 * i);
                assert_int_equal(
                    must(f, mark, "ssi", "operations", "sync-proceed-replies")->derive[0], 8 * i);
                static const int64_t ms[5] = {2, 58000, 3, 0, 1};
                for (int k = 0; k < 5; k++) {
                        char ti[32];
                        snprintf(ti, sizeof(ti), "entered-%s", state_name[k]);
                        assert_int_equal(must(f, mark, "ssi", "operations", ti)->derive[0],
                                         (k + 1) * (int64_t)i);
                        m = must(f, mark, "ssi", "total_time_in_ms", state_name[k]);
                        assert_int_equal(m->ds[0], ZM_DERIVE);
                        /* the running sum in µs, then ms: 1.5 ms twice is 3 ms */
                        assert_int_equal(m->derive[0],
                                         k == 4 ? (int64_t)(1500 * i / 1000) : ms[k] * (int64_t)i);
                        assert_int_equal(m->domain, 11);
                        assert_int_equal(m->record, 2);
                }
        }
        feed_free(f);
}

/* A 32-bit count wraps: its delta still counts, and the mean divides by it. */
static void counter_wraps(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 3);
        const uint32_t n0[5] = {0xFFFFFFFEu, 0, 0, 0, 0}, n1[5] = {3, 0, 0, 0, 0};
        const uint64_t us[5] = {0, 0, 0, 0, 0};
        feed_sytusr(f, T0, 108, US(7000000), 0xFFFFFF00u, US(1000000), 0xFFFFFFFFu);
        feed_sytsyg(f, T0, 0xFFFFFFF0u);
        feed_ssismi(f, T0, 116, n0, us);
        feed_end(f, T0 + SEC(1));
        /* +0x200 trivial transactions taking 0.512 s; +2 non-trivial taking 3 s */
        feed_sytusr(f, T0 + SEC(60), 108, US(7512000), 0x100u, US(4000000), 1u);
        feed_sytsyg(f, T0 + SEC(60), 0x10u);
        feed_ssismi(f, T0 + SEC(60), 116, n1, us);
        feed_end(f, T0 + SEC(61));
        assert_int_equal(must(f, 0, "system", "operations", "transactions-mp-trivial")->derive[0],
                         0x200);
        near(must(f, 0, "system", "response_time", "transactions-mp-trivial")->gauge[0], 0.001);
        near(must(f, 0, "system", "response_time", "transactions-mp-nontrivial")->gauge[0], 1.5);
        assert_int_equal(must(f, 0, "system", "operations", "fast-ccw-translations")->derive[0],
                         0x20);
        assert_int_equal(must(f, 0, "ssi", "operations", "entered-joining")->derive[0], 5);
        feed_free(f);
}

/*
 * No transaction in an interval: no mean response time (a zero would read as
 * fast), while the count's own metric goes on.  A 64-bit time sum that goes
 * down was reset: no value from it that interval.
 */
static void no_transactions_no_mean(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 3);
        const uint32_t n[5] = {1, 1, 1, 1, 1};
        const uint64_t us0[5] = {9000, 9000, 9000, 9000, 9000},
                       us1[5] = {8000, 9000, 9000, 9000, 11000};
        feed_sytusr(f, T0, 108, US(1000000), 10, US(2000000), 20);
        feed_ssismi(f, T0, 116, n, us0);
        feed_end(f, T0 + SEC(1));
        /* trivial: the time moved but not the count; non-trivial: 4 taking 1 s */
        feed_sytusr(f, T0 + SEC(60), 108, US(1500000), 10, US(3000000), 24);
        feed_ssismi(f, T0 + SEC(60), 116, n, us1);
        feed_end(f, T0 + SEC(61));
        assert_null(feed_find(f, 0, "system", "response_time", "transactions-mp-trivial"));
        assert_int_equal(must(f, 0, "system", "operations", "transactions-mp-trivial")->derive[0],
                         0);
        near(must(f, 0, "system", "response_time", "transactions-mp-nontrivial")->gauge[0], 0.25);
        assert_null(feed_find(f, 0, "ssi", "total_time_in_ms", "joining"));
        assert_int_equal(must(f, 0, "ssi", "total_time_in_ms", "joined")->derive[0], 0);
        assert_int_equal(must(f, 0, "ssi", "total_time_in_ms", "suspended")->derive[0], 2);
        feed_free(f);
}

/*
 * Records shorter than the fields a metric needs: no value from them, nothing
 * read past their end (the tests run under valgrind and ASan), and the
 * entries' readings of full records before them are not mixed in.
 */
static void short_records(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 3);
        const uint32_t n[5] = {1, 2, 3, 4, 5};
        const uint64_t us[5] = {1000, 2000, 3000, 4000, 5000};
        for (unsigned i = 0; i < 3; i++) {
                uint64_t tod = T0 + SEC(60) * i;
                /* SYTUSR cut after CALMPTCT (44 bytes): no non-trivial fields */
                feed_sytusr(f, tod, 44, US(1000000) * (i + 1), 10 * (i + 1), US(1000000), 5 * i);
                /* SSISCS cut inside PLMSYPRO; SSISMI cut inside the joining time */
                feed_ssiscs(f, tod, 26, 3 * i, 4 * i);
                feed_ssismi(f, tod, 44, n, us);
                feed_end(f, tod + SEC(1));
        }
        assert_null(feed_find(f, 0, "system", "operations", "transactions-mp-nontrivial"));
        assert_null(feed_find(f, 0, "system", "response_time", "transactions-mp-nontrivial"));
        assert_null(feed_find(f, 0, "ssi", "operations", "sync-proceed-replies"));
        assert_null(feed_find(f, 0, "ssi", "total_time_in_ms", "joining"));
        assert_null(feed_find(f, 0, "ssi", "total_time_in_ms", "suspended"));
        feed_free(f);
}

/*
 * A layout for shorter SYTUSR records (an older level's, as a LayoutFile would
 * give it) that ends before the non-trivial fields: a 44-byte record then
 * gives the trivial transactions' metrics and none of the others.
 */
static void short_layout(void **state)
{
        (void)state;
        static const char text[] =
            "layout D0R8 SYTUSR min_len 40 level \"test\" source \"test\"\n"
            "field SYTUSR_SYSUSRS 20 4 uint verified gauge users \"t\" \"\"\n"
            "field SYTUSR_SRMCDORM 24 4 uint verified gauge users \"t\" \"\"\n"
            "field SYTUSR_CALMPTRV 28 8 uint verified counter tod \"t\" \"\"\n"
            "field SYTUSR_CALMPTCT 36 4 uint verified counter count \"t\" \"\"\n"
            "end\n";
        char err[256];
        if (!zl_load_text(text, strlen(text), "t", err, sizeof(err)))
                fail_msg("%s", err);
        struct feed *f = feed_new(-1, 3);
        for (unsigned i = 0; i < 2; i++) {
                uint64_t tod = T0 + SEC(60) * i;
                feed_sytusr(f, tod, 44, US(1000000) + US(300000) * i, 10 + 100 * i, US(1000000) * i,
                            5 * i);
                feed_end(f, tod + SEC(1));
        }
        assert_int_equal(must(f, 0, "system", "operations", "transactions-mp-trivial")->derive[0],
                         100);
        near(must(f, 0, "system", "response_time", "transactions-mp-trivial")->gauge[0], 0.003);
        assert_null(feed_find(f, 0, "system", "operations", "transactions-mp-nontrivial"));
        assert_null(feed_find(f, 0, "system", "response_time", "transactions-mp-nontrivial"));
        feed_free(f);
        zl_file_unload_all();
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(two_intervals),
            cmocka_unit_test(counter_wraps),
            cmocka_unit_test(no_transactions_no_mean),
            cmocka_unit_test(short_records),
            cmocka_unit_test(short_layout),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
