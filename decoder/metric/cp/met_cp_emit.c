/* SPDX-License-Identifier: MIT */
/*
 * The CP metrics, emitted when an interval closes.  doc/metrics-cp.md lists
 * every one with its record, field, provenance, check, unit and DS type;
 * keep the two in step.  Metrics from HINT fields carry the name of the law
 * that vouches for them in zm_metric.check and go through cp_emit(), which
 * holds them back until that law is on (met_verify.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "metric/cp/met_cp_emit.h"

#define PAGE 4096.0

void cp_emit(struct zm_engine *e, struct cp_state *s, struct zm_metric *m)
{
        if (m->check && !zv_allowed(s->v, e, m->check)) {
                zm_counters_mut(e)->hint_suppressed++;
                return;
        }
        zm_emit(e, m);
}

static void start(struct zm_metric *m, const struct cp_ent *x, int dom, int rec, const char *pi,
                  const char *type, const char *ti, const char *check)
{
        zm_metric_init(m, ZM_SYSTEM, NULL);
        m->tod = x->tod;
        m->domain = (uint8_t)dom;
        m->record = (uint16_t)rec;
        zm_metric_name(m, "zvm", pi, type, ti);
        m->check = check;
        /* Per-guest CP data (user domain, a guest's virtual NIC) obeys the
         * plugin's userid filters too; the host stays the z/VM system. */
        if (dom == 4 || dom == 8)
                memcpy(m->guest, x->name, 8); /* CP userids are 8 bytes at most; m->guest[8] is 0 */
}

/* The entry's plugin instance: formatted when the entry is new, kept while it lives. */
__attribute__((format(printf, 2, 3))) static const char *label(struct cp_ent *x, const char *fmt,
                                                               ...)
{
        if (!x->label[0]) {
                va_list ap;
                va_start(ap, fmt);
                vsnprintf(x->label, sizeof(x->label), fmt, ap);
                va_end(ap);
        }
        return x->label;
}

static double pct(double part, double whole)
{
        double p = 100.0 * part / whole;
        return p < 0 ? 0 : p > 100 ? 100 : p; /* record-time skew: never past collectd's max */
}

static void gauge(struct zm_engine *e, struct cp_state *s, const struct cp_ent *x, int dom, int rec,
                  const char *pi, const char *type, const char *ti, const char *check, double v)
{
        struct zm_metric m;
        start(&m, x, dom, rec, pi, type, ti, check);
        zm_metric_gauge(&m, v);
        cp_emit(e, s, &m);
}

static void derive(struct zm_engine *e, struct cp_state *s, const struct cp_ent *x, int dom,
                   int rec, const char *pi, const char *type, const char *ti, const char *check,
                   uint64_t v)
{
        struct zm_metric m;
        start(&m, x, dom, rec, pi, type, ti, check);
        zm_metric_derive(&m, (int64_t)(v & INT64_MAX));
        cp_emit(e, s, &m);
}

/* rx, tx: collectd's interface types order their data sources that way. */
static void derive2(struct zm_engine *e, struct cp_state *s, const struct cp_ent *x, int dom,
                    int rec, const char *pi, const char *type, const char *check, uint64_t a,
                    uint64_t b)
{
        struct zm_metric m;
        start(&m, x, dom, rec, pi, type, NULL, check);
        zm_metric_derive(&m, (int64_t)(a & INT64_MAX));
        zm_metric_derive(&m, (int64_t)(b & INT64_MAX));
        cp_emit(e, s, &m);
}

