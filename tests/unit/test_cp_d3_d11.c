/* SPDX-License-Identifier: MIT */
/* Domains 3, 4, 5, 6, 8 and 11 from byte vectors written from doc/facts/cp-records.md. */
#include "cp_vec.h"

static uint8_t rec[1024];

/* D3R1 STORSG: 20 CALSSUBT, 28 RSASAVFR, 32 RSAMAXPP (IBM mon640).
 * D3R2 STORSP: 20 PFXCPUAD (IBM mon630/mon640). */
static void storage(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 844, 3, 1, VEC_TOD_2026);
        be32(rec + 20, 17);
        be32(rec + 24, 0xFFFFFFFF); /* reserved: never decoded */
        be32(rec + 28, 321);
        be32(rec + 32, 9);
        const struct zl_layout *l = zl_find_cp(3, 1, 844);
        assert_int_equal(getu(l, rec, 844, "STORSG_CALSSUBT"), 17);
        assert_int_equal(getu(l, rec, 844, "STORSG_RSASAVFR"), 321);
        assert_int_equal(getu(l, rec, 844, "STORSG_RSAMAXPP"), 9);
        assert_int_equal(provof(l, "STORSG_RSASAVFR"), ZL_VERIFIED);
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 744, 3, 2, VEC_TOD_2026);
        be16(rec + 20, 5);
        l = zl_find_cp(3, 2, 744);
        assert_int_equal(getu(l, rec, 744, "STORSP_PFXCPUAD"), 5);
}

/* D4R3 USEACT, 508 bytes (6.2): 20 VMDUSER, 28 VMDCPUAD, 30 VMDMODE, 31 CALMODE,
 * 32 VMDSLIST (IBM mon620); hints 36 VMDTTIME, 44 VMDVTIME (zpmd USELOF alignment),
 * 68 VMDCTPVR, 108 CALCPPGR, 112 CALCPPGW, 132 VMDVDSCT (zpmd USEATE + 4). */
static void useact(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 508, 4, 3, VEC_TOD_2026);
        ebc(rec + 20, "LINUX01", 8);
        be16(rec + 28, 1);
        rec[30] = 0x01;
        rec[31] = 0x04;
        rec[32] = 0x37;
        be64(rec + 36, UINT64_C(4096) * 9000000);
        be64(rec + 44, UINT64_C(4096) * 8000000);
        be32(rec + 68, 262144);
        be32(rec + 108, 11);
        be32(rec + 112, 22);
        be32(rec + 132, 33);
        const struct zl_layout *l = zl_find_cp(4, 3, 508);
        char buf[16];
        assert_string_equal(gett(l, rec, 508, "USEACT_VMDUSER", buf, sizeof(buf)), "LINUX01");
        assert_int_equal(getu(l, rec, 508, "USEACT_VMDCPUAD"), 1);
        assert_int_equal(getu(l, rec, 508, "USEACT_CALMODE"), 0x04);
        assert_int_equal(getu(l, rec, 508, "USEACT_VMDSLIST"), 0x37);
        assert_true(getu(l, rec, 508, "USEACT_VMDTTIME") == UINT64_C(4096) * 9000000);
        assert_true(getu(l, rec, 508, "USEACT_VMDVTIME") == UINT64_C(4096) * 8000000);
        assert_int_equal(getu(l, rec, 508, "USEACT_VMDCTPVR"), 262144);
        assert_int_equal(getu(l, rec, 508, "USEACT_CALCPPGR"), 11);
        assert_int_equal(getu(l, rec, 508, "USEACT_CALCPPGW"), 22);
        assert_int_equal(getu(l, rec, 508, "USEACT_VMDVDSCT"), 33);
        /* everything past 32 is a hint (doc/facts/cp-records.md 1.2) */
        for (size_t i = 0; i < l->nfields; i++)
                assert_int_equal(l->fields[i].prov, l->fields[i].off <= 32 ? ZL_VERIFIED : ZL_HINT);
}

/* D4R4 USEINT: only VMDUSER at 20, inferred from every user-domain record. */
static void useint(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 100, 4, 4, VEC_TOD_2026);
        ebc(rec + 20, "TCPIP", 8);
        const struct zl_layout *l = zl_find_cp(4, 4, 100);
        char buf[16];
        assert_string_equal(gett(l, rec, 100, "USEINT_VMDUSER", buf, sizeof(buf)), "TCPIP");
        assert_int_equal(provof(l, "USEINT_VMDUSER"), ZL_INFERRED);
        assert_int_equal(l->nfields, 1);
}

/* D5R3 PRCPRP: 384 (5.4+): 20 PFXCPUAD, 22 reserved 62 bytes (IBM mon710); 96 HFCOUNT,
 * 380 PFXCPUTY (zpmd).  124 (4.3): 22 PLSSTLNU (31 halfwords, IBM mon430). */
