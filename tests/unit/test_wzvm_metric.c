/* SPDX-License-Identifier: MIT */
/*
 * met_wzvm: write_zvm records inside D10R2 records (written here from
 * doc/facts/monitor-stream.md 7 and doc/write_zvm.md)
 * through the metric engine.
 */
#include "wzvm_vec.h"

#include "record/record.h"
#include "kept_metric.h"
#include "metric/metric.h"

#define MAXM 16
struct seen {
        size_t n;
        struct zm_metric m[MAXM];
        struct kept_names names[MAXM];
};

static void emit(void *ctx, const struct zm_metric *m)
{
        struct seen *s = ctx;
        if (s->n < MAXM) {
                keep_metric(&s->m[s->n], &s->names[s->n], m);
                s->n++;
        }
}

/* EBCDIC "LINUX01 " */
static const uint8_t userid[8] = {0xD3, 0xC9, 0xD5, 0xE4, 0xE7, 0xF0, 0xF1, 0x40};

/* D10R2: MRHDR, CALDATOF 52, CALDATLN, userid, product id "LNXAPPL" applid 1 1 0 mod, data. */
static size_t d10(uint8_t *out, const uint8_t *data, size_t n, uint16_t applid, uint16_t mod)
{
        size_t len = 52 + n;
        vec_hdr(out, (uint16_t)len, 10, 2, VEC_TOD_2026);
        memset(out + 20, 0, 32);
        be16(out + 20, 52);
        be16(out + 22, (uint16_t)n);
        memcpy(out + 24, userid, 8);
        memcpy(out + 32, "LNXAPPL", 7);
        be16(out + 39, applid);
        out[41] = 1;
        be16(out + 42, 1);
        be16(out + 44, 0);
        be16(out + 46, mod);
        memcpy(out + 52, data, n);
        return len;
}

/* A write_zvm record: load/load (3 GAUGE), interface-eth0/if_octets (rx, tx DERIVE). */
static size_t wz_data(uint8_t *r, uint32_t sync1, uint32_t sync2, uint64_t tod, const char *host)
{
        memset(r, 0, REC_LEN);
        memcpy(r, "WZVM", 4);
        r[4] = 1;
        be16(r + 6, 96);
        be64(r + 8, tod);
        be32(r + 16, sync1);
        size_t off = 96;
        off += vec_entry(r + off, 1, 0, 0, 3, tod, BITS_0_75, "load", "", "load", "", "shortterm");
        off += vec_entry(r + off, 1, 0, 1, 3, tod, UINT64_C(0x3FF0000000000000), "load", "", "load",
                         "", "midterm"); /* 1.0 */
        off += vec_entry(r + off, 1, 0, 2, 3, tod, 0, "load", "", "load", "", "longterm");
        off += vec_entry(r + off, 2, 0, 0, 2, tod, UINT64_C(123456789012), "interface", "eth0",
                         "if_octets", "", "rx");
        off += vec_entry(r + off, 2, 0, 1, 2, tod, (uint64_t)-7, "interface", "eth0", "if_octets",
                         "", "tx");
        be16(r + 20, 5);
        be16(r + 22, (uint16_t)off);
        be32(r + 24, 10000);
        memcpy(r + 32, host, strlen(host));
        be32(r + REC_LEN - 4, sync2);
        return REC_LEN;
}

static void feed(struct zm_engine *e, const uint8_t *rec, size_t len)
{
        struct zd_record r;
        memset(&r, 0, sizeof(r));
        r.domain = 10;
        r.number = 2;
        r.tod = VEC_TOD_2026;
        r.kind = 'S';
        r.rec = zd_view_make(rec, len);
        r.body = zd_view_tail(r.rec, 20);
        zm_engine_record(e, &r);
}

