/* SPDX-License-Identifier: MIT */
/*
 * The number writers of metric names (zm_put_dec, zm_put_hex4), which stand
 * in for snprintf("%u") and snprintf("%04X") on the per-record paths: the
 * same text, cut at the same place.  Expected strings written by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "metric/met_module.h"

static const char *dec(char *buf, size_t n, unsigned v)
{
        buf[zm_put_dec(buf, n, 0, v)] = '\0';
        return buf;
}

static const char *hex4(char *buf, size_t n, unsigned v)
{
        buf[zm_put_hex4(buf, n, 0, v)] = '\0';
        return buf;
}

static void decimal(void **state)
{
        (void)state;
        char b[16];
        assert_string_equal(dec(b, sizeof(b), 0), "0");
        assert_string_equal(dec(b, sizeof(b), 7), "7");
        assert_string_equal(dec(b, sizeof(b), 10), "10");
        assert_string_equal(dec(b, sizeof(b), 4096), "4096");
        assert_string_equal(dec(b, sizeof(b), 4294967295u), "4294967295");
}

static void hex_at_least_four_digits(void **state)
{
        (void)state;
        char b[16];
        assert_string_equal(hex4(b, sizeof(b), 0), "0000");
        assert_string_equal(hex4(b, sizeof(b), 0x1), "0001");
        assert_string_equal(hex4(b, sizeof(b), 0xab), "00AB");
        assert_string_equal(hex4(b, sizeof(b), 0xF00D), "F00D");
        assert_string_equal(hex4(b, sizeof(b), 0x12345), "12345");
        assert_string_equal(hex4(b, sizeof(b), 0xFFFFFFFFu), "FFFFFFFF");
}

/* Appended after what is there, and cut like snprintf would cut: the first digits kept. */
static void appended_and_cut(void **state)
{
        (void)state;
        char b[8] = "cpu";
        size_t o = zm_put_dec(b, sizeof(b), 3, 12);
        b[o] = '\0';
        assert_int_equal(o, 5);
        assert_string_equal(b, "cpu12");
        o = zm_put_dec(b, sizeof(b), 3, 123456);
        b[o] = '\0';
        assert_string_equal(b, "cpu1234"); /* 7 of 8 bytes, as snprintf(b, 8, "cpu%u") */
        char c[4];
        assert_string_equal(hex4(c, sizeof(c), 0x1), "000");
        char d[1];
        assert_int_equal(zm_put_dec(d, sizeof(d), 0, 5), 0);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(decimal),
            cmocka_unit_test(hex_at_least_four_digits),
            cmocka_unit_test(appended_and_cut),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
