/* SPDX-License-Identifier: MIT */
/*
 * The provenance audit of the HINT layouts (issue 16, doc/facts/cp-records.md
 * section 17): each correction with a vector written by hand from the
 * stated source, and the laws that guard the new metrics.
 */
#include "cp_feed.h"

#define T0 VEC_TOD_2026

static uint8_t rec[1024];

static const char *src(int dom, int num, size_t len, const char *name)
{
        const struct zl_field *f = zl_field(zl_find_cp(dom, num, len), name);
        if (!f)
                fail_msg("no field %s in D%dR%d of %zu bytes", name, dom, num, len);
        return f->source;
}

/* zpmd's two ages in the source string of every HINT field (section 17). */
static void provenance_by_age(void **state)
{
        (void)state;
        /* records zpmd's 2009 main.c decodes */
        assert_string_equal(src(0, 3, 224, "SYTRSG_RSAAVAIL"), "zpmd 2009 (live 5.3)");
        assert_string_equal(src(1, 5, 44, "MTRPRP_PFXCPUTY"), "zpmd 2009 (live 5.3)");
        assert_string_equal(src(5, 3, 384, "PRCPRP_HFCOUNT"), "zpmd 2009 (live 5.3)");
        assert_string_equal(src(6, 14, 68, "IODMOF_SCMDDTIM"), "zpmd 2009 (live 5.3)");
        /* a 2009 struct its code never reads */
        assert_string_equal(src(1, 4, 184, "MTRSYS_SYSTMID"), "zpmd 2009");
        assert_string_equal(src(0, 2, 352, "SYTPRP_PFXTOTWT"), "zpmd 2009");
        /* the 2023 reconstruction, marked TODO */
        assert_non_null(
            strstr(src(0, 8, 100, "SYTUSR_SYSDIALD"), "zpmd 2023 reconstruction (TODO)"));
        assert_non_null(
            strstr(src(0, 16, 64, "SYTCUP_CALCPUOF"), "zpmd 2023 reconstruction (TODO)"));
        assert_non_null(
            strstr(src(6, 3, 202, "IODDEV_RDEVDEV"), "zpmd 2023 reconstruction (TODO)"));
        assert_non_null(
            strstr(src(4, 3, 508, "USEACT_VMDTTIME"), "zpmd 2023 reconstruction (TODO)"));
        assert_non_null(
            strstr(src(10, 2, 52, "APLSDT_CALDATOF"), "zpmd 2023 reconstruction (TODO)"));
        /* VNDSES: "not tested" in both ages */
        assert_string_equal(src(8, 1, 316, "VNDSES_SESTXBYT"), "zpmd, untested by its author");
        /* USEACT's resource block comes from a USEATE struct 8+ bytes longer than IBM's 352 */
        const char *a = src(4, 3, 508, "USEACT_VMDCTPVR");
        assert_non_null(strstr(a, "USEATE"));
        assert_non_null(strstr(a, "352"));
        /* a verified field keeps its IBM page */
        assert_string_equal(src(0, 2, 352, "SYTPRP_PFXUTIME"), "IBM mon640 MRSYTPRP");
}

/* MTRSYS 148-151 follow SYSIB 2.2.2: LPAR number (2), reserved (1), characteristics (1). */
static void mtrsys_cpuchar(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 184, 1, 4, T0);
        rec[148] = 0x00;
        rec[149] = 0x07; /* LPAR number 7 */
        rec[150] = 0xEE; /* reserved: must not be read as CPUCHAR */
        rec[151] = 0x80; /* characteristics */
        rec[152] = 0x00;
        rec[153] = 0x06; /* CPU count */
        const struct zl_layout *l = zl_find_cp(1, 4, 184);
        assert_int_equal(getu(l, rec, 184, "MTRSYS_LPNUMBER"), 7);
        assert_int_equal(getu(l, rec, 184, "MTRSYS_CPUCHAR"), 0x80);
        assert_int_equal(getu(l, rec, 184, "MTRSYS_CPUCOUNT"), 6);
        assert_int_equal(zl_field(l, "MTRSYS_CPUCHAR")->off, 151);
}

