/* SPDX-License-Identifier: MIT */
/*
 * The CP metrics, emitted when an interval closes: a walk over the table of
 * met_cp_metrics.c and the few computations it names.  Metrics from HINT
 * fields carry the name of the law that vouches for them in
 * zm_metric.check and are held back until that law is on (met_verify.h).
 */
#include <string.h>

#include "base/hash.h"

#include "metric/cp/met_cp_emit.h"
#include "metric/cp/met_cp_rows.h"
#include "metric/cp/met_cp_take.h"

/* For the functions a row's loop is made of: inlined with the computation a constant, each
 * computation gets its own loop, with no switch per value (emit_row). */
#define ALWAYS_INLINE inline __attribute__((always_inline))

/* The entries one group of rows (same kind and record) is emitted for. */
struct source {
        struct cp_ent *e;
        size_t n;
        const struct cp_ent *vals; /* with once: the values, from here instead of the entry */
        bool once;                 /* only the first entry that yields the metrics */
};

/*
 * Where a group's entries are: the table (or the one entry) that the row
 * reading its record fills, cp_takes[].at, but for two kinds made from a
 * record's entries at the close: a guest is the sum of its virtual CPUs
 * (cp_state.guest, met_cp_close.c), and the system's metrics from a record
 * per CPU are the sums over the CPUs (cp_state.paging), published once,
 * under the first CPU that has them (its time stamp, its fields'
 * provenance).
 */
static bool source(struct cp_state *s, const struct cp_metric *m, struct source *o)
{
        const struct cp_take *t = cp_take_find(m->domain, m->record);
        memset(o, 0, sizeof(*o));
        if (!t)
                return false;
        char *at = (char *)s + t->at;
        if (t->key == CP_KEY_ONE) {
                o->e = (struct cp_ent *)at;
                o->n = 1;
                return true;
        }
        const struct cp_tab *tab = m->kind == CP_GUEST ? &s->guest : (const struct cp_tab *)at;
        o->e = tab->e;
        o->n = tab->n;
        if (m->kind == CP_SYSTEM) {
                o->vals = &s->paging;
                o->once = true;
        }
        return true;
}

static double pct(double part, double whole)
{
        double p = 100.0 * part / whole;
        return p < 0 ? 0 : p > 100 ? 100 : p; /* record-time skew: never past collectd's max */
}

/*
 * The entry's plugin instance, formatted when the entry is new (prep) and
 * kept while it lives (on the heap: a buffer for the longest name in every
 * entry would make every pass over the tables carry it).  Out of memory,
 * it is formatted into scratch (ZM_NAME_LEN bytes) each time instead.
 */
static __attribute__((noinline)) const char *pinst_scratch(const struct cp_ent *x, const char *p,
                                                           char *scratch)
{
        return cp_pattern(scratch, ZM_NAME_LEN, p, x->id, x->name);
}

/* What every value is handed over with: the consumer and the counters. */
struct hand {
        struct zm_sink sink;
        uint64_t *suppressed;
};

/* The time row r's percentages are of, for entry x: per virtual CPU for a guest, so that
 * "percent" stays within 0-100. */
static ALWAYS_INLINE double elapsed(const struct row *r, const struct cp_ent *x)
{
        double el = (double)cp_elapsed_us(x);
        return r->per_vcpu ? el * (double)(x->id ? x->id : 1) : el;
}

/*
 * What else a row's loop is made for, besides its computation: whether the row
 * has a slot b, whether it divides (most rows count in the field's own unit: no
 * 64-bit division, tens of cycles), which of its names are patterns, whether
 * the userid goes with it.  Constants in the loop (emit_row).
 */
enum { VAR_B = 1, VAR_DIV = 2, VAR_PINST = 4, VAR_TINST = 8, VAR_GUEST = 16, VAR_LEAN = 32 };

static ALWAYS_INLINE int64_t derive(uint64_t v, const struct row *r, unsigned var)
{
        uint64_t x = var & VAR_DIV ? v * r->mul / r->div : v * r->mul;
        return (int64_t)(x & INT64_MAX);
}

/*
 * The value of row r for entry x (values from v), into the row's metric;
 * false when the entry cannot give it this interval.  Always inlined with
 * calc a constant, so that each computation gets its own loop over the
 * entries (emit_row).
 */
