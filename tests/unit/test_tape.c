/* SPDX-License-Identifier: MIT */
/* VM/370 Monitor tapes as plain concatenated VB blocks (src_tape.c). */
#include "vec_hist.h"

#include "payload/vm370/vm370.h"

/* Block 1: header + C0C0; block 2: C0C0 + suspension; block 3: trailer. */
static size_t sample_tape(uint8_t *b)
{
        size_t o = 0, s;
        s = o;
        o += 4;
        o += vm_tape_header(b + o, T1982);
        o += vm_c0c0(b + o, T1982 + 60 * TSEC, 100);
        dw(b + s, (uint16_t)(o - s));
        s = o;
        o += 4;
        o += vm_c0c0(b + o, T1982 + 120 * TSEC, 200);
        o += vm_suspend(b + o, T1982 + 130 * TSEC, T1982 + 125 * TSEC, 3);
        dw(b + s, (uint16_t)(o - s));
        s = o;
        o += 4;
        o += vm_trailer(b + o, T1982 + 180 * TSEC);
        dw(b + s, (uint16_t)(o - s));
        return o;
}

static void check_sample(const struct hseen *s)
{
        static const uint16_t codes[] = {97, 0, 0, 99, 98};
        static const uint64_t secs[] = {0, 60, 120, 130, 180};
        assert_int_equal(s->n, 5);
        for (size_t i = 0; i < 5; i++) {
                assert_int_equal(s->fam[i], ZD_FAM_VM370);
                assert_int_equal(s->dom[i], 0);
                assert_int_equal(s->num[i], codes[i]);
                /* 16-microsecond resolution: the low 16 bits of the TOD are lost. */
                assert_true(s->tod[i] == ((T1982 + secs[i] * TSEC) & ~UINT64_C(0xFFFF)));
        }
        assert_int_equal(s->len[0], 80);
        assert_int_equal(s->off[0], 4);
        assert_int_equal(s->off[1], 84);
}

static void plain_tape_decodes(void **state)
{
        (void)state;
        uint8_t b[1024];
        size_t n = sample_tape(b);
        struct hseen s;
        struct zd_stats st;
        assert_int_equal(hdecode(ZD_FMT_TAPE, b, n, 0, &s, &st), ZD_FMT_TAPE);
        check_sample(&s);
        assert_int_equal(s.nerr, 0);
        assert_int_equal(st.records, 5);
        assert_int_equal(st.blocks, 3);
        assert_int_equal(st.bytes, n);
        assert_int_equal(st.by_vm370[0][0], 2);
        assert_int_equal(st.by_vm370[0][97], 1);
        assert_int_equal(st.by_rec[0][0], 0); /* VM/370 records are not CP domain 0 */
        assert_int_equal(st.unknown_domain, 0);
}

static void detected_and_fed_bytewise(void **state)
{
        (void)state;
        uint8_t b[1024];
        size_t n = sample_tape(b);
        struct hseen s;
        assert_int_equal(hdecode(ZD_FMT_UNKNOWN, b, n, 1, &s, NULL), ZD_FMT_TAPE);
        check_sample(&s);
        assert_int_equal(s.nerr, 0);
        assert_int_equal(hdecode(ZD_FMT_TAPE, b, n, 7, &s, NULL), ZD_FMT_TAPE);
        check_sample(&s);
}

static void unblocked_tape(void **state)
{
        (void)state;
        uint8_t b[512];
        size_t o = 0;
        o += vm_tape_header(b + o, T1982);
        o += vm_c0c0(b + o, T1982 + 60 * TSEC, 1);
        o += vm_trailer(b + o, T1982 + 90 * TSEC);
        struct hseen s;
        assert_int_equal(hdecode(ZD_FMT_UNKNOWN, b, o, 0, &s, NULL), ZD_FMT_TAPE);
        assert_int_equal(s.n, 3);
        assert_int_equal(s.num[2], 98);
        assert_int_equal(s.nerr, 0);
}

static void truncated_block(void **state)
{
        (void)state;
        uint8_t b[1024];
        size_t n = sample_tape(b);
        /* Cut inside the suspension record of block 2 (block 2 starts at 180). */
        size_t cut = 180 + 4 + 96 + 10;
        struct hseen s;
        struct zd_stats st;
        hdecode(ZD_FMT_TAPE, b, cut, 0, &s, &st);
        (void)n;
        assert_int_equal(s.n, 3); /* header, C0C0, C0C0: nothing partial */
        assert_int_equal(hseen_count_err(&s, ZD_E_VB_TRUNCATED), 1);
        assert_int_equal(s.nerr, 1);
        assert_int_equal(st.bytes, cut);
}

static void lying_bdw_resyncs(void **state)
{
        (void)state;
        uint8_t b[1024];
        size_t n = sample_tape(b);
        b[180 + 2] = 0x12; /* block 2's BDW low half not zero */
        struct hseen s;
        hdecode(ZD_FMT_TAPE, b, n, 0, &s, NULL);
        assert_int_equal(hseen_count_err(&s, ZD_E_VB_BDW), 1);
        /* Block 1 and block 3 survive; block 2 is lost. */
        assert_int_equal(s.n, 3);
        assert_int_equal(s.num[2], 98);
}

