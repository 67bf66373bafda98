/* SPDX-License-Identifier: MIT */
/*
 * The CP metric module: takes CP sample records (SYTPRP, SYTSYP, SYTRSG,
 * SYTUSR, SYTCUP, STORSG, USEACT, IODDEV, VNDSES) into snapshot tables
 * (met_cp_tab.h) and closes an interval on Interval End.  Which field fills
 * which slot of which entry is data (met_cp_take.c): one function takes
 * every record by its row.  Fields are read by name through the layout
 * chosen by record length, so a LayoutFile can correct an offset without
 * touching this code.
 */
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "layout/layout.h"
#include "metric/cp/met_cp_close.h"
#include "metric/cp/met_cp_take.h"
#include "metric/met_module.h"
#include "metric/met_read.h"
#include "base/tod.h"

/*
 * A row's fields in one layout, found by name once: a record reads up to
 * CP_NV + 2 of them, and finding each by name for every record was a fifth
 * of the engine's time.  With them, what take_slot would find out field by
 * field: which slots have a field that may feed a metric (UNCERTAIN ones
 * never do), which count down, which are HINTs.  Direct-mapped by (row,
 * layout); the layout generation tells a table reloaded since (LayoutFile)
 * from the one that was resolved.
 */
#define CP_FIELD_BITS 6

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
         * Where the slots are among the layout's fields, for a record whose
         * integers were read already (zm_ints): slot[k] is field idx[k].  ints
         * false when one of them is signed (a reader extends the sign, a
         * slot keeps the bytes); need: a record this long holds every one.
         */
        bool ints;
        uint8_t nidx, slot[CP_NV], idx[CP_NV];
        uint32_t need;
};

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
        c->ints = true;
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
                c->ints &= f->type != ZL_SINT && f - l->fields < ZL_READER_MAX;
                c->slot[c->nidx] = (uint8_t)i;
                c->idx[c->nidx++] = (uint8_t)(f - l->fields);
        }
}

/*
 * What a record's (domain, number, length) decide, found once rather than
 * per record: its layout under the engine's reading, its row and the row's
 * fields in that layout.  Misses (no layout, no row) are kept too: most
 * records the module is offered are ones it does not read.
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

/*
 * A record kind's row fields in the layout its records were read with
 * (zm_ints), by (domain, record): the layout comes with the record, so no
 * key is hashed.  f NULL: the module reads no such record.  f points into
 * cp_cache.fields, so it is trusted only while it is still for l.
 */
#define CP_KIND_DOMAINS 16
#define CP_KIND_RECORDS 64

struct cp_kind {
        const struct zl_layout *l;
        size_t gen;
        const struct cp_fields *f;
};

struct cp_cache {
        struct cp_fields fields[1u << CP_FIELD_BITS];
        struct cp_rec recs[1u << CP_REC_BITS];
        /* per two-way set (zh_set2), the way hit last (zh_way_fill) */
        uint8_t fields_last[1u << CP_FIELD_BITS], recs_last[1u << CP_REC_BITS];
        struct cp_name names[CP_NAME_SLOTS];
        struct cp_kind kinds[CP_KIND_DOMAINS][CP_KIND_RECORDS];
};

/* SYTCUP asks for two of these in turn (its fixed part's, its entries'): two ways a set. */
static const struct cp_fields *row_fields(struct cp_state *s, const struct cp_take *t,
                                          const struct zl_layout *l)
{
        size_t h = zh_set2((uint64_t)(uintptr_t)t * 31 ^ (uintptr_t)l, CP_FIELD_BITS);
        struct cp_fields *c = &s->cache->fields[h];
        size_t gen = zl_generation();
        for (size_t w = 0; w < 2; w++)
                if (c[w].t == t && c[w].l == l && c[w].gen == gen) {
                        s->cache->fields_last[h] = (uint8_t)w;
                        return &c[w];
                }
        struct cp_fields *f = &s->cache->fields[zh_way_fill(s->cache->fields_last, h)];
        resolve(f, t, l, gen);
        return f;
}

static bool plan_is(const struct cp_rec *c, const struct zd_record *r, const char *reading,
                    size_t gen)
{
        return c->gen == gen && c->domain == r->domain && c->number == r->number &&
               c->len == r->rec.n && c->reading == reading;
}

