/* SPDX-License-Identifier: MIT */
/*
 * The engine's per-guest series cap (met_cap.c): a guest whose identifiers
 * churn gets new series once old ones have been idle for series_idle sample
 * intervals; the first refusal is logged with the userid, and again only
 * after ZM_CAP_QUIET intervals without one.  The guests' values are
 * write_zvm records (doc/write_zvm.md) inside D10R2 records
 * (doc/facts/monitor-stream.md 7), written byte by byte here.
 */
#include <stdio.h>

#include "wzvm_vec.h"

#include "metric/met_cap.h"
#include "metric/metric.h"
#include "record/record.h"

struct run {
        size_t emitted, logs;
        char last[8][16]; /* the type instances... plugin instances of the last values */
        char lastlog[512];
        uint64_t tod; /* the next record's stamp */
};

static void emit(void *ctx, const struct zm_metric *m)
{
        struct run *r = ctx;
        snprintf(r->last[r->emitted % 8], sizeof(r->last[0]), "%s", m->plugin_instance);
        r->emitted++;
}

static void logged(void *ctx, int level, const char *msg)
{
        (void)level;
        struct run *r = ctx;
        r->logs++;
        snprintf(r->lastlog, sizeof(r->lastlog), "%s", msg);
}

/* EBCDIC userids, blank padded: "LINUX01 ", "LINUX02 ". */
static const uint8_t linux01[8] = {0xD3, 0xC9, 0xD5, 0xE4, 0xE7, 0xF0, 0xF1, 0x40};
static const uint8_t linux02[8] = {0xD3, 0xC9, 0xD5, 0xE4, 0xE7, 0xF0, 0xF2, 0x40};

/*
 * A D10R2 record of guest uid with a write_zvm record (product id LNXAPPL,
 * applid 0x7A76, mod level 0) holding one GAUGE, churn-NAME/gauge, stamped tod.
 */
static void feed_value(struct zm_engine *e, const uint8_t uid[8], const char *name, uint64_t tod)
{
        uint8_t data[REC_LEN], rec[52 + REC_LEN];
        memset(data, 0, sizeof(data));
        memcpy(data, "WZVM", 4);
        data[4] = 1;
        be16(data + 6, 96);
        be64(data + 8, tod);
        be32(data + 16, 1);
        size_t off = 96;
        off +=
            vec_entry(data + off, 1, 0, 0, 1, tod, BITS_0_75, "churn", name, "gauge", "", "value");
        be16(data + 20, 1);
        be16(data + 22, (uint16_t)off);
        be32(data + 24, 60000);
        be32(data + REC_LEN - 4, 1);
        vec_hdr(rec, sizeof(rec), 10, 2, tod);
        memset(rec + 20, 0, 32);
        be16(rec + 20, 52);
        be16(rec + 22, REC_LEN);
        memcpy(rec + 24, uid, 8);
        memcpy(rec + 32, "LNXAPPL", 7);
        be16(rec + 39, 0x7A76);
        rec[41] = 1;
        be16(rec + 42, 1);
        memcpy(rec + 52, data, REC_LEN);
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

/* One value of each name for LINUX01, each in a record of its own, a second apart. */
static void values(struct zm_engine *e, struct run *r, const char *const *names, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                r->tod += (uint64_t)1000000 << 12;
                feed_value(e, linux01, names[i], r->tod);
        }
}

static void interval_end(struct zm_engine *e)
{
        struct zd_record end;
        memset(&end, 0, sizeof(end));
        end.domain = 1;
        end.number = 11;
        zm_engine_interval_end(e, &end);
}

static struct zm_engine *engine(struct run *r, unsigned idle)
{
        memset(r, 0, sizeof(*r));
        r->tod = VEC_TOD_2026;
        struct zm_options o = {.max_series_per_guest = 3, .series_idle = idle, .unverified = -1};
        struct zm_engine *e = zm_engine_new(&o, emit, logged, r);
        assert_non_null(e);
        return e;
}

/*
 * Cap 3, idle 2: a guest at its cap gets room again once series have had
 * no value in two intervals; the refusal is logged once, with the userid
 * and a series refused, and not again while refusals go on.
 */
static void idle_series_make_room(void **state)
{
        (void)state;
        struct run r;
        struct zm_engine *e = engine(&r, 2);
        const struct zm_counters *c = zm_engine_counters(e);
        static const char *const first[] = {"c0", "c1", "c2"};
        values(e, &r, first, 3);
        assert_int_equal(r.emitted, 3);
        static const char *const c3[] = {"c3"};
        values(e, &r, c3, 1);
        assert_int_equal(r.emitted, 3);
        assert_int_equal(c->series_capped, 1);
        assert_int_equal(r.logs, 1);
        assert_non_null(strstr(r.lastlog, "guest LINUX01 has 3 series"));
        assert_non_null(strstr(r.lastlog, "churn/c3/gauge/"));
        assert_non_null(strstr(r.lastlog, "no value for 2 sample intervals"));
        interval_end(e); /* 1 */
        static const char *const c2c4[] = {"c2", "c4"};
        values(e, &r, c2c4, 2); /* c2 goes on; c4 is new: refused, not logged again */
        assert_int_equal(r.emitted, 4);
        assert_int_equal(c->series_capped, 2);
        assert_int_equal(r.logs, 1);
        interval_end(e); /* 2: c0 and c1 had no value in one interval (1) */
        static const char *const c2[] = {"c2"};
        values(e, &r, c2, 1);
        values(e, &r, c3, 1); /* still refused */
        assert_int_equal(c->series_capped, 3);
        interval_end(e); /* 3: c0 and c1 had no value in two (1 and 2): forgotten */
        static const char *const churn[] = {"c5", "c6", "c7", "c0"};
        values(e, &r, churn, 4);
        assert_int_equal(r.emitted, 5 + 2);        /* c5 and c6 took their places */
        assert_int_equal(c->series_capped, 3 + 2); /* c7, and c0 (new again) refused */
        assert_int_equal(r.logs, 1);               /* still no quiet spell */
        assert_string_equal(r.last[(r.emitted - 1) % 8], "c6");
        feed_value(e, linux02, "c7", r.tod += 4096); /* another guest: a cap of its own */
        assert_int_equal(r.emitted, 8);
        zm_engine_free(e);
}

