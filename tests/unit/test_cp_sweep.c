/* SPDX-License-Identifier: MIT */
/*
 * The layouts read from IBM's pages alone (doc/facts/ibm-record-pages.md 3
 * and 7), from vectors written here: for each record and level, the length
 * IBM gives and every field its page shows, at the offset, length and type
 * the page prints, with a value of our own.  A record is built byte by
 * byte (the bytes no field claims hold a filler a misplaced field would
 * read), decoded, and each field checked; the same record with 40 bytes
 * appended (fields a later APAR adds) must read the same, and one a byte
 * shorter than its level's length must get no layout that reads past it.
 */
#include <stdio.h>

#include "collect.h"
#include "cp_vec.h"
#include "layout/registry.h"

#define FILL 0xA5 /* no field's value below has this byte */
#define TAIL 40

enum { NUM, TXT, RAW };
struct want {
        const char *name;
        uint16_t off, len;
        uint8_t how; /* NUM: big-endian integer; TXT: EBCDIC text; RAW: bytes seed, seed+1 ... */
        uint64_t v;  /* NUM: the value; RAW: the first byte */
        const char *txt; /* TXT */
};
struct vec {
        int d, r;
        uint16_t len; /* IBM's structure length for the level */
        struct want w[5];
};

#define N(name, off, len, v)                                                                       \
        {                                                                                          \
                name, off, len, NUM, v, NULL                                                       \
        }
#define T(name, off, len, txt)                                                                     \
        {                                                                                          \
                name, off, len, TXT, 0, txt                                                        \
        }
#define X(name, off, len, seed)                                                                    \
        {                                                                                          \
                name, off, len, RAW, seed, NULL                                                    \
        }
#define SID_DEV(P) N(P "_RDEVSID", 20, 4, 0x00010203), N(P "_RDEVDEV", 24, 2, 0x0A3C)

