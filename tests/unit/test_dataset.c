/* SPDX-License-Identifier: MIT */
/*
 * Data sets as /dev/monreader delivers them (doc/facts/kernel-drivers.md 1.2,
 * doc/facts/monitor-stream.md 4.2-4.3): [12-byte MCE][START..END bytes] pairs.
 */
#include "collect.h"

static uint8_t set[3 * 4096];

static void mce_parse_rules(void **state)
{
        (void)state;
        uint8_t m[12];
        struct zd_mce e;
        vec_mce(m, 0xE2, 0x80, 0x20, 0x09000000, 0x09000FFF);
        assert_int_equal(zd_mce_parse(zd_view_make(m, 12), &e), ZD_E_NONE);
        assert_int_equal(e.type, 0xE2);
        assert_int_equal(e.start, 0x09000000);
        assert_int_equal(e.end, 0x09000FFF);
        /* bit numbering from the MSB: X'80' of byte 1 = System, X'20' of byte 2 = APPLDATA */
        assert_true(zd_mce_has_domain(&e, 0));
        assert_false(zd_mce_has_domain(&e, 1));
        assert_true(zd_mce_has_domain(&e, 10));
        assert_false(zd_mce_has_domain(&e, 8));
        vec_mce(m, 0xC5, 0x01, 0, 0, 0); /* event, Seek; a one-byte range is fine */
        assert_int_equal(zd_mce_parse(zd_view_make(m, 12), &e), ZD_E_NONE);
        assert_true(zd_mce_has_domain(&e, 7));
        vec_mce(m, 0x00, 0x80, 0, 0, 100);
        assert_int_equal(zd_mce_parse(zd_view_make(m, 12), &e), ZD_E_MCE_TYPE);
        vec_mce(m, 0xE2, 0, 0, 0, 100);
        assert_int_equal(zd_mce_parse(zd_view_make(m, 12), &e), ZD_E_MCE_DOMAINS);
        vec_mce(m, 0xE2, 0x80, 0, 200, 100);
        assert_int_equal(zd_mce_parse(zd_view_make(m, 12), &e), ZD_E_MCE_RANGE);
        assert_int_equal(zd_mce_parse(zd_view_make(m, 11), &e), ZD_E_SET_SHORT);
}

/* Two pairs: a sample range and an event range, each walked with its own DCSS start. */
static void two_pairs(void **state)
{
        (void)state;
        struct vec_seen s;
        struct zd_handler h = seen_handler(&s);
        struct zd_decoder d;
        zd_decoder_init(&d, &h);
        size_t o = 0;
        vec_mce(set, 0xE2, 0xC0, 0, 0x09000000, 0x09000000 + 40 + 20 - 1);
        o = 12;
        o += vec_hdr(set + o, 40, 0, 2, 1);
        o += vec_hdr(set + o, 20, 1, 11, 2);
        vec_mce(set + o, 0xC5, 0x08, 0, 0x09800010, 0x09800010 + 30 - 1);
        o += 12;
        o += vec_hdr(set + o, 30, 4, 1, 3);
        assert_int_equal(zd_decode_dataset(&d, zd_view_make(set, o), 5, 100), 3);
        assert_int_equal(s.nerr, 0);
        assert_int_equal(s.kind[0], 'S');
        assert_int_equal(s.kind[2], 'E');
        assert_int_equal(s.dcss[2], 0x09800010);
        assert_int_equal(s.off[0], 100 + 12);
        assert_int_equal(s.off[2], 100 + 12 + 60 + 12);
        assert_int_equal(d.st.sets, 1);
        assert_int_equal(d.st.mces, 2);
        assert_int_equal(d.st.samples, 2);
        assert_int_equal(d.st.events, 1);
        assert_int_equal(d.st.bytes, o);
}

