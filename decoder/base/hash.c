/* SPDX-License-Identifier: MIT */
/* Open addressing with linear probing over (hash, position) pairs: see hash.h. */
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"

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

/* The callers' hashes are mixed again: a weak one then costs probes, never a chain. */
static uint32_t tag(uint64_t h)
{
        return (uint32_t)(zh_mix(h) >> 32);
}

size_t zh_find(const struct zh_index *ix, uint64_t h, zh_eq_fn eq, const void *ctx)
{
        if (!ix->cap)
                return SIZE_MAX;
        uint32_t t = tag(h);
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
        put(ix->slot, ix->cap, tag(h), (uint32_t)pos + 1);
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
