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
#include "metric/cp/met_cp_metrics.h"

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

static bool source(struct cp_state *s, const struct cp_metric *m, struct source *o)
{
        struct cp_tab *t = NULL;
        memset(o, 0, sizeof(*o));
        switch (m->kind) {
        case CP_CPU:
                t = m->record == 2 ? &s->prp : m->record == 1 ? &s->syp : NULL;
                break;
        case CP_SYSTEM:
                if (m->record == 3 || m->record == 8) {
                        o->e = m->record == 3 ? &s->rsg : &s->usr;
                        o->n = 1;
                        return true;
                }
                /* SYTSYP's sums over the CPUs, published under the first CPU that has
                 * the fields (its time stamp, its fields' provenance). */
                t = m->record == 1 ? &s->syp : NULL;
                o->vals = &s->paging;
                o->once = true;
                break;
        case CP_PARTITION:
                t = &s->lpar;
                break;
        case CP_GUEST:
                t = &s->guest;
                break;
        case CP_DEVICE:
                t = &s->dev;
                break;
        case CP_NIC:
                t = &s->nic;
                break;
        default:
                break;
        }
        if (!t)
                return false;
        o->e = t->e;
        o->n = t->n;
        return true;
}

static double pct(double part, double whole)
{
        double p = 100.0 * part / whole;
        return p < 0 ? 0 : p > 100 ? 100 : p; /* record-time skew: never past collectd's max */
}

/*
 * The entry's plugin instance: formatted when the entry is new, kept while it
 * lives (on the heap: an entry's 128 bytes for a name of a dozen made every
 * pass over the tables carry them).  Out of memory, it is formatted into
 * scratch (ZM_NAME_LEN bytes) each time instead.
 */
static const char *pinst(struct cp_ent *x, const char *p, char *scratch)
{
        if (x->label)
                return x->label;
        cp_pattern(scratch, ZM_NAME_LEN, p, x->id, x->name);
        x->label = strdup(scratch);
        return scratch;
}

static uint32_t operands(const struct cp_metric *m)
{
        return (1u << m->a) | (m->b >= 0 ? 1u << m->b : 0);
}

static int64_t derive(uint64_t v, const struct cp_metric *m)
{
        /* most rows count in the field's own unit: no 64-bit division (tens of cycles) */
        uint64_t x = m->div == 1 ? v * m->mul : v * m->mul / m->div;
        return (int64_t)(x & INT64_MAX);
}

/* Which of a row's names are patterns ("cpu<id>"). */
enum { PAT_PINST = 1, PAT_TINST = 2 };

/*
 * What a row says for every entry, worked out once per interval rather
 * than per value: its masks, its patterns, its check and whether the law
 * lets it out now (laws change only before the metrics are emitted), and
 * the metric itself with every name that is not a pattern filled in.
 */
struct row {
        const struct cp_metric *m;
        uint32_t need;     /* slots that must have a value (a delta, or a reading) */
        uint32_t vouch;    /* slots whose provenance decides the check */
        bool allowed;      /* a metric with a check may be published this interval */
        bool guest;        /* per-guest data: the userid goes with the metric (one) */
        unsigned pat;      /* PAT_* */
        const char *check; /* the check of a metric from a HINT field */
        uint64_t key;      /* zm_metric's key, the entry's part aside (row_key) */
        struct zm_metric out;
};

/*
 * The key of row r's metric for entry x (zm_metric's key): a row's names are
 * its table entry's literals, and its patterns are filled from the entry's
 * id and name only (cp_pattern), so the row's address with those stands for
 * the names.  A row without patterns names the same series for every entry.
 * The entry's part is hashed once in its life, as its label is formatted.
 */
static uint64_t entry_hash(const struct row *r, struct cp_ent *x)
{
        /* the name is at most 16 bytes and NUL-terminated in its 17 */
        bool ended;
        /* a guest's id counts its virtual CPUs, which no name uses and which
           may differ when it comes back: left out, so its keys stay */
        uint64_t id = r->m->kind == CP_GUEST ? 0 : x->id;
        uint64_t h = zh_step(UINT64_C(0x454E54), id); /* "ENT" */
        h = zh_step(h, zh_word8_ended(x->name, &ended));
        if (!ended)
                h = zh_step(h, zh_word8(x->name + 8));
        x->kh = h | 1;
        return x->kh;
}

static ALWAYS_INLINE uint64_t row_key(const struct row *r, struct cp_ent *x)
{
        if (!r->pat)
                return r->key;
        return zh_step(r->key, x->kh ? x->kh : entry_hash(r, x)) | 1;
}

