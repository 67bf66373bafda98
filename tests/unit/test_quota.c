/* SPDX-License-Identifier: MIT */
/*
 * decoder/base/quota.c: per-guest shares, counted by the packed userid.
 * Any 64-bit value is a userid here, 0 and all ones included (zh_word8 of
 * a name with bytes past its end set); shares survive the table's growth;
 * clearing starts every guest over.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "base/quota.h"

static void each_guest_its_own_share(void **state)
{
        (void)state;
        struct zq_table q = {0};
        assert_int_equal(zq_held(&q, 7), 0);
        for (int i = 0; i < 3; i++) {
                assert_int_equal(zq_take(&q, 0, 3), ZQ_TAKEN);
                assert_int_equal(zq_take(&q, UINT64_MAX, 3), ZQ_TAKEN);
        }
        assert_int_equal(zq_take(&q, 0, 3), ZQ_FULL);
        assert_int_equal(zq_take(&q, UINT64_MAX, 3), ZQ_FULL);
        assert_int_equal(zq_held(&q, 0), 3);
        assert_int_equal(zq_take(&q, 1, 3), ZQ_TAKEN); /* another guest */
        assert_int_equal(zq_held(&q, 1), 1);
        assert_int_equal(zq_take(&q, 2, 0), ZQ_FULL); /* a share of none */
        zq_clear(&q);
        assert_int_equal(zq_held(&q, 0), 0);
        assert_int_equal(zq_take(&q, 0, 3), ZQ_TAKEN);
        zq_free(&q);
        zq_free(&q); /* twice is harmless */
}

static void shares_kept_through_growth(void **state)
{
        (void)state;
        struct zq_table q = {0};
        enum { GUESTS = 50000 };
        for (uint64_t g = 0; g < GUESTS; g++)
                assert_int_equal(zq_take(&q, g * UINT64_C(0x9E3779B97F4A7C15), 2), ZQ_TAKEN);
        for (uint64_t g = 0; g < GUESTS; g++) {
                uint64_t u = g * UINT64_C(0x9E3779B97F4A7C15);
                assert_int_equal(zq_held(&q, u), 1);
                assert_int_equal(zq_take(&q, u, 2), ZQ_TAKEN);
                assert_int_equal(zq_take(&q, u, 2), ZQ_FULL);
        }
        assert_int_equal(q.n, GUESTS);
        zq_free(&q);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(each_guest_its_own_share),
            cmocka_unit_test(shares_kept_through_growth),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
