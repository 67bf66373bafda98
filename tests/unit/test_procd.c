/* SPDX-License-Identifier: MIT */
/*
 * mon_procd per-task records aggregated into collectd's processes series
 * (metric/met_procd.c, metric/procsel.h), and the Process / ProcessMatch
 * options of the zvm plugin.  Task records are written by hand from
 * doc/facts/s390-tools.md 3 (12-byte header, 111-byte task_t, six
 * length-prefixed strings); the expected values follow collectd's
 * processes plugin (doc/plugin.md).
 */
#include <math.h>

#include "vec_appl.h"

#include "cd_stubs.h"
#include "cd_cfitem.h"

#include "base/tod.h"
#include "kept_metric.h"
#include "layout/lay_file.h"
#include "metric/metric.h"
#include "metric/procsel.h"
#include "zvm.h"

#define MAXM 512
struct got {
        size_t n;
        struct zm_metric m[MAXM];
        struct kept_names names[MAXM];
};

static void collect(void *ctx, const struct zm_metric *m)
{
        struct got *g = ctx;
        if (g->n < MAXM) {
                keep_metric(&g->m[g->n], &g->names[g->n], m);
                g->n++;
        }
}

static const struct zm_metric *find(const struct got *g, const char *guest, const char *pinst,
                                    const char *type)
{
        for (size_t i = 0; i < g->n; i++)
                if (!strcmp(g->m[i].plugin, "processes") && !strcmp(g->m[i].guest, guest) &&
                    !strcmp(g->m[i].plugin_instance, pinst) && !strcmp(g->m[i].type, type))
                        return &g->m[i];
        return NULL;
}

struct tk {
        uint32_t pid;
        uint64_t total_time, maj_flt, size, resident, trs, drs;
        const char *cmd, *line;
};

/* One task record as mon_procd writes it (7.2), padded to its 499-byte buffer. */
static size_t task_data(uint8_t *d, uint64_t ts, const struct tk *t)
{
        memset(d, 0, 499);
        uint8_t *p = d + 12;
        be32(p + 0, t->pid);
        be64(p + 26, t->total_time);
        be64(p + 42, t->size);
        be64(p + 58, t->resident);
        be64(p + 66, t->trs);
        be64(p + 74, t->drs);
        be64(p + 98, t->maj_flt);
        p[106] = 'S';
        const char *s[6] = {"root", "root", "root", "-", t->cmd, t->line};
        size_t off = 111;
        for (int i = 0; i < 6; i++) {
                size_t n = strlen(s[i]);
                be16(p + off, (uint16_t)n);
                memcpy(p + off + 2, s[i], n);
                off += 2 + n;
        }
        be64(d, ts);
        be16(d + 8, (uint16_t)off);
        be16(d + 10, 12);
        return 499;
}

static void feed_task(struct zm_engine *e, const char *guest, uint16_t mod, uint64_t ts,
                      const struct tk *t)
{
        static uint8_t rec[600], data[499];
        uint8_t pid[16];
        vec_lnx_prodid(pid, 2, 1, 0, 0, mod);
        size_t dl = task_data(data, ts, t);
        size_t len = vec_d10(rec, 2, guest, pid, data, (uint16_t)dl);
        struct zd_record r = vec_record(rec, len);
        r.tod = VEC_TOD_2026;
        zm_engine_record(e, &r);
}

static void interval_end(struct zm_engine *e)
{
        uint8_t h[20];
        vec_hdr(h, 20, 1, 11, VEC_TOD_2026);
        struct zd_record r = vec_record(h, 20);
        r.tod = VEC_TOD_2026;
        zm_engine_interval_end(e, &r);
}

/* One pass: every task of it, then Interval End. */
static void pass(struct zm_engine *e, const char *guest, uint64_t ts, const struct tk *t, size_t n)
{
        for (size_t i = 0; i < n; i++)
                feed_task(e, guest, (uint16_t)(2 * i), ts, &t[i]);
        interval_end(e);
}