static void row_init(struct zm_engine *e, struct cp_state *s, const struct cp_metric *m,
                     struct row *r)
{
        r->m = m;
        r->need = operands(m) | m->need;
        r->vouch = m->vouch ? m->vouch : operands(m);
        r->pat = (strchr(m->pinst, '<') ? PAT_PINST : 0u) |
                 (m->tinst && strchr(m->tinst, '<') ? PAT_TINST : 0u);
        const char *law = m->law == CP_NOLAW ? NULL : zv_law_name((enum zv_law)m->law);
        r->check = law ? law : "layout";
        r->allowed = m->law == CP_NOLAW ? zv_allowed(s->v, e, r->check)
                                        : zv_law_allowed(s->v, e, (enum zv_law)m->law);
        r->key = zh_step(UINT64_C(0x4350), (uintptr_t)m) | 1; /* "CP" */
        /* Per-guest CP data (user domain, a guest's virtual NIC) obeys the
         * plugin's userid filters too; the host stays the z/VM system. */
        r->guest = m->domain == 4 || m->domain == 8;
        zm_metric_init(&r->out, ZM_SYSTEM, NULL);
        r->out.domain = m->domain;
        r->out.record = m->record;
        zm_metric_name(&r->out, "zvm", m->pinst, m->type, m->tinst);
}

/* The time row m's percentages are of, for entry x: per virtual CPU for a guest, so that
 * "percent" stays within 0-100. */
static double elapsed(const struct cp_metric *m, const struct cp_ent *x)
{
        double el = (double)cp_elapsed_us(x);
        return m->kind == CP_GUEST ? el * (double)(x->id ? x->id : 1) : el;
}

/*
 * The value of row m for entry x (values from v), into out; false when the
 * entry cannot give it this interval.  Always inlined with calc a constant,
 * so that each computation gets its own loop over the entries (emit_row).
 */
static ALWAYS_INLINE bool compute(enum cp_calc calc, const struct cp_metric *m,
                                  const struct cp_ent *x, const struct cp_ent *v,
                                  struct zm_metric *out)
{
        switch (calc) {
        case CP_PCT: {
                double el = elapsed(m, x);
                if (el <= 0)
                        return false;
                zm_metric_gauge(out, pct(m->b >= 0 ? (double)v->d[m->a] + (double)v->d[m->b]
                                                   : (double)v->d[m->a],
                                         el));
                return true;
        }
        case CP_PCT_DIFF: {
                double el = elapsed(m, x);
                if (el <= 0 || v->d[m->b] > v->d[m->a])
                        return false;
                zm_metric_gauge(out, pct((double)(v->d[m->a] - v->d[m->b]), el));
                return true;
        }
        case CP_SUM:
                zm_metric_derive(out, derive(v->acc[m->a] + (m->b >= 0 ? v->acc[m->b] : 0), m));
                return true;
        case CP_SUM2:
                zm_metric_derive(out, derive(v->acc[m->a], m));
                zm_metric_derive(out, derive(v->acc[m->b], m));
                return true;
        case CP_VAL:
                zm_metric_gauge(out, (double)CP_V(v)[m->a] * m->mul / m->div);
                return true;
        case CP_VAL_DIFF: {
                double a = (double)CP_V(v)[m->a], b = (double)CP_V(v)[m->b];
                if (a < b)
                        return false;
                zm_metric_gauge(out, (a - b) * m->mul / m->div);
                return true;
        }
        default:
                return false;
        }
}

/* Row r for entry x: true if the entry gave the metric (emitted, or held back by its law). */
static ALWAYS_INLINE bool one(struct zm_engine *e, enum cp_calc calc, struct row *r,
                              struct cp_ent *x, const struct cp_ent *v)
{
        const struct cp_metric *m = r->m;
        struct zm_metric *out = &r->out;
        /* a constant where calc is one (row_loop) */
        bool delta = calc != CP_VAL && calc != CP_VAL_DIFF;
        if (((delta ? x->dok : x->have) & r->need) != r->need)
                return false;
        out->nvalues = 0;
        if (!compute(calc, m, x, v, out))
                return false;
        char ti[ZM_NAME_LEN], pi[ZM_NAME_LEN];
        out->tod = x->tod;
        if (r->pat & PAT_PINST)
                out->plugin_instance = pinst(x, m->pinst, pi);
        if (r->pat & PAT_TINST)
                out->type_instance = cp_pattern(ti, sizeof(ti), m->tinst, x->id, x->name);
        out->check = x->hint & r->vouch ? r->check : NULL;
        out->key = row_key(r, x);
        if (r->guest)
                memcpy(out->guest, x->name, 8); /* CP userids are 8 bytes at most; guest[8] is 0 */
        if (out->check && !r->allowed)
                zm_counters_mut(e)->hint_suppressed++;
        else
                zm_emit(e, out);
        return true;
}

