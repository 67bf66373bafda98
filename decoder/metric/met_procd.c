/* SPDX-License-Identifier: MIT */
/*
 * mon_procd's per-task records (LNXAPPL applid 2, record 1;
 * doc/facts/s390-tools.md 3) aggregated per configured process name into
 * the series of collectd's processes plugin (plugin "processes", instance
 * NAME): ps_count, ps_vm, ps_rss, ps_data, ps_code, ps_cputime,
 * ps_pagefaults.  Only when zm_options.procs names processes; doc/plugin.md
 * says which record field feeds which value and what the record lacks.
 *
 * mon_procd writes one buffer per task on every pass, all with the pass's
 * time stamp; CP copies every buffer at each sample.  The tasks of one
 * guest in one sample interval are therefore one pass, and are aggregated
 * at Interval End:
 *   - buffers of two passes (CP sampled while mon_procd was writing) are
 *     held back (procd_torn); the next sample has the whole pass;
 *   - a pass already reported (mon_procd's interval longer than CP's) is
 *     not reported again;
 *   - CPU time and major faults are counters per process: as collectd does,
 *     each process's increase since the previous pass is added to the
 *     name's counter, so a process that ends does not make it go back.  A
 *     process seen for the first time adds its whole count when the pass
 *     lists every task (fewer than 100: a new process), nothing when the
 *     pass is cut at mon_procd's 100 (it may only have entered the top 100).
 *     A pid whose CPU time or major faults fell is a new process under a
 *     reused pid, for both counters.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/tod.h"
#include "metric/met_module.h"
#include "metric/procsel.h"
#include "payload/appldata/appl.h"

#define PROCD_MAX_TASKS 100 /* mon_procd reports at most this many tasks per pass */

/* One task of the pass being collected. */
struct ptask {
        uint64_t ts;
        uint32_t pid;
        uint64_t total_time, maj_flt, size, resident, trs, drs;
};

/* A task's counters at the previous pass, sorted by pid. */
struct pprev {
        uint32_t pid;
        uint64_t total_time, maj_flt;
};

struct pguest {
        char userid[9];
        bool reported;    /* a pass was reported: prev holds its counters */
        uint64_t done_ts; /* that pass's time stamp */
        struct ptask *cur;
        size_t ncur, capcur;
        uint8_t *match; /* ncur x nsel: task i matches entry j */
        size_t capmatch;
        struct pprev *prev;
        size_t nprev, capprev;
        int64_t *cpu_us, *majflt; /* per entry: the name's counters */
};

struct pd_state {
        const struct zm_procsel *sel;
        size_t nsel;
        double *acc; /* 5 x nsel: count, vm, rss, data, code of the pass being reported */
        struct pguest *g;
        size_t ng, capg;
        struct zh_index ix;
};

static void *pd_create(struct zm_engine *e)
{
        const struct zm_options *o = zm_engine_options(e);
        if (!o->procs || !zm_procsel_count(o->procs))
                return NULL; /* nothing configured: the module does nothing */
        struct pd_state *s = calloc(1, sizeof(*s));
        if (s) {
                s->sel = o->procs;
                s->nsel = zm_procsel_count(o->procs);
                if (!(s->acc = calloc(5 * s->nsel, sizeof(*s->acc)))) {
                        free(s);
                        return NULL;
                }
        }
        return s;
}

static void pd_destroy(void *state)
{
        struct pd_state *s = state;
        if (!s)
                return;
        for (size_t i = 0; i < s->ng; i++) {
                struct pguest *g = &s->g[i];
                free(g->cur);
                free(g->match);
                free(g->prev);
                free(g->cpu_us);
                free(g->majflt);
        }
        free(s->g);
        free(s->acc);
        zh_free(&s->ix);
        free(s);
}

struct gkey {
        const struct pd_state *s;
        const char *userid;
};

static bool g_eq(const void *ctx, size_t pos)
{
        const struct gkey *k = ctx;
        return strcmp(k->s->g[pos].userid, k->userid) == 0;
}

static struct pguest *guest(struct pd_state *s, const char *userid)
{
        uint64_t h = zh_str(ZH_SEED, userid);
        struct gkey k = {s, userid};
        size_t pos = zh_find(&s->ix, h, g_eq, &k);
        if (pos != SIZE_MAX)
                return &s->g[pos];
        if (!zh_grow((void **)&s->g, &s->capg, s->ng, sizeof(*s->g)))
                return NULL;
        struct pguest *g = &s->g[s->ng];
        memset(g, 0, sizeof(*g));
        memcpy(g->userid, userid, sizeof(g->userid));
        g->cpu_us = calloc(s->nsel, sizeof(*g->cpu_us));
        g->majflt = calloc(s->nsel, sizeof(*g->majflt));
        if (!g->cpu_us || !g->majflt || !zh_add(&s->ix, h, s->ng)) {
                free(g->cpu_us);
                free(g->majflt);
                return NULL;
        }
        return &s->g[s->ng++];
}