/* SYTRSG is 604 bytes at z/VM 7.5 (mon750, offset 20 reserved): a level of its own. */
static void sytrsg_604(void **state)
{
        (void)state;
        const struct zl_layout *l = zl_find_cp(0, 3, 604);
        assert_non_null(l);
        assert_int_equal(l->min_len, 604);
        assert_non_null(strstr(l->level, "7.5"));
        const struct zl_field *f = &l->fields[0];
        assert_int_equal(f->off, 20);
        assert_int_equal(f->type, ZL_RSVD);
        assert_int_equal(f->prov, ZL_VERIFIED);
        assert_string_equal(f->source, "IBM mon750 MRSYTRSG");
        /* the hints are read from a 7.5-sized record like from any other */
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 604, 0, 3, T0);
        rec[48 + 3] = 200; /* RSAPGABL */
        rec[52 + 3] = 50;  /* RSAAVAIL */
        assert_int_equal(getu(l, rec, 604, "SYTRSG_RSAPGABL"), 200);
        assert_int_equal(getu(l, rec, 604, "SYTRSG_RSAAVAIL"), 50);
        /* 224 .. 603 keep the 5.2 layout */
        assert_int_equal(zl_find_cp(0, 3, 603)->min_len, 224);
}

/*
 * D0R16 SYTCUP of partition LPAR1, fixed part 64, one entry of ln bytes at
 * 64 (CALCPUOF 64, CALCPULN ln): +0 CPUID, +6 LCUCACTM (dispatch with LPAR
 * management), +14 LCUCLPTM (without it) when the entry reaches it.  The
 * 8 bytes after the record are set, so that a read past it would show.
 */
static void sytcup(struct feed *f, uint64_t tod, unsigned ln, uint64_t actm, uint64_t lptm)
{
        size_t len = 64 + ln;
        memset(f->buf, 0, len + 8);
        vec_hdr(f->buf, (uint16_t)len, 0, 16, tod);
        ebc(f->buf + 20, "LPAR1", 8);
        f->buf[30] = 1;
        f->buf[33] = 64;
        f->buf[35] = (uint8_t)ln;
        be64(f->buf + 64 + 6, actm);
        if (ln >= 22)
                be64(f->buf + 64 + 14, lptm);
        be64(f->buf + len, UINT64_C(0x0101010101010101));
        feed_rec(f, len);
}

/*
 * Entries of 14 bytes (CALCPULN 14, the least accepted): CPUID and
 * LCUCACTM, no LCUCLPTM.  The entry is shorter than its layout, so the
 * engine reads it field by field: the dispatch time is published, the
 * management time (which needs LCUCLPTM) is not, and nothing is read past
 * the entry.
 */
static void lpar_short_entries(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 2);
        for (unsigned i = 0; i < 3; i++) {
                uint64_t tod = T0 + SEC(60) * i;
                feed_sytprp(f, tod, 0, UINT64_C(0x7FFFFFFF00000000), US(20000000ull * i),
                            US(5000000ull * i), 0);
                sytcup(f, tod, 14, US(30000000ull * i), 0);
                feed_end(f, tod + SEC(1));
        }
        assert_true(zm_law_status(f->e, "lpar")->on);
        const struct zm_metric *m = feed_find(f, 0, "lpar-LPAR1", "percent", "cpu0");
        assert_non_null(m);
        assert_true(m->gauge[0] > 49.9 && m->gauge[0] < 50.1);
        assert_null(feed_find(f, 0, "lpar-LPAR1", "percent", "cpu0-management"));
        feed_free(f);
}

static void lpar_management(void **state)
{
        (void)state;
        const struct zl_layout *el = zl_find("D0R16.CPU", 40);
        assert_null(strstr(zl_field(el, "SYTCUP_LCUCLPTM")->desc, "management time"));
        struct feed *f = feed_new(-1, 2);
        for (unsigned i = 0; i < 3; i++) {
                uint64_t tod = T0 + SEC(60) * i;
                feed_sytprp(f, tod, 0, UINT64_C(0x7FFFFFFF00000000), US(20000000ull * i),
                            US(5000000ull * i), 0);
                /* 30 s dispatched per 60 s, of which 0.6 s LPAR management */
                sytcup(f, tod, 40, US(30000000ull * i), US(29400000ull * i));
                feed_end(f, tod + SEC(1));
        }
        assert_true(zm_law_status(f->e, "lpar")->on);
        const struct zm_metric *m = feed_find(f, 0, "lpar-LPAR1", "percent", "cpu0-management");
        assert_non_null(m);
        assert_true(m->gauge[0] > 0.99 && m->gauge[0] < 1.01);
        /* without management more than with it: management negative, the law breaks */
        sytcup(f, T0 + SEC(180), 40, US(90000000ull), US(29400000ull * 2 + 31000000ull));
        feed_end(f, T0 + SEC(181));
        assert_false(zm_law_status(f->e, "lpar")->on);
        assert_true(feed_logged(f, "LPAR1/0: time without LPAR management"));
        feed_free(f);
}

