/* SPDX-License-Identifier: MIT */
/*
 * met_wzvm's staleness check forgets buffers and series idle for more than
 * SeriesIdleTimeout sample intervals (zm_options.series_idle).  Records are
 * written here byte by byte from doc/write_zvm.md ("Record layout") inside
 * D10R2 records (doc/facts/monitor-stream.md 7); the heap requests of the
 * engine are seen through the linker (alloc_wrap.h) to show the table's size.
 */
#include <stdio.h>

#include "wzvm_vec.h"

#include "alloc_wrap.h"
#include "metric/metric.h"
#include "record/record.h"

#define SEC_TOD  (UINT64_C(1000000) << 12) /* one second in TOD clock units */
#define INTERVAL (60 * SEC_TOD)
#define IDLE     5 /* SeriesIdleTimeout: collectd's default Timeout 2, + 3 */

/* The largest single heap request since the last reset: the tables grow by doubling. */
static size_t largest;
static void alloc_seen(size_t bytes)
{
        if (bytes > largest)
                largest = bytes;
}

static void count_emit(void *ctx, const struct zm_metric *m)
{
        (void)m;
        ++*(size_t *)ctx;
}

/* EBCDIC "LINUX01 " */
static const uint8_t userid[8] = {0xD3, 0xC9, 0xD5, 0xE4, 0xE7, 0xF0, 0xF1, 0x40};

/*
 * One write_zvm record of one GAUGE value list, interface-PINST/if_packets,
 * the record stamped rtod and its value vtod, in a D10R2 record of buffer
 * (applid 1, mod), the LNXAPPL product id's mod level, that CP stamped rtod.
 */
static void feed_at(struct zm_engine *e, const char *pinst, uint16_t mod, uint64_t rtod,
                    uint64_t vtod)
{
        uint64_t tod = rtod;
        uint8_t d[REC_LEN], rec[52 + REC_LEN];
        memset(d, 0, sizeof(d));
        memcpy(d, "WZVM", 4);
        d[4] = 1;         /* version */
        be16(d + 6, 96);  /* hdr_len */
        be64(d + 8, tod); /* timestamp */
        be32(d + 16, 1);  /* sync_count_1 */
        size_t used = 96 + vec_entry(d + 96, 1, 0, 0, 1, vtod, BITS_0_75, "interface", pinst,
                                     "if_packets", "", "value");
        be16(d + 20, 1);              /* nentries */
        be16(d + 22, (uint16_t)used); /* used */
        be32(d + 24, 60000);          /* interval_ms */
        be32(d + REC_LEN - 4, 1);     /* sync_count_2 */

        vec_hdr(rec, (uint16_t)sizeof(rec), 10, 2, tod);
        memset(rec + 20, 0, 32);
        be16(rec + 20, 52);      /* CALDATOF */
        be16(rec + 22, REC_LEN); /* CALDATLN */
        memcpy(rec + 24, userid, 8);
        memcpy(rec + 32, "LNXAPPL", 7);
        be16(rec + 39, 1); /* applid */
        rec[41] = 1;       /* record */
        be16(rec + 42, 1); /* version */
        be16(rec + 44, 0); /* release */
        be16(rec + 46, mod);
        memcpy(rec + 52, d, REC_LEN);

        struct zd_record r;
        memset(&r, 0, sizeof(r));
        r.domain = 10;
        r.number = 2;
        r.tod = tod;
        r.kind = 'S';
        r.rec = zd_view_make(rec, sizeof(rec));
        r.body = zd_view_tail(r.rec, 20);
        zm_engine_record(e, &r);
}

/* The same, the value stamped as the record. */
static void feed_value(struct zm_engine *e, const char *pinst, uint16_t mod, uint64_t tod)
{
        feed_at(e, pinst, mod, tod, tod);
}

