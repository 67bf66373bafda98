/* SPDX-License-Identifier: MIT */
/*
 * The CP module's plans (met_cp_plan.h): a row's fields in a layout found
 * by name once, and the names read before.
 * Fields are read by name through the layout chosen by record length, so a
 * LayoutFile can correct an offset without touching the module.
 */
#include <stdlib.h>
#include <string.h>

#include "metric/cp/met_cp_plan.h"

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

struct cp_names {
        struct cp_name n[CP_NAME_SLOTS];
};

struct cp_cache *cp_cache_new(void)
{
        struct cp_cache *c = calloc(1, sizeof(*c));
        if (!c)
                return NULL;
        c->plans = calloc(cp_ntakes, sizeof(*c->plans));
        c->last = calloc(cp_ntakes, sizeof(*c->last));
        c->names = calloc(1, sizeof(*c->names));
        if (!c->plans || !c->last || !c->names) {
                cp_cache_free(c);
                return NULL;
        }
        for (size_t i = 0; i < cp_ntakes; i++)
                if (cp_takes[i].domain < CP_KIND_DOMAINS && cp_takes[i].record < CP_KIND_RECORDS)
                        c->row[cp_takes[i].domain][cp_takes[i].record] = (uint8_t)(i + 1);
        return c;
}

void cp_cache_free(struct cp_cache *c)
{
        if (!c)
                return;
        free(c->plans);
        free(c->last);
        free(c->names);
        free(c);
}

__attribute__((noinline)) const struct cp_fields *
cp_plan_make(struct cp_cache *c, const struct cp_take *t, const struct zl_layout *l, size_t gen)
{
        size_t i = (size_t)(t - cp_takes);
        uint8_t w = !c->last[i]; /* the plan not used last goes */
        struct cp_fields *p = &c->plans[i][w];
        c->last[i] = w;
        memset(p, 0, sizeof(*p));
        p->t = t;
        p->l = l;
        p->gen = gen;
        p->name = t->name ? zl_field(l, t->name) : NULL;
        p->id = zl_ref_make(t->id ? zl_field(l, t->id) : NULL);
        /* a text field's ref reads as 0: its bytes are the name's, so keep them all */
        p->rname = zl_ref_make(p->name);
        p->name_ok = p->name && p->name->len >= 1 && p->name->len <= 8;
        p->rname.mask = p->name_ok ? ~(uint64_t)0 >> (8 - p->name->len) * 8 : 0;
        for (uint32_t s = 0; s < CP_NV; s++) {
                const struct zl_field *f = t->field[s] ? zl_field(l, t->field[s]) : NULL;
                if (!f || f->prov == ZL_UNCERTAIN)
                        continue;
                p->slots |= 1u << s;
                p->down |= f->type == ZL_TIMERD ? 1u << s : 0;
                p->hint |= f->prov == ZL_HINT ? 1u << s : 0;
                /* in order of need: insertion, as there are CP_NV at most */
                struct cp_src x = {zl_ref_make(f), s, 0};
                uint32_t k = p->n++;
                for (; k > 0 && p->src[k - 1].ref.need > x.ref.need; k--)
                        p->src[k] = p->src[k - 1];
                p->src[k] = x;
        }
        for (uint32_t k = 0; k < p->n; k++)
                p->src[k].upto = (k ? p->src[k - 1].upto : 0) | 1u << p->src[k].slot;
        return p;
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

void cp_read_name(struct cp_cache *cache, const struct zl_field *f, zd_view rec, char *out)
{
        uint64_t raw;
        if (!name_raw(f, rec, &raw)) {
                convert_name(f, rec, out, 17);
                return;
        }
        struct cp_name *c = &cache->names->n[slot(raw ^ (uintptr_t)f)];
        size_t gen = zl_generation();
        if (c->f != f || c->raw != raw || c->gen != gen) {
                convert_name(f, rec, c->name, sizeof(c->name));
                c->f = f;
                c->raw = raw;
                c->gen = gen;
        }
        memcpy(out, c->name, sizeof(c->name));
}
