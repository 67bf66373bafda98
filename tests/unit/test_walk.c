/* SPDX-License-Identifier: MIT */
/*
 * Record headers and the frame walk (doc/facts/monitor-stream.md 1 and 3): a
 * record never crosses a 4 KB frame; End-of-Frame (D1R13) jumps to the next
 * 4 KB boundary in DCSS address terms; Interval End (D1R11) closes an
 * interval; a remainder too short for a header or a zero length is an
 * implicit end of frame.
 */
#include "collect.h"

static uint8_t buf[4 * 4096];

static void header_validation(void **state)
{
        (void)state;
        uint8_t r[40];
        struct zd_hdr h;
        vec_hdr(r, 40, 0, 2, VEC_TOD_2026);
        assert_int_equal(zd_hdr_parse(zd_view_make(r, 40), &h), ZD_E_NONE);
        assert_int_equal(h.len, 40);
        assert_int_equal(h.domain, 0);
        assert_int_equal(h.number, 2);
        assert_true(h.tod == VEC_TOD_2026);
        /* length below 20; h keeps nothing of the header parsed before it (the
           walker's message shows its fields) */
        vec_hdr(r, 19, 0, 2, 0);
        assert_int_equal(zd_hdr_parse(zd_view_make(r, 40), &h), ZD_E_HDR_SHORT);
        assert_int_equal(h.len, 19);
        assert_int_equal(h.zeros, 0);
        assert_int_equal(h.number, 0);
        assert_true(h.tod == 0);
        /* zeros field not zero */
        vec_hdr(r, 40, 0, 2, 0);
        r[3] = 1;
        assert_int_equal(zd_hdr_parse(zd_view_make(r, 40), &h), ZD_E_HDR_ZEROS);
        /* longer than what is there */
        vec_hdr(r, 41, 0, 2, 0);
        assert_int_equal(zd_hdr_parse(zd_view_make(r, 40), &h), ZD_E_HDR_OVERRUN);
        /* fewer than 20 bytes in the view at all */
        vec_hdr(r, 20, 0, 2, 0);
        assert_int_equal(zd_hdr_parse(zd_view_make(r, 12), &h), ZD_E_HDR_OVERRUN);
        assert_int_equal(zd_hdr_parse(zd_view_make(r, 1), &h), ZD_E_HDR_SHORT);
        /* an unknown domain is not a header error: it is counted by the walker */
        vec_hdr(r, 20, 12, 1, 0);
        assert_int_equal(zd_hdr_parse(zd_view_make(r, 20), &h), ZD_E_NONE);
}

static void simple_set(void **state)
{
        (void)state;
        struct vec_seen s;
        struct zd_handler h = seen_handler(&s);
        struct zd_decoder d;
        zd_decoder_init(&d, &h);
        size_t o = 0;
        o += vec_hdr(buf + o, 116, 0, 1, VEC_TOD_2026);
        o += vec_hdr(buf + o, 52, 10, 2, VEC_TOD_2026 + 1);
        o += vec_hdr(buf + o, 20, 1, 11, VEC_TOD_2026 + 2);
        struct zd_pos base = {.offset = 1000, .set = 7};
        assert_int_equal(zd_walk_recset(&d, zd_view_make(buf, o), 0x09000000, 'S', &base), 3);
        assert_int_equal(s.n, 3);
        assert_int_equal(s.dom[1], 10);
        assert_int_equal(s.rec[1], 2);
        assert_int_equal(s.len[0], 116);
        assert_int_equal(s.dcss[1], 0x09000000 + 116);
        assert_int_equal(s.off[2], 1000 + 116 + 52);
        assert_int_equal(s.kind[0], 'S');
        assert_int_equal(s.nint, 1);
        assert_int_equal(s.nerr, 0);
        assert_int_equal(d.st.records, 3);
        assert_int_equal(d.st.intervals, 1);
        assert_int_equal(zd_stats_count(&d.st, 0, 1), 1);
        assert_int_equal(zd_stats_count(&d.st, 10, 2), 1);
        assert_true(d.st.first_tod == VEC_TOD_2026);
        assert_true(d.st.last_tod == VEC_TOD_2026 + 2);
}

