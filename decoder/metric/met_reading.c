/* SPDX-License-Identifier: MIT */
/*
 * Which reading of zpmd's offsets does this system's data fit?
 *
 * zpmd's structs, read packed (as IBM's DSECTs are laid out), give the
 * default HINT offsets; compiled as zpmd built them, gcc aligns each 8-byte
 * field and SYTPRP from PFXTOTWT on and MTRSYS from SYSTODST on move 4
 * bytes further (doc/facts/cp-records.md 17).  Neither reading is verified, so
 * the data decide, as the laws do for single fields.  Under each reading:
 *
 *   MTRSYS   SYSTMID a CP name; LPARNAME a CP name or absent; SYSDATE
 *            "nn/nn/nn" in EBCDIC or absent; SYSTODST a TOD after 2000 and
 *            before the record's own TOD, or absent; CPUCOUNT at least the
 *            CPUs of the MTRPRP and SYTPRP records present (twice that
 *            under multithreading), CPUCFGCT at most CPUCOUNT
 *   SYTPRP   the cpu-wait law (user + system + wait = elapsed per CPU).
 *            Under PR/SM steal it may fail both ways, so it only counts
 *            against a reading when it holds for the other
 *
 * "Absent" is all zero bytes: no evidence either way.  The default stays
 * unless it fails and the other passes; if neither passes, the system name
 * is not taken from MTRSYS and CP data go under collectd's Hostname.
 * CPReading (zm_options.cp_reading) pins a reading; its failures are still
 * logged.  Every change is logged once, and the choice is a self-metric,
 * zvm/reader/gauge/cp-reading: 0 packed, 1 aligned, -1 neither passes.
 *
 * The system name (SYSTMID, lower-cased: collectd's host) is set here,
 * from the reading in use.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/tod.h"
#include "layout/layout.h"
#include "metric/met_module.h"

#define NR      2
#define MAXCPU  256
#define TOL_REL 0.10
#define SLACK   2000.0 /* us per CPU, as the cpu-wait law */

static const char *const rname[NR] = {NULL, "aligned"};
static const char *const rlabel[NR] = {"packed", "aligned"};

enum wait { W_UNKNOWN, W_HOLD, W_FAIL };

struct rd_cpu {
        bool have;
        uint64_t tod, ut, sys, wt[NR];
        bool wt_ok[NR];
};

struct rd_state {
        int cur;      /* the reading in use: 0 packed, 1 aligned */
        int pin;      /* -1 auto */
        bool neither; /* no reading passes */
        bool have_sys;
        bool sys_ok[NR];
        char why[NR][160];
        char name[NR][16];
        unsigned cpucount[NR], cpucfg[NR];
        uint8_t prp[MAXCPU / 8]; /* MTRPRP CPU addresses since the last MTRSYS */
        unsigned nprp;
        unsigned nsyt; /* SYTPRP CPUs of the interval */
        enum wait wait[NR];
        unsigned hold[NR], fail[NR]; /* cpu-wait per CPU this interval */
        struct rd_cpu cpu[MAXCPU];
        bool logged_pin_fail;
        int logged; /* last state logged: 0 packed, 1 aligned, -1 neither, -2 nothing yet */
};

static bool cp_name(const char *s)
{
        size_t n = strlen(s);
        if (n == 0 || n > 8)
                return false;
        for (size_t i = 0; i < n; i++) {
                char c = s[i];
                if (!(isupper((unsigned char)c) || isdigit((unsigned char)c) || c == '@' ||
                      c == '#' || c == '$'))
                        return false;
        }
        return true;
}

static bool zero(const struct zl_value *v)
{
        for (size_t i = 0; i < v->raw.n; i++)
                if (v->raw.p[i])
                        return false;
        return true;
}

