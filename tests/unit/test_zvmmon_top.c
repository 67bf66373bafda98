/* SPDX-License-Identifier: MIT */
/*
 * zvmmon top's model and text apart from any input (doc/zvmmon.md, top):
 * messages queue with the interval being read when they came and come out
 * oldest first, however the ring has grown; a table without a time says so
 * (title "time unknown", JSON "time": null), never the TOD epoch; a replay is
 * paced by the TODs where they increase, else by the interval's length.
 * The screens' text: numbers fit their columns or say they do not, the
 * system line is never cut mid-number, storage is in GiB, a device's times
 * are per SSCH, sort and reverse, the scroll window.
 */
#include "vec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../zvmmon/top_model.h"

static void notes_come_in_order_with_their_interval(void **state)
{
        (void)state;
        struct top_model *t = top_model_new();
        assert_non_null(t);
        struct top_note n;
        char msg[32];
        /* Interleaved puts and takes wrap the ring before it grows. */
        for (int i = 0, next = 0; i < 100; i++) {
                snprintf(msg, sizeof(msg), "m%d", i);
                top_model_note(t, 4, msg);
                if (i % 3 == 2)
                        for (int k = 0; k < 2; k++) {
                                assert_true(top_model_take_note(t, 1, &n));
                                snprintf(msg, sizeof(msg), "m%d", next++);
                                assert_string_equal(n.text, msg);
                                assert_int_equal(n.interval, 1); /* no table yet: the first */
                                assert_int_equal(n.level, 4);
                        }
        }
        assert_false(top_model_take_note(t, 0, &n)); /* none for interval 0 */
        int left = 0;
        while (top_model_take_note(t, UINT64_MAX, &n))
                left++;
        assert_int_equal(left, 100 - 2 * 33);
        assert_int_equal(top_model_notes_dropped(t), 0);
        top_model_free(t); /* with none queued: and below, with some */
        t = top_model_new();
        top_model_note(t, 6, "kept until freed");
        top_model_free(t);
}

static void too_many_notes_are_counted_not_kept(void **state)
{
        (void)state;
        struct top_model *t = top_model_new();
        assert_non_null(t);
        for (int i = 0; i < 5000; i++)
                top_model_note(t, 5, "guest X: APPLDATA unusable");
        assert_int_equal(top_model_notes_dropped(t), 5000 - 4096);
        top_model_free(t);
}

static struct top_frame frame(uint64_t tod)
{
        static struct top_row row = {"LINUX001", 0, {{0, TOP_NODATA, 0}}};
        struct top_frame f = {.seq = 3, .tod = tod, .interval = 60, .ncpu = 2};
        snprintf(f.system, sizeof(f.system), "ZVMSIM");
        f.t[TOP_SCR_GUESTS].rows = &row;
        f.t[TOP_SCR_GUESTS].nrows = 1;
        return f;
}

/* Options as zvmmon top's defaults, on screen scr, sorted by column sort. */
static struct top_opts opts(int scr, int sort)
{
        struct top_opts o = {.scr = scr};
        for (int k = 0; k < TOP_NSCR; k++)
                o.sort[k] = top_screens[k].sort;
        if (scr < TOP_NSCR)
                o.sort[scr] = sort;
        return o;
}

/* What top -b --json prints for frame f, sorted by column sort (the caller frees it). */
static char *batch_json(const struct top_frame *f, int sort)
{
        char *buf = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&buf, &len);
        assert_non_null(out);
        struct top_opts o = opts(TOP_SCR_GUESTS, sort);
        struct top_batch *b = top_batch_new(out, true, &o);
        assert_non_null(b);
        top_batch_frame(b, f);
        top_batch_free(b);
        fclose(out);
        return buf;
}

static void no_time_is_unknown_not_1900(void **state)
{
        (void)state;
        char line[256];
        struct top_frame f = frame(0);
        top_fmt_title(line, sizeof(line), &f);
        assert_non_null(strstr(line, "time unknown"));
        assert_null(strstr(line, "1900"));
        f = frame(UINT64_C(0xE39E27149C000000)); /* 2026-11-22 00:00:00 */
        top_fmt_title(line, sizeof(line), &f);
        assert_non_null(strstr(line, "2026-11-22 00:00:00 UTC  interval 3 (60 s)"));

        f = frame(0);
        char *buf = batch_json(&f, TOP_CPU);
        assert_non_null(strstr(buf, "\"time\":null"));
        assert_non_null(strstr(buf, "\"tod\":0"));
        assert_null(strstr(buf, "1900"));
        free(buf);
}