static ALWAYS_INLINE void row_loop(struct zm_engine *e, enum cp_calc calc, struct row *r,
                                   const struct source *src)
{
        for (size_t i = 0; i < src->n; i++)
                if (src->e[i].cur)
                        (void)one(e, calc, r, &src->e[i], &src->e[i]);
}

/*
 * Row r for every entry of src (a block, group): what a row decides (its
 * computation, its masks, its names) is decided once for all of them.
 */
static void emit_row(struct zm_engine *e, struct row *r, const struct source *src)
{
        switch ((enum cp_calc)r->m->calc) {
        case CP_PCT:
                row_loop(e, CP_PCT, r, src);
                break;
        case CP_PCT_DIFF:
                row_loop(e, CP_PCT_DIFF, r, src);
                break;
        case CP_SUM:
                row_loop(e, CP_SUM, r, src);
                break;
        case CP_SUM2:
                row_loop(e, CP_SUM2, r, src);
                break;
        case CP_VAL:
                row_loop(e, CP_VAL, r, src);
                break;
        case CP_VAL_DIFF:
                row_loop(e, CP_VAL_DIFF, r, src);
                break;
        default:
                break;
        }
}

/*
 * Entries per block.  The rows go over a block of entries at a time, not over
 * the whole table: collectd's cache finds a series in a tree of every series,
 * and one entry's series lie together in it, so values that come entry by
 * entry find the path already in the processor's cache, while a row over
 * 50,000 guests finds it cold each time.  A block of 32 keeps the paths of a
 * block's entries warm for its rows (a few hundred series) and each row's
 * decisions still made once for many values.
 */
#define BLOCK    32
#define MAX_ROWS 16 /* rows of a group made ready at once; a larger group goes in parts */

/*
 * A group published once (SYTSYP's sums): entry by entry, up to the first that gives them.
 * The rows are made ready once, in parts of MAX_ROWS as group's are.
 */
static void group_once(struct zm_engine *e, struct cp_state *s, const struct cp_metric *m, size_t n,
                       const struct source *src)
{
        struct row r[MAX_ROWS];
        for (size_t k0 = 0; k0 < n; k0 += MAX_ROWS) {
                size_t nr = n - k0 < MAX_ROWS ? n - k0 : MAX_ROWS;
                for (size_t k = 0; k < nr; k++)
                        row_init(e, s, &m[k0 + k], &r[k]);
                for (size_t i = 0; i < src->n; i++) {
                        struct cp_ent *x = &src->e[i];
                        if (!x->cur)
                                continue;
                        bool made = false;
                        for (size_t k = 0; k < nr; k++)
                                made |= one(e, (enum cp_calc)r[k].m->calc, &r[k], x, src->vals);
                        if (made)
                                break;
                }
        }
}

/* Rows m[0..n) share their kind and record. */
static void group(struct zm_engine *e, struct cp_state *s, const struct cp_metric *m, size_t n)
{
        struct source src;
        if (!source(s, m, &src))
                return;
        if (src.once) {
                group_once(e, s, m, n, &src);
                return;
        }
        struct row r[MAX_ROWS];
        for (size_t k0 = 0; k0 < n; k0 += MAX_ROWS) {
                size_t nr = n - k0 < MAX_ROWS ? n - k0 : MAX_ROWS;
                for (size_t k = 0; k < nr; k++)
                        row_init(e, s, &m[k0 + k], &r[k]);
                for (size_t b = 0; b < src.n; b += BLOCK) {
                        struct source blk = src;
                        blk.e = src.e + b;
                        blk.n = src.n - b < BLOCK ? src.n - b : BLOCK;
                        for (size_t k = 0; k < nr; k++)
                                emit_row(e, &r[k], &blk);
                }
        }
}

void cp_emit_all(struct zm_engine *e, struct cp_state *s)
{
        for (size_t i = 0, j; i < cp_nmetrics; i = j) {
                const struct cp_metric *m = &cp_metrics[i];
                for (j = i + 1;
                     j < cp_nmetrics && cp_metrics[j].kind == m->kind &&
                     cp_metrics[j].domain == m->domain && cp_metrics[j].record == m->record;
                     j++)
                        ;
                group(e, s, m, j - i);
        }
}
