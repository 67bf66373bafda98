/* SPDX-License-Identifier: MIT */
/*
 * The screens beyond the guests: a row per processor, logical CPU, device,
 * vNIC or storage item, each cell filled by the feed table (top_defs.c) from
 * the engine's named values, kept across intervals for its rates.
 */
#include <stdlib.h>
#include <string.h>

#include "top_model.h"

/* s against pat: exact, "prefix*" or "*suffix"; the part the '*' took goes to stem. */
static bool match(const char *pat, const char *s, char *stem, size_t n)
{
        const char *star = strchr(pat, '*');
        size_t len = strlen(s);
        if (!star) {
                stem[0] = 0;
                return strcmp(pat, s) == 0;
        }
        size_t pre = (size_t)(star - pat), post = strlen(star + 1);
        if (len < pre + post || strncmp(s, pat, pre) || strcmp(s + len - post, star + 1))
                return false;
        snprintf(stem, n, "%.*s", (int)(len - pre - post), s + pre);
        return true;
}

struct probe {
        const struct tab *tb;
        const char *key;
};

static bool row_eq(const void *ctx, size_t pos)
{
        const struct probe *p = ctx;
        return strcmp(p->tb->rows[pos].r.key, p->key) == 0;
}

static struct tab_row *row(struct tab *tb, const char *key, uint32_t pos)
{
        struct probe p = {tb, key};
        uint64_t h = zh_str(ZH_SEED, key);
        size_t i = zh_find(&tb->ix, h, row_eq, &p);
        if (i == SIZE_MAX) {
                if (!zh_grow((void **)&tb->rows, &tb->cap, tb->n, sizeof(*tb->rows)) ||
                    !zh_add(&tb->ix, h, tb->n))
                        return NULL;
                i = tb->n++;
                memset(&tb->rows[i], 0, sizeof(tb->rows[i]));
                snprintf(tb->rows[i].r.key, sizeof(tb->rows[i].r.key), "%s", key);
                tb->rows[i].r.pos = pos;
        }
        tb->rows[i].seen = true;
        return &tb->rows[i];
}

/* A value into its cell; values for one cell in one interval add (storage pageable). */
static void put(struct tab_row *r, int col, double v, bool ok, uint8_t dec)
{
        struct top_cell *c = &r->r.c[col];
        if (r->got[col]) {
                c->v += v;
                c->mark = c->mark == TOP_UNPROVEN || !ok ? TOP_UNPROVEN : TOP_NUM;
        } else
                top_put(c, &r->got[col], v, ok);
        c->dec = dec;
}

static void feed(struct top_model *t, const struct top_feed *fd, const struct zm_metric *m,
                 const char *key, bool ok)
{
        if (fd->vi >= m->nvalues)
                return;
        struct tab_row *r = row(&t->tabs[fd->scr], key, (uint32_t)(fd - top_feeds));
        double v = m->gauge[fd->vi];
        if (!r)
                return;
        if (fd->rate && !top_rate(&r->ctr[fd->col], m->derive[fd->vi], m->tod, &v))
                return;
        put(r, fd->col, v * fd->scale, ok, fd->dec);
}

/* A zvm-storage or zvm-system value no feed names: its own row, named by its instances. */
static void extra(struct top_model *t, const struct zm_metric *m, bool ok)
{
        struct tab *tb = &t->tabs[TOP_SCR_STORAGE];
        bool mem = strcmp(m->type, "memory") == 0;
        for (size_t k = 0; k < m->nvalues; k++) {
                char key[4 * TOP_KEYLEN], which[24] = "";
                if (m->nvalues > 1)
                        snprintf(which, sizeof(which), " [%zu]", k + 1);
                snprintf(key, sizeof(key), "%s %s%s%s%s%s", m->plugin_instance, m->type,
                         m->type_instance[0] ? "-" : "", m->type_instance, which,
                         m->ds[k] == ZM_DERIVE ? " /s"
                         : mem                 ? " GiB"
                                               : "");
                struct tab_row *r = row(tb, key, (uint32_t)top_nfeeds + tb->extra);
                if (!r)
                        return;
                if (r->r.pos == top_nfeeds + tb->extra)
                        tb->extra++;
                double v = m->gauge[k];
                if (m->ds[k] == ZM_DERIVE && !top_rate(&r->ctr[0], m->derive[k], m->tod, &v))
                        continue;
                put(r, 0, mem ? v / 1073741824.0 : v, ok, 3);
        }
}

