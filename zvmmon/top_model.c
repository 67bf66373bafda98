/* SPDX-License-Identifier: MIT */
/*
 * One table per sample interval, built from the metric engine's named values
 * as the zvm plugin receives them (doc/metrics-cp.md, doc/plugin.md).
 *
 * The engine is asked for every value (UnverifiedFields true) so that a
 * guest whose hint fields are still held back still gets its row; each value
 * then goes through the same rule the engine's auto mode applies (top_cell.c).
 * The guests and the system line are filled here; the other screens' rows
 * come from the feed table (top_tab.c).
 */
#include <stdlib.h>
#include <string.h>

#include "zvmdec.h"
#include "top_model.h"

uint64_t top_pack(const char *id)
{
        uint64_t u = 0;
        for (size_t i = 0; i < 8 && id[i]; i++)
                u |= (uint64_t)(uint8_t)id[i] << (56 - 8 * i);
        return u;
}

struct probe {
        const struct top_model *t;
        const char *id;
};

static bool g_eq(const void *ctx, size_t pos)
{
        const struct probe *p = ctx;
        return strcmp(p->t->g[pos].userid, p->id) == 0;
}

static struct guest *guest(struct top_model *t, const char *id)
{
        struct probe p = {t, id};
        uint64_t h = zh_u64(ZH_SEED, top_pack(id));
        size_t i = zh_find(&t->ix, h, g_eq, &p);
        if (i == SIZE_MAX) {
                if (!zh_grow((void **)&t->g, &t->capg, t->ng, sizeof(*t->g)) ||
                    !zh_add(&t->ix, h, t->ng))
                        return NULL;
                i = t->ng++;
                memset(&t->g[i], 0, sizeof(t->g[i]));
                snprintf(t->g[i].userid, sizeof(t->g[i].userid), "%s", id);
        }
        t->g[i].seen = true;
        return &t->g[i];
}

static bool is(const struct zm_metric *m, const char *type, const char *ti)
{
        return strcmp(m->type, type) == 0 && strcmp(m->type_instance, ti) == 0;
}

static void on_guest_cp(struct top_model *t, const struct zm_metric *m, bool ok)
{
        struct guest *g = guest(t, m->guest);
        if (!g)
                return;
        int col = -1, k = -1;
        double v = 0, scale = 1;
        if (is(m, "virt_cpu_total", "total"))
                col = TOP_CPU, k = C_CPU, scale = 100 / 1e9; /* ns per s into % of a CPU */
        else if (is(m, "virt_cpu_total", "virtual"))
                col = TOP_VCPU, k = C_VCPU, scale = 100 / 1e9;
        else if (is(m, "vmpage_io", "paging"))
                col = TOP_PAGE, k = C_PAGE;
        else if (is(m, "operations", "virtual-io"))
                col = TOP_VIO, k = C_VIO;
        else if (is(m, "memory", "resident"))
                col = TOP_RES, v = m->gauge[0] / 1048576;
        if (col < 0)
                return;
        if (k >= 0) {
                int64_t sum = m->derive[0] + (m->nvalues > 1 ? m->derive[1] : 0);
                if (!top_rate(&g->ctr[k], sum, m->tod, &v))
                        return;
                v *= scale;
        }
        top_put(&g->c[col], &g->got[col], v, ok);
}

/* A Linux guest's own view (kernel APPLDATA): kept until it writes a newer one. */
static void on_guest_linux(struct top_model *t, const struct zm_metric *m)
{
        if (m->host[0]) /* a write_zvm guest's own collectd values: not APPLDATA */
                return;
        bool load = strcmp(m->plugin, "load") == 0 && is(m, "load", "");
        bool mem = strcmp(m->plugin, "memory") == 0 && is(m, "memory", "used");
        if (!load && !mem)
                return;
        struct guest *g = guest(t, m->guest);
        if (g)
                top_put(&g->c[load ? TOP_LOAD : TOP_LMEM], &g->got[load ? TOP_LOAD : TOP_LMEM],
                        load ? m->gauge[0] : m->gauge[0] / 1048576, top_allowed(t, m->check));
}

