/* SPDX-License-Identifier: MIT */
/*
 * Every option the <Plugin zvm> block takes (the options[] table of
 * plugin/zvm/zvm_config.c) is documented in both places a user looks: the table
 * of doc/plugin.md and collectd-zvm(5).  Read from the tree top, where the
 * unit tests run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static char *slurp(const char *path)
{
        FILE *fp = fopen(path, "rb");
        if (!fp)
                fail_msg("cannot open %s (run from the tree top)", path);
        char *buf = malloc(1u << 20);
        assert_non_null(buf);
        size_t n = fread(buf, 1, (1u << 20) - 1, fp);
        fclose(fp);
        buf[n] = '\0';
        return buf;
}

static void every_option_is_documented(void **state)
{
        (void)state;
        char *code = slurp("plugin/zvm/zvm_config.c"), *md = slurp("doc/plugin.md"),
             *pod = slurp("man/collectd-zvm.5.pod");
        char *p = strstr(code, "} options[] = {");
        assert_non_null(p);
        char *end = strstr(p, "\n};");
        assert_non_null(end);
        *end = '\0';
        size_t n = 0;
        while ((p = strstr(p, "\n    {\"")) != NULL) {
                p += 7;
                char key[64], want[80];
                size_t k = strcspn(p, "\"");
                assert_true(k > 0 && k < sizeof(key));
                memcpy(key, p, k);
                key[k] = '\0';
                n++;
                snprintf(want, sizeof(want), "| `%s", key);
                if (!strstr(md, want))
                        fail_msg("option %s is not in doc/plugin.md's table", key);
                snprintf(want, sizeof(want), "=item B<%s>", key);
                if (!strstr(pod, want))
                        fail_msg("option %s is not in man/collectd-zvm.5.pod", key);
        }
        assert_true(n >= 20);
        free(code);
        free(md);
        free(pod);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(every_option_is_documented),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