static ALWAYS_INLINE bool compute(enum cp_calc calc, unsigned var, const struct row *r,
                                  const struct cp_ent *x, const struct cp_ent *v,
                                  struct zm_metric *out)
{
        switch (calc) {
        case CP_PCT: {
                double el = elapsed(r, x);
                if (el <= 0)
                        return false;
                out->gauge[0] = pct(
                    var & VAR_B ? (double)v->d[r->a] + (double)v->d[r->b] : (double)v->d[r->a], el);
                return true;
        }
        case CP_PCT_DIFF: {
                double el = elapsed(r, x);
                if (el <= 0 || v->d[r->b] > v->d[r->a])
                        return false;
                out->gauge[0] = pct((double)(v->d[r->a] - v->d[r->b]), el);
                return true;
        }
        case CP_SUM:
                out->derive[0] = derive(v->acc[r->a] + (var & VAR_B ? v->acc[r->b] : 0), r, var);
                return true;
        case CP_SUM2:
                out->derive[0] = derive(v->acc[r->a], r, var);
                out->derive[1] = derive(v->acc[r->b], r, var);
                return true;
        case CP_VAL:
                out->gauge[0] = (double)CP_V(v)[r->a] * (double)r->mul / (double)r->div;
                return true;
        case CP_VAL_DIFF: {
                double a = (double)CP_V(v)[r->a], b = (double)CP_V(v)[r->b];
                if (a < b)
                        return false;
                out->gauge[0] = (a - b) * (double)r->mul / (double)r->div;
                return true;
        }
        case CP_MEAN:
                /* no events this interval: no mean, rather than a zero that says "fast" */
                if (!v->d[r->b])
                        return false;
                out->gauge[0] =
                    (double)v->d[r->a] * (double)r->mul / (double)r->div / (double)v->d[r->b];
                return true;
        default:
                return false;
        }
}

/* Row r's type instance for entry x, into out (ZM_NAME_LEN bytes): as cp_pattern makes it. */
static const char *tinst(const struct row *r, const struct cp_ent *x, char *out)
{
        if (!r->tsuf)
                return cp_pattern(out, ZM_NAME_LEN, r->m->tinst, x->id, x->name);
        memcpy(out, r->m->tinst, r->tpre);
        size_t o = zm_put_dec(out, ZM_NAME_LEN, r->tpre, x->id);
        memcpy(out + o, r->tsuf, strlen(r->tsuf) + 1); /* fits: tinst is under half of out */
        return out;
}

/*
 * Row r for entry x: true if the entry gave the metric (handed over, or held
 * back by its law).  What zm_emit does for a metric is done here (h): a CP
 * metric is the system's, never under the series cap.  VAR_LEAN: every entry
 * of the block is current and has what the row needs and its label, the row's
 * check is the same for all of them and set already, and none is held back
 * (emit_row).
 */
static ALWAYS_INLINE bool one(const struct hand *h, enum cp_calc calc, unsigned var,
                              const struct row *r, struct cp_ent *x, const struct cp_ent *v,
                              uint64_t *handed)
{
        /* a constant where calc is one (row_loop) */
        bool delta = calc != CP_VAL && calc != CP_VAL_DIFF;
        if (!(var & VAR_LEAN) && ((delta ? x->dok : x->have) & r->need) != r->need)
                return false;
        struct zm_metric *out = r->out;
        if (!compute(calc, var, r, x, v, out))
                return false;
        if (!(var & VAR_LEAN)) {
                if (x->hint & r->hold) {
                        (*h->suppressed)++;
                        return true;
                }
                out->check = x->hint & r->vouch ? r->check : NULL;
        }
        char ti[ZM_NAME_LEN], pi[ZM_NAME_LEN];
        out->tod = x->tod;
        if (var & VAR_PINST)
                out->plugin_instance =
                    var & VAR_LEAN || x->label ? x->label : pinst_scratch(x, r->m->pinst, pi);
        if (var & VAR_TINST)
                out->type_instance = tinst(r, x, ti);
        if (var & (VAR_PINST | VAR_TINST))
                out->key = r->kx ^ x->kh; /* (r->key ^ x->kh) | 1: both odd (row_init, prep) */
        if (var & VAR_GUEST)
                memcpy(out->guest, x->name, 8); /* CP userids are 8 bytes at most; guest[8] is 0 */
        (*handed)++;
        if (h->sink.emit)
                h->sink.emit(h->sink.ctx, out);
        return true;
}

