/* SPDX-License-Identifier: MIT */
/*
 * Domain 0 records decoded from byte vectors written here from
 * doc/facts/cp-records.md (offsets from the record start, header included).
 */
#include "cp_vec.h"

static uint8_t rec[4096];

/* D0R1 SYTSYP, 116 bytes (6.4): 20 PFXCPUAD, 24 ABNCT, 28 DIAGT, 32 PRVIS, 36 EXTNX,
 * 40 EXTNC, 44 MCHCT, 48 CTSS, 52 CTRS (IBM mon440/mon730); 72 PIOPR, 76 PIOPW,
 * 112 PFXCPUTY (zpmd). */
static void sytsyp(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 116, 0, 1, VEC_TOD_2026);
        be16(rec + 20, 3);
        be32(rec + 24, 1);
        be32(rec + 28, 2222);
        be32(rec + 32, 3333);
        be32(rec + 36, 44);
        be32(rec + 40, 55);
        be32(rec + 44, 0);
        be32(rec + 48, 0x80000001);
        be32(rec + 52, 77);
        be32(rec + 72, 900);
        be32(rec + 76, 901);
        rec[112] = 4;
        const struct zl_layout *l = zl_find_cp(0, 1, 116);
        assert_non_null(l);
        assert_int_equal(l->min_len, 116);
        assert_int_equal(getu(l, rec, 116, "SYTSYP_PFXCPUAD"), 3);
        assert_int_equal(getu(l, rec, 116, "SYTSYP_PLSDIAGT"), 2222);
        assert_int_equal(getu(l, rec, 116, "SYTSYP_PLSPRVIS"), 3333);
        assert_int_equal(getu(l, rec, 116, "SYTSYP_PLSEXTNX"), 44);
        assert_int_equal(getu(l, rec, 116, "SYTSYP_PLSEXTNC"), 55);
        assert_true(getu(l, rec, 116, "SYTSYP_PLSCTSS") == 0x80000001u);
        assert_int_equal(getu(l, rec, 116, "SYTSYP_PLSCTRS"), 77);
        assert_int_equal(getu(l, rec, 116, "SYTSYP_PLSPIOPR"), 900);
        assert_int_equal(getu(l, rec, 116, "SYTSYP_PLSPIOPW"), 901);
        assert_int_equal(getu(l, rec, 116, "SYTSYP_PFXCPUTY"), 4);
        assert_int_equal(provof(l, "SYTSYP_PLSCTRS"), ZL_VERIFIED);
        assert_int_equal(provof(l, "SYTSYP_PLSPIOPR"), ZL_HINT);
        /* the 96-byte level (4.2-5.1) has no PFXCPUTY */
        const struct zl_layout *o = zl_find_cp(0, 1, 96);
        assert_non_null(o);
        assert_int_equal(o->min_len, 96);
        assert_null(zl_field(o, "SYTSYP_PFXCPUTY"));
        assert_null(zl_find_cp(0, 1, 95)); /* shorter than any known level */
}

/* D0R2 SYTPRP: 20 PFXCPUAD, 22 PLSCUHAF, 24 PFXPRBTM, 32 PFXUTIME, 40 PFXTMSYS (IBM
 * mon610/mon640); 68 PFXTOTWT, 92 PFXSPINT, 100 PFXSPINC, 104 PFXCPUTY (zpmd). */
