/* SPDX-License-Identifier: MIT */
/*
 * What the CP module finds once and keeps (met_cp_plan.c): for each record
 * kind, its layout and the plan of its row in that layout (which field
 * fills which slot, made ready to read), and the names read before.  The
 * intake (met_cp.c) asks for a record's plan with an index and two
 * compares, and then takes the record without asking the layout anything.
 */
#ifndef ZD_MET_CP_PLAN_H
#define ZD_MET_CP_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layout/layout.h"
#include "metric/cp/met_cp_take.h"
#include "record/record.h"

/*
 * A row's fields in one layout, found by name once: a record reads up to
 * CP_NV + 2 of them, and finding each by name for every record was a fifth
 * of the engine's time.  With them, what taking a slot would find out
 * field by field: which slots have a field that may feed a metric
 * (UNCERTAIN ones never do), which count down, which are HINTs.
 */
struct cp_fields {
        const struct cp_take *t;
        const struct zl_layout *l;
        size_t gen;
        const struct zl_field *id, *name, *field[CP_NV];
        struct zl_ref rid, ref[CP_NV]; /* id and field[] made ready to read (zl_ref) */
        /* the name field's bytes as one word (name_bytes), when it has 1 to 8 of them */
        struct zl_ref rname;
        bool name_ok;
        uint32_t slots, down, hint;
        uint32_t reach; /* a record this long holds every slot's field, each 8 bytes in or more */
        /*
         * The slots in order, k = 0 .. nidx - 1: slot[k] is read from rd[k]
         * (a record at least reach long) or is field idx[k] among the
         * layout's (a record whose integers were read already, zm_ints).
         * dense: slot[k] is k, so the copies are straight code.  ints false
         * when one of the fields is signed (a reader extends the sign, a
         * slot keeps the bytes); need: a record this long holds every one.
         */
        bool ints, dense;
        uint8_t nidx, slot[CP_NV], idx[CP_NV];
        uint32_t need;
        struct {
                uint64_t mask;
                uint32_t at;
        } rd[CP_NV];
};

/*
 * A record kind (domain, record) under the default reading: its layout for
 * the lengths [lo, hi) (zl_find_cp_span) and its row's plan in that layout,
 * kept with the row (a row is one kind's), so that no other kind's plan can
 * displace it.  l NULL: no layout for these lengths; f NULL: the module
 * reads no such record.
 */
#define CP_KIND_DOMAINS 16
#define CP_KIND_RECORDS 64

struct cp_kind {
        size_t gen, lo, hi;
        const struct zl_layout *l;
        struct cp_fields *f;
};

/* The kinds, where cp_kind_of finds them; the rest is met_cp_plan.c's. */
struct cp_cache {
        struct cp_kind kinds[CP_KIND_DOMAINS * CP_KIND_RECORDS];
        struct cp_plans *p;
};

struct cp_cache *cp_cache_new(void);
void cp_cache_free(struct cp_cache *c);

/* A kind seen first, at a length its layout does not hold for, or stale: found again. */
void cp_kind_find(struct cp_cache *c, struct cp_kind *k, const struct zd_record *r, size_t gen);

/*
 * r's kind under the default reading, its layout right for r's length;
 * NULL when r's kind is outside the table (cp_rec_plan finds those).
 */
static inline const struct cp_kind *cp_kind_of(struct cp_cache *c, const struct zd_record *r,
                                               size_t gen)
{
        if ((unsigned)r->domain >= CP_KIND_DOMAINS || (unsigned)r->number >= CP_KIND_RECORDS)
                return NULL;
        struct cp_kind *k = &c->kinds[(unsigned)r->domain * CP_KIND_RECORDS + (unsigned)r->number];
        if (k->gen != gen || r->rec.n - k->lo >= k->hi - k->lo)
                cp_kind_find(c, k, r, gen);
        return k;
}

/*
 * Under another reading, or for a kind outside the table: r's layout (NULL:
 * none) and, when the module reads r, its row's plan (*f).
 */
const struct zl_layout *cp_rec_plan(struct cp_cache *c, const struct zd_record *r,
                                    const char *reading, const struct cp_fields **f);

/* t's plan in layout l (SYTCUP's record and entry layouts); valid until the next call. */
const struct cp_fields *cp_row_fields(struct cp_cache *c, const struct cp_take *t,
                                      const struct zl_layout *l);

/* The name in field f of rec into out[17], as CP names go ('_' for any other byte). */
void cp_read_name(struct cp_cache *c, const struct zl_field *f, zd_view rec, char *out);

#endif