/*
 * D6R3 IODDEV (zpmd +20): 52 SCMSSCH (2), 56 SCMCNTIM, 60 SCMFPTIM, 64
 * SCMDDTIM, 160 SCMDATIM (4 each, 128 us units), 192 SCGSSCH (4), 200
 * RDEVDEV (2).
 */
static void ioddev_t(struct feed *f, uint64_t tod, uint32_t ssch, uint32_t conn, uint32_t pend,
                     uint32_t disc, uint32_t dao)
{
        memset(f->buf, 0, 240);
        vec_hdr(f->buf, 240, 6, 3, tod);
        be16(f->buf + 52, (uint16_t)ssch);
        be32(f->buf + 56, conn);
        be32(f->buf + 60, pend);
        be32(f->buf + 64, disc);
        be32(f->buf + 160, dao);
        be32(f->buf + 192, ssch);
        be16(f->buf + 200, 0x0300);
        feed_rec(f, 240);
}

static void device_time(void **state)
{
        (void)state;
        const struct zl_layout *l = zl_find_cp(6, 3, 240);
        assert_string_equal(zl_field(l, "IODDEV_SCMCNTIM")->unit, "128us");
        struct feed *f = feed_new(-1, 2);
        for (unsigned i = 0; i < 3; i++) {
                uint64_t tod = T0 + SEC(60) * i;
                feed_sytsyp(f, tod, 0, 0, 10000 * i, 0, 0);
                /* per 60 s: 10000 SSCH, 100000 units = 12.8 s connect, 2.56 s
                 * pending, 3.84 s disconnect, 1.28 s device-active-only */
                ioddev_t(f, tod, 10000 * i, 100000 * i, 20000 * i, 30000 * i, 10000 * i);
                feed_end(f, tod + SEC(1));
        }
        assert_true(zm_law_status(f->e, "device-time")->on);
        const struct zm_metric *m = feed_find(f, 0, "device-0300", "total_time_in_ms", "connect");
        assert_non_null(m);
        assert_int_equal(m->derive[0], 2 * 12800); /* two intervals of deltas, in ms */
        m = feed_find(f, 0, "device-0300", "total_time_in_ms", "device-active");
        assert_non_null(m);
        assert_int_equal(m->derive[0], 2 * 1280);
        /* the same counts read as microseconds would be 128 times too small: as 128 us
         * units they say 80 s of connect time in 60 s, and the law breaks */
        ioddev_t(f, T0 + SEC(180), 40000, 200000 + 625000, 60000, 90000, 30000);
        feed_end(f, T0 + SEC(181));
        assert_false(zm_law_status(f->e, "device-time")->on);
        assert_true(feed_logged(f, "device 0300: service time"));
        feed_free(f);
}

/* Busy within elapsed, but seconds per SSCH: the other bound. */
static void device_time_per_ssch(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 1);
        for (unsigned i = 0; i < 2; i++) {
                uint64_t tod = T0 + SEC(60) * i;
                /* 20 SSCH and 30 s of connect in 60 s: 1.5 s per SSCH */
                ioddev_t(f, tod, 20 * i, 234375 * i, 0, 0, 0);
                feed_end(f, tod + SEC(1));
        }
        assert_false(zm_law_status(f->e, "device-time")->on);
        assert_true(feed_logged(f, "connect + pending + disconnect per SSCH"));
        feed_free(f);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(provenance_by_age),    cmocka_unit_test(mtrsys_cpuchar),
            cmocka_unit_test(sytrsg_604),           cmocka_unit_test(lpar_management),
            cmocka_unit_test(lpar_short_entries),   cmocka_unit_test(device_time),
            cmocka_unit_test(device_time_per_ssch),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