static void values_come_back_as_written(void **state)
{
        (void)state;
        struct seen s = {0};
        struct zm_engine *e = zm_engine_new(NULL, emit, NULL, &s);
        uint8_t data[REC_LEN], rec[REC_LEN + 52];
        wz_data(data, 4, 4, VEC_TOD_2026 + 4096, "lnx01");
        feed(e, rec, d10(rec, data, REC_LEN, 0x7A76, 0));
        assert_int_equal(s.n, 2);
        struct zm_metric *m = &s.m[0];
        assert_int_equal(m->scope, ZM_GUEST);
        assert_string_equal(m->guest, "LINUX01");
        assert_string_equal(m->host, "lnx01");
        assert_string_equal(m->plugin, "load");
        assert_string_equal(m->type, "load");
        assert_int_equal(m->nvalues, 3);
        assert_int_equal(m->ds[0], ZM_GAUGE);
        assert_true(m->gauge[0] == 0.75);
        assert_true(m->gauge[1] == 1.0);
        assert_true(m->gauge[2] == 0.0);
        assert_true(m->tod == VEC_TOD_2026 + 4096);
        m = &s.m[1];
        assert_string_equal(m->plugin, "interface");
        assert_string_equal(m->plugin_instance, "eth0");
        assert_string_equal(m->type, "if_octets");
        assert_string_equal(m->type_instance, "");
        assert_int_equal(m->nvalues, 2);
        assert_int_equal(m->ds[0], ZM_DERIVE);
        assert_true(m->derive[0] == INT64_C(123456789012));
        assert_true(m->derive[1] == -7);

        /* the same record again (z/VM sampled an unchanged buffer): nothing new */
        feed(e, rec, d10(rec, data, REC_LEN, 0x7A76, 0));
        assert_int_equal(s.n, 2);
        assert_int_equal(zm_engine_counters(e)->appl_stale, 1);

        /* a torn copy: dropped and counted */
        wz_data(data, 6, 5, VEC_TOD_2026 + 8192, "lnx01");
        feed(e, rec, d10(rec, data, REC_LEN, 0x7A76, 0));
        assert_int_equal(s.n, 2);
        assert_int_equal(zm_engine_counters(e)->appl_sync, 1);

        /* a new record whose values were not refreshed: not reported twice */
        wz_data(data, 6, 6, VEC_TOD_2026 + 4096, "lnx01");
        be64(data + 8, VEC_TOD_2026 + 12288); /* record timestamp only */
        feed(e, rec, d10(rec, data, REC_LEN, 0x7A76, 0));
        assert_int_equal(s.n, 2);
        assert_int_equal(zm_engine_counters(e)->appl_stale, 1 + 2);

        /* fresh values, another ApplicationID, no host name: host left to the plugin */
        wz_data(data, 7, 7, VEC_TOD_2026 + 16384, "");
        feed(e, rec, d10(rec, data, REC_LEN, 77, 3));
        assert_int_equal(s.n, 4);
        assert_string_equal(s.m[2].host, "");
        assert_string_equal(s.m[2].guest, "LINUX01");
        zm_engine_free(e);
}

/*
 * Values a guest stamps more than 300 s after CP copied them (a day, here)
 * carry CP's time: as stamped, the series would take no value until the
 * guest's clock passed the claim.
 */
static void values_stamped_far_ahead_take_cps_time(void **state)
{
        (void)state;
        struct seen s = {0};
        struct zm_engine *e = zm_engine_new(NULL, emit, NULL, &s);
        uint8_t data[REC_LEN], rec[REC_LEN + 52];
        wz_data(data, 4, 4, VEC_TOD_2026 + (UINT64_C(86400000000) << 12), "lnx01");
        feed(e, rec, d10(rec, data, REC_LEN, 0x7A76, 0));
        assert_int_equal(s.n, 2);
        assert_true(s.m[0].tod == VEC_TOD_2026 && s.m[1].tod == VEC_TOD_2026);
        assert_int_equal(zm_engine_counters(e)->appl_future, 2);
        zm_engine_free(e);
}

static void damaged_records_emit_nothing(void **state)
{
        (void)state;
        struct seen s = {0};
        struct zm_engine *e = zm_engine_new(NULL, emit, NULL, &s);
        uint8_t data[REC_LEN], rec[REC_LEN + 52];
        wz_data(data, 1, 1, VEC_TOD_2026, "lnx01");
        be16(data + 20, 6); /* one entry more than there is: the good ones are not emitted either */
        feed(e, rec, d10(rec, data, REC_LEN, 0x7A76, 0));
        assert_int_equal(s.n, 0);
        assert_int_equal(zm_engine_counters(e)->appl_bad, 1);
        /* not a write_zvm record (mon_fsstatd's data): not ours, not counted */
        memset(data, 0, REC_LEN);
        feed(e, rec, d10(rec, data, 100, 1, 0));
        assert_int_equal(s.n, 0);
        assert_int_equal(zm_engine_counters(e)->appl_bad, 1);
        /* CALDATLN lying past the record: not decoded */
        wz_data(data, 1, 1, VEC_TOD_2026, "lnx01");
        size_t len = d10(rec, data, REC_LEN, 0x7A76, 0);
        be16(rec + 22, REC_LEN + 1);
        feed(e, rec, len);
        assert_int_equal(s.n, 0);
        /* a data source missing from a group: the record is not whole, nothing of it is
         * emitted (not even its good value lists), and it is counted */
        wz_data(data, 1, 1, VEC_TOD_2026, "lnx01");
        size_t e1 = (size_t)(data[96] << 8 | data[97]);
        data[96 + e1 + 4] = 2; /* midterm claims index 2 */
        uint64_t bad0 = zm_engine_counters(e)->appl_bad;
        feed(e, rec, d10(rec, data, REC_LEN, 0x7A76, 0));
        assert_int_equal(s.n, 0);
        assert_int_equal(zm_engine_counters(e)->appl_bad, bad0 + 1);
        zm_engine_free(e);
}

static void count_emit(void *ctx, const struct zm_metric *m)
{
        (void)m;
        ++*(size_t *)ctx;
}

/*
 * 150,000 guests, each with one write_zvm buffer of two series, sampled twice
 * unchanged: the second time nothing is new.  Both tables must hold that many
 * (buffers, series) from one interval to the next; a table that starts over
 * sooner reports them again every interval.
 */