static ALWAYS_INLINE void row_loop(const struct hand *hp, enum cp_calc calc, unsigned var,
                                   const struct row *rp, struct cp_ent *e, size_t n)
{
        /* Copies whose address is not taken: the consumer's call cannot change them, so
         * they stay in registers across it. */
        const struct hand h = *hp;
        const struct row r = *rp;
        uint64_t handed = 0;
        for (struct cp_ent *x = e, *end = e + n; x < end; x++)
                if (var & VAR_LEAN || x->cur)
                        (void)one(&h, calc, var, &r, x, x, &handed);
        *h.sink.metrics += handed;
}

/* What a row's variant is made for (row_loop), but for VAR_LEAN. */
static unsigned row_var(const struct row *r)
{
        return (r->m->b >= 0 ? VAR_B : 0u) | (r->div != 1 ? VAR_DIV : 0u) |
               (r->pat & PAT_PINST ? VAR_PINST : 0u) | (r->pat & PAT_TINST ? VAR_TINST : 0u) |
               (r->guest ? VAR_GUEST : 0u);
}

/*
 * The rows of met_cp_metrics.c by computation and variant, each a loop of its
 * own, lean (VAR_LEAN): a row of any other kind (a row added to the table), or
 * a block that is not lean for the row, takes the loop that decides them per
 * value.
 */
/* clang-format off */
#define VARIANTS(X)                                                                                \
        X(CP_PCT, VAR_PINST)                                                                       \
        X(CP_PCT, VAR_PINST | VAR_B)                                                               \
        X(CP_PCT, VAR_PINST | VAR_GUEST)                                                           \
        X(CP_PCT, VAR_PINST | VAR_TINST)                                                           \
        X(CP_PCT_DIFF, VAR_PINST | VAR_TINST | VAR_B)                                              \
        X(CP_SUM, VAR_PINST)                                                                       \
        X(CP_SUM, VAR_PINST | VAR_B)                                                               \
        X(CP_SUM, VAR_PINST | VAR_GUEST)                                                           \
        X(CP_SUM, VAR_PINST | VAR_DIV)                                                             \
        X(CP_SUM2, VAR_PINST | VAR_B | VAR_GUEST)                                                  \
        X(CP_SUM2, VAR_B)                                                                          \
        X(CP_VAL, 0)                                                                               \
        X(CP_VAL, VAR_PINST | VAR_GUEST)                                                           \
        X(CP_VAL_DIFF, VAR_B)
/* clang-format on */

/*
 * What the entries of a block share, found in one pass over them: a table's
 * entries come from records of one layout, so their fields' provenance (hint)
 * is nearly always the same, and a row's check then is too; and most
 * intervals every entry is current (one that is not goes at this interval's
 * roll) and has every delta and reading.
 */
struct block {
        uint32_t hint_or, hint_and; /* over the entries */
        uint32_t dok, have;         /* slots every entry has */
        bool cur;                   /* every entry is current */
        bool labels;                /* every entry has its label (prep) */
};

static struct block block_of(const struct cp_ent *e, size_t n)
{
        struct block k = {0, UINT32_MAX, UINT32_MAX, UINT32_MAX, true, true};
        for (size_t i = 0; i < n; i++) {
                k.hint_or |= e[i].hint;
                k.hint_and &= e[i].hint;
                k.dok &= e[i].dok;
                k.have &= e[i].have;
                k.cur &= e[i].cur;
                k.labels &= e[i].label != NULL;
        }
        return k;
}

/*
 * Is block k lean for row r: every entry current, with what the row needs
 * and its label, the row's check the same for all, none held back?
 */
static bool lean(const struct row *r, const struct block *k)
{
        enum cp_calc calc = (enum cp_calc)r->m->calc;
        uint32_t has = calc == CP_VAL || calc == CP_VAL_DIFF ? k->have : k->dok;
        return k->cur && (has & r->need) == r->need && k->hint_or == k->hint_and &&
               !(k->hint_or & r->hold) && (k->labels || !(r->pat & PAT_PINST));
}

