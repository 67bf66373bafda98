/* SPDX-License-Identifier: MIT */
/*
 * The series of a metric: found by the order values came in last interval
 * (the index when that guess fails), derived once (names, host, filter and
 * type verdicts) and kept; laid out again in that order when it drifts.
 */
#include "zvm_collectd.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "zvmdec.h"
#include "zvm.h"
#include "zvm_dispatch.h"

static bool rec_match(const struct zvm_recfilter *f, size_t n, const struct zm_metric *m)
{
        for (size_t i = 0; i < n; i++)
                if (f[i].domain == m->domain && (f[i].record < 0 || f[i].record == m->record))
                        return true;
        return false;
}

static bool guest_match(char *const *pat, size_t n, const char *userid)
{
        for (size_t i = 0; i < n; i++)
                if (fnmatch(pat[i], userid, 0) == 0)
                        return true;
        return false;
}

/* The filters: Include* (if any) must match, Exclude* must not. */
bool dsp_wanted(const struct zvm_config *c, const struct zm_metric *m)
{
        if (c->ninc_rec && !rec_match(c->inc_rec, c->ninc_rec, m))
                return false;
        if (rec_match(c->exc_rec, c->nexc_rec, m))
                return false;
        if (m->guest[0]) {
                if (c->ninc_guest && !guest_match(c->inc_guest, c->ninc_guest, m->guest))
                        return false;
                if (guest_match(c->exc_guest, c->nexc_guest, m->guest))
                        return false;
        }
        return true;
}

struct find {
        const struct zvm_dispatch *d;
        const struct zm_metric *m;
        const struct series *x;
};

/*
 * Whether x is m's series.  With an id (zm_metric_id: keyed, so a guest cannot
 * make two of its names collide), the id stands for the names and only the
 * CP userid, the identity, is compared, not the five names a value would
 * otherwise cost.  Without one (CP's metrics, whose id the engine
 * leaves out) the names are compared.
 */
static bool series_eq(const void *ctx, size_t pos)
{
        const struct find *f = ctx;
        const struct series *x = &f->d->s[pos];
        const struct zm_metric *m = f->m;
        if (x->scope != m->scope || x->domain != m->domain || x->record != m->record)
                return false;
        /* Both userids are char[9]: one masked word each, not a strcmp call.  A
         * module's key stands for the names as the id made from it does. */
        if (m->id)
                return x->id == m->id && zh_word8(x->guest) == zh_word8(m->guest);
        if (m->key)
                return x->key == m->key && zh_word8(x->guest) == zh_word8(m->guest);
        return strcmp(x->guest, m->guest) == 0 && strcmp(nm(x, N_CLAIM), m->host) == 0 &&
               strcmp(nm(x, N_PLUGIN), m->plugin) == 0 &&
               strcmp(nm(x, N_PINST), m->plugin_instance) == 0 &&
               strcmp(nm(x, N_TYPE), m->type) == 0 && strcmp(nm(x, N_TINST), m->type_instance) == 0;
}

static bool ident_eq(const void *ctx, size_t pos)
{
        const struct find *f = ctx;
        const struct series *a = &f->d->s[f->d->id[pos].series], *b = f->x;
        for (int k = N_PLUGIN; k < N_NAMES; k++)
                if (a->len[k] != b->len[k] || memcmp(nm(a, k), nm(b, k), a->len[k]) != 0)
                        return false;
        return true;
}

/*
 * Room in ix for one more entry, so that zh_add does not grow it; false when
 * out of memory.  zh_add doubles a half full index and puts every entry
 * again: the first sight of many series passes through every size, and
 * the tables it leaves behind add up to the last one, each page faulted in
 * once.  From 65,536 slots on this one grows four times over: the pages and
 * the entries put again are a third of that, for an index a quarter to an
 * eighth full, never more than twice the size doubling would give.
 */
#define ROOM_QUADRUPLE 65536

static bool index_room(struct zh_index *ix)
{
        if (2 * (ix->n + 1) <= ix->cap || ix->cap < ROOM_QUADRUPLE)
                return true; /* zh_add has room, or doubles a small index itself */
        return zh_resize(ix, 4 * ix->cap);
}