/* JSON has no NaN or infinity: such a cell is null, and the line stays JSON. */
static void a_cell_that_is_not_a_number_is_null(void **state)
{
        (void)state;
        struct top_row row = {"LINUX001", 0, {{0, TOP_NODATA, 0}}};
        row.c[TOP_CPU] = (struct top_cell){NAN, TOP_NUM};
        row.c[TOP_VCPU] = (struct top_cell){INFINITY, TOP_NUM};
        row.c[TOP_PAGE] = (struct top_cell){2.5, TOP_NUM};
        struct top_frame f = frame(0);
        f.t[TOP_SCR_GUESTS].rows = &row;
        char *buf = batch_json(&f, TOP_PAGE);
        assert_null(strstr(buf, "nan"));
        assert_null(strstr(buf, "inf"));
        assert_non_null(strstr(buf, "\"cpu\":null"));
        assert_non_null(strstr(buf, ":2.5"));
        free(buf);
}

/*
 * The first interval has no busy figure for any CPU (busy is a rate): the
 * count of processors is unknown then, "-" and null, never "cpus 0".
 */
static void no_busy_figure_is_no_cpu_count(void **state)
{
        (void)state;
        char line[256];
        struct top_frame f = frame(0);
        top_fmt_sys(line, sizeof(line), &f, 0, 0);
        assert_int_equal(strncmp(line, "cpus 2 busy", 11), 0);
        char *buf = batch_json(&f, TOP_CPU);
        assert_non_null(strstr(buf, "\"cpus\":2,"));
        free(buf);

        f.ncpu = 0;
        top_fmt_sys(line, sizeof(line), &f, 0, 0);
        assert_int_equal(strncmp(line, "cpus - busy", 11), 0);
        buf = batch_json(&f, TOP_CPU);
        assert_non_null(strstr(buf, "\"cpus\":null,"));
        assert_null(strstr(buf, "\"cpus\":0"));
        free(buf);
}

static void replays_are_paced_whatever_the_time(void **state)
{
        (void)state;
        uint64_t min = UINT64_C(60) * 1000000 * 4096; /* a minute of TOD */
        struct top_frame f = frame(UINT64_C(0xE39E27149C000000) + min / 2);
        assert_true(top_gap(UINT64_C(0xE39E27149C000000), &f) == 30);
        assert_true(top_gap(UINT64_C(0xE39E27149C000000) + min, &f) == 60); /* steps back */
        assert_true(top_gap(f.tod, &f) == 60);                              /* no step */
        f = frame(0);
        assert_true(top_gap(0, &f) == 60); /* no time */
        f.interval = 0;
        assert_true(top_gap(0, &f) == 0); /* nothing known: no wait */
}

/*
 * A number never overruns its column, and never loses digits silently: it
 * gives up decimals, then takes k, M, G or T (1000s), and where nothing fits
 * shows '>'.
 */
static void numbers_fit_their_width_or_say_so(void **state)
{
        (void)state;
        char s[32];
        top_fmt_num(s, sizeof(s), 12.345, 6, 2);
        assert_string_equal(s, "12.35"); /* fits as asked: rounded, not cut */
        top_fmt_num(s, sizeof(s), 123456.7, 7, 1);
        assert_string_equal(s, "123457"); /* the decimal goes first */
        top_fmt_num(s, sizeof(s), 1234567890, 6, 0);
        assert_string_equal(s, "1235M");
        top_fmt_num(s, sizeof(s), 1500000, 4, 2);
        assert_string_equal(s, "1.5M"); /* with a suffix, one decimal at most */
        top_fmt_num(s, sizeof(s), 1234567890, 2, 0);
        assert_string_equal(s, "1G");
        top_fmt_num(s, sizeof(s), 1234567890, 1, 0);
        assert_string_equal(s, ">");
        top_fmt_num(s, sizeof(s), 120, 0, 0); /* width 0: no limit */
        assert_string_equal(s, "120");
}