void top_tab_metric(struct top_model *t, const struct zm_metric *m, bool ok)
{
        bool fed = false;
        for (size_t i = 0; i < top_nfeeds; i++) {
                const struct top_feed *fd = &top_feeds[i];
                char pstem[TOP_KEYLEN], tstem[TOP_KEYLEN], key[2 * TOP_KEYLEN + 1];
                if (strcmp(m->type, fd->type) ||
                    !match(fd->pi, m->plugin_instance, pstem, sizeof(pstem)) ||
                    !match(fd->ti, m->type_instance, tstem, sizeof(tstem)))
                        continue;
                if (fd->label)
                        snprintf(key, sizeof(key), "%s", fd->label);
                else
                        snprintf(key, sizeof(key), "%s%s%s", pstem, tstem[0] ? " " : "", tstem);
                feed(t, fd, m, key, ok);
                fed = true;
                if (fd->ti[0] == '*') /* "*-management" before "*": one stem, one cell */
                        break;
        }
        const char *pi = m->plugin_instance;
        if (!fed && (strcmp(pi, "storage") == 0 || strcmp(pi, "system") == 0))
                extra(t, m, ok);
}

/* A column shown per another (ms per SSCH): a number only when both are, and some I/O. */
static void per(struct top_cell *c, const struct top_cell *by)
{
        if (c->mark != TOP_NUM || by->mark != TOP_NUM) {
                if (c->mark == TOP_NUM || by->mark == TOP_UNPROVEN)
                        c->mark = by->mark;
                return;
        }
        if (by->v > 0)
                c->v /= by->v;
        else
                c->mark = TOP_NODATA;
}

bool top_tab_frame(const struct top_model *t, int scr, struct top_frame *f)
{
        const struct tab *tb = &t->tabs[scr];
        const struct top_scrdef *d = &top_screens[scr];
        struct top_table *out = &f->t[scr];
        size_t n = 0;
        for (size_t i = 0; i < tb->n; i++)
                n += tb->rows[i].seen;
        if (!(out->rows = calloc(n ? n : 1, sizeof(*out->rows))))
                return false;
        for (size_t i = 0; i < tb->n; i++) {
                const struct tab_row *r = &tb->rows[i];
                if (!r->seen)
                        continue;
                struct top_row *o = &out->rows[out->nrows++];
                *o = r->r;
                for (int k = 0; k < d->ncol; k++)
                        top_missing(t, &o->c[k], r->got[k], d->cols[k].law);
                for (int k = 0; k < d->ncol; k++)
                        if (d->cols[k].per)
                                per(&o->c[k], &o->c[d->cols[k].per - 1]);
        }
        return true;
}

void top_tab_roll(struct top_model *t)
{
        for (int s = 0; s < TOP_NSCR; s++) {
                struct tab *tb = &t->tabs[s];
                size_t o = 0;
                zh_clear(&tb->ix);
                for (size_t i = 0; i < tb->n; i++) {
                        if (!tb->rows[i].seen)
                                continue;
                        if (o != i)
                                tb->rows[o] = tb->rows[i];
                        struct tab_row *r = &tb->rows[o];
                        r->seen = false;
                        memset(r->got, 0, sizeof(r->got));
                        if (!zh_add(&tb->ix, zh_str(ZH_SEED, r->r.key), o))
                                break; /* out of memory: drop the rest rather than index them wrong
                                        */
                        o++;
                }
                tb->n = o;
        }
}

void top_tab_free(struct top_model *t)
{
        for (int s = 0; s < TOP_NSCR; s++) {
                free(t->tabs[s].rows);
                zh_free(&t->tabs[s].ix);
        }
}
