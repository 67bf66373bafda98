/* SPDX-License-Identifier: MIT */
/* write_zvm: the bounded queue and the table of latest values. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "write_zvm_core.h"

static bool copy_name(char *dst, const char *src, bool may_be_empty)
{
        size_t n = strnlen(src, WZVM_NAME_MAX + 1);
        if (!wzvm_name_ok(src, n, may_be_empty))
                return false;
        memcpy(dst, src, n);
        dst[n] = 0;
        return true;
}

bool wz_item_set_names(struct wz_item *it, const char *host, const char *plugin,
                       const char *plugin_instance, const char *type, const char *type_instance,
                       const char *ds_name)
{
        return copy_name(it->host, host, false) && copy_name(it->e.plugin, plugin, false) &&
               copy_name(it->e.plugin_instance, plugin_instance, true) &&
               copy_name(it->e.type, type, false) &&
               copy_name(it->e.type_instance, type_instance, true) &&
               copy_name(it->e.ds_name, ds_name, false);
}

int wz_queue_init(struct wz_queue *q, size_t cap)
{
        memset(q, 0, sizeof(*q));
        if (cap == 0)
                return -1;
        q->ring = calloc(cap, sizeof(*q->ring));
        if (!q->ring)
                return -1;
        q->cap = cap;
        pthread_mutex_init(&q->mu, NULL);
        /* the writer thread waits for deadlines on the monotonic clock */
        pthread_condattr_t ca;
        pthread_condattr_init(&ca);
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        pthread_cond_init(&q->cv, &ca);
        pthread_condattr_destroy(&ca);
        return 0;
}

void wz_queue_destroy(struct wz_queue *q)
{
        if (!q->ring)
                return;
        free(q->ring);
        q->ring = NULL;
        pthread_mutex_destroy(&q->mu);
        pthread_cond_destroy(&q->cv);
}

bool wz_queue_push(struct wz_queue *q, const struct wz_item *items, size_t n)
{
        pthread_mutex_lock(&q->mu);
        bool ok = n <= q->cap - q->n;
        if (ok) {
                bool below_half = q->n < q->cap / 2;
                for (size_t i = 0; i < n; i++)
                        q->ring[(q->head + q->n + i) % q->cap] = items[i];
                q->n += n;
                q->queued += n;
                /* The writer thread sleeps until its next WriteInterval; unless it is woken
                 * here, every value beyond QueueLength per interval is dropped even though
                 * the device is idle.  Once per crossing: a waiter-less signal costs nothing,
                 * and a writer busy in a pass sees n >= cap/2 before it waits again. */
                if (below_half && q->n >= q->cap / 2)
                        pthread_cond_signal(&q->cv);
        } else {
                q->dropped += n;
        }
        pthread_mutex_unlock(&q->mu);
        return ok;
}

/* The n items at the head into out, and off the queue; q->mu held. */
static size_t take(struct wz_queue *q, struct wz_item *out, size_t n)
{
        for (size_t i = 0; i < n; i++)
                out[i] = q->ring[(q->head + i) % q->cap];
        q->head = (q->head + n) % q->cap;
        q->n -= n;
        return n;
}

/* How many of the n items from v on are the value list v starts: a list is pushed whole. */
static size_t list_len(const struct wz_item *v, size_t n)
{
        size_t len = v->e.ds_count ? v->e.ds_count : 1;
        return len < n ? len : n;
}

size_t wz_queue_pop_lists(struct wz_queue *q, struct wz_item *out, size_t max)
{
        pthread_mutex_lock(&q->mu);
        size_t n = 0;
        while (n < q->n) {
                size_t len = list_len(&q->ring[(q->head + n) % q->cap], q->n - n);
                if (n + len > max)
                        break;
                n += len;
        }
        take(q, out, n);
        pthread_mutex_unlock(&q->mu);
        return n;
}

/* Sort order of the table: records group a host's values, a type's data sources stay adjacent. */
static int cmp_key(const struct wz_item *a, const struct wz_item *b)
{
        int c;
        if ((c = strcmp(a->host, b->host)) || (c = strcmp(a->e.plugin, b->e.plugin)) ||
            (c = strcmp(a->e.plugin_instance, b->e.plugin_instance)) ||
            (c = strcmp(a->e.type, b->e.type)) ||
            (c = strcmp(a->e.type_instance, b->e.type_instance)))
                return c;
        return (int)a->e.ds_index - (int)b->e.ds_index;
}

void wz_table_init(struct wz_table *t, size_t max)
{
        memset(t, 0, sizeof(*t));
        t->max = max;
}

void wz_table_free(struct wz_table *t)
{
        free(t->v);
        memset(t, 0, sizeof(*t));
}

