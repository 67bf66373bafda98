/* SPDX-License-Identifier: MIT */
/* Variable-record (VB) files of CP monitor records (src_vb.c). */
#include "vec_hist.h"

#define T VEC_TOD_2026

/* Three CP records: D1R4, D0R2 (60 bytes), D1R11 Interval End, each after an RDW. */
static size_t cp_records(uint8_t *b, bool bdw, bool rdw_prepended)
{
        static const struct {
                uint8_t dom;
                uint16_t num, len;
        } r[] = {{1, 4, 40}, {0, 2, 60}, {1, 11, 28}};
        size_t o = bdw ? 4 : 0;
        for (size_t i = 0; i < 3; i++) {
                if (bdw && i == 2) { /* the third record in a second block */
                        dw(b, (uint16_t)o);
                        dw(b + o, (uint16_t)(4 + (rdw_prepended ? 4 : 0) + r[i].len));
                        o += 4;
                }
                if (rdw_prepended) {
                        dw(b + o, (uint16_t)(r[i].len + 4));
                        o += 4;
                }
                vec_hdr(b + o, r[i].len, r[i].dom, r[i].num, T + i * 4096);
                memset(b + o + 20, 0x5A, r[i].len - 20u);
                o += r[i].len;
        }
        return o;
}

static void check_cp(const struct hseen *s)
{
        assert_int_equal(s->n, 3);
        assert_int_equal(s->dom[0], 1);
        assert_int_equal(s->num[0], 4);
        assert_int_equal(s->len[1], 60);
        assert_int_equal(s->num[2], 11);
        assert_int_equal(s->fam[1], ZD_FAM_CP);
        assert_true(s->tod[2] == T + 2 * 4096);
        assert_int_equal(s->nint, 1);
        assert_int_equal(s->nerr, 0);
}

static void unblocked(void **state)
{
        (void)state;
        uint8_t b[512];
        size_t n = cp_records(b, false, true);
        struct hseen s;
        struct zd_stats st;
        assert_int_equal(hdecode(ZD_FMT_UNKNOWN, b, n, 0, &s, &st), ZD_FMT_VB);
        check_cp(&s);
        assert_int_equal(s.off[0], 4);
        assert_int_equal(st.by_rec[0][2], 1);
        assert_int_equal(st.intervals, 1);
        assert_int_equal(st.records, 3);
        assert_int_equal(st.bytes, n);
        assert_int_equal(hdecode(ZD_FMT_VB, b, n, 3, &s, NULL), ZD_FMT_VB);
        check_cp(&s);
}

static void blocked(void **state)
{
        (void)state;
        uint8_t b[512];
        size_t n = cp_records(b, true, true);
        struct hseen s;
        struct zd_stats st;
        assert_int_equal(hdecode(ZD_FMT_UNKNOWN, b, n, 0, &s, &st), ZD_FMT_VB);
        check_cp(&s);
        assert_int_equal(st.blocks, 2);
        assert_int_equal(s.off[0], 8);
        assert_int_equal(hdecode(ZD_FMT_VB, b, n, 1, &s, NULL), ZD_FMT_VB);
        check_cp(&s);
}

static void header_is_rdw(void **state)
{
        (void)state;
        uint8_t b[512];
        size_t n = cp_records(b, false, false);
        struct hseen s;
        assert_int_equal(hdecode(ZD_FMT_UNKNOWN, b, n, 0, &s, NULL), ZD_FMT_VB);
        check_cp(&s);
        assert_int_equal(s.off[0], 0);
        n = cp_records(b, true, false);
        assert_int_equal(hdecode(ZD_FMT_UNKNOWN, b, n, 0, &s, NULL), ZD_FMT_VB);
        check_cp(&s);
}

static void truncated(void **state)
{
        (void)state;
        uint8_t b[512];
        size_t n = cp_records(b, false, true);
        struct hseen s;
        hdecode(ZD_FMT_VB, b, n - 5, 0, &s, NULL);
        assert_int_equal(s.n, 2);
        assert_int_equal(hseen_count_err(&s, ZD_E_VB_TRUNCATED), 1);
        n = cp_records(b, true, true);
        hdecode(ZD_FMT_VB, b, n - 5, 0, &s, NULL);
        assert_int_equal(s.n, 2);
        assert_int_equal(hseen_count_err(&s, ZD_E_VB_TRUNCATED), 1);
        hdecode(ZD_FMT_VB, b, 2, 0, &s, NULL);
        assert_int_equal(s.n, 0);
        assert_int_equal(hseen_count_err(&s, ZD_E_VB_TRUNCATED), 1);
}

