/* SPDX-License-Identifier: MIT */
/*
 * The dispatcher's series: found again by the order they came in last time
 * and by their keyed ids (never across guests), laid out again in the order
 * an interval brought them, and that layout's policy (when, how often).
 */
#include "vec_appl.h"

#include "cd_stubs.h"

#include "dispatch_fixture.h"

#include "base/siphash.h"

/*
 * Series made in one order and then dispatched, round after round, in the
 * reverse one get laid out again (relayout): the names, hosts, values and
 * the newest time of every identifier survive it.
 */
static void series_laid_out_again(void **state)
{
        struct dispatch_fx *f = *state;
        enum { N = 200 };
        for (int round = 0; round < 5; round++)
                for (int k = 0; k < N; k++) {
                        int i = round == 0 ? k : N - 1 - k;
                        char guest[9];
                        snprintf(guest, sizeof(guest), "G%04d", i % 50);
                        struct zm_metric m = metric(i % 2 ? ZM_GUEST : ZM_SYSTEM, guest, 10, 2,
                                                    VEC_TOD_2026 + (uint64_t)round * 4096 * 1000000,
                                                    i + 1000.0 * round);
                        char ti[16];
                        snprintf(ti, sizeof(ti), "s%d", i);
                        m.type_instance = ti;
                        dispatch(f->d, &m);
                }
        assert_int_equal(cd_nvl, 5 * N);
        for (size_t v = 0; v < cd_nvl; v++) {
                int i = atoi(cd_vls[v].tinst + 1), round = (int)(v / N);
                char host[16];
                snprintf(host, sizeof(host), "g%04d", i % 50);
                assert_string_equal(cd_vls[v].host, i % 2 ? host : "");
                assert_true(cd_vls[v].v[0].gauge == i + 1000.0 * round);
        }
        /* the last round again: every identifier knows its newest time */
        for (int i = 0; i < N; i++) {
                char guest[9];
                snprintf(guest, sizeof(guest), "G%04d", i % 50);
                struct zm_metric m = metric(i % 2 ? ZM_GUEST : ZM_SYSTEM, guest, 10, 2,
                                            VEC_TOD_2026 + (uint64_t)4 * 4096 * 1000000, 0);
                char ti[16];
                snprintf(ti, sizeof(ti), "s%d", i);
                m.type_instance = ti;
                dispatch(f->d, &m);
        }
        assert_int_equal(cd_nvl, 5 * N);
        assert_int_equal(zvm_stats()->duplicates, N);
}

/* Value k of an interval: series "s<k>", guest G<k % 50>, at interval iv. */
static void value_of(struct zvm_dispatch *d, int k, int iv)
{
        char guest[9], ti[16];
        snprintf(guest, sizeof(guest), "G%04d", k % 50);
        snprintf(ti, sizeof(ti), "s%d", k);
        struct zm_metric m =
            metric(ZM_GUEST, guest, 10, 2, VEC_TOD_2026 + (uint64_t)iv * 4096 * 1000000, k + 0.5);
        m.type_instance = ti;
        zvm_dispatch_metric(d, &m);
}

/*
 * The first interval whose series were known already lays them out in its
 * order, at its end: interval 1 makes N + N/2 series (N/2 do not come back,
 * so keep_order's count, two rounds of all series, is not reached by interval
 * 2), interval 2 brings N of them in reverse.  An interval of new series is
 * no order to lay out by.
 */
