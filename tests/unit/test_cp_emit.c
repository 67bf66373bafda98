/* SPDX-License-Identifier: MIT */
/*
 * The CP emitter's specialised loops (met_cp_emit.c, VARIANTS) against its
 * generic one: for every row of the metric table, on random blocks of
 * entries (current or not, deltas and readings missing or not, provenance
 * alike or mixed, labels made or not, elapsed time or none, random values),
 * what emit_row hands over (the variant where the block is lean for the
 * row) is what the loop that decides everything per value hands over, value
 * for value, with the same counts.  Every variant must be a row's and be
 * taken on lean blocks, so none is left untested or unused.
 *
 * The test includes met_cp_emit.c to reach its static loops; the library's
 * copy of it is then not linked.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kept_metric.h"
#include "metric/cp/met_cp_emit.c"

#define TRIALS   400 /* random blocks per row and option */
#define MAX_KEPT (2 * BLOCK)

struct kept {
        size_t n;
        struct zm_metric m[MAX_KEPT];
        struct kept_names names[MAX_KEPT];
};

static void keep(void *ctx, const struct zm_metric *m)
{
        struct kept *k = ctx;
        assert_true(k->n < MAX_KEPT);
        keep_metric(&k->m[k->n], &k->names[k->n], m);
        k->n++;
}

/* xorshift64*: the same blocks every run. */
static uint64_t rng = UINT64_C(0x9E3779B97F4A7C15);
static uint64_t rnd(void)
{
        rng ^= rng >> 12;
        rng ^= rng << 25;
        rng ^= rng >> 27;
        return rng * UINT64_C(0x2545F4914F6CDD1D);
}

static bool chance(unsigned percent)
{
        return rnd() % 100 < percent;
}

/* A counter or reading of any size, small ones most often (deltas of a minute). */
static uint64_t value(void)
{
        switch (rnd() % 4) {
        case 0:
                return rnd() % 16;
        case 1:
                return rnd() % 100000;
        case 2:
                return rnd() % UINT64_C(100000000000);
        default:
                return rnd();
        }
}

/*
 * n random entries, made ready as the close makes them (cp_prep_rows), then
 * some labels taken away.  Most blocks are lean for most rows (every entry
 * current with every slot, one provenance), so that the variants are taken.
 */
static void random_block(const struct row *r, struct cp_ent *e, size_t n)
{
        bool alike = chance(70);
        uint32_t hint = chance(50) ? 0 : (uint32_t)rnd() & 0x3FF;
        unsigned missing = chance(70) ? 0 : 20; /* per cent of entries missing something */
        for (size_t i = 0; i < n; i++) {
                struct cp_ent *x = &e[i];
                memset(x, 0, sizeof(*x));
                x->cur = missing ? !chance(missing) : true;
                x->prev = !chance(5);
                x->bank = (uint8_t)(rnd() & 1);
                x->id = (uint32_t)(rnd() % 6);
                x->ptod = rnd() >> 8;
                x->tod = chance(5) ? x->ptod : x->ptod + (rnd() % (UINT64_C(120000000) << 12));
                uint32_t all = (1u << CP_NV) - 1;
                x->dok = missing && chance(missing) ? (uint32_t)rnd() & all : all;
                x->have = missing && chance(missing) ? (uint32_t)rnd() & all : all;
                x->hint = alike ? hint : (uint32_t)rnd() & all;
                for (int k = 0; k < CP_NV; k++) {
                        x->val[0][k] = value();
                        x->val[1][k] = value();
                        x->acc[k] = value();
                        x->d[k] = value();
                }
                size_t len = 1 + rnd() % 8;
                for (size_t k = 0; k < len; k++)
                        x->name[k] = (char)('A' + rnd() % 26);
        }
        cp_prep_rows(r->m, r, 1, e, n);
        for (size_t i = 0; i < n; i++)
                if (missing && chance(missing)) {
                        cp_ent_drop(&e[i]); /* the label, as if its strdup had failed */
                }
}

