/* SPDX-License-Identifier: MIT */
/*
 * zvmsim's DCSS frames and data sets (zvmsim/sim_dcss.c, sim_monwrite.c)
 * checked by hand against the documented rules (doc/facts/monitor-stream.md 3-5):
 * records never cross a 4 KB DCSS frame, a frame that is left early ends with
 * End-of-Frame (D1R13), a sample set ends with Interval End (D1R11), MCE
 * ranges are [start, last byte], and a MONWRITE group is a control record
 * (MCA addresses at +12/+16, entries from +40) and the touched pages in
 * ascending order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sim.h"
#include "vec.h"

static uint32_t rd32(const uint8_t *p)
{
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static uint16_t rd16(const uint8_t *p)
{
        return (uint16_t)(p[0] << 8 | p[1]);
}

struct walked {
        size_t recs, eofs, ends, mces;
        uint16_t last_dom, last_rec;
};

/* Walk a set by the documented rules; fail on any record crossing a frame. */
static struct walked walk(const struct sim_set *s)
{
        struct walked w = {0};
        size_t off = 0;
        while (off < s->len) {
                const uint8_t *m = s->buf + off;
                uint32_t start = rd32(m + 4), end = rd32(m + 8);
                assert_true(m[0] == 0xE2 || m[0] == 0xC5);
                assert_true(m[1] || m[2]);
                assert_true(end > start);
                assert_int_equal(start & 0xFFF, 0); /* ranges start on a frame */
                size_t n = (size_t)end - start + 1;
                assert_true(off + 12 + n <= s->len);
                const uint8_t *r = m + 12;
                size_t p = 0;
                while (p < n) {
                        uint32_t addr = start + (uint32_t)p;
                        size_t frame_left = 4096 - (addr & 0xFFF);
                        uint16_t len = rd16(r + p);
                        assert_true(len >= 20);
                        assert_true(len <= frame_left);
                        assert_int_equal(rd16(r + p + 2), 0);
                        w.recs++;
                        w.last_dom = r[p + 4];
                        w.last_rec = rd16(r + p + 6);
                        if (r[p + 4] == 1 && w.last_rec == 13) {
                                w.eofs++;
                                p += frame_left;
                                continue;
                        }
                        if (r[p + 4] == 1 && w.last_rec == 11)
                                w.ends++;
                        p += len;
                }
                assert_int_equal(p, n); /* the range ends exactly after its last record */
                off += 12 + n;
                w.mces++;
        }
        return w;
}

static struct sim_set *build(struct sim_dcss *d, int area, char type, size_t nrec, size_t len,
                             bool end)
{
        struct sim_sb b;
        sim_sb_begin(&b, d, area, type);
        for (size_t i = 0; i < nrec; i++) {
                uint8_t *p = sim_sb_add(&b, 4, 3, len, VEC_TOD_2026);
                assert_non_null(p);
                memset(p + 20, 0x5A, len - 20);
        }
        return sim_sb_end(&b, end, VEC_TOD_2026);
}

static void test_frames(void **state)
{
        (void)state;
        struct sim_dcss d;
        sim_dcss_init(&d, 0x09000000, 4096);
        /* 1000-byte records: 4 per frame (4 * 1000 + 20 fits, a fifth does not). */
        struct sim_set *s = build(&d, SIM_AREA_SAMPLE, 'S', 10, 1000, true);
        struct walked w = walk(s);
        assert_int_equal(w.mces, 1);
        assert_int_equal(w.eofs, 2);
        assert_int_equal(w.ends, 1);
        assert_int_equal(w.recs, 10 + 2 + 1);
        assert_int_equal(w.last_dom, 1);
        assert_int_equal(w.last_rec, 11);
        assert_int_equal(s->neof, 2);
        /* The domain bits: X'08' = domain 4, X'40' = domain 1 (its control records). */
        assert_int_equal(s->buf[1], 0x08 | 0x40);
        /* Read units: the MCE, then the range. */
        assert_int_equal(s->nends, 2);
        assert_int_equal(s->ends[0], 12);
        assert_int_equal(s->ends[1], s->len);
        sim_set_free(s);

        /* Events: neither End-of-Frame at the end nor Interval End. */
        s = build(&d, SIM_AREA_EVENT, 'E', 3, 500, false);
        w = walk(s);
        assert_int_equal(s->buf[0], 0xC5);
        assert_int_equal(w.eofs, 0);
        assert_int_equal(w.ends, 0);
        assert_int_equal(w.recs, 3);
        sim_set_free(s);
}

