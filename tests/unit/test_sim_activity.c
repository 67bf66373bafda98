/* SPDX-License-Identifier: MIT */
/*
 * zvmsim's system-wide activity (zvmsim/sim_activity.c) in its records, read
 * at the offsets IBM's pages give (doc/facts/cp-records.md), written here:
 *   D0R8  SYTUSR  28 CALMPTRV (8, TOD), 36 CALMPTCT (4), 40 CALMPNTR (8), 48 CALMPNCT (4)
 *   D0R19 SYTSYG  20 XCTMSACT (8), 28 FTRDONE (4); past 32 only hints
 *   D1R9  MTRSPR  28 SDOMAINS (2, X'8000' = domain 0; a zpmd hint)
 *   D1R25 MTRSSI  20 SYSPLXNM (8, EBCDIC), 28 SYSPLXLV, 30 SYSPLXML, 32 SYSPLXNS, 34 SYSPLXNR
 *   D11R1 SSISCS  20 PLMSYCNT (4), 24 PLMSYPRO (4)
 *   D11R2 SSISMI  20-36 PLMN{JONG,JOND,LEAV,ISOL,SUSP} (4 each), 40-72 PLMT... (8 each, us)
 *   D6R3  IODDEV  192 SCGSSCH (4; a zpmd hint, the devices' SSCH count)
 * Counters move the way CP's do (monotonic, 4-byte ones modulo 2^32), the
 * mean response times lie where the model puts them, fast CCW translations
 * never outnumber the SSCHs, and --ssi adds its records and changes nothing
 * else.
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

#define MAXREC 64

/* The records (domain, number) of a set, walked by the documented rules: MCE, range, frames. */
static size_t find(const struct sim_set *s, unsigned dom, unsigned num, const uint8_t **out)
{
        size_t n = 0;
        for (size_t off = 0; off < s->len;) {
                const uint8_t *m = s->buf + off;
                uint32_t start = (uint32_t)rd(m + 4, 4), end = (uint32_t)rd(m + 8, 4);
                size_t len = (size_t)end - start + 1;
                for (size_t p = 0; p < len;) {
                        const uint8_t *r = m + 12 + p;
                        size_t frame_left = 4096 - ((start + p) & 0xFFF);
                        if (r[4] == 1 && rd(r + 6, 2) == 13) { /* End-of-Frame */
                                p += frame_left;
                                continue;
                        }
                        if (r[4] == dom && rd(r + 6, 2) == num && n < MAXREC)
                                out[n++] = r;
                        p += rd(r, 2);
                }
                off += 12 + len;
        }
        return n;
}

static const uint8_t *one(const struct sim_set *s, unsigned dom, unsigned num)
{
        const uint8_t *r[MAXREC];
        assert_int_equal(find(s, dom, num, r), 1);
        return r[0];
}

static struct sim_cfg cfg(const char *ssi)
{
        struct sim_cfg c;
        sim_cfg_default(&c);
        c.seed = 3;
        c.guests = 12;
        c.linux_guests = 6;
        c.devices = 5;
        snprintf(c.ssi_name, sizeof(c.ssi_name), "%s", ssi);
        return c;
}

/* Interval by interval, the model's counters are the record's bytes, and they move plausibly. */
static void transactions(void **state)
{
        (void)state;
        struct sim_cfg c = cfg("");
        struct sim_sys *s = sim_sys_new(&c, NULL);
        assert_true(s->act.mp_users > 0);
        sim_set_free(sim_sys_config(s, sim_sys_tod(s)));
        uint64_t tcnt = 0, ttod = 0, ncnt = 0, ntod = 0;
        for (unsigned i = 0; i < 30; i++) {
                struct sim_set *set = sim_sys_interval(s);
                const uint8_t *u = one(set, 0, 8);
                assert_int_equal(rd(u, 2), 100); /* SYTUSR's length */
                uint64_t trv = rd(u + 28, 8), tct = rd(u + 36, 4), ntr = rd(u + 40, 8),
                         nct = rd(u + 48, 4);
                assert_int_equal(tct, (uint32_t)s->act.trv_n);
                assert_int_equal(trv, s->act.trv_tod);
                assert_int_equal(nct, (uint32_t)s->act.ntr_n);
                assert_int_equal(ntr, s->act.ntr_tod);
                uint64_t dtc = (tct - tcnt) & 0xFFFFFFFF, dnc = (nct - ncnt) & 0xFFFFFFFF;
                assert_true(trv >= ttod && ntr >= ntod);
                /* 60 s of several busy virtual-MP guests: transactions every interval. */
                assert_true(dtc > 100 && dnc > 10 && dtc > dnc);
                /* whole microseconds in TOD units; mean response times in their ranges */
                assert_int_equal((trv - ttod) % 4096, 0);
                assert_int_equal((ntr - ntod) % 4096, 0);
                double mt = (double)(trv - ttod) / 4096e6 / (double)dtc;
                double mn = (double)(ntr - ntod) / 4096e6 / (double)dnc;
                assert_true(mt >= 0.05 && mt <= 0.3);
                assert_true(mn >= 0.5 && mn <= 3.0);
                tcnt = tct, ttod = trv, ncnt = nct, ntod = ntr;
                sim_set_free(set);
        }
        sim_sys_free(s);
}

