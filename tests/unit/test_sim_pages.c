/* SPDX-License-Identifier: MIT */
/*
 * zvmsim's records from IBM's pages alone (zvmsim/sim_records_cp_pages.c and
 * the logon events of sim_sets.c), read through the decoder (zd_decode_dataset,
 * its layouts chosen by zl_find_cp) and checked byte by byte at the offsets
 * IBM's pages give, written here:
 *   D0R4  SYTRSP  28 bytes: 20 PFXCPUAD (2), 22 reserved (2), 24 PLSSTLFR (4)     mon430
 *   D0R15 SYTCUG  28 bytes: 20 LCUTNPAR (1), the rest unread                      mon430
 *   D3R2  STORSP  32 bytes: 20 PFXCPUAD (2), 22-31 reserved                       mon630/640
 *   D1R31 MTRSRV  28 bytes: 20 SRVOFF (2), 22 SRVLEN (2), 24 LNELEN (2, "currently 20") mon720
 *   D4R2  USELOF  20 VMDUSER (8, EBCDIC), 28 VMDCPUAD (2), 30 VMDMODE (1), 31 CALMODE (1),
 *                 32 VMDSLIST (1: X'37' dispatch, X'21' eligible, X'0B' dormant)  mon620
 *   D0R2  SYTPRP  20 PFXCPUAD (2), for the processors the others must agree with
 * What the model implies: one SYTRSP and one STORSP per processor SYTPRP
 * reports, no free-storage extends; SYTCUG counts the partitions whose
 * SYTCUP records the same set holds, and is not written without any; the
 * service structure is empty and starts where the record ends; a guest logs
 * off from the dormant list.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim_model.h"

static uint64_t rd(const uint8_t *p, size_t n)
{
        uint64_t v = 0;
        for (size_t i = 0; i < n; i++)
                v = v << 8 | p[i];
        return v;
}

/* The records of one set as the decoder delivers them. */
#define MAXREC 4096
struct got {
        size_t n;
        struct {
                unsigned dom, num;
                char kind;
                uint8_t b[512];
                size_t len;
        } r[MAXREC];
};

static void on_record(void *ctx, const struct zd_record *r)
{
        struct got *g = ctx;
        if (g->n == MAXREC || r->rec.n > sizeof(g->r[0].b))
                return;
        g->r[g->n].dom = r->domain;
        g->r[g->n].num = r->number;
        g->r[g->n].kind = r->kind;
        g->r[g->n].len = r->rec.n;
        memcpy(g->r[g->n].b, r->rec.p, r->rec.n);
        g->n++;
}

static struct got got;

/* Decode a set (and free it); no decoding error. */
static void decode(struct sim_set *set)
{
        struct zd_handler h = {.ctx = &got, .record = on_record};
        struct zd_decoder d;
        zd_decoder_init(&d, &h);
        got.n = 0;
        zd_decode_dataset(&d, zd_view_make(set->buf, set->len), 0, 0);
        assert_int_equal(zd_stats_errors(&d.st), 0);
        sim_set_free(set);
}

/* The indexes of the records (dom, num) in `got`, at most max of them. */
static size_t find(unsigned dom, unsigned num, size_t *idx, size_t max)
{
        size_t n = 0;
        for (size_t i = 0; i < got.n; i++)
                if (got.r[i].dom == dom && got.r[i].num == num && n < max)
                        idx[n++] = i;
        return n;
}

/* The decoder reads the field by its layout as the test reads it at IBM's offset. */
static void same(size_t i, const char *name, uint64_t want)
{
        const struct zl_layout *l = zl_find_cp((int)got.r[i].dom, (int)got.r[i].num, got.r[i].len);
        assert_non_null(l);
        uint64_t v = ~want;
        assert_true(zl_get_u64(l, zd_view_make(got.r[i].b, got.r[i].len), name, &v));
        assert_int_equal(v, want);
}

static struct sim_cfg cfg(unsigned cpus, unsigned lpars)
{
        struct sim_cfg c;
        sim_cfg_default(&c);
        c.seed = 5;
        c.cpus = cpus;
        c.lpars = lpars;
        c.guests = 10;
        c.linux_guests = 2;
        c.devices = 3;
        return c;
}

static void all_zero(const uint8_t *p, size_t from, size_t to)
{
        for (size_t b = from; b < to; b++)
                assert_int_equal(p[b], 0);
}