static void test_split_and_wrap(void **state)
{
        (void)state;
        struct sim_dcss d;
        sim_dcss_init(&d, 0x09000000, 4096);
        d.max_frames_per_mce = 2;
        /* 9 frames of records in ranges of at most 2 frames: 5 MCEs. */
        struct sim_set *s = build(&d, SIM_AREA_SAMPLE, 'S', 36, 1000, true);
        struct walked w = walk(s);
        assert_int_equal(w.mces, 5);
        assert_int_equal(w.ends, 1);
        assert_int_equal(w.eofs, 8);
        sim_set_free(s);

        /* A small DCSS: the sample area wraps and the set goes on under a new MCE. */
        sim_dcss_init(&d, 0x00400000, 64);
        uint32_t first = d.base + d.area_first[SIM_AREA_SAMPLE] * 4096;
        uint32_t pages = d.area_pages[SIM_AREA_SAMPLE];
        s = build(&d, SIM_AREA_SAMPLE, 'S', 4 * (pages - 2), 1000, true);
        sim_set_free(s);
        s = build(&d, SIM_AREA_SAMPLE, 'S', 4 * 4, 1000, true);
        w = walk(s);
        assert_int_equal(w.mces, 2);
        assert_int_equal(rd32(s->buf + s->mce_off[1] + 4), first);
        sim_set_free(s);
}

static void test_monwrite_group(void **state)
{
        (void)state;
        struct sim_dcss d;
        sim_dcss_init(&d, 0x09000000, 4096);
        d.max_frames_per_mce = 2;
        struct sim_set *s = build(&d, SIM_AREA_SAMPLE, 'S', 12, 1000, true);
        char path[] = "/tmp/test_sim_frames.XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        close(fd);
        struct sim_out *o = sim_out_open(path, false);
        assert_non_null(o);
        assert_int_equal(sim_out_set(o, s), 0);
        assert_int_equal(sim_out_close(o), 0);
        FILE *f = fopen(path, "rb");
        static uint8_t file[64 * 4096];
        size_t n = fread(file, 1, sizeof(file), f);
        fclose(f);
        unlink(path);
        /* 12 records of 1000 bytes: 3 frames, in ranges of 2 frames: 3 page images. */
        assert_int_equal(n % 4096, 0);
        assert_int_equal(n / 4096, 1 + 3);
        assert_true(file[2] != 0 || file[3] != 0); /* IPFLAGS1/IPTYPE: not a record header */
        uint32_t mca_s = rd32(file + 12), mca_e = rd32(file + 16);
        assert_int_equal((mca_e - mca_s + 1) % 12, 0);
        size_t nent = (mca_e - mca_s + 1) / 12;
        assert_int_equal(nent, s->nmce);
        uint32_t prev_page = 0;
        for (size_t i = 0; i < nent; i++) {
                const uint8_t *e = file + 40 + 12 * i;
                assert_memory_equal(e, s->buf + s->mce_off[i], 12);
                uint32_t start = rd32(e + 4), end = rd32(e + 8);
                /* Its bytes sit in the page images at their page offsets. */
                const uint8_t *src = s->buf + s->mce_off[i] + 12;
                for (uint32_t a = start; a <= end; a++) {
                        uint32_t page = a >> 12;
                        size_t idx = 0;
                        /* Pages follow in ascending order: find this one's image. */
                        for (uint32_t pg = rd32(file + 40 + 4) >> 12; pg < page; pg++)
                                idx++;
                        assert_int_equal(file[4096 * (1 + idx) + (a & 0xFFF)], src[a - start]);
                }
                assert_true(start >> 12 >= prev_page);
                prev_page = end >> 12;
        }
        sim_set_free(s);
}

/* The same seed gives the same bytes; another seed does not. */
static void test_deterministic(void **state)
{
        (void)state;
        struct sim_cfg c;
        sim_cfg_default(&c);
        c.interval_ms = 1000;
        struct sim_sys *a = sim_sys_new(&c, NULL), *b = sim_sys_new(&c, NULL);
        c.seed = 2;
        struct sim_sys *x = sim_sys_new(&c, NULL);
        bool differs = false;
        for (int i = 0; i < 5; i++) {
                struct sim_set *sa = sim_sys_interval(a), *sb = sim_sys_interval(b),
                               *sx = sim_sys_interval(x);
                assert_int_equal(sa->len, sb->len);
                assert_memory_equal(sa->buf, sb->buf, sa->len);
                differs |= sa->len != sx->len || memcmp(sa->buf, sx->buf, sa->len) != 0;
                sim_set_free(sa);
                sim_set_free(sb);
                sim_set_free(sx);
        }
        assert_true(differs);
        sim_sys_free(a);
        sim_sys_free(b);
        sim_sys_free(x);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_frames),
            cmocka_unit_test(test_split_and_wrap),
            cmocka_unit_test(test_monwrite_group),
            cmocka_unit_test(test_deterministic),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
