/* SPDX-License-Identifier: MIT */
/*
 * Where the names of the dispatcher's series live: blocks of text that
 * are freed with the dispatcher, a few cache lines per series.
 */
#include "zvm_collectd.h"

#include <stdlib.h>
#include <string.h>

#include "zvmdec.h"
#include "zvm.h"
#include "zvm_dispatch.h"

char *dsp_text_alloc(struct zvm_dispatch *d, size_t n)
{
        if (n > TEXT_BLOCK)
                return NULL;
        if (!d->nblocks || d->block_used + n > TEXT_BLOCK) {
                char *b = calloc(1, TEXT_BLOCK + NAME_COPY);
                if (!b ||
                    !zh_grow((void **)&d->blocks, &d->capblocks, d->nblocks, sizeof(*d->blocks))) {
                        free(b);
                        return NULL;
                }
                d->blocks[d->nblocks++] = b;
                d->block_used = 0;
        }
        char *t = d->blocks[d->nblocks - 1] + d->block_used;
        d->block_used += n;
        return t;
}

/*
 * Lay out x's names: the first N_HOST from the strings given (they may be
 * x's own), then host.  Names are at most DATA_MAX_NAME_LEN - 1 bytes; longer
 * ones were cut by the engine already (ZM_NAME_LEN is the same size).  False
 * when out of memory.
 */
bool dsp_set_text(struct zvm_dispatch *d, struct series *x, const char *const name[N_HOST],
                  const char *host)
{
        size_t n = 0, len[N_NAMES];
        for (int k = 0; k < N_NAMES; k++) {
                const char *v = k == N_HOST ? host : name[k];
                len[k] = strnlen(v, DATA_MAX_NAME_LEN - 1);
                n += len[k] + 1;
        }
        char *t = x->text && n <= x->cap ? x->text : dsp_text_alloc(d, n + HOST_ROOM);
        if (!t)
                return false;
        if (t != x->text)
                x->cap = (uint16_t)(n + HOST_ROOM);
        size_t o = 0;
        for (int k = 0; k < N_NAMES; k++) {
                memmove(t + o, k == N_HOST ? host : name[k], len[k]); /* may be t itself */
                t[o + len[k]] = '\0';
                x->off[k] = (uint16_t)o;
                x->len[k] = (uint8_t)len[k];
                o += len[k] + 1;
        }
        x->text = t;
        return true;
}

bool dsp_keep_text(struct zvm_dispatch *d, struct series *x)
{
        size_t used = dsp_text_used(x);
        char *t = dsp_text_alloc(d, used + HOST_ROOM);
        if (!t)
                return false;
        memcpy(t, x->text, used);
        x->text = t;
        x->cap = (uint16_t)(used + HOST_ROOM);
        return true;
}