/* A bad type costs only its own range when that range is readable. */
static void bad_mce_type_skips_its_range(void **state)
{
        (void)state;
        struct vec_seen s;
        struct zd_handler h = seen_handler(&s);
        struct zd_decoder d;
        zd_decoder_init(&d, &h);
        size_t o = 0;
        vec_mce(set, 0x41, 0x80, 0, 0x1000, 0x1000 + 20 - 1);
        o = 12;
        o += vec_hdr(set + o, 20, 0, 1, 1);
        vec_mce(set + o, 0xE2, 0x00, 0x00, 0x2000, 0x2000 + 20 - 1); /* no domain bit */
        o += 12;
        o += vec_hdr(set + o, 20, 0, 1, 1);
        vec_mce(set + o, 0xE2, 0x80, 0, 0x3000, 0x3000 + 24 - 1);
        o += 12;
        o += vec_hdr(set + o, 24, 0, 19, 1);
        assert_int_equal(zd_decode_dataset(&d, zd_view_make(set, o), 0, 0), 1);
        assert_int_equal(s.rec[0], 19);
        assert_int_equal(s.nerr, 2);
        assert_int_equal(s.err[0], ZD_E_MCE_TYPE);
        assert_int_equal(s.err[1], ZD_E_MCE_DOMAINS);
}

/* start after end: nothing after it can be located, the rest of the set is dropped. */
static void bad_range_ends_set(void **state)
{
        (void)state;
        struct vec_seen s;
        struct zd_handler h = seen_handler(&s);
        struct zd_decoder d;
        zd_decoder_init(&d, &h);
        vec_mce(set, 0xE2, 0x80, 0, 0x2000, 0x1000);
        vec_hdr(set + 12, 20, 0, 1, 1);
        assert_int_equal(zd_decode_dataset(&d, zd_view_make(set, 32), 0, 0), 0);
        assert_int_equal(s.nerr, 1);
        assert_int_equal(s.err[0], ZD_E_MCE_RANGE);
}

/* The MCE declares more than is present: report, walk the whole records that are there. */
static void lying_mce_length(void **state)
{
        (void)state;
        struct vec_seen s;
        struct zd_handler h = seen_handler(&s);
        struct zd_decoder d;
        zd_decoder_init(&d, &h);
        vec_mce(set, 0xE2, 0x80, 0, 0x5000, 0x5000 + 4095);
        size_t o = 12;
        o += vec_hdr(set + o, 100, 0, 1, 1);
        o += vec_hdr(set + o, 100, 0, 1, 1);
        o -= 50; /* the second record is cut short */
        assert_int_equal(zd_decode_dataset(&d, zd_view_make(set, o), 0, 0), 1);
        assert_int_equal(s.nerr, 2);
        assert_int_equal(s.err[0], ZD_E_MCE_LENGTH);
        assert_int_equal(s.err[1], ZD_E_HDR_OVERRUN);
}

/*
 * A range over the whole 32-bit address space, 0x00000000-0xFFFFFFFF, is
 * 2^32 bytes: more than any set holds, so reported and walked as any other
 * range longer than its set, on a 32-bit size_t as on a 64-bit one (there
 * end - start + 1 wrapped to 0: nothing was walked and the records were
 * read as the next MCE).
 */
static void whole_address_space_range(void **state)
{
        (void)state;
        struct vec_seen s;
        struct zd_handler h = seen_handler(&s);
        struct zd_decoder d;
        zd_decoder_init(&d, &h);
        memset(set, 0, sizeof(set));
        vec_mce(set, 0xE2, 0x80, 0, 0x00000000, 0xFFFFFFFF);
        vec_hdr(set + 12, 40, 0, 2, 1);
        vec_hdr(set + 52, 20, 1, 11, 2);
        assert_int_equal(zd_decode_dataset(&d, zd_view_make(set, 72), 0, 0), 2);
        assert_int_equal(s.nerr, 1);
        assert_int_equal(s.err[0], ZD_E_MCE_LENGTH);
        /* its last frame cannot be in the set: cut, though Interval End is there */
        assert_true(zd_dataset_sample_cut(zd_view_make(set, 72)));
        /* a damaged MCE of that range costs the rest of the set, as a longer one must */
        set[0] = 0x00;
        zd_decoder_init(&d, &h);
        s.nerr = 0;
        s.n = 0;
        assert_int_equal(zd_decode_dataset(&d, zd_view_make(set, 72), 0, 0), 0);
        assert_int_equal(s.nerr, 1);
        assert_int_equal(s.err[0], ZD_E_MCE_TYPE);
}