/* Counted, and logged once per guest. */
static void bad(struct zm_engine *e, const struct zd_appl *a, const char *what)
{
        zm_counters_mut(e)->appl_bad++;
        if (zm_say(e, zh_u64(zh_str(ZH_SEED, a->userid), (uint64_t)(uintptr_t)what), 0, 0))
                zm_log(e, ZM_LOG_NOTICE,
                       "guest %s: mon_procd task record unusable: %s; further ones of this guest "
                       "are counted (appl_bad)",
                       a->userid, what);
}

static void pd_appl(struct zm_engine *e, void *state, const struct zd_record *r,
                    const struct zd_appl *a)
{
        struct pd_state *s = state;
        /* Samples only: the D10R1 CP writes at STOP repeats a buffer's last contents. */
        if (!s || r->number != 2 || a->kind != ZD_APPL_LNXAPPL || a->applid != 2 || a->recnum != 1)
                return;
        struct zd_lnx_hdr h;
        struct zd_procd_task t;
        if (zd_lnx_hdr_parse(a->data, &h) != ZD_E_NONE) {
                bad(e, a, "LNXAPPL data header lengths lie");
                return;
        }
        if (zd_procd_task_parse(h.data, &t) != ZD_E_NONE) {
                bad(e, a, "task record shorter than its fields and six strings");
                return;
        }
        const struct zl_layout *l = zl_find("LNXAPPL.2.1", t.fixed.n);
        struct ptask k = {.ts = h.time_stamp};
        uint64_t pid = 0;
        if (!l || !zl_get_u64(l, t.fixed, "pid", &pid) ||
            !zl_get_u64(l, t.fixed, "total_time", &k.total_time) ||
            !zl_get_u64(l, t.fixed, "maj_flt", &k.maj_flt) ||
            !zl_get_u64(l, t.fixed, "size", &k.size) ||
            !zl_get_u64(l, t.fixed, "resident", &k.resident) ||
            !zl_get_u64(l, t.fixed, "trs", &k.trs) || !zl_get_u64(l, t.fixed, "drs", &k.drs)) {
                bad(e, a, "task fields unreadable");
                return;
        }
        k.pid = (uint32_t)pid;
        struct pguest *g = guest(s, a->userid);
        if (!g || !zh_grow((void **)&g->cur, &g->capcur, g->ncur, sizeof(*g->cur)))
                return;
        size_t need = (g->ncur + 1) * s->nsel;
        if (need > g->capmatch) {
                size_t cap = need * 2;
                uint8_t *m = realloc(g->match, cap);
                if (!m)
                        return;
                g->match = m;
                g->capmatch = cap;
        }
        const zd_view cmd = t.str[ZD_PROCD_CMD], line = t.str[ZD_PROCD_CMDLINE];
        for (size_t j = 0; j < s->nsel; j++)
                g->match[g->ncur * s->nsel + j] =
                    zm_procsel_guest(s->sel, j, g->userid) &&
                    zm_procsel_match(s->sel, j, (const char *)cmd.p, cmd.n, (const char *)line.p,
                                     line.n);
        g->cur[g->ncur++] = k;
}

static int by_pid(const void *a, const void *b)
{
        uint32_t x = ((const struct pprev *)a)->pid, y = ((const struct pprev *)b)->pid;
        return x < y ? -1 : x > y;
}

/* Counter increase of one process since the previous pass (see the top of the file). */
static uint64_t rise(bool same, bool complete, uint64_t now, uint64_t before)
{
        if (same)
                return now - before;
        return complete ? now : 0; /* new process, or a pid reused (a counter fell) */
}

static void put(struct zm_engine *e, const struct pguest *g, uint64_t tod, const char *name,
                const char *type, int nv, const enum zm_ds *ds, const double *gv, const int64_t *dv)
{
        struct zm_metric m;
        const struct zd_record src = {.domain = 10, .number = 2, .tod = tod};
        zm_metric_init(&m, ZM_GUEST, &src);
        memcpy(m.guest, g->userid, sizeof(m.guest));
        zm_metric_name(&m, "processes", name, type, NULL);
        for (int i = 0; i < nv; i++) {
                if (ds[i] == ZM_GAUGE)
                        zm_metric_gauge(&m, gv[i]);
                else
                        zm_metric_derive(&m, dv[i]);
        }
        zm_emit(e, &m);
}

static void gauge1(struct zm_engine *e, const struct pguest *g, uint64_t tod, const char *name,
                   const char *type, double v)
{
        static const enum zm_ds ds[1] = {ZM_GAUGE};
        put(e, g, tod, name, type, 1, ds, &v, NULL);
}