#define T1 UINT64_C(1795305660)

static struct zm_engine *engine(struct zm_procsel *sel, struct got *g)
{
        struct zm_options o = {.unverified = -1, .procs = sel};
        return zm_engine_new(&o, collect, NULL, g);
}

/*
 * A selection, the metrics it gave and the engine, set up and freed by cmocka
 * (rig_setup, rig_teardown), so that a failed assertion leaks nothing.  A test
 * adds its rules to sel, then calls rig_start.
 */
struct rig {
        struct zm_procsel *sel;
        struct zm_engine *e;
        struct got g;
};

static int rig_setup(void **state)
{
        struct rig *r = calloc(1, sizeof(*r));
        if (!r || !(r->sel = zm_procsel_new())) {
                free(r);
                return -1;
        }
        *state = r;
        return 0;
}

static int rig_teardown(void **state)
{
        struct rig *r = *state;
        zm_engine_free(r->e);
        zm_procsel_free(r->sel);
        free(r);
        return 0;
}

/* Each of names (NULL-ended) as a Process with no pattern, then the engine. */
static struct zm_engine *rig_start(struct rig *r, const char *const *names)
{
        char err[256];
        for (; names && *names; names++)
                assert_true(zm_procsel_add(r->sel, *names, NULL, err, sizeof(err)));
        r->e = engine(r->sel, &r->g);
        assert_non_null(r->e);
        return r->e;
}

static void workers_summed_and_counters_kept(void **state)
{
        struct rig *r = *state;
        struct zm_engine *e = rig_start(r, (const char *const[]){"httpd", NULL});
        struct tk p1[] = {
            {10, 100, 5, 1000, 400, 10, 300, "httpd", "/usr/sbin/httpd -k start"},
            {11, 200, 7, 2000, 500, 20, 600, "httpd", "/usr/sbin/httpd -k start"},
            {12, 900, 1, 9000, 900, 90, 900, "sshd", "/usr/sbin/sshd -D"},
        };
        pass(e, "LINUX01", T1, p1, 3);
        const struct zm_metric *m = find(&r->g, "LINUX01", "httpd", "ps_count");
        assert_non_null(m);
        assert_int_equal(m->nvalues, 2);
        assert_true(m->gauge[0] == 2);
        assert_true(isnan(m->gauge[1])); /* mon_procd counts no threads */
        assert_true(m->tod == zd_unix_us_to_tod((int64_t)T1 * 1000000));
        assert_true(find(&r->g, "LINUX01", "httpd", "ps_vm")->gauge[0] == 3000.0 * 1024);
        assert_true(find(&r->g, "LINUX01", "httpd", "ps_rss")->gauge[0] == 900.0 * 1024);
        assert_true(find(&r->g, "LINUX01", "httpd", "ps_code")->gauge[0] == 30.0 * 1024);
        assert_true(find(&r->g, "LINUX01", "httpd", "ps_data")->gauge[0] == 900.0 * 1024);
        m = find(&r->g, "LINUX01", "httpd", "ps_cputime");
        assert_int_equal(m->ds[0], ZM_DERIVE);
        assert_int_equal(m->derive[0], 0); /* the first pass is the base */
        assert_int_equal(m->derive[1], 0);
        assert_int_equal(find(&r->g, "LINUX01", "httpd", "ps_pagefaults")->derive[1], 0);
        assert_null(find(&r->g, "LINUX01", "sshd", "ps_count"));

        /* Pass 2: both grow, a new worker (the pass lists every task: it is new). */
        r->g.n = 0;
        struct tk p2[] = {
            {10, 150, 6, 1000, 400, 10, 300, "httpd", "/usr/sbin/httpd -k start"},
            {11, 260, 9, 2000, 500, 20, 600, "httpd", "/usr/sbin/httpd -k start"},
            {13, 40, 2, 1000, 100, 10, 100, "httpd", "/usr/sbin/httpd -k start"},
        };
        pass(e, "LINUX01", T1 + 60, p2, 3);
        m = find(&r->g, "LINUX01", "httpd", "ps_cputime");
        assert_int_equal(m->derive[0], (50 + 60 + 40) * 10000); /* 1/100 s to microseconds */
        assert_int_equal(find(&r->g, "LINUX01", "httpd", "ps_pagefaults")->derive[1], 1 + 2 + 2);
        assert_true(find(&r->g, "LINUX01", "httpd", "ps_count")->gauge[0] == 3);

        /* Pass 3: worker 11 gone; pid 13 reused by a new process (its counter fell). */
        r->g.n = 0;
        struct tk p3[] = {
            {10, 170, 6, 1000, 400, 10, 300, "httpd", "/usr/sbin/httpd -k start"},
            {13, 5, 0, 1000, 100, 10, 100, "httpd", "/usr/sbin/httpd -k start"},
        };
        pass(e, "LINUX01", T1 + 120, p3, 2);
        m = find(&r->g, "LINUX01", "httpd", "ps_cputime");
        assert_int_equal(m->derive[0], (150 + 20 + 5) * 10000); /* never goes back */
        assert_int_equal(find(&r->g, "LINUX01", "httpd", "ps_pagefaults")->derive[1], 5);

        /* The same pass copied again by CP: not reported twice. */
        r->g.n = 0;
        pass(e, "LINUX01", T1 + 120, p3, 2);
        assert_int_equal(r->g.n, 0);
        assert_int_equal(zm_engine_counters(e)->procd_torn, 0);
}

