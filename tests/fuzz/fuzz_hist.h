/* SPDX-License-Identifier: MIT */
/*
 * Shared by the VB and tape fuzz targets: any input in a fixed format, fed in
 * two pieces (buffering across feeds), then the same bytes in a second
 * format.  VM/370 records are also read through their layouts, their
 * repeated entries and the vm370 metric module.
 */
#ifndef FUZZ_HIST_H
#define FUZZ_HIST_H

#include "fuzz_common.h"
#include "metric/metric.h"
#include "source/source.h"
#include "payload/vm370/vm370.h"

static void hist_entries(const struct zd_record *r)
{
        struct zd_vm370_entries en;
        if (!zd_vm370_entries(r->domain, r->number, r->rec, &en))
                return;
        fuzz_sink += en.declared;
        for (size_t i = 0; i < en.n; i++) {
                zd_view d;
                if (zd_view_sub(r->rec, en.first + i * en.size, en.size, &d))
                        zl_foreach(en.l, d, fuzz_field, NULL);
        }
}

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
        hist_entries(r);
        if (ctx)
                zm_engine_record(ctx, r);
}

static void fuzz_hist(const uint8_t *data, size_t size, enum zd_format split_fmt,
                      enum zd_format whole_fmt)
{
        (void)fuzz_handler;
        struct zm_engine *e = zm_engine_new(NULL, NULL, NULL, NULL);
        struct zd_handler hist_handler = {e, hist_record, fuzz_error, NULL};
        struct zd_stream *s = zd_stream_new(split_fmt, &hist_handler);
        if (!s) {
                zm_engine_free(e);
                return;
        }
        size_t half = size / 2;
        zd_stream_feed(s, data, half);
        zd_stream_feed(s, data + half, size - half);
        zd_stream_finish(s);
        zd_stream_free(s);
        s = zd_stream_new(whole_fmt, &hist_handler);
        if (s) {
                zd_stream_feed(s, data, size);
                zd_stream_finish(s);
                zd_stream_free(s);
        }
        zm_engine_free(e);
}

#endif