/* A frame whose system line holds a large system's figures. */
static struct top_frame big_system(void)
{
        struct top_frame f = frame(0);
        f.ncpu = 64;
        f.sys[TOP_S_BUSY] = (struct top_cell){99.5, TOP_NUM, 0};
        f.sys[TOP_S_USED] = (struct top_cell){12345.678, TOP_NUM, 0};
        f.sys[TOP_S_FREE] = (struct top_cell){2345.5, TOP_NUM, 0};
        f.sys[TOP_S_PAGE] = (struct top_cell){123456.7, TOP_NUM, 0};
        f.sys[TOP_S_USERS] = (struct top_cell){12000, TOP_NUM, 0};
        return f;
}

/*
 * The system line at a given width: whole fields only, each as it reads
 * without a limit, "" >" at the end when some are left for a second line,
 * and the two lines together hold every field (today's bug: "users 120" cut
 * to "users 12" at 80 columns).
 */
static void the_system_line_is_never_cut_mid_number(void **state)
{
        (void)state;
        struct top_frame f = big_system();
        char full[256], a[256], b[256];
        assert_int_equal(top_fmt_sys(full, sizeof(full), &f, 0, 0), TOP_NSYS);
        assert_non_null(strstr(full, "used 12345.68 GiB"));
        assert_non_null(strstr(full, "users 12000"));
        assert_true(strlen(full) > 80); /* too long for 80 columns */
        for (int width = 20; width <= 100; width++) {
                int k = top_fmt_sys(a, sizeof(a), &f, width, 0);
                assert_true((int)strlen(a) <= width);
                assert_true(k >= 1 && k <= TOP_NSYS);
                if (k == TOP_NSYS) {
                        assert_string_equal(a, full);
                        continue;
                }
                size_t la = strlen(a);
                assert_string_equal(a + la - 2, " >");
                a[la - 2] = 0;
                assert_int_equal(strncmp(full, a, strlen(a)), 0); /* whole fields, in order */
                int k2 = top_fmt_sys(b, sizeof(b), &f, width, k);
                size_t lb = strlen(b);
                if (k2 < TOP_NSYS) /* narrower than two lines: still marked */
                        assert_string_equal(b + lb - 2, " >");
                else {
                        assert_string_equal(full + strlen(a) + 2, b);
                        assert_true((int)lb <= width);
                }
        }
        int k = top_fmt_sys(a, sizeof(a), &f, 80, 0);
        top_fmt_sys(b, sizeof(b), &f, 80, k);
        assert_non_null(strstr(b, "users 12000"));
}

static struct zm_metric metric(const char *pi, const char *type, const char *ti, uint64_t tod)
{
        struct zm_metric m = {.scope = ZM_SYSTEM,
                              .host = "",
                              .plugin = "zvm",
                              .plugin_instance = pi,
                              .type = type,
                              .type_instance = ti,
                              .nvalues = 1,
                              .tod = tod,
                              .domain = 0};
        return m;
}

static const struct top_row *find(const struct top_table *t, const char *key)
{
        for (size_t i = 0; i < t->nrows; i++)
                if (strcmp(t->rows[i].key, key) == 0)
                        return &t->rows[i];
        return NULL;
}

/* Storage in GiB (bytes / 2^30), pageable = used + free, on the screen and the system line. */
static void storage_is_shown_in_gib(void **state)
{
        (void)state;
        struct top_model *t = top_model_new();
        assert_non_null(t);
        struct zm_metric m = metric("storage", "memory", "used", 1);
        m.gauge[0] = 3.0 * 1073741824;
        top_on_metric(t, &m);
        m = metric("storage", "memory", "free", 1);
        m.gauge[0] = 0.5 * 1073741824;
        top_on_metric(t, &m);
        m = metric("storage", "mystery", "new", 1); /* a value no feed names still shows */
        m.gauge[0] = 7;
        top_on_metric(t, &m);
        assert_true(t->sys[TOP_S_USED].v == 3.0);
        struct top_frame f = {0};
        assert_true(top_tab_frame(t, TOP_SCR_STORAGE, &f));
        const struct top_table *tb = &f.t[TOP_SCR_STORAGE];
        assert_int_equal(tb->nrows, 4);
        assert_true(find(tb, "storage used GiB")->c[0].v == 3.0);
        assert_true(find(tb, "storage pageable GiB")->c[0].v == 3.5);
        assert_non_null(find(tb, "storage mystery-new"));
        char line[256];
        top_fmt_row(line, sizeof(line), TOP_SCR_STORAGE, find(tb, "storage pageable GiB"));
        assert_non_null(strstr(line, " 3.50"));
        free(tb->rows);
        top_model_free(t);
}

