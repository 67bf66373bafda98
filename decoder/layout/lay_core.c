/* SPDX-License-Identifier: MIT */
/*
 * The layout engine: lookup by key and length, field access, encoding.  The
 * tables themselves live in lay_*.c files, listed in decoder/tables.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ebcdic.h"
#include "base/hash.h"
#include "layout/layout.h"

static const struct zl_layout **loaded;
static size_t nloaded, caploaded;

/*
 * CP lookups happen once per record, so they go through a small cache keyed
 * by (domain, record, length); the table is invalidated when layouts change.
 * Per thread, so reader threads never share it.  Layouts are registered
 * before readers start (configuration time) and never while they run.
 */
#define CACHE_BITS 10
struct cp_slot {
        int domain, record;
        size_t len, gen;
        const char *reading;
        const struct zl_layout *l;
};
static _Thread_local struct cp_slot cache[1u << CACHE_BITS];
static _Thread_local uint8_t cache_last[1u << CACHE_BITS]; /* zh_way_fill */
static size_t cache_gen = 1;

bool zl_register(const struct zl_layout *l)
{
        if (nloaded == caploaded) {
                size_t cap = caploaded ? caploaded * 2 : 16;
                const struct zl_layout **p = realloc(loaded, cap * sizeof(*p));
                if (!p)
                        return false;
                loaded = p;
                caploaded = cap;
        }
        loaded[nloaded++] = l;
        return true;
}

void zl_unregister_all(void)
{
        free(loaded);
        loaded = NULL;
        nloaded = caploaded = 0;
        cache_gen += (size_t)1 << 20;
}

const struct zl_layout *zl_layout_at(size_t i)
{
        for (size_t t = 0; zl_builtin[t]; t++) {
                if (i < zl_builtin[t]->n)
                        return &zl_builtin[t]->l[i];
                i -= zl_builtin[t]->n;
        }
        return i < nloaded ? loaded[i] : NULL;
}

/*
 * Better candidate for a record of length len?  Run-time layouts win ties,
 * the last one most; among built-ins, the asked-for reading wins a tie.
 */
static bool better(const struct zl_layout *cand, bool cand_loaded, const struct zl_layout *best,
                   bool best_loaded, size_t len)
{
        if (cand->min_len > len)
                return false;
        if (!best)
                return true;
        if (cand->min_len != best->min_len)
                return cand->min_len > best->min_len;
        if (cand_loaded || best_loaded)
                return cand_loaded; /* later registrations correct earlier ones */
        return cand->reading && !best->reading;
}

static bool same(const char *a, const char *b)
{
        return a == b || (a && b && strcmp(a, b) == 0);
}

/*
 * The best layout for (domain, record or id, len, reading), and the lengths
 * [*lo, *hi) for which it stays the best: from the longest min_len that len
 * reaches to the next min_len above len.  No candidate starts in between,
 * so every length there sees the same candidates.
 */
static const struct zl_layout *find_range(int domain, int record, const char *id, size_t len,
                                          const char *reading, size_t *lo, size_t *hi)
{
        const struct zl_layout *best = NULL;
        bool best_loaded = false;
        size_t next = SIZE_MAX;
#define MATCH(l)                                                                                   \
        ((id ? (l)->id && strcmp((l)->id, id) == 0                                                 \
             : (l)->domain == domain && (l)->record == record) &&                                  \
         (!(l)->reading || same((l)->reading, reading)))
#define NEXT(l) (next = (l)->min_len > len && (l)->min_len < next ? (l)->min_len : next)
        for (size_t t = 0; zl_builtin[t]; t++)
                for (size_t i = 0; i < zl_builtin[t]->n; i++) {
                        const struct zl_layout *l = &zl_builtin[t]->l[i];
                        if (!MATCH(l))
                                continue;
                        NEXT(l);
                        if (better(l, false, best, best_loaded, len))
                                best = l;
                }
        for (size_t i = 0; i < nloaded; i++) {
                if (!MATCH(loaded[i]))
                        continue;
                NEXT(loaded[i]);
                if (better(loaded[i], true, best, best_loaded, len)) {
                        best = loaded[i];
                        best_loaded = true;
                }
        }
#undef NEXT
#undef MATCH
        *lo = best ? best->min_len : 0;
        *hi = next;
        return best;
}

