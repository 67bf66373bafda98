/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "met_module.h"

/* Every metric module, in the order records are offered to them. */
/* X(name) for a `const struct zm_module zm_mod_<name>` in met_<name>.c */
#define MODULES(X)                                                                                 \
        X(monitor)                                                                                 \
        X(cp)                                                                                      \
        X(vm370)                                                                                   \
        X(linux)                                                                                   \
        X(wzvm)

#define DECLARE(name) extern const struct zm_module zm_mod_##name;
MODULES(DECLARE)
#undef DECLARE

static const struct zm_module *const modules[] = {
#define ENTRY(name) &zm_mod_##name,
    MODULES(ENTRY)
#undef ENTRY
        NULL,
};
#define NMODULES (sizeof(modules) / sizeof(modules[0]) - 1)

/* Series per guest, for the cap: a small open hash of identifier hashes per guest. */
struct guest_series {
        char guest[9];
        size_t n, cap;
        uint64_t *ids;
};

struct zm_engine {
        struct zm_options opt;
        zm_emit_fn emit;
        zm_log_fn log;
        void *ctx;
        struct zm_counters cnt;
        char system[ZM_NAME_LEN];
        double interval;
        void *state[NMODULES + 1];
        struct guest_series *guests;
        size_t nguests;
};

struct zm_engine *zm_engine_new(const struct zm_options *opt, zm_emit_fn emit, zm_log_fn log,
                                void *ctx)
{
        struct zm_engine *e = calloc(1, sizeof(*e));
        if (!e)
                return NULL;
        if (opt)
                e->opt = *opt;
        else
                e->opt.unverified = -1;
        if (!e->opt.verify_intervals)
                e->opt.verify_intervals = 3;
        e->emit = emit;
        e->log = log;
        e->ctx = ctx;
        for (size_t i = 0; modules[i]; i++)
                if (modules[i]->create)
                        e->state[i] = modules[i]->create(e);
        return e;
}

void zm_engine_free(struct zm_engine *e)
{
        if (!e)
                return;
        for (size_t i = 0; modules[i]; i++)
                if (modules[i]->destroy)
                        modules[i]->destroy(e->state[i]);
        for (size_t i = 0; i < e->nguests; i++)
                free(e->guests[i].ids);
        free(e->guests);
        free(e);
}

void zm_engine_record(struct zm_engine *e, const struct zd_record *r)
{
        unsigned fam = 1u << r->family;
        for (size_t i = 0; modules[i]; i++) {
                unsigned want = modules[i]->families ? modules[i]->families : 1u << ZD_FAM_CP;
                if (modules[i]->record && (want & fam))
                        modules[i]->record(e, e->state[i], r);
        }
}

void zm_engine_interval_end(struct zm_engine *e, const struct zd_record *r)
{
        for (size_t i = 0; modules[i]; i++)
                if (modules[i]->interval_end)
                        modules[i]->interval_end(e, e->state[i], r);
}

const struct zm_counters *zm_engine_counters(const struct zm_engine *e)
{
        return &e->cnt;
}

struct zm_counters *zm_counters_mut(struct zm_engine *e)
{
        return &e->cnt;
}

const struct zm_options *zm_engine_options(const struct zm_engine *e)
{
        return &e->opt;
}

const char *zm_engine_system(const struct zm_engine *e)
{
        return e->system;
}

double zm_engine_interval(const struct zm_engine *e)
{
        return e->interval;
}

void zm_set_system(struct zm_engine *e, const char *name)
{
        snprintf(e->system, sizeof(e->system), "%s", name);
}

void zm_set_interval(struct zm_engine *e, double seconds)
{
        e->interval = seconds;
}

void *zm_engine_state(const struct zm_engine *e, const char *module)
{
        for (size_t i = 0; e && modules[i]; i++)
                if (strcmp(modules[i]->name, module) == 0)
                        return e->state[i];
        return NULL;
}

void zm_log(struct zm_engine *e, int level, const char *fmt, ...)
{
        if (!e->log)
                return;
        char msg[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        e->log(e->ctx, level, msg);
}

static uint64_t fnv1a(const char *s, uint64_t h)
{
        for (; *s; s++)
                h = (h ^ (uint8_t)*s) * UINT64_C(0x100000001B3);
        return (h ^ '/') * UINT64_C(0x100000001B3);
}

/* Has this guest room for the series (or is it known already)? */
static bool series_ok(struct zm_engine *e, const struct zm_metric *m)
{
        struct guest_series *g = NULL;
        for (size_t i = 0; i < e->nguests; i++)
                if (strcmp(e->guests[i].guest, m->guest) == 0)
                        g = &e->guests[i];
        if (!g) {
                struct guest_series *p = realloc(e->guests, (e->nguests + 1) * sizeof(*p));
                if (!p)
                        return false;
                e->guests = p;
                g = &e->guests[e->nguests++];
                memset(g, 0, sizeof(*g));
                snprintf(g->guest, sizeof(g->guest), "%s", m->guest);
        }
        uint64_t id = UINT64_C(0xCBF29CE484222325);
        id = fnv1a(m->host, id);
        id = fnv1a(m->plugin, id);
        id = fnv1a(m->plugin_instance, id);
        id = fnv1a(m->type, id);
        id = fnv1a(m->type_instance, id);
        for (size_t i = 0; i < g->n; i++)
                if (g->ids[i] == id)
                        return true;
        if (g->n >= e->opt.max_series_per_guest)
                return false;
        if (g->n == g->cap) {
                size_t cap = g->cap ? g->cap * 2 : 64;
                uint64_t *p = realloc(g->ids, cap * sizeof(*p));
                if (!p)
                        return false;
                g->ids = p;
                g->cap = cap;
        }
        g->ids[g->n++] = id;
        return true;
}

void zm_emit(struct zm_engine *e, const struct zm_metric *m)
{
        if (m->scope == ZM_GUEST && e->opt.max_series_per_guest && !series_ok(e, m)) {
                e->cnt.series_capped++;
                return;
        }
        e->cnt.metrics++;
        if (e->emit)
                e->emit(e->ctx, m);
}

void zm_metric_init(struct zm_metric *m, enum zm_scope scope, const struct zd_record *r)
{
        memset(m, 0, sizeof(*m));
        m->scope = scope;
        if (r) {
                m->tod = r->tod;
                m->domain = r->domain;
                m->record = r->number;
        }
}

void zm_metric_name(struct zm_metric *m, const char *plugin, const char *pinst, const char *type,
                    const char *tinst)
{
        snprintf(m->plugin, sizeof(m->plugin), "%s", plugin ? plugin : "");
        snprintf(m->plugin_instance, sizeof(m->plugin_instance), "%s", pinst ? pinst : "");
        snprintf(m->type, sizeof(m->type), "%s", type ? type : "");
        snprintf(m->type_instance, sizeof(m->type_instance), "%s", tinst ? tinst : "");
}

void zm_metric_gauge(struct zm_metric *m, double v)
{
        if (m->nvalues < ZM_MAXVALUES) {
                m->ds[m->nvalues] = ZM_GAUGE;
                m->gauge[m->nvalues++] = v;
        }
}

void zm_metric_derive(struct zm_metric *m, int64_t v)
{
        if (m->nvalues < ZM_MAXVALUES) {
                m->ds[m->nvalues] = ZM_DERIVE;
                m->derive[m->nvalues++] = v;
        }
}