/*
 * Series x of a guest is dispatched as the identifier another series of the
 * same guest already is: two of the guest's sources write the same names
 * under its host (kernel APPLDATA's memory/memory-used and write_zvm's from
 * collectd's memory plugin on the guest, say).  Each identifier takes one
 * value a time, so the second source's values of a time are dropped as
 * duplicates and the series mixes both: said once per guest.
 */
static void mixed_sources(struct zvm_dispatch *d, const struct series *x, const struct series *was)
{
        if (x->scope != ZM_GUEST || was->scope != ZM_GUEST || strcmp(x->guest, was->guest) != 0)
                return; /* two guests GuestHost names alike: their own choice */
        /* The kernel's records as configuration (D10R1) and samples (D10R2) are one
         * source; write_zvm's values with two host names (one its own, one refused)
         * too: only write_zvm names a host. */
        if (x->domain != was->domain || x->record != was->record ||
            (x->len[N_CLAIM] && was->len[N_CLAIM]))
                return;
        struct noted *n = dsp_noted(d, x->guest);
        if (!n || n->mixed)
                return;
        n->mixed = true;
        WARNING(ZVM_PLUGIN " plugin: guest %s writes %s/%s%s%s/%s%s%s from two sources (kernel "
                           "APPLDATA, mon_fsstatd or mon_procd, and write_zvm): one identifier "
                           "takes one value a time, so the later source's values are dropped "
                           "(total_values-duplicate); keep one source of those identifiers, e.g. "
                           "write_zvm's Exclude on the guest (this is said once per guest)",
                x->guest, nm(x, N_HOST), nm(x, N_PLUGIN), x->len[N_PINST] ? "-" : "",
                nm(x, N_PINST), nm(x, N_TYPE), x->len[N_TINST] ? "-" : "", nm(x, N_TINST));
}

/* The identifier x is dispatched as (found or added); false when out of memory. */
static bool bind_ident(struct zvm_dispatch *d, size_t pos)
{
        struct series *x = &d->s[pos];
        uint64_t h = zh_str(zh_secret(), nm(x, N_HOST)); /* names a guest chose */
        for (int k = N_PLUGIN; k <= N_TINST; k++)
                h = zh_str(h, nm(x, k));
        struct find f = {d, NULL, x};
        size_t i = zh_find(&d->iix, h, ident_eq, &f);
        if (i != SIZE_MAX && d->id[i].series != pos)
                mixed_sources(d, x, &d->s[d->id[i].series]);
        if (i == SIZE_MAX) {
                if (!zh_grow((void **)&d->id, &d->capid, d->nid, sizeof(*d->id)) ||
                    !index_room(&d->iix) || !zh_add(&d->iix, h, d->nid))
                        return false;
                i = d->nid++;
                d->id[i] = (struct ident){h, (uint32_t)pos, 0};
        }
        x->ident = (uint32_t)i;
        return true;
}

/* The value's series is the one after the last value's in the array (or not). */
static void count_order(struct zvm_dispatch *d, bool next)
{
        d->in_seq += next;
        d->ival_in_seq += next;
}

/* Series i came as guessed or found: note the order, refresh what a change made stale. */
static struct series *seen(struct zvm_dispatch *d, size_t i, const struct dsp_epoch *now)
{
        count_order(d, d->order.prev && i == d->order.prev);
        zh_order_came(&d->order, i);
        struct series *x = &d->s[i];
        x->seen = now->interval;
        if (x->system_gen != now->system_gen || x->cfg_host != now->cfg_host ||
            (x->claim_open && x->trust_gen != now->trust)) {
                if (!dsp_resolve_host(d, x))
                        return NULL;
                x->ident = UINT32_MAX;
        }
        if (x->ident == UINT32_MAX && !bind_ident(d, i))
                return NULL; /* out of memory: tried again with the next value */
        return x;
}

/* Room for series ns and its link; false when out of memory. */
static bool grow_series(struct zvm_dispatch *d)
{
        return zh_grow((void **)&d->s, &d->caps, d->ns, sizeof(*d->s)) &&
               zh_grow((void **)&d->order.succ, &d->capsucc, d->ns, sizeof(*d->order.succ));
}