#define GIB 1073741824.0

static void on_system(struct top_model *t, const struct zm_metric *m, bool ok)
{
        const char *pi = m->plugin_instance;
        double v;
        if (strncmp(pi, "cpu", 3) == 0 && is(m, "percent", "busy")) {
                t->busy += m->gauge[0];
                t->busy_ok = (t->ncpu == 0 || t->busy_ok) && ok;
                t->ncpu++;
        } else if (strcmp(pi, "storage") == 0 && is(m, "memory", "used"))
                top_put(&t->sys[TOP_S_USED], &t->sysgot[TOP_S_USED], m->gauge[0] / GIB, ok);
        else if (strcmp(pi, "storage") == 0 && is(m, "memory", "free"))
                top_put(&t->sys[TOP_S_FREE], &t->sysgot[TOP_S_FREE], m->gauge[0] / GIB, ok);
        else if (strcmp(pi, "storage") == 0 && is(m, "vmpage_io", "paging")) {
                if (top_rate(&t->syspage, m->derive[0] + m->derive[1], m->tod, &v))
                        top_put(&t->sys[TOP_S_PAGE], &t->sysgot[TOP_S_PAGE], v, ok);
        } else if (strcmp(pi, "system") == 0 && is(m, "users", "logged-on"))
                top_put(&t->sys[TOP_S_USERS], &t->sysgot[TOP_S_USERS], m->gauge[0], ok);
}

void top_on_metric(void *ctx, const struct zm_metric *m)
{
        struct top_model *t = ctx;
        if (m->scope == ZM_GUEST && m->guest[0])
                on_guest_linux(t, m);
        else if (strcmp(m->plugin, "zvm") == 0 && m->domain == 4 && m->record == 3 && m->guest[0])
                on_guest_cp(t, m, top_allowed(t, m->check));
        else if (strcmp(m->plugin, "zvm") == 0) {
                bool ok = top_allowed(t, m->check);
                on_system(t, m, ok);
                top_tab_metric(t, m, ok);
        }
}

/* More than this at once (a whole system's guests with bad APPLDATA) and the newest go. */
#define NOTES_MAX 4096

void top_model_note(void *ctx, int level, const char *msg)
{
        struct top_model *t = ctx;
        char *text = NULL;
        if (t->nn == NOTES_MAX || !(text = strdup(msg))) {
                t->ndropped++;
                return;
        }
        if (t->nn == t->ncap) {
                size_t cap = t->ncap ? 2 * t->ncap : 16;
                struct note *p = malloc(cap * sizeof(*p));
                if (!p) {
                        free(text);
                        t->ndropped++;
                        return;
                }
                /* Unroll the ring into the new array, oldest first. */
                for (size_t i = 0; i < t->nn; i++)
                        p[i] = t->notes[(t->nhead + i) % t->ncap];
                free(t->notes);
                t->notes = p;
                t->ncap = cap;
                t->nhead = 0;
        }
        /* Not yet counted in seq: the interval being read is the next table's. */
        t->notes[(t->nhead + t->nn++) % t->ncap] = (struct note){t->seq + 1, level, text};
}

bool top_model_take_note(struct top_model *t, uint64_t upto, struct top_note *n)
{
        if (!t->nn || t->notes[t->nhead].interval > upto)
                return false;
        struct note *o = &t->notes[t->nhead];
        n->interval = o->interval;
        n->level = o->level;
        snprintf(n->text, sizeof(n->text), "%s", o->text);
        free(o->text);
        t->nhead = (t->nhead + 1) % t->ncap;
        t->nn--;
        return true;
}

uint64_t top_model_notes_dropped(const struct top_model *t)
{
        return t->ndropped;
}
