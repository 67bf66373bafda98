/* SPDX-License-Identifier: MIT */
/* AWSTAPE images (src_awstape.c) and detection of every historic format. */
#include "vec_hist.h"

#include "payload/vm370/vm370.h"

/* A VB block of VM/370 records at p: BDW + header + C0C0 (or just C0C0). */
static size_t vm_block(uint8_t *p, bool header, uint64_t t, uint32_t base)
{
        size_t o = 4;
        if (header)
                o += vm_tape_header(p + o, t);
        o += vm_c0c0(p + o, t + 60 * TSEC, base);
        dw(p, (uint16_t)o);
        return o;
}

/* block1 (header, C0C0) | block2 (C0C0) | TM | block3 (C0C0) | TM | TM */
static size_t sample_aws(uint8_t *b)
{
        uint8_t blk[512];
        size_t o = 0, n;
        uint16_t prev = 0;
        n = vm_block(blk, true, T1982, 10);
        o += aws(b + o, (uint16_t)n, prev, 0xA0);
        memcpy(b + o, blk, n);
        o += n;
        prev = (uint16_t)n;
        n = vm_block(blk, false, T1982 + 60 * TSEC, 20);
        o += aws(b + o, (uint16_t)n, prev, 0xA0);
        memcpy(b + o, blk, n);
        o += n;
        prev = (uint16_t)n;
        o += aws(b + o, 0, prev, 0x40);
        n = vm_block(blk, false, T1982 + 120 * TSEC, 30);
        o += aws(b + o, (uint16_t)n, 0, 0xA0);
        memcpy(b + o, blk, n);
        o += n;
        o += aws(b + o, 0, (uint16_t)n, 0x40);
        o += aws(b + o, 0, 0, 0x40);
        return o;
}

static void aws_decodes(void **state)
{
        (void)state;
        uint8_t b[2048];
        size_t n = sample_aws(b);
        struct hseen s;
        struct zd_stats st;
        assert_int_equal(hdecode(ZD_FMT_UNKNOWN, b, n, 0, &s, &st), ZD_FMT_AWSTAPE);
        assert_int_equal(s.nerr, 0);
        assert_int_equal(s.n, 4);
        assert_int_equal(s.num[0], 97);
        for (size_t i = 0; i < 4; i++)
                assert_int_equal(s.fam[i], ZD_FAM_VM370);
        assert_int_equal(s.set[2], 0);
        assert_int_equal(s.set[3], 1); /* after the first tape mark */
        assert_true(s.tod[3] == ((T1982 + 180 * TSEC) & ~UINT64_C(0xFFFF)));
        assert_int_equal(st.tapemarks, 3);
        assert_int_equal(st.blocks, 3);
        assert_int_equal(st.bytes, n);
        assert_int_equal(s.off[0], 6 + 4);
        assert_int_equal(hdecode(ZD_FMT_AWSTAPE, b, n, 1, &s, NULL), ZD_FMT_AWSTAPE);
        assert_int_equal(s.n, 4);
        assert_int_equal(s.nerr, 0);
}

static void segmented_block_and_labels(void **state)
{
        (void)state;
        uint8_t blk[512], b[1024];
        size_t n = vm_block(blk, true, T1982, 1), o = 0;
        /* An 80-byte VOL1 label block first, then the block in two chunks. */
        o += aws(b + o, 80, 0, 0xA0);
        ebc(b + o, "VOL1MON001", 80);
        o += 80;
        o += aws(b + o, 50, 80, 0x80);
        memcpy(b + o, blk, 50);
        o += 50;
        o += aws(b + o, (uint16_t)(n - 50), 50, 0x20);
        memcpy(b + o, blk + 50, n - 50);
        o += n - 50;
        struct hseen s;
        assert_int_equal(hdecode(ZD_FMT_UNKNOWN, b, o, 0, &s, NULL), ZD_FMT_AWSTAPE);
        assert_int_equal(s.nerr, 0);
        assert_int_equal(s.n, 2);
        assert_int_equal(s.num[1], 0);
        /* A continuation without a start: dropped and reported. */
        o = 0;
        o += aws(b + o, (uint16_t)(n - 50), 0, 0x20);
        memcpy(b + o, blk + 50, n - 50);
        o += n - 50;
        hdecode(ZD_FMT_AWSTAPE, b, o, 0, &s, NULL);
        assert_int_equal(s.n, 0);
        assert_int_equal(hseen_count_err(&s, ZD_E_AWS_SEGMENT), 1);
}

