/* SPDX-License-Identifier: MIT */
/*
 * Capture files (format in decoder/source/source.h, doc/zvmmon.md) and format
 * detection through the stream API.  Vectors written byte by byte here.
 */
#include "collect.h"
#include "source/source.h"

static uint8_t cap[64 * 1024];

static size_t cap_header(uint8_t *p, uint16_t version)
{
        memcpy(p, "ZVMCAP\r\n", 8);
        be16(p + 8, version);
        be16(p + 10, 16);
        be32(p + 12, 0);
        return 16;
}

/* A data set of one MCE and a sample record of rec_len bytes. */
static size_t a_set(uint8_t *p, uint16_t rec_len, uint16_t recno)
{
        vec_mce(p, 0xE2, 0x80, 0, 0x1000, 0x1000 + rec_len - 1u);
        vec_hdr(p + 12, rec_len, 0, recno, VEC_TOD_2026);
        return 12u + rec_len;
}

static size_t frame(uint8_t *p, uint16_t rec_len, uint16_t recno)
{
        size_t n = a_set(p + 24, rec_len, recno);
        be32(p, 0x44534554); /* "DSET" */
        be32(p + 4, (uint32_t)n);
        be64(p + 8, 1795305600000000ull);
        be32(p + 16, 0);
        be32(p + 20, 0);
        return 24 + n;
}

static struct zd_stats run(enum zd_format fmt, const uint8_t *p, size_t n, size_t chunk,
                           struct vec_seen *s, enum zd_format *detected)
{
        struct zd_handler h = seen_handler(s);
        struct zd_stream *st = zd_stream_new(fmt, &h);
        assert_non_null(st);
        for (size_t off = 0; off < n; off += chunk)
                zd_stream_feed(st, p + off, n - off < chunk ? n - off : chunk);
        zd_stream_finish(st);
        if (detected)
                *detected = zd_stream_format(st);
        struct zd_stats out = *zd_stream_stats(st);
        zd_stream_free(st);
        return out;
}

static void capture_two_sets(void **state)
{
        (void)state;
        struct vec_seen s;
        enum zd_format f;
        size_t n = cap_header(cap, 1);
        n += frame(cap + n, 40, 1);
        n += frame(cap + n, 60, 2);
        struct zd_stats st = run(ZD_FMT_UNKNOWN, cap, n, 7, &s, &f);
        assert_int_equal(f, ZD_FMT_CAPTURE);
        assert_int_equal(s.nerr, 0);
        assert_int_equal(s.n, 2);
        assert_int_equal(s.rec[1], 2);
        assert_int_equal(st.sets, 2);
        /* positions are input offsets: header, frame header, MCE */
        assert_int_equal(s.off[0], 16 + 24 + 12);
}

/* Each error's kind, set index and message, in order. */
struct lost {
        int n;
        enum zd_err_kind kind[4];
        uint64_t set[4];
        char msg[4][192];
        size_t records_before[4];
        size_t records;
};
static void lost_record(void *ctx, const struct zd_record *r)
{
        (void)r;
        ((struct lost *)ctx)->records++;
}
static void lost_error(void *ctx, const struct zd_error *e)
{
        struct lost *l = ctx;
        if (l->n == 4)
                return;
        l->kind[l->n] = e->kind;
        l->set[l->n] = e->pos.set;
        l->records_before[l->n] = l->records;
        memcpy(l->msg[l->n], e->msg, sizeof(e->msg));
        l->n++;
}

/*
 * Status bit 0 of a frame header: EOVERFLOW came after this set, monitor
 * data was lost between it and the next (doc/zvmmon.md).  Replay says so,
 * naming the set, once its records are out.
 */
static void capture_overflow_bit_is_reported(void **state)
{
        (void)state;
        size_t n = cap_header(cap, 1);
        n += frame(cap + n, 40, 1);
        size_t second = n;
        n += frame(cap + n, 60, 2);
        be32(cap + second + 16, 1); /* the second of three sets */
        n += frame(cap + n, 80, 3);
        struct lost l = {0};
        struct zd_handler h = {&l, lost_record, lost_error, NULL};
        struct zd_stream *st = zd_stream_new(ZD_FMT_CAPTURE, &h);
        assert_non_null(st);
        assert_int_equal(zd_stream_feed(st, cap, n), 0);
        zd_stream_finish(st);
        assert_int_equal(l.records, 3);
        assert_int_equal(l.n, 1);
        assert_int_equal(l.kind[0], ZD_E_CAP_OVERFLOW);
        assert_int_equal(l.set[0], 1);
        assert_int_equal(l.records_before[0], 2);
        assert_non_null(strstr(l.msg[0], "data set 1"));
        assert_non_null(strstr(l.msg[0], "lost"));
        assert_int_equal(zd_stream_stats(st)->errors[ZD_E_CAP_OVERFLOW], 1);
        zd_stream_free(st);
}

