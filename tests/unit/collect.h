/* SPDX-License-Identifier: MIT */
/* A zd_handler that records what the decoder delivered, for assertions. */
#ifndef TEST_COLLECT_H
#define TEST_COLLECT_H

#include "vec.h"

#include "record/record.h"

static void seen_record(void *ctx, const struct zd_record *r)
{
        struct vec_seen *s = ctx;
        if (s->n >= VEC_MAXREC)
                return;
        s->dom[s->n] = r->domain;
        s->rec[s->n] = r->number;
        s->len[s->n] = (uint16_t)r->rec.n;
        s->dcss[s->n] = r->pos.dcss;
        s->off[s->n] = r->pos.offset;
        s->kind[s->n] = r->kind;
        s->tod[s->n] = r->tod;
        assert_int_equal(r->body.n + 20, r->rec.n);
        s->n++;
}

static void seen_error(void *ctx, const struct zd_error *e)
{
        struct vec_seen *s = ctx;
        assert_true(e->msg[0] != '\0'); /* every error says something */
        if (s->nerr < VEC_MAXREC)
                s->err[s->nerr++] = e->kind;
}

static void seen_interval(void *ctx, const struct zd_record *r)
{
        struct vec_seen *s = ctx;
        assert_int_equal(r->domain, 1);
        assert_int_equal(r->number, 11);
        s->nint++;
}

static inline struct zd_handler seen_handler(struct vec_seen *s)
{
        memset(s, 0, sizeof(*s));
        struct zd_handler h = {s, seen_record, seen_error, seen_interval};
        return h;
}

#endif