/* A new series: made whole first, so that the tables never hold half of one. */
static struct series *made(struct zvm_dispatch *d, const struct zm_metric *m,
                           const struct dsp_epoch *now)
{
        struct series n;
        memset(&n, 0, sizeof(n));
        n.id = m->id;
        n.seen = now->interval;
        n.key = m->key;
        n.scope = (uint8_t)m->scope;
        n.domain = m->domain;
        n.record = m->record;
        memcpy(n.guest, m->guest, sizeof(n.guest));
        n.wanted = dsp_wanted(d->cfg, m);
        n.refused = dsp_refused_name(m);
        if (n.guest[0] && n.scope == ZM_SYSTEM) {
                /* CP names a guest: its own host is its from now on, whoever claims it */
                char own[DATA_MAX_NAME_LEN];
                dsp_guest_own_host(d, &n, own, sizeof(own));
                dsp_bind_host(d, own, n.guest);
        }
        const data_set_t *ds = plugin_get_ds(m->type);
        n.ds_num = !ds ? -1 : ds->ds_num > INT16_MAX ? INT16_MAX : (int16_t)ds->ds_num;
        n.ident = UINT32_MAX;
        const char *name[N_HOST] = {m->host, m->plugin, m->plugin_instance, m->type,
                                    m->type_instance};
        /* Laid out here and its host decided, then kept in a block at its size. */
        char scratch[N_NAMES * DATA_MAX_NAME_LEN];
        n.text = scratch;
        n.cap = sizeof(scratch);
        if (!dsp_set_text(d, &n, name, "") || !dsp_resolve_host(d, &n) || !dsp_keep_text(d, &n) ||
            !grow_series(d) || !index_room(&d->six) || !zh_add(&d->six, m->id, d->ns)) {
                return NULL; /* its text stays in the block, unused */
        }
        /* appended right after the last value's series: in array order, as seen() counts */
        count_order(d, d->order.prev && d->order.prev == d->ns);
        d->order.succ[d->ns] = 0;
        zh_order_came(&d->order, d->ns);
        d->s[d->ns++] = n;
        return bind_ident(d, d->ns - 1) ? &d->s[d->ns - 1] : NULL;
}

/*
 * The series of m, derived on first sight; NULL when out of memory.  m's id
 * is computed here only when the guess fails (the engine leaves it 0 unless
 * it needed it for the series cap).
 */
struct series *dsp_series_of(struct zvm_dispatch *d, const struct zm_metric *m,
                             const struct dsp_epoch *now)
{
        /*
         * Values come in much the same order every interval: the series that
         * followed the last one's last time is the first guess, confirmed by its
         * names; the index the second.  The guess saves hashing the names and,
         * with many series, the index's cache misses.
         */
        struct zm_metric named;
        struct find f = {d, m, NULL};
        size_t guess = zh_order_guess(&d->order);
        if (guess < d->ns && series_eq(&f, guess))
                return seen(d, guess, now);
        if (!m->id) {
                named = *m;
                named.id = zm_series_id(m);
                f.m = m = &named;
        }
        size_t i = zh_find(&d->six, m->id, series_eq, &f);
        return i != SIZE_MAX ? seen(d, i, now) : made(d, m, now);
}

/*
 * Lay the series out in the order their values came last time (the chain of
 * succ links), names included, so that a whole interval walks memory front
 * to back.  Series are made in the order first seen, which is not that order:
 * CP's metrics of one guest appear interval by interval as their laws hold,
 * so the array runs law by law while the values run guest by guest, and
 * with many series every value would be a cache miss or more.  Done when fewer
 * than half the values of two rounds came in array order; false (nothing
 * changed) when out of memory.
 */