static void laid_out_when_an_interval_ends(void **state)
{
        struct dispatch_fx *f = *state;
        enum { N = 200 };
        for (int k = 0; k < N + N / 2; k++)
                value_of(f->d, k, 1);
        zvm_dispatch_interval_end(f->d);
        assert_int_equal(f->d->ns, N + N / 2);
        for (size_t i = 0; i < f->d->ns; i++) /* still as made */
                assert_int_equal(atoi(nm(&f->d->s[i], N_TINST) + 1), (int)i);
        for (int k = N - 1; k >= 0; k--)
                value_of(f->d, k, 2);
        zvm_dispatch_interval_end(f->d);
        for (int j = 0; j < N; j++) /* interval 2's order first, then the rest */
                assert_int_equal(atoi(nm(&f->d->s[j], N_TINST) + 1), N - 1 - j);
        for (int j = N; j < N + N / 2; j++)
                assert_int_equal(atoi(nm(&f->d->s[j], N_TINST) + 1), j);
        zvm_dispatch_flush(f->d);
        assert_int_equal(cd_nvl, 2 * N + N / 2);
        for (size_t v = 0; v < cd_nvl; v++) {
                int k = atoi(cd_vls[v].tinst + 1);
                char host[16];
                snprintf(host, sizeof(host), "g%04d", k % 50);
                assert_string_equal(cd_vls[v].host, host);
                assert_true(cd_vls[v].v[0].gauge == k + 0.5);
        }
        /* interval 3 in interval 2's order: every value finds its series, no new ones */
        for (int k = N - 1; k >= 0; k--)
                value_of(f->d, k, 3);
        zvm_dispatch_flush(f->d);
        assert_int_equal(f->d->ns, N + N / 2);
        assert_int_equal(cd_nvl, 3 * N + N / 2);
        assert_int_equal(zvm_stats()->duplicates, 0);
}

/*
 * 70% of an interval's values in array order is not order enough: at the
 * interval's end the series are laid out (keep_order's mid-interval test asks
 * only for half).  Interval 2 swaps the first two of every ten.
 */
static void laid_out_when_an_eighth_came_out_of_order(void **state)
{
        struct dispatch_fx *f = *state;
        enum { N = 200 };
        int order[N];
        for (int j = 0; j < N; j++)
                order[j] = j % 10 == 0 ? j + 1 : j % 10 == 1 ? j - 1 : j;
        for (int k = 0; k < N + N / 2; k++)
                value_of(f->d, k, 1);
        zvm_dispatch_interval_end(f->d);
        for (int j = 0; j < N; j++)
                value_of(f->d, order[j], 2);
        zvm_dispatch_interval_end(f->d);
        for (int j = 0; j < N; j++)
                assert_int_equal(atoi(nm(&f->d->s[j], N_TINST) + 1), order[j]);
}

/*
 * An order that changes every interval is not laid out at every interval's
 * end: the intervals after a layout that did not help are passed over, 1, 2,
 * 4 ... of them.  Twenty intervals of shuffled orders: layouts at the ends
 * of intervals 2, 4, 7 and 12, and keep_order's own now and then (7 in all;
 * without the backoff, one at the end of each of the 19).  Then an order
 * that holds: laid out once more, and no more after that.
 */
static void shuffled_orders_laid_out_ever_less(void **state)
{
        struct dispatch_fx *f = *state;
        cd_count_only = true;
        enum { N = 200 };
        int order[N];
        uint32_t r = 12345;
        for (int k = 0; k < N; k++)
                value_of(f->d, k, 1);
        zvm_dispatch_interval_end(f->d);
        for (int iv = 2; iv <= 20; iv++) {
                for (int j = 0; j < N; j++)
                        order[j] = j;
                for (int j = N - 1; j > 0; j--) { /* Fisher-Yates with a fixed LCG */
                        r = r * 1103515245u + 12345u;
                        int k = (int)((r >> 8) % (uint32_t)(j + 1)), t = order[j];
                        order[j] = order[k];
                        order[k] = t;
                }
                for (int j = 0; j < N; j++)
                        value_of(f->d, order[j], iv);
                zvm_dispatch_interval_end(f->d);
        }
        /* keep_order may lay out too (after 2, 4, 8 ... rounds of N): not counted apart */
        assert_true(f->d->layouts >= 5 && f->d->layouts <= 7);
        size_t before = f->d->layouts;
        for (int iv = 21; iv <= 30; iv++) {
                for (int j = 0; j < N; j++)
                        value_of(f->d, order[j], iv);
                zvm_dispatch_interval_end(f->d);
        }
        assert_true(f->d->layouts <= before + 1);
        zvm_dispatch_flush(f->d);
        assert_int_equal(cd_ncounted, 30 * N);
}

