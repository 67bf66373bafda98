/* SPDX-License-Identifier: MIT */
/*
 * The CP metric module: takes CP sample records (SYTPRP, SYTSYP, SYTRSG,
 * SYTUSR, SYTASG, SYTCUP, SYTSYG, SYTSXG, STORSG, USEACT, IODDEV, VNDSES,
 * SSISCS, SSISMI) into snapshot tables (met_cp_tab.h) and closes an
 * interval on Interval End.  Which field fills which slot of which entry is
 * data (met_cp_take.c): one function takes every record by its row, through
 * the row's plan in the record's layout (met_cp_plan.c).
 */
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"
#include "metric/cp/met_cp_close.h"
#include "metric/cp/met_cp_plan.h"
#include "metric/cp/met_cp_take.h"
#include "metric/met_module.h"

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
 * Keys are made for every record an entry is looked up for, so by hand:
 * snprintf would parse its format again for each.  Writes v at o of
 * key[keysz] and returns the new end, never past keysz - 1 (the key is
 * cut, as snprintf would cut it).
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

/* The entry f's row says rec is about, ready for its readings; NULL without its id. */
static struct cp_ent *take_entry(struct zm_engine *e, struct cp_state *s, const struct cp_fields *f,
                                 zd_view rec, uint64_t tod, const char *name)
{
        const struct cp_take *t = f->t;
        char *at = (char *)s + t->at; /* the row's table, or its one entry */
        if (t->key == CP_KEY_ONE)
                return single_entry(e, s, (struct cp_ent *)at, tod);
        uint64_t id;
        char key[40];
        if (!zl_ref_u64(f->id, rec, &id))
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

/*
 * rec's readings into x.  src[] is ordered by the length that holds each
 * field, so the fields rec holds are its first n: one bound for all of
 * them, then each is read as zl_ref_u64 reads it.  A slot not read is not
 * in have, and keeps its old reading, direction and provenance.  Inline:
 * for every record.
 */
static inline __attribute__((always_inline)) void fill(struct cp_ent *x, const struct cp_fields *f,
                                                       zd_view rec)
{
        uint64_t *v = CP_V(x);
        uint32_t n = f->n;
        while (n > 0 && f->src[n - 1].ref.need > rec.n)
                n--;
        for (uint32_t k = 0; k < n; k++) {
                struct zl_ref c = f->src[k].ref;
                v[f->src[k].slot] =
                    c.at >= 8 ? zd_uN_load8(rec.p + c.at - 8) & c.mask : zl_ref_slow(c, rec);
        }
        uint32_t got = n ? f->src[n - 1].upto : 0;
        x->have |= got;
        x->down = (x->down & ~got) | (f->down & got);
        x->hint = (x->hint & ~got) | (f->hint & got);
}

/* Take rec (a record, or one of its entries) into its entry, slot by slot; false: no entry. */
static bool take(struct zm_engine *e, struct cp_state *s, const struct cp_fields *f, zd_view rec,
                 uint64_t tod, const char *name)
{
        struct cp_ent *x = take_entry(e, s, f, rec, tod, name);
        if (!x)
                return false;
        fill(x, f, rec);
        return true;
}

/*
 * The bytes of f's name field in rec (none: 0), what cp_read_name reads, by
 * the field made ready; false when they cannot stand for the name.
 */
static inline bool name_bytes(const struct cp_fields *f, zd_view rec, uint64_t *raw)
{
        *raw = 0;
        return !f->t->name || (f->name_ok && zl_ref_u64(f->rname, rec, raw));
}

/*
 * The entry rec is about, when it is the one its table expects next (CP
 * writes its records in the same order every interval) and rec's id and
 * name bytes are those the entry's key was made from: then the key would be
 * the same, so there is no name to convert, no key to make and look up, no
 * guest to note (it was noted with the entry).  With tens of thousands of
 * guests the names outgrow cp_read_name's cache and the guests
 * zm_note_guest's, and every USEACT record would pay for both.  NULL: the
 * long way.
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
        if (!x->src_ok || x->cur || x->src_f != f->name || x->src_gen != f->gen ||
            !zl_ref_u64(f->id, rec, &id) || id != x->id || !name_bytes(f, rec, &raw) ||
            raw != x->src_raw)
                return NULL;
        tab->next++;
        x->cur = true;
        x->tod = tod;
        x->have = 0;
        return x;
}

/* The long way to a record's entry: its name converted, its key made and looked up. */
static __attribute__((noinline)) struct cp_ent *named_entry(struct zm_engine *e, struct cp_state *s,
                                                            const struct cp_fields *f,
                                                            const struct zd_record *r)
{
        char name[17] = "";
        if (f->t->name) {
                cp_read_name(s->cache, f->name, r->rec, name);
                if (!name[0])
                        return NULL;
        }
        struct cp_ent *x = take_entry(e, s, f, r->rec, r->tod, name);
        if (!x)
                return NULL;
        x->src_ok = f->t->key != CP_KEY_ONE && name_bytes(f, r->rec, &x->src_raw);
        x->src_f = f->name;
        x->src_gen = f->gen;
        return x;
}

/* A record that is one entry: every row of met_cp_take.c but SYTCUP's. */
static void take_record(struct zm_engine *e, struct cp_state *s, const struct cp_fields *f,
                        const struct zd_record *r)
{
        struct cp_ent *x = expected_entry(s, f, r->rec, r->tod);
        if (!x && !(x = named_entry(e, s, f, r)))
                return;
        fill(x, f, r->rec);
}

/*
 * SYTCUP stays code around its row: one record holds a partition's
 * per-CPU entries, found through CALCPUOF / CALCPULN as IBM says they must
 * be.  Both are HINT offsets themselves, so a record whose entries do not
 * fit is counted and breaks the lpar law for the interval; each entry that
 * fits is taken by the row, named by the record's partition.
 */
static void on_sytcup(struct zm_engine *e, struct cp_state *s, const struct cp_fields *f,
                      const struct zd_record *r)
{
        const struct cp_take *t = f->t;
        const struct zl_layout *l = f->l;
        char part[17];
        struct zl_value of, ln;
        uint64_t n;
        cp_read_name(s->cache, f->name, r->rec, part);
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
                if (!el) /* a shorter entry still has its first fields */
                        el = zl_find(t->entry, 4096);
                if (!el || !take(e, s, cp_plan(s->cache, t, el), ent, r->tod, part))
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
        s->cache = cp_cache_new();
        if (!s->v || !s->cache) {
                zv_free(s->v);
                cp_cache_free(s->cache);
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
        cp_cache_free(s->cache);
        free(s);
}

/*
 * Every record with a layout counts for the interval's newest TOD; the ones
 * a row reads are taken, through its plan in the record's layout.
 */
static void cp_record(struct zm_engine *e, void *state, const struct zd_record *r)
{
        struct cp_state *s = state;
        if (!s || r->kind == 'E')
                return;
        const struct zl_layout *l =
            zl_find_cp_reading(r->domain, r->number, r->rec.n, zm_engine_reading(e));
        if (!l)
                return;
        if (r->tod > s->last_tod)
                s->last_tod = r->tod;
        s->taken = true;
        const struct cp_take *t = cp_row(s->cache, (unsigned)r->domain, (unsigned)r->number);
        if (!t)
                return;
        const struct cp_fields *f = cp_plan(s->cache, t, l);
        if (t->entry)
                on_sytcup(e, s, f, r);
        else
                take_record(e, s, f, r);
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
