/* SPDX-License-Identifier: MIT */
/*
 * Shared by the VB and tape fuzz targets: any input in a fixed format, fed in
 * two pieces (buffering across feeds), then the same bytes in a second
 * format.  VM/370 records are also read through their layouts.
 */
#ifndef FUZZ_HIST_H
#define FUZZ_HIST_H

#include "fuzz_common.h"
#include "source/source.h"
#include "payload/vm370/vm370.h"

static void hist_record(void *ctx, const struct zd_record *r)
{
        if (r->family != ZD_FAM_VM370) {
                fuzz_record(ctx, r);
                return;
        }
        for (size_t i = 0; i < r->rec.n; i++)
                fuzz_sink += r->rec.p[i];
        const struct zl_layout *l = zd_vm370_layout(r->domain, r->number, r->rec.n);
        if (l)
                zl_foreach(l, r->rec, fuzz_field, NULL);
        if (zd_vm370_code_name(r->domain, r->number))
                fuzz_sink++;
}

static const struct zd_handler hist_handler = {NULL, hist_record, fuzz_error, NULL};

static void fuzz_hist(const uint8_t *data, size_t size, enum zd_format split_fmt,
                      enum zd_format whole_fmt)
{
        (void)fuzz_handler;
        struct zd_stream *s = zd_stream_new(split_fmt, &hist_handler);
        if (!s)
                return;
        size_t half = size / 2;
        zd_stream_feed(s, data, half);
        zd_stream_feed(s, data + half, size - half);
        zd_stream_finish(s);
        zd_stream_free(s);
        s = zd_stream_new(whole_fmt, &hist_handler);
        if (!s)
                return;
        zd_stream_feed(s, data, size);
        zd_stream_finish(s);
        zd_stream_free(s);
}

#endif