static void stale_buffers_known_at_scale(void **state)
{
        (void)state;
        size_t n = 0;
        struct zm_engine *e = zm_engine_new(NULL, count_emit, NULL, &n);
        assert_non_null(e);
        enum { GUESTS = 150000 };
        uint8_t data[REC_LEN], rec[REC_LEN + 52];
        wz_data(data, 4, 4, VEC_TOD_2026 + 4096, "");
        size_t len = d10(rec, data, REC_LEN, 0x7A76, 0);
        for (int pass = 0; pass < 2; pass++) {
                for (unsigned g = 0; g < GUESTS; g++) {
                        /* userid L0000000..L0149999 in EBCDIC (digits are X'F0'-X'F9') */
                        rec[24] = 0xD3;
                        for (unsigned k = 0, v = g; k < 7; k++, v /= 10)
                                rec[31 - k] = (uint8_t)(0xF0 + v % 10);
                        feed(e, rec, len);
                }
                assert_int_equal(n, (size_t)2 * GUESTS);
                assert_int_equal(zm_engine_counters(e)->appl_stale, pass == 0 ? 0 : GUESTS);
        }
        zm_engine_free(e);
}

/* EBCDIC "EVIL    " as CP stamps it over the record's userid. */
static void as_evil(uint8_t *rec)
{
        static const uint8_t evil[8] = {0xC5, 0xE5, 0xC9, 0xD3, 0x40, 0x40, 0x40, 0x40};
        memcpy(rec + 24, evil, 8);
}

/*
 * A guest chooses its buffers' application ids and mod levels: past 256
 * buffers its records are reported unchecked and counted, and LINUX01's
 * unchanged buffer is still known as stale.
 */
static void buffers_bounded_per_guest(void **state)
{
        (void)state;
        size_t n = 0;
        struct zm_engine *e = zm_engine_new(NULL, count_emit, NULL, &n);
        assert_non_null(e);
        const struct zm_counters *c = zm_engine_counters(e);
        uint8_t data[REC_LEN], rec[REC_LEN + 52];
        wz_data(data, 4, 4, VEC_TOD_2026 + 4096, "");
        size_t len = d10(rec, data, REC_LEN, 0x7A76, 0);
        feed(e, rec, len);
        assert_int_equal(n, 2);
        for (uint16_t mod = 0; mod < 256; mod++) {
                len = d10(rec, data, REC_LEN, 0x7A76, mod);
                as_evil(rec);
                feed(e, rec, len);
        }
        /* Its first buffer's two series are new; the others repeat them: stale values. */
        assert_int_equal(n, 4);
        assert_int_equal(c->appl_stale, 2 * 255);
        assert_int_equal(c->appl_untracked, 0);
        len = d10(rec, data, REC_LEN, 0x7A76, 256);
        as_evil(rec);
        feed(e, rec, len);
        feed(e, rec, len);
        assert_int_equal(c->appl_untracked, 2);
        assert_int_equal(c->appl_stale, 2 * 255 + 4); /* its values are still known */
        len = d10(rec, data, REC_LEN, 0x7A76, 0);
        feed(e, rec, len); /* LINUX01's buffer, unchanged */
        assert_int_equal(c->appl_stale, 2 * 255 + 5);
        assert_int_equal(n, 4);
        zm_engine_free(e);
}

/* Series are remembered up to MaxSeriesPerGuest per guest, each guest its own. */
static void series_bounded_per_guest(void **state)
{
        (void)state;
        size_t n = 0;
        struct zm_options o = {.max_series_per_guest = 1};
        struct zm_engine *e = zm_engine_new(&o, count_emit, NULL, &n);
        assert_non_null(e);
        const struct zm_counters *c = zm_engine_counters(e);
        uint8_t data[REC_LEN], rec[REC_LEN + 52];
        wz_data(data, 4, 4, VEC_TOD_2026 + 4096, "");
        size_t len = d10(rec, data, REC_LEN, 0x7A76, 0);
        as_evil(rec);
        feed(e, rec, len);
        /* load is remembered and emitted; interface is past the share: unchecked, capped. */
        assert_int_equal(n, 1);
        assert_int_equal(c->appl_untracked, 1);
        assert_int_equal(c->series_capped, 1);
        len = d10(rec, data, REC_LEN, 0x7A76, 1); /* the same values in another buffer */
        as_evil(rec);
        feed(e, rec, len);
        assert_int_equal(c->appl_stale, 1);
        assert_int_equal(c->appl_untracked, 2);
        len = d10(rec, data, REC_LEN, 0x7A76, 0); /* LINUX01 has a share of its own */
        feed(e, rec, len);
        assert_int_equal(n, 2);
        assert_int_equal(c->appl_untracked, 3);
        zm_engine_free(e);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(values_come_back_as_written),
            cmocka_unit_test(values_stamped_far_ahead_take_cps_time),
            cmocka_unit_test(damaged_records_emit_nothing),
            cmocka_unit_test(stale_buffers_known_at_scale),
            cmocka_unit_test(buffers_bounded_per_guest),
            cmocka_unit_test(series_bounded_per_guest),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
