/* SPDX-License-Identifier: MIT */
/*
 * Open addressing keyed by the packed userid, which is a whole machine word
 * and may be any value, so a slot says whether it is used.  The guests are
 * CP's, as many as the system has: the table grows, never starts over.
 */
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/quota.h"

struct zq_slot {
        uint64_t user;
        uint32_t held;
        bool used;
};

static struct zq_slot *slot(struct zq_slot *s, size_t cap, uint64_t user)
{
        for (size_t i = (size_t)zh_u64(ZH_SEED, user) & (cap - 1);; i = (i + 1) & (cap - 1))
                if (!s[i].used || s[i].user == user)
                        return &s[i];
}

static bool grow(struct zq_table *q)
{
        size_t cap = q->cap ? q->cap * 2 : 64;
        struct zq_slot *s = calloc(cap, sizeof(*s));
        if (!s)
                return false;
        for (size_t i = 0; i < q->cap; i++)
                if (q->s[i].used)
                        *slot(s, cap, q->s[i].user) = q->s[i];
        free(q->s);
        q->s = s;
        q->cap = cap;
        return true;
}

enum zq_take zq_take(struct zq_table *q, uint64_t user, uint32_t limit)
{
        struct zq_slot *e = q->cap ? slot(q->s, q->cap, user) : NULL;
        if (!e || !e->used) {
                if (2 * (q->n + 1) > q->cap) {
                        if (!grow(q))
                                return ZQ_NOMEM;
                        e = slot(q->s, q->cap, user);
                }
                e->used = true;
                e->user = user;
                e->held = 0;
                q->n++;
        }
        if (e->held >= limit)
                return ZQ_FULL;
        e->held++;
        return ZQ_TAKEN;
}

uint32_t zq_held(const struct zq_table *q, uint64_t user)
{
        if (!q->cap)
                return 0;
        const struct zq_slot *e = slot(q->s, q->cap, user);
        return e->used ? e->held : 0;
}

void zq_clear(struct zq_table *q)
{
        if (q->s)
                memset(q->s, 0, q->cap * sizeof(*q->s));
        q->n = 0;
}

void zq_free(struct zq_table *q)
{
        free(q->s);
        q->s = NULL;
        q->cap = q->n = 0;
}
