/* SPDX-License-Identifier: MIT */
/*
 * zvmsim --procd-churn (zvmsim/sim_records_linux.c): the same seed gives the
 * same churn, no churn and no procd_pass truth lines without the option, and
 * the churn leaves every record but mon_procd's task records as it was.
 * What the churn does to the processes-* series is checked end to end
 * against the truth (tests/e2e/procd/check.py, make check-procd).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim.h"

/* The truth of n intervals of a small system with three mon_procd guests (free it). */
static char *truth_of(unsigned churn, uint64_t seed, unsigned n)
{
        struct sim_cfg c;
        sim_cfg_default(&c);
        c.seed = seed;
        c.guests = 6;
        c.linux_guests = 3;
        c.procd = 3;
        c.procd_churn = churn;
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        assert_non_null(f);
        struct sim_truth *t = sim_truth_on(f, true);
        struct sim_sys *s = sim_sys_new(&c, t);
        sim_set_free(sim_sys_config(s, sim_sys_tod(s)));
        for (unsigned i = 0; i < n; i++) {
                struct sim_set *set = sim_sys_interval(s), *e;
                while ((e = sim_sys_next_event(s)))
                        sim_set_free(e);
                sim_set_free(set);
        }
        sim_sys_free(s);
        sim_truth_close(t);
        fclose(f);
        return buf;
}

static size_t count(const char *s, const char *what)
{
        size_t n = 0;
        for (const char *p = s; (p = strstr(p, what)); p++)
                n++;
        return n;
}

/* The record lines of everything but mon_procd's tasks (set lines hold sizes: left out). */
static char *without_tasks(const char *truth)
{
        char *out = calloc(1, strlen(truth) + 1), *o = out, *line = calloc(1, strlen(truth) + 1);
        assert_non_null(out);
        assert_non_null(line);
        for (const char *p = truth; *p;) {
                const char *nl = strchr(p, '\n');
                size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
                memcpy(line, p, n);
                line[n] = '\0';
                if (!strstr(line, " proctask ") && !strstr(line, "\"procd_pass\"") &&
                    strncmp(line, "{\"set\"", 6) != 0) {
                        memcpy(o, line, n);
                        o += n;
                }
                p += n;
        }
        free(line);
        return out;
}

static void same_seed_same_churn(void **state)
{
        (void)state;
        char *a = truth_of(30, 5, 10), *b = truth_of(30, 5, 10), *c = truth_of(30, 6, 10);
        assert_string_equal(a, b);
        assert_true(strcmp(a, c) != 0);
        free(a);
        free(b);
        free(c);
}

static void churn_only_when_asked(void **state)
{
        (void)state;
        char *off = truth_of(0, 5, 10), *on = truth_of(30, 5, 10);
        assert_int_equal(count(off, "\"procd_pass\""), 0);
        assert_true(count(on, "\"procd_pass\"") >= 10); /* every pass of three guests */
        assert_true(count(on, "\"exited\":[{") > 0);    /* processes did exit */
        assert_true(count(off, " proctask ") != count(on, " proctask ")); /* and start */
        free(off);
        free(on);
}

static void churn_leaves_the_rest(void **state)
{
        (void)state;
        char *off = truth_of(0, 5, 10), *on = truth_of(30, 5, 10);
        char *a = without_tasks(off), *b = without_tasks(on);
        assert_true(strlen(a) > 10000);
        assert_string_equal(a, b);
        free(a);
        free(b);
        free(off);
        free(on);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(same_seed_same_churn),
            cmocka_unit_test(churn_only_when_asked),
            cmocka_unit_test(churn_leaves_the_rest),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
