/* SPDX-License-Identifier: MIT */
/*
 * The CP module's plans (met_cp_plan.h): a row's fields in a layout found
 * by name once, a record kind's layout and plan, and the names read before.
 * Fields are read by name through the layout chosen by record length, so a
 * LayoutFile can correct an offset without touching the module.
 */
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "metric/cp/met_cp_plan.h"

/* Plans by (row, layout), direct-mapped two ways a set; the generation tells a table reloaded
 * since (LayoutFile) from the one that was resolved. */
#define CP_FIELD_BITS 6

/*
 * What a record's (domain, number, length, reading) decide, for a reading
 * other than the default or a kind outside cp_kind's table.  Misses (no
 * layout, no row) are kept too: most records the module is offered are ones
 * it does not read.
 */
#define CP_REC_BITS 7

struct cp_rec {
        int domain, number;
        size_t len, gen;
        const char *reading;
        const struct zl_layout *l;
        const struct cp_take *t;
        struct cp_fields f; /* t's fields in l, when both are there */
};

/*
 * Names read this way before (the same field, the same bytes): CP writes
 * the same few hundred names every interval, and converting one from
 * EBCDIC cost more than taking the rest of its record.
 */
#define CP_NAME_SLOTS 2048

struct cp_name {
        const struct zl_field *f;
        size_t gen;
        uint64_t raw; /* the field's bytes, f->len of them */
        char name[17];
};

struct cp_plans {
        struct cp_fields *rows; /* row i's plan for its kind (cp_takes[i]) */
        struct cp_fields fields[1u << CP_FIELD_BITS];
        struct cp_rec recs[1u << CP_REC_BITS];
        /* per two-way set (zh_set2), the way hit last (zh_way_fill) */
        uint8_t fields_last[1u << CP_FIELD_BITS], recs_last[1u << CP_REC_BITS];
        struct cp_name names[CP_NAME_SLOTS];
};

struct cp_cache *cp_cache_new(void)
{
        struct cp_cache *c = calloc(1, sizeof(*c));
        if (!c)
                return NULL;
        c->p = calloc(1, sizeof(*c->p));
        if (!c->p || !(c->p->rows = calloc(cp_ntakes, sizeof(*c->p->rows)))) {
                cp_cache_free(c);
                return NULL;
        }
        return c;
}

void cp_cache_free(struct cp_cache *c)
{
        if (!c)
                return;
        if (c->p)
                free(c->p->rows);
        free(c->p);
        free(c);
}

static void resolve(struct cp_fields *c, const struct cp_take *t, const struct zl_layout *l,
                    size_t gen)
{
        c->t = t;
        c->l = l;
        c->gen = gen;
        c->id = t->id ? zl_field(l, t->id) : NULL;
        c->name = t->name ? zl_field(l, t->name) : NULL;
        c->rid = zl_ref_make(c->id);
        /* a text field's ref reads as 0: its bytes are the name's, so keep them all */
        c->rname = zl_ref_make(c->name);
        c->name_ok = c->name && c->name->len >= 1 && c->name->len <= 8;
        c->rname.mask = c->name_ok ? ~(uint64_t)0 >> (8 - c->name->len) * 8 : 0;
        c->slots = c->down = c->hint = 0;
        c->reach = c->need = 0;
        c->nidx = 0;
        c->ints = c->dense = true;
        for (int i = 0; i < CP_NV; i++) {
                const struct zl_field *f = t->field[i] ? zl_field(l, t->field[i]) : NULL;
                c->field[i] = f && f->prov != ZL_UNCERTAIN ? f : NULL;
                c->ref[i] = zl_ref_make(c->field[i]);
                if (!c->field[i])
                        continue;
                c->slots |= 1u << i;
                c->down |= f->type == ZL_TIMERD ? 1u << i : 0;
                c->hint |= f->prov == ZL_HINT ? 1u << i : 0;
                /* a field ending before byte 8 is read byte by byte (zl_ref_slow): never fast */
                uint32_t r = c->ref[i].at >= 8 ? c->ref[i].need : UINT32_MAX;
                c->reach = r > c->reach ? r : c->reach;
                c->need = c->ref[i].need > c->need ? c->ref[i].need : c->need;
                c->dense &= i == c->nidx;
                c->rd[c->nidx].mask = c->ref[i].mask;
                c->rd[c->nidx].at = c->ref[i].at;
                c->slot[c->nidx] = (uint8_t)i;
                c->idx[c->nidx++] = (uint8_t)(f - l->fields);
        }
}

/* SYTCUP asks for two of these in turn (its fixed part's, its entries'): two ways a set. */
const struct cp_fields *cp_row_fields(struct cp_cache *cc, const struct cp_take *t,
                                      const struct zl_layout *l)
{
        struct cp_plans *cache = cc->p;
        size_t h = zh_set2((uint64_t)(uintptr_t)t * 31 ^ (uintptr_t)l, CP_FIELD_BITS);
        struct cp_fields *c = &cache->fields[h];
        size_t gen = zl_generation();
        for (size_t w = 0; w < 2; w++)
                if (c[w].t == t && c[w].l == l && c[w].gen == gen) {
                        cache->fields_last[h] = (uint8_t)w;
                        return &c[w];
                }
        struct cp_fields *f = &cache->fields[zh_way_fill(cache->fields_last, h)];
        resolve(f, t, l, gen);
        return f;
}

