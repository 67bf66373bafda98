/* SPDX-License-Identifier: MIT */
/* Domain 1 records from byte vectors written from doc/facts/cp-records.md 11-15. */
#include "cp_vec.h"

static uint8_t rec[512];

/*
 * D1R1 MTREPR: 20 EDOMAINS, Bitstring 1 (IBM mon440, mon710; bit 0 = domain 0),
 * 22 CONFIG (zpmd).  What IBM puts at 21 is cut off on its pages: never read.
 */
static void mtrepr(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 52, 1, 1, VEC_TOD_2026);
        rec[20] = 0x7E; /* monitor .. I/O */
        rec[21] = 0xA0; /* not EDOMAINS: must not show in it */
        const struct zl_layout *l = zl_find_cp(1, 1, 52);
        assert_non_null(l);
        assert_int_equal(getu(l, rec, 52, "MTREPR_EDOMAINS"), 0x7E);
        assert_int_equal(zl_field(l, "MTREPR_EDOMAINS")->len, 1);
        assert_int_equal(provof(l, "MTREPR_EDOMAINS"), ZL_VERIFIED);
        for (size_t i = 0; i < l->nfields; i++)
                assert_false(l->fields[i].off <= 21 && l->fields[i].off + l->fields[i].len > 21);
        assert_string_equal(l->dsect, "MTREPR");
        /* the 4.4 length, 24, has the same layout */
        assert_int_equal(zl_find_cp(1, 1, 24), l);
}

/* D1R4 MTRSYS: 20 HCPCPEPP (IBM mon420); 88 SYSTMID, 148 LPNUMBER, 152 CPUCOUNT,
 * 160 LPARNAME, 176 CPUCAPAB (zpmd, length-consistent at 108/176/184). */
static void mtrsys_levels(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 420, 1, 4, VEC_TOD_2026);
        be64(rec + 20, UINT64_C(0x8000000000000001));
        ebc(rec + 88, "ZVMSYS1", 8);
        be16(rec + 148, 0x2A);
        be16(rec + 152, 8);
        ebc(rec + 160, "LPAR1", 8);
        be32(rec + 176, 1500);
        const struct zl_layout *l = zl_find_cp(1, 4, 420);
        assert_int_equal(l->min_len, 184);
        char buf[32];
        assert_true(getu(l, rec, 420, "MTRSYS_HCPCPEPP") == UINT64_C(0x8000000000000001));
        assert_string_equal(gett(l, rec, 420, "MTRSYS_SYSTMID", buf, sizeof(buf)), "ZVMSYS1");
        assert_int_equal(getu(l, rec, 420, "MTRSYS_LPNUMBER"), 0x2A);
        assert_int_equal(getu(l, rec, 420, "MTRSYS_CPUCOUNT"), 8);
        assert_string_equal(gett(l, rec, 420, "MTRSYS_LPARNAME", buf, sizeof(buf)), "LPAR1");
        assert_int_equal(getu(l, rec, 420, "MTRSYS_CPUCAPAB"), 1500);
        assert_int_equal(provof(l, "MTRSYS_HCPCPEPP"), ZL_VERIFIED);
        assert_int_equal(provof(l, "MTRSYS_SYSTMID"), ZL_HINT);
        /* 4.2 (108) stops at SYSWMVOL, 4.3 (176) at CPUSHARD */
        assert_null(zl_field(zl_find_cp(1, 4, 108), "MTRSYS_LPARNAME"));
        assert_non_null(zl_field(zl_find_cp(1, 4, 176), "MTRSYS_LPARNAME"));
        assert_null(zl_field(zl_find_cp(1, 4, 176), "MTRSYS_CPUCAPAB"));
}

/* D1R5 MTRPRP: 20 PFXCPUAD, 22 PFXIDMDL (2, packed), 24 PFXIDSER (3), 28 CALFLAGS,
 * 29 PCCCSU, 30 PFXIDVER (IBM mon440); 40 PFXCPUTY (zpmd, 44-byte 5.3). */
static void mtrprp(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 44, 1, 5, VEC_TOD_2026);
        be16(rec + 20, 2);
        rec[22] = 0x29;
        rec[23] = 0x64;
        rec[24] = 0x01;
        rec[25] = 0x23;
        rec[26] = 0x45;
        rec[28] = 0x80;
        rec[29] = 5;
        rec[30] = 0xFF;
        rec[40] = 3;
        const struct zl_layout *l = zl_find_cp(1, 5, 44);
        assert_int_equal(l->min_len, 44);
        char buf[16];
        assert_int_equal(getu(l, rec, 44, "MTRPRP_PFXCPUAD"), 2);
        assert_string_equal(gett(l, rec, 44, "MTRPRP_PFXIDMDL", buf, sizeof(buf)), "2964");
        assert_string_equal(gett(l, rec, 44, "MTRPRP_PFXIDSER", buf, sizeof(buf)), "012345");
        assert_int_equal(getu(l, rec, 44, "MTRPRP_CALFLAGS"), 0x80);
        assert_int_equal(getu(l, rec, 44, "MTRPRP_PCCCSU"), 5);
        assert_int_equal(getu(l, rec, 44, "MTRPRP_PFXIDVER"), 0xFF);
        assert_int_equal(getu(l, rec, 44, "MTRPRP_PFXCPUTY"), 3);
        assert_null(zl_field(zl_find_cp(1, 5, 40), "MTRPRP_PFXCPUTY"));
}

/* D1R9 MTRSPR: 20 INTERVAL (signed 4, IBM mon540), 24 HFRATE, 28 SDOMAINS (zpmd). */
static void mtrspr(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 52, 1, 9, VEC_TOD_2026);
        be32(rec + 20, 60);
        be32(rec + 24, 200);
        rec[28] = 0xDE;
        rec[29] = 0xA0;
        const struct zl_layout *l = zl_find_cp(1, 9, 52);
        assert_int_equal(getu(l, rec, 52, "MTRSPR_INTERVAL"), 60);
        assert_int_equal(getu(l, rec, 52, "MTRSPR_HFRATE"), 200);
        assert_int_equal(getu(l, rec, 52, "MTRSPR_SDOMAINS"), 0xDEA0);
        struct zl_value v;
        be32(rec + 20, 0xFFFFFFFF);
        assert_true(zl_get(l, zd_view_make(rec, 52), "MTRSPR_INTERVAL", &v));
        assert_int_equal(v.s, -1);
}

/* D1R11 MTREND, D1R12 MTRSOS, D1R13 MTREOF: header only, 20 bytes. */
static void header_only(void **state)
{
        (void)state;
        for (int r = 11; r <= 13; r++) {
                const struct zl_layout *l = zl_find_cp(1, r, 20);
                assert_non_null(l);
                assert_int_equal(l->nfields, 0);
                assert_int_equal(l->min_len, 20);
        }
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(mtrepr), cmocka_unit_test(mtrsys_levels), cmocka_unit_test(mtrprp),
            cmocka_unit_test(mtrspr), cmocka_unit_test(header_only),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