/* false, with the reason, if the field is present, not all zero and not of the shape. */
static bool text_ok(const struct zl_layout *l, zd_view rec, const char *field, bool date, char *why,
                    size_t whysz)
{
        struct zl_value v;
        char t[64];
        if (!zl_get(l, rec, field, &v) || !v.present || zero(&v))
                return true;
        zl_text(&v, t, sizeof(t));
        bool ok;
        if (date) {
                ok = strlen(t) == 8;
                for (size_t i = 0; ok && i < 8; i++)
                        ok = i == 2 || i == 5 ? strchr("/-.", t[i]) != NULL
                                              : isdigit((unsigned char)t[i]);
        } else
                ok = cp_name(t);
        if (!ok)
                snprintf(why, whysz, "%s \"%.16s\" is not %s", field, t,
                         date ? "a date nn/nn/nn" : "a CP name");
        return ok;
}

static void check_mtrsys(struct rd_state *s, int k, const struct zd_record *r)
{
        const struct zl_layout *l = zl_find_cp_reading(1, 4, r->rec.n, rname[k]);
        char *why = s->why[k];
        struct zl_value v;
        why[0] = 0;
        s->name[k][0] = 0;
        s->cpucount[k] = s->cpucfg[k] = 0;
        s->sys_ok[k] = false;
        if (!l || !zl_get(l, r->rec, "MTRSYS_SYSTMID", &v) || !v.present) {
                snprintf(why, sizeof(s->why[k]), "MTRSYS too short for SYSTMID");
                return;
        }
        char t[64];
        zl_text(&v, t, sizeof(t));
        if (!cp_name(t)) {
                snprintf(why, sizeof(s->why[k]), "MTRSYS_SYSTMID \"%.16s\" is not a CP name", t);
                return;
        }
        snprintf(s->name[k], sizeof(s->name[k]), "%.8s", t);
        if (!text_ok(l, r->rec, "MTRSYS_LPARNAME", false, why, sizeof(s->why[k])) ||
            !text_ok(l, r->rec, "MTRSYS_SYSDATE", true, why, sizeof(s->why[k])))
                return;
        if (zl_get(l, r->rec, "MTRSYS_SYSTODST", &v) && v.present && v.u) {
                uint64_t y2000 = zd_unix_us_to_tod(INT64_C(946684800) * 1000000);
                if (v.u < y2000 || v.u >= r->tod) {
                        int64_t us = zd_tod_to_unix_us(v.u);
                        snprintf(why, sizeof(s->why[k]),
                                 "MTRSYS_SYSTODST (IPL) at unix %lld s, not between 2000 and the "
                                 "record's own time",
                                 (long long)(us / 1000000));
                        return;
                }
        }
        uint64_t u;
        if (zl_get_u64(l, r->rec, "MTRSYS_CPUCOUNT", &u))
                s->cpucount[k] = (unsigned)u;
        if (zl_get_u64(l, r->rec, "MTRSYS_CPUCFGCT", &u))
                s->cpucfg[k] = (unsigned)u;
        s->sys_ok[k] = true;
}

/* The MTRSYS tests plus the CPU count against the processor records present. */
static bool sys_pass(struct rd_state *s, int k, char *why, size_t whysz)
{
        if (!s->have_sys)
                return true;
        if (!s->sys_ok[k]) {
                snprintf(why, whysz, "%s", s->why[k]);
                return false;
        }
        unsigned n = s->nprp > s->nsyt ? s->nprp : s->nsyt, c = s->cpucount[k];
        if (c && (c > 1024 || n > 2 * c || (s->cpucfg[k] && s->cpucfg[k] > c))) {
                snprintf(why, whysz,
                         "MTRSYS_CPUCOUNT %u (configured %u) does not fit the %u CPUs of the "
                         "MTRPRP/SYTPRP records",
                         c, s->cpucfg[k], n);
                return false;
        }
        return true;
}

static bool pass(struct rd_state *s, int k, char *why, size_t whysz)
{
        if (!sys_pass(s, k, why, whysz))
                return false;
        if (s->wait[k] == W_FAIL && s->wait[1 - k] == W_HOLD) {
                snprintf(why, whysz,
                         "SYTPRP user + system + wait time does not add up to the elapsed time "
                         "(cpu-wait), but does under the %s reading",
                         rlabel[1 - k]);
                return false;
        }
        return true;
}