static const struct zl_layout *find(int domain, int record, const char *id, size_t len,
                                    const char *reading)
{
        size_t lo, hi;
        return find_range(domain, record, id, len, reading, &lo, &hi);
}

static bool cp_hit(const struct cp_slot *c, int domain, int record, size_t rec_len,
                   const char *reading, size_t gen)
{
        return c->gen == gen && c->domain == domain && c->record == record && c->len == rec_len &&
               same(c->reading, reading);
}

/*
 * The default reading of a CP record, asked for every record the dump
 * shows: one slot per (domain, record), holding the answer with the
 * lengths it holds for (find_range), since a kind's records differ in
 * length (APPLDATA, an older level's) and a slot keyed by length too would
 * miss them.  Kinds outside the table go to the two-way cache.
 */
#define KIND_DOMAINS 16
#define KIND_RECORDS 64
struct kind_slot {
        size_t gen, lo, hi;
        const struct zl_layout *l;
};
static _Thread_local struct kind_slot kinds[KIND_DOMAINS][KIND_RECORDS];

/* A kind in kinds[] seen for the first time, or at a length its slot does not cover. */
static __attribute__((noinline)) const struct zl_layout *
find_kind(struct kind_slot *k, int domain, int record, size_t rec_len, size_t gen)
{
        k->l = find_range(domain, record, NULL, rec_len, NULL, &k->lo, &k->hi);
        k->gen = gen;
        return k->l;
}

/* Two ways a set (zh_set2), as zl_find's: record kinds come in turn, record after record. */
static __attribute__((noinline)) const struct zl_layout *
find_cached(int domain, int record, size_t rec_len, const char *reading, size_t gen)
{
        uint64_t k = (uint64_t)(unsigned)domain << 48 ^ (uint64_t)(unsigned)record << 32 ^
                     (uint64_t)rec_len ^ (reading ? (uint64_t)(unsigned char)reading[0] << 24 : 0);
        size_t h = zh_set2(k, CACHE_BITS);
        for (size_t w = 0; w < 2; w++)
                if (cp_hit(&cache[h + w], domain, record, rec_len, reading, gen)) {
                        cache_last[h] = (uint8_t)w;
                        return cache[h + w].l;
                }
        const struct zl_layout *l = find(domain, record, NULL, rec_len, reading);
        cache[zh_way_fill(cache_last, h)] =
            (struct cp_slot){domain, record, rec_len, gen, reading, l};
        return l;
}

/* The slow ways out of line: a hit in kinds[] is a few loads and compares. */
const struct zl_layout *zl_find_cp_reading(int domain, int record, size_t rec_len,
                                           const char *reading)
{
        size_t gen = cache_gen + nloaded; /* registering bumps nloaded */
        if (reading || (unsigned)domain >= KIND_DOMAINS || (unsigned)record >= KIND_RECORDS)
                return find_cached(domain, record, rec_len, reading, gen);
        struct kind_slot *k = &kinds[domain][record];
        if (k->gen == gen && rec_len - k->lo < k->hi - k->lo)
                return k->l;
        return find_kind(k, domain, record, rec_len, gen);
}

const struct zl_layout *zl_find_cp(int domain, int record, size_t rec_len)
{
        return zl_find_cp_reading(domain, record, rec_len, NULL);
}

/*
 * APPLDATA and write_zvm layouts are looked up by id for every record: the
 * same cache idea as zl_field's, keyed by the id's address and the length,
 * confirmed by comparing the id, two ways a set (zh_set2), so that two ids
 * used in turn for every record keep their slots even when their
 * addresses meet in one set.  Misses (no layout) are not remembered.
 */
#define ID_BITS 8
struct id_slot {
        const char *id;
        size_t len, gen;
        const struct zl_layout *l;
};
static _Thread_local struct id_slot idcache[1u << ID_BITS];
static _Thread_local uint8_t idcache_last[1u << ID_BITS];