static void sytprp_by_length(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 352, 0, 2, VEC_TOD_2026);
        be16(rec + 20, 1);
        be16(rec + 22, 9);
        be64(rec + 24, UINT64_C(0x7FFFFFFF00000000) - 4096 * 1000);
        be64(rec + 32, UINT64_C(4096) * 5000000);
        be64(rec + 40, UINT64_C(4096) * 700000);
        be64(rec + 68, UINT64_C(4096) * 123);
        be64(rec + 92, 77);
        be32(rec + 100, 8);
        rec[104] = 3;
        const struct zl_layout *l = zl_find_cp(0, 2, 352);
        assert_non_null(l);
        assert_int_equal(l->min_len, 352);
        assert_int_equal(zl_field(l, "SYTPRP_PFXPRBTM")->type, ZL_TIMERD);
        assert_int_equal(getu(l, rec, 352, "SYTPRP_PFXCPUAD"), 1);
        assert_int_equal(getu(l, rec, 352, "SYTPRP_PLSCUHAF"), 9);
        assert_true(getu(l, rec, 352, "SYTPRP_PFXPRBTM") ==
                    UINT64_C(0x7FFFFFFF00000000) - 4096 * 1000);
        assert_true(getu(l, rec, 352, "SYTPRP_PFXUTIME") == UINT64_C(4096) * 5000000);
        assert_true(getu(l, rec, 352, "SYTPRP_PFXTMSYS") == UINT64_C(4096) * 700000);
        assert_true(getu(l, rec, 352, "SYTPRP_PFXTOTWT") == UINT64_C(4096) * 123);
        assert_int_equal(getu(l, rec, 352, "SYTPRP_PFXSPINC"), 8);
        assert_int_equal(getu(l, rec, 352, "SYTPRP_PFXCPUTY"), 3);
        assert_int_equal(provof(l, "SYTPRP_PFXUTIME"), ZL_VERIFIED);
        assert_int_equal(provof(l, "SYTPRP_PFXTOTWT"), ZL_HINT);
        /* IBM's lengths by level pick the layouts: 104 (4.3), 124 and 140 (5.4-6.2), 352 (6.4) */
        assert_int_equal(zl_find_cp(0, 2, 104)->min_len, 104);
        assert_null(zl_field(zl_find_cp(0, 2, 104), "SYTPRP_PFXCPUTY"));
        assert_int_equal(zl_find_cp(0, 2, 124)->min_len, 124);
        assert_int_equal(zl_find_cp(0, 2, 140)->min_len, 124);
        assert_int_equal(zl_field(zl_find_cp(0, 2, 140), "SYTPRP_PFXPRBTM")->type, ZL_TIMER);
        assert_int_equal(zl_find_cp(0, 2, 600)->min_len, 352);
        assert_null(zl_find_cp(0, 2, 100));
}

/* D0R3 SYTRSG: 5.1 (128) has RSAFSTOR at 20, 5.2 (224) reserves it (IBM mon510, mon520);
 * 48 RSAPGABL, 52 RSAAVAIL, 68 RSASAVFR (zpmd). */
static void sytrsg(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 224, 0, 3, VEC_TOD_2026);
        be32(rec + 20, 0xAAAA);
        be32(rec + 48, 500000);
        be32(rec + 52, 12345);
        be32(rec + 68, 321);
        const struct zl_layout *l = zl_find_cp(0, 3, 224);
        assert_int_equal(l->min_len, 224);
        assert_null(zl_field(l, "SYTRSG_RSAFSTOR"));
        assert_int_equal(getu(l, rec, 224, "SYTRSG_RSAPGABL"), 500000);
        assert_int_equal(getu(l, rec, 224, "SYTRSG_RSAAVAIL"), 12345);
        assert_int_equal(getu(l, rec, 224, "SYTRSG_RSASAVFR"), 321);
        const struct zl_layout *o = zl_find_cp(0, 3, 128);
        assert_int_equal(o->min_len, 128);
        assert_int_equal(getu(o, rec, 128, "SYTRSG_RSAFSTOR"), 0xAAAA);
        assert_int_equal(provof(o, "SYTRSG_RSAFSTOR"), ZL_VERIFIED);
        assert_int_equal(provof(o, "SYTRSG_RSAAVAIL"), ZL_HINT);
}

/* D0R8 SYTUSR, 100 bytes: 20 SYSUSRS, 24 SRMCDORM, 28 CALMPTRV (8), 36 CALMPTCT,
 * 40 CALMPNTR (8), 48 CALMPNCT (IBM mon430/mon640). */
static void sytusr(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 108, 0, 8, VEC_TOD_2026);
        be32(rec + 20, 57);
        be32(rec + 24, 12);
        be64(rec + 28, UINT64_C(0x0123456789));
        be32(rec + 36, 1000);
        be64(rec + 40, 5);
        be32(rec + 48, 6);
        const struct zl_layout *l = zl_find_cp(0, 8, 108);
        assert_non_null(l);
        assert_int_equal(getu(l, rec, 108, "SYTUSR_SYSUSRS"), 57);
        assert_int_equal(getu(l, rec, 108, "SYTUSR_SRMCDORM"), 12);
        assert_true(getu(l, rec, 108, "SYTUSR_CALMPTRV") == UINT64_C(0x0123456789));
        assert_int_equal(getu(l, rec, 108, "SYTUSR_CALMPTCT"), 1000);
        assert_int_equal(getu(l, rec, 108, "SYTUSR_CALMPNCT"), 6);
        /* nothing past 100 is decoded: zpmd's 104-byte struct conflicts with IBM's 100 */
        const struct zl_layout *dl = l;
        for (size_t i = 0; i < dl->nfields; i++)
                assert_true(dl->fields[i].off + dl->fields[i].len <= 100);
}

