/* SPDX-License-Identifier: MIT */
/*
 * Staleness: the guest refreshes its buffer on its own (virtual CPU time)
 * clock, CP copies it at every sample interval, so an idle guest's record
 * is delivered again unchanged.  The tracker remembers the last timestamp per
 * (userid, product id) in an open-addressing hash table.  A hostile stream
 * could invent unlimited keys; past TRACK_MAX the table starts over, which
 * costs at most one duplicate report per buffer.  TRACK_MAX is sized for
 * the largest system we measure: 50,000 Linux guests with three kernel
 * buffers and two LNXAPPL summaries each (250,000) fit twice over.  At the
 * old 65,536 such a system started over every interval, and every idle
 * guest's unchanged buffers were reported again.  The cost is the worst
 * case: a table of 2^20 slots of 40 bytes, after 524,288 keys.
 */
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "payload/appldata/appl.h"

#define TRACK_MAX (1u << 19)

/* The userid packed (zh_word8) and the product id as two words: compared and hashed whole. */
struct key {
        uint64_t user, prod[2];
};

struct slot {
        bool used;
        struct key k;
        uint64_t ts;
};

struct zd_appl_tracker {
        struct slot *s;
        size_t cap, n; /* cap is a power of two, kept at most half full */
};

struct zd_appl_tracker *zd_appl_tracker_new(void)
{
        struct zd_appl_tracker *t = calloc(1, sizeof(*t));
        if (!t)
                return NULL;
        t->cap = 64;
        t->s = calloc(t->cap, sizeof(*t->s));
        if (!t->s) {
                free(t);
                return NULL;
        }
        return t;
}

void zd_appl_tracker_free(struct zd_appl_tracker *t)
{
        if (t)
                free(t->s);
        free(t);
}

static struct key key_of(const struct zd_appl *a)
{
        return (struct key){zh_word8(a->userid),
                            {zd_uN_load8(a->prodid), zd_uN_load8(a->prodid + 8)}};
}

static struct slot *lookup(struct slot *s, size_t cap, const struct key *k)
{
        size_t h = (size_t)zh_u64(zh_u64(zh_u64(ZH_SEED, k->user), k->prod[0]), k->prod[1]);
        for (size_t i = h & (cap - 1);; i = (i + 1) & (cap - 1))
                if (!s[i].used || (s[i].k.user == k->user && s[i].k.prod[0] == k->prod[0] &&
                                   s[i].k.prod[1] == k->prod[1]))
                        return &s[i];
}

static bool grow(struct zd_appl_tracker *t)
{
        if (t->n >= TRACK_MAX) {
                memset(t->s, 0, t->cap * sizeof(*t->s));
                t->n = 0;
                return true;
        }
        size_t cap = t->cap * 2;
        struct slot *s = calloc(cap, sizeof(*s));
        if (!s)
                return false;
        for (size_t i = 0; i < t->cap; i++)
                if (t->s[i].used)
                        *lookup(s, cap, &t->s[i].k) = t->s[i];
        free(t->s);
        t->s = s;
        t->cap = cap;
        return true;
}

bool zd_appl_tracker_fresh(struct zd_appl_tracker *t, const struct zd_appl *a, uint64_t timestamp)
{
        if (!t)
                return true;
        struct key k = key_of(a);
        struct slot *e = lookup(t->s, t->cap, &k);
        if (e->used) {
                bool fresh = e->ts != timestamp;
                e->ts = timestamp;
                return fresh;
        }
        if (2 * (t->n + 1) > t->cap) {
                if (!grow(t))
                        return true; /* out of memory: report rather than hide data */
                e = lookup(t->s, t->cap, &k);
        }
        e->used = true;
        e->k = k;
        e->ts = timestamp;
        t->n++;
        return true;
}
