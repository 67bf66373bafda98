/* SPDX-License-Identifier: MIT */
/*
 * zvmsim at scale (zvmsim/sim_sizing.c, sim_dcss.c): real storage that
 * SYTRSG's fullword frame counts can hold (doc/facts/cp-records.md 6: RSAPGABL
 * and RSAAVAIL are 4 bytes), a DCSS sized so that every set fits its area,
 * an upper bound on frames that the real packer never exceeds, and a DCSS
 * pinned too small that loses records at the end of a set instead of
 * writing the set over its own beginning.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim_model.h"
#include "vec.h"

static uint32_t rd32(const uint8_t *p)
{
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static struct sim_cfg cfg(unsigned guests, unsigned lx)
{
        struct sim_cfg c;
        sim_cfg_default(&c);
        c.interval_ms = 60000;
        c.guests = guests;
        c.linux_guests = lx;
        c.devices = lx;
        c.vnics = guests / 20;
        return c;
}

/* Records placed, End-of-Frame and Interval End aside. */
static uint64_t placed(const struct sim_counts *k)
{
        uint64_t n =
            k->records - k->by_rec[1][ZD_D1_END_OF_FRAME] - k->by_rec[1][ZD_D1_INTERVAL_END];
        return n;
}

/* Whatever lengths come, the frames the packer uses stay within sim_fit_frames(). */
static void fit_bounds_the_packer(void **state)
{
        (void)state;
        static const size_t mixes[][4] = {
            {508, 508, 508, 508},  /* one record type: 8 per frame */
            {64, 2100, 64, 2100},  /* half-frame records that never pair */
            {1019, 1020, 20, 4076} /* both sides of the small/big line, and a full frame */
        };
        struct sim_rng rng = {42};
        for (size_t m = 0; m < sizeof(mixes) / sizeof(mixes[0]); m++) {
                struct sim_dcss d;
                sim_dcss_init(&d, 0x09000000, SIM_DCSS_MAX_PAGES);
                struct sim_sb b;
                struct sim_fit f = {0};
                sim_sb_begin(&b, &d, SIM_AREA_SAMPLE, 'S');
                for (unsigned i = 0; i < 5000; i++) {
                        size_t len = mixes[m][sim_rng_below(&rng, 4)];
                        assert_non_null(sim_sb_add(&b, 4, 3, len, VEC_TOD_2026));
                        sim_fit_add(&f, len, 1);
                }
                struct sim_set *s = sim_sb_end(&b, true, VEC_TOD_2026);
                assert_int_equal(s->lost, 0);
                uint64_t frames = s->neof + 1;
                assert_int_equal(s->want_frames, frames);
                assert_true(frames <= sim_fit_frames(&f));
                /* An upper bound, but not a wild one. */
                assert_true(sim_fit_frames(&f) < 2 * frames + 10);
                sim_set_free(s);
        }
}

/* 50,000 guests share at most 4 TB; a small system draws its guests as it always did. */
static void real_storage_fits(void **state)
{
        (void)state;
        struct sim_cfg c = cfg(50000, 10000);
        struct sim_sys *s = sim_sys_new(&c, NULL);
        uint64_t sum = 0;
        for (unsigned i = 0; i < c.guests; i++) {
                assert_true(s->guest[i].resident >= 256);
                sum += s->guest[i].resident;
        }
        assert_true(s->pgabl <= UINT64_C(1) << 30);
        assert_int_equal(s->pgabl, 2 * sum + 200000);
        struct sim_set *set = sim_sys_interval(s);
        assert_true(s->avail <= s->pgabl);
        assert_true(s->pgabl - s->avail >= sum);
        sim_set_free(set);
        sim_sys_free(s);

        c = cfg(20, 4);
        s = sim_sys_new(&c, NULL);
        sum = 0;
        for (unsigned i = 0; i < c.guests; i++) {
                assert_true(s->guest[i].resident >= 10000 && s->guest[i].resident < 510000);
                sum += s->guest[i].resident;
        }
        assert_int_equal(s->pgabl, 2 * sum + 200000);
        sim_sys_free(s);
}

