/* SPDX-License-Identifier: MIT */
/*
 * zm_engine_record_read (metric.h): a record read once for the consumer
 * and the engine makes what zm_engine_record makes of it, metric for
 * metric and line for line, under either CP reading and for records that
 * stop short of their fields; and the consumer sees zl_find_cp's layout
 * and zl_reader's integers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cp_feed.h"
#include "layout/layout.h"

static struct feed *feed_pinned(const char *reading, bool read)
{
        struct feed *f = calloc(1, sizeof(*f));
        assert_non_null(f);
        struct zm_options o = {.unverified = 1, .verify_intervals = 2, .cp_reading = reading};
        f->e = zm_engine_new(&o, feed_emit, feed_log, f);
        assert_non_null(f->e);
        f->read = read;
        return f;
}

/* Three intervals of CPUs, a guest's two virtual CPUs, one USEACT cut short of its slots. */
static void scenario(struct feed *f)
{
        for (unsigned k = 0; k < 3; k++) {
                uint64_t t = SEC(60) * (k + 1);
                for (unsigned cpu = 0; cpu < 2; cpu++) {
                        feed_sytprp(f, t, cpu, US(1000000 - 5000 * k), US(10000 * k + cpu),
                                    US(3000 * k), US(40000 * k));
                        feed_sytsyp(f, t, cpu, 10 * k, 100 * k + cpu, 7 * k, 3 * k);
                }
                for (unsigned v = 0; v < 2; v++)
                        feed_useact(f, t, "LINUX01", v, US(20000 * k + v), US(15000 * k), 1000 + k,
                                    5 * k, 2 * k);
                feed_useact(f, t, "LINUX02", 0, US(9000 * k), US(8000 * k), 500, k, k);
                feed_rec(f, 100); /* the same bytes cut to 100: no layout's slots are all in */
                feed_end(f, t + 1);
        }
}

static void same_feeds(const struct feed *a, const struct feed *b)
{
        assert_int_equal(a->n, b->n);
        assert_true(a->n > 20);
        for (size_t i = 0; i < a->n; i++) {
                const struct zm_metric *x = &a->m[i], *y = &b->m[i];
                assert_string_equal(x->plugin_instance, y->plugin_instance);
                assert_string_equal(x->type, y->type);
                assert_string_equal(x->type_instance, y->type_instance);
                assert_string_equal(x->guest, y->guest);
                assert_int_equal(x->nvalues, y->nvalues);
                assert_true(x->tod == y->tod);
                assert_true((x->check == NULL) == (y->check == NULL));
                for (size_t v = 0; v < x->nvalues; v++) {
                        assert_int_equal(x->ds[v], y->ds[v]);
                        assert_memory_equal(&x->gauge[v], &y->gauge[v], sizeof(double));
                        assert_true(x->derive[v] == y->derive[v]);
                }
        }
        assert_int_equal(a->nlog, b->nlog);
        for (size_t i = 0; i < a->nlog; i++)
                assert_string_equal(a->log[i], b->log[i]);
}

static void read_makes_what_record_makes(void **state)
{
        (void)state;
        static const char *const readings[] = {NULL, "packed", "aligned"};
        for (size_t k = 0; k < 3; k++) {
                struct feed *a = feed_pinned(readings[k], false),
                            *b = feed_pinned(readings[k], true);
                scenario(a);
                scenario(b);
                same_feeds(a, b);
                feed_free(a);
                feed_free(b);
        }
}

/* What the consumer sees: zl_find_cp's layout, and every field as zl_read_ints reads it. */
static void consumer_sees_the_reading(void **state)
{
        (void)state;
        struct feed *f = feed_pinned("aligned", true);
        static const size_t lens[] = {508, 364, 352, 100, 19, 4000};
        for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
                for (size_t i = 0; i < lens[k]; i++)
                        f->buf[i] = (uint8_t)(0x35 * i + k);
                vec_hdr(f->buf, lens[k] < 20 ? 20 : lens[k], k % 2 ? 0 : 4, k % 2 ? 2 : 3, SEC(5));
                struct zd_record r;
                memset(&r, 0, sizeof(r));
                r.rec = zd_view_make(f->buf, lens[k]);
                r.domain = k % 2 ? 0 : 4;
                r.number = k % 2 ? 2 : 3;
                r.kind = 'S';
                const struct zm_read *rd = zm_engine_record_read(f->e, &r);
                assert_non_null(rd);
                const struct zl_layout *l = zl_find_cp(r.domain, r.number, r.rec.n);
                assert_ptr_equal(rd->layout, l);
                if (!l) {
                        assert_null(rd->reader);
                        continue;
                }
                assert_non_null(rd->reader);
                assert_ptr_equal(rd->reader->l, l);
                uint64_t want[ZL_READER_MAX];
                assert_int_equal(zl_read_ints(l, r.rec, 0, want, l->nfields), l->nfields);
                assert_memory_equal(rd->u, want, l->nfields * sizeof(want[0]));
                size_t in = 0;
                for (size_t i = 0; i < l->nfields; i++)
                        in += zl_inside(&l->fields[i], r.rec) && l->fields[i].type != ZL_RSVD;
                assert_int_equal(rd->inside, in);
        }
        feed_free(f);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(read_makes_what_record_makes),
            cmocka_unit_test(consumer_sees_the_reading),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