struct relay {
        uint32_t *order, *pos; /* new position j holds old order[j]; old i goes to pos[i] */
        uint32_t *idpos;       /* old identifier -> new */
        uint32_t *succ;        /* the series' links, renumbered at their new places */
        size_t used_ids;       /* identifiers some series uses: numbered first */
        /*
         * dsp_forget_idle: series idle for more than idle intervals at now go
         * last, and are cut off after the move (kept: the others); so do the
         * identifiers whose names lived in one of them and that no series
         * kept uses (kept_ids).  Without forgetting, every one is kept.
         */
        bool forget;
        uint32_t now, idle;
        size_t kept, kept_ids;
        char **text; /* old series i's names, copied into the new blocks */
        char **old_blocks;
        size_t old_nblocks, old_cap;
        bool swapped; /* the names go into new blocks; the old ones are kept until done */
};

static bool forgotten(const struct relay *r, const struct series *x)
{
        return r->forget && r->now - x->seen > r->idle;
}

/* Old series i at new position k. */
static void place(struct relay *r, size_t i, size_t k)
{
        r->pos[i] = (uint32_t)k;
        r->order[k] = (uint32_t)i;
}

#define PASSED (UINT32_MAX - 1) /* chain_order: a series forgotten, met on the chain */

/*
 * The chain from the series after the last value (the next round's first),
 * then the rest; the series forgotten after all of them.
 */
static void chain_order(const struct zvm_dispatch *d, struct relay *r)
{
        size_t n = d->ns, k = 0;
        memset(r->pos, 0xFF, n * sizeof(*r->pos));
        const uint32_t *succ = d->order.succ;
        size_t i = d->order.prev && succ[d->order.prev - 1] ? succ[d->order.prev - 1] - 1 : 0;
        while (i < n && r->pos[i] == UINT32_MAX) {
                if (forgotten(r, &d->s[i]))
                        r->pos[i] = PASSED;
                else
                        place(r, i, k++);
                i = succ[i] ? succ[i] - 1 : n;
        }
        for (i = 0; i < n; i++)
                if (r->pos[i] == UINT32_MAX && !forgotten(r, &d->s[i]))
                        place(r, i, k++);
        r->kept = k;
        for (i = 0; i < n; i++)
                if (r->pos[i] >= PASSED)
                        place(r, i, k++);
}

/*
 * Identifiers in the order of their first series in the new order; then
 * those no series uses whose names a series kept still holds; those of
 * series forgotten last.
 */
static void ident_order(const struct zvm_dispatch *d, struct relay *r)
{
        size_t k = 0;
        if (d->nid)
                memset(r->idpos, 0xFF, d->nid * sizeof(*r->idpos));
        for (size_t j = 0; j < r->kept; j++) {
                uint32_t id = d->s[r->order[j]].ident;
                if (id != UINT32_MAX && r->idpos[id] == UINT32_MAX)
                        r->idpos[id] = (uint32_t)k++;
        }
        r->used_ids = k;
        for (size_t j = 0; j < d->nid; j++)
                if (r->idpos[j] == UINT32_MAX && r->pos[d->id[j].series] < r->kept)
                        r->idpos[j] = (uint32_t)k++;
        r->kept_ids = k;
        for (size_t j = 0; j < d->nid; j++)
                if (r->idpos[j] == UINT32_MAX)
                        r->idpos[j] = (uint32_t)k++;
}

/*
 * The names of the series kept copied into new blocks in the new order;
 * false when out of memory (nothing moved).
 */
static bool copy_text(struct zvm_dispatch *d, struct relay *r)
{
        for (size_t j = r->kept; j < d->ns; j++)
                r->text[r->order[j]] = NULL; /* forgotten: freed with the old blocks */
        for (size_t j = 0; j < r->kept; j++) {
                const struct series *x = &d->s[r->order[j]];
                size_t used = dsp_text_used(x);
                char *t = dsp_text_alloc(d, used + HOST_ROOM);
                if (!t)
                        return false;
                memcpy(t, x->text, used);
                r->text[r->order[j]] = t;
        }
        return true;
}

/* Ahead of a move, the element that many moves later (each one a cache miss otherwise). */
#define PERMUTE_AHEAD 8

static void prefetch(const unsigned char *p, size_t size)
{
        for (size_t o = 0; o < size; o += 64)
                __builtin_prefetch(p + o, 1);
        __builtin_prefetch(p + size - 1, 1);
}

