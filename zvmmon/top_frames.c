/* SPDX-License-Identifier: MIT */
/*
 * The model's output: at each Interval End, after the engine has closed the
 * interval (and judged its laws), one frame with the system line, a row per
 * guest seen in the interval and the other screens' tables (top_tab.c),
 * queued until the caller takes it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "top_model.h"

static void on_record(void *ctx, const struct zd_record *r)
{
        struct top_model *t = ctx;
        zm_engine_record(t->e, r);
        t->records++;
        /* The configuration set also ends with an Interval End: no table for it. */
        if (r->family == ZD_FAM_CP && r->kind == 'S' && (r->domain == 0 || r->domain == 4))
                t->samples = t->cp_seen = true;
}

static struct top_frame *frame(struct top_model *t, uint64_t tod)
{
        struct top_frame *f = calloc(1, sizeof(*f));
        size_t n = 0;
        for (size_t i = 0; i < t->ng; i++)
                n += t->g[i].seen;
        struct top_table *gt = f ? &f->t[TOP_SCR_GUESTS] : NULL;
        if (!f || !(gt->rows = calloc(n ? n : 1, sizeof(*gt->rows)))) {
                free(f);
                return NULL;
        }
        for (int s = TOP_SCR_GUESTS + 1; s < TOP_NSCR; s++)
                if (!top_tab_frame(t, s, f)) {
                        top_frame_free(f);
                        return NULL;
                }
        f->seq = ++t->seq;
        f->tod = tod;
        f->interval = zm_engine_interval(t->e);
        snprintf(f->system, sizeof(f->system), "%s", zm_engine_system(t->e));
        f->ncpu = t->ncpu;
        if (t->ncpu)
                top_put(&t->sys[TOP_S_BUSY], &t->sysgot[TOP_S_BUSY], t->busy / t->ncpu, t->busy_ok);
        for (int k = 0; k < TOP_NSYS; k++) {
                f->sys[k] = t->sys[k];
                top_missing(t, &f->sys[k], t->sysgot[k], top_syscols[k].law);
        }
        for (size_t i = 0; i < t->ng; i++) {
                const struct guest *g = &t->g[i];
                if (!g->seen)
                        continue;
                struct top_row *r = &gt->rows[gt->nrows++];
                memcpy(r->key, g->userid, sizeof(g->userid));
                for (int k = 0; k < TOP_NCOL; k++) {
                        r->c[k] = g->c[k];
                        top_missing(t, &r->c[k], g->got[k], top_cols[k].law);
                }
        }
        return f;
}

/* Guests not seen this interval logged off: forget them; CP's cells start empty. */
static void roll(struct top_model *t)
{
        size_t o = 0;
        zh_clear(&t->ix);
        for (size_t i = 0; i < t->ng; i++) {
                if (!t->g[i].seen)
                        continue;
                if (o != i)
                        t->g[o] = t->g[i];
                struct guest *g = &t->g[o];
                g->seen = false;
                for (int k = 0; k < TOP_NCOL; k++)
                        if (k != TOP_LOAD && k != TOP_LMEM)
                                g->got[k] = false;
                if (!zh_add(&t->ix, zh_u64(ZH_SEED, top_pack(g->userid)), o))
                        break; /* out of memory: drop the rest rather than index them wrong */
                o++;
        }
        t->ng = o;
        memset(t->sysgot, 0, sizeof(t->sysgot));
        t->busy = 0;
        t->ncpu = 0;
        t->samples = false;
        top_tab_roll(t);
}

static void push(struct top_model *t, struct top_frame *f)
{
        if (t->qhead && t->qhead == t->qn) /* every frame taken: start the queue again */
                t->qhead = t->qn = 0;
        if (!zh_grow((void **)&t->q, &t->qcap, t->qn, sizeof(*t->q))) {
                top_frame_free(f);
                return;
        }
        t->q[t->qn++] = f;
}

static void on_interval_end(void *ctx, const struct zd_record *r)
{
        struct top_model *t = ctx;
        zm_engine_interval_end(t->e, r);
        if (!t->samples)
                return;
        struct top_frame *f = frame(t, r->tod);
        if (f)
                push(t, f);
        roll(t);
}

struct top_model *top_model_new(void)
{
        struct top_model *t = calloc(1, sizeof(*t));
        if (!t)
                return NULL;
        struct zm_options o = {.unverified = 1}; /* every value; allowed() applies auto's rule */
        t->e = zm_engine_new(&o, top_on_metric, top_model_note, t);
        if (!t->e) {
                free(t);
                return NULL;
        }
        return t;
}

void top_model_free(struct top_model *t)
{
        if (!t)
                return;
        while (t->qhead < t->qn)
                top_frame_free(t->q[t->qhead++]);
        free(t->q);
        zm_engine_free(t->e);
        for (; t->nn; t->nn--, t->nhead = (t->nhead + 1) % t->ncap)
                free(t->notes[t->nhead].text);
        free(t->notes);
        free(t->g);
        zh_free(&t->ix);
        top_tab_free(t);
        free(t);
}

struct zd_handler top_model_handler(struct top_model *t)
{
        struct zd_handler h = {t, on_record, NULL, on_interval_end};
        return h;
}

struct top_frame *top_model_pop(struct top_model *t)
{
        return t->qhead < t->qn ? t->q[t->qhead++] : NULL;
}

size_t top_model_pending(const struct top_model *t)
{
        return t->qn - t->qhead;
}

void top_frame_free(struct top_frame *f)
{
        for (int s = 0; f && s < TOP_NSCR; s++)
                free(f->t[s].rows);
        free(f);
}

double top_gap(uint64_t prev, const struct top_frame *f)
{
        if (prev && f->tod > prev)
                return (double)(f->tod - prev) / 4096e6;
        return f->interval > 0 ? f->interval : 0;
}

const char *top_model_why_none(const struct top_model *t)
{
        if (!t->records)
                return "no monitor records";
        if (!t->cp_seen)
                return "no CP sample records (top's tables are CP's view of the guests; "
                       "zvmmon dump shows every record)";
        return "no complete sample interval";
}