/* A system of uniprocessor guests has no virtual-MP transactions. */
static void no_mp_users_no_transactions(void **state)
{
        (void)state;
        struct sim_cfg c = cfg("");
        c.linux_guests = 0; /* only Linux guests get more than one virtual CPU */
        struct sim_sys *s = sim_sys_new(&c, NULL);
        sim_set_free(sim_sys_config(s, sim_sys_tod(s)));
        for (unsigned i = 0; i < 5; i++) {
                struct sim_set *set = sim_sys_interval(s);
                const uint8_t *u = one(set, 0, 8);
                assert_int_equal(rd(u + 28, 8) | rd(u + 36, 4) | rd(u + 40, 8) | rd(u + 48, 4), 0);
                sim_set_free(set);
        }
        sim_sys_free(s);
}

/* FTRDONE grows by 60-90 % of the devices' SSCHs, never more; XCTMSACT and the hints stay 0. */
static void fast_ccw_translations(void **state)
{
        (void)state;
        struct sim_cfg c = cfg("");
        struct sim_sys *s = sim_sys_new(&c, NULL);
        sim_set_free(sim_sys_config(s, sim_sys_tod(s)));
        uint64_t ftr = 0, ssch = 0;
        for (unsigned i = 0; i < 30; i++) {
                struct sim_set *set = sim_sys_interval(s);
                const uint8_t *g = one(set, 0, 19);
                size_t len = rd(g, 2);
                assert_int_equal(len, 112);
                assert_int_equal(rd(g + 20, 8), 0);
                for (size_t b = 32; b < len; b++)
                        assert_int_equal(g[b], 0);
                const uint8_t *d[MAXREC];
                size_t nd = find(set, 6, 3, d);
                assert_int_equal(nd, c.devices);
                uint64_t now = 0;
                for (size_t k = 0; k < nd; k++)
                        now += rd(d[k] + 192, 4);
                uint64_t f = rd(g + 28, 4);
                uint64_t df = (f - ftr) & 0xFFFFFFFF, ds = now - ssch;
                assert_true(df <= ds);
                assert_true((double)df >= 0.6 * (double)ds - 1);
                ftr = f, ssch = now;
                sim_set_free(set);
        }
        assert_true(ftr > 0);
        sim_sys_free(s);
}

static const uint8_t SSI1_EBCDIC[8] = {0xE2, 0xE2, 0xC9, 0xF1, 0x40, 0x40, 0x40, 0x40};