/* End-of-Frame jumps by DCSS address, not buffer offset: the set starts mid-frame. */
static void end_of_frame_uses_dcss_addresses(void **state)
{
        (void)state;
        struct vec_seen s;
        struct zd_handler h = seen_handler(&s);
        struct zd_decoder d;
        zd_decoder_init(&d, &h);
        memset(buf, 0xEE, sizeof(buf)); /* stale bytes after End-of-Frame must be ignored */
        uint32_t start = 0x09000F00;    /* 256 bytes before a 4 KB boundary */
        size_t o = 0;
        o += vec_hdr(buf + o, 100, 4, 3, 1);
        o += vec_hdr(buf + o, 20, 1, 13, 2); /* End-of-Frame at 0x09000F64 */
        /* next record at the next frame: offset 0x100 in the buffer */
        o = 0x100;
        o += vec_hdr(buf + o, 200, 4, 3, 3);
        o += vec_hdr(buf + o, 20, 1, 11, 4);
        assert_int_equal(zd_walk_recset(&d, zd_view_make(buf, o), start, 'S', NULL), 4);
        assert_int_equal(s.dcss[2], 0x09001000);
        assert_int_equal(d.st.frames, 1);
        assert_int_equal(s.nerr, 0);
}

/* A zero remainder too short for a header, or a zero length, ends the frame silently. */
static void implicit_end_of_frame(void **state)
{
        (void)state;
        struct vec_seen s;
        struct zd_handler h = seen_handler(&s);
        struct zd_decoder d;
        zd_decoder_init(&d, &h);
        memset(buf, 0, sizeof(buf));
        /* frame 0: a 4080-byte record leaves 16 zero bytes (< 20): implicit end of frame */
        vec_hdr(buf, 4080, 0, 8, 1);
        /* frame 1: one record then a zero length */
        vec_hdr(buf + 4096, 40, 0, 19, 2);
        /* frame 2: a record at its start */
        vec_hdr(buf + 8192, 20, 1, 11, 3);
        assert_int_equal(zd_walk_recset(&d, zd_view_make(buf, 8192 + 20), 0x01000000, 'S', NULL),
                         3);
        assert_int_equal(s.dcss[1], 0x01001000);
        assert_int_equal(s.dcss[2], 0x01002000);
        assert_int_equal(s.nerr, 0);
        assert_int_equal(d.st.frames, 0);
}

/*
 * CP closes a frame it does not fill with End-of-Frame, which needs 20
 * bytes, so it never leaves 1 to 19 bytes after a record (monitor-stream.md
 * 3.1); nor does a range, whose end is its last record's last byte, end
 * inside a header.  Such bytes that are not all zero are a record cut short
 * or a length that is wrong: reported (hdr_tail), and the walk goes on at
 * the next frame.
 */
static void short_nonzero_remainder_is_reported(void **state)
{
        (void)state;
        struct vec_seen s;
        struct zd_handler h = seen_handler(&s);
        struct zd_decoder d;
        zd_decoder_init(&d, &h);
        memset(buf, 0, sizeof(buf));
        /* frame 0: a 4080-byte record, then 16 bytes of which one is not zero */
        vec_hdr(buf, 4080, 0, 8, 1);
        buf[4095] = 0x01;
        /* frame 1: a record, then a set that ends 19 bytes into the next header */
        vec_hdr(buf + 4096, 40, 0, 19, 2);
        vec_hdr(buf + 4136, 20, 1, 11, 3);
        assert_int_equal(zd_walk_recset(&d, zd_view_make(buf, 4136 + 19), 0x01000000, 'S', NULL),
                         2);
        assert_int_equal(s.dcss[1], 0x01001000);
        assert_int_equal(s.nerr, 2);
        assert_int_equal(s.err[0], ZD_E_HDR_TAIL);
        assert_int_equal(s.err[1], ZD_E_HDR_TAIL);
        assert_int_equal(d.st.errors[ZD_E_HDR_TAIL], 2);
        /* the same 19 bytes all zero: silent, as a zero remainder in a frame */
        zd_decoder_init(&d, &h);
        s.n = s.nerr = 0;
        memset(buf + 4136, 0, 20);
        buf[4095] = 0;
        assert_int_equal(zd_walk_recset(&d, zd_view_make(buf, 4136 + 19), 0x01000000, 'S', NULL),
                         2);
        assert_int_equal(s.nerr, 0);
}

static void bad_records_skip_to_next_frame(void **state)
{
        (void)state;
        struct vec_seen s;
        struct zd_handler h = seen_handler(&s);
        struct zd_decoder d;
        zd_decoder_init(&d, &h);
        memset(buf, 0, sizeof(buf));
        /* frame 0: good record, then a header with nonzero zeros field */
        vec_hdr(buf, 60, 3, 1, 1);
        vec_hdr(buf + 60, 60, 3, 1, 1);
        buf[62] = 0x12;
        /* frame 1: a record claiming 10 bytes */
        vec_hdr(buf + 4096, 10, 0, 1, 1);
        /* frame 2: a record that would cross into frame 3 */
        vec_hdr(buf + 8192, 4000, 0, 1, 1);
        vec_hdr(buf + 8192 + 4000, 200, 0, 1, 1);
        /* frame 3: a good record, then one longer than the set */
        vec_hdr(buf + 12288, 20, 1, 11, 1);
        vec_hdr(buf + 12308, 500, 0, 3, 1);
        assert_int_equal(zd_walk_recset(&d, zd_view_make(buf, 12308 + 100), 0, 'E', NULL), 3);
        assert_int_equal(s.nerr, 4);
        assert_int_equal(s.err[0], ZD_E_HDR_ZEROS);
        assert_int_equal(s.err[1], ZD_E_HDR_SHORT);
        assert_int_equal(s.err[2], ZD_E_HDR_FRAME);
        assert_int_equal(s.err[3], ZD_E_HDR_OVERRUN);
        assert_int_equal(d.st.errors[ZD_E_HDR_ZEROS], 1);
        assert_int_equal(zd_stats_errors(&d.st), 4);
        /* the good records: frame 0's first, frame 2's 4000-byte one, frame 3's interval end */
        assert_int_equal(s.len[0], 60);
        assert_int_equal(s.len[1], 4000);
        assert_int_equal(s.rec[2], 11);
        assert_int_equal(s.kind[2], 'E');
}