const struct zl_layout *zl_find(const char *id, size_t len)
{
        size_t gen = cache_gen + nloaded;
        size_t h = zh_set2((uint64_t)(uintptr_t)id ^ (uint64_t)len << 40, ID_BITS);
        for (size_t w = 0; w < 2; w++)
                /* As in zl_field: the table's own id is often the very pointer passed. */
                if (idcache[h + w].id == id && idcache[h + w].len == len &&
                    idcache[h + w].gen == gen &&
                    (idcache[h + w].l->id == id || strcmp(idcache[h + w].l->id, id) == 0)) {
                        idcache_last[h] = (uint8_t)w;
                        return idcache[h + w].l;
                }
        const struct zl_layout *l = find(-1, -1, id, len, NULL);
        if (l)
                idcache[zh_way_fill(idcache_last, h)] = (struct id_slot){id, len, gen, l};
        return l;
}

/*
 * Metric modules read fields by name for every record, and a layout has up
 * to a few hundred fields: remember where (layout, name) was found.  Callers
 * pass literal names, so the name's address is a good key; a hit is still
 * confirmed by comparing the name, so a reused buffer cannot mislead it.
 */
#define FIELD_BITS 10
struct field_slot {
        const struct zl_layout *l;
        const char *name;
        const struct zl_field *f;
        size_t gen;
};
static _Thread_local struct field_slot fcache[1u << FIELD_BITS];
static _Thread_local uint8_t fcache_last[1u << FIELD_BITS];

size_t zl_generation(void)
{
        return cache_gen + nloaded;
}

const struct zl_field *zl_field(const struct zl_layout *l, const char *name)
{
        if (!l)
                return NULL;
        size_t gen = cache_gen + nloaded;
        size_t h = zh_set2((uint64_t)(uintptr_t)l * 31 ^ (uint64_t)(uintptr_t)name, FIELD_BITS);
        /* The linker merges equal literals, so the table's own name is often the very
         * pointer passed: then no comparison is needed to confirm the hit. */
        for (size_t w = 0; w < 2; w++)
                if (fcache[h + w].l == l && fcache[h + w].name == name &&
                    fcache[h + w].gen == gen &&
                    (fcache[h + w].f->name == name || strcmp(fcache[h + w].f->name, name) == 0)) {
                        fcache_last[h] = (uint8_t)w;
                        return fcache[h + w].f;
                }
        for (size_t i = 0; i < l->nfields; i++)
                if (strcmp(l->fields[i].name, name) == 0) {
                        fcache[zh_way_fill(fcache_last, h)] =
                            (struct field_slot){l, name, &l->fields[i], gen};
                        return &l->fields[i];
                }
        return NULL;
}

static inline bool read_field(const struct zl_field *f, zd_view rec, struct zl_value *out)
{
        size_t off = f->off, len = f->len;
        out->f = f;
        /* off and len are 16-bit: the sum cannot wrap. */
        if (off + len > rec.n) {
                out->present = false;
                out->u = 0;
                out->s = 0;
                out->raw.p = NULL;
                out->raw.n = 0;
                return false;
        }
        out->present = true;
        out->raw.p = rec.p + off;
        out->raw.n = len;
        /* which bytes make the integer is zl_ref_make's rule, for every reader */
        uint64_t u = 0;
        (void)zl_ref_u64(zl_ref_make(f), rec, &u);
        out->u = u;
        out->s =
            f->type == ZL_SINT && len ? zd_sign_extend(u, len < 8 ? (unsigned)len * 8 : 64) : 0;
        return true;
}

bool zl_read(const struct zl_field *f, zd_view rec, struct zl_value *out)
{
        return read_field(f, rec, out);
}

bool zl_get(const struct zl_layout *l, zd_view rec, const char *name, struct zl_value *out)
{
        const struct zl_field *f = zl_field(l, name);
        return f && zl_read(f, rec, out);
}

bool zl_get_u64(const struct zl_layout *l, zd_view rec, const char *name, uint64_t *out)
{
        return zl_read_u64(zl_field(l, name), rec, out);
}