static void lying_rdw(void **state)
{
        (void)state;
        uint8_t b[1024];
        size_t n = sample_tape(b);
        be16(b + 184, 2000); /* first RDW of block 2 runs past the block */
        struct hseen s;
        hdecode(ZD_FMT_TAPE, b, n, 0, &s, NULL);
        assert_int_equal(hseen_count_err(&s, ZD_E_VB_RDW), 1);
        assert_int_equal(s.n, 3);
        assert_int_equal(s.num[2], 98);
        /* Too short for the 12-byte header, framing intact. */
        n = sample_tape(b);
        uint8_t c[1100];
        memcpy(c, b, 180);
        dw(c + 180, 4 + 8 + 21);
        dw(c + 184, 8);
        memset(c + 188, 0, 4);
        vm_suspend(c + 192, T1982, T1982, 1);
        hdecode(ZD_FMT_TAPE, c, 213, 0, &s, NULL);
        assert_int_equal(hseen_count_err(&s, ZD_E_VB_RECORD), 1);
        assert_int_equal(s.n, 3);
        assert_int_equal(s.num[2], 99);
}

static void oversize_block_reported(void **state)
{
        (void)state;
        static uint8_t b[8192];
        size_t o = 4;
        o += vm_tape_header(b + o, T1982);
        for (int i = 0; i < 50; i++)
                o += vm_c0c0(b + o, T1982 + (uint64_t)i * TSEC, (uint32_t)i);
        dw(b, (uint16_t)o);
        struct hseen s;
        hdecode(ZD_FMT_TAPE, b, o, 0, &s, NULL);
        assert_true(o > ZD_VM370_MAX_BLOCK);
        assert_int_equal(hseen_count_err(&s, ZD_E_TAPE_BLOCK), 1);
        assert_int_equal(s.n, 51);
}

static void no_header_no_time(void **state)
{
        (void)state;
        uint8_t b[256];
        size_t o = 4;
        o += vm_c0c0(b + o, T1982, 5);
        dw(b, (uint16_t)o);
        struct hseen s;
        hdecode(ZD_FMT_TAPE, b, o, 0, &s, NULL);
        assert_int_equal(s.n, 1);
        assert_true(s.tod[0] == 0); /* the dropped TOD byte cannot be known */
}

/*
 * One block of every record kind the manuals map (a long class 0 code 0,
 * code 1, classes 1, 4, 5, 6, 7 and 8): each delivered whole with its class,
 * code and length, counted by class and code, and read by its layout.
 */
static void every_class_decodes(void **state)
{
        (void)state;
        uint8_t b[1024];
        static const uint16_t addr[] = {0x0190};
        static const uint32_t io[] = {9};
        static const uint32_t cnt[] = {1, 2, 3};
        size_t o = 4;
        o += vm_tape_header(b + o, T1982);
        o += vm_c0c0_long(b + o, T1982 + TSEC, 1, 138);
        o += vm_c0c1(b + o, T1982 + TSEC, 1);
        o += vm_c1(b + o, 2, T1982 + TSEC, "JOHN", 0x0061, "LISTFILE");
        o += vm_hdr(b + o, 84, 4, 0, T1982 + TSEC);
        o += vm_hdr(b + o, 36, 5, 0, T1982 + TSEC);
        o += vm_c6(b + o, 0, T1982 + TSEC, 1, 1, addr, io);
        o += vm_c7(b + o, T1982 + TSEC);
        o += vm_c8(b + o, T1982 + TSEC, 3, cnt);
        dw(b, (uint16_t)o);
        struct hseen s;
        struct zd_stats st;
        assert_int_equal(hdecode(ZD_FMT_TAPE, b, o, 7, &s, &st), ZD_FMT_TAPE);
        assert_int_equal(s.nerr, 0);
        static const uint8_t cls[] = {0, 0, 0, 1, 4, 5, 6, 7, 8};
        static const uint16_t code[] = {97, 0, 1, 2, 0, 0, 0, 0, 2};
        static const uint16_t len[] = {80, 138, 120, 31, 84, 36, 28, 30, 26};
        assert_int_equal(s.n, 9);
        for (size_t i = 0; i < 9; i++) {
                assert_int_equal(s.fam[i], ZD_FAM_VM370);
                assert_int_equal(s.dom[i], cls[i]);
                assert_int_equal(s.num[i], code[i]);
                assert_int_equal(s.len[i], len[i]);
                assert_non_null(zd_vm370_layout(cls[i], code[i], len[i]));
                assert_int_equal(st.by_vm370[cls[i]][code[i]], 1);
        }
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(plain_tape_decodes),      cmocka_unit_test(detected_and_fed_bytewise),
            cmocka_unit_test(unblocked_tape),          cmocka_unit_test(truncated_block),
            cmocka_unit_test(lying_bdw_resyncs),       cmocka_unit_test(lying_rdw),
            cmocka_unit_test(oversize_block_reported), cmocka_unit_test(no_header_no_time),
            cmocka_unit_test(every_class_decodes),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