static void cpus(struct zm_engine *e, struct cp_state *s)
{
        for (size_t i = 0; i < s->prp.n; i++) {
                struct cp_ent *x = &s->prp.e[i];
                double el = (double)cp_elapsed_us(x);
                if (el <= 0)
                        continue;
                const char *pi = label(x, "cpu%u", x->id);
                double ut = (double)x->d[P_UT], sys = (double)x->d[P_SYS];
                if (HAS(x, P_UT) && HAS(x, P_SYS))
                        gauge(e, s, x, 0, 2, pi, "percent", "busy",
                              cp_check(x, (1u << P_UT) | (1u << P_SYS), NULL), pct((ut + sys), el));
                if (HAS(x, P_UT))
                        gauge(e, s, x, 0, 2, pi, "percent", "user", cp_check(x, (1u << P_UT), NULL),
                              pct(ut, el));
                if (HAS(x, P_SYS))
                        gauge(e, s, x, 0, 2, pi, "percent", "overhead",
                              cp_check(x, (1u << P_SYS), NULL), pct(sys, el));
                if (HAS(x, P_PRB))
                        gauge(e, s, x, 0, 2, pi, "percent", "emulation",
                              cp_check(x, (1u << P_PRB), NULL), pct((double)x->d[P_PRB], el));
                if (HAS(x, P_WT))
                        gauge(e, s, x, 0, 2, pi, "percent", "wait",
                              cp_check(x, (1u << P_WT), "cpu-wait"), pct((double)x->d[P_WT], el));
        }
        for (size_t i = 0; i < s->syp.n; i++) {
                struct cp_ent *x = &s->syp.e[i];
                const char *pi = label(x, "cpu%u", x->id);
                if (HAS(x, Y_DIAG))
                        derive(e, s, x, 0, 1, pi, "operations", "diagnose",
                               cp_check(x, (1u << Y_DIAG), NULL), x->acc[Y_DIAG]);
                if (HAS(x, Y_PRVIS))
                        derive(e, s, x, 0, 1, pi, "operations", "simulation",
                               cp_check(x, (1u << Y_PRVIS), NULL), x->acc[Y_PRVIS]);
                if (HAS(x, Y_SS) && HAS(x, Y_RS))
                        derive(e, s, x, 0, 1, pi, "operations", "ssch",
                               cp_check(x, (1u << Y_SS) | (1u << Y_RS), NULL),
                               x->acc[Y_SS] + x->acc[Y_RS]);
        }
}

static void system_wide(struct zm_engine *e, struct cp_state *s)
{
        const struct cp_ent *g = &s->rsg;
        if (g->cur && (g->have & (1u << R_AVAIL)) && (g->have & (1u << R_PGABL))) {
                double avail = (double)g->v[R_AVAIL], pg = (double)g->v[R_PGABL];
                gauge(e, s, g, 0, 3, "storage", "memory", "free",
                      cp_check(g, (1u << R_AVAIL), "storage"), avail * PAGE);
                if (pg >= avail)
                        gauge(e, s, g, 0, 3, "storage", "memory", "used",
                              cp_check(g, (1u << R_AVAIL) | (1u << R_PGABL), "storage"),
                              (pg - avail) * PAGE);
        }
        for (size_t i = 0; i < s->syp.n; i++)
                if (HAS(&s->syp.e[i], Y_PIOPR) && HAS(&s->syp.e[i], Y_PIOPW)) {
                        struct zm_metric m;
                        start(&m, &s->syp.e[i], 0, 1, "storage", "vmpage_io", "paging",
                              cp_check(&s->syp.e[i], (1u << Y_PIOPR) | (1u << Y_PIOPW), "paging"));
                        zm_metric_derive(&m, (int64_t)(s->paging.acc[X_PGR] & INT64_MAX));
                        zm_metric_derive(&m, (int64_t)(s->paging.acc[X_PGW] & INT64_MAX));
                        cp_emit(e, s, &m);
                        break;
                }
        const struct cp_ent *u = &s->usr;
        if (u->cur && (u->have & (1u << U_USERS)))
                gauge(e, s, u, 0, 8, "system", "users", "logged-on",
                      cp_check(u, (1u << U_USERS), NULL), (double)u->v[U_USERS]);
        if (u->cur && (u->have & (1u << U_DORM)))
                gauge(e, s, u, 0, 8, "system", "users", "dormant",
                      cp_check(u, (1u << U_DORM), NULL), (double)u->v[U_DORM]);
}

static void guests(struct zm_engine *e, struct cp_state *s)
{
        for (size_t i = 0; i < s->guest.n; i++) {
                struct cp_ent *g = &s->guest.e[i];
                if (!g->cur)
                        continue;
                const char *pi = label(g, "user-%s", g->name);
                /* per virtual CPU, so that "percent" stays within 0-100 */
                double el = (double)cp_elapsed_us(g) * (double)(g->id ? g->id : 1);
                if (el > 0 && HAS(g, G_TT))
                        gauge(e, s, g, 4, 3, pi, "percent", "cpu-total",
                              cp_check(g, (1u << G_TT), "guest-cpu"), pct((double)g->d[G_TT], el));
                if (el > 0 && HAS(g, G_VT))
                        gauge(e, s, g, 4, 3, pi, "percent", "cpu-virtual",
                              cp_check(g, (1u << G_VT), "guest-vcpu"), pct((double)g->d[G_VT], el));
                if (HAS(g, G_TT))
                        derive(e, s, g, 4, 3, pi, "virt_cpu_total", "total",
                               cp_check(g, (1u << G_TT), "guest-cpu"), g->acc[G_TT] * 1000);
                if (HAS(g, G_VT))
                        derive(e, s, g, 4, 3, pi, "virt_cpu_total", "virtual",
                               cp_check(g, (1u << G_VT), "guest-vcpu"), g->acc[G_VT] * 1000);
                if (g->have & (1u << G_RES))
                        gauge(e, s, g, 4, 3, pi, "memory", "resident",
                              cp_check(g, (1u << G_RES), "guest-resident"),
                              (double)g->v[G_RES] * PAGE);
                if (HAS(g, G_VIO))
                        derive(e, s, g, 4, 3, pi, "operations", "virtual-io",
                               cp_check(g, 1u << G_VIO, "guest-vio"), g->acc[G_VIO]);
                if (HAS(g, G_PGR) && HAS(g, G_PGW)) {
                        struct zm_metric m;
                        start(&m, g, 4, 3, pi, "vmpage_io", "paging",
                              cp_check(g, (1u << G_PGR) | (1u << G_PGW), "paging"));
                        zm_metric_derive(&m, (int64_t)(g->acc[G_PGR] & INT64_MAX));
                        zm_metric_derive(&m, (int64_t)(g->acc[G_PGW] & INT64_MAX));
                        cp_emit(e, s, &m);
                }
        }
}