/* D0R16 SYTCUP, fixed part 64 (zpmd packed): 20 LCUPNAME, 28 LCUPPNUM, 30 LCUPCPCT,
 * 32 CALCPUOF, 34 CALCPULN, 36 LCUTCTOD; entries at CALCPUOF + i*CALCPULN with
 * +0 LCUCPUID, +2 LCUCWGHT, +6 LCUCACTM, +14 LCUCLPTM, +22 LCXCPTYP. */
static void sytcup(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 64 + 2 * 40, 0, 16, VEC_TOD_2026);
        ebc(rec + 20, "LPAR1", 8);
        rec[28] = 7;
        rec[30] = 2;
        be16(rec + 32, 64);
        be16(rec + 34, 40);
        be64(rec + 36, VEC_TOD_2026);
        for (int i = 0; i < 2; i++) {
                uint8_t *e = rec + 64 + i * 40;
                be16(e, (uint16_t)i);
                be16(e + 2, 100);
                be64(e + 6, UINT64_C(4096) * (1000u + (unsigned)i));
                be64(e + 14, UINT64_C(4096) * 3);
                ebc(e + 22, "IFL", 16);
        }
        size_t n = 64 + 80;
        const struct zl_layout *l = zl_find_cp(0, 16, n);
        assert_int_equal(l->min_len, 64);
        char buf[32];
        assert_string_equal(gett(l, rec, n, "SYTCUP_LCUPNAME", buf, sizeof(buf)), "LPAR1");
        assert_int_equal(getu(l, rec, n, "SYTCUP_LCUPPNUM"), 7);
        assert_int_equal(getu(l, rec, n, "SYTCUP_LCUPCPCT"), 2);
        assert_int_equal(getu(l, rec, n, "SYTCUP_CALCPUOF"), 64);
        assert_int_equal(getu(l, rec, n, "SYTCUP_CALCPULN"), 40);
        const struct zl_layout *el = zl_find("D0R16.CPU", 40);
        assert_non_null(el);
        const uint8_t *e1 = rec + 64 + 40;
        assert_int_equal(getu(el, e1, 40, "SYTCUP_LCUCPUID"), 1);
        assert_int_equal(getu(el, e1, 40, "SYTCUP_LCUCWGHT"), 100);
        assert_true(getu(el, e1, 40, "SYTCUP_LCUCACTM") == UINT64_C(4096) * 1001);
        assert_true(getu(el, e1, 40, "SYTCUP_LCUCLPTM") == UINT64_C(4096) * 3);
        assert_string_equal(gett(el, e1, 40, "SYTCUP_LCXCPTYP", buf, sizeof(buf)), "IFL");
        assert_int_equal(zl_find_cp(0, 16, 44)->min_len, 44);
}

/* D0R19 SYTSYG: 20 XCTMSACT (8), 28 FTRDONE (IBM mon420/mon430); 64 CPUCOUNT (zpmd). */
static void sytsyg(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 144, 0, 19, VEC_TOD_2026);
        be64(rec + 20, 999999);
        be32(rec + 28, 31);
        be16(rec + 64, 6);
        const struct zl_layout *l = zl_find_cp(0, 19, 144);
        assert_int_equal(l->min_len, 112);
        assert_int_equal(getu(l, rec, 144, "SYTSYG_XCTMSACT"), 999999);
        assert_int_equal(getu(l, rec, 144, "SYTSYG_FTRDONE"), 31);
        assert_int_equal(getu(l, rec, 144, "SYTSYG_CPUCOUNT"), 6);
        assert_null(zl_field(zl_find_cp(0, 19, 56), "SYTSYG_CPUCOUNT"));
}

/* A field past the end of a short record is reported absent, not read. */
static void short_record_fields_absent(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 104, 0, 2, VEC_TOD_2026);
        const struct zl_layout *l = zl_find_cp(0, 2, 352);
        struct zl_value v;
        assert_false(zl_get(l, zd_view_make(rec, 104), "SYTPRP_PFXCPUTY", &v));
        assert_false(v.present);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(sytsyp),
            cmocka_unit_test(sytprp_by_length),
            cmocka_unit_test(sytrsg),
            cmocka_unit_test(sytusr),
            cmocka_unit_test(sytcup),
            cmocka_unit_test(sytsyg),
            cmocka_unit_test(short_record_fields_absent),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