/*
 * A device's times per SSCH (connect, pending...): the rate of the time over
 * the rate of SSCH, both from two consecutive values; no I/O: "-".
 */
static void device_times_are_per_ssch(void **state)
{
        (void)state;
        struct top_model *t = top_model_new();
        uint64_t sec = UINT64_C(4096000000);
        const char *dev[2] = {"device-0200", "device-0201"};
        for (int i = 0; i < 2; i++) /* two intervals, 60 s apart */
                for (int d = 0; d < 2; d++) {
                        struct zm_metric m = metric(dev[d], "operations", "ssch", sec * 60 * i);
                        m.derive[0] = d == 0 ? 600 * i : 0; /* 10 SSCH/s on 0200, none on 0201 */
                        top_on_metric(t, &m);
                        m = metric(dev[d], "total_time_in_ms", "connect", sec * 60 * i);
                        m.derive[0] = 1200 * i; /* 20 ms/s: 2 ms per SSCH on 0200 */
                        top_on_metric(t, &m);
                }
        struct top_frame f = {0};
        assert_true(top_tab_frame(t, TOP_SCR_DEVICES, &f));
        const struct top_table *tb = &f.t[TOP_SCR_DEVICES];
        const struct top_row *r = find(tb, "0200");
        assert_non_null(r);
        assert_int_equal(top_col_by_name(TOP_SCR_DEVICES, "connect_ms"), 1);
        assert_true(r->c[0].mark == TOP_NUM && r->c[0].v == 10);
        assert_true(r->c[1].mark == TOP_NUM && fabs(r->c[1].v - 2) < 1e-9);
        r = find(tb, "0201");
        assert_int_equal(r->c[1].mark, TOP_NODATA);
        free(tb->rows);
        top_model_free(t);
}

static struct top_row trow(const char *key, uint32_t pos, double v, uint8_t mark)
{
        struct top_row r = {.pos = pos};
        snprintf(r.key, sizeof(r.key), "%s", key);
        r.c[0] = (struct top_cell){v, mark, 0};
        return r;
}

static void order_of(struct top_frame *f, struct top_sort s, const char *want)
{
        size_t idx[8];
        char got[128] = "";
        size_t n = top_order(f, &s, idx);
        for (size_t i = 0; i < n; i++)
                snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", i ? " " : "",
                         f->t[s.scr].rows[idx[i]].key);
        assert_string_equal(got, want);
}

/*
 * Largest first, reverse smallest first; a cell with no number last either
 * way; keys with numbers in order of the numbers (2 before 10); the storage
 * screen's key order is the order its rows were made.
 */
static void sort_and_reverse(void **state)
{
        (void)state;
        struct top_row rows[5] = {trow("10", 4, 5, TOP_NUM), trow("2", 3, 9, TOP_NUM),
                                  trow("1", 2, 0, TOP_NODATA), trow("3", 1, 5, TOP_NUM),
                                  trow("0", 0, 0, TOP_UNPROVEN)};
        struct top_frame f = {0};
        f.t[TOP_SCR_CPUS] = (struct top_table){rows, 5};
        order_of(&f, (struct top_sort){TOP_SCR_CPUS, 0, false, NULL}, "2 3 10 0 1");
        order_of(&f, (struct top_sort){TOP_SCR_CPUS, 0, true, NULL}, "3 10 2 0 1");
        order_of(&f, (struct top_sort){TOP_SCR_CPUS, TOP_BY_KEY, false, NULL}, "0 1 2 3 10");
        order_of(&f, (struct top_sort){TOP_SCR_CPUS, TOP_BY_KEY, true, NULL}, "10 3 2 1 0");
        order_of(&f, (struct top_sort){TOP_SCR_CPUS, TOP_BY_KEY, false, "1*"}, "1 10");
        f.t[TOP_SCR_STORAGE] = f.t[TOP_SCR_CPUS];
        f.t[TOP_SCR_CPUS] = (struct top_table){0};
        order_of(&f, (struct top_sort){TOP_SCR_STORAGE, TOP_BY_KEY, false, NULL}, "0 3 1 2 10");
}

