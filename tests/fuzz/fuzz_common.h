/* SPDX-License-Identifier: MIT */
/* Shared by the fuzz targets: a handler that touches everything a consumer would. */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "record/record.h"
#include "layout/layout.h"
#include "layout/registry.h"

static volatile uint64_t fuzz_sink;

static void fuzz_field(void *ctx, const struct zl_value *v)
{
        char buf[512];
        (void)ctx;
        fuzz_sink += zl_text(v, buf, sizeof(buf)) + v->u;
}

static void fuzz_record(void *ctx, const struct zd_record *r)
{
        (void)ctx;
        /* Read every byte the decoder claims is there: ASan catches a lying view. */
        for (size_t i = 0; i < r->rec.n; i++)
                fuzz_sink += r->rec.p[i];
        const struct zl_layout *l = zl_find_cp(r->domain, r->number, r->rec.n);
        if (l)
                zl_foreach(l, r->rec, fuzz_field, NULL);
        if (zr_lookup(r->domain, r->number))
                fuzz_sink++;
}

static void fuzz_error(void *ctx, const struct zd_error *e)
{
        (void)ctx;
        fuzz_sink += e->kind;
}

static const struct zd_handler fuzz_handler = {NULL, fuzz_record, fuzz_error, NULL};

#endif