/*
 * Row r for entries e[0..n) (a block, group): what a row decides (its
 * computation, its masks, its names) is decided once for all of them, and
 * so, where the block is lean, are whether each entry has what the row
 * needs and the row's check.  tests/unit/test_cp_emit.c checks every
 * variant against the loop that decides them per value.
 */
static void emit_row(const struct hand *h, const struct row *r, struct cp_ent *e, size_t n,
                     const struct block *k)
{
        enum cp_calc calc = (enum cp_calc)r->m->calc;
        unsigned var = row_var(r);
        if (lean(r, k)) {
                r->out->check = k->hint_or & r->vouch ? r->check : NULL;
#define CASE(c, v)                                                                                 \
        if (calc == (c) && var == (v)) {                                                           \
                row_loop(h, c, (v) | VAR_LEAN, r, e, n);                                           \
                return;                                                                            \
        }
                VARIANTS(CASE)
#undef CASE
        }
        row_loop(h, calc, var, r, e, n);
}

/*
 * Entries per block.  The rows go over a block of entries at a time, not over
 * the whole table: collectd's cache finds a series in a tree of every series,
 * and one entry's series lie together in it, so values that come entry by
 * entry find the path already in the processor's cache, while a row over
 * a large table finds it cold each time.  A block keeps the paths of its
 * entries warm for its rows, and each row's decisions are still made once
 * for many values.
 */
#define BLOCK    32
#define MAX_ROWS 16 /* rows of a group made ready at once; a larger group goes in parts */

/*
 * A group published once (SYTSYP's sums): entry by entry, up to the first that gives them.
 * The rows are made ready once, in parts of MAX_ROWS as group's are.
 */
static void group_once(const struct hand *h, struct zm_engine *e, struct cp_state *s,
                       const struct cp_metric *m, size_t n, const struct source *src)
{
        struct row scratch[MAX_ROWS];
        struct zm_metric out[MAX_ROWS];
        for (size_t k0 = 0; k0 < n; k0 += MAX_ROWS) {
                size_t nr = n - k0 < MAX_ROWS ? n - k0 : MAX_ROWS;
                const struct row *r = cp_rows_ready(e, s, &m[k0], nr, scratch, out);
                cp_prep_rows(m, r, nr, src->e, src->n);
                for (size_t i = 0; i < src->n; i++) {
                        struct cp_ent *x = &src->e[i];
                        if (!x->cur)
                                continue;
                        bool made = false;
                        for (size_t k = 0; k < nr; k++)
                                made |= one(h, (enum cp_calc)r[k].m->calc, row_var(&r[k]), &r[k], x,
                                            src->vals, h->sink.metrics);
                        if (made)
                                break;
                }
        }
}

/* Rows m[0..n) share their kind and record. */
static void group(const struct hand *h, struct zm_engine *e, struct cp_state *s,
                  const struct cp_metric *m, size_t n)
{
        struct source src;
        if (!source(s, m, &src))
                return;
        if (src.once) {
                group_once(h, e, s, m, n, &src);
                return;
        }
        struct row scratch[MAX_ROWS];
        struct zm_metric out[MAX_ROWS];
        for (size_t k0 = 0; k0 < n; k0 += MAX_ROWS) {
                size_t nr = n - k0 < MAX_ROWS ? n - k0 : MAX_ROWS;
                const struct row *r = cp_rows_ready(e, s, &m[k0], nr, scratch, out);
                for (size_t b = 0; b < src.n; b += BLOCK) {
                        size_t bn = src.n - b < BLOCK ? src.n - b : BLOCK;
                        cp_prep_rows(m, r, nr, src.e + b, bn);
                        struct block blk = block_of(src.e + b, bn);
                        for (size_t k = 0; k < nr; k++)
                                emit_row(h, &r[k], src.e + b, bn, &blk);
                }
        }
}

void cp_emit_all(struct zm_engine *e, struct cp_state *s)
{
        const struct hand h = {zm_engine_sink(e), &zm_counters_mut(e)->hint_suppressed};
        for (size_t i = 0, j; i < cp_nmetrics; i = j) {
                const struct cp_metric *m = &cp_metrics[i];
                for (j = i + 1;
                     j < cp_nmetrics && cp_metrics[j].kind == m->kind &&
                     cp_metrics[j].domain == m->domain && cp_metrics[j].record == m->record;
                     j++)
                        ;
                group(&h, e, s, m, j - i);
        }
}