static void data_after_eot(void **state)
{
        (void)state;
        uint8_t b[2048], blk[512];
        size_t o = sample_aws(b);
        size_t n = vm_block(blk, false, T1982, 99);
        o += aws(b + o, (uint16_t)n, 0, 0xA0);
        memcpy(b + o, blk, n);
        o += n;
        struct hseen s;
        hdecode(ZD_FMT_AWSTAPE, b, o, 0, &s, NULL);
        assert_int_equal(s.n, 4);
        assert_int_equal(hseen_count_err(&s, ZD_E_TAPE_EOT), 1);
        /* Bytes that are no chunk at all are just as much data after the end. */
        o = sample_aws(b);
        memset(b + o, 0x33, 50);
        hdecode(ZD_FMT_AWSTAPE, b, o + 50, 0, &s, NULL);
        assert_int_equal(s.n, 4);
        assert_int_equal(hseen_count_err(&s, ZD_E_TAPE_EOT), 1);
        assert_int_equal(s.nerr, 1);
}

static void truncated_image(void **state)
{
        (void)state;
        uint8_t b[2048];
        size_t n = sample_aws(b);
        struct hseen s;
        /* Cut inside the second block's data: only the first block's records. */
        size_t first = 6 + 4 + 80 + 96;
        hdecode(ZD_FMT_AWSTAPE, b, first + 6 + 40, 0, &s, NULL);
        assert_int_equal(s.n, 2);
        assert_int_equal(hseen_count_err(&s, ZD_E_VB_TRUNCATED), 1);
        /* Cut inside a header. */
        hdecode(ZD_FMT_AWSTAPE, b, first + 3, 0, &s, NULL);
        assert_int_equal(s.n, 2);
        assert_int_equal(hseen_count_err(&s, ZD_E_VB_TRUNCATED), 1);
        /*
         * Cut inside the first block's second record: the whole record before
         * the cut is delivered, as from a plain tape (historic-formats.md).
         */
        hdecode(ZD_FMT_AWSTAPE, b, 6 + 4 + 80 + 40, 0, &s, NULL);
        assert_int_equal(s.n, 1);
        assert_int_equal(s.num[0], 97);
        assert_int_equal(hseen_count_err(&s, ZD_E_VB_TRUNCATED), 1);
        assert_int_equal(s.nerr, 1);
        /* The same when the block's chunks all arrived but its end-of-block one did not. */
        uint8_t c[1024], blk[512];
        size_t o = 0;
        (void)vm_block(blk, true, T1982, 10);
        o += aws(c + o, 120, 0, 0x80);
        memcpy(c + o, blk, 120);
        o += 120;
        hdecode(ZD_FMT_AWSTAPE, c, o, 0, &s, NULL);
        assert_int_equal(s.n, 1);
        assert_int_equal(s.num[0], 97);
        assert_int_equal(hseen_count_err(&s, ZD_E_VB_TRUNCATED), 1);
        assert_int_equal(s.nerr, 1);
        (void)n;
}