static void unknown_domain_counted_not_fatal(void **state)
{
        (void)state;
        struct vec_seen s;
        struct zd_handler h = seen_handler(&s);
        struct zd_decoder d;
        zd_decoder_init(&d, &h);
        size_t o = 0;
        o += vec_hdr(buf + o, 24, 12, 1, 1);
        o += vec_hdr(buf + o, 24, 200, 300, 1);
        o += vec_hdr(buf + o, 24, 0, 500, 1);
        assert_int_equal(zd_walk_recset(&d, zd_view_make(buf, o), 0, 'S', NULL), 3);
        assert_int_equal(d.st.unknown_domain, 2);
        assert_int_equal(s.nerr, 0);
        assert_int_equal(zd_stats_count(&d.st, 12, 1), 1);
        assert_int_equal(zd_stats_count(&d.st, 0, 500), 1); /* the "127 and above" slot */
        assert_int_equal(zd_stats_count(&d.st, 200, 1), 0);
}

/*
 * The walk fills its record once per set and the TOD bounds without a test
 * for zero: a zero TOD moves neither bound, the first nonzero one sets the
 * first, a later smaller one lowers it.  The same through zd_deliver, which
 * sources that find records one by one use, with a kind that is neither.
 */
static void tod_bounds_and_kinds(void **state)
{
        (void)state;
        struct vec_seen s;
        struct zd_handler h = seen_handler(&s);
        struct zd_decoder d;
        zd_decoder_init(&d, &h);
        size_t o = 0;
        o += vec_hdr(buf + o, 24, 0, 1, 0);
        o += vec_hdr(buf + o, 24, 0, 2, VEC_TOD_2026 + 5);
        o += vec_hdr(buf + o, 24, 0, 3, 0);
        o += vec_hdr(buf + o, 24, 0, 4, VEC_TOD_2026 + 1);
        o += vec_hdr(buf + o, 24, 0, 5, VEC_TOD_2026 + 3);
        assert_int_equal(zd_walk_recset(&d, zd_view_make(buf, o), 0, 'E', NULL), 5);
        assert_true(d.st.first_tod == VEC_TOD_2026 + 1);
        assert_true(d.st.last_tod == VEC_TOD_2026 + 5);
        assert_int_equal(d.st.events, 5);
        assert_int_equal(d.st.samples, 0);
        assert_true(s.tod[2] == 0);
        assert_int_equal(s.rec[4], 5);
        assert_int_equal(s.kind[4], 'E');

        zd_decoder_init(&d, &h);
        struct zd_record r = {.domain = 1, .number = 11, .kind = 'X'};
        r.rec = zd_view_make(buf, 20);
        r.body = zd_view_make(buf + 20, 0);
        zd_deliver(&d, &r);
        assert_true(d.st.first_tod == 0 && d.st.last_tod == 0);
        assert_int_equal(d.st.samples + d.st.events, 0);
        assert_int_equal(d.st.intervals, 1);
        r.tod = 7;
        r.family = ZD_FAM_VM370;
        zd_deliver(&d, &r);
        assert_true(d.st.first_tod == 7 && d.st.last_tod == 7);
        assert_int_equal(d.st.intervals, 1); /* VM/370 has no domain 1 of CP's */
        assert_int_equal(d.st.by_vm370[1][11], 1);
        assert_int_equal(d.st.records, 2);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(header_validation),
            cmocka_unit_test(simple_set),
            cmocka_unit_test(end_of_frame_uses_dcss_addresses),
            cmocka_unit_test(implicit_end_of_frame),
            cmocka_unit_test(short_nonzero_remainder_is_reported),
            cmocka_unit_test(bad_records_skip_to_next_frame),
            cmocka_unit_test(unknown_domain_counted_not_fatal),
            cmocka_unit_test(tod_bounds_and_kinds),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
