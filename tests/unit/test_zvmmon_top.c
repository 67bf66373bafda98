/* SPDX-License-Identifier: MIT */
/*
 * zvmmon top's model and text apart from any input (doc/zvmmon.md, top):
 * messages queue with the interval being read when they came and come out
 * oldest first, however the ring has grown; a table without a time says so
 * (title "time unknown", JSON "time": null), never the TOD epoch; a replay is
 * paced by the TODs where they increase, else by the interval's length.
 */
#include "vec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../zvmmon/top.h"

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
        static struct top_row row = {"LINUX001", {{0, TOP_NODATA}}};
        struct top_frame f = {.seq = 3, .tod = tod, .interval = 60, .ncpu = 2, .nrows = 1};
        snprintf(f.system, sizeof(f.system), "ZVMSIM");
        f.rows = &row;
        return f;
}

/* What top -b --json prints for frame f, sorted by column sort (the caller frees it). */
static char *batch_json(const struct top_frame *f, int sort)
{
        char *buf = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&buf, &len);
        assert_non_null(out);
        struct top_batch *b = top_batch_new(out, true, sort, NULL);
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
        struct top_row row = {"LINUX001", {{0, TOP_NODATA}}};
        row.c[TOP_CPU] = (struct top_cell){NAN, TOP_NUM};
        row.c[TOP_VCPU] = (struct top_cell){INFINITY, TOP_NUM};
        row.c[TOP_PAGE] = (struct top_cell){2.5, TOP_NUM};
        struct top_frame f = frame(0);
        f.rows = &row;
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
        top_fmt_sys(line, sizeof(line), &f);
        assert_int_equal(strncmp(line, "cpus 2 busy", 11), 0);
        char *buf = batch_json(&f, TOP_CPU);
        assert_non_null(strstr(buf, "\"cpus\":2,"));
        free(buf);

        f.ncpu = 0;
        top_fmt_sys(line, sizeof(line), &f);
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

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(notes_come_in_order_with_their_interval),
            cmocka_unit_test(too_many_notes_are_counted_not_kept),
            cmocka_unit_test(no_time_is_unknown_not_1900),
            cmocka_unit_test(a_cell_that_is_not_a_number_is_null),
            cmocka_unit_test(no_busy_figure_is_no_cpu_count),
            cmocka_unit_test(replays_are_paced_whatever_the_time),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
