/* SPDX-License-Identifier: MIT */
/*
 * Per-value work must not grow with the size of the system.  A z/VM of 1,000
 * guests and one of 20,000 (a USEACT record per guest, a Linux OS record for
 * every fifth guest, an IODDEV record for every fifth) go through the whole
 * pipeline: CP tables, the metric engine with its series cap, the plugin's
 * dispatcher.  Nothing is timed: the hash tables count their probes
 * (hash.h), and every allocation the pipeline makes is counted through the
 * linker (--wrap, see plugin/module.mk).  In the steady state a value list
 * must cost about the same number of probes at both sizes, and no allocation.
 */
#include "vec_appl.h"
#include "cd_stubs.h"
#include "cp_feed.h"
#include "base/hash.h"
#include "zvm.h"
#include "alloc_wrap.h"

#define T0 VEC_TOD_2026

static size_t allocs;

static void alloc_seen(size_t n)
{
        (void)n;
        allocs++;
}

/* D6R3 IODDEV, 202 bytes (doc/metrics-cp.md, zpmd's z/VM 5.3 layout): 52 SCMSSCH (16 bits),
 * 192 SCGSSCH (32 bits), 200 RDEVDEV. */
static void feed_ioddev(struct feed *f, uint64_t tod, unsigned dev, uint32_t ssch)
{
        memset(f->buf, 0, 202);
        vec_hdr(f->buf, 202, 6, 3, tod);
        be16(f->buf + 52, (uint16_t)ssch);
        be32(f->buf + 192, ssch);
        be16(f->buf + 200, (uint16_t)dev);
        feed_rec(f, 202);
}

struct run {
        size_t values;        /* value lists dispatched in the measured intervals */
        uint64_t probes;      /* hash probes in the measured intervals */
        size_t allocs;        /* allocations in the measured intervals */
        size_t series_capped; /* must stay 0: every guest is within its cap */
};

/*
 * One interval.  CP writes the records of an interval in much the same order
 * each time, which the tables exploit; shuffled, the guests come in another
 * order every interval (k * p mod guests is a permutation for a prime p that
 * divides neither size, and each interval has its own p), so the lookups of
 * each guest's records go through the hash index.
 */
static void interval(struct feed *f, unsigned guests, unsigned i, bool shuffled)
{
        uint64_t tod = T0 + SEC(60) * i;
        char user[9];
        uint8_t d10[1024], data[512], prodid[16];
        vec_lx_prodid(prodid, 2, "01");
        for (unsigned k = 0; k < guests; k++) {
                static const unsigned long long p[] = {7919, 7927, 7933, 7937, 7949};
                unsigned g = shuffled ? (unsigned)(k * p[i % 5] % guests) : k;
                snprintf(user, sizeof(user), "U%07u", g);
                feed_useact(f, tod, user, 0, US(1000000ull * i), US(500000ull * i), 100 + g % 7,
                            10 * i, 5 * i);
                if (g % 5 == 0) {
                        size_t n = vec_lx_os(data, 2, 36, tod + g);
                        size_t len = vec_d10(d10, 2, user, prodid, data, (uint16_t)n);
                        struct zd_record r = vec_record(d10, len);
                        zm_engine_record(f->e, &r);
                        feed_ioddev(f, tod, 0x1000 + g / 5, 20 * i);
                }
        }
        feed_end(f, tod + SEC(1));
}

static struct run run(unsigned guests, bool shuffled)
{
        struct run out = {0};
        struct zvm_config c;
        zvm_config_defaults(&c);
        c.engine.unverified = 1; /* hint fields published: the most values per record */
        struct zvm_pipe p;
        assert_true(zvm_pipe_init(&p, &c));
        struct feed *f = feed_new(1, 3);
        zm_engine_free(f->e);
        f->e = p.eng;
        cd_count_only = true;
        cd_ncounted = 0;
        /* Intervals 0 to 4 fill the tables, name every series and lay them out in
         * the order their values come. */
        for (unsigned i = 0; i < 5; i++) {
                interval(f, guests, i, shuffled);
                zvm_dispatch_interval_end(p.disp); /* as the pipe's after the engine's */
                zvm_dispatch_flush(p.disp);        /* as the end of a data set does */
        }
        size_t v0 = cd_ncounted, a0 = allocs;
        uint64_t p0 = zh_probes();
        for (unsigned i = 5; i < 8; i++) {
                interval(f, guests, i, shuffled);
                zvm_dispatch_interval_end(p.disp);
                zvm_dispatch_flush(p.disp);
        }
        out.values = cd_ncounted - v0;
        out.probes = zh_probes() - p0;
        out.allocs = allocs - a0;
        out.series_capped = zm_engine_counters(p.eng)->series_capped;
        cd_count_only = false;
        f->e = NULL;
        feed_free(f);
        zvm_pipe_destroy(&p);
        zvm_config_free(&c);
        return out;
}

static void check_flat(bool shuffled)
{
        zh_count_probes(true);
        struct run small = run(1000, shuffled), big = run(20000, shuffled);
        double ps = (double)small.probes / (double)small.values;
        double pb = (double)big.probes / (double)big.values;
        const char *order = shuffled ? "shuffled" : "same order";
        printf("   1,000 guests, %s: %zu value lists, %.2f probes each, %zu allocations\n", order,
               small.values, ps, small.allocs);
        printf("  20,000 guests, %s: %zu value lists, %.2f probes each, %zu allocations\n", order,
               big.values, pb, big.allocs);
        /* Both runs really produced their guests' values: CP per guest, Linux, devices
         * (one for every 5 guests, so the values come in groups of 5 guests). */
        size_t per5 = (big.values - small.values) / 3800;
        assert_int_equal(big.values - small.values, per5 * 3800);
        assert_true(per5 >= 5 * 3 * 5);               /* 3 intervals, 5+ values a guest */
        assert_true(small.values - per5 * 200 < 100); /* the rest: system-wide values */
        assert_int_equal(small.series_capped, 0);
        assert_int_equal(big.series_capped, 0);
        /* A hash table at most half full averages under 2.5 probes; a scan would be ~1000x. */
        assert_true(ps < 8 && pb < 8);
        assert_true(pb < ps * 1.5 + 0.1);
        if (!shuffled) {
                assert_int_equal(small.allocs, 0);
                assert_int_equal(big.allocs, 0);
        } else { /* an order that changes every interval: a layout now and then, not per value */
                assert_true(small.allocs < 100 && big.allocs < 1000);
        }
}

static void per_value_work_is_flat(void **state)
{
        (void)state;
        check_flat(false);
}

static void per_value_work_is_flat_in_any_order(void **state)
{
        (void)state;
        check_flat(true);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(per_value_work_is_flat),
            cmocka_unit_test(per_value_work_is_flat_in_any_order),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
