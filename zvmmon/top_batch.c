/* SPDX-License-Identifier: MIT */
/*
 * Batch mode (-b): every interval's tables (the screen --screen chose, or
 * all) as text, as on the screen, or as one JSON object per line (--json) for
 * scripts: the system line's figures, then a member per screen, an array of
 * rows.  In JSON a cell without a number is null, and the row lists which of
 * its columns are unproven.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "zvmdec.h"
#include "emit.h"
#include "top.h"

struct top_batch {
        FILE *out;
        struct zmon_sink sink;
        bool json;
        const struct top_opts *o;
        size_t *idx;
        size_t cap;
};

struct top_batch *top_batch_new(FILE *out, bool json, const struct top_opts *o)
{
        struct top_batch *b = calloc(1, sizeof(*b));
        if (!b)
                return NULL;
        *b = (struct top_batch){.out = out, .json = json, .o = o};
        if (json && !zmon_sink_json(&b->sink, out)) {
                free(b);
                return NULL;
        }
        return b;
}

void top_batch_free(struct top_batch *b)
{
        if (!b)
                return;
        if (b->json)
                b->sink.destroy(b->sink.ctx);
        free(b->idx);
        free(b);
}

/*
 * Not rounded as on the screen: scripts compare.  15 digits, all a double holds.
 * JSON has no NaN or infinity, and yajl takes a number's text unchecked: such a
 * cell is null, as one without data.
 */
static void num(struct zmon_sink *s, const char *key, double v)
{
        char lit[48];
        snprintf(lit, sizeof(lit), "%.15g", v);
        s->key(s->ctx, key);
        s->num(s->ctx, isfinite(v) ? lit : "null");
}

static void str(struct zmon_sink *s, const char *key, const char *v)
{
        s->key(s->ctx, key);
        s->str(s->ctx, v, strlen(v));
}

/* The cells as members, then "unproven": [names] when any is "?". */
static void cells(struct zmon_sink *s, const struct top_cell *c, const struct top_coldef *def,
                  int n)
{
        int unproven = 0;
        for (int k = 0; k < n; k++) {
                if (c[k].mark == TOP_NUM) {
                        num(s, def[k].name, c[k].v);
                        continue;
                }
                s->key(s->ctx, def[k].name);
                s->num(s->ctx, "null");
                unproven += c[k].mark == TOP_UNPROVEN;
        }
        if (!unproven)
                return;
        s->key(s->ctx, "unproven");
        s->array_open(s->ctx);
        for (int k = 0; k < n; k++)
                if (c[k].mark == TOP_UNPROVEN)
                        s->str(s->ctx, def[k].name, strlen(def[k].name));
        s->array_close(s->ctx);
}

/* Screen scr's rows in order into b->idx; their count. */
static size_t order(struct top_batch *b, const struct top_frame *f, int scr)
{
        size_t n = f->t[scr].nrows;
        if (n > b->cap) {
                size_t *p = realloc(b->idx, n * sizeof(*p));
                if (!p)
                        return 0;
                b->idx = p;
                b->cap = n;
        }
        struct top_sort s = top_sort_of(b->o, scr);
        return top_order(f, &s, b->idx);
}

/* The screens shown: the one chosen, or all. */
static int first_scr(const struct top_batch *b)
{
        return b->o->scr < TOP_NSCR ? b->o->scr : 0;
}

static int end_scr(const struct top_batch *b)
{
        return b->o->scr < TOP_NSCR ? b->o->scr + 1 : TOP_NSCR;
}

static void json_table(struct top_batch *b, const struct top_frame *f, int scr)
{
        struct zmon_sink *s = &b->sink;
        const struct top_scrdef *d = &top_screens[scr];
        size_t n = order(b, f, scr);
        s->key(s->ctx, d->name);
        s->array_open(s->ctx);
        for (size_t i = 0; i < n; i++) {
                const struct top_row *r = &f->t[scr].rows[b->idx[i]];
                s->map_open(s->ctx);
                str(s, d->keyname, r->key);
                cells(s, r->c, d->cols, d->ncol);
                s->map_close(s->ctx);
        }
        s->array_close(s->ctx);
}

static void json_frame(struct top_batch *b, const struct top_frame *f)
{
        struct zmon_sink *s = &b->sink;
        char when[40] = "";
        s->begin(s->ctx);
        s->map_open(s->ctx);
        num(s, "interval", (double)f->seq);
        /* Always there; null when the input has no time (TOD 0), never 1900-01-01. */
        if (f->tod && zd_tod_to_iso8601(f->tod, when, sizeof(when)))
                str(s, "time", when);
        else {
                s->key(s->ctx, "time");
                s->num(s->ctx, "null");
        }
        str(s, "system", f->system);
        num(s, "interval_seconds", f->interval);
        if (f->ncpu) {
                num(s, "cpus", f->ncpu);
        } else { /* the first interval: no CPU has a busy figure yet */
                s->key(s->ctx, "cpus");
                s->num(s->ctx, "null");
        }
        char tod[24];
        snprintf(tod, sizeof(tod), "%" PRIu64, f->tod); /* all 64 bits: not through a double */
        s->key(s->ctx, "tod");
        s->num(s->ctx, tod);
        cells(s, f->sys, top_syscols, TOP_NSYS);
        for (int scr = first_scr(b); scr < end_scr(b); scr++)
                json_table(b, f, scr);
        s->map_close(s->ctx);
        s->end(s->ctx);
}

static void text_frame(struct top_batch *b, const struct top_frame *f)
{
        char line[256];
        top_fmt_title(line, sizeof(line), f);
        fprintf(b->out, "%s\n", line);
        top_fmt_sys(line, sizeof(line), f, 0, 0);
        fprintf(b->out, "%s\n\n", line);
        for (int scr = first_scr(b); scr < end_scr(b); scr++) {
                size_t n = order(b, f, scr);
                if (b->o->scr == TOP_NSCR)
                        fprintf(b->out, "screen %s\n", top_screens[scr].name);
                top_fmt_head(line, sizeof(line), scr);
                fprintf(b->out, "%s\n", line);
                for (size_t i = 0; i < n; i++) {
                        top_fmt_row(line, sizeof(line), scr, &f->t[scr].rows[b->idx[i]]);
                        fprintf(b->out, "%s\n", line);
                }
                fputc('\n', b->out);
        }
}

void top_batch_frame(struct top_batch *b, const struct top_frame *f)
{
        if (b->json)
                json_frame(b, f);
        else
                text_frame(b, f);
}