/*
 * Move every element i of a (n of size bytes) to dest[i], in place, cycle by
 * cycle: no second array of every series to touch.  Each move is a cache
 * miss, known only from dest (which stays in cache): the elements a few moves
 * ahead in the cycle are fetched meanwhile.  dest is used up.
 */
_Static_assert(sizeof(struct ident) <= sizeof(struct series), "permute()'s buffers");
_Static_assert(sizeof(struct series) <= 96, "struct series grew (zvm_dispatch.h)");
static void permute(void *a, size_t size, uint32_t *dest, size_t n)
{
        unsigned char hold[sizeof(struct series)], tmp[sizeof(struct series)];
        unsigned char *e = a;
        for (size_t i = 0; i < n; i++) {
                if (dest[i] == UINT32_MAX)
                        continue;
                memcpy(hold, e + i * size, size);
                size_t ahead = i; /* the last element fetched, in this cycle */
                for (int k = 0; k < PERMUTE_AHEAD && dest[ahead] != i; k++) {
                        ahead = dest[ahead];
                        prefetch(e + ahead * size, size);
                }
                for (size_t cur = i;;) {
                        size_t to = dest[cur];
                        dest[cur] = UINT32_MAX;
                        if (to == i) {
                                memcpy(e + i * size, hold, size);
                                break;
                        }
                        if (dest[ahead] != UINT32_MAX && dest[ahead] != i) {
                                ahead = dest[ahead];
                                prefetch(e + ahead * size, size);
                        }
                        memcpy(tmp, e + to * size, size);
                        memcpy(e + to * size, hold, size);
                        memcpy(hold, tmp, size);
                        cur = to;
                }
        }
}

/* The links at the series' new places (ahead of permute, which uses pos up). */
static void move_links(struct zvm_dispatch *d, struct relay *r)
{
        for (size_t i = 0; i < d->ns; i++)
                r->succ[r->pos[i]] = zh_order_moved(r->pos, r->kept, d->order.succ[i]);
        free(d->order.succ);
        d->order.succ = r->succ;
        r->succ = NULL;
        d->order.prev = zh_order_moved(r->pos, r->kept, d->order.prev);
        d->ival_first = zh_order_moved(r->pos, r->kept, d->ival_first);
}

/* The indexes anew, for the series and identifiers kept (fewer than they held: no growth). */
static void reindex(struct zvm_dispatch *d)
{
        zh_clear(&d->six);
        for (size_t j = 0; j < d->ns; j++)
                (void)zh_add(&d->six, d->s[j].id, j);
        zh_clear(&d->iix);
        for (size_t j = 0; j < d->nid; j++)
                (void)zh_add(&d->iix, d->id[j].hash, j);
}

/* Everything to its new place, the forgotten cut off; cannot fail. */
static void install(struct zvm_dispatch *d, struct relay *r)
{
        for (size_t b = 0; b < r->old_nblocks; b++)
                free(r->old_blocks[b]);
        free(r->old_blocks);
        /* an identifier's names are those of its first series in the new order */
        for (size_t j = 0, k = 0; j < r->kept; j++) {
                uint32_t id = d->s[r->order[j]].ident;
                if (id != UINT32_MAX && r->idpos[id] == k) {
                        d->id[id].series = (uint32_t)j;
                        k++;
                }
        }
        for (size_t j = 0; j < d->nid; j++) /* identifiers no series uses any more */
                if (r->idpos[j] >= r->used_ids)
                        d->id[j].series = r->pos[d->id[j].series];
        for (size_t i = 0; i < d->ns; i++) {
                struct series *x = &d->s[i];
                x->text = r->text[i];
                x->cap = (uint16_t)(dsp_text_used(x) + HOST_ROOM);
                if (x->ident != UINT32_MAX)
                        x->ident = r->idpos[x->ident];
        }
        if (!r->forget) {
                zh_remap(&d->six, r->pos);
                zh_remap(&d->iix, r->idpos);
        }
        d->layouts++;
        move_links(d, r);
        permute(d->s, sizeof(*d->s), r->pos, d->ns);
        permute(d->id, sizeof(*d->id), r->idpos, d->nid);
        if (r->forget) {
                d->ns = r->kept;
                d->nid = r->kept_ids;
                reindex(d);
        }
}

