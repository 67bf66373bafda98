/* SPDX-License-Identifier: MIT */
/*
 * Staleness: the guest refreshes its buffer on its own (virtual CPU time)
 * clock, CP copies it at every sample interval, so an idle guest's record
 * is delivered again unchanged.  The tracker remembers the last timestamp per
 * (userid, product id) in an open-addressing hash table.
 *
 * The userid is CP's, the product id the guest's own: a guest can invent
 * ids without end.  So each guest has at most ZD_TRACK_PER_GUEST ids
 * remembered (the monwriter driver's default limit of 255 buffers, all
 * programs of the guest together, plus the kernel's three); its others are
 * reported every time, which costs it alone a repeat that the consumer drops
 * as same-time.  Before, a flood of ids filled the shared table and made it
 * start over for every guest.
 *
 * TRACK_MAX still bounds the whole (more than 2,048 guests that all invent
 * ids): past it the table starts over, which costs at most one
 * duplicate report per buffer.  It is sized for the largest system we
 * support: 50,000 Linux guests with three kernel buffers and two LNXAPPL
 * summaries each (250,000) fit twice over, so such a system never starts
 * over.  Worst case: 2^20 slots of 40 bytes and a guest table of the
 * system's userids.
 */
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/quota.h"
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
        size_t cap, n;       /* cap is a power of two, kept at most half full */
        struct zq_table ids; /* the ids each guest holds in s */
        uint64_t seed;       /* zh_secret, kept: asked for every record */
};

struct zd_appl_tracker *zd_appl_tracker_new(void)
{
        struct zd_appl_tracker *t = calloc(1, sizeof(*t));
        if (!t)
                return NULL;
        t->cap = 64;
        t->seed = zh_secret();
        t->s = calloc(t->cap, sizeof(*t->s));
        if (!t->s) {
                free(t);
                return NULL;
        }
        return t;
}

void zd_appl_tracker_free(struct zd_appl_tracker *t)
{
        if (t) {
                free(t->s);
                zq_free(&t->ids);
        }
        free(t);
}

static struct key key_of(const struct zd_appl *a)
{
        return (struct key){zh_word8(a->userid),
                            {zd_uN_load8(a->prodid), zd_uN_load8(a->prodid + 8)}};
}

static struct slot *lookup(struct slot *s, size_t cap, uint64_t seed, const struct key *k)
{
        /* keyed: the product ids are the guest's to choose (a chain from the secret, as
         * zm_series_id's, with one finaliser for the whole key) */
        size_t h = (size_t)zh_mix(zh_step(zh_step(zh_step(seed, k->user), k->prod[0]), k->prod[1]));
        for (size_t i = h & (cap - 1);; i = (i + 1) & (cap - 1))
                if (!s[i].used || (s[i].k.user == k->user && s[i].k.prod[0] == k->prod[0] &&
                                   s[i].k.prod[1] == k->prod[1]))
                        return &s[i];
}

static bool grow(struct zd_appl_tracker *t)
{
        if (t->n >= TRACK_MAX) {
                /* The guests' counts start over with the table they count in. */
                memset(t->s, 0, t->cap * sizeof(*t->s));
                zq_clear(&t->ids);
                t->n = 0;
                return true;
        }
        size_t cap = t->cap * 2;
        struct slot *s = calloc(cap, sizeof(*s));
        if (!s)
                return false;
        for (size_t i = 0; i < t->cap; i++)
                if (t->s[i].used)
                        *lookup(s, cap, t->seed, &t->s[i].k) = t->s[i];
        free(t->s);
        t->s = s;
        t->cap = cap;
        return true;
}

enum zd_track zd_appl_tracker_check(struct zd_appl_tracker *t, const struct zd_appl *a,
                                    uint64_t timestamp)
{
        if (!t)
                return ZD_TRACK_FRESH;
        struct key k = key_of(a);
        struct slot *e = lookup(t->s, t->cap, t->seed, &k);
        if (e->used) {
                bool fresh = e->ts != timestamp;
                e->ts = timestamp;
                return fresh ? ZD_TRACK_FRESH : ZD_TRACK_STALE;
        }
        if (2 * (t->n + 1) > t->cap) {
                if (!grow(t))
                        return ZD_TRACK_FRESH; /* out of memory: report rather than hide data */
                e = lookup(t->s, t->cap, t->seed, &k);
        }
        switch (zq_take(&t->ids, k.user, ZD_TRACK_PER_GUEST)) {
        case ZQ_FULL:
                return ZD_TRACK_UNTRACKED;
        case ZQ_NOMEM:
                return ZD_TRACK_FRESH;
        default:
                break;
        }
        e->used = true;
        e->k = k;
        e->ts = timestamp;
        t->n++;
        return ZD_TRACK_FRESH;
}