/* clang-format off */
static const struct vec vecs[] = {
    /* Domain 0 */
    {0, 6,  112, {N("SYTASG_CAL90FUL", 20, 4, 17)}},                                 /* mon730 MRSYTASG */
    {0, 14, 204, {{NULL}}},                                                          /* mon750 MRSYTXSG: 20, 24 reserved */
    {0, 21, 96,  {N("SYTSXG_SXSSIZE", 20, 4, 65536), N("SYTSXG_RSASXAVL", 24, 4, 4000)}}, /* mon730 */
    /* Domain 1 */
    {1, 7,  326, {N("MTRMEM_RSASTORE", 20, 4, 0x40000000)}},                          /* mon730 MRMTRMEM */
    {1, 16, 128, {N("MTRSCH_SRMBIASI", 20, 4, 90)}},                                  /* mon750 MRMTRSCH */
    {1, 21, 48,  {X("MTRMCC_SYSGSTBY", 20, 8, 0x10), X("MTRMCC_SYSGSTRS", 28, 8, 0x20),
                  X("MTRMCC_RSAGOFFL", 36, 8, 0x30), X("MTRMCC_RSAOFFLN", 44, 4, 0x40)}}, /* mon620, mon750 */
    {1, 28, 40,  {T("MTRCPC_LIMPOOL", 20, 8, "POOL1"), N("MTRCPC_FLAGS", 28, 1, 0x80)}}, /* mon730 */
    {1, 29, 40,  {T("MTRCPD_LIMPOOL", 20, 8, "LINUXP"), N("MTRCPD_FLAGS", 28, 1, 0x80)}}, /* mon730 */
    {1, 32, 24,  {N("MTRCHC_CHACHPID", 20, 1, 0x4C)}},                                /* mon750, 21-23 reserved */
    {1, 37, 36,  {T("MTRFAC_VMDUSER", 20, 8, "MAINT")}},                              /* mon730 MRMTRFAC */
    /* Domain 3 */
    {3, 6,  44,  {T("STOSHP_SDFFN", 20, 8, "CMS")}},                                  /* mon730 MRSTOSHP */
    {3, 12, 64,  {T("STOASC_ASCUSRID", 20, 8, "LINUX01")}},                           /* mon730 MRSTOASC */
    {3, 13, 52,  {T("STOASD_ASCUSRID", 20, 8, "LINUX02")}},                           /* mon730 MRSTOASD */
    {3, 17, 68,  {T("STOVDK_MDIOUSER", 20, 8, "TCPIP")}},                             /* mon730 MRSTOVDK */
    {3, 19, 88,  {N("STOSXG_RSASXUOT", 20, 4, 1234)}},                                /* mon730 MRSTOSXG */
    {3, 21, 132, {X("STOADD_CALMEMAD", 20, 8, 0x01)}},                                /* mon750 MRSTOADD */
    {3, 22, 56,  {N("STORST_DSRFLAG0", 20, 1, 0x40)}},                                /* mon750 MRSTORST */
    {3, 23, 148, {N("STOREM_DSRFLAG0", 20, 1, 0x20)}},                                /* mon730 MRSTOREM */
    {3, 25, 36,  {N("STOAZN_RSAMCHNG", 20, 4, 3), N("STOAZN_NUMZONES_RECORD", 24, 4, 2),
                  N("STOAZN_CALENTSZ", 28, 2, 16), N("STOAZN_CALENTDSP", 30, 2, 36)}}, /* mon730 MRSTOAZN */
    /* Domain 5 */
    {5, 1,  32,  {N("PRCVON_PFXCPUAD", 20, 2, 3), X("PRCVON_PFXIDMDL", 22, 2, 0x29)}}, /* mon750 MRPRCVON */
    {5, 2,  28,  {N("PRCVOF_PFXCPUAD", 20, 2, 5), N("PRCVOF_VOFFRSON", 22, 1, 0)}},    /* mon750 MRPRCVOF */
    /* Domain 6 */
    {6, 1,  292, {N("IODVON_RDEVTYPE", 20, 1, 0x04)}},                                /* mon730 MRIODVON */
    {6, 2,  28,  {SID_DEV("IODVOF")}},                                                /* mon750 MRIODVOF */
    {6, 5,  44,  {N("IODATD_RDEVTYPE", 20, 1, 0x08)}},                                /* mon730 MRIODATD */
    {6, 6,  28,  {SID_DEV("IODDTD")}},                                                /* mon750 MRIODDTD */
    {6, 7,  28,  {SID_DEV("IODENB")}},                                                /* mon740 MRIODENB */
    {6, 8,  28,  {SID_DEV("IODDSB")}},                                                /* mon730 MRIODDSB */
    {6, 9,  44,  {N("IODATS_RDEVTYPE", 20, 1, 0x10)}},                                /* mon750 MRIODATS */
    {6, 11, 44,  {N("IODSON_RDEVTYPE", 20, 1, 0x20)}},                                /* mon730 MRIODSON */
    {6, 12, 28,  {SID_DEV("IODSOF")}},                                                /* mon750 MRIODSOF */
    {6, 13, 28,  {SID_DEV("IODMON")}},                                                /* mon730 MRIODMON */
    {6, 15, 28,  {SID_DEV("IODDDV")}},                                                /* mon710, 26-27 reserved */
    {6, 16, 36,  {SID_DEV("IODMDV"), N("IODMDV_RDEVPIM", 26, 1, 0xF0), N("IODMDV_RDEVPAM", 27, 1, 0xC0),
                  X("IODMDV_RDEVCHPS", 28, 8, 0x40)}},                                /* mon710 MRIODMDV */
    {6, 17, 24,  {N("IODDCH_CALCHPID", 20, 1, 0x51)}},                                /* mon750, 21-23 reserved */
    {6, 18, 40,  {SID_DEV("IODTON")}},                                                /* mon730 MRIODTON */
    {6, 19, 40,  {SID_DEV("IODTOF")}},                                                /* mon730 MRIODTOF */
    {6, 22, 80,  {T("IODVSF_LANOWNER", 20, 8, "SYSTEM"), T("IODVSF_LANNAME", 28, 8, "VSW1")}}, /* mon750 */
    {6, 23, 88,  {T("IODVSR_LANOWNER", 20, 8, "SYSTEM"), T("IODVSR_LANNAME", 28, 8, "VSW2")}}, /* mon750 */
    {6, 31, 84,  {T("IODMDE_MDIOUSER", 20, 8, "MAINT"), N("IODMDE_MDIOVDEV", 28, 2, 0x0191),
                  X("IODMDE_EQIDUID", 30, 40, 0x00)}},                                /* mon750 MRIODMDE */
    {6, 33, 80,  {T("IODBPA_LANOWNER", 20, 8, "SYSTEM")}},                            /* mon730 MRIODBPA */
    {6, 34, 124, {T("IODBPD_LANOWNER", 20, 8, "SYSTEM"), T("IODBPD_LANNAME", 28, 8, "BRIDGE")}}, /* mon730 */
    {6, 36, 44,  {N("IODPAT_RPCIPFID", 20, 4, 0x11), N("IODPAT_VPCIPFID", 24, 4, 0x22),
                  T("IODPAT_VMDUSER", 28, 8, "LINUX03")}},                            /* mon730 MRIODPAT */
    {6, 38, 40,  {N("IODPEN_RPCIPFID", 20, 4, 0x33), N("IODPEN_VPCIPFID", 24, 4, 0x44)}}, /* mon730 */
    {6, 39, 112, {N("IODPAC_RPCIPFID", 20, 4, 0x55), N("IODPAC_VPCIPFID", 24, 4, 0x66)}}, /* mon750 */
    {6, 40, 116, {N("IODPDS_RPCIPFID", 20, 4, 0x77)}},                                /* mon750 MRIODPDS */
    {6, 46, 28,  {N("IODPOF_RPCIPFID", 20, 4, 0x88), N("IODPOF_RPCIHNDG", 24, 4, 0x80000123)}}, /* mon730 */
    {6, 47, 24,  {N("IODCHA_CHACHPID", 20, 1, 0x3F)}},                                /* mon750 MRIODCHA */
    {6, 51, 24,  {N("IODFCA_FCARDEV", 20, 2, 0x1B00)}},                               /* mon730, 22-23 reserved */
    /* Domain 9 */
    {9, 1,  244, {N("ISFISC_ACTIVITY", 20, 1, 2)}},                                   /* mon730 MRISFISC */
    {9, 2,  112, {N("ISFISA_SCKID", 20, 4, 0x00C0FFEE)}},                             /* mon750 MRISFISA */
    {9, 3,  140, {N("ISFILC_ACTIVITY", 20, 1, 1)}},                                   /* mon730 MRISFILC */
};
/* clang-format on */
#define NVEC (sizeof(vecs) / sizeof(vecs[0]))