size_t zl_text(const struct zl_value *v, char *out, size_t outsz)
{
        if (!outsz)
                return 0;
        out[0] = '\0';
        if (!v->present)
                return 0;
        switch (v->f->type) {
        case ZL_EBCDIC:
                return zd_ebcdic_to_utf8(v->raw, ZD_CP037, out, outsz);
        case ZL_ASCII: {
                size_t n = v->raw.n, o = 0;
                while (n > 0 && (v->raw.p[n - 1] == 0 || v->raw.p[n - 1] == ' '))
                        n--;
                for (size_t i = 0; i < n && v->raw.p[i] && o + 1 < outsz; i++) {
                        uint8_t c = v->raw.p[i];
                        out[o++] = c >= 0x20 && c < 0x7F ? (char)c : '.';
                }
                out[o] = '\0';
                return o;
        }
        case ZL_SINT:
                return (size_t)snprintf(out, outsz, "%lld", (long long)v->s);
        case ZL_UINT:
        case ZL_TOD:
        case ZL_TIMER:
        case ZL_TIMERD:
                if (v->raw.n <= 8)
                        return (size_t)snprintf(out, outsz, "%llu", (unsigned long long)v->u);
                break; /* wider integers are shown in hex */
        default:
                break;
        }
        {
                size_t o = 0;
                for (size_t i = 0; i < v->raw.n && o + 2 < outsz; i++, o += 2)
                        snprintf(out + o, 3, "%02X", v->raw.p[i]);
                return o;
        }
}

void zl_foreach(const struct zl_layout *l, zd_view rec,
                void (*cb)(void *ctx, const struct zl_value *v), void *ctx)
{
        /* By index: a layout without fields may have none to point at (NULL + 0 is undefined). */
        for (size_t i = 0; i < l->nfields; i++) {
                const struct zl_field *f = &l->fields[i];
                if (f->type == ZL_RSVD)
                        continue;
                struct zl_value v;
                (void)read_field(f, rec, &v);
                cb(ctx, &v);
        }
}

struct zl_ref zl_ref_make(const struct zl_field *f)
{
        if (!f)
                return (struct zl_ref){0, UINT32_MAX, 0};
        uint32_t n = f->len < 8 ? f->len : 8;
        struct zl_ref r = {0, (uint32_t)f->off + f->len, (uint32_t)f->off + n};
        if ((unsigned)f->type < 32 && (ZL_INT_TYPES >> f->type & 1) && n)
                r.mask = n == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * n)) - 1;
        return r;
}

uint64_t zl_ref_slow(struct zl_ref r, zd_view rec)
{
        uint64_t u = 0;
        if (r.at > rec.n) /* zl_ref_u64 checked need, but this is callable alone */
                return 0;
        for (uint32_t i = r.at >= 8 ? r.at - 8 : 0; i < r.at; i++)
                u = u << 8 | rec.p[i];
        return u & r.mask;
}

bool zl_put(const struct zl_field *f, zd_wbuf b, uint64_t value)
{
        if (!f || f->len == 0 || f->len > 8)
                return false;
        return zd_put_uN(b, f->off, f->len, value);
}

bool zl_put_text(const struct zl_field *f, zd_wbuf b, const char *text)
{
        if (!f || f->off > b.cap || f->len > b.cap - f->off)
                return false;
        uint8_t *p = b.p + f->off;
        if (f->type == ZL_EBCDIC) {
                zd_ascii_to_ebcdic(text, ZD_CP037, p, f->len);
                return true;
        }
        size_t n = strlen(text);
        if (n > f->len)
                n = f->len;
        memcpy(p, text, n);
        memset(p + n, 0, f->len - n);
        return true;
}

bool zl_set(const struct zl_layout *l, zd_wbuf b, const char *name, uint64_t value)
{
        return zl_put(zl_field(l, name), b, value);
}

bool zl_set_text(const struct zl_layout *l, zd_wbuf b, const char *name, const char *text)
{
        return zl_put_text(zl_field(l, name), b, text);
}

const char *zl_type_name(enum zl_type t)
{
        static const char *const n[] = {"uint",   "sint",  "tod",  "timer", "timer-down",
                                        "ebcdic", "ascii", "bits", "hex",   "reserved"};
        return (unsigned)t < sizeof(n) / sizeof(n[0]) ? n[t] : "?";
}

const char *zl_prov_name(enum zl_prov p)
{
        static const char *const n[] = {"verified", "hint", "inferred", "uncertain"};
        return (unsigned)p < sizeof(n) / sizeof(n[0]) ? n[p] : "?";
}
