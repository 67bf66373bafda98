/* SPDX-License-Identifier: MIT */
/*
 * Staleness: the guest refreshes its buffer on its own (virtual CPU time)
 * clock, CP copies it at every sample interval, so an idle guest's record
 * is delivered again unchanged.  The tracker remembers the last timestamp per
 * (userid, product id) in an open-addressing hash table.  A hostile stream
 * could invent unlimited keys; past TRACK_MAX the table starts over, which
 * costs at most one duplicate report per guest.
 */
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "payload/appldata/appl.h"

#define TRACK_MAX (1u << 16)

struct slot {
        bool used;
        char userid[9];
        uint8_t prodid[16];
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

static size_t hash(const char *userid, const uint8_t *prodid)
{
        return (size_t)zh_bytes(zh_bytes(ZH_SEED, userid, strnlen(userid, 8)), prodid, 16);
}

static struct slot *lookup(struct slot *s, size_t cap, const char *userid, const uint8_t *prodid)
{
        for (size_t i = hash(userid, prodid) & (cap - 1);; i = (i + 1) & (cap - 1))
                if (!s[i].used ||
                    (strcmp(s[i].userid, userid) == 0 && memcmp(s[i].prodid, prodid, 16) == 0))
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
                        *lookup(s, cap, t->s[i].userid, t->s[i].prodid) = t->s[i];
        free(t->s);
        t->s = s;
        t->cap = cap;
        return true;
}

bool zd_appl_tracker_fresh(struct zd_appl_tracker *t, const struct zd_appl *a, uint64_t timestamp)
{
        if (!t)
                return true;
        struct slot *e = lookup(t->s, t->cap, a->userid, a->prodid);
        if (e->used) {
                bool fresh = e->ts != timestamp;
                e->ts = timestamp;
                return fresh;
        }
        if (2 * (t->n + 1) > t->cap) {
                if (!grow(t))
                        return true; /* out of memory: report rather than hide data */
                e = lookup(t->s, t->cap, a->userid, a->prodid);
        }
        e->used = true;
        memcpy(e->userid, a->userid, sizeof(e->userid));
        memcpy(e->prodid, a->prodid, 16);
        e->ts = timestamp;
        t->n++;
        return true;
}
