/* SPDX-License-Identifier: MIT */
/*
 * monwriter output (src_monwriter.c): the 13-byte struct monwrite_hdr
 * stream of doc/facts/kernel-drivers.md 2.1 and 2.3, written here by hand,
 * into the domain 10 records CP would build, and the driver's refusals
 * counted.
 */
#include "collect.h"

#include "source/source.h"

/* struct monwrite_hdr: fn, applid, record, version, release, mod, datalen, hdrlen. */
static size_t mwh(uint8_t *p, uint8_t fn, uint16_t applid, uint8_t rec, uint16_t mod,
                  uint16_t datalen, uint8_t hdrlen)
{
        p[0] = fn;
        be16(p + 1, applid);
        p[3] = rec;
        be16(p + 4, 0x0102); /* version */
        be16(p + 6, 0x0304); /* release */
        be16(p + 8, mod);
        be16(p + 10, datalen);
        p[12] = hdrlen;
        return 13;
}

/* A START/EVENT: header then datalen bytes of c. */
static size_t rec(uint8_t *p, uint8_t fn, uint16_t mod, uint16_t n, uint8_t c)
{
        size_t o = mwh(p, fn, 7, 1, mod, n, 13);
        memset(p + o, c, n);
        return o + n;
}

/* The D10 records delivered, kept whole. */
static uint8_t d10[16][700];
static size_t nd10;

static void keep_record(void *ctx, const struct zd_record *r)
{
        seen_record(ctx, r);
        if (r->domain == 10 && nd10 < 16 && r->rec.n <= sizeof(d10[0]))
                memcpy(d10[nd10++], r->rec.p, r->rec.n);
}

static struct zd_stats run(const uint8_t *p, size_t n, size_t chunk, struct vec_seen *s,
                           enum zd_format *fmt)
{
        struct zd_handler h = seen_handler(s);
        h.record = keep_record;
        nd10 = 0;
        struct zd_stream *st = zd_stream_new(ZD_FMT_UNKNOWN, &h);
        assert_non_null(st);
        for (size_t off = 0; off < n; off += chunk)
                assert_int_equal(zd_stream_feed(st, p + off, n - off < chunk ? n - off : chunk), 0);
        zd_stream_finish(st);
        struct zd_stats out = *zd_stream_stats(st);
        *fmt = zd_stream_format(st);
        zd_stream_free(st);
        return out;
}

static void detection(void **state)
{
        (void)state;
        const struct zd_source_ops *o = zd_source_by_name("monwriter");
        assert_non_null(o);
        uint8_t b[200];
        size_t n = rec(b, 0, 0, 20, 0xAA);
        assert_true(o->detect(zd_view_make(b, n)) > 50); /* one record, exactly */
        n += rec(b + n, 0, 2, 20, 0xBB);
        assert_true(o->detect(zd_view_make(b, n)) > 50);
        assert_true(o->detect(zd_view_make(b, n - 5)) > 50); /* two headers, second cut */
        assert_true(o->detect(zd_view_make(b, 20)) < 50);    /* one header, its data cut */
        b[12] = 16;                                          /* hdrlen of a padded struct */
        assert_int_equal(o->detect(zd_view_make(b, n)), 0);
        b[12] = 13;
        b[0] = 4;
        assert_int_equal(o->detect(zd_view_make(b, n)), 0);
        assert_int_equal(
            o->detect(zd_view_make((const uint8_t *)"ZVMCAP\r\n\0\1\0\20\0\0\0\0", 16)), 0);
}