/* SYTRSP and STORSP: one each per processor SYTPRP reports, at the same address. */
static void per_processor(void **state)
{
        (void)state;
        struct sim_cfg c = cfg(6, 2);
        struct sim_sys *s = sim_sys_new(&c, NULL);
        sim_set_free(sim_sys_config(s, sim_sys_tod(s)));
        for (unsigned n = 0; n < 3; n++) {
                decode(sim_sys_interval(s));
                size_t prp[16], rsp[16], sto[16];
                assert_int_equal(find(0, 2, prp, 16), 6);
                assert_int_equal(find(0, 4, rsp, 16), 6);
                assert_int_equal(find(3, 2, sto, 16), 6);
                for (size_t k = 0; k < 6; k++) {
                        const uint8_t *p = got.r[prp[k]].b, *a = got.r[rsp[k]].b,
                                      *b = got.r[sto[k]].b;
                        assert_int_equal(got.r[rsp[k]].len, 28);
                        assert_int_equal(rd(a, 2), 28);
                        assert_int_equal(rd(a + 20, 2), rd(p + 20, 2));
                        all_zero(a, 22, 28); /* reserved, and no free-storage extends */
                        same(rsp[k], "SYTRSP_PFXCPUAD", rd(p + 20, 2));
                        same(rsp[k], "SYTRSP_PLSSTLFR", 0);
                        assert_int_equal(got.r[sto[k]].len, 32);
                        assert_int_equal(rd(b + 20, 2), rd(p + 20, 2));
                        all_zero(b, 22, 32);
                        same(sto[k], "STORSP_PFXCPUAD", rd(p + 20, 2));
                        assert_int_equal(got.r[rsp[k]].kind, 'S');
                }
        }
        sim_sys_free(s);
}

/* SYTCUG counts the partitions whose SYTCUP records the set holds. */
static void partitions(void **state)
{
        (void)state;
        for (unsigned lpars = 0; lpars <= 3; lpars++) {
                struct sim_cfg c = cfg(2, lpars);
                struct sim_sys *s = sim_sys_new(&c, NULL);
                sim_set_free(sim_sys_config(s, sim_sys_tod(s)));
                decode(sim_sys_interval(s));
                size_t cug[4], cup[8];
                size_t ncug = find(0, 15, cug, 4), ncup = find(0, 16, cup, 8);
                assert_int_equal(ncup, lpars);
                if (!lpars) {
                        assert_int_equal(ncug, 0); /* no partitions: no record of them */
                } else {
                        assert_int_equal(ncug, 1);
                        const uint8_t *g = got.r[cug[0]].b;
                        assert_int_equal(rd(g, 2), 28);
                        assert_int_equal(g[20], lpars);
                        all_zero(g, 21, 28);
                        same(cug[0], "SYTCUG_LCUTNPAR", lpars);
                }
                sim_sys_free(s);
        }
}

/* MTRSRV in the configuration set: an empty service structure where the record ends. */
static void service(void **state)
{
        (void)state;
        struct sim_cfg c = cfg(2, 1);
        struct sim_sys *s = sim_sys_new(&c, NULL);
        decode(sim_sys_config(s, sim_sys_tod(s)));
        size_t i[2];
        assert_int_equal(find(1, 31, i, 2), 1);
        const uint8_t *r = got.r[i[0]].b;
        assert_int_equal(rd(r, 2), 28);
        assert_int_equal(rd(r + 20, 2), 28);
        assert_int_equal(rd(r + 22, 2), 0);
        assert_int_equal(rd(r + 24, 2), 20);
        all_zero(r, 26, 28);
        same(i[0], "MTRSRV_SRVOFF", 28);
        same(i[0], "MTRSRV_SRVLEN", 0);
        same(i[0], "MTRSRV_LNELEN", 20);
        /* Written once, in the configuration, not in the samples. */
        decode(sim_sys_interval(s));
        assert_int_equal(find(1, 31, i, 2), 0);
        sim_sys_free(s);
}

/* The batch guest that logs on logs off, from the dormant list, with no mode bits set. */
static void logoff(void **state)
{
        (void)state;
        struct sim_cfg c = cfg(2, 1);
        struct sim_sys *s = sim_sys_new(&c, NULL);
        sim_set_free(sim_sys_config(s, sim_sys_tod(s)));
        unsigned seen = 0;
        for (unsigned n = 0; n < 15; n++) {
                struct sim_set *sample = sim_sys_interval(s), *e;
                while ((e = sim_sys_next_event(s))) {
                        decode(e);
                        size_t on[2], off[2];
                        if (find(4, 1, on, 2) != 1)
                                continue;
                        assert_int_equal(find(4, 2, off, 2), 1);
                        const uint8_t *a = got.r[on[0]].b, *b = got.r[off[0]].b;
                        assert_int_equal(got.r[off[0]].kind, 'E');
                        assert_memory_equal(a + 20, b + 20, 8); /* the same user */
                        assert_int_equal(rd(b + 28, 2), 0);
                        assert_int_equal(b[30], 0);
                        assert_int_equal(b[31], 0);
                        assert_int_equal(b[32], 0x0B);
                        assert_int_equal(a[30], 0);
                        same(off[0], "USELOF_VMDSLIST", 0x0B);
                        assert_true(rd(b + 8, 8) > rd(a + 8, 8)); /* off after on */
                        seen++;
                }
                sim_set_free(sample);
        }
        assert_int_equal(seen, 2); /* intervals 7 and 14 */
        sim_sys_free(s);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(per_processor),
            cmocka_unit_test(partitions),
            cmocka_unit_test(service),
            cmocka_unit_test(logoff),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