/* A value leaves the table: count it if it was owed and never written. */
static void leave(struct wz_table *t, const struct wz_item *old, bool expired)
{
        if (old->written)
                return;
        if (old->missed)
                t->dropped_space++;
        else if (expired) /* it aged out between two passes: WriteInterval > Timeout x interval */
                t->dropped_expired++;
        else /* replaced before any pass: the newer value is the one to write */
                t->merged++;
}

/* Producers' items may carry anything in these: a value enters owed nothing. */
static void enter(struct wz_item *slot, const struct wz_item *it)
{
        *slot = *it;
        slot->written = slot->missed = false;
}

/* Where it is in the table, or where it would go. */
static bool find(const struct wz_table *t, const struct wz_item *it, size_t *pos)
{
        size_t lo = 0, hi = t->n;
        while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                int c = cmp_key(&t->v[mid], it);
                if (c == 0) {
                        *pos = mid;
                        return true;
                }
                if (c < 0)
                        lo = mid + 1;
                else
                        hi = mid;
        }
        *pos = lo;
        return false;
}

#define WZ_TABLE_MIN 64 /* entries: the table's first size, and the least it shrinks to */

static enum wz_put reserve(struct wz_table *t, size_t more)
{
        if (more > t->max - t->n)
                return WZ_PUT_FULL;
        if (t->n + more <= t->cap)
                return WZ_PUT_OK;
        size_t cap = t->cap ? t->cap : WZ_TABLE_MIN;
        while (cap < t->n + more)
                cap *= 2;
        struct wz_item *p = realloc(t->v, cap * sizeof(*p));
        if (!p)
                return WZ_PUT_NOMEM;
        t->v = p;
        t->cap = cap;
        return WZ_PUT_OK;
}

/* The room is reserved: this cannot fail. */
static void place(struct wz_table *t, const struct wz_item *it)
{
        size_t pos;
        if (find(t, it, &pos)) {
                leave(t, &t->v[pos], false);
                enter(&t->v[pos], it);
                return;
        }
        memmove(&t->v[pos + 1], &t->v[pos], (t->n - pos) * sizeof(*t->v));
        enter(&t->v[pos], it);
        t->n++;
}

/*
 * A reader drops a whole record for one incomplete value list in it
 * (met_wzvm.c, groups_ok), every pass, so a list the table cannot hold
 * entirely must not enter at all.
 */
enum wz_put wz_table_put_list(struct wz_table *t, const struct wz_item *items, size_t n)
{
        size_t fresh = 0, pos;
        for (size_t i = 0; i < n; i++)
                fresh += !find(t, &items[i], &pos);
        enum wz_put r = reserve(t, fresh);
        /* told apart, as one asks to raise MaxRecords and the other would not help */
        if (r == WZ_PUT_FULL)
                t->dropped_full += n;
        if (r == WZ_PUT_NOMEM)
                t->dropped_nomem++;
        if (r != WZ_PUT_OK)
                return r;
        for (size_t i = 0; i < n; i++)
                place(t, &items[i]);
        return WZ_PUT_OK;
}

const struct wz_item *wz_table_put_lists(struct wz_table *t, const struct wz_item *v, size_t n,
                                         enum wz_put *why)
{
        const struct wz_item *refused = NULL;
        for (size_t i = 0, len; i < n; i += len) {
                len = list_len(&v[i], n - i);
                enum wz_put r = wz_table_put_list(t, &v[i], len);
                if (r != WZ_PUT_OK && !refused) {
                        refused = &v[i];
                        *why = r;
                }
        }
        return refused;
}

/*
 * Halved while a quarter or less is in use: a burst of identifiers (a plugin
 * instance per container, a flood at start) would otherwise pin its peak for
 * the rest of the daemon's life.  A quarter, not a half: a table that hovers
 * around a power of two does not move at every expiry.  A failed realloc
 * keeps the larger array.
 */
static void shrink(struct wz_table *t)
{
        size_t cap = t->cap;
        while (cap > WZ_TABLE_MIN && t->n <= cap / 4)
                cap /= 2;
        if (cap == t->cap)
                return;
        struct wz_item *p = realloc(t->v, cap * sizeof(*p));
        if (p) {
                t->v = p;
                t->cap = cap;
        }
}

size_t wz_table_expire(struct wz_table *t, double now, double factor)
{
        size_t j = 0, gone = 0;
        for (size_t i = 0; i < t->n; i++) {
                if (now - t->v[i].seen > factor * t->v[i].interval) {
                        leave(t, &t->v[i], true);
                        gone++;
                        continue;
                }
                if (i != j)
                        t->v[j] = t->v[i];
                j++;
        }
        t->n = j;
        if (gone)
                shrink(t);
        return gone;
}

size_t wz_table_unwritten(const struct wz_table *t)
{
        size_t n = 0;
        for (size_t i = 0; i < t->n; i++)
                n += !t->v[i].written;
        return n;
}

void wz_table_missed(struct wz_table *t)
{
        for (size_t i = 0; i < t->n; i++)
                if (!t->v[i].written)
                        t->v[i].missed = true;
}
