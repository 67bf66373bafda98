/* SPDX-License-Identifier: MIT */
/*
 * A row's plan in a layout (met_cp_plan.c) and the intake's one fill loop
 * (met_cp.c): the plan holds each of the row's fields once, ordered by the
 * record length that holds it, so that the fields a record holds are the
 * first ones; a record shorter than its layout fills exactly the slots of
 * the fields it holds, whatever their order among the slots.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cp_feed.h"
#include "metric/cp/met_cp_plan.h"
#include "metric/cp/met_cp_tab.h"

/* What plan p must say of row t in layout l, field by field from the layout itself. */
static void check_plan(const struct cp_fields *p, const struct cp_take *t,
                       const struct zl_layout *l)
{
        assert_ptr_equal(p->t, t);
        assert_ptr_equal(p->l, l);
        uint32_t slots = 0, down = 0, hint = 0;
        for (int i = 0; i < CP_NV; i++) {
                const struct zl_field *f = t->field[i] ? zl_field(l, t->field[i]) : NULL;
                if (!f || f->prov == ZL_UNCERTAIN)
                        continue;
                slots |= 1u << i;
                down |= f->type == ZL_TIMERD ? 1u << i : 0;
                hint |= f->prov == ZL_HINT ? 1u << i : 0;
                size_t k = 0;
                while (k < p->n && p->src[k].slot != (uint32_t)i)
                        k++;
                if (k == p->n)
                        fail_msg("%s: slot %d (%s) is not in the plan", l->id, i, t->field[i]);
                struct zl_ref want = zl_ref_make(f);
                assert_true(p->src[k].ref.mask == want.mask);
                assert_int_equal(p->src[k].ref.need, want.need);
                assert_int_equal(p->src[k].ref.at, want.at);
        }
        assert_int_equal(p->slots, slots);
        assert_int_equal(p->down, down);
        assert_int_equal(p->hint, hint);
        assert_int_equal(p->n, __builtin_popcount(slots));
        uint32_t upto = 0;
        for (size_t k = 0; k < p->n; k++) {
                if (k > 0 && p->src[k - 1].ref.need > p->src[k].ref.need)
                        fail_msg("%s: src[%zu] needs less than src[%zu]", l->id, k, k - 1);
                upto |= 1u << p->src[k].slot;
                assert_int_equal(p->src[k].upto, upto);
        }
}

/* Every row in every layout of its records (and of its entries), as the module plans it. */
static void plans_hold_each_field_once_in_order_of_need(void **state)
{
        (void)state;
        struct cp_cache *c = cp_cache_new();
        assert_non_null(c);
        size_t planned = 0;
        for (size_t i = 0; i < cp_ntakes; i++) {
                const struct cp_take *t = &cp_takes[i];
                assert_ptr_equal(cp_row(c, t->domain, t->record), t);
                char id[16];
                snprintf(id, sizeof(id), "D%uR%u", t->domain, t->record);
                const struct zl_layout *l;
                for (size_t k = 0; (l = zl_layout_at(k)) != NULL; k++) {
                        if (strcmp(l->id, id) != 0 && !(t->entry && !strcmp(l->id, t->entry)))
                                continue;
                        check_plan(cp_plan(c, t, l), t, l);
                        planned++;
                }
        }
        assert_true(planned > cp_ntakes);
        assert_null(cp_row(c, 1, 11)); /* Interval End: no row */
        assert_null(cp_row(c, CP_KIND_DOMAINS, 1));
        cp_cache_free(c);
}

/* Two layouts asked for in turn keep their plans; a third displaces the one not used last. */
static void two_plans_a_row(void **state)
{
        (void)state;
        struct cp_cache *c = cp_cache_new();
        const struct cp_take *t = cp_row(c, 0, 16);
        const struct zl_layout *rec = zl_find_cp(0, 16, 4096), *ent = zl_find(t->entry, 40);
        assert_non_null(rec);
        assert_non_null(ent);
        const struct cp_fields *a = cp_plan(c, t, rec), *b = cp_plan(c, t, ent);
        assert_ptr_not_equal(a, b);
        for (int i = 0; i < 3; i++) {
                assert_ptr_equal(cp_plan(c, t, rec), a);
                assert_ptr_equal(cp_plan(c, t, ent), b);
        }
        cp_cache_free(c);
}

/*
 * D8R1 VNDSES (zpmd), offsets from the record's start: 24 OWNER (8,
 * EBCDIC), 32 VDEVDEV (2), 96 TXBYT, 104 RXBYT, 112 TXPKT, 120 TXDSC, 128
 * TXERR, 136 RXPKT, 144 RXDSC, 152 RXERR (8 each).  The slots are in the
 * order TXB RXB TXP RXP TXE RXE TXD RXD, not that of the offsets.  Under a
 * LayoutFile layout that takes records from 40 bytes on, a record of 132
 * bytes holds TXB, RXB, TXP and TXD only.
 */
static void short_record_fills_the_slots_it_holds(void **state)
{
        (void)state;
        static struct zl_layout short_l;
        short_l = *zl_find_cp(8, 1, 316);
        short_l.min_len = 40;
        assert_true(zl_register(&short_l));
        struct feed *f = feed_new(-1, 2);
        memset(f->buf, 0, 160);
        vec_hdr(f->buf, 132, 8, 1, UINT64_C(0xD000000000000000));
        ebc(f->buf + 24, "LINUX01", 8);
        be16(f->buf + 32, 0x0600);
        for (unsigned k = 0; k < 8; k++)
                be64(f->buf + 96 + 8 * k, 1000 + k); /* TXB 1000 .. RXE 1007 */
        feed_rec(f, 132);
        const struct cp_state *s = zm_engine_state(f->e, "cp");
        assert_non_null(s);
        assert_int_equal(s->nic.n, 1);
        const struct cp_ent *x = &s->nic.e[0];
        assert_string_equal(x->key, "LINUX01-0600");
        assert_int_equal(x->have, 1u << N_TXB | 1u << N_RXB | 1u << N_TXP | 1u << N_TXD);
        assert_int_equal(CP_V(x)[N_TXB], 1000);
        assert_int_equal(CP_V(x)[N_RXB], 1001);
        assert_int_equal(CP_V(x)[N_TXP], 1002);
        assert_int_equal(CP_V(x)[N_TXD], 1003);
        /* the whole record: every slot */
        vec_hdr(f->buf, 160, 8, 1, UINT64_C(0xD000100000000000));
        feed_rec(f, 160);
        assert_int_equal(s->nic.e[0].have, 0xFFu);
        assert_int_equal(CP_V(&s->nic.e[0])[N_RXE], 1007);
        assert_int_equal(CP_V(&s->nic.e[0])[N_RXP], 1005);
        feed_free(f);
        zl_unregister_all();
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(plans_hold_each_field_once_in_order_of_need),
            cmocka_unit_test(two_plans_a_row),
            cmocka_unit_test(short_record_fills_the_slots_it_holds),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