/*
 * Two guests GuestHost names alike: their series share one identifier each,
 * the first value of a time goes out and the other is a duplicate.  After
 * the series are laid out again (values come guest B first, reversed), each
 * identifier still knows its newest time and is found again from a third
 * guest's new series of the same names.
 */
static void relayout_keeps_shared_identifiers(void **state)
{
        struct dispatch_fx *f = *state;
        static const char *const guests[] = {"LINUXA", "LINUXB", "LINUXC"};
        for (int g = 0; g < 3; g++) {
                oconfig_item_t ci = item("GuestHost", 2, guests[g], "shared");
                assert_int_equal(zvm_config_item(&f->c, &ci), 0);
        }
        enum { N = 100, ROUNDS = 5 };
        const uint64_t step = (uint64_t)4096 * 1000000;
        for (int round = 0; round < ROUNDS; round++)
                for (int k = 0; k < 2 * N; k++) {
                        /* made A0..A99, B0..B99; then B99, A99, B98, A98, ... */
                        int g = round == 0 ? k / N : 1 - k % 2;
                        int i = round == 0 ? k % N : N - 1 - k / 2;
                        struct zm_metric m = metric(ZM_GUEST, guests[g], 10, 2,
                                                    VEC_TOD_2026 + (uint64_t)round * step,
                                                    1000.0 * round + 10 * i + g);
                        char ti[16];
                        snprintf(ti, sizeof(ti), "s%d", i);
                        m.type_instance = ti;
                        dispatch(f->d, &m);
                }
        assert_int_equal(cd_nvl, ROUNDS * N);
        assert_int_equal(zvm_stats()->duplicates, ROUNDS * N);
        for (size_t v = 0; v < cd_nvl; v++) {
                int i = atoi(cd_vls[v].tinst + 1), round = (int)(v / N);
                assert_string_equal(cd_vls[v].host, "shared");
                /* round 0: A's value went first; then B's */
                assert_true(cd_vls[v].v[0].gauge == 1000.0 * round + 10 * i + (round ? 1 : 0));
        }
        /* laid out again: the array no longer starts with the first series made, A0 */
        assert_int_equal(f->d->ns, 2 * N);
        assert_false(strcmp(f->d->s[0].guest, "LINUXA") == 0 &&
                     strcmp(nm(&f->d->s[0], N_TINST), "s0") == 0);
        /* a new guest's series of the same names: the same identifiers, their times known */
        for (int i = 0; i < N; i++) {
                struct zm_metric m = metric(ZM_GUEST, "LINUXC", 10, 2,
                                            VEC_TOD_2026 + (uint64_t)(ROUNDS - 1) * step, 0);
                char ti[16];
                snprintf(ti, sizeof(ti), "s%d", i);
                m.type_instance = ti;
                dispatch(f->d, &m);
        }
        assert_int_equal(cd_nvl, ROUNDS * N);
        assert_int_equal(zvm_stats()->duplicates, (ROUNDS + 1) * N);
        assert_int_equal(f->d->nid, N);
}

/*
 * Values that come in array order, round after round, are never laid out
 * again: keep_order counts how many came right after the last one's series
 * and lays out only when fewer than half did.
 */
static void series_in_order_never_laid_out(void **state)
{
        struct dispatch_fx *f = *state;
        enum { N = 100 };
        for (int iv = 0; iv < 20; iv++)
                for (int k = 0; k < N; k++)
                        value_of(f->d, k, iv);
        zvm_dispatch_flush(f->d);
        assert_int_equal(f->d->ns, N);
        assert_int_equal(f->d->layouts, 0);
}

/*
 * A value whose names are those of another record's series is not taken for
 * it, not even where that series came last time (the first guess):
 * ExcludeRecord "D4" holds for it (doc/plugin.md).
 */