static void capture_damage_resyncs(void **state)
{
        (void)state;
        struct vec_seen s;
        size_t n = cap_header(cap, 1);
        n += frame(cap + n, 40, 1);
        memset(cap + n, 0x77, 33); /* garbage between frames */
        n += 33;
        n += frame(cap + n, 60, 2);
        size_t cut = frame(cap + n, 80, 3);
        n += cut - 10; /* the last frame is cut short */
        struct zd_stats st = run(ZD_FMT_CAPTURE, cap, n, 4096, &s, NULL);
        assert_int_equal(s.n, 2);
        assert_int_equal(st.errors[ZD_E_CAP_FRAME], 1);
        assert_int_equal(st.errors[ZD_E_CAP_TRUNCATED], 1);
}

static void capture_bad_header(void **state)
{
        (void)state;
        struct vec_seen s;
        size_t n = cap_header(cap, 9);
        n += frame(cap + n, 40, 1);
        struct zd_stats st = run(ZD_FMT_CAPTURE, cap, n, n, &s, NULL);
        assert_int_equal(s.n, 0);
        assert_int_equal(st.errors[ZD_E_CAP_HEADER], 1);
        /* header cut short */
        st = run(ZD_FMT_CAPTURE, cap, 10, 10, &s, NULL);
        assert_int_equal(st.errors[ZD_E_CAP_HEADER], 1);
}

static void detection(void **state)
{
        (void)state;
        struct vec_seen s;
        enum zd_format f;
        /* a raw data set */
        size_t n = a_set(cap, 40, 1);
        struct zd_stats st = run(ZD_FMT_UNKNOWN, cap, n, n, &s, &f);
        assert_int_equal(f, ZD_FMT_DATASET);
        assert_int_equal(s.n, 1);
        assert_int_equal(st.sets, 1);
        /* nothing recognisable: one clear error, no records */
        memset(cap, 0x11, 100);
        st = run(ZD_FMT_UNKNOWN, cap, 100, 100, &s, &f);
        assert_int_equal(f, ZD_FMT_UNKNOWN);
        assert_int_equal(st.errors[ZD_E_FORMAT], 1);
        /* empty input */
        st = run(ZD_FMT_UNKNOWN, cap, 0, 1, &s, &f);
        assert_int_equal(st.errors[ZD_E_FORMAT], 1);
        /* sources are found by name for command lines */
        assert_non_null(zd_source_by_name("monwrite"));
        assert_non_null(zd_source_by_name("capture"));
        assert_null(zd_source_by_name("nonsense"));
}

/* A piece of no bytes, as a read() at end of file gives, is no piece at all, even NULL. */
static void empty_piece_while_detecting(void **state)
{
        (void)state;
        struct vec_seen s;
        struct zd_handler h = seen_handler(&s);
        struct zd_stream *st = zd_stream_new(ZD_FMT_UNKNOWN, &h);
        assert_non_null(st);
        size_t n = a_set(cap, 40, 1);
        assert_int_equal(zd_stream_feed(st, NULL, 0), 0);
        assert_int_equal(zd_stream_feed(st, cap, n), 0);
        assert_int_equal(zd_stream_feed(st, NULL, 0), 0);
        assert_int_equal(zd_stream_finish(st), 0);
        assert_int_equal(zd_stream_format(st), ZD_FMT_DATASET);
        assert_int_equal(s.n, 1);
        zd_stream_free(st);
}

/* The library's own header writers agree with the documented layout. */
static void header_writers_match_documented_layout(void **state)
{
        (void)state;
        uint8_t mine[16], doc[16];
        zd_capture_file_header(mine);
        cap_header(doc, 1);
        assert_memory_equal(mine, doc, 16);
        uint8_t f1[24], f2[24];
        zd_capture_frame_header(f1, 52, 1795305600000000ll, ZD_CAP_OVERFLOW);
        be32(f2, 0x44534554);
        be32(f2 + 4, 52);
        be64(f2 + 8, 1795305600000000ull);
        be32(f2 + 16, 1);
        be32(f2 + 20, 0);
        assert_memory_equal(f1, f2, 24);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(capture_two_sets),
            cmocka_unit_test(capture_overflow_bit_is_reported),
            cmocka_unit_test(capture_damage_resyncs),
            cmocka_unit_test(capture_bad_header),
            cmocka_unit_test(detection),
            cmocka_unit_test(empty_piece_while_detecting),
            cmocka_unit_test(header_writers_match_documented_layout),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