static void devices(struct zm_engine *e, struct cp_state *s)
{
        for (size_t i = 0; i < s->dev.n; i++) {
                struct cp_ent *x = &s->dev.e[i];
                if (!HAS(x, D_SSCHG))
                        continue;
                const char *pi = label(x, "device-%04X", x->id);
                derive(e, s, x, 6, 3, pi, "operations", "ssch",
                       cp_check(x, (1u << D_SSCHG), "device-ssch"), x->acc[D_SSCHG]);
                /* The channel measurement block's 128 us units, as milliseconds. */
                static const struct {
                        int slot;
                        const char *ti;
                } tm[] = {{D_CONN, "connect"},
                          {D_PEND, "pending"},
                          {D_DISC, "disconnect"},
                          {D_DAO, "device-active"}};
                for (size_t k = 0; k < sizeof(tm) / sizeof(tm[0]); k++)
                        if (HAS(x, tm[k].slot))
                                derive(e, s, x, 6, 3, pi, "total_time_in_ms", tm[k].ti,
                                       cp_check(x, 1u << tm[k].slot, "device-time"),
                                       x->acc[tm[k].slot] * 128 / 1000);
        }
        for (size_t i = 0; i < s->nic.n; i++) {
                struct cp_ent *x = &s->nic.e[i];
                if ((x->dok & 0xFFu) != 0xFFu)
                        continue;
                const char *pi = label(x, "vnic-%s-%04X", x->name, x->id);
                const char *chk = cp_check(x, 0xFFu, "vnic");
                derive2(e, s, x, 8, 1, pi, "if_octets", chk, x->acc[N_RXB], x->acc[N_TXB]);
                derive2(e, s, x, 8, 1, pi, "if_packets", chk, x->acc[N_RXP], x->acc[N_TXP]);
                derive2(e, s, x, 8, 1, pi, "if_errors", chk, x->acc[N_RXE], x->acc[N_TXE]);
                derive2(e, s, x, 8, 1, pi, "if_dropped", chk, x->acc[N_RXD], x->acc[N_TXD]);
        }
        for (size_t i = 0; i < s->lpar.n; i++) {
                const struct cp_ent *x = &s->lpar.e[i];
                double el = (double)cp_elapsed_us(x);
                if (el <= 0 || !HAS(x, L_ACT))
                        continue;
                char pi[ZM_NAME_LEN], ti[ZM_NAME_LEN];
                snprintf(pi, sizeof(pi), "lpar-%s", x->name);
                snprintf(ti, sizeof(ti), "cpu%u", x->id);
                gauge(e, s, x, 0, 16, pi, "percent", ti, cp_check(x, (1u << L_ACT), "lpar"),
                      pct((double)x->d[L_ACT], el));
                /* LPAR management: dispatch time with it (ACTM) less without it (LPTM). */
                if (HAS(x, L_LP) && x->d[L_LP] <= x->d[L_ACT]) {
                        snprintf(ti, sizeof(ti), "cpu%u-management", x->id);
                        gauge(e, s, x, 0, 16, pi, "percent", ti,
                              cp_check(x, (1u << L_ACT) | (1u << L_LP), "lpar"),
                              pct((double)(x->d[L_ACT] - x->d[L_LP]), el));
                }
        }
}

void cp_emit_all(struct zm_engine *e, struct cp_state *s)
{
        cpus(e, s);
        system_wide(e, s);
        guests(e, s);
        devices(e, s);
}