static void same_metrics(const struct kept *a, const struct kept *b, const struct row *r)
{
        assert_int_equal(a->n, b->n);
        for (size_t i = 0; i < a->n; i++) {
                const struct zm_metric *x = &a->m[i], *y = &b->m[i];
                if (strcmp(x->plugin_instance, y->plugin_instance) ||
                    strcmp(x->type_instance, y->type_instance) || strcmp(x->type, y->type) ||
                    strcmp(x->plugin, y->plugin) || strcmp(x->guest, y->guest) ||
                    x->tod != y->tod || x->key != y->key || x->check != y->check ||
                    x->nvalues != y->nvalues || x->scope != y->scope)
                        fail_msg("%s/%s-%s: metric %zu differs", r->m->pinst, r->m->type,
                                 r->m->tinst ? r->m->tinst : "", i);
                for (size_t k = 0; k < x->nvalues; k++) {
                        assert_int_equal(x->ds[k], y->ds[k]);
                        assert_memory_equal(&x->gauge[k], &y->gauge[k], sizeof(double));
                        assert_int_equal(x->derive[k], y->derive[k]);
                }
        }
}

/* Is (calc, var) one of VARIANTS? */
static int variant_of(enum cp_calc calc, unsigned var)
{
        int i = 0;
#define FIND(c, v)                                                                                 \
        if (calc == (c) && var == (v))                                                             \
                return i;                                                                          \
        i++;
        VARIANTS(FIND)
#undef FIND
        return -1;
}

#define ONE(c, v) +1
#define NVARIANTS (0 VARIANTS(ONE))

/* Every row under one UnverifiedFields mode (1: nothing held back; -1: laws not held yet). */
static void rows_under(int unverified, unsigned *taken)
{
        struct kept got, want;
        uint64_t handed = 0, suppressed = 0;
        const struct hand h = {{keep, &got, &handed}, &suppressed};
        struct zm_options o = {.unverified = unverified, .verify_intervals = 2};
        struct zm_engine *e = zm_engine_new(&o, NULL, NULL, NULL);
        struct cp_state *s = calloc(1, sizeof(*s));
        assert_non_null(e);
        assert_non_null(s);
        s->v = zv_new();
        struct cp_ent ents[BLOCK];
        for (size_t i = 0; i < cp_nmetrics; i++) {
                struct row scratch;
                struct zm_metric out;
                const struct row *r = cp_rows_ready(e, s, &cp_metrics[i], 1, &scratch, &out);
                int v = variant_of((enum cp_calc)r->m->calc, row_var(r));
                for (int t = 0; t < TRIALS; t++) {
                        size_t n = 1 + rnd() % BLOCK;
                        random_block(r, ents, n);
                        struct block blk = block_of(ents, n);
                        got.n = 0;
                        handed = suppressed = 0;
                        emit_row(&h, r, ents, n, &blk);
                        uint64_t handed_lean = handed, suppressed_lean = suppressed;
                        want = got;
                        got.n = 0;
                        handed = suppressed = 0;
                        row_loop(&h, (enum cp_calc)r->m->calc, row_var(r), r, ents, n);
                        same_metrics(&want, &got, r);
                        assert_int_equal(handed_lean, handed);
                        assert_int_equal(suppressed_lean, suppressed);
                        if (v >= 0 && lean(r, &blk))
                                taken[v]++;
                        for (size_t k = 0; k < n; k++)
                                cp_ent_drop(&ents[k]);
                }
        }
        cp_rows_free(s);
        zv_free(s->v);
        free(s);
        zm_engine_free(e);
}

static void every_variant_is_the_generic_loop(void **state)
{
        (void)state;
        unsigned taken[NVARIANTS] = {0};
        rows_under(1, taken);
        rows_under(-1, taken);
        for (int v = 0; v < NVARIANTS; v++)
                if (taken[v] < 10)
                        fail_msg("variant %d of VARIANTS was taken on %u lean blocks: no row of "
                                 "cp_metrics is made for it, or the blocks are never lean",
                                 v, taken[v]);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(every_variant_is_the_generic_loop),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
