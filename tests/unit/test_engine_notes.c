/* SPDX-License-Identifier: MIT */
/*
 * What the engine learns and says besides metrics (doc/plugin.md): any
 * user-domain record names its guest (logon and logoff too, not only the
 * activity samples), and domain 10 records that name no guest are counted
 * and said, at most once an hour of CP's time.  Records written byte by
 * byte from doc/facts/cp-records.md 1 (user domain: VMDUSER at 20) and
 * doc/facts/monitor-stream.md 7 (APPLDATA header: CALDATOF at 20, CALDATLN
 * at 22, userid at 24).
 */
#include <stdio.h>

#include "vec.h"

#include "base/tod.h"
#include "metric/metric.h"
#include "record/record.h"

/* EBCDIC: "LNXNEW01", "LNXGONE1", all blanks, and "lnx" in lower case (no userid CP writes). */
static const uint8_t lnxnew01[8] = {0xD3, 0xD5, 0xE7, 0xD5, 0xC5, 0xE6, 0xF0, 0xF1};
static const uint8_t lnxgone1[8] = {0xD3, 0xD5, 0xE7, 0xC7, 0xD6, 0xD5, 0xC5, 0xF1};
static const uint8_t blanks[8] = {0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40};
static const uint8_t lower[8] = {0x93, 0x95, 0xA7, 0x40, 0x40, 0x40, 0x40, 0x40};

static void feed(struct zm_engine *e, uint8_t *rec, size_t len, uint8_t dom, uint16_t num,
                 uint64_t tod)
{
        vec_hdr(rec, (uint16_t)len, dom, num, tod);
        struct zd_record r;
        memset(&r, 0, sizeof(r));
        r.domain = dom;
        r.number = num;
        r.tod = tod;
        r.kind = dom == 4 && num <= 2 ? 'E' : 'S';
        r.rec = zd_view_make(rec, len);
        r.body = zd_view_tail(r.rec, 20);
        zm_engine_record(e, &r);
}

/* A user-domain record of guest uid: VMDUSER at 20, the rest zero. */
static void user_record(struct zm_engine *e, uint16_t num, size_t len, const uint8_t uid[8])
{
        uint8_t rec[512];
        memset(rec, 0, sizeof(rec));
        memcpy(rec + 20, uid, 8);
        feed(e, rec, len, 4, num, VEC_TOD_2026);
}

static bool knows(const struct zm_engine *e, const char *userid)
{
        char u[9] = {0};
        snprintf(u, sizeof(u), "%s", userid);
        return zm_engine_knows_guest(e, u);
}

/*
 * A guest that logged on (D4R1, USELON: 31 bytes and more) or off (D4R2,
 * USELOF: 284 and more) is a guest CP named, as one of the activity
 * samples is; bytes that are no userid CP writes name nobody.
 */
static void logon_and_logoff_name_guests(void **state)
{
        (void)state;
        struct zm_engine *e = zm_engine_new(NULL, NULL, NULL, NULL);
        assert_non_null(e);
        assert_false(knows(e, "LNXNEW01"));
        user_record(e, 1, 40, lnxnew01);
        assert_true(knows(e, "LNXNEW01"));
        user_record(e, 2, 284, lnxgone1);
        assert_true(knows(e, "LNXGONE1"));
        user_record(e, 1, 40, blanks);
        user_record(e, 2, 284, lower);
        assert_int_equal(zm_engine_guests_known(e), 2);
        user_record(e, 1, 24, lnxgone1); /* shorter than USELON: no layout, no userid */
        assert_int_equal(zm_engine_guests_known(e), 2);
        zm_engine_free(e);
}

struct said {
        int n;
        char last[512];
};

static void log_fn(void *ctx, int level, const char *msg)
{
        (void)level;
        struct said *s = ctx;
        s->n++;
        snprintf(s->last, sizeof(s->last), "%s", msg);
}

/* A D10R2 record stamped with uid: APPLDATA header, a product id, 16 bytes of data. */
static void appl_record(struct zm_engine *e, const uint8_t uid[8], uint64_t tod)
{
        uint8_t rec[68];
        memset(rec, 0, sizeof(rec));
        be16(rec + 20, 52);
        be16(rec + 22, 16);
        memcpy(rec + 24, uid, 8);
        memcpy(rec + 32, "LNXAPPL", 7);
        feed(e, rec, sizeof(rec), 10, 2, tod);
}

/*
 * Domain 10 records with a userid CP never stamps name no guest: counted
 * each (appl_bad), said the first time with the bytes as they came, then
 * at most once an hour of CP's time, with the number since the last line.
 */
static void unstamped_userids_said_hourly(void **state)
{
        (void)state;
        struct said s = {0};
        struct zm_engine *e = zm_engine_new(NULL, NULL, log_fn, &s);
        const uint64_t minute = (uint64_t)60 * 1000000 * ZD_TOD_PER_US;
        uint64_t t = VEC_TOD_2026;
        appl_record(e, blanks, t);
        assert_int_equal(s.n, 1);
        assert_non_null(strstr(s.last, "D10R2, userid \"\") is unusable"));
        assert_non_null(strstr(s.last, "1 such record since the last line"));
        for (int i = 1; i < 60; i++)
                appl_record(e, i % 2 ? lower : blanks, t + (uint64_t)i * minute);
        assert_int_equal(s.n, 1);
        appl_record(e, lower, t + 60 * minute);
        assert_int_equal(s.n, 2);
        assert_non_null(strstr(s.last, "userid \"lnx\""));
        assert_non_null(strstr(s.last, "60 such records since the last line"));
        assert_int_equal(zm_engine_counters(e)->appl_bad, 61);
        appl_record(e, lnxnew01, t + 61 * minute); /* a good one: no line, not counted */
        assert_int_equal(s.n, 2);
        assert_int_equal(zm_engine_counters(e)->appl_bad, 61);
        zm_engine_free(e);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(logon_and_logoff_name_guests),
            cmocka_unit_test(unstamped_userids_said_hourly),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
