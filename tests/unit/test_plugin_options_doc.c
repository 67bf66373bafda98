/* SPDX-License-Identifier: MIT */
/*
 * Every option each plugin's block takes (the options[] table of
 * plugin/zvm/zvm_config.c and of plugin/write_zvm/write_zvm.c) is documented
 * in both places a user looks: the plugin's table in doc/ and
 * collectd-zvm(5).  Read from the tree top, where the unit tests run.
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

/* The options of the table in code, each looked for in md's table and in pod; how many. */
static size_t documented(const char *code_path, const char *md_path, const char *pod)
{
        char *code = slurp(code_path), *md = slurp(md_path);
        char *p = strstr(code, " options[] = {");
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
                /* the name whole: "| `Host` ..." or "| `Host "NAME"`", not "| `HostX" */
                char alone[80];
                snprintf(want, sizeof(want), "| `%s`", key);
                snprintf(alone, sizeof(alone), "| `%s ", key);
                if (!strstr(md, want) && !strstr(md, alone))
                        fail_msg("option %s is not in %s's table", key, md_path);
                snprintf(want, sizeof(want), "=item B<%s>", key);
                if (!strstr(pod, want))
                        fail_msg("option %s is not in man/collectd-zvm.5.pod", key);
        }
        free(code);
        free(md);
        return n;
}

static void every_option_is_documented(void **state)
{
        (void)state;
        char *pod = slurp("man/collectd-zvm.5.pod");
        assert_true(documented("plugin/zvm/zvm_config.c", "doc/plugin.md", pod) >= 20);
        assert_true(documented("plugin/write_zvm/write_zvm.c", "doc/write_zvm.md", pod) >= 10);
        free(pod);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(every_option_is_documented),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