/* After ZM_CAP_QUIET intervals without a refusal, the next one is logged again. */
static void refusals_logged_again_after_quiet(void **state)
{
        (void)state;
        struct run r;
        struct zm_engine *e = engine(&r, 2);
        static const char *const three[] = {"c0", "c1", "c2", "c3"};
        values(e, &r, three, 4);
        assert_int_equal(r.logs, 1);
        for (int i = 0; i < ZM_CAP_QUIET - 1; i++) {
                interval_end(e);
                values(e, &r, three, 3);
        }
        values(e, &r, &three[3], 1); /* ZM_CAP_QUIET - 1 intervals after the last: not yet */
        assert_int_equal(r.logs, 1);
        for (int i = 0; i < ZM_CAP_QUIET; i++) {
                interval_end(e);
                values(e, &r, three, 3);
        }
        values(e, &r, &three[3], 1);
        assert_int_equal(r.logs, 2);
        assert_non_null(strstr(r.lastlog, "guest LINUX01"));
        assert_int_equal(zm_engine_counters(e)->series_capped, 3);
        zm_engine_free(e);
}

/* series_idle 0: nothing is forgotten, as before; the log says so. */
static void idle_zero_forgets_nothing(void **state)
{
        (void)state;
        struct run r;
        struct zm_engine *e = engine(&r, 0);
        static const char *const names[] = {"c0", "c1", "c2", "c3"};
        values(e, &r, names, 4);
        assert_non_null(strstr(r.lastlog, "for good"));
        for (int i = 0; i < 10; i++)
                interval_end(e);
        values(e, &r, &names[3], 1);
        assert_int_equal(r.emitted, 3);
        assert_int_equal(zm_engine_counters(e)->series_capped, 2);
        zm_engine_free(e);
}

/*
 * The part alone: a sweep forgets exactly the idle series, the others are
 * found again as the same series (the order guess and the index both
 * survive the compaction), and a guest left with none is forgotten.
 */
static void sweep_keeps_the_rest(void **state)
{
        (void)state;
        struct zm_cap c;
        memset(&c, 0, sizeof(c));
        const struct zm_cap_guest *g = NULL;
        char a[9] = "A", b[9] = "B";
        /* A has series 3, 5, 7; B 9, 11, 13 (ids are odd hashes in the engine) */
        for (uint64_t id = 3; id <= 13; id += 2)
                assert_int_equal(zm_cap_admit(&c, id, id <= 7 ? a : b, 3, 0, &g), ZM_CAP_OK);
        assert_int_equal(c.nguests, 2);
        static const uint64_t going_on[] = {5, 11, 13};
        for (uint32_t now = 1; now <= 3; now++) {
                for (size_t k = 0; k < 3; k++)
                        assert_int_equal(
                            zm_cap_admit(&c, going_on[k], going_on[k] == 5 ? a : b, 3, now, &g),
                            ZM_CAP_OK);
                /* 3, 7 and 9 were last seen at 0: forgotten after 2 intervals without */
                assert_int_equal(zm_cap_sweep(&c, now, 2), now < 3 ? 0 : 3);
        }
        assert_int_equal(c.n, 3);
        for (size_t k = 0; k < 3; k++) /* the same series: nothing added */
                assert_int_equal(zm_cap_admit(&c, going_on[k], going_on[k] == 5 ? a : b, 3, 4, &g),
                                 ZM_CAP_OK);
        assert_int_equal(c.n, 3);
        assert_int_equal(zm_cap_admit(&c, 15, a, 3, 4, &g), ZM_CAP_OK);
        assert_int_equal(zm_cap_admit(&c, 17, a, 3, 4, &g), ZM_CAP_OK);
        assert_int_equal(zm_cap_admit(&c, 19, a, 3, 4, &g), ZM_CAP_LOG);
        assert_true(g->userid == zh_word8(a)); /* the refused guest's entry */
        assert_int_equal(zm_cap_admit(&c, 7, a, 3, 4, &g), ZM_CAP_REFUSED); /* new again */
        for (uint32_t now = 5; now <= 7; now++) /* only A's from now on */
                assert_int_equal(zm_cap_admit(&c, 5, a, 3, now, &g), ZM_CAP_OK);
        assert_int_equal(zm_cap_sweep(&c, 7, 2), 4); /* B's two, and A's 15 and 17 */
        assert_int_equal(c.n, 1);
        assert_int_equal(c.nguests, 1); /* B has none left; A refused lately, and has one */
        assert_int_equal(zm_cap_admit(&c, 11, b, 3, 8, &g), ZM_CAP_OK); /* B anew */
        assert_int_equal(c.nguests, 2);
        zm_cap_free(&c);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(idle_series_make_room),
            cmocka_unit_test(refusals_logged_again_after_quiet),
            cmocka_unit_test(idle_zero_forgets_nothing),
            cmocka_unit_test(sweep_keeps_the_rest),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