static uint8_t rec[4096];

static size_t nwant(const struct vec *v)
{
        size_t n = 0;
        while (n < 5 && v->w[n].name)
                n++;
        return n;
}

/* The record of v at length n: header, the fields' values, FILL everywhere else. */
static void build(const struct vec *v, uint16_t n)
{
        memset(rec, FILL, sizeof(rec));
        vec_hdr(rec, n, (uint8_t)v->d, (uint16_t)v->r, VEC_TOD_2026);
        for (size_t i = 0; i < nwant(v); i++) {
                const struct want *w = &v->w[i];
                uint8_t *p = rec + w->off;
                for (size_t k = 0; k < w->len; k++)
                        p[k] = w->how == NUM ? (uint8_t)(w->v >> 8 * (w->len - 1 - k))
                                             : (uint8_t)(w->v + k);
                if (w->how == TXT)
                        ebc(p, w->txt, w->len);
        }
}

static void check_field(const struct zl_layout *l, const struct want *w, uint16_t n)
{
        const struct zl_field *f = zl_field(l, w->name);
        if (!f)
                fail_msg("%s has no field %s", l->id, w->name);
        if (f->off != w->off || f->len != w->len)
                fail_msg("%s at %u+%u, the page says %u+%u", w->name, f->off, f->len, w->off,
                         w->len);
        assert_int_equal(f->prov, ZL_VERIFIED);
        char buf[64];
        if (w->how == NUM) {
                if (getu(l, rec, n, w->name) != w->v)
                        fail_msg("%s read %llx", w->name,
                                 (unsigned long long)getu(l, rec, n, w->name));
        } else if (w->how == TXT) {
                assert_string_equal(gett(l, rec, n, w->name, buf, sizeof(buf)), w->txt);
        } else {
                struct zl_value val = {0};
                assert_true(zl_get(l, zd_view_make(rec, n), w->name, &val) && val.present);
                assert_int_equal(val.raw.n, w->len);
                for (size_t k = 0; k < w->len; k++)
                        assert_int_equal(val.raw.p[k], (uint8_t)(w->v + k));
        }
}