/* The reading to use: the pinned one, the current one while it passes, else the other. */
static void choose(struct zm_engine *e, struct rd_state *s, const bool ok[NR], char why[NR][200])
{
        if (s->pin >= 0) {
                s->cur = s->pin;
                s->neither = !ok[s->pin];
                if (s->neither && !s->logged_pin_fail) {
                        s->logged_pin_fail = true;
                        zm_log(e, ZM_LOG_WARNING,
                               "CPReading %s (pinned) fails on this system's data: %s; CP "
                               "data go under collectd's Hostname",
                               rlabel[s->pin], why[s->pin]);
                }
        } else if (ok[s->cur]) {
                s->neither = false;
        } else if (ok[1 - s->cur]) {
                s->cur = 1 - s->cur;
                s->neither = false;
        } else {
                s->neither = true;
        }
}

/* Say once which reading the system uses, and why, each time that changes. */
static void tell(struct zm_engine *e, struct rd_state *s, int before, char why[NR][200])
{
        int now = s->neither ? -1 : s->cur;
        if (now == before && s->logged != -2)
                return;
        if (s->pin >= 0 && !s->neither)
                zm_log(e, ZM_LOG_INFO, "CP layout reading %s (pinned by CPReading)",
                       rlabel[s->cur]);
        else if (now >= 0 && now != 0)
                zm_log(e, ZM_LOG_NOTICE,
                       "CP layout reading %s: the %s reading of SYTPRP and MTRSYS fails (%s), "
                       "the %s one passes",
                       rlabel[now], rlabel[1 - now], why[1 - now], rlabel[now]);
        else if (now == 0 && s->logged != -2)
                zm_log(e, ZM_LOG_NOTICE, "CP layout reading packed (the default) passes again");
        else if (now < 0 && s->pin < 0)
                zm_log(e, ZM_LOG_WARNING,
                       "neither reading of SYTPRP and MTRSYS fits this system's data (packed: "
                       "%s; aligned: %s); CP data go under collectd's Hostname",
                       why[0], why[1]);
        s->logged = now;
}

/* The host: SYSTMID as the reading in use reads it, or collectd's Hostname. */
static void name_system(struct zm_engine *e, const struct rd_state *s)
{
        if (s->neither) {
                zm_set_system(e, "");
                return;
        }
        if (!s->have_sys || !s->name[s->cur][0])
                return;
        char lower[16];
        size_t i = 0;
        for (; s->name[s->cur][i]; i++)
                lower[i] = (char)tolower((unsigned char)s->name[s->cur][i]);
        lower[i] = 0;
        if (strcmp(lower, zm_engine_system(e)) != 0) {
                zm_log(e, ZM_LOG_INFO, "system name %s (MTRSYS_SYSTMID, %s reading)", lower,
                       rlabel[s->cur]);
                zm_set_system(e, lower);
        }
}

static void decide(struct zm_engine *e, struct rd_state *s)
{
        char why[NR][200] = {"", ""};
        bool ok[NR];
        for (int k = 0; k < NR; k++)
                ok[k] = pass(s, k, why[k], sizeof(why[k]));
        int before = s->neither ? -1 : s->cur;
        choose(e, s, ok, why);
        zm_set_reading(e, rname[s->cur]);
        tell(e, s, before, why);
        name_system(e, s);
}