static void damaged_headers(void **state)
{
        (void)state;
        uint8_t b[2048];
        size_t n = sample_aws(b);
        size_t second = 6 + 4 + 80 + 96;
        struct hseen s;
        /* Previous-length chain broken: reported, decoding goes on. */
        b[second + 2] ^= 0x01;
        hdecode(ZD_FMT_AWSTAPE, b, n, 0, &s, NULL);
        assert_int_equal(hseen_count_err(&s, ZD_E_AWS_HEADER), 1);
        assert_int_equal(s.n, 4);
        /* Unknown flag bits: the header is not trusted; scan to the next one. */
        n = sample_aws(b);
        b[second + 4] = 0x0C;
        hdecode(ZD_FMT_AWSTAPE, b, n, 0, &s, NULL);
        assert_int_equal(hseen_count_err(&s, ZD_E_AWS_HEADER), 1);
        assert_int_equal(s.n, 3); /* block 2 lost */
        assert_int_equal(s.set[2], 1);
        /* Compressed (HET) chunk: skipped. */
        n = sample_aws(b);
        b[second + 4] = 0xA1;
        hdecode(ZD_FMT_AWSTAPE, b, n, 0, &s, NULL);
        assert_int_equal(hseen_count_err(&s, ZD_E_AWS_COMPRESSED), 1);
        assert_int_equal(s.n, 3);
}

/*
 * A header whose data has not all arrived is looked at again on the next
 * feed: its broken chain is still one error, whatever the read size, and an
 * image cut inside that chunk reports the chain and the truncation once each.
 */
static void chain_error_once_in_any_read_size(void **state)
{
        (void)state;
        uint8_t b[2048];
        size_t n = sample_aws(b);
        size_t second = 6 + 4 + 80 + 96;
        b[second + 2] ^= 0x01;
        static const size_t step[] = {0, 1, 7, 64, 200};
        for (size_t i = 0; i < sizeof(step) / sizeof(step[0]); i++) {
                struct hseen s;
                hdecode(ZD_FMT_AWSTAPE, b, n, step[i], &s, NULL);
                assert_int_equal(hseen_count_err(&s, ZD_E_AWS_HEADER), 1);
                assert_int_equal(s.nerr, 1);
                assert_int_equal(s.n, 4);
                hdecode(ZD_FMT_AWSTAPE, b, second + 6 + 40, step[i], &s, NULL);
                assert_int_equal(hseen_count_err(&s, ZD_E_AWS_HEADER), 1);
                assert_int_equal(hseen_count_err(&s, ZD_E_VB_TRUNCATED), 1);
                assert_int_equal(s.nerr, 2);
                assert_int_equal(s.n, 2);
        }
}

static void aws_with_cp_records(void **state)
{
        (void)state;
        uint8_t b[512];
        size_t o = aws(b, 4 + 4 + 40, 0, 0xA0);
        dw(b + o, 48);
        dw(b + o + 4, 44);
        vec_hdr(b + o + 8, 40, 1, 4, VEC_TOD_2026);
        o += 48;
        o += aws(b + o, 0, 48, 0x40);
        struct hseen s;
        assert_int_equal(hdecode(ZD_FMT_UNKNOWN, b, o, 0, &s, NULL), ZD_FMT_AWSTAPE);
        assert_int_equal(s.n, 1);
        assert_int_equal(s.fam[0], ZD_FAM_CP);
        assert_int_equal(s.dom[0], 1);
        assert_int_equal(s.num[0], 4);
        assert_int_equal(s.nerr, 0);
}

/*
 * The 4096-byte limit is VM/370 Monitor's; a tape of CP records in VB blocks
 * may use any block size up to 32760 (CA MICS 6.3 says nothing narrower).
 */
static void cp_block_above_4096_is_no_error(void **state)
{
        (void)state;
        static uint8_t b[8192];
        size_t o = aws(b, 4 + 3 * 1604, 0, 0xA0), blk = o;
        dw(b + o, 4 + 3 * 1604);
        o += 4;
        for (int i = 0; i < 3; i++) {
                dw(b + o, 1604);
                vec_hdr(b + o + 4, 1600, 0, 2, VEC_TOD_2026);
                memset(b + o + 24, 0x5A, 1600 - 20);
                o += 1604;
        }
        o += aws(b + o, 0, (uint16_t)(o - blk), 0x40);
        struct hseen s;
        assert_int_equal(hdecode(ZD_FMT_AWSTAPE, b, o, 0, &s, NULL), ZD_FMT_AWSTAPE);
        assert_int_equal(s.n, 3);
        assert_int_equal(s.fam[0], ZD_FAM_CP);
        assert_int_equal(s.nerr, 0);
}

