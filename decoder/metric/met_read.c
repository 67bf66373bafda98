/* SPDX-License-Identifier: MIT */
/*
 * Readers by record kind, for zm_engine_record_read (met_read.h).  A kind
 * (domain, record) keeps the layout zl_find_cp gave it, made ready, with
 * the lengths [lo, hi) that layout holds for (zl_find_cp_span): a kind's
 * records differ in length (APPLDATA, an older level's) and all but a few
 * get the same layout.  Kinds outside the table share one spare reader.
 */
#include <stdlib.h>

#include "metric/met_read.h"

#define KIND_DOMAINS 16
#define KIND_RECORDS 64

struct kind {
        size_t gen, lo, hi;
        const struct zl_layout *l; /* NULL: no layout for these lengths */
        struct zl_reader *r;       /* l made ready (r->l == l), or r->l NULL: no reader takes l */
};

struct zm_readers {
        struct kind k[KIND_DOMAINS][KIND_RECORDS];
        struct zl_reader spare;
};

struct zm_readers *zm_readers_new(void)
{
        return calloc(1, sizeof(struct zm_readers));
}

void zm_readers_free(struct zm_readers *c)
{
        if (!c)
                return;
        for (size_t d = 0; d < KIND_DOMAINS; d++)
                for (size_t n = 0; n < KIND_RECORDS; n++)
                        free(c->k[d][n].r);
        free(c);
}

/* A kind seen for the first time, at a length its layout does not hold for, or stale. */
static __attribute__((noinline)) const struct zl_reader *
kind_find(struct kind *k, const struct zd_record *r, size_t gen, const struct zl_layout **l)
{
        k->gen = 0; /* until it is whole */
        k->l = zl_find_cp_span(r->domain, r->number, r->rec.n, &k->lo, &k->hi);
        *l = k->l;
        if (!k->l)
                return (k->gen = gen), NULL;
        if (!k->r && !(k->r = calloc(1, sizeof(*k->r))))
                return NULL; /* out of memory: asked again next time */
        if (k->r->l != k->l || k->r->gen != gen)
                (void)zl_reader_init(k->r, k->l);
        k->gen = gen;
        return k->r->l ? k->r : NULL;
}

const struct zl_reader *zm_readers_find(struct zm_readers *c, const struct zd_record *r,
                                        const struct zl_layout **l)
{
        size_t gen = zl_generation();
        if ((unsigned)r->domain < KIND_DOMAINS && (unsigned)r->number < KIND_RECORDS) {
                struct kind *k = &c->k[r->domain][r->number];
                if (k->gen == gen && r->rec.n - k->lo < k->hi - k->lo) {
                        *l = k->l;
                        return k->l && k->r->l ? k->r : NULL;
                }
                return kind_find(k, r, gen, l);
        }
        *l = zl_find_cp(r->domain, r->number, r->rec.n);
        if (*l && (c->spare.l != *l || c->spare.gen != gen))
                (void)zl_reader_init(&c->spare, *l);
        return *l && c->spare.l ? &c->spare : NULL;
}
