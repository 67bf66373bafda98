/* SPDX-License-Identifier: MIT */
#include "record/record.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void zd_decoder_init(struct zd_decoder *d, const struct zd_handler *h)
{
        memset(d, 0, sizeof(*d));
        if (h)
                d->h = *h;
}

void zd_report(struct zd_decoder *d, enum zd_err_kind k, const struct zd_pos *pos, const char *fmt,
               ...)
{
        if ((unsigned)k >= ZD_E__COUNT)
                k = ZD_E_NONE;
        d->st.errors[k]++;
        if (!d->h.error)
                return;
        struct zd_error e = {.kind = k};
        if (pos)
                e.pos = *pos;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e.msg, sizeof(e.msg), fmt, ap);
        va_end(ap);
        d->h.error(d->h.ctx, &e);
}

uint64_t zd_stats_errors(const struct zd_stats *st)
{
        uint64_t n = 0;
        for (int k = 1; k < ZD_E__COUNT; k++)
                n += st->errors[k];
        return n;
}

uint64_t zd_stats_count(const struct zd_stats *st, unsigned domain, unsigned record)
{
        if (domain >= ZD_NDOMAINS)
                return 0;
        return st->by_rec[domain][record < ZD_NRECSLOTS ? record : ZD_NRECSLOTS - 1];
}