/*
 * A task's fields are read through its layout (LNXAPPL.2.1): a LayoutFile
 * that swaps size and resident (42 and 58 in task_t) swaps ps_vm and
 * ps_rss.
 */
static const char task_swapped[] =
    "layout LNXAPPL.2.1 task_t min_len 111 level \"test\" source \"test\"\n"
    "  field pid        0  4 uint verified none    -       \"test\" \"\"\n"
    "  field total_time 26 8 uint verified counter -       \"test\" \"\"\n"
    "  field size       58 8 uint verified gauge   KB      \"test\" \"swapped\"\n"
    "  field resident   42 8 uint verified gauge   KB      \"test\" \"swapped\"\n"
    "  field trs        66 8 uint verified gauge   KB      \"test\" \"\"\n"
    "  field drs        74 8 uint verified gauge   KB      \"test\" \"\"\n"
    "  field maj_flt    98 8 uint verified counter -       \"test\" \"\"\n"
    "end\n";

static void task_fields_read_through_layout(void **state)
{
        struct rig *r = *state;
        struct zm_engine *e = rig_start(r, (const char *const[]){"httpd", NULL});
        struct tk p[] = {{10, 100, 5, 1000, 400, 10, 300, "httpd", "/usr/sbin/httpd"}};
        pass(e, "LINUX01", T1, p, 1);
        assert_true(find(&r->g, "LINUX01", "httpd", "ps_vm")->gauge[0] == 1000.0 * 1024);
        assert_true(find(&r->g, "LINUX01", "httpd", "ps_rss")->gauge[0] == 400.0 * 1024);
        char err[256];
        assert_true(
            zl_load_text(task_swapped, strlen(task_swapped), "task_swapped", err, sizeof(err)));
        r->g.n = 0;
        pass(e, "LINUX01", T1 + 60, p, 1);
        zl_file_unload_all();
        assert_true(find(&r->g, "LINUX01", "httpd", "ps_vm")->gauge[0] == 400.0 * 1024);
        assert_true(find(&r->g, "LINUX01", "httpd", "ps_rss")->gauge[0] == 1000.0 * 1024);
        assert_true(find(&r->g, "LINUX01", "httpd", "ps_code")->gauge[0] == 10.0 * 1024);
}

/*
 * A pid reused by a new process is told by a counter that fell (doc/plugin.md).
 * The process is new for both counters, also the one that did not fall: a new
 * process adds its whole count.  (zvmsim --procd-churn's data found this.)
 */