/* Out of memory half way: everything as it was. */
static void undo(struct zvm_dispatch *d, struct relay *r)
{
        if (!r->swapped)
                return;
        for (size_t b = 0; b < d->nblocks; b++)
                free(d->blocks[b]);
        free(d->blocks);
        d->blocks = r->old_blocks;
        d->nblocks = r->old_nblocks;
        d->capblocks = r->old_cap;
        d->block_used = TEXT_BLOCK; /* the next text starts a new block */
}

/* Lay out again; with forgetting (r's forget, now and idle set), cut off the idle series. */
static bool relayout(struct zvm_dispatch *d, struct relay *r)
{
        r->order = malloc(d->ns * sizeof(*r->order));
        r->pos = malloc(d->ns * sizeof(*r->pos));
        r->idpos = malloc(d->nid * sizeof(*r->idpos));
        r->text = malloc(d->ns * sizeof(*r->text));
        r->succ = malloc(d->capsucc * sizeof(*r->succ));
        r->old_blocks = d->blocks;
        r->old_nblocks = d->nblocks;
        r->old_cap = d->capblocks;
        bool ok = r->order && r->pos && r->text && r->succ && (r->idpos || !d->nid);
        if (ok) {
                chain_order(d, r);
                ident_order(d, r);
                d->blocks = NULL; /* the names are copied into blocks of their own */
                d->nblocks = d->capblocks = d->block_used = 0;
                r->swapped = true;
                ok = copy_text(d, r);
        }
        if (ok)
                install(d, r);
        else
                undo(d, r);
        free(r->order);
        free(r->pos);
        free(r->idpos);
        free(r->text);
        free(r->succ);
        return ok;
}

bool dsp_relayout(struct zvm_dispatch *d)
{
        struct relay r = {0};
        return relayout(d, &r);
}

/*
 * The first interval at which a series can be idle too long: the least
 * recent one's last value plus idle, + 1.  *nidle: how many are idle too
 * long now.
 */
static uint32_t next_forget(const struct zvm_dispatch *d, uint32_t now, uint32_t idle,
                            size_t *nidle)
{
        uint32_t oldest = now;
        *nidle = 0;
        for (size_t i = 0; i < d->ns; i++) {
                uint32_t age = now - d->s[i].seen;
                if (age > idle)
                        (*nidle)++;
                else if (age > now - oldest)
                        oldest = d->s[i].seen;
        }
        return oldest + idle + 1;
}

static uint32_t intervals(const struct zvm_dispatch *d)
{
        return d->eng ? (uint32_t)zm_engine_intervals(d->eng) : 0;
}

/* A table this small is laid out again for any idle series: it costs little. */
#define FORGET_SMALL 512

bool dsp_forget_due(const struct zvm_dispatch *d)
{
        return d->cfg->engine.series_idle && d->ns && (int32_t)(intervals(d) - d->next_forget) >= 0;
}

bool dsp_forget_idle(struct zvm_dispatch *d)
{
        uint32_t idle = d->cfg->engine.series_idle, now = intervals(d);
        if (!dsp_forget_due(d))
                return false;
        size_t nidle;
        d->next_forget = next_forget(d, now, idle, &nidle);
        if (!nidle)
                return false;
        /*
         * Forgetting lays out every series again: done for a few idle ones
         * among many, every interval in which one more went idle, it would
         * cost each value in proportion to the table.  A large table keeps
         * its idle series (found again if they come back) until they are an
         * eighth of it, so that the lay-out's cost is spread over the series
         * it frees; the look for them stays one pass an interval.
         */
        if (d->ns > FORGET_SMALL && nidle * 8 < d->ns) {
                d->next_forget = now + 1;
                return false;
        }
        struct relay r = {.forget = true, .now = now, .idle = idle};
        if (relayout(d, &r))
                return true;
        d->next_forget = now + 1; /* out of memory: tried again at the next end */
        return false;
}