/* Sum this pass's tasks into the selection's accumulators (s->acc) and counters. */
static void aggregate(struct pd_state *s, struct pguest *g)
{
        bool complete = g->ncur < PROCD_MAX_TASKS;
        memset(s->acc, 0, 5 * s->nsel * sizeof(*s->acc));
        double *n = s->acc, *vm = n + s->nsel, *rss = vm + s->nsel, *data = rss + s->nsel,
               *code = data + s->nsel;
        for (size_t i = 0; i < g->ncur; i++) {
                const struct ptask *t = &g->cur[i];
                struct pprev key = {.pid = t->pid};
                const struct pprev *p =
                    g->reported ? bsearch(&key, g->prev, g->nprev, sizeof(*p), by_pid) : NULL;
                /* Either counter falling means another process: new for both. */
                bool same = p && t->total_time >= p->total_time && t->maj_flt >= p->maj_flt;
                uint64_t dcpu =
                    g->reported ? rise(same, complete, t->total_time, p ? p->total_time : 0) : 0;
                uint64_t dmaj =
                    g->reported ? rise(same, complete, t->maj_flt, p ? p->maj_flt : 0) : 0;
                for (size_t j = 0; j < s->nsel; j++) {
                        if (!g->match[i * s->nsel + j])
                                continue;
                        n[j]++;
                        vm[j] += (double)t->size * 1024;
                        rss[j] += (double)t->resident * 1024;
                        data[j] += (double)t->drs * 1024;
                        code[j] += (double)t->trs * 1024;
                        /* 1/100 s to microseconds: collectd's ps_cputime unit. DERIVE is
                         * int64: wrap within it rather than overflow. */
                        g->cpu_us[j] = (int64_t)(((uint64_t)g->cpu_us[j] + dcpu * 10000) &
                                                 (uint64_t)INT64_MAX);
                        g->majflt[j] =
                            (int64_t)(((uint64_t)g->majflt[j] + dmaj) & (uint64_t)INT64_MAX);
                }
        }
}

/* The processes plugin's series of every selected name this guest's selection holds. */
static void emit_selection(struct zm_engine *e, const struct pd_state *s, const struct pguest *g,
                           uint64_t tod)
{
        const double *n = s->acc, *vm = n + s->nsel, *rss = vm + s->nsel, *data = rss + s->nsel,
                     *code = data + s->nsel;
        static const enum zm_ds gg[2] = {ZM_GAUGE, ZM_GAUGE};
        static const enum zm_ds dd[2] = {ZM_DERIVE, ZM_DERIVE};
        for (size_t j = 0; j < s->nsel; j++) {
                if (!zm_procsel_guest(s->sel, j, g->userid))
                        continue;
                const char *name = zm_procsel_name(s->sel, j);
                /* mon_procd counts no threads, splits no CPU time, counts no minor faults. */
                const double count[2] = {n[j], NAN};
                put(e, g, tod, name, "ps_count", 2, gg, count, NULL);
                gauge1(e, g, tod, name, "ps_vm", vm[j]);
                gauge1(e, g, tod, name, "ps_rss", rss[j]);
                gauge1(e, g, tod, name, "ps_data", data[j]);
                gauge1(e, g, tod, name, "ps_code", code[j]);
                const int64_t cpu[2] = {g->cpu_us[j], 0}, flt[2] = {0, g->majflt[j]};
                put(e, g, tod, name, "ps_cputime", 2, dd, NULL, cpu);
                put(e, g, tod, name, "ps_pagefaults", 2, dd, NULL, flt);
        }
}

/* This pass's counters are the base for the next one. */
static void keep_base(struct pguest *g)
{
        if (g->ncur > g->capprev) {
                struct pprev *p = realloc(g->prev, g->ncur * sizeof(*p));
                if (!p)
                        return;
                g->prev = p;
                g->capprev = g->ncur;
        }
        for (size_t i = 0; i < g->ncur; i++)
                g->prev[i] = (struct pprev){g->cur[i].pid, g->cur[i].total_time, g->cur[i].maj_flt};
        g->nprev = g->ncur;
        qsort(g->prev, g->nprev, sizeof(*g->prev), by_pid);
        g->reported = true;
}

/* cp_tod: CP's time at the Interval End that closes the pass, a bound on when it was written. */
static void report(struct zm_engine *e, struct pd_state *s, struct pguest *g, uint64_t cp_tod)
{
        uint64_t ts = g->cur[0].ts;
        for (size_t i = 1; i < g->ncur; i++)
                if (g->cur[i].ts != ts) {
                        zm_counters_mut(e)->procd_torn++;
                        return;
                }
        if (g->reported && ts <= g->done_ts)
                return; /* the pass CP copied last time, or an older one */
        if (ts > UINT64_C(253402300799))
                return; /* beyond year 9999: damage, not a time (as met_linux) */
        aggregate(s, g);
        emit_selection(
            e, s, g, zm_guest_tod(e, g->userid, zd_unix_us_to_tod((int64_t)ts * 1000000), cp_tod));
        keep_base(g);
        g->done_ts = ts;
}

static void pd_interval_end(struct zm_engine *e, void *state, const struct zd_record *r)
{
        struct pd_state *s = state;
        if (!s)
                return;
        for (size_t i = 0; i < s->ng; i++) {
                struct pguest *g = &s->g[i];
                if (g->ncur)
                        report(e, s, g, r->tod);
                g->ncur = 0;
        }
}

const struct zm_module zm_mod_procd = {
    .name = "procd",
    .create = pd_create,
    .destroy = pd_destroy,
    .interval_end = pd_interval_end,
    .appl = pd_appl,
};