static void reused_pid_new_for_both_counters(void **state)
{
        struct rig *r = *state;
        struct zm_engine *e = rig_start(r, (const char *const[]){"cron", "gzip", NULL});
        struct tk p1[] = {
            {20, 500, 3, 1000, 400, 10, 300, "httpd", "/usr/sbin/httpd -k start"},
            {21, 10, 9, 1000, 400, 10, 300, "gzip", "gzip -9 big.log"},
        };
        pass(e, "LINUX04", T1, p1, 2);
        r->g.n = 0;
        /* Pid 20: CPU time fell (500 -> 4), major faults did not (3 -> 5): a new cron.
         * Pid 21: major faults fell (9 -> 2), CPU time did not (10 -> 30): a new gzip. */
        struct tk p2[] = {
            {20, 4, 5, 1000, 400, 10, 300, "cron", "/usr/sbin/cron -f"},
            {21, 30, 2, 1000, 400, 10, 300, "gzip", "gzip -9 other.log"},
        };
        pass(e, "LINUX04", T1 + 60, p2, 2);
        assert_int_equal(find(&r->g, "LINUX04", "cron", "ps_cputime")->derive[0], 4 * 10000);
        assert_int_equal(find(&r->g, "LINUX04", "cron", "ps_pagefaults")->derive[1], 5);
        assert_int_equal(find(&r->g, "LINUX04", "gzip", "ps_cputime")->derive[0], 30 * 10000);
        assert_int_equal(find(&r->g, "LINUX04", "gzip", "ps_pagefaults")->derive[1], 2);
}

/* A pass stamped a day after the Interval End that closes it carries CP's time (VEC_TOD_2026). */
static void pass_stamped_far_ahead_takes_cps_time(void **state)
{
        struct rig *r = *state;
        struct zm_engine *e = rig_start(r, (const char *const[]){"httpd", NULL});
        struct tk p1[] = {{10, 100, 5, 1000, 400, 10, 300, "httpd", "/usr/sbin/httpd"}};
        pass(e, "LINUX01", T1 + 86400, p1, 1);
        const struct zm_metric *m = find(&r->g, "LINUX01", "httpd", "ps_count");
        assert_non_null(m);
        assert_true(m->tod == VEC_TOD_2026);
        assert_int_equal(zm_engine_counters(e)->appl_future, 1);
}

static void torn_pass_held_back(void **state)
{
        struct rig *r = *state;
        struct zm_engine *e = rig_start(r, (const char *const[]){"java", NULL});
        struct tk t[] = {{1, 100, 0, 10, 10, 1, 1, "java", "java -jar a.jar"},
                         {2, 100, 0, 10, 10, 1, 1, "java", "java -jar b.jar"}};
        pass(e, "LINUX02", T1, t, 2);
        r->g.n = 0;
        /* CP copied while mon_procd was writing: one buffer new, one old. */
        feed_task(e, "LINUX02", 0, T1 + 60, &t[0]);
        feed_task(e, "LINUX02", 2, T1, &t[1]);
        interval_end(e);
        assert_int_equal(r->g.n, 0);
        assert_int_equal(zm_engine_counters(e)->procd_torn, 1);
        t[0].total_time = 130;
        t[1].total_time = 110;
        pass(e, "LINUX02", T1 + 60, t, 2);
        assert_int_equal(find(&r->g, "LINUX02", "java", "ps_cputime")->derive[0], 40 * 10000);
}

/* A pass cut at mon_procd's 100 tasks: a pid not seen before may be old, so it adds nothing. */
static void full_pass_newcomer_adds_nothing(void **state)
{
        struct rig *r = *state;
        struct zm_engine *e = rig_start(r, (const char *const[]){"w", NULL});
        static struct tk t[100];
        for (uint32_t i = 0; i < 100; i++)
                t[i] = (struct tk){100 + i, 1000, 10, 1, 1, 1, 1, "w", "w"};
        pass(e, "LINUX03", T1, t, 100);
        r->g.n = 0;
        t[99].pid = 999; /* entered the top 100 with 1000/100 s behind it */
        for (int i = 0; i < 99; i++)
                t[i].total_time = 1001;
        pass(e, "LINUX03", T1 + 60, t, 100);
        assert_int_equal(find(&r->g, "LINUX03", "w", "ps_cputime")->derive[0], 99 * 10000);
        assert_true(find(&r->g, "LINUX03", "w", "ps_count")->gauge[0] == 100);
}