/* --ssi: MTRSSI with the name, a member that stays joined, synchronizations answered. */
static void ssi_member(void **state)
{
        (void)state;
        struct sim_cfg c = cfg("SSI1");
        struct sim_sys *s = sim_sys_new(&c, NULL);
        struct sim_set *conf = sim_sys_config(s, sim_sys_tod(s));
        const uint8_t *m = one(conf, 1, 25);
        assert_memory_equal(m + 20, SSI1_EBCDIC, 8);
        assert_int_equal(rd(m + 32, 2), 4);
        assert_int_equal(rd(m + 34, 2), 2);
        assert_true(rd(m + 30, 2) >= rd(m + 28, 2));
        sim_set_free(conf);
        uint64_t joining = 0, joined = 0, sync = 0;
        for (unsigned i = 0; i < 30; i++) {
                struct sim_set *set = sim_sys_interval(s);
                const uint8_t *x = one(set, 11, 2), *y = one(set, 11, 1);
                assert_int_equal(rd(x + 20, 4), 1);
                assert_int_equal(rd(x + 24, 4), 1);
                for (unsigned k = 28; k < 40; k += 4)
                        assert_int_equal(rd(x + k, 4), 0);
                for (unsigned k = 56; k < 80; k += 8)
                        assert_int_equal(rd(x + k, 8), 0);
                uint64_t jg = rd(x + 40, 8), jd = rd(x + 48, 8);
                if (i) {
                        assert_int_equal(jg, joining);
                        assert_int_equal(jd - joined, 60000000); /* the 60 s interval, in us */
                }
                /* joined since IPL, three days before the first data */
                assert_int_equal(jg + jd, (UINT64_C(3) * 86400 + 60 * (i + 1)) * 1000000);
                uint64_t sy = rd(y + 20, 4);
                assert_true(sy >= sync && sy - sync <= 20);
                assert_int_equal(rd(y + 24, 4), sy); /* one answer per synchronization */
                joining = jg, joined = jd, sync = sy;
                sim_set_free(set);
        }
        assert_true(sync > 0);
        sim_sys_free(s);
}

/* MTRSPR's domain vector, D1R25 and domain 11 as --ssi and --domains say. */
static void domains(void **state)
{
        (void)state;
        static const struct {
                const char *ssi, *domains;
                uint64_t vector;
                size_t mtrssi, d11;
        } cases[] = {
            {"", "all", 0xFFF0, 0, 0},
            {"SSI1", "all", 0xFFF0, 1, 1},
            {"SSI1", "system,user", 0xC800, 1, 0},
            {"SSI1", "ssi", 0x4010, 1, 1},
        };
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                struct sim_cfg c = cfg(cases[i].ssi);
                assert_true(sim_parse_domains(cases[i].domains, &c.domains));
                struct sim_sys *s = sim_sys_new(&c, NULL);
                struct sim_set *conf = sim_sys_config(s, sim_sys_tod(s)),
                               *set = sim_sys_interval(s);
                const uint8_t *r[MAXREC];
                assert_int_equal(rd(one(conf, 1, 9) + 28, 2), cases[i].vector);
                assert_int_equal(find(conf, 1, 25, r), cases[i].mtrssi);
                assert_int_equal(find(set, 11, 1, r), cases[i].d11);
                assert_int_equal(find(set, 11, 2, r), cases[i].d11);
                sim_set_free(conf);
                sim_set_free(set);
                sim_sys_free(s);
        }
}

/* The truth of 10 intervals, without set lines (they hold sizes) and without SSI records. */
static char *truth_of(const char *ssi)
{
        struct sim_cfg c = cfg(ssi);
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        assert_non_null(f);
        struct sim_truth *t = sim_truth_on(f, true);
        struct sim_sys *s = sim_sys_new(&c, t);
        sim_set_free(sim_sys_config(s, sim_sys_tod(s)));
        for (unsigned i = 0; i < 10; i++) {
                struct sim_set *set = sim_sys_interval(s), *e;
                while ((e = sim_sys_next_event(s)))
                        sim_set_free(e);
                sim_set_free(set);
        }
        sim_sys_free(s);
        sim_truth_close(t);
        fclose(f);
        char *out = calloc(1, len + 1), *o = out;
        assert_non_null(out);
        for (char *p = buf, *nl; *p; p = nl + 1) {
                nl = strchr(p, '\n');
                assert_non_null(nl);
                *nl = '\0'; /* strstr within the line */
                if (strncmp(p, "{\"set\"", 6) != 0 && !strstr(p, "\"key\":\"ssi\"")) {
                        memcpy(o, p, (size_t)(nl - p));
                        o += nl - p;
                        *o++ = '\n';
                }
        }
        free(buf);
        return out;
}

static void ssi_changes_nothing_else(void **state)
{
        (void)state;
        char *without = truth_of(""), *with = truth_of("SSI1");
        assert_true(strlen(without) > 10000);
        assert_string_equal(without, with);
        free(without);
        free(with);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(transactions),
            cmocka_unit_test(no_mp_users_no_transactions),
            cmocka_unit_test(fast_ccw_translations),
            cmocka_unit_test(ssi_member),
            cmocka_unit_test(domains),
            cmocka_unit_test(ssi_changes_nothing_else),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
