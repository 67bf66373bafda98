/* SPDX-License-Identifier: MIT */
/*
 * Today's VERIFIED fields re-checked against the IBM pages they cite (issue
 * 52 item 6): each correction with a vector written here from the page
 * (doc/facts/ibm-record-pages.md 7), not from the layout under test.
 */
#include "cp_vec.h"

static uint8_t rec[512];

static const struct zl_field *fld(const struct zl_layout *l, const char *name)
{
        const struct zl_field *f = zl_field(l, name);
        if (!f)
                fail_msg("no field %s in %s", name, l ? l->id : "(null)");
        return f;
}

/*
 * D6R14 IODMOF (SET SCMEASURE OFF).  IBM mon640 prints 20 RDEVSID U4,
 * 24 RDEVDEV U2, 26 reserved U2, 28 SCMSSCH U2 and stops there (76 bytes);
 * mon440 and mon510 give 68.  30-39 are on no page read: zpmd's, hints.
 */
static void iodmof(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 76, 6, 14, VEC_TOD_2026);
        be32(rec + 20, 0x00010ABC);
        be16(rec + 24, 0x0191);
        be16(rec + 28, 0xFFF0);
        be16(rec + 30, 7);
        be32(rec + 32, 1000);
        be32(rec + 36, 2000);
        const struct zl_layout *l = zl_find_cp(6, 14, 76);
        assert_int_equal(l->min_len, 68);
        assert_int_equal(getu(l, rec, 76, "IODMOF_RDEVSID"), 0x00010ABC);
        assert_int_equal(getu(l, rec, 76, "IODMOF_RDEVDEV"), 0x0191);
        assert_int_equal(getu(l, rec, 76, "IODMOF_SCMSSCH"), 0xFFF0);
        static const char *const seen[] = {"IODMOF_RDEVSID", "IODMOF_RDEVDEV", "IODMOF_SCMSSCH"};
        for (size_t i = 0; i < 3; i++)
                assert_int_equal(fld(l, seen[i])->prov, ZL_VERIFIED);
        /* still read where zpmd puts them, but as hints of its 2009 code */
        static const char *const hints[] = {"IODMOF_SCMCOUNT", "IODMOF_SCMCNTIM",
                                            "IODMOF_SCMFPTIM"};
        static const unsigned off[] = {30, 32, 36};
        static const uint64_t want[] = {7, 1000, 2000};
        for (size_t i = 0; i < 3; i++) {
                const struct zl_field *f = fld(l, hints[i]);
                assert_int_equal(f->off, off[i]);
                assert_int_equal(f->prov, ZL_HINT);
                assert_string_equal(f->source, "zpmd 2009 (live 5.3)");
                assert_true(getu(l, rec, 76, hints[i]) == want[i]);
        }
        /* the 4.3 length, 52 (mon430), takes the same rows */
        const struct zl_layout *o = zl_find_cp(6, 14, 52);
        assert_int_equal(o->min_len, 52);
        assert_int_equal(fld(o, "IODMOF_SCMFPTIM")->prov, ZL_HINT);
}

/*
 * D8R3 VNDLSD: 60 bytes already on IBM's mon630 page (and mon640, mon750):
 * 20 LANOWNER C8, 28 LANNAME C8, 36 NICOWNER C8, 44 NICBASE U2, 46 NICTYPE.
 * 48 port and 52 ifIndex are printed on mon540 (56 bytes).
 */
static void vndlsd(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 60, 8, 3, VEC_TOD_2026);
        ebc(rec + 20, "SYSTEM", 8);
        ebc(rec + 28, "VSW1", 8);
        ebc(rec + 36, "LINUX01", 8);
        be16(rec + 44, 0x0600);
        rec[46] = 2; /* QDIO */
        be32(rec + 48, 65);
        be32(rec + 52, 3);
        const struct zl_layout *l = zl_find_cp(8, 3, 60);
        assert_int_equal(l->min_len, 60);
        assert_non_null(strstr(l->level, "6.3"));
        assert_null(strstr(l->level, "6.4"));
        assert_non_null(strstr(l->source, "mon630"));
        char t[16];
        assert_string_equal(gett(l, rec, 60, "VNDLSD_LANNAME", t, sizeof(t)), "VSW1");
        assert_string_equal(gett(l, rec, 60, "VNDLSD_NICOWNER", t, sizeof(t)), "LINUX01");
        assert_int_equal(getu(l, rec, 60, "VNDLSD_NICBASE"), 0x0600);
        assert_int_equal(getu(l, rec, 60, "VNDLSD_NICTYPE"), 2);
        assert_int_equal(getu(l, rec, 60, "VNDLSD_NICMGPOR"), 65);
        assert_int_equal(getu(l, rec, 60, "VNDLSD_NICMGIFI"), 3);
        /* the port and ifIndex cite the page that prints them */
        assert_string_equal(fld(l, "VNDLSD_NICMGPOR")->source, "IBM mon540 MRVNDLSD");
        assert_string_equal(fld(l, "VNDLSD_NICMGIFI")->source, "IBM mon540 MRVNDLSD");
        /* 56 .. 59 bytes: the 5.4 layout, without NICTYPE */
        const struct zl_layout *o = zl_find_cp(8, 3, 59);
        assert_int_equal(o->min_len, 56);
        assert_null(zl_field(o, "VNDLSD_NICTYPE"));
}

/*
 * D0R3 SYTRSG at 5.1 and 5.2: the pages are found again (www.vm.ibm.com
 * mon510 and mon520 MRSYTRSG): 128 bytes with 20 SYTRSG_RSAFSTOR U4, and
 * 224 bytes with 20 a reserved U4 ("previous field is no longer
 * meaningful").
 */
static void sytrsg_pages(void **state)
{
        (void)state;
        memset(rec, 0, sizeof(rec));
        vec_hdr(rec, 128, 0, 3, VEC_TOD_2026);
        be32(rec + 20, 262144);
        const struct zl_layout *l = zl_find_cp(0, 3, 128);
        assert_int_equal(l->min_len, 128);
        const struct zl_field *f = fld(l, "SYTRSG_RSAFSTOR");
        assert_int_equal(f->off, 20);
        assert_int_equal(f->len, 4);
        assert_string_equal(f->source, "IBM mon510 MRSYTRSG");
        assert_int_equal(getu(l, rec, 128, "SYTRSG_RSAFSTOR"), 262144);
        const struct zl_layout *n = zl_find_cp(0, 3, 224);
        assert_int_equal(n->min_len, 224);
        assert_int_equal(n->fields[0].off, 20);
        assert_int_equal(n->fields[0].type, ZL_RSVD);
        assert_int_equal(n->fields[0].prov, ZL_VERIFIED);
        assert_string_equal(n->fields[0].source, "IBM mon520 MRSYTRSG");
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(iodmof),
            cmocka_unit_test(vndlsd),
            cmocka_unit_test(sytrsg_pages),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