static void match_rules(void **state)
{
        struct rig *r = *state;
        char err[256];
        assert_true(
            zm_procsel_add(r->sel, "db", "^/usr/bin/(db2sysc|postgres)( |$)", err, sizeof(err)));
        assert_true(zm_procsel_add(r->sel, "kthreads", "^kworker", err, sizeof(err)));
        assert_true(zm_procsel_add(r->sel, "post", "postgres$", err, sizeof(err)));
        assert_true(zm_procsel_add(r->sel, "web", "httpd", err, sizeof(err)));
        assert_true(zm_procsel_add_guest(r->sel, "linux1*"));
        struct zm_engine *e = rig_start(r, NULL);
        struct tk t[] = {
            {1, 0, 0, 1, 1, 1, 1, "db2sysc", "/usr/bin/db2sysc"},
            {2, 0, 0, 1, 1, 1, 1, "postgres", "/usr/bin/postgres   "}, /* trailing blanks */
            {3, 0, 0, 1, 1, 1, 1, "kworker/0:1", ""},                  /* kernel thread */
            {4, 0, 0, 1, 1, 1, 1, "httpd", "/usr/sbin/httpd"},
        };
        pass(e, "LINUX10", T1, t, 4);
        assert_true(find(&r->g, "LINUX10", "db", "ps_count")->gauge[0] == 2);
        assert_true(find(&r->g, "LINUX10", "kthreads", "ps_count")->gauge[0] == 1);
        assert_true(find(&r->g, "LINUX10", "post", "ps_count")->gauge[0] == 1); /* in two entries */
        assert_true(find(&r->g, "LINUX10", "web", "ps_count")->gauge[0] == 1);
        r->g.n = 0;
        pass(e, "LINUX20", T1, t, 4);
        assert_null(find(&r->g, "LINUX20", "web", "ps_count")); /* Guest "LINUX1*" only */
        assert_non_null(find(&r->g, "LINUX20", "db", "ps_count"));
}

static void nothing_unless_configured(void **state)
{
        (void)state;
        struct got g = {0};
        struct zm_engine *e = engine(NULL, &g);
        struct tk t = {1, 5, 0, 1, 1, 1, 1, "httpd", "httpd"};
        pass(e, "LINUX01", T1, &t, 1);
        assert_int_equal(g.n, 0);
        zm_engine_free(e);
}

static void selection_refuses_bad_entries(void **state)
{
        (void)state;
        struct zm_procsel *sel = zm_procsel_new();
        char err[256];
        assert_false(zm_procsel_add(sel, "x", "(unclosed", err, sizeof(err)));
        assert_non_null(strstr(err, "\"x\": regular expression \"(unclosed\" does not compile"));
        assert_false(zm_procsel_add(sel, "", NULL, err, sizeof(err)));
        assert_false(zm_procsel_add(sel, "a/b", NULL, err, sizeof(err)));
        assert_false(zm_procsel_add(sel, "a\tb", NULL, err, sizeof(err)));
        char longname[200];
        memset(longname, 'n', sizeof(longname) - 1);
        longname[sizeof(longname) - 1] = 0;
        assert_false(zm_procsel_add(sel, longname, NULL, err, sizeof(err)));
        assert_true(zm_procsel_add(sel, "a", NULL, err, sizeof(err)));
        assert_false(zm_procsel_add(sel, "a", "b", err, sizeof(err)));
        assert_non_null(strstr(err, "configured twice"));
        assert_int_equal(zm_procsel_count(sel), 1);
        zm_procsel_free(sel);
}

