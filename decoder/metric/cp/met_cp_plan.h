/* SPDX-License-Identifier: MIT */
/*
 * What the CP module finds once and keeps (met_cp_plan.c): the row of a
 * record kind, the plan of a row in a layout (which field fills which
 * slot, made ready to read), and the names read before.  The layout itself
 * is the layout layer's to find (zl_find_cp_reading, zl_find); with the
 * plan, the intake takes a record without asking the layout anything.
 */
#ifndef ZD_MET_CP_PLAN_H
#define ZD_MET_CP_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layout/layout.h"
#include "metric/cp/met_cp_take.h"

/*
 * A row's fields in one layout, found by name once and made ready to read
 * (zl_ref): finding them by name for every record would cost more than
 * the record's readings.  src[] holds the slots with a field that may feed
 * a metric (UNCERTAIN fields never do), ordered by the record length that
 * holds each field, so that the fields a record holds are the first ones;
 * slots, down and hint say of every slot at once what an entry keeps.
 */
struct cp_src {
        struct zl_ref ref;
        uint32_t slot;
        uint32_t upto; /* the slots of src[0] .. this one */
};

struct cp_fields {
        const struct cp_take *t;
        const struct zl_layout *l;
        size_t gen; /* zl_generation when made: l and name are valid while it is current */
        const struct zl_field *name;
        struct zl_ref id;
        /* the name field's bytes as one word (name_bytes), when it has 1 to 8 of them */
        struct zl_ref rname;
        bool name_ok;
        uint32_t slots, down, hint;
        uint32_t n;
        struct cp_src src[CP_NV];
};

/*
 * The rows by record kind, and each row's plans: two, as SYTCUP asks for
 * two layouts per record (its own, its entries') and a kind's records may
 * alternate between two layouts (two lengths, two levels).  A kind outside
 * [CP_KIND_DOMAINS) x [CP_KIND_RECORDS) has no row.
 */
#define CP_KIND_DOMAINS 16
#define CP_KIND_RECORDS 64

struct cp_cache {
        uint8_t row[CP_KIND_DOMAINS][CP_KIND_RECORDS]; /* cp_takes index + 1; 0: none */
        struct cp_fields (*plans)[2];                  /* per row (cp_takes[i]) */
        uint8_t *last;                                 /* per row, the plan used last */
        struct cp_names *names;                        /* met_cp_plan.c's */
};

struct cp_cache *cp_cache_new(void);
void cp_cache_free(struct cp_cache *c);

/* The row that reads records (domain, record), or NULL. */
static inline const struct cp_take *cp_row(const struct cp_cache *c, unsigned domain,
                                           unsigned record)
{
        if (domain >= CP_KIND_DOMAINS || record >= CP_KIND_RECORDS || !c->row[domain][record])
                return NULL;
        return &cp_takes[c->row[domain][record] - 1];
}

/* Row t in a layout it has no plan for (or had before a LayoutFile changed the layouts). */
const struct cp_fields *cp_plan_make(struct cp_cache *c, const struct cp_take *t,
                                     const struct zl_layout *l, size_t gen);

/* Row t's plan in layout l (its record's, or its entries' for SYTCUP); inline: per record. */
static inline const struct cp_fields *cp_plan(struct cp_cache *c, const struct cp_take *t,
                                              const struct zl_layout *l)
{
        size_t i = (size_t)(t - cp_takes), gen = zl_generation();
        const struct cp_fields *p = c->plans[i];
        for (uint8_t w = 0; w < 2; w++)
                if (p[w].l == l && p[w].gen == gen) {
                        c->last[i] = w;
                        return &p[w];
                }
        return cp_plan_make(c, t, l, gen);
}

/* The name in field f of rec into out[17], as CP names go ('_' for any other byte). */
void cp_read_name(struct cp_cache *c, const struct zl_field *f, zd_view rec, char *out);

#endif