static void short_tail_and_empty(void **state)
{
        (void)state;
        struct vec_seen s;
        struct zd_handler h = seen_handler(&s);
        struct zd_decoder d;
        zd_decoder_init(&d, &h);
        vec_mce(set, 0xE2, 0x80, 0, 0x1000, 0x1000 + 20 - 1);
        vec_hdr(set + 12, 20, 0, 1, 1);
        memset(set + 32, 0xE2, 5); /* 5 stray bytes: not an MCE */
        assert_int_equal(zd_decode_dataset(&d, zd_view_make(set, 37), 0, 0), 1);
        assert_int_equal(s.nerr, 1);
        assert_int_equal(s.err[0], ZD_E_SET_SHORT);
        /* an empty set (invalid MCA: the driver replies at once) is simply empty */
        assert_int_equal(zd_decode_dataset(&d, zd_view_make(set, 0), 1, 0), 0);
        assert_int_equal(s.nerr, 1);
        assert_int_equal(d.st.sets, 2);
}

/*
 * A sample set ends with Interval End in its last frame (monitor-stream.md
 * 3.1); one that does not was cut by the driver.  Frames are 4 KB of DCSS
 * addresses: a range starting at 0x1FEC has 20 bytes in its first frame.
 */
static void a_sample_set_without_interval_end_is_cut(void **state)
{
        (void)state;
        memset(set, 0, sizeof(set));
        /* one frame: a 100-byte record, then Interval End */
        vec_mce(set, 0xE2, 0x80, 0, 0x1000, 0x1000 + 120 - 1);
        vec_hdr(set + 12, 100, 0, 1, 1);
        vec_hdr(set + 112, 20, 1, 11, 1);
        assert_false(zd_dataset_sample_cut(zd_view_make(set, 132)));
        /* the same range ending before Interval End */
        vec_mce(set, 0xE2, 0x80, 0, 0x1000, 0x1000 + 100 - 1);
        assert_true(zd_dataset_sample_cut(zd_view_make(set, 112)));
        /* declared whole but the set ends inside the range: its last frame is lost */
        vec_mce(set, 0xE2, 0x80, 0, 0x1000, 0x1000 + 120 - 1);
        assert_true(zd_dataset_sample_cut(zd_view_make(set, 131)));
        /* an event set has no closing record to miss */
        vec_mce(set, 0xC5, 0x80, 0, 0x1000, 0x1000 + 100 - 1);
        assert_false(zd_dataset_sample_cut(zd_view_make(set, 112)));
        /* nothing at all is not a cut sample set (the reader counts it as empty) */
        assert_false(zd_dataset_sample_cut(zd_view_make(set, 0)));

        /* two frames from 0x1FEC: End-of-Frame fills the first frame's last 20 bytes... */
        memset(set, 0, sizeof(set));
        vec_mce(set, 0xE2, 0x80, 0, 0x1FEC, 0x1FEC + 60 - 1);
        vec_hdr(set + 12, 20, 1, 13, 1);
        vec_hdr(set + 32, 20, 0, 1, 1); /* at 0x2000 */
        vec_hdr(set + 52, 20, 1, 11, 1);
        assert_false(zd_dataset_sample_cut(zd_view_make(set, 72)));
        /* ...an Interval End in an earlier frame does not close the last one */
        vec_hdr(set + 12, 20, 1, 11, 1);
        vec_hdr(set + 52, 20, 0, 1, 1);
        assert_true(zd_dataset_sample_cut(zd_view_make(set, 72)));
        /* a second MCE, sample, whose range ends with Interval End closes the set */
        vec_mce(set + 72, 0xE2, 0x80, 0, 0x3000, 0x3000 + 20 - 1);
        vec_hdr(set + 84, 20, 1, 11, 1);
        assert_false(zd_dataset_sample_cut(zd_view_make(set, 104)));
        /* a header that lies about its length ends the look: not closed */
        vec_hdr(set + 84, 4000, 1, 11, 1);
        assert_true(zd_dataset_sample_cut(zd_view_make(set, 104)));
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(mce_parse_rules),
            cmocka_unit_test(two_pairs),
            cmocka_unit_test(bad_mce_type_skips_its_range),
            cmocka_unit_test(bad_range_ends_set),
            cmocka_unit_test(lying_mce_length),
            cmocka_unit_test(whole_address_space_range),
            cmocka_unit_test(short_tail_and_empty),
            cmocka_unit_test(a_sample_set_without_interval_end_is_cut),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
