/* SPDX-License-Identifier: MIT */
/*
 * The option table both plugins read their blocks with (plugin/plugin_options.c),
 * on a table of its own: each kind into its field, bounds and whole numbers,
 * an option of one value given once, options that add given again, names in
 * any case, and the messages that name what is wrong.
 */
#include "plugin_options.h"

#include <collectd/core/daemon/plugin.h>

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static char lastlog[1024];
static int nlog;

void plugin_log(int level, const char *format, ...)
{
        (void)level;
        va_list ap;
        va_start(ap, format);
        vsnprintf(lastlog, sizeof(lastlog), format, ap);
        va_end(ap);
        nlog++;
}

#include "cd_cfutil.h"

struct conf {
        bool flag;
        char *name;
        double seconds;
        uint32_t small; /* a 4-byte count */
        int as_int;     /* a 4-byte count in an int, as write_zvm keeps its own */
        uint64_t big;   /* an 8-byte count */
        size_t size;
        int added; /* how often the repeating option came */
};

static int add_one(void *cfg, const oconfig_item_t *ci)
{
        (void)ci;
        ((struct conf *)cfg)->added++;
        return 0;
}

#define AT(field) POPT_AT(struct conf, field)
static const struct popt rows[] = {
    {"Flag", POPT_BOOL, AT(flag)},
    {"Name", POPT_STRING, AT(name)},
    {"Seconds", POPT_NUMBER, AT(seconds), 0.001, 86400},
    {"Small", POPT_COUNT, AT(small), 1, 1000},
    {"AsInt", POPT_COUNT, AT(as_int), 16, 1 << 20},
    {"Big", POPT_COUNT, AT(big), 0, 1e12},
    {"Size", POPT_COUNT, AT(size), 4096, 2147483648.0},
    {"Add", POPT_PARSE, .repeats = true, .parse = add_one},
};
static const struct popt_table table = {"test", "doc/test.md", rows,
                                        sizeof(rows) / sizeof(rows[0])};

static oconfig_value_t num(double d)
{
        oconfig_value_t v = {.type = OCONFIG_TYPE_NUMBER};
        v.value.number = d;
        return v;
}

static oconfig_value_t str(const char *s)
{
        oconfig_value_t v = {.type = OCONFIG_TYPE_STRING};
        v.value.string = (char *)s;
        return v;
}

/* One option key with one value; each call as the next line of the same block. */
static int set(struct conf *c, uint64_t *given, const char *key, oconfig_value_t v)
{
        oconfig_item_t ci = {.key = (char *)key, .values = &v, .values_num = 1};
        lastlog[0] = '\0';
        return popt_apply(&table, c, given, &ci);
}

static void each_kind_goes_into_its_field(void **state)
{
        (void)state;
        struct conf c = {0};
        uint64_t given = 0;
        oconfig_value_t t = {.type = OCONFIG_TYPE_BOOLEAN};
        t.value.boolean = true;
        assert_int_equal(set(&c, &given, "flag", t), 0); /* any case */
        assert_true(c.flag);
        assert_int_equal(set(&c, &given, "Name", str("x")), 0);
        assert_string_equal(c.name, "x");
        assert_int_equal(set(&c, &given, "Seconds", num(0.5)), 0);
        assert_true(c.seconds == 0.5);
        assert_int_equal(set(&c, &given, "Small", num(1000)), 0);
        assert_int_equal(c.small, 1000);
        assert_int_equal(set(&c, &given, "AsInt", num(1 << 20)), 0);
        assert_int_equal(c.as_int, 1 << 20);
        assert_int_equal(set(&c, &given, "Big", num(1e12)), 0);
        assert_true(c.big == UINT64_C(1000000000000));
        assert_int_equal(set(&c, &given, "Size", num(2147483648.0)), 0);
        assert_true(c.size == (size_t)2147483648u);
        assert_int_equal(nlog, 0);
        free(c.name);
}

static void bounds_and_whole_numbers(void **state)
{
        (void)state;
        struct conf c = {.small = 7, .seconds = 2};
        uint64_t given = 0;
        assert_int_not_equal(set(&c, &given, "Small", num(0)), 0);
        assert_string_equal(lastlog, "test plugin: option Small needs a number between 1 and "
                                     "1000, not 0");
        assert_int_not_equal(set(&c, &given, "Small", num(2.5)), 0);
        assert_string_equal(lastlog, "test plugin: option Small needs a whole number, not 2.5");
        assert_int_not_equal(set(&c, &given, "Small", num(NAN)), 0); /* in no range */
        assert_int_not_equal(set(&c, &given, "Small", str("3")), 0); /* collectd's own message */
        assert_non_null(strstr(lastlog, "Small"));
        assert_int_equal(c.small, 7); /* a refused value leaves the field as it was */
        /* bounds in full, not as %g rounds them */
        assert_int_not_equal(set(&c, &given, "AsInt", num(2e6)), 0);
        assert_non_null(strstr(lastlog, "between 16 and 1048576, not 2000000"));
        assert_int_not_equal(set(&c, &given, "Seconds", num(HUGE_VAL)), 0);
        assert_int_not_equal(set(&c, &given, "Seconds", num(0.0005)), 0);
        assert_true(c.seconds == 2);
        /* none of them counts as given */
        assert_int_equal(set(&c, &given, "Small", num(3)), 0);
        assert_int_equal(set(&c, &given, "Seconds", num(3)), 0);
        assert_int_equal(c.small, 3);
}

static void one_value_once_and_lists_again(void **state)
{
        (void)state;
        struct conf c = {0};
        uint64_t given = 0;
        assert_int_equal(set(&c, &given, "Name", str("first")), 0);
        assert_int_not_equal(set(&c, &given, "NAME", str("second")), 0);
        assert_string_equal(lastlog, "test plugin: Name given twice; it takes one value, and the "
                                     "second would replace the first");
        assert_string_equal(c.name, "first");
        for (int i = 0; i < 3; i++)
                assert_int_equal(set(&c, &given, "Add", str("x")), 0);
        assert_int_equal(c.added, 3);
        given = 0; /* a block of its own */
        assert_int_equal(set(&c, &given, "Name", str("second")), 0);
        assert_string_equal(c.name, "second");
        assert_int_not_equal(set(&c, &given, "Nam", str("x")), 0);
        assert_string_equal(lastlog, "test plugin: unknown option \"Nam\" (see doc/test.md)");
        free(c.name);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(each_kind_goes_into_its_field),
            cmocka_unit_test(bounds_and_whole_numbers),
            cmocka_unit_test(one_value_once_and_lists_again),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