static void lying_rdw_resyncs(void **state)
{
        (void)state;
        uint8_t b[512];
        size_t n = cp_records(b, false, true);
        b[44 + 2] = 0xFF; /* second RDW: low half not zero */
        struct hseen s;
        hdecode(ZD_FMT_VB, b, n, 0, &s, NULL);
        assert_int_equal(hseen_count_err(&s, ZD_E_VB_RDW), 1);
        assert_int_equal(s.n, 2);
        assert_int_equal(s.num[1], 11);
        /* An RDW that is shorter than its record: the record header lies. */
        n = cp_records(b, false, true);
        dw(b + 44, 30);
        hdecode(ZD_FMT_VB, b, n, 0, &s, NULL);
        assert_true(s.nerr >= 1);
        assert_int_equal(s.num[s.n - 1], 11);
        for (size_t i = 0; i < s.n; i++)
                assert_true(s.len[i] != 60); /* nothing partial */
}

static void lying_bdw(void **state)
{
        (void)state;
        uint8_t b[512];
        size_t n = cp_records(b, true, true);
        dw(b, 40000); /* above 32760 */
        struct hseen s;
        hdecode(ZD_FMT_VB, b, n, 0, &s, NULL);
        /*
         * The damaged BDW costs what lies before the next plausible start: here
         * the first record's own header, read as a block of one record.
         */
        assert_int_equal(hseen_count_err(&s, ZD_E_VB_BDW), 1);
        assert_int_equal(s.num[s.n - 1], 11);
        for (size_t i = 0; i < s.n; i++)
                assert_int_equal(s.fam[i], ZD_FAM_CP);
        assert_true(s.n >= 1 && s.n <= 3);
}

static void zero_padding_is_quiet(void **state)
{
        (void)state;
        uint8_t b[1024] = {0};
        size_t n = cp_records(b, false, true);
        struct hseen s;
        hdecode(ZD_FMT_VB, b, n + 300, 0, &s, NULL);
        check_cp(&s);
}

/*
 * Blocked or not is judged on the first 16 KB, however much input has
 * arrived when the engine decides: the same file decodes the same in any
 * read size.  The file reads equally well both ways for its first 17600
 * bytes (an RDW before a record whose MRHDRLEN is its own RDW is also a
 * block of one record), then as blocks only.
 */
static void framing_decided_on_the_same_bytes(void **state)
{
        (void)state;
        static uint8_t b[20000];
        size_t o = 0;
        for (int i = 0; i < 400; i++) {
                dw(b + o, 44);
                vec_hdr(b + o + 4, 40, 1, 4, T);
                o += 44;
        }
        for (int i = 0; i < 3; i++) {
                dw(b + o, 4 + 44 + 44);
                dw(b + o + 4, 44);
                vec_hdr(b + o + 8, 40, 0, 2, T);
                dw(b + o + 48, 44);
                vec_hdr(b + o + 52, 40, 0, 2, T);
                o += 92;
        }
        static struct hseen whole, piece;
        hdecode(ZD_FMT_VB, b, o, 0, &whole, NULL);
        static const size_t step[] = {1, 4096, 5000};
        for (size_t i = 0; i < sizeof(step) / sizeof(step[0]); i++) {
                hdecode(ZD_FMT_VB, b, o, step[i], &piece, NULL);
                assert_int_equal(piece.n, whole.n);
                assert_int_equal(piece.nerr, whole.nerr);
                assert_memory_equal(piece.off, whole.off, whole.n * sizeof(whole.off[0]));
                assert_memory_equal(piece.num, whole.num, whole.n * sizeof(whole.num[0]));
                assert_memory_equal(piece.err, whole.err, whole.nerr * sizeof(whole.err[0]));
        }
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(unblocked),
            cmocka_unit_test(blocked),
            cmocka_unit_test(header_is_rdw),
            cmocka_unit_test(truncated),
            cmocka_unit_test(lying_rdw_resyncs),
            cmocka_unit_test(lying_bdw),
            cmocka_unit_test(zero_padding_is_quiet),
            cmocka_unit_test(framing_decided_on_the_same_bytes),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
