/* SPDX-License-Identifier: MIT */
/*
 * MONWRITE files (doc/facts/monitor-stream.md 5): 4096-byte records; a control
 * record (IBM MWTBK: 40-byte IUCV message-pending buffer with the MCA start
 * at +12 and end at +16, then 12-byte control-area entries at +40) followed
 * by one image per 4 KB DCSS page its ranges touch, ascending.
 */
#include <stdlib.h>

#include "collect.h"
#include "source/source.h"
#include "alloc_wrap.h"

#define BLK 4096
static uint8_t file[16 * BLK];

/* The largest single heap request since armed (alloc_wrap.h): what a claim in a
 * control record made the source reserve. */
static size_t largest_request;
static void alloc_seen(size_t n)
{
        if (n > largest_request)
                largest_request = n;
}

/* Control record with n entries; the MCA address is arbitrary but consistent. */
static void control(uint8_t *b, const uint32_t (*ent)[3], size_t n)
{
        memset(b, 0, BLK);
        b[2] = 0x80; /* IPFLAGS1: data in the parameter list */
        b[3] = 0x09; /* IPTYPE: message pending */
        be32(b + 4, 77);
        be32(b + 12, 0x08FFF000);
        be32(b + 16, 0x08FFF000 + (uint32_t)(12 * n) - 1);
        for (size_t i = 0; i < n; i++) {
                uint8_t *e = b + 40 + 12 * i;
                e[0] = (uint8_t)ent[i][0];
                e[1] = 0x80;
                be32(e + 4, ent[i][1]);
                be32(e + 8, ent[i][2]);
        }
}

static struct zd_stats run(const uint8_t *p, size_t n, size_t chunk, struct vec_seen *s)
{
        struct zd_handler h = seen_handler(s);
        struct zd_stream *st = zd_stream_new(ZD_FMT_MONWRITE, &h);
        assert_non_null(st);
        for (size_t off = 0; off < n; off += chunk)
                assert_int_equal(zd_stream_feed(st, p + off, n - off < chunk ? n - off : chunk), 0);
        zd_stream_finish(st);
        struct zd_stats out = *zd_stream_stats(st);
        zd_stream_free(st);
        return out;
}

/*
 * Group: sample range 0x09000F80..0x09001013 (spans pages 0x9000 and 0x9001),
 * event range 0x09005000..0x09005013 (page 0x9005): three page images.
 */
static size_t one_group(uint8_t *f)
{
        static const uint32_t ent[2][3] = {{0xE2, 0x09000F80, 0x09001013},
                                           {0xC5, 0x09005000, 0x09005013}};
        control(f, ent, 2);
        uint8_t *pg0 = f + BLK, *pg1 = f + 2 * BLK, *pg5 = f + 3 * BLK;
        memset(pg0, 0x5A, BLK); /* bytes outside the ranges are other intervals' leftovers */
        memset(pg1, 0x5A, BLK);
        memset(pg5, 0x5A, BLK);
        vec_hdr(pg0 + 0xF80, 100, 0, 2, 1);
        vec_hdr(pg0 + 0xFE4, 20, 1, 13, 2);   /* End-of-Frame */
        vec_hdr(pg1 + 0x000, 0x14, 1, 11, 3); /* Interval End in the next page */
        vec_hdr(pg5, 20, 2, 3, 4);
        return 4 * BLK;
}

static void pages_order_is_one_function(void **state)
{
        (void)state;
        struct zd_mce m[3] = {{0xE2, 0x80, 0, 0x5000, 0x6FFF},
                              {0xE2, 0x80, 0, 0x1000, 0x1000},
                              {0xC5, 0x80, 0, 0x6800, 0x7010}};
        uint32_t pages[8];
        assert_int_equal(zd_mw_pages(m, 3, pages, 8), 4);
        assert_int_equal(pages[0], 1);
        assert_int_equal(pages[1], 5);
        assert_int_equal(pages[2], 6);
        assert_int_equal(pages[3], 7);
        assert_int_equal(zd_mw_pages(m, 3, pages, 3), -1);
}