static void count_field(void *ctx, const struct zl_value *v)
{
        assert_true(v->present);
        ++*(size_t *)ctx;
}

/* Read at length n, with the layout IBM's length for the level chose. */
static void check_at(const struct vec *v, const struct zl_layout *l, uint16_t n)
{
        build(v, n);
        for (size_t i = 0; i < nwant(v); i++)
                check_field(l, &v->w[i], n);
        /* every field the layout declares is one the page shows, and checked above */
        size_t seen = 0;
        zl_foreach(l, zd_view_make(rec, n), count_field, &seen);
        if (seen != nwant(v))
                fail_msg("%s declares %zu fields, the page shows %zu", l->id, seen, nwant(v));
}

static void each_record_at_its_length(void **state)
{
        (void)state;
        for (size_t i = 0; i < NVEC; i++) {
                const struct vec *v = &vecs[i];
                const struct zl_layout *l = zl_find_cp(v->d, v->r, v->len);
                if (!l || l->min_len != v->len)
                        fail_msg("D%dR%d: no layout at IBM's length %u", v->d, v->r, v->len);
                for (size_t k = 0; k < l->nfields; k++)
                        assert_int_equal(l->fields[k].prov, ZL_VERIFIED);
                check_at(v, l, v->len);
                assert_non_null(zr_lookup((unsigned)v->d, (unsigned)v->r));
        }
}

/* Fields a later APAR appends are past every declared one: the same layout, the same values. */
static void longer_records_read_alike(void **state)
{
        (void)state;
        for (size_t i = 0; i < NVEC; i++) {
                const struct vec *v = &vecs[i];
                uint16_t n = (uint16_t)(v->len + TAIL);
                const struct zl_layout *l = zl_find_cp(v->d, v->r, n);
                assert_ptr_equal(l, zl_find_cp(v->d, v->r, v->len));
                check_at(v, l, n);
        }
}

/* A byte short of its level: no layout, or an older level's that ends within it. */
static void shorter_records_are_not_misread(void **state)
{
        (void)state;
        for (size_t i = 0; i < NVEC; i++) {
                const struct vec *v = &vecs[i];
                uint16_t n = (uint16_t)(v->len - 1);
                const struct zl_layout *l = zl_find_cp(v->d, v->r, n);
                assert_ptr_not_equal(l, zl_find_cp(v->d, v->r, v->len));
                for (size_t k = 0; l && k < l->nfields; k++)
                        assert_true(l->fields[k].off + l->fields[k].len <= n);
        }
        /* the older levels known: PRCVOF at 24 (5.1), MTRMCC at 36 (6.1) */
        assert_int_equal(zl_find_cp(5, 2, 27)->min_len, 24);
        assert_int_equal(zl_find_cp(1, 21, 47)->min_len, 36);
        assert_null(zl_find_cp(6, 46, 27));
}

/*
 * Through the frame walker: IODPOF at its length, a byte short, 40 bytes
 * long, and a record number no page names, then Interval End.  Each is
 * delivered and counted under its domain and number; none is an error.
 */
static void bad_lengths_counted_and_named(void **state)
{
        (void)state;
        static uint8_t set[256];
        static const uint16_t lens[] = {28, 27, 68, 28, 20};
        static const uint16_t nums[] = {46, 46, 46, 32, 11};
        size_t o = 0;
        memset(set, FILL, sizeof(set));
        for (size_t i = 0; i < 5; i++)
                o += vec_hdr(set + o, lens[i], i < 4 ? 6 : 1, nums[i], VEC_TOD_2026);
        struct vec_seen s;
        struct zd_handler h = seen_handler(&s);
        struct zd_decoder d;
        zd_decoder_init(&d, &h);
        assert_int_equal(zd_walk_recset(&d, zd_view_make(set, o), 0x09000000, 'E', NULL), 5);
        assert_int_equal(s.nerr, 0);
        assert_true(d.st.by_rec[6][46] == 3 && d.st.by_rec[6][32] == 1);
        assert_string_equal(zr_lookup(6, 46)->name, "Vary off a PCI function");
        assert_null(zr_lookup(6, 32));
        /* the short one is shown without fields, the long one with IBM's two */
        assert_null(zl_find_cp(6, 46, s.len[1]));
        assert_null(zl_find_cp(6, 32, s.len[3]));
        assert_int_equal(zl_find_cp(6, 46, s.len[2])->nfields, 2);
}

