/* SPDX-License-Identifier: MIT */
/*
 * The per-guest series cap, its series forgotten when idle (met_cap.h).
 * Series and guests are kept dense and indexed, so that a value costs the
 * same whatever the number of guests and series; the sweep compacts both
 * and puts the survivors in the indexes again.
 */
#include <stdlib.h>
#include <string.h>

#include "metric/met_cap.h"

/* A lookup in one of the tables: the cap and the key sought. */
struct probe {
        const struct zm_cap *c;
        uint64_t key;
};

static bool guest_eq(const void *ctx, size_t pos)
{
        const struct probe *p = ctx;
        return p->c->guests[pos].userid == p->key;
}

static bool series_eq(const void *ctx, size_t pos)
{
        const struct probe *p = ctx;
        return p->c->ids[pos] == p->key;
}

static uint64_t guest_hash(uint64_t userid)
{
        return zh_u64(ZH_SEED, userid);
}

/* The guest's place, added when new; SIZE_MAX when out of memory. */
static size_t guest_of(struct zm_cap *c, const char *guest)
{
        struct probe p = {c, zh_word8(guest)};
        size_t gi = zh_find(&c->guest_ix, guest_hash(p.key), guest_eq, &p);
        if (gi != SIZE_MAX)
                return gi;
        if (!zh_grow((void **)&c->guests, &c->capguests, c->nguests, sizeof(*c->guests)) ||
            !zh_add(&c->guest_ix, guest_hash(p.key), c->nguests))
                return SIZE_MAX;
        c->guests[c->nguests] = (struct zm_cap_guest){.userid = p.key};
        return c->nguests++;
}

/* Room for series n in every per-series array; false when out of memory. */
static bool series_room(struct zm_cap *c)
{
        if (c->n < c->capn)
                return true;
        size_t want = c->capn ? c->capn * 2 : 64;
        /* One array grown and the next not leaves capn as it was: the next try grows both. */
        uint64_t *ids = realloc(c->ids, want * sizeof(*ids));
        if (!ids)
                return false;
        c->ids = ids;
        uint32_t **per[] = {&c->order.succ, &c->seen, &c->owner};
        for (size_t k = 0; k < sizeof(per) / sizeof(per[0]); k++) {
                uint32_t *p = realloc(*per[k], want * sizeof(*p));
                if (!p)
                        return false;
                *per[k] = p;
        }
        c->capn = want;
        return true;
}

static enum zm_cap_verdict refuse(struct zm_cap *c, size_t gi, uint32_t now,
                                  const struct zm_cap_guest **g)
{
        struct zm_cap_guest *x = &c->guests[gi];
        *g = x;
        return zm_said_now(&x->said, now, ZM_CAP_QUIET, ZM_SAY_SPELL) ? ZM_CAP_LOG : ZM_CAP_REFUSED;
}

enum zm_cap_verdict zm_cap_admit(struct zm_cap *c, uint64_t id, const char *guest, size_t max,
                                 uint32_t now, const struct zm_cap_guest **g)
{
        /* Values come in much the same order every interval: first guess the series
         * that followed the last one's last time. */
        size_t guess = zh_order_guess(&c->order);
        struct probe p = {c, id};
        size_t i = guess < c->n && c->ids[guess] == id ? guess : zh_find(&c->ix, id, series_eq, &p);
        if (i == SIZE_MAX) {
                size_t gi = guest_of(c, guest);
                if (gi == SIZE_MAX)
                        return ZM_CAP_REFUSED;
                if (c->guests[gi].nseries >= max)
                        return refuse(c, gi, now, g);
                if (!series_room(c) || !zh_add(&c->ix, id, c->n))
                        return ZM_CAP_REFUSED;
                i = c->n++;
                c->ids[i] = id;
                c->owner[i] = (uint32_t)gi;
                c->order.succ[i] = 0;
                c->guests[gi].nseries++;
        }
        zh_order_came(&c->order, i);
        c->seen[i] = now;
        return ZM_CAP_OK;
}

/*
 * The series kept, moved down in place (c->to: where each went, UINT32_MAX
 * if forgotten), their guests' counts lowered for the others; the number
 * kept.  *oldest: the least recent interval a kept series had a value in.
 */
static size_t compact_series(struct zm_cap *c, uint32_t now, unsigned idle, uint32_t *oldest)
{
        size_t kept = 0;
        *oldest = now;
        for (size_t i = 0; i < c->n; i++) {
                uint32_t age = now - c->seen[i];
                if (age > idle) {
                        c->to[i] = UINT32_MAX;
                        c->guests[c->owner[i]].nseries--;
                        continue;
                }
                if (age > now - *oldest)
                        *oldest = c->seen[i];
                c->to[i] = (uint32_t)kept;
                c->ids[kept] = c->ids[i];
                c->seen[kept] = c->seen[i];
                c->owner[kept] = c->owner[i];
                c->order.succ[kept] = c->order.succ[i];
                kept++;
        }
        zh_order_remap(&c->order, kept, c->to);
        return kept;
}

/* Guests left without series and without a refusal still to keep quiet, forgotten. */
static void compact_guests(struct zm_cap *c, uint32_t now)
{
        size_t kept = 0;
        for (size_t gi = 0; gi < c->nguests; gi++) {
                const struct zm_cap_guest *x = &c->guests[gi];
                if (!x->nseries && !zm_said_quiet(&x->said, now, ZM_CAP_QUIET)) {
                        c->to[gi] = UINT32_MAX;
                        continue;
                }
                c->to[gi] = (uint32_t)kept;
                c->guests[kept++] = *x;
        }
        if (kept == c->nguests)
                return;
        c->nguests = kept;
        for (size_t j = 0; j < c->n; j++) /* a guest with series is never forgotten */
                c->owner[j] = c->to[c->owner[j]];
        /* Fewer entries than the index held: putting them back cannot make it grow. */
        zh_clear(&c->guest_ix);
        for (size_t gi = 0; gi < kept; gi++)
                (void)zh_add(&c->guest_ix, guest_hash(c->guests[gi].userid), gi);
}

size_t zm_cap_sweep(struct zm_cap *c, uint32_t now, unsigned idle)
{
        if (!idle || (int32_t)(now - c->next_sweep) < 0)
                return 0;
        size_t need = c->n > c->nguests ? c->n : c->nguests;
        if (need > c->capto) {
                uint32_t *to = realloc(c->to, need * sizeof(*to));
                if (!to)
                        return 0; /* out of memory: tried again at the next Interval End */
                c->to = to;
                c->capto = need;
        }
        uint32_t oldest;
        size_t kept = compact_series(c, now, idle, &oldest);
        size_t gone = c->n - kept;
        c->n = kept;
        /* The first interval at which the least recent of them can be idle too long. */
        c->next_sweep = kept ? oldest + idle + 1 : now + 1;
        if (gone) {
                zh_clear(&c->ix);
                for (size_t j = 0; j < kept; j++)
                        (void)zh_add(&c->ix, c->ids[j], j);
        }
        compact_guests(c, now);
        return gone;
}

void zm_cap_free(struct zm_cap *c)
{
        free(c->guests);
        zh_free(&c->guest_ix);
        free(c->ids);
        free(c->order.succ);
        free(c->seen);
        free(c->owner);
        free(c->to);
        zh_free(&c->ix);
        memset(c, 0, sizeof(*c));
}