/* Ranges in order, two sharing a page (0x6800 is in page 6 like 0x6FFF): it is listed once. */
static void pages_in_order_share_a_page(void **state)
{
        (void)state;
        struct zd_mce m[3] = {{0xE2, 0x80, 0, 0x1000, 0x1000},
                              {0xE2, 0x80, 0, 0x5000, 0x6FFF},
                              {0xC5, 0x80, 0, 0x6800, 0x7010}};
        uint32_t pages[8];
        assert_int_equal(zd_mw_pages(m, 3, pages, 8), 4);
        assert_int_equal(pages[0], 1);
        assert_int_equal(pages[1], 5);
        assert_int_equal(pages[2], 6);
        assert_int_equal(pages[3], 7);
        /* The whole address space is 1,048,576 pages: refused without listing one. */
        struct zd_mce all = {0xE2, 0x80, 0, 0, 0xFFFFFFFF};
        assert_int_equal(zd_mw_pages(&all, 1, pages, 8), -1);
}

static void one_group_decodes(void **state)
{
        (void)state;
        struct vec_seen s;
        size_t n = one_group(file);
        struct zd_stats st = run(file, n, n, &s);
        assert_int_equal(s.nerr, 0);
        assert_int_equal(s.n, 4);
        assert_int_equal(s.dcss[0], 0x09000F80);
        assert_int_equal(s.dcss[2], 0x09001000);
        assert_int_equal(s.rec[2], 11);
        assert_int_equal(s.kind[3], 'E');
        assert_int_equal(s.dcss[3], 0x09005000);
        /* file positions: page images follow the control record */
        assert_int_equal(s.off[0], BLK + 0xF80);
        assert_int_equal(s.off[3], 3 * BLK);
        assert_int_equal(st.sets, 1);
        assert_int_equal(st.intervals, 1);
        assert_int_equal(st.frames, 1);
}

static void byte_by_byte_is_the_same(void **state)
{
        (void)state;
        struct vec_seen a, b;
        size_t n = one_group(file);
        run(file, n, n, &a);
        run(file, n, 1, &b);
        assert_int_equal(a.n, b.n);
        assert_memory_equal(a.dcss, b.dcss, a.n * sizeof(a.dcss[0]));
        assert_memory_equal(a.off, b.off, a.n * sizeof(a.off[0]));
}

static void garbage_between_groups(void **state)
{
        (void)state;
        struct vec_seen s;
        size_t n = one_group(file);
        memset(file + n, 0x33, 2 * BLK); /* two blocks of garbage: one error */
        n += 2 * BLK;
        n += one_group(file + n);
        struct zd_stats st = run(file, n, 1000, &s);
        assert_int_equal(s.n, 8);
        assert_int_equal(s.nerr, 1);
        assert_int_equal(s.err[0], ZD_E_MW_GARBAGE);
        assert_int_equal(st.sets, 2);
        assert_int_equal(s.off[4], (4 + 2 + 1) * BLK + 0xF80);
}

static void truncated_and_odd_size(void **state)
{
        (void)state;
        struct vec_seen s;
        one_group(file);
        /* control record and the first page image only, plus 100 stray bytes */
        struct zd_stats st = run(file, 2 * BLK + 100, 4096, &s);
        assert_int_equal(st.errors[ZD_E_MW_SIZE], 1);
        assert_int_equal(st.errors[ZD_E_MW_TRUNCATED], 1);
        /* the valid part still decodes: the two records of page 0x9000 */
        assert_int_equal(s.n, 2);
        assert_int_equal(s.rec[1], 13);
}

/* A new control record where a page image was expected: the old group was cut short. */
static void group_cut_short_by_next_control(void **state)
{
        (void)state;
        struct vec_seen s;
        static uint8_t grp[4 * BLK];
        size_t n = one_group(grp);
        memcpy(file, grp, 2 * BLK);     /* group 1: control + page 0 only */
        memcpy(file + 2 * BLK, grp, n); /* group 2 in full */
        struct zd_stats st = run(file, 2 * BLK + n, 4096, &s);
        assert_int_equal(st.errors[ZD_E_MW_TRUNCATED], 1);
        assert_int_equal(st.sets, 2);
        assert_int_equal(s.n, 2 + 4);
}

/*
 * Whole blocks are decoded where they lie in the fed bytes, split ones are
 * joined first: a file of a group, garbage, a group cut short and a whole
 * group gives the same records, positions and errors in any chunk size.
 */