/* A layout of one level ("z/VM 7.3") is chosen at the length the registry has for that level. */
static void levels_chosen_at_ibm_lengths(void **state)
{
        (void)state;
        const struct zl_layout *l;
        size_t n = 0;
        for (size_t i = 0; (l = zl_layout_at(i)) != NULL; i++) {
                unsigned a, b;
                char end;
                if (l->domain < 0 || l->reading ||
                    sscanf(l->level, "z/VM %u.%u%c", &a, &b, &end) != 2)
                        continue;
                char lv[16];
                snprintf(lv, sizeof(lv), "%u.%u", a, b);
                const struct zr_record *r = zr_lookup((unsigned)l->domain, (unsigned)l->record);
                size_t k = 0;
                while (k < ZR_NLENS && r->lens[k].level && strcmp(r->lens[k].level, lv) != 0)
                        k++;
                if (k == ZR_NLENS || !r->lens[k].level)
                        fail_msg("%s (%s): the registry has no length for %s", l->id, l->level, lv);
                if (l->min_len != r->lens[k].len)
                        fail_msg("%s chosen from %u, IBM's %s length is %u", l->id, l->min_len, lv,
                                 r->lens[k].len);
                n++;
        }
        assert_true(n >= NVEC);
}

static void coverage_cases(void)
{
        struct zr_coverage c;
        zr_cover(zr_lookup(6, 46), &c);
        assert_int_equal(c.cover, ZR_COMPLETE);
        assert_int_equal(c.extent, 28);
        zr_cover(zr_lookup(1, 11), &c); /* MTREND: the header is all of it */
        assert_int_equal(c.cover, ZR_COMPLETE);
        zr_cover(zr_lookup(0, 6), &c); /* SYTASG: the page's head */
        assert_true(c.cover == ZR_PARTIAL && c.extent == 24 && c.nfields == 1 && c.nhints == 0);
        zr_cover(zr_lookup(0, 7), &c); /* SYTSHS: a length, no field */
        assert_true(c.cover == ZR_NONE && c.l == NULL);
        zr_cover(zr_lookup(0, 1), &c); /* SYTSYP: to its length, but on zpmd's hints */
        assert_true(c.cover == ZR_PARTIAL && c.nhints > 0);
        /* a site's layout of every byte, from IBM's page, makes a record complete */
        static const struct zl_field f[] = {
            {"SYTSHS_X", 20, 52, ZL_HEX, ZL_VERIFIED, ZL_K_NONE, NULL, "site", ""}};
        static const struct zl_layout shs = {"D0R7", "SYTSHS", 0, 7, 72, "z/VM 7.3", "site", f, 1};
        assert_true(zl_register(&shs));
        zr_cover(zr_lookup(0, 7), &c);
        assert_int_equal(c.cover, ZR_COMPLETE);
        zl_unregister_all();
}

static void coverage_of_the_registry(void **state)
{
        (void)state;
        coverage_cases();
        const struct zr_record *r;
        size_t n[3] = {0};
        for (size_t i = 0; (r = zr_record_at(i)) != NULL; i++) {
                struct zr_coverage c;
                zr_cover(r, &c);
                n[c.cover]++;
                if (c.cover == ZR_COMPLETE)
                        assert_true(c.nhints == 0 && c.l->min_len == zr_newest_len(r, NULL));
        }
        assert_int_equal(n[ZR_COMPLETE] + n[ZR_PARTIAL] + n[ZR_NONE], 191);
        assert_int_equal(n[ZR_COMPLETE] + n[ZR_PARTIAL], 92);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(each_record_at_its_length),
            cmocka_unit_test(longer_records_read_alike),
            cmocka_unit_test(shorter_records_are_not_misread),
            cmocka_unit_test(bad_lengths_counted_and_named),
            cmocka_unit_test(levels_chosen_at_ibm_lengths),
            cmocka_unit_test(coverage_of_the_registry),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