static void prcprp(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 384, 5, 3, VEC_TOD_2026);
        be16(rec + 20, 4);
        be16(rec + 22, 0x1234);
        be32(rec + 96, 600);
        rec[380] = 2;
        const struct zl_layout *l = zl_find_cp(5, 3, 384);
        assert_int_equal(l->min_len, 384);
        assert_int_equal(getu(l, rec, 384, "PRCPRP_PFXCPUAD"), 4);
        assert_int_equal(getu(l, rec, 384, "PRCPRP_HFCOUNT"), 600);
        assert_int_equal(getu(l, rec, 384, "PRCPRP_PFXCPUTY"), 2);
        assert_null(zl_field(l, "PRCPRP_PLSSTLNU"));
        const struct zl_layout *o = zl_find_cp(5, 3, 124);
        char buf[160];
        gett(o, rec, 124, "PRCPRP_PLSSTLNU", buf, sizeof(buf));
        assert_memory_equal(buf, "1234", 4);
}

/* D6R3 IODDEV (zpmd +20): 52 SCMSSCH (2), 56 SCMCNTIM, 192 SCGSSCH, 200 RDEVDEV. */
static void ioddev(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 240, 6, 3, VEC_TOD_2026);
        be16(rec + 52, 0x0005);
        be32(rec + 56, 777);
        be32(rec + 192, 0x00010005);
        be16(rec + 200, 0x0200);
        const struct zl_layout *l = zl_find_cp(6, 3, 240);
        assert_int_equal(getu(l, rec, 240, "IODDEV_SCMSSCH"), 5);
        assert_int_equal(getu(l, rec, 240, "IODDEV_SCMCNTIM"), 777);
        assert_int_equal(getu(l, rec, 240, "IODDEV_SCGSSCH"), 0x10005);
        assert_int_equal(getu(l, rec, 240, "IODDEV_RDEVDEV"), 0x200);
        assert_int_equal(provof(l, "IODDEV_RDEVDEV"), ZL_HINT);
        assert_null(zl_find_cp(6, 3, 200)); /* too short to hold RDEVDEV */
}

/* D8R1 VNDSES (zpmd): 24 OWNER, 32 VDEVDEV, 96 TXBYT, 104 RXBYT, 112 TXPKT, 136 RXPKT. */
static void vndses(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 316, 8, 1, VEC_TOD_2026);
        ebc(rec + 24, "LINUX01", 8);
        be16(rec + 32, 0x0600);
        be64(rec + 96, UINT64_C(1) << 40);
        be64(rec + 104, 5000);
        be64(rec + 112, 70);
        be64(rec + 128, 1);
        be64(rec + 136, 80);
        const struct zl_layout *l = zl_find_cp(8, 1, 316);
        char buf[16];
        assert_string_equal(gett(l, rec, 316, "VNDSES_OWNER", buf, sizeof(buf)), "LINUX01");
        assert_int_equal(getu(l, rec, 316, "VNDSES_VDEVDEV"), 0x600);
        assert_true(getu(l, rec, 316, "VNDSES_SESTXBYT") == UINT64_C(1) << 40);
        assert_int_equal(getu(l, rec, 316, "VNDSES_SESRXBYT"), 5000);
        assert_int_equal(getu(l, rec, 316, "VNDSES_SESTXPKT"), 70);
        assert_int_equal(getu(l, rec, 316, "VNDSES_SESTXERR"), 1);
        assert_int_equal(getu(l, rec, 316, "VNDSES_SESRXPKT"), 80);
}

/* D11R2 SSISMI, 116: 20 PLMNJONG .. 36 PLMNSUSP (4 each), 40 PLMTJONG .. 72 PLMTSUSP
 * (8 each, microseconds), 80 PLMNSTAB, 84 PLMNINFL (IBM mon620/mon710). */
static void ssismi(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 116, 11, 2, VEC_TOD_2026);
        be32(rec + 24, 3);
        be64(rec + 48, 86400000000ull);
        be32(rec + 80, 4);
        be32(rec + 84, 5);
        const struct zl_layout *l = zl_find_cp(11, 2, 116);
        assert_int_equal(getu(l, rec, 116, "SSISMI_PLMNJOND"), 3);
        assert_true(getu(l, rec, 116, "SSISMI_PLMTJOND") == 86400000000ull);
        assert_int_equal(getu(l, rec, 116, "SSISMI_PLMNSTAB"), 4);
        assert_int_equal(getu(l, rec, 116, "SSISMI_PLMNINFL"), 5);
        assert_int_equal(provof(l, "SSISMI_PLMNINFL"), ZL_VERIFIED);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(storage), cmocka_unit_test(useact), cmocka_unit_test(useint),
            cmocka_unit_test(prcprp),  cmocka_unit_test(ioddev), cmocka_unit_test(vndses),
            cmocka_unit_test(ssismi),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