static void another_records_names_are_another_series(void **state)
{
        struct dispatch_fx *f = *state;
        oconfig_item_t ci = item("ExcludeRecord", 1, "D4", NULL);
        assert_int_equal(zvm_config_item(&f->c, &ci), 0);
        uint64_t t = VEC_TOD_2026;
        struct zm_metric x = metric(ZM_SYSTEM, "", 10, 2, t, 1);
        struct zm_metric y = metric(ZM_SYSTEM, "", 0, 2, t + 4096, 2);
        struct zm_metric z = metric(ZM_SYSTEM, "", 4, 2, t + 3 * 4096, 3); /* y's names, D4 */
        dispatch(f->d, &x);
        dispatch(f->d, &y);
        x.tod = t + 2 * 4096;
        dispatch(f->d, &x);
        dispatch(f->d, &z); /* comes where y came after x */
        assert_int_equal(cd_nvl, 3);
        assert_int_equal(zvm_stats()->filtered, 1);
        assert_int_equal(f->d->ns, 3);
}

/*
 * Past 32,768 series the indexes grow four times over (index_room): every
 * series and identifier is found again after that, none is made twice, and
 * each identifier knows its time.  An index of 65,536 slots grows to
 * 262,144 at once, not through 131,072 as doubling would (which reaches
 * 262,144 too by 70,000 series).
 */
static void many_series_found_again(void **state)
{
        struct dispatch_fx *f = *state;
        cd_count_only = true;
        enum { N = 70000 };
        size_t grown = 0;
        for (int round = 0; round < 3; round++)
                for (int k = 0; k < N; k++) {
                        size_t six = f->d->six.cap, iix = f->d->iix.cap;
                        /* rounds 1 and 2 in another order: the index finds them, not the guess */
                        int i = round == 0 ? k : (k * 7919) % N;
                        char guest[9];
                        snprintf(guest, sizeof(guest), "G%05d", i / 10);
                        struct zm_metric m =
                            metric(ZM_GUEST, guest, 10, 2,
                                   VEC_TOD_2026 + (uint64_t)(round / 2) * 4096000000, i);
                        char ti[16];
                        snprintf(ti, sizeof(ti), "s%d", i % 10);
                        m.type_instance = ti;
                        dispatch(f->d, &m);
                        if (six >= 65536 && f->d->six.cap != six) {
                                assert_int_equal(f->d->six.cap, 4 * six);
                                grown++;
                        }
                        if (iix >= 65536 && f->d->iix.cap != iix) {
                                assert_int_equal(f->d->iix.cap, 4 * iix);
                                grown++;
                        }
                }
        assert_int_equal(grown, 2); /* each index once, from 65,536 slots */
        assert_int_equal(f->d->ns, N);
        assert_int_equal(f->d->nid, N);
        assert_true(f->d->six.cap >= 2 * (size_t)N && f->d->iix.cap >= 2 * (size_t)N);
        assert_int_equal(f->d->six.cap, 262144); /* 65,536 then four times over */
        /* rounds 0 and 1 share a time: round 1's values are duplicates */
        assert_int_equal(cd_ncounted, 2 * N);
        assert_int_equal(zvm_stats()->duplicates, N);
}

/*
 * A metric that carries an id is found by it: within one guest the id stands
 * for the names (it is keyed, so the guest cannot aim two names at one id),
 * but the CP userid is compared whatever the id says.  Two guests given the
 * same id are two series under their own hosts; one guest's second name under
 * an id it already has is that series.
 */