static void records_as_cp_builds_them(void **state)
{
        (void)state;
        static uint8_t b[4096];
        size_t n = 0;
        n += rec(b + n, 0, 0, 30, 0x11);     /* START buffer A */
        n += rec(b + n, 0, 2, 40, 0x22);     /* START buffer B */
        n += rec(b + n, 2, 0, 10, 0x33);     /* GEN_EVENT: an event record at once */
        n += rec(b + n, 0, 0, 30, 0x44);     /* A again: the next pass, a new interval */
        n += mwh(b + n, 1, 7, 1, 2, 99, 13); /* STOP B: no data follows, datalen ignored */
        n += mwh(b + n, 1, 7, 1, 8, 0, 13);  /* STOP of a buffer never started: nothing */
        struct vec_seen s;
        enum zd_format fmt;
        for (size_t chunk = 1; chunk <= n; chunk += n - 1) { /* byte by byte, then at once */
                struct zd_stats st = run(b, n, chunk, &s, &fmt);
                assert_int_equal(fmt, ZD_FMT_MONWRITER);
                assert_int_equal(zd_stats_errors(&st), 0);
                assert_int_equal(st.bytes, n);
                assert_int_equal(s.nint, 2); /* before A's second write, and at the end */
                /* A(S) B(S) event(E) | D1R11 | A(S) B-stop(E) | D1R11 */
                static const uint8_t dom[] = {10, 10, 10, 1, 10, 10, 1};
                static const uint16_t num[] = {2, 2, 1, 11, 2, 1, 11};
                assert_int_equal(s.n, 7);
                for (size_t i = 0; i < 7; i++) {
                        assert_int_equal(s.dom[i], dom[i]);
                        assert_int_equal(s.rec[i], num[i]);
                        assert_int_equal(s.tod[i], 0); /* the file carries no time */
                }
                assert_int_equal(nd10, 5);
        }
        /* Buffer A's sample: MRHDR, CALDATOF 52, CALDATLN 30, userid, product id, data. */
        const uint8_t *r = d10[0];
        assert_int_equal(r[0] << 8 | r[1], 52 + 30);
        assert_int_equal(r[4], 10);
        assert_int_equal(r[20] << 8 | r[21], 52);
        assert_int_equal(r[22] << 8 | r[23], 30);
        static const uint8_t monwritr[8] = {0xD4, 0xD6, 0xD5, 0xE6, 0xD9, 0xC9, 0xE3, 0xD9};
        assert_memory_equal(r + 24, monwritr, 8);
        static const uint8_t prod[16] = {'L', 'N', 'X', 'A', 'P', 'P', 'L', 0,
                                         7,   1,   1,   2,   3,   4,   0,   0};
        assert_memory_equal(r + 32, prod, 16);
        assert_int_equal(r[52], 0x11);
        assert_int_equal(r[52 + 29], 0x11);
        /* STOP of B: a D10R1 with B's last data (40 bytes of 0x22), mod level 2. */
        r = d10[4];
        assert_int_equal(r[7], 1);
        assert_int_equal(r[22] << 8 | r[23], 40);
        assert_int_equal(r[47], 2);
        assert_int_equal(r[52], 0x22);
}

static void refusals_counted(void **state)
{
        (void)state;
        static uint8_t b[16384];
        size_t n = 0;
        n += rec(b + n, 0, 0, 30, 0x11);
        n += rec(b + n, 4, 2, 5, 0x55);            /* unknown mon_function */
        n += mwh(b + n, 0, 7, 1, 4, 3, 12);        /* hdrlen 12 */
        n += 3;                                    /* (its data) */
        n += rec(b + n, 0, 6, 4011, 0x66);         /* above the driver's 4010 */
        n += rec(b + n, 0, 0, 31, 0x77);           /* A resized without STOP */
        n += mwh(b + n, 3, 7, 1, 10, 0, 13);       /* START_CONFIG with no data */
        n += rec(b + n, 0, 12, 4010, 0x88);        /* the largest allowed: fine */
        n += mwh(b + n, 0, 7, 1, 14, 50, 13) + 10; /* cut: 40 bytes missing */
        struct vec_seen s;
        enum zd_format fmt;
        struct zd_stats st = run(b, n, 4096, &s, &fmt);
        assert_int_equal(fmt, ZD_FMT_MONWRITER);
        assert_int_equal(st.errors[ZD_E_MWR_FUNCTION], 1);
        assert_int_equal(st.errors[ZD_E_MWR_HDRLEN], 1);
        assert_int_equal(st.errors[ZD_E_MWR_DATALEN], 1);
        assert_int_equal(st.errors[ZD_E_MWR_RESIZE], 1);
        assert_int_equal(st.errors[ZD_E_MWR_EMPTY], 1);
        assert_int_equal(st.errors[ZD_E_MWR_TRUNCATED], 1);
        assert_int_equal(zd_stats_errors(&st), 6);
        assert_int_equal(zd_stats_count(&st, 10, 2), 2); /* A, and the 4010-byte buffer */
        assert_int_equal(st.bytes, n);
}

static void max_bufs(void **state)
{
        (void)state;
        static uint8_t b[256 * 14];
        size_t n = 0;
        for (unsigned i = 0; i < 256; i++)
                n += rec(b + n, 0, (uint16_t)i, 1, 0x01);
        struct vec_seen s;
        enum zd_format fmt;
        struct zd_stats st = run(b, n, n, &s, &fmt);
        assert_int_equal(st.errors[ZD_E_MWR_BUFFERS], 1);
        assert_int_equal(zd_stats_count(&st, 10, 2), 255);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(detection),
            cmocka_unit_test(records_as_cp_builds_them),
            cmocka_unit_test(refusals_counted),
            cmocka_unit_test(max_bufs),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
