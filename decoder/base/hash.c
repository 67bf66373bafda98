/* SPDX-License-Identifier: MIT */
/* Open addressing with linear probing over (tag, position) pairs: see hash.h. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "base/hash.h"

/*
 * Drawn once from the kernel.  Without getrandom (an old kernel) the clock
 * and an address stand in: worse, not predictable from inside a guest
 * either.  Never 0, so that an index can tell it has not drawn it yet.
 */
static uint64_t secret;
static uint64_t sip_key[2]; /* siphash.h's key: 128 bits, as its proof assumes */
static pthread_once_t secret_once = PTHREAD_ONCE_INIT;
static atomic_bool secret_ready; /* set once secret is: pthread_once's call costs per value */

static void secret_draw(void)
{
        uint64_t k[3] = {0, 0, 0};
        if (getrandom(k, sizeof(k), 0) != (ssize_t)sizeof(k)) {
                struct timespec t;
                clock_gettime(CLOCK_MONOTONIC, &t);
                uint64_t c = (uint64_t)t.tv_nsec ^ (uint64_t)t.tv_sec << 30;
                k[0] = zh_u64(c, (uint64_t)(uintptr_t)&secret);
                k[1] = zh_u64(k[0], c);
                k[2] = zh_u64(k[1], (uint64_t)(uintptr_t)&t);
        }
        secret = k[0] | 1;
        sip_key[0] = k[1];
        sip_key[1] = k[2];
        atomic_store_explicit(&secret_ready, true, memory_order_release);
}

uint64_t zh_secret(void)
{
        if (!atomic_load_explicit(&secret_ready, memory_order_acquire))
                pthread_once(&secret_once, secret_draw);
        return secret;
}

const uint64_t *zh_secret_sip(void)
{
        if (!atomic_load_explicit(&secret_ready, memory_order_acquire))
                pthread_once(&secret_once, secret_draw);
        return sip_key;
}

/* Counting costs a thread-local access per probe (a call, in a plugin): only on request. */
static bool counting;
static _Thread_local uint64_t probes;

void zh_count_probes(bool on)
{
        counting = on;
}

uint64_t zh_probes(void)
{
        return probes;
}

/*
 * The callers' hashes are mixed again, with the process's secret: a weak
 * one then costs probes, never a chain, and hashes a guest can predict
 * cannot be aimed at one place in the index to make a probe run that every
 * other guest's lookups would cross.  Hashes a guest can make equal are the
 * callers' to prevent: a chain over names it chooses starts from zh_secret.
 */
static uint32_t tag(const struct zh_index *ix, uint64_t h)
{
        return (uint32_t)(zh_mix(h ^ ix->seed) >> 32);
}

size_t zh_find(const struct zh_index *ix, uint64_t h, zh_eq_fn eq, const void *ctx)
{
        if (!ix->cap)
                return SIZE_MAX;
        uint32_t t = tag(ix, h);
        for (size_t i = t & (ix->cap - 1);; i = (i + 1) & (ix->cap - 1)) {
                if (counting)
                        probes++;
                const struct zh_slot *s = &ix->slot[i];
                if (!s->pos)
                        return SIZE_MAX;
                if (s->tag == t && eq(ctx, s->pos - 1))
                        return s->pos - 1;
        }
}

static void put(struct zh_slot *slot, size_t cap, uint32_t t, uint32_t pos)
{
        size_t i = t & (cap - 1);
        for (;; i = (i + 1) & (cap - 1)) {
                if (counting)
                        probes++;
                if (!slot[i].pos)
                        break;
        }
        slot[i].tag = t;
        slot[i].pos = pos;
}

bool zh_add(struct zh_index *ix, uint64_t h, size_t pos)
{
        if (pos >= UINT32_MAX)
                return false;
        if (2 * (ix->n + 1) > ix->cap && !zh_resize(ix, ix->cap ? ix->cap * 2 : 64))
                return false;
        put(ix->slot, ix->cap, tag(ix, h), (uint32_t)pos + 1);
        ix->n++;
        return true;
}

bool zh_resize(struct zh_index *ix, size_t cap)
{
        if (cap & (cap - 1) || cap <= 2 * ix->n || cap - 1 > UINT32_MAX)
                return false;
        struct zh_slot *slot = calloc(cap, sizeof(*slot));
        if (!slot)
                return false;
        if (!ix->seed) /* before the first entry; the slots' tags depend on it from then on */
                ix->seed = zh_secret();
        for (size_t i = 0; i < ix->cap; i++)
                if (ix->slot[i].pos)
                        put(slot, cap, ix->slot[i].tag, ix->slot[i].pos);
        free(ix->slot);
        ix->slot = slot;
        ix->cap = cap;
        return true;
}

void zh_remap(struct zh_index *ix, const uint32_t *to)
{
        for (size_t i = 0; i < ix->cap; i++)
                if (ix->slot[i].pos)
                        ix->slot[i].pos = to[ix->slot[i].pos - 1] + 1;
}

bool zh_grow(void **arr, size_t *cap, size_t n, size_t size)
{
        if (n < *cap)
                return true;
        size_t c = *cap ? *cap * 2 : 64;
        void *p = realloc(*arr, c * size);
        if (!p)
                return false;
        *arr = p;
        *cap = c;
        return true;
}

void zh_clear(struct zh_index *ix)
{
        if (ix->slot)
                memset(ix->slot, 0, ix->cap * sizeof(*ix->slot));
        ix->n = 0;
}

void zh_free(struct zh_index *ix)
{
        free(ix->slot);
        memset(ix, 0, sizeof(*ix));
}