/* CP's Interval End (D1R11). */
static void interval_end(struct zm_engine *e, uint64_t tod)
{
        struct zd_record end;
        memset(&end, 0, sizeof(end));
        end.domain = 1;
        end.number = 11;
        end.tod = tod;
        zm_engine_interval_end(e, &end);
}

/*
 * A guest whose interfaces come and go: every interval one new identifier
 * in a new buffer, none seen again, for rounds intervals.  Returns the
 * largest heap request after the first 100 (the tables grow by doubling),
 * after checking that none was larger than the largest before them.
 */
static size_t churn(struct zm_engine *e, unsigned rounds, size_t *emitted)
{
        size_t warm = 0;
        for (unsigned i = 0; i < rounds; i++) {
                char pinst[16];
                snprintf(pinst, sizeof(pinst), "veth%u", i);
                uint64_t tod = VEC_TOD_2026 + i * INTERVAL;
                feed_value(e, pinst, (uint16_t)i, tod);
                interval_end(e, tod + SEC_TOD);
                if (i + 1 == 100) {
                        warm = largest;
                        largest = 0;
                }
        }
        assert_int_equal(*emitted, rounds);
        assert_true(largest <= warm);
        return largest;
}

/*
 * With no share to stop it (MaxSeriesPerGuest 0), the series table holds
 * the last SeriesIdleTimeout intervals' few and keeps its first size, 256
 * slots; before, every identifier stayed, and the table doubled to 8,192
 * slots for 3,000 of them.
 */
static void churn_table_stays_bounded(void **state)
{
        (void)state;
        size_t n = 0;
        struct zm_options o = {.series_idle = IDLE};
        struct zm_engine *e = zm_engine_new(&o, count_emit, NULL, &n);
        assert_non_null(e);
        assert_true(churn(e, 3000, &n) < 16384);
        zm_engine_free(e);
}

/*
 * With shares of 50 series and 256 buffers, a churning guest's new ones
 * are still checked: before, once it had had 50 series (256 buffers) they
 * went unchecked for good (appl_untracked).
 */
static void churn_keeps_checking(void **state)
{
        (void)state;
        size_t n = 0;
        struct zm_options o = {.max_series_per_guest = 50, .series_idle = IDLE};
        struct zm_engine *e = zm_engine_new(&o, count_emit, NULL, &n);
        assert_non_null(e);
        (void)churn(e, 600, &n);
        assert_int_equal(zm_engine_counters(e)->appl_untracked, 0);
        assert_int_equal(zm_engine_counters(e)->series_capped, 0);
        zm_engine_free(e);
}

/*
 * An unchanged buffer is stale for as long as it is seen, however long;
 * once it has been away for SeriesIdleTimeout whole intervals, the same
 * record (the same identifier at the same time) is new again.
 */
static void returning_is_new(void **state)
{
        (void)state;
        size_t n = 0;
        struct zm_options o = {.series_idle = IDLE};
        struct zm_engine *e = zm_engine_new(&o, count_emit, NULL, &n);
        assert_non_null(e);
        const struct zm_counters *c = zm_engine_counters(e);
        uint64_t tod = VEC_TOD_2026, cp = VEC_TOD_2026;
        for (unsigned i = 0; i < 3 * IDLE; i++) {
                feed_value(e, "eth0", 0, tod);
                interval_end(e, cp += INTERVAL);
        }
        assert_int_equal(n, 1);
        assert_int_equal(c->appl_stale, 3 * IDLE - 1);
        /* away for one interval less than SeriesIdleTimeout: still known */
        for (unsigned i = 0; i < IDLE - 1; i++)
                interval_end(e, cp += INTERVAL);
        feed_value(e, "eth0", 0, tod);
        assert_int_equal(n, 1);
        assert_int_equal(c->appl_stale, 3 * IDLE);
        interval_end(e, cp += INTERVAL); /* the end of the interval it was seen in */
        /* away for SeriesIdleTimeout intervals: forgotten, and new when it comes back */
        for (unsigned i = 0; i < IDLE; i++)
                interval_end(e, cp += INTERVAL);
        feed_value(e, "eth0", 0, tod);
        assert_int_equal(n, 2);
        assert_int_equal(c->appl_stale, 3 * IDLE);
        feed_value(e, "eth0", 0, tod);
        assert_int_equal(n, 2);
        assert_int_equal(c->appl_stale, 3 * IDLE + 1);
        zm_engine_free(e);
}