static oconfig_value_t gvals[2];
static oconfig_item_t child;

static void plugin_options(void **state)
{
        (void)state;
        struct zvm_config c;
        zvm_config_defaults(&c);
        oconfig_item_t ci = item("Process", 1, "httpd", NULL);
        assert_int_equal(zvm_config_item(&c, &ci), 0);
        assert_ptr_equal(c.engine.procs, c.procs);
        ci = item("ProcessMatch", 2, "db", "^/usr/bin/db2");
        assert_int_equal(zvm_config_item(&c, &ci), 0);
        /* <ProcessMatch "web" "httpd"> Guest "LINUX0*" "WEB*" </ProcessMatch> */
        ci = item("ProcessMatch", 2, "web", "httpd");
        memset(&child, 0, sizeof(child));
        child.key = (char *)"Guest";
        child.values = gvals;
        child.values_num = 2;
        gvals[0].type = gvals[1].type = OCONFIG_TYPE_STRING;
        gvals[0].value.string = (char *)"linux0*";
        gvals[1].value.string = (char *)"WEB*";
        ci.children = &child;
        ci.children_num = 1;
        assert_int_equal(zvm_config_item(&c, &ci), 0);
        assert_int_equal(zm_procsel_count(c.procs), 3);
        assert_true(zm_procsel_guest(c.procs, 2, "LINUX01"));
        assert_true(zm_procsel_guest(c.procs, 2, "WEB7"));
        assert_false(zm_procsel_guest(c.procs, 2, "DB01"));
        assert_true(zm_procsel_guest(c.procs, 0, "DB01"));

        ci = item("ProcessMatch", 2, "bad", "a[");
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        assert_non_null(strstr(cd_lastlog, "ProcessMatch \"bad\": regular expression \"a[\""));
        /* Patterns regcomp would take gigabytes for (fuzz_config): refused, said why. */
        ci = item("ProcessMatch", 2, "stacked", "a+++++++++++++++++++++++++++");
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        assert_non_null(strstr(cd_lastlog, "repetition operators one after another"));
        ci = item("ProcessMatch", 2, "counts", "(ab){300}");
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        assert_non_null(strstr(cd_lastlog, "above 255"));
        ci = item("ProcessMatch", 2, "brackets", "^[+*?]{2,3}x+$"); /* literal inside [] */
        assert_int_equal(zvm_config_item(&c, &ci), 0);
        ci = item("ProcessMatch", 1, "x", NULL);
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        assert_non_null(strstr(cd_lastlog, "two strings"));
        ci = item("Process", 2, "x", "y");
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        ci = item("Process", 1, "httpd", NULL);
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        assert_non_null(strstr(cd_lastlog, "configured twice"));
        ci = item("Process", 1, "other", NULL);
        child.key = (char *)"Host";
        ci.children = &child;
        ci.children_num = 1;
        assert_int_not_equal(zvm_config_item(&c, &ci), 0);
        assert_non_null(strstr(cd_lastlog, "only Guest"));
        zvm_config_free(&c);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test_setup_teardown(workers_summed_and_counters_kept, rig_setup,
                                            rig_teardown),
            cmocka_unit_test_setup_teardown(reused_pid_new_for_both_counters, rig_setup,
                                            rig_teardown),
            cmocka_unit_test_setup_teardown(torn_pass_held_back, rig_setup, rig_teardown),
            cmocka_unit_test_setup_teardown(pass_stamped_far_ahead_takes_cps_time, rig_setup,
                                            rig_teardown),
            cmocka_unit_test_setup_teardown(full_pass_newcomer_adds_nothing, rig_setup,
                                            rig_teardown),
            cmocka_unit_test_setup_teardown(match_rules, rig_setup, rig_teardown),
            cmocka_unit_test_setup_teardown(task_fields_read_through_layout, rig_setup,
                                            rig_teardown),
            cmocka_unit_test(nothing_unless_configured),
            cmocka_unit_test(selection_refuses_bad_entries),
            cmocka_unit_test(plugin_options),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