static void any_chunk_size_is_the_same(void **state)
{
        (void)state;
        static uint8_t grp[4 * BLK];
        size_t g = one_group(grp), n = 0;
        memcpy(file, grp, g);
        n += g;
        memset(file + n, 0x33, BLK);
        n += BLK;
        memcpy(file + n, grp, 2 * BLK); /* control + the first page image only */
        n += 2 * BLK;
        memcpy(file + n, grp, g);
        n += g;
        struct vec_seen a, b;
        run(file, n, n, &a);
        assert_int_equal(a.n, 4 + 2 + 4);
        assert_int_equal(a.nerr, 2);
        static const size_t chunk[] = {1, 100, 4095, 4096, 4097, 6000, 3 * BLK + 1};
        for (size_t i = 0; i < sizeof(chunk) / sizeof(chunk[0]); i++) {
                run(file, n, chunk[i], &b);
                assert_int_equal(a.n, b.n);
                assert_int_equal(a.nerr, b.nerr);
                assert_memory_equal(a.dcss, b.dcss, a.n * sizeof(a.dcss[0]));
                assert_memory_equal(a.off, b.off, a.n * sizeof(a.off[0]));
                assert_memory_equal(a.rec, b.rec, a.n * sizeof(a.rec[0]));
                assert_memory_equal(a.err, b.err, a.nerr * sizeof(a.err[0]));
        }
}

/*
 * A control record whose one entry covers 0x00000000-0x0FFFFFFF claims 65,536
 * page images (256 MB, the most a group may have); the file then has one image
 * and ends.  Memory must follow the images that came, not the claim, and the
 * cut is still reported.
 */
static void huge_claim_allocates_what_arrives(void **state)
{
        (void)state;
        static const uint32_t ent[1][3] = {{0xE2, 0x00000000, 0x0FFFFFFF}};
        control(file, ent, 1);
        memset(file + BLK, 0, BLK);
        vec_hdr(file + BLK, 40, 0, 2, 1);
        vec_hdr(file + BLK + 40, 20, 1, 13, 2); /* End-of-Frame */
        struct vec_seen s;
        largest_request = 0;
        struct zd_stats st = run(file, 2 * BLK, BLK, &s);
        assert_int_equal(st.errors[ZD_E_MW_CONTROL], 0);
        assert_int_equal(st.errors[ZD_E_MW_TRUNCATED], 1);
        assert_int_equal(s.n, 2);
        assert_int_equal(s.dcss[1], 40);
        /* the fixed page list (65,536 u32) is the largest thing a group may need */
        assert_true(largest_request <= 65536 * sizeof(uint32_t));
}

static void not_a_control_record(void **state)
{
        (void)state;
        static const uint32_t ent[1][3] = {{0xE2, 0x1000, 0x1013}};
        control(file, ent, 1);
        be32(file + 16, 0x08FFF000 + 13); /* MCA of 14 bytes: not whole entries */
        assert_int_equal(zd_source_by_fmt(ZD_FMT_MONWRITE)->detect(zd_view_make(file, BLK)), 0);
        control(file, ent, 1);
        file[40] = 0x00; /* entry type 0 */
        assert_int_equal(zd_source_by_fmt(ZD_FMT_MONWRITE)->detect(zd_view_make(file, BLK)), 0);
        control(file, ent, 1);
        file[2] = file[3] = 0; /* looks like a record header's zeros field */
        assert_int_equal(zd_source_by_fmt(ZD_FMT_MONWRITE)->detect(zd_view_make(file, BLK)), 0);
        control(file, ent, 1);
        assert_true(zd_source_by_fmt(ZD_FMT_MONWRITE)->detect(zd_view_make(file, BLK)) > 50);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(pages_order_is_one_function),
            cmocka_unit_test(pages_in_order_share_a_page),
            cmocka_unit_test(one_group_decodes),
            cmocka_unit_test(byte_by_byte_is_the_same),
            cmocka_unit_test(garbage_between_groups),
            cmocka_unit_test(truncated_and_odd_size),
            cmocka_unit_test(group_cut_short_by_next_control),
            cmocka_unit_test(any_chunk_size_is_the_same),
            cmocka_unit_test(not_a_control_record),
            cmocka_unit_test(huge_claim_allocates_what_arrives),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