/*
 * A table of more than 512 series lets go of its idle ones once they are an
 * eighth of it: 100 idle of 1,000 are still known, 200 are forgotten.  One
 * buffer carries every value list, each record stamped anew.
 */
static void large_table_forgets_in_bulk(void **state)
{
        (void)state;
        size_t n = 0;
        struct zm_options o = {.series_idle = IDLE};
        struct zm_engine *e = zm_engine_new(&o, count_emit, NULL, &n);
        assert_non_null(e);
        const struct zm_counters *c = zm_engine_counters(e);
        uint64_t rt = VEC_TOD_2026, t0 = VEC_TOD_2026;
        char pinst[16];
        for (unsigned k = 0; k < 1000; k++) {
                snprintf(pinst, sizeof(pinst), "s%u", k);
                feed_at(e, pinst, 0, rt += SEC_TOD, t0);
        }
        interval_end(e, rt += SEC_TOD);
        /* the first 900 go on, s900..s999 have no value for SeriesIdleTimeout intervals */
        for (unsigned i = 1; i <= IDLE; i++) {
                for (unsigned k = 0; k < 900; k++) {
                        snprintf(pinst, sizeof(pinst), "s%u", k);
                        feed_at(e, pinst, 0, rt += SEC_TOD, t0 + i * INTERVAL);
                }
                interval_end(e, rt += SEC_TOD);
        }
        assert_int_equal(n, 1000 + IDLE * 900);
        feed_at(e, "s950", 0, rt += SEC_TOD, t0); /* known still: stale */
        assert_int_equal(n, 1000 + IDLE * 900);
        assert_int_equal(c->appl_stale, 1);
        /* now only the first 800 go on: s800..s899 idle too, 199 of 1,000 */
        for (unsigned i = IDLE + 1; i <= 2 * IDLE; i++) {
                for (unsigned k = 0; k < 800; k++) {
                        snprintf(pinst, sizeof(pinst), "s%u", k);
                        feed_at(e, pinst, 0, rt += SEC_TOD, t0 + i * INTERVAL);
                }
                interval_end(e, rt += SEC_TOD);
        }
        size_t before = n;
        feed_at(e, "s999", 0, rt += SEC_TOD, t0); /* forgotten: new */
        assert_int_equal(n, before + 1);
        assert_int_equal(c->appl_stale, 1);
        zm_engine_free(e);
}

/* SeriesIdleTimeout 0: nothing is forgotten, a record months old is still stale. */
static void idle_zero_never_forgets(void **state)
{
        (void)state;
        size_t n = 0;
        struct zm_options o = {.series_idle = 0};
        struct zm_engine *e = zm_engine_new(&o, count_emit, NULL, &n);
        assert_non_null(e);
        feed_value(e, "eth0", 0, VEC_TOD_2026);
        for (unsigned i = 0; i < 1000; i++)
                interval_end(e, VEC_TOD_2026 + i * INTERVAL);
        feed_value(e, "eth0", 0, VEC_TOD_2026);
        assert_int_equal(n, 1);
        assert_int_equal(zm_engine_counters(e)->appl_stale, 1);
        zm_engine_free(e);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(churn_table_stays_bounded),
            cmocka_unit_test(churn_keeps_checking),
            cmocka_unit_test(returning_is_new),
            cmocka_unit_test(large_table_forgets_in_bulk),
            cmocka_unit_test(idle_zero_never_forgets),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