/* Each format's sample is detected as itself, and the others' are not taken for ours. */
static void detection(void **state)
{
        (void)state;
        static uint8_t b[16384];
        size_t n;
        /* AWSTAPE */
        n = sample_aws(b);
        assert_ptr_equal(zd_source_detect(zd_view_make(b, n)), zd_source_by_fmt(ZD_FMT_AWSTAPE));
        /* Plain tape, blocked */
        n = vm_block(b, true, T1982, 1);
        n += vm_block(b + n, false, T1982, 2);
        assert_ptr_equal(zd_source_detect(zd_view_make(b, n)), zd_source_by_fmt(ZD_FMT_TAPE));
        /* VB, unblocked and blocked */
        dw(b, 44);
        vec_hdr(b + 4, 40, 1, 4, VEC_TOD_2026);
        dw(b + 44, 44);
        vec_hdr(b + 48, 40, 0, 2, VEC_TOD_2026);
        assert_ptr_equal(zd_source_detect(zd_view_make(b, 88)), zd_source_by_fmt(ZD_FMT_VB));
        memmove(b + 4, b, 88);
        dw(b, 92);
        assert_ptr_equal(zd_source_detect(zd_view_make(b, 92)), zd_source_by_fmt(ZD_FMT_VB));
        /* A raw data set: MCE then a D1R4 record. */
        memset(b, 0, sizeof(b));
        vec_mce(b, ZD_MCE_SAMPLE, 0x40, 0, 0x1000, 0x1000 + 39);
        vec_hdr(b + 12, 40, 1, 4, VEC_TOD_2026);
        assert_ptr_equal(zd_source_detect(zd_view_make(b, 52)), zd_source_by_fmt(ZD_FMT_DATASET));
        /* A MONWRITE control record (flags in bytes 2-3, one entry) and its page. */
        memset(b, 0, sizeof(b));
        b[2] = 0x80;
        b[3] = 0x01;
        be32(b + 12, 0x100);
        be32(b + 16, 0x100 + 11);
        vec_mce(b + 40, ZD_MCE_SAMPLE, 0x40, 0, 0x2000, 0x2000 + 39);
        vec_hdr(b + 4096, 40, 1, 4, VEC_TOD_2026);
        assert_ptr_equal(zd_source_detect(zd_view_make(b, 8192)),
                         zd_source_by_fmt(ZD_FMT_MONWRITE));
        /* A capture file. */
        memcpy(b, ZD_CAP_MAGIC, 8);
        assert_ptr_equal(zd_source_detect(zd_view_make(b, 64)), zd_source_by_fmt(ZD_FMT_CAPTURE));
        /* Noise is nobody's. */
        for (size_t i = 0; i < 4096; i++)
                b[i] = (uint8_t)(i * 131 + 7);
        const struct zd_source_ops *o = zd_source_detect(zd_view_make(b, 4096));
        assert_true(o == NULL ||
                    (o->fmt != ZD_FMT_VB && o->fmt != ZD_FMT_TAPE && o->fmt != ZD_FMT_AWSTAPE));
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(aws_decodes),
            cmocka_unit_test(segmented_block_and_labels),
            cmocka_unit_test(data_after_eot),
            cmocka_unit_test(truncated_image),
            cmocka_unit_test(damaged_headers),
            cmocka_unit_test(chain_error_once_in_any_read_size),
            cmocka_unit_test(aws_with_cp_records),
            cmocka_unit_test(cp_block_above_4096_is_no_error),
            cmocka_unit_test(detection),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
