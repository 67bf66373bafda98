/* SPDX-License-Identifier: MIT */
/*
 * Laws at scale, and laws whose verified side is missing.  A 20,000-guest
 * zvmsim file once lost its SYTSYP and SYTPRP records and the device-ssch
 * law held on "4000 devices, 991215 SSCH/RSCH of 0 executed": a law must not
 * hold when the numbers it compares contradict it or are not there.
 * Records are written by hand from doc/facts/cp-records.md (offsets below).
 */
#include "cp_feed.h"

#define T0      VEC_TOD_2026
#define NDEV    4000
#define PER_DEV 248 /* SSCH per device per interval: 992,000 for the 4000 */

/* D6R3 IODDEV: 52 SCMSSCH (2), 192 SCGSSCH (4), 200 RDEVDEV (zpmd +20). */
static void ioddev(struct feed *f, uint64_t tod, uint16_t dev, uint32_t ssch)
{
        memset(f->buf, 0, 240);
        vec_hdr(f->buf, 240, 6, 3, tod);
        be16(f->buf + 52, (uint16_t)ssch);
        be32(f->buf + 192, ssch);
        be16(f->buf + 200, dev);
        feed_rec(f, 240);
}

/* D0R16 SYTCUP: fixed part 64 (20 LCUPNAME, 30 LCUPCPCT, 32 CALCPUOF, 34 CALCPULN), one
 * 40-byte entry at 64 (+0 LCUCPUID, +6 LCUCACTM). */
static void sytcup(struct feed *f, uint64_t tod, uint64_t act)
{
        memset(f->buf, 0, 104);
        vec_hdr(f->buf, 104, 0, 16, tod);
        ebc(f->buf + 20, "LPAR1", 8);
        f->buf[30] = 1;
        be16(f->buf + 32, 64);
        be16(f->buf + 34, 40);
        be64(f->buf + 64 + 6, act);
        feed_rec(f, 104);
}

/*
 * Four intervals of NDEV devices' I/O; with_syp: no SYTSYP at all (0), SYTSYP
 * whose executed SSCH count does not move (1), or moves by what the devices
 * did (2).
 */
static struct feed *devices(int with_syp)
{
        struct feed *f = feed_new(-1, 2);
        for (unsigned i = 0; i < 4; i++) {
                uint64_t tod = T0 + SEC(60) * i;
                for (unsigned c = 0; c < 4 && with_syp; c++)
                        feed_sytsyp(f, tod, c, 0, with_syp == 2 ? NDEV / 4 * PER_DEV * i : 7, 0, 0);
                for (unsigned d = 0; d < NDEV; d++)
                        ioddev(f, tod, (uint16_t)(0x0100 + d), PER_DEV * i + d);
                feed_end(f, tod + SEC(1));
        }
        return f;
}

/* No SYTSYP: nothing to compare 992,000 SSCH with: no data, never held, metrics held back. */
static void device_ssch_without_cpus(void **state)
{
        (void)state;
        struct feed *f = devices(0);
        const struct zv_law_status *st = zm_law_status(f->e, "device-ssch");
        assert_int_equal(st->held, 0);
        assert_int_equal(st->failed, 0);
        assert_int_equal(st->last, ZV_NODATA);
        assert_false(st->on);
        assert_non_null(strstr(st->reason, "4000 devices report 992000 SSCH/RSCH, but no SYTSYP"));
        assert_null(feed_find(f, 0, "device-0100", "operations", "ssch"));
        feed_free(f);
}

/* SYTSYP says no SSCH were executed: 992,000 from the devices contradicts it. */
static void device_ssch_more_than_executed(void **state)
{
        (void)state;
        struct feed *f = devices(1);
        const struct zv_law_status *st = zm_law_status(f->e, "device-ssch");
        assert_int_equal(st->held, 0);
        assert_int_equal(st->failed, 3);
        assert_false(st->on);
        assert_true(
            feed_logged(f, "devices report 992000 SSCH/RSCH, but the CPUs executed only 0"));
        assert_null(feed_find(f, 0, "device-0100", "operations", "ssch"));
        feed_free(f);
}

/* The CPUs executed what the 4000 devices report: held, and the metrics come. */
static void device_ssch_kept_at_scale(void **state)
{
        (void)state;
        struct feed *f = devices(2);
        const struct zv_law_status *st = zm_law_status(f->e, "device-ssch");
        assert_int_equal(st->held, 3);
        assert_true(st->on);
        assert_non_null(strstr(st->reason, "4000 devices, 992000 SSCH/RSCH of 992000 executed"));
        const struct zm_metric *m = feed_find(f, 0, "device-0100", "operations", "ssch");
        assert_non_null(m);
        assert_int_equal(m->derive[0], PER_DEV * 2); /* published with the two intervals held */
        feed_free(f);
}

/* SYTCUP without SYTPRP: the partition's busy-time bound cannot be checked: no data. */
static void lpar_without_cpus(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 2);
        for (unsigned i = 0; i < 4; i++) {
                sytcup(f, T0 + SEC(60) * i, US(30000000ull * i));
                feed_end(f, T0 + SEC(60) * i + SEC(1));
        }
        const struct zv_law_status *st = zm_law_status(f->e, "lpar");
        assert_int_equal(st->held, 0);
        assert_int_equal(st->last, ZV_NODATA);
        assert_false(st->on);
        assert_non_null(strstr(st->reason, "no SYTPRP busy time"));
        /* With SYTPRP (20 s user + 5 s system of 60 s) the same partition holds. */
        for (unsigned i = 4; i < 7; i++) {
                uint64_t tod = T0 + SEC(60) * i;
                feed_sytprp(f, tod, 0, UINT64_C(0x7FFFFFFF00000000), US(20000000ull * i),
                            US(5000000ull * i), 0);
                sytcup(f, tod, US(30000000ull * i));
                feed_end(f, tod + SEC(1));
        }
        assert_true(zm_law_status(f->e, "lpar")->on);
        feed_free(f);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(device_ssch_without_cpus),
            cmocka_unit_test(device_ssch_more_than_executed),
            cmocka_unit_test(device_ssch_kept_at_scale),
            cmocka_unit_test(lpar_without_cpus),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