static void ids_confirm_within_a_guest_only(void **state)
{
        struct dispatch_fx *f = *state;
        struct zm_metric a = metric(ZM_GUEST, "LINUXA", 10, 2, VEC_TOD_2026, 1);
        struct zm_metric b = metric(ZM_GUEST, "LINUXB", 10, 2, VEC_TOD_2026, 2);
        a.id = b.id = 0x5EED;
        dispatch(f->d, &a);
        dispatch(f->d, &b);
        assert_int_equal(f->d->ns, 2);
        assert_int_equal(cd_nvl, 2);
        assert_non_null(cd_find("linuxa", "memory", "", "memory", "free"));
        assert_non_null(cd_find("linuxb", "memory", "", "memory", "free"));
        /* a second guest's values never land under the first one's host: also not by
           the guess (the series after the last value) */
        for (int round = 1; round <= 2; round++) {
                a.tod = b.tod = VEC_TOD_2026 + (uint64_t)round * 4096000000;
                dispatch(f->d, &a);
                dispatch(f->d, &b);
        }
        assert_int_equal(f->d->ns, 2);
        assert_int_equal(cd_nvl, 6);
        size_t under_a = 0;
        for (size_t i = 0; i < cd_nvl; i++)
                under_a += strcmp(cd_vls[i].host, "linuxa") == 0;
        assert_int_equal(under_a, 3);
}

/*
 * zm_metric_id is keyed per process: the same names hashed as it hashes them
 * under a key a guest could know (all zeros) give another value.
 */
static void ids_are_keyed(void **state)
{
        (void)state;
        struct zm_metric m = metric(ZM_GUEST, "LINUXA", 10, 2, VEC_TOD_2026, 1);
        struct zh_sip s;
        zh_sip_init(&s, 0, 0);
        uint8_t srd[4] = {(uint8_t)m.scope, m.domain, (uint8_t)(m.record >> 8), (uint8_t)m.record};
        zh_sip_put(&s, srd, sizeof(srd));
        const char *names[] = {m.guest,           m.host, m.plugin,
                               m.plugin_instance, m.type, m.type_instance};
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
                zh_sip_str(&s, names[i]); /* each shorter than 255: its length in a byte */
        uint64_t h = zh_sip_final(&s) & ~(uint64_t)1;
        assert_int_not_equal(zm_metric_id(&m), h ? h : 2);
        assert_int_equal(zm_metric_id(&m), zm_metric_id(&m)); /* stable within the process */
}

/*
 * Names a guest chose to collide without the key.  The zh_step chain the
 * ids once were passed a difference in bit 62 of one word on as bits 62 and
 * 30 (or 62, 63, 30 and 31) about half the time, whatever the key, and the
 * next word's 62 and 30 cancelled it: names that differ by 0x40 in bytes 7,
 * 11 and 15 ("...a...a...a" against "...!...!...!").  About half of such
 * pairs gave one id, and the second name's values went out under the
 * first's.  Each pair is dispatched for three intervals: 64 series, each
 * value under its own name.
 */
static void chosen_names_stay_apart(void **state)
{
        struct dispatch_fx *f = *state;
        enum { PAIRS = 32 };
        char name[2 * PAIRS][17];
        for (int i = 0; i < PAIRS; i++)
                for (int k = 0; k < 2; k++) {
                        char mark = k ? '!' : 'a'; /* 0x21 = 0x61 ^ 0x40 */
                        snprintf(name[2 * i + k], sizeof(name[0]), "app%ckxx%cxxx%cxxx%c",
                                 'a' + i % 26, mark, mark, mark);
                        if (i >= 26)
                                name[2 * i + k][1] = 'q';
                }
        for (int i = 0; i < PAIRS; i++) {
                struct zm_metric a = metric(ZM_GUEST, "LINUXA", 10, 2, VEC_TOD_2026, 0);
                struct zm_metric b = a;
                a.plugin_instance = name[2 * i];
                b.plugin_instance = name[2 * i + 1];
                assert_true(zm_metric_id(&a) != zm_metric_id(&b));
        }
        for (int round = 0; round < 3; round++)
                for (int v = 0; v < 2 * PAIRS; v++) {
                        struct zm_metric m = metric(ZM_GUEST, "LINUXA", 10, 2,
                                                    VEC_TOD_2026 + (uint64_t)round * 4096000000, v);
                        m.plugin_instance = name[v];
                        dispatch(f->d, &m);
                }
        assert_int_equal(f->d->ns, 2 * PAIRS);
        assert_int_equal(cd_nvl, 3 * 2 * PAIRS);
        for (size_t i = 0; i < cd_nvl; i++) {
                int v = (int)cd_vls[i].v[0].gauge;
                assert_string_equal(cd_vls[i].pinst, name[v]);
        }
}

