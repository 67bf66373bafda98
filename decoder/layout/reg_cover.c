/* SPDX-License-Identifier: MIT */
/*
 * How far the layouts declare a named record: the coverage table of
 * `zvmmon layouts --coverage` and doc/records.md.  A record is complete
 * only where IBM's page was read to its end at its newest length: a
 * layout's min_len is where it starts to be chosen, which says nothing of
 * how much of the record it knows, so the registry's lengths decide.
 */
#include "layout/registry.h"

#define HDR 20 /* MRHDR, the same for every record */

/* Where the run of fields that starts at from ends: from itself if no field covers it. */
static unsigned covered_to(const struct zl_layout *l, unsigned from)
{
        unsigned to = from;
        for (bool grew = true; grew;) {
                grew = false;
                for (size_t i = 0; i < l->nfields; i++) {
                        const struct zl_field *f = &l->fields[i];
                        if (f->off <= to && f->off + f->len > to) {
                                to = f->off + f->len;
                                grew = true;
                        }
                }
        }
        return to;
}

static bool all_verified(const struct zl_layout *l)
{
        for (size_t i = 0; i < l->nfields; i++)
                if (l->fields[i].prov != ZL_VERIFIED)
                        return false;
        return true;
}

void zr_cover(const struct zr_record *r, struct zr_coverage *out)
{
        *out = (struct zr_coverage){ZR_NONE, NULL, 0, 0, 0};
        /* the longest record a header can announce picks the newest layout */
        const struct zl_layout *l = zl_find_cp(r->domain, r->record, UINT16_MAX);
        if (!l)
                return;
        out->l = l;
        out->cover = ZR_PARTIAL;
        for (size_t i = 0; i < l->nfields; i++) {
                const struct zl_field *f = &l->fields[i];
                if (f->off + f->len > out->extent)
                        out->extent = f->off + f->len;
                if (f->type == ZL_RSVD)
                        continue;
                out->nfields++;
                out->nhints += f->prov != ZL_VERIFIED;
        }
        unsigned len = zr_newest_len(r, NULL);
        if (len >= HDR && l->min_len == len && all_verified(l) && covered_to(l, HDR) >= len)
                out->cover = ZR_COMPLETE;
}

const char *zr_cover_name(enum zr_cover c)
{
        return c == ZR_COMPLETE ? "complete" : c == ZR_PARTIAL ? "partial" : "none";
}