/* The window of rows: within 0 ... n - rows, whatever the move; fewer rows than a page: 0. */
static void scrolling_stays_in_range(void **state)
{
        (void)state;
        assert_int_equal(top_scroll(0, 1, 120, 30), 1);
        assert_int_equal(top_scroll(0, 30, 120, 30), 30);
        assert_int_equal(top_scroll(80, 30, 120, 30), 90); /* the last page: rows 91-120 */
        assert_int_equal(top_scroll(0, 1L << 30, 120, 30), 90);
        assert_int_equal(top_scroll(90, -(1L << 30), 120, 30), 0);
        assert_int_equal(top_scroll(5, -30, 120, 30), 0);
        assert_int_equal(top_scroll(100, 0, 120, 30), 90); /* the table shrank */
        assert_int_equal(top_scroll(3, 1, 10, 30), 0);     /* all on one page */
}

/* A key longer than its column ends in '>', and the columns after it stay in place. */
static void a_long_key_is_marked(void **state)
{
        (void)state;
        struct top_row r = trow("STORAGE-SOMETHING-VERY-LONG-INDEED-AND-MORE", 0, 1, TOP_NUM);
        char line[256], head[256];
        top_fmt_row(line, sizeof(line), TOP_SCR_STORAGE, &r);
        top_fmt_head(head, sizeof(head), TOP_SCR_STORAGE);
        assert_int_equal(strlen(line), strlen(head));
        int w, x = top_fmt_col_x(TOP_SCR_STORAGE, 0, &w);
        assert_int_equal(line[x - 1], '>');
        assert_int_equal(x + w, (int)strlen(head));
}

/* Screens by key and name, columns by each screen's own keys. */
static void screens_and_their_keys(void **state)
{
        (void)state;
        assert_int_equal(top_scr_by_name("devices"), TOP_SCR_DEVICES);
        assert_int_equal(top_scr_by_name("2"), TOP_SCR_CPUS);
        assert_int_equal(top_scr_by_name("all"), TOP_NSCR);
        assert_int_equal(top_scr_by_name("nope"), -1);
        assert_int_equal(top_col_by_key(TOP_SCR_GUESTS, 'r'), TOP_RES);
        assert_int_equal(top_col_by_key(TOP_SCR_GUESTS, 'u'), TOP_BY_KEY);
        assert_int_equal(top_col_by_name(TOP_SCR_VNICS, "tx_bytes"), 1);
        assert_int_equal(top_col_by_key(TOP_SCR_CPUS, 'q'), -1); /* quit, on every screen */
        for (int s = 0; s < TOP_NSCR; s++) {
                const struct top_scrdef *d = &top_screens[s];
                assert_true(d->ncol <= TOP_MAXCOL);
                for (int k = 0; k < d->ncol; k++) /* no column key that is a global key */
                        assert_null(strchr("qnhR/? 123456", d->cols[k].key));
        }
        char line[128];
        top_fmt_screens(line, sizeof(line), TOP_SCR_LPAR);
        assert_non_null(strstr(line, "[3 LPAR]"));
        assert_true(strlen(line) <= 80);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(notes_come_in_order_with_their_interval),
            cmocka_unit_test(too_many_notes_are_counted_not_kept),
            cmocka_unit_test(no_time_is_unknown_not_1900),
            cmocka_unit_test(a_cell_that_is_not_a_number_is_null),
            cmocka_unit_test(no_busy_figure_is_no_cpu_count),
            cmocka_unit_test(replays_are_paced_whatever_the_time),
            cmocka_unit_test(numbers_fit_their_width_or_say_so),
            cmocka_unit_test(the_system_line_is_never_cut_mid_number),
            cmocka_unit_test(storage_is_shown_in_gib),
            cmocka_unit_test(device_times_are_per_ssch),
            cmocka_unit_test(sort_and_reverse),
            cmocka_unit_test(scrolling_stays_in_range),
            cmocka_unit_test(a_long_key_is_marked),
            cmocka_unit_test(screens_and_their_keys),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