/*
 * CP's metrics come with a module's key and no id (the engine makes one only
 * for the series cap): the next series guessed is confirmed by its key.
 * Round 2 brings C where B came in round 1; each value keeps its own names.
 */
static void guessed_series_confirmed_by_key(void **state)
{
        struct dispatch_fx *f = *state;
        static const char *const ti[3] = {"a", "b", "c"};
        static const int order[2][3] = {{0, 1, 2}, {0, 2, 1}};
        for (int round = 0; round < 2; round++)
                for (int k = 0; k < 3; k++) {
                        int i = order[round][k];
                        struct zm_metric m =
                            metric(ZM_SYSTEM, "LINUX01", 4, 3,
                                   VEC_TOD_2026 + (uint64_t)round * 4096 * 1000000, i);
                        m.type_instance = ti[i];
                        m.key = (uint64_t)(0x100 + 2 * i + 1);
                        dispatch(f->d, &m);
                }
        assert_int_equal(cd_nvl, 6);
        for (size_t v = 0; v < cd_nvl; v++)
                assert_string_equal(cd_vls[v].tinst, ti[(int)cd_vls[v].v[0].gauge]);
        assert_int_equal(f->d->ns, 3);
}

/*
 * A module's key names the series with the userid: what follows the userid's
 * NUL in zm_metric.guest (a module may copy 9 bytes of a longer buffer) does
 * not count, every character before it does, up to all 8.
 */
static void key_ids_take_the_userid_to_its_end(void **state)
{
        (void)state;
        struct zm_metric a = metric(ZM_GUEST, "ABC", 10, 2, VEC_TOD_2026, 1);
        struct zm_metric b = a;
        a.key = b.key = 0x2A;
        memcpy(b.guest, "ABC\0XYZW", 9);
        assert_int_equal(zm_key_id(&a), zm_key_id(&b));
        assert_int_equal(zm_key_id(&a) & 1, 1);
        memcpy(b.guest, "ABCD\0\0\0\0", 9);
        assert_int_not_equal(zm_key_id(&a), zm_key_id(&b));
        memcpy(a.guest, "ABCDEFGH", 9);
        memcpy(b.guest, "ABCDEFGI", 9);
        assert_int_not_equal(zm_key_id(&a), zm_key_id(&b));
        memcpy(b.guest, "\0BCDEFGH", 9);
        memcpy(a.guest, "\0\0\0\0\0\0\0\0", 9);
        assert_int_equal(zm_key_id(&a), zm_key_id(&b));
        b.key = 0x2B;
        assert_int_not_equal(zm_key_id(&a), zm_key_id(&b));
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            DISPATCH_TEST(series_laid_out_again),
            DISPATCH_TEST(relayout_keeps_shared_identifiers),
            DISPATCH_TEST(laid_out_when_an_interval_ends),
            DISPATCH_TEST(laid_out_when_an_eighth_came_out_of_order),
            DISPATCH_TEST(shuffled_orders_laid_out_ever_less),
            DISPATCH_TEST(series_in_order_never_laid_out),
            DISPATCH_TEST(another_records_names_are_another_series),
            DISPATCH_TEST(many_series_found_again),
            DISPATCH_TEST(ids_confirm_within_a_guest_only),
            cmocka_unit_test(ids_are_keyed),
            DISPATCH_TEST(chosen_names_stay_apart),
            DISPATCH_TEST(guessed_series_confirmed_by_key),
            cmocka_unit_test(key_ids_take_the_userid_to_its_end),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