/* Two ways a set: the record kinds of an interval come in turn, and two that met in a one-way
 * slot would be planned again for every record. */
static const struct cp_rec *rec_plan(struct cp_state *s, const struct zd_record *r,
                                     const char *reading)
{
        uint64_t k = (uint64_t)r->domain << 48 ^ (uint64_t)r->number << 32 ^ r->rec.n;
        size_t h = zh_set2(k, CP_REC_BITS);
        struct cp_rec *c = &s->cache->recs[h];
        size_t gen = zl_generation();
        for (size_t w = 0; w < 2; w++)
                if (plan_is(&c[w], r, reading, gen)) {
                        s->cache->recs_last[h] = (uint8_t)w;
                        return &c[w];
                }
        c = &s->cache->recs[zh_way_fill(s->cache->recs_last, h)];
        c->domain = r->domain;
        c->number = r->number;
        c->len = r->rec.n;
        c->reading = reading;
        c->gen = gen;
        c->l = zl_find_cp_reading(r->domain, r->number, r->rec.n, reading);
        c->t = c->l ? cp_take_find(r->domain, r->number) : NULL;
        if (c->t)
                resolve(&c->f, c->t, c->l, gen);
        return c;
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

/* The name in field f of rec into out[17]: what convert_name makes of the same bytes. */
static void read_name(struct cp_state *s, const struct zl_field *f, zd_view rec, char *out)
{
        uint64_t raw;
        if (!name_raw(f, rec, &raw)) {
                convert_name(f, rec, out, 17);
                return;
        }
        struct cp_name *c = &s->cache->names[slot(raw ^ (uintptr_t)f)];
        size_t gen = zl_generation();
        if (c->f != f || c->raw != raw || c->gen != gen) {
                convert_name(f, rec, c->name, sizeof(c->name));
                c->f = f;
                c->raw = raw;
                c->gen = gen;
        }
        memcpy(out, c->name, sizeof(c->name));
}

/*
 * The entry for key in t, ready for this interval's readings.  A second
 * record for an entry already filled means the Interval End was lost (or
 * the source has none): close the interval first.
 */
static struct cp_ent *interval_entry(struct zm_engine *e, struct cp_state *s, struct cp_tab *t,
                                     const char *key, uint64_t tod)
{
        struct cp_ent *x = cp_tab_get(t, key);
        if (x && x->cur) {
                cp_close(e, s);
                x = cp_tab_get(t, key);
        }
        if (!x)
                return NULL;
        x->cur = true;
        x->tod = tod;
        x->have = 0;
        return x;
}

static struct cp_ent *single_entry(struct zm_engine *e, struct cp_state *s, struct cp_ent *x,
                                   uint64_t tod)
{
        if (x->cur)
                cp_close(e, s);
        x->cur = true;
        x->tod = tod;
        x->have = 0;
        return x;
}

/*
 * Keys are made for every record, so by hand: snprintf was a tenth of the
 * CP module's time.  Writes v at o of key[keysz] and returns the new end,
 * never past keysz - 1 (the key is cut, as snprintf would cut it).
 */
static size_t key_str(char *key, size_t keysz, size_t o, const char *v)
{
        for (; *v && o + 1 < keysz; v++)
                key[o++] = *v;
        return o;
}

/* The key of an entry named name (or none) with id, as t says it is made. */
static void make_key(char *key, size_t keysz, const struct cp_take *t, const char *name,
                     uint64_t id)
{
        size_t o = 0;
        switch (t->key) {
        case CP_KEY_CPU:
                o = zm_put_dec(key, keysz, key_str(key, keysz, 0, "cpu"), (unsigned)id);
                break;
        case CP_KEY_DEV:
                o = zm_put_hex4(key, keysz, 0, (unsigned)id);
                break;
        case CP_KEY_NAME_NUM:
                o = zm_put_dec(key, keysz, key_str(key, keysz, key_str(key, keysz, 0, name), "/"),
                               (unsigned)id);
                break;
        default: /* CP_KEY_NAME_DEV */
                o = zm_put_hex4(key, keysz, key_str(key, keysz, key_str(key, keysz, 0, name), "-"),
                                (unsigned)id);
                break;
        }
        key[o] = '\0';
}

/* The entry t says rec is about, ready for its readings; NULL without its id. */
static struct cp_ent *take_entry(struct zm_engine *e, struct cp_state *s, const struct cp_take *t,
                                 const struct cp_fields *f, zd_view rec, uint64_t tod,
                                 const char *name)
{
        char *at = (char *)s + t->at; /* the row's table, or its one entry */
        if (t->key == CP_KEY_ONE)
                return single_entry(e, s, (struct cp_ent *)at, tod);
        uint64_t id;
        char key[40];
        if (!zl_ref_u64(f->rid, rec, &id))
                return NULL;
        if (t->note_guest)
                zm_note_guest(e, name);
        make_key(key, sizeof(key), t, name, id);
        struct cp_ent *x = interval_entry(e, s, (struct cp_tab *)at, key, tod);
        if (!x)
                return NULL;
        if (t->name)
                x->name[key_str(x->name, sizeof(x->name), 0, name)] = '\0';
        x->id = (uint32_t)id;
        return x;
}

/* rec's readings into x, slot by slot. */
static void fill(struct cp_ent *x, const struct cp_fields *f, zd_view rec)
{
        uint32_t got = 0;
        uint64_t *v = CP_V(x);
        if (rec.n >= f->reach) {
                /* the record holds every field (CP's records of a level always do): one load
                   and one mask a slot, no bound per field, as a zl_reader reads */
                for (uint32_t m = f->slots; m; m &= m - 1) {
                        int i = __builtin_ctz(m);
                        v[i] = zd_uN_load8(rec.p + f->ref[i].at - 8) & f->ref[i].mask;
                }
                got = f->slots;
        } else {
                for (uint32_t m = f->slots; m; m &= m - 1) {
                        int i = __builtin_ctz(m);
                        if (zl_ref_u64(f->ref[i], rec, &v[i]))
                                got |= 1u << i;
                }
        }
        /* A slot not read keeps its direction and provenance bits, as it always has. */
        x->have |= got;
        x->down = (x->down & ~got) | (f->down & got);
        x->hint = (x->hint & ~got) | (f->hint & got);
}

/* Take rec (a record, or one of its entries) into its entry, slot by slot; false: no entry. */
static bool take(struct zm_engine *e, struct cp_state *s, const struct cp_take *t,
                 const struct cp_fields *f, zd_view rec, uint64_t tod, const char *name)
{
        struct cp_ent *x = take_entry(e, s, t, f, rec, tod, name);
        if (!x)
                return false;
        fill(x, f, rec);
        return true;
}

/*
 * The bytes of f's name field in rec (none: 0), what name_raw reads, by the
 * field made ready; false when they cannot stand for the name.
 */
static bool name_bytes(const struct cp_fields *f, zd_view rec, uint64_t *raw)
{
        *raw = 0;
        return !f->t->name || (f->name_ok && zl_ref_u64(f->rname, rec, raw));
}

/*
 * The entry rec is about, when it is the one its table expects next (CP
 * writes its records in the same order every interval) and rec's id and
 * name bytes are those the entry's key was made from: then the key would be
 * the same, so there is no name to convert, no key to make and look up, no
 * guest to note (it was noted with the entry).  At 50,000 guests the names
 * outgrew read_name's cache and the guests zm_note_guest's, and each of the
 * 65,000 USEACT records an interval paid for both.  NULL: the long way.
 */
static inline __attribute__((always_inline)) struct cp_ent *
expected_entry(struct cp_state *s, const struct cp_fields *f, zd_view rec, uint64_t tod)
{
        const struct cp_take *t = f->t;
        if (t->key == CP_KEY_ONE)
                return NULL;
        struct cp_tab *tab = (struct cp_tab *)((char *)s + t->at);
        if (tab->next >= tab->n)
                return NULL;
        struct cp_ent *x = &tab->e[tab->next];
        uint64_t id, raw;
        if (!x->src_ok || x->cur || x->src_f != f->name || x->src_gen != zl_generation() ||
            !zl_ref_u64(f->rid, rec, &id) || id != x->id || !name_bytes(f, rec, &raw) ||
            raw != x->src_raw)
                return NULL;
        tab->next++;
        x->cur = true;
        x->tod = tod;
        x->have = 0;
        return x;
}

/*
 * rec's readings into x from u, the integers of rec's layout read already
 * (zm_ints): the slots by index, as fill reads them from rec.  Only for a
 * record that holds every slot's field (f->need) and fields whose integer
 * the reader gives as a slot keeps it (f->ints).
 */
static void fill_ints(struct cp_ent *x, const struct cp_fields *f, const uint64_t *u)
{
        uint64_t *v = CP_V(x);
        for (size_t k = 0; k < f->nidx; k++)
                v[f->slot[k]] = u[f->idx[k]];
        x->have |= f->slots;
        x->down = (x->down & ~f->slots) | f->down;
        x->hint = (x->hint & ~f->slots) | f->hint;
}

/*
 * A record that is one entry: every row of met_cp_take.c but SYTCUP's.  u:
 * the integers of its fields, read already (zm_ints), or NULL.
 */
static inline __attribute__((always_inline)) void
take_record(struct zm_engine *e, struct cp_state *s, const struct cp_fields *f,
            const struct zd_record *r, const uint64_t *u)
{
        struct cp_ent *x = expected_entry(s, f, r->rec, r->tod);
        if (!x) {
                char name[17] = "";
                if (f->t->name) {
                        read_name(s, f->name, r->rec, name);
                        if (!name[0])
                                return;
                }
                if (!(x = take_entry(e, s, f->t, f, r->rec, r->tod, name)))
                        return;
                x->src_ok = f->t->key != CP_KEY_ONE && name_bytes(f, r->rec, &x->src_raw);
                x->src_f = f->name;
                x->src_gen = zl_generation();
        }
        if (u && f->ints && r->rec.n >= f->need)
                fill_ints(x, f, u);
        else
                fill(x, f, r->rec);
}

/*
 * SYTCUP stays code around its row: one record holds a partition's
 * per-CPU entries, found through CALCPUOF / CALCPULN as IBM says they must
 * be.  Both are HINT offsets themselves, so a record whose entries do not
 * fit is counted and breaks the lpar law for the interval; each entry that
 * fits is taken by the row, named by the record's partition.
 */
static void on_sytcup(struct zm_engine *e, struct cp_state *s, const struct cp_take *t,
                      const struct zd_record *r, const struct zl_layout *l)
{
        char part[17];
        struct zl_value of, ln;
        uint64_t n;
        read_name(s, row_fields(s, t, l)->name, r->rec, part);
        if (!zl_get(l, r->rec, "SYTCUP_CALCPUOF", &of) || !of.present ||
            !zl_get(l, r->rec, "SYTCUP_CALCPULN", &ln) || !ln.present ||
            !zl_read_u64(zl_field(l, "SYTCUP_LCUPCPCT"), r->rec, &n))
                return;
        if (!part[0] || of.s < 20 || ln.s < 14 || (uint64_t)of.s + n * (uint64_t)ln.s > r->rec.n) {
                s->lpar_bad++;
                s->lpar_badnow = true;
                /* every record of every interval may be bad: log the 1st, 2nd, 4th, 8th ... */
                if ((s->lpar_bad & (s->lpar_bad - 1)) == 0)
                        zm_log(e, ZM_LOG_WARNING,
                               "SYTCUP entries do not fit: CALCPUOF %lld, CALCPULN %lld, "
                               "%llu entries, record length %zu (%llu such records)",
                               (long long)of.s, (long long)ln.s, (unsigned long long)n, r->rec.n,
                               (unsigned long long)s->lpar_bad);
                return;
        }
        for (uint64_t i = 0; i < n; i++) {
                zd_view ent;
                if (!zd_view_sub(r->rec, (size_t)of.s + (size_t)(i * (uint64_t)ln.s), (size_t)ln.s,
                                 &ent))
                        return;
                const struct zl_layout *el = zl_find(t->entry, ent.n);
                if (!el)
                        el = zl_find(t->entry,
                                     4096); /* a shorter entry still has its first fields */
                if (!take(e, s, t, row_fields(s, t, el), ent, r->tod, part))
                        return;
        }
}

static void *cp_create(struct zm_engine *e)
{
        (void)e;
        struct cp_state *s = calloc(1, sizeof(*s));
        if (!s)
                return NULL;
        s->v = zv_new();
        s->cache = calloc(1, sizeof(*s->cache));
        if (!s->v || !s->cache) {
                zv_free(s->v);
                free(s->cache);
                free(s);
                return NULL;
        }
        return s;
}

static void cp_destroy(void *state)
{
        struct cp_state *s = state;
        if (!s)
                return;
        cp_each(s, cp_tab_free, cp_ent_drop);
        cp_ent_drop(&s->paging);
        cp_close_free(s);
        zv_free(s->v);
        free(s->cache);
        free(s);
}

/* The row fields of r's kind in l, the layout r was read with (zm_ints); NULL: no row. */
static const struct cp_fields *kind_fields(struct cp_state *s, const struct zd_record *r,
                                           const struct zl_layout *l)
{
        size_t gen = zl_generation();
        if ((unsigned)r->domain >= CP_KIND_DOMAINS || (unsigned)r->number >= CP_KIND_RECORDS)
                return NULL; /* no row's */
        struct cp_kind *k = &s->cache->kinds[r->domain][r->number];
        if (k->l == l && k->gen == gen && (!k->f || (k->f->l == l && k->f->gen == gen)))
                return k->f;
        const struct cp_take *t = cp_take_find((unsigned)r->domain, (unsigned)r->number);
        k->l = l;
        k->gen = gen;
        k->f = t ? row_fields(s, t, l) : NULL;
        return k->f;
}

/*
 * A record read already (zm_engine_record_read) in the default reading:
 * its layout came with it, and its slots come from its integers.
 */
static void cp_record_read(struct zm_engine *e, struct cp_state *s, const struct zd_record *r,
                           const struct zl_layout *l, const uint64_t *u)
{
        if (r->tod > s->last_tod)
                s->last_tod = r->tod;
        s->taken = true;
        const struct cp_fields *f = kind_fields(s, r, l);
        if (f && f->t->entry)
                on_sytcup(e, s, f->t, r, l);
        else if (f)
                take_record(e, s, f, r, u);
}

static void cp_record(struct zm_engine *e, void *state, const struct zd_record *r)
{
        struct cp_state *s = state;
        if (!s || r->kind == 'E')
                return;
        const struct zl_layout *l = NULL;
        const uint64_t *u = zm_ints(e, r, &l);
        const char *reading = zm_engine_reading(e);
        if (u && !reading) { /* read under the default reading: l is this module's layout too */
                cp_record_read(e, s, r, l, u);
                return;
        }
        const struct cp_rec *p = rec_plan(s, r, reading);
        if (!p->l)
                return;
        if (r->tod > s->last_tod)
                s->last_tod = r->tod;
        s->taken = true;
        if (p->t && p->t->entry)
                on_sytcup(e, s, p->t, r, p->l);
        else if (p->t) /* under another reading the record is read here, whatever was handed */
                take_record(e, s, &p->f, r, NULL);
}

static void cp_interval_end(struct zm_engine *e, void *state, const struct zd_record *r)
{
        struct cp_state *s = state;
        if (!s)
                return;
        if (r && r->tod > s->last_tod)
                s->last_tod = r->tod;
        cp_close(e, s);
}

const struct zm_module zm_mod_cp = {"cp", cp_create, cp_destroy, cp_record, cp_interval_end};

const struct zv_law_status *zm_law_at(const struct zm_engine *e, size_t i)
{
        const struct cp_state *s = zm_engine_state(e, "cp");
        return s && i < ZV_NLAWS ? zv_status(s->v, (enum zv_law)i) : NULL;
}

const struct zv_law_status *zm_law_status(const struct zm_engine *e, const char *name)
{
        const struct zv_law_status *st;
        for (size_t i = 0; (st = zm_law_at(e, i)) != NULL; i++)
                if (strcmp(st->name, name) == 0)
                        return st;
        return NULL;
}
