/* SPDX-License-Identifier: MIT */
/* Record mode of bench_sink: the file of bench_rec.h and a set of series. */
#include "bench_rec.h"

#include <stdio.h>
#include <stdlib.h>

struct bench_recorder {
        FILE *f;
        bool failed;
        uint64_t skipped; /* value lists the format cannot hold */
        uint64_t *set;    /* identifier hashes, 0 = empty; cap is a power of two */
        size_t n, cap;
        uint8_t buf[BENCH_REC_MAX];
};

struct bench_recorder *bench_rec_open(const char *path)
{
        struct bench_recorder *r = calloc(1, sizeof(*r));
        if (!r)
                return NULL;
        r->cap = 1u << 16;
        r->set = calloc(r->cap, sizeof(*r->set));
        r->f = fopen(path, "wb");
        if (!r->set || !r->f || fwrite(BENCH_REC_MAGIC, BENCH_REC_MAGIC_LEN, 1, r->f) != 1) {
                if (r->f)
                        fclose(r->f);
                free(r->set);
                free(r);
                return NULL;
        }
        /* Recording is not measured, but a big buffer keeps the run short. */
        setvbuf(r->f, NULL, _IOFBF, 1u << 20);
        return r;
}

static uint64_t ident_hash(const value_list_t *vl)
{
        uint64_t h = UINT64_C(0xCBF29CE484222325);
        for (int i = 0; i < 5; i++) {
                for (const char *s = (const char *)vl + bench_name_off[i]; *s; s++)
                        h = (h ^ (uint8_t)*s) * UINT64_C(0x100000001B3);
                h = (h ^ 0x2F) * UINT64_C(0x100000001B3); /* '/' separates names */
        }
        return h ? h : 1;
}

static void set_put(uint64_t *set, size_t cap, uint64_t h, size_t *n)
{
        size_t i = (size_t)(h ^ h >> 31) & (cap - 1);
        while (set[i] && set[i] != h)
                i = (i + 1) & (cap - 1);
        if (!set[i]) {
                set[i] = h;
                (*n)++;
        }
}

static void count_series(struct bench_recorder *r, const value_list_t *vl)
{
        if ((r->n + 1) * 2 > r->cap) {
                size_t cap = r->cap * 2, n = 0;
                uint64_t *set = calloc(cap, sizeof(*set));
                if (!set) {
                        r->failed = true;
                        return;
                }
                for (size_t i = 0; i < r->cap; i++)
                        if (r->set[i])
                                set_put(set, cap, r->set[i], &n);
                free(r->set);
                r->set = set;
                r->cap = cap;
        }
        set_put(r->set, r->cap, ident_hash(vl), &r->n);
}

bool bench_rec_add(struct bench_recorder *r, const data_set_t *ds, const value_list_t *vl)
{
        size_t len = bench_rec_encode(r->buf, ds, vl);
        if (!len) {
                r->skipped++;
                return false;
        }
        if (fwrite(r->buf, len, 1, r->f) != 1)
                r->failed = true;
        count_series(r, vl);
        return !r->failed;
}

uint64_t bench_rec_series(const struct bench_recorder *r)
{
        return r->n;
}

uint64_t bench_rec_skipped(const struct bench_recorder *r)
{
        return r->skipped;
}

bool bench_rec_close(struct bench_recorder *r)
{
        bool ok = !r->failed && r->skipped == 0;
        if (fclose(r->f) != 0)
                ok = false;
        free(r->set);
        free(r);
        return ok;
}