static void on_sytprp(struct rd_state *s, const struct zd_record *r)
{
        uint64_t a, ut, sys;
        const struct zl_layout *l0 = zl_find_cp_reading(0, 2, r->rec.n, NULL);
        if (!zl_get_u64(l0, r->rec, "SYTPRP_PFXCPUAD", &a) || a >= MAXCPU ||
            !zl_get_u64(l0, r->rec, "SYTPRP_PFXUTIME", &ut) ||
            !zl_get_u64(l0, r->rec, "SYTPRP_PFXTMSYS", &sys))
                return;
        struct rd_cpu *c = &s->cpu[a];
        uint64_t wt[NR];
        bool wt_ok[NR];
        for (int k = 0; k < NR; k++)
                wt_ok[k] = zl_get_u64(zl_find_cp_reading(0, 2, r->rec.n, rname[k]), r->rec,
                                      "SYTPRP_PFXTOTWT", &wt[k]);
        if (c->have && r->tod > c->tod && ut >= c->ut && sys >= c->sys) {
                double el = (double)((r->tod - c->tod) / ZD_TOD_PER_US);
                double busy = (double)((ut - c->ut + sys - c->sys) / ZD_TOD_PER_US);
                for (int k = 0; k < NR; k++) {
                        if (!wt_ok[k] || !c->wt_ok[k])
                                continue;
                        double sum = busy + (double)((wt[k] - c->wt[k]) / ZD_TOD_PER_US);
                        double diff = sum > el ? sum - el : el - sum;
                        bool good = wt[k] >= c->wt[k] && diff <= TOL_REL * el + SLACK;
                        if (good)
                                s->hold[k]++;
                        else
                                s->fail[k]++;
                }
        }
        if (!c->have || r->tod > c->tod)
                s->nsyt++;
        c->have = true;
        c->tod = r->tod;
        c->ut = ut;
        c->sys = sys;
        for (int k = 0; k < NR; k++) {
                c->wt[k] = wt[k];
                c->wt_ok[k] = wt_ok[k];
        }
}

static void *rd_create(struct zm_engine *e)
{
        struct rd_state *s = calloc(1, sizeof(*s));
        if (!s)
                return NULL;
        const char *p = zm_engine_options(e)->cp_reading;
        s->pin = p && strcmp(p, "packed") == 0 ? 0 : p && strcmp(p, "aligned") == 0 ? 1 : -1;
        s->cur = s->pin > 0 ? s->pin : 0;
        s->logged = -2;
        zm_set_reading(e, rname[s->cur]);
        return s;
}

static void rd_destroy(void *state)
{
        free(state);
}

static void rd_record(struct zm_engine *e, void *state, const struct zd_record *r)
{
        struct rd_state *s = state;
        if (!s || r->kind == 'E')
                return;
        if (r->domain == 1 && r->number == 4) {
                s->have_sys = true;
                memset(s->prp, 0, sizeof(s->prp));
                s->nprp = 0;
                for (int k = 0; k < NR; k++)
                        check_mtrsys(s, k, r);
                decide(e, s);
        } else if (r->domain == 1 && r->number == 5) {
                uint64_t a;
                if (zl_get_u64(zl_find_cp(1, 5, r->rec.n), r->rec, "MTRPRP_PFXCPUAD", &a) &&
                    a < MAXCPU && !(s->prp[a / 8] & (1u << (a % 8)))) {
                        s->prp[a / 8] |= (uint8_t)(1u << (a % 8));
                        s->nprp++;
                }
        } else if (r->domain == 0 && r->number == 2) {
                on_sytprp(s, r);
        }
}

static void rd_interval_end(struct zm_engine *e, void *state, const struct zd_record *r)
{
        struct rd_state *s = state;
        if (!s)
                return;
        for (int k = 0; k < NR; k++) {
                if (s->fail[k])
                        s->wait[k] = W_FAIL;
                else if (s->hold[k])
                        s->wait[k] = W_HOLD;
                s->hold[k] = s->fail[k] = 0;
        }
        if (!s->have_sys && !s->nsyt)
                return; /* no CP data to judge */
        decide(e, s);
        s->nsyt = 0;
        struct zm_metric m;
        zm_metric_init(&m, ZM_SYSTEM, r);
        zm_metric_name(&m, "zvm", "reader", "gauge", "cp-reading");
        zm_metric_gauge(&m, s->neither ? -1.0 : (double)s->cur);
        zm_emit(e, &m);
}

const struct zm_module zm_mod_reading = {.name = "reading",
                                         .create = rd_create,
                                         .destroy = rd_destroy,
                                         .record = rd_record,
                                         .interval_end = rd_interval_end,
                                         .domains = 1u << 0 | 1u << 1};