/* The default DCSS is kept while it suffices; a big system gets one its sets fit. */
static void dcss_sized_for_the_system(void **state)
{
        (void)state;
        struct sim_cfg c = cfg(20, 4);
        struct sim_sys *s = sim_sys_new(&c, NULL);
        assert_int_equal(sim_sys_dcss(s)->npages, 4096);
        sim_sys_free(s);

        /* Every Linux guest runs both writers; 64 CPUs make z/VM's SYTCUP a big record. */
        c = cfg(3000, 600);
        c.cpus = 64;
        c.lpars = 20;
        c.fsstatd = c.procd = 600;
        s = sim_sys_new(&c, NULL);
        const struct sim_dcss *d = sim_sys_dcss(s);
        assert_true(d->npages > 4096);
        assert_int_equal(d->npages % 256, 0);
        for (int i = 0; i < 3; i++) {
                struct sim_set *set = sim_sys_interval(s);
                assert_int_equal(set->lost, 0);
                assert_true(set->want_frames <= d->area_pages[SIM_AREA_SAMPLE]);
                /* Sized with room to spare, not many times over. */
                assert_true(d->area_pages[SIM_AREA_SAMPLE] < 2 * set->want_frames + 600);
                sim_set_free(set);
        }
        assert_int_equal(sim_sys_counts(s)->lost, 0);
        sim_sys_free(s);
}

/*
 * A DCSS pinned at 64 pages (a 35-page sample area) for 400 guests: each
 * sample set fills its area and no more, no DCSS page is used twice in a
 * set, the set still ends with Interval End, and what is placed plus what is
 * lost is what a big enough DCSS holds.
 */
static void pinned_too_small(void **state)
{
        (void)state;
        struct sim_cfg c = cfg(400, 80);
        struct sim_sys *big = sim_sys_new(&c, NULL);
        c.dcss_pages = 64;
        struct sim_sys *s = sim_sys_new(&c, NULL);
        const struct sim_dcss *d = sim_sys_dcss(s);
        assert_int_equal(d->npages, 64);
        uint32_t area = d->area_pages[SIM_AREA_SAMPLE];
        uint64_t lost = 0;
        for (int i = 0; i < 3; i++) {
                struct sim_set *set = sim_sys_interval(s), *full = sim_sys_interval(big);
                assert_int_equal(full->lost, 0);
                assert_true(full->want_frames > area);
                assert_true(set->lost > 0);
                assert_int_equal(set->want_frames, full->want_frames);
                /* Pages of the set's ranges: each at most once. */
                static uint8_t seen[64];
                memset(seen, 0, sizeof(seen));
                uint32_t pages = 0;
                for (size_t m = 0; m < set->nmce; m++) {
                        const uint8_t *mce = set->buf + set->mce_off[m];
                        for (uint32_t p = rd32(mce + 4) >> 12; p <= rd32(mce + 8) >> 12; p++) {
                                uint32_t k = p - (d->base >> 12);
                                assert_true(k < 64);
                                assert_int_equal(seen[k], 0);
                                seen[k] = 1;
                                pages++;
                        }
                }
                assert_int_equal(pages, area);
                /* The last record: Interval End (domain 1, record 11). */
                const uint8_t *end = set->buf + set->len - 20;
                assert_int_equal(end[4], 1);
                assert_int_equal(end[7], 11);
                lost += set->lost;
                sim_set_free(set);
                sim_set_free(full);
        }
        const struct sim_counts *k = sim_sys_counts(s);
        assert_int_equal(k->lost, lost);
        assert_int_equal(k->lost_sets, 3);
        assert_int_equal(placed(k) + k->lost, placed(sim_sys_counts(big)));
        assert_true(k->want_pages > 64 && k->want_pages <= sim_sys_dcss(big)->npages);
        sim_sys_free(s);
        sim_sys_free(big);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(fit_bounds_the_packer),
            cmocka_unit_test(real_storage_fits),
            cmocka_unit_test(dcss_sized_for_the_system),
            cmocka_unit_test(pinned_too_small),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
