/* SPDX-License-Identifier: MIT */
/*
 * The rows of the CP metrics made ready (met_cp_rows.h): made once and kept,
 * as the table they come from does not change; only whether a row's law lets
 * it out is asked again each interval.
 */
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"

#include "metric/cp/met_cp_rows.h"

static uint32_t operands(const struct cp_metric *m)
{
        return (1u << m->a) | (m->b >= 0 ? 1u << m->b : 0);
}

/*
 * The entry's part of its metrics' keys (zm_metric's key): a row's names are
 * its table entry's literals, and its patterns are filled from the entry's
 * id and name only (cp_pattern), so the row's key (a hash of its address)
 * with a hash of those stands for the names.  A row without patterns names
 * the same series for every entry.  Hashed once in the entry's life, as its
 * label is formatted (prep); a metric's key is then the two hashes XORed.
 */
static void entry_hash(enum cp_kind kind, struct cp_ent *x)
{
        /* the name is at most 16 bytes and NUL-terminated in its 17 */
        bool ended;
        /* a guest's id counts its virtual CPUs, which no name uses and which
           may differ when it comes back: left out, so its keys stay */
        uint64_t id = kind == CP_GUEST ? 0 : x->id;
        uint64_t h = zh_step(UINT64_C(0x454E54), id); /* "ENT" */
        h = zh_step(h, zh_word8_ended(x->name, &ended));
        if (!ended)
                h = zh_step(h, zh_word8(x->name + 8));
        x->kh = h | 1;
}

/*
 * What entries e[0..n) of a group's table need for the names and keys of
 * metrics from patterns (pinst: the group's plugin instance, if a pattern), made once in
 * an entry's life: a pass over a block, rather than a test for every value.
 */
static void prep(enum cp_kind kind, const char *pinst, struct cp_ent *e, size_t n)
{
        char scratch[ZM_NAME_LEN];
        for (size_t i = 0; i < n; i++) {
                struct cp_ent *x = &e[i];
                if (!x->cur)
                        continue;
                if (!x->kh)
                        entry_hash(kind, x);
                if (pinst && !x->label)
                        x->label =
                            strdup(cp_pattern(scratch, sizeof(scratch), pinst, x->id, x->name));
        }
}

/* Row r for m, into its metric out: all but hold (row_hold). */
static void row_init(const struct cp_metric *m, struct row *r, struct zm_metric *out)
{
        r->m = m;
        r->out = out;
        r->need = operands(m) | m->need;
        r->vouch = m->vouch ? m->vouch : operands(m);
        r->pat = (strchr(m->pinst, '<') ? PAT_PINST : 0u) |
                 (m->tinst && strchr(m->tinst, '<') ? PAT_TINST : 0u);
        const char *law = m->law == CP_NOLAW ? NULL : zv_law_name((enum zv_law)m->law);
        r->check = law ? law : "layout";
        r->key = zh_step(UINT64_C(0x4350), (uintptr_t)m) | 1; /* "CP" */
        r->kx = r->key & ~(uint64_t)1;
        const char *cpu = r->pat & PAT_TINST ? strstr(m->tinst, "<cpu>") : NULL;
        r->tpre = cpu ? (size_t)(cpu - m->tinst) : 0;
        r->tsuf = cpu && strlen(m->tinst) < ZM_NAME_LEN / 2 && !memchr(m->tinst, '<', r->tpre) &&
                          !strchr(cpu + 5, '<')
                      ? cpu + 5
                      : NULL;
        /* Per-guest CP data (user domain, a guest's virtual NIC) obeys the
         * plugin's userid filters too; the host stays the z/VM system. */
        r->guest = m->domain == 4 || m->domain == 8;
        r->per_vcpu = m->kind == CP_GUEST;
        r->a = (size_t)m->a;
        r->b = m->b >= 0 ? (size_t)m->b : 0;
        r->mul = m->mul;
        r->div = m->div;
        zm_metric_init(out, ZM_SYSTEM, NULL);
        out->domain = m->domain;
        out->record = m->record;
        zm_metric_name(out, "zvm", m->pinst, m->type, m->tinst);
        out->key = r->key;
        /* The values' kinds and count, and the other member of each pair 0, as
         * zm_metric_gauge and zm_metric_derive leave them: each value sets only its own. */
        bool derive = cp_calc_ds((enum cp_calc)m->calc) == ZM_DERIVE;
        out->nvalues = m->calc == CP_SUM2 ? 2 : 1;
        for (size_t i = 0; i < out->nvalues; i++) {
                out->ds[i] = derive ? ZM_DERIVE : ZM_GAUGE;
                out->gauge[i] = 0;
                out->derive[i] = 0;
        }
}

/* Whether row r's law lets it out this interval: every slot it vouches for holds it, or none.
 * layout: zv_allowed for the rows no law covers (their check is "layout", which zv_allowed
 * looks for among every law's name first), asked once for all of them; -1: not yet. */
static void row_hold(struct zm_engine *e, struct cp_state *s, struct row *r, int *layout)
{
        const struct cp_metric *m = r->m;
        bool allowed;
        if (m->law == CP_NOLAW) {
                if (*layout < 0)
                        *layout = zv_allowed(s->v, e, r->check);
                allowed = *layout;
        } else {
                allowed = zv_law_allowed(s->v, e, (enum zv_law)m->law);
        }
        r->hold = allowed ? 0 : r->vouch;
}

/* Every row of cp_metrics and its metric, kept in cp_state. */
struct cp_rows {
        struct zm_metric *out;
        struct row r[];
};

static struct cp_rows *kept(struct cp_state *s)
{
        if (s->rows)
                return s->rows;
        struct cp_rows *k = calloc(1, sizeof(*k) + cp_nmetrics * sizeof(k->r[0]));
        struct zm_metric *out = calloc(cp_nmetrics, sizeof(*out));
        if (!k || !out) {
                free(k);
                free(out);
                return NULL;
        }
        k->out = out;
        for (size_t i = 0; i < cp_nmetrics; i++)
                row_init(&cp_metrics[i], &k->r[i], &out[i]);
        s->rows = k;
        return k;
}

struct row *cp_rows_ready(struct zm_engine *e, struct cp_state *s, const struct cp_metric *m,
                          size_t nr, struct row *scratch_r, struct zm_metric *scratch_out)
{
        struct cp_rows *k = kept(s);
        struct row *r = k ? &k->r[m - cp_metrics] : scratch_r;
        int layout = -1;
        for (size_t i = 0; i < nr; i++) {
                if (!k)
                        row_init(&m[i], &r[i], &scratch_out[i]);
                row_hold(e, s, &r[i], &layout);
        }
        return r;
}

void cp_rows_free(struct cp_state *s)
{
        if (!s->rows)
                return;
        free(s->rows->out);
        free(s->rows);
        s->rows = NULL;
}

void cp_prep_rows(const struct cp_metric *m, const struct row *r, size_t nr, struct cp_ent *e,
                  size_t n)
{
        unsigned pat = 0;
        for (size_t k = 0; k < nr; k++)
                pat |= r[k].pat;
        if (pat)
                prep((enum cp_kind)m->kind, pat & PAT_PINST ? m->pinst : NULL, e, n);
}