/* Out of line: a kind's layout changes only with its records' level or a LayoutFile. */
__attribute__((noinline)) void cp_kind_find(struct cp_cache *c, struct cp_kind *k,
                                            const struct zd_record *r, size_t gen)
{
        k->l = zl_find_cp_span(r->domain, r->number, r->rec.n, &k->lo, &k->hi);
        k->f = NULL;
        k->gen = gen;
        const struct cp_take *t =
            k->l ? cp_take_find((unsigned)r->domain, (unsigned)r->number) : NULL;
        if (!t)
                return;
        struct cp_fields *f = &c->p->rows[t - cp_takes];
        /* a kind whose records alternate between two layouts finds the plan in the cache */
        if (f->t != t || f->l != k->l || f->gen != gen)
                *f = *cp_row_fields(c, t, k->l);
        k->f = f;
}

static bool plan_is(const struct cp_rec *c, const struct zd_record *r, const char *reading,
                    size_t gen)
{
        return c->gen == gen && c->domain == r->domain && c->number == r->number &&
               c->len == r->rec.n && c->reading == reading;
}

/* Two ways a set: the record kinds of an interval come in turn, and two that met in a one-way
 * slot would be planned again for every record. */
const struct zl_layout *cp_rec_plan(struct cp_cache *cc, const struct zd_record *r,
                                    const char *reading, const struct cp_fields **f)
{
        struct cp_plans *cache = cc->p;
        uint64_t k = (uint64_t)r->domain << 48 ^ (uint64_t)r->number << 32 ^ r->rec.n;
        size_t h = zh_set2(k, CP_REC_BITS);
        struct cp_rec *c = &cache->recs[h];
        size_t gen = zl_generation();
        for (size_t w = 0; w < 2; w++)
                if (plan_is(&c[w], r, reading, gen)) {
                        cache->recs_last[h] = (uint8_t)w;
                        *f = c[w].t ? &c[w].f : NULL;
                        return c[w].l;
                }
        c = &cache->recs[zh_way_fill(cache->recs_last, h)];
        c->domain = r->domain;
        c->number = r->number;
        c->len = r->rec.n;
        c->reading = reading;
        c->gen = gen;
        c->l = zl_find_cp_reading(r->domain, r->number, r->rec.n, reading);
        c->t = c->l ? cp_take_find((unsigned)r->domain, (unsigned)r->number) : NULL;
        if (c->t)
                resolve(&c->f, c->t, c->l, gen);
        *f = c->t ? &c->f : NULL;
        return c->l;
}

/*
 * A name for an identifier (userid, NIC owner, partition): CP names are
 * A-Z 0-9 @ # $ and a few more; anything else (a misplaced field, hostile
 * bytes) becomes '_' so that it can never inject '/' or blanks into a
 * collectd identifier.
 */
static void convert_name(const struct zl_field *f, zd_view rec, char *out, size_t outsz)
{
        struct zl_value v;
        out[0] = '\0';
        if (!f || !zl_read(f, rec, &v) || !v.present)
                return;
        zl_text(&v, out, outsz);
        for (char *p = out; *p; p++) {
                unsigned char c = (unsigned char)*p;
                if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                      c == '@' || c == '#' || c == '$' || c == '_' || c == '-' || c == '.'))
                        *p = '_';
        }
}

/* A name's slot: names differ in a byte or two, so every bit of the key counts. */
static size_t slot(uint64_t k)
{
        return (size_t)((k * UINT64_C(0x9E3779B97F4A7C15)) >> 53) % CP_NAME_SLOTS;
}

/* The bytes of name field f in rec as one word; false when they do not fit in one. */
static bool name_raw(const struct zl_field *f, zd_view rec, uint64_t *raw)
{
        return f && f->len >= 1 && f->len <= 8 && zd_uN(rec, f->off, f->len, raw);
}

void cp_read_name(struct cp_cache *cc, const struct zl_field *f, zd_view rec, char *out)
{
        struct cp_plans *cache = cc->p;
        uint64_t raw;
        if (!name_raw(f, rec, &raw)) {
                convert_name(f, rec, out, 17);
                return;
        }
        struct cp_name *c = &cache->names[slot(raw ^ (uintptr_t)f)];
        size_t gen = zl_generation();
        if (c->f != f || c->raw != raw || c->gen != gen) {
                convert_name(f, rec, c->name, sizeof(c->name));
                c->f = f;
                c->raw = raw;
                c->gen = gen;
        }
        memcpy(out, c->name, sizeof(c->name));
}
