/* SPDX-License-Identifier: MIT */
/*
 * Each remaining law: kept -> on after N intervals with its metrics; broken
 * -> off, with the reason in the log.  Records are written by hand from
 * doc/facts/cp-records.md (offsets in the helpers below).
 */
#include "cp_feed.h"

#define T0   VEC_TOD_2026
#define PRB0 UINT64_C(0x7FFFFFFF00000000)

/* D0R3 SYTRSG 224: 48 RSAPGABL, 52 RSAAVAIL, 68 RSASAVFR (hints). */
static void rsg(struct feed *f, uint64_t tod, uint32_t pgabl, uint32_t avail, uint32_t savfr)
{
        memset(f->buf, 0, 224);
        vec_hdr(f->buf, 224, 0, 3, tod);
        be32(f->buf + 48, pgabl);
        be32(f->buf + 52, avail);
        be32(f->buf + 68, savfr);
        feed_rec(f, 224);
}

/* D3R1 STORSG 464: 28 RSASAVFR (IBM mon640). */
static void storsg(struct feed *f, uint64_t tod, uint32_t savfr)
{
        memset(f->buf, 0, 464);
        vec_hdr(f->buf, 464, 3, 1, tod);
        be32(f->buf + 28, savfr);
        feed_rec(f, 464);
}

/* D0R16 SYTCUP: fixed part 64, two 40-byte entries at 64 (+0 CPUID, +6 LCUCACTM). */
static void sytcup(struct feed *f, uint64_t tod, const char *name, uint64_t act0, uint64_t act1)
{
        memset(f->buf, 0, 144);
        vec_hdr(f->buf, 144, 0, 16, tod);
        ebc(f->buf + 20, name, 8);
        f->buf[30] = 2;
        be16(f->buf + 32, 64);
        be16(f->buf + 34, 40);
        be16(f->buf + 64, 0);
        be64(f->buf + 64 + 6, act0);
        be16(f->buf + 104, 1);
        be64(f->buf + 104 + 6, act1);
        feed_rec(f, 144);
}

/* D6R3 IODDEV: 52 SCMSSCH (2), 192 SCGSSCH (4), 200 RDEVDEV (zpmd +20). */
static void ioddev(struct feed *f, uint64_t tod, uint16_t dev, uint16_t s16, uint32_t s32)
{
        memset(f->buf, 0, 240);
        vec_hdr(f->buf, 240, 6, 3, tod);
        be16(f->buf + 52, s16);
        be32(f->buf + 192, s32);
        be16(f->buf + 200, dev);
        feed_rec(f, 240);
}

/* D8R1 VNDSES: 24 OWNER, 32 VDEVDEV, 96 TXBYT, 104 RXBYT, 112 TXPKT, 120 TXDSC, 128 TXERR,
 * 136 RXPKT, 144 RXDSC, 152 RXERR (zpmd). */
static void vndses(struct feed *f, uint64_t tod, uint64_t txb, uint64_t txp, uint64_t rxb,
                   uint64_t rxp)
{
        memset(f->buf, 0, 316);
        vec_hdr(f->buf, 316, 8, 1, tod);
        ebc(f->buf + 24, "LINUX01", 8);
        be16(f->buf + 32, 0x0600);
        be64(f->buf + 96, txb);
        be64(f->buf + 104, rxb);
        be64(f->buf + 112, txp);
        be64(f->buf + 136, rxp);
        feed_rec(f, 316);
}

/* Storage and resident pages: SAVFR agrees with the verified STORSG copy. */
static void storage_and_resident(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 2);
        for (unsigned i = 0; i < 3; i++) {
                uint64_t tod = T0 + SEC(60) * i;
                rsg(f, tod, 1000000, 200000, 300);
                storsg(f, tod, 300);
                feed_useact(f, tod, "LINUX01", 0, US(i), US(i), 500000, 0, 0);
                feed_end(f, tod + SEC(1));
        }
        assert_true(zm_law_status(f->e, "storage")->on);
        assert_true(zm_law_status(f->e, "guest-resident")->on);
        const struct zm_metric *m = feed_find(f, 0, "storage", "memory", "free");
        assert_non_null(m);
        assert_true(m->gauge[0] == 200000.0 * 4096);
        assert_true(feed_find(f, 0, "storage", "memory", "used")->gauge[0] == 800000.0 * 4096);
        assert_true(feed_find(f, 0, "user-LINUX01", "memory", "resident")->gauge[0] ==
                    500000.0 * 4096);
        /* SYTRSG's save-area count at a wrong offset: both laws fall */
        rsg(f, T0 + SEC(180), 1000000, 200000, 77);
        storsg(f, T0 + SEC(180), 300);
        feed_useact(f, T0 + SEC(180), "LINUX01", 0, US(3), US(3), 500000, 0, 0);
        feed_end(f, T0 + SEC(181));
        assert_false(zm_law_status(f->e, "storage")->on);
        assert_true(
            feed_logged(f, "SYTRSG_RSASAVFR 77 frames, but STORSG_RSASAVFR (verified) 300"));
        assert_int_equal(zm_law_status(f->e, "guest-resident")->last, ZV_NODATA);
        feed_free(f);
        /* resident pages larger than the frames in use */
        f = feed_new(-1, 2);
        for (unsigned i = 0; i < 3; i++) {
                uint64_t tod = T0 + SEC(60) * i;
                rsg(f, tod, 1000000, 200000, 300);
                storsg(f, tod, 300);
                feed_useact(f, tod, "LINUX01", 0, US(i), US(i), 900000, 0, 0);
                feed_end(f, tod + SEC(1));
        }
        assert_true(zm_law_status(f->e, "storage")->on);
        assert_false(zm_law_status(f->e, "guest-resident")->on);
        assert_true(feed_logged(f, "resident pages 900000 exceed the 800000 frames in use"));
        feed_free(f);
}

/* Paging: guests' page reads/writes sum to the CPUs' paging I/O. */
static void paging(void **state)
{
        (void)state;
        for (int broken = 0; broken < 2; broken++) {
                struct feed *f = feed_new(-1, 2);
                for (unsigned i = 0; i < 4; i++) {
                        uint64_t tod = T0 + SEC(60) * i;
                        feed_sytsyp(f, tod, 0, 0, 0, 100 * i, 40 * i);
                        feed_sytsyp(f, tod, 1, 0, 0, 50 * i, 20 * i);
                        feed_useact(f, tod, "LINUX01", 0, 0, 0, 0, 120 * i, (broken ? 90 : 50) * i);
                        feed_useact(f, tod, "LINUX02", 0, 0, 0, 0, 30 * i, 10 * i);
                        feed_end(f, tod + SEC(1));
                }
                const struct zm_metric *m = feed_find(f, 0, "storage", "vmpage_io", "paging");
                if (broken) {
                        assert_false(zm_law_status(f->e, "paging")->on);
                        assert_null(m);
                        assert_true(feed_logged(f, "guest page reads/writes 150/100, but "
                                                   "SYTSYP paging I/O 150/60"));
                } else {
                        assert_true(zm_law_status(f->e, "paging")->on);
                        assert_non_null(m);
                        assert_int_equal(m->derive[0], 150 * 2); /* published from the 3rd */
                        assert_int_equal(m->derive[1], 60 * 2);
                        m = feed_find(f, 0, "user-LINUX01", "vmpage_io", "paging");
                        assert_non_null(m);
                        assert_int_equal(m->derive[0], 240);
                }
                feed_free(f);
        }
}

/* LPAR: logical CPUs within elapsed time; the busiest partition covers z/VM's busy time. */
static void lpar(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 2);
        for (unsigned i = 0; i < 3; i++) {
                uint64_t tod = T0 + SEC(60) * i;
                feed_sytprp(f, tod, 0, PRB0, US(20000000ull * i), US(5000000ull * i), 0);
                feed_sytprp(f, tod, 1, PRB0, US(20000000ull * i), US(5000000ull * i), 0);
                sytcup(f, tod, "LPAR1", US(30000000ull * i), US(30000000ull * i));
                sytcup(f, tod, "OTHER", US(1000000ull * i), 0);
                feed_end(f, tod + SEC(1));
        }
        assert_true(zm_law_status(f->e, "lpar")->on);
        const struct zm_metric *m = feed_find(f, 0, "lpar-LPAR1", "percent", "cpu1");
        assert_non_null(m);
        assert_true(m->gauge[0] > 49.99 && m->gauge[0] < 50.01);
        assert_non_null(feed_find(f, 0, "lpar-OTHER", "percent", "cpu0"));
        /* a logical CPU dispatched for longer than the interval (100 s in 60 s; a jump
         * beyond twice the interval would count as a timer reset instead) */
        sytcup(f, T0 + SEC(180), "LPAR1", US(60000000ull + 100000000ull), US(90000000ull));
        feed_end(f, T0 + SEC(181));
        assert_false(zm_law_status(f->e, "lpar")->on);
        assert_true(feed_logged(f, "LPAR1/0: logical CPU dispatched"));
        feed_free(f);
}

/* Devices: the 16- and 32-bit SSCH counts move together; within the CPUs' SSCH. */
static void devices(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 2);
        for (unsigned i = 0; i < 3; i++) {
                uint64_t tod = T0 + SEC(60) * i;
                feed_sytsyp(f, tod, 0, 0, 70000 * i, 0, 0);
                uint32_t n = 65530 + 30000 * i; /* the 16-bit count wraps */
                ioddev(f, tod, 0x0200, (uint16_t)n, n);
                ioddev(f, tod, 0x0201, 0, 0);
                feed_end(f, tod + SEC(1));
        }
        assert_true(zm_law_status(f->e, "device-ssch")->on);
        const struct zm_metric *m = feed_find(f, 0, "device-0200", "operations", "ssch");
        assert_non_null(m);
        assert_int_equal(m->derive[0], 60000);
        ioddev(f, T0 + SEC(180), 0x0200, 7, 65530 + 90000);
        feed_end(f, T0 + SEC(181));
        assert_false(zm_law_status(f->e, "device-ssch")->on);
        assert_true(feed_logged(f, "device 0200: 16-bit SSCH count moved"));
        feed_free(f);
}

/* Virtual NICs: bytes per packet between 14 and 65535. */
static void vnic(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 2);
        for (unsigned i = 0; i < 3; i++)
                vndses(f, T0 + SEC(60) * i, 1500000ull * i, 1000ull * i, 64000ull * i, 1000ull * i);
        feed_end(f, T0 + SEC(200));
        vndses(f, T0 + SEC(240), 4500000, 3000, 192000, 3000);
        feed_end(f, T0 + SEC(241));
        assert_true(zm_law_status(f->e, "vnic")->on);
        const struct zm_metric *m = feed_find(f, 0, "vnic-LINUX01-0600", "if_octets", "");
        assert_non_null(m);
        assert_int_equal(m->nvalues, 2);
        assert_int_equal(m->derive[0], 128000); /* rx first */
        assert_int_equal(m->derive[1], 3000000);
        /* 8 bytes per packet cannot be Ethernet */
        vndses(f, T0 + SEC(300), 4500000 + 8000, 4000, 192000, 3000);
        feed_end(f, T0 + SEC(301));
        assert_false(zm_law_status(f->e, "vnic")->on);
        assert_true(feed_logged(f, "law vnic broken"));
        feed_free(f);
}

/* Guests' virtual I/O bounded by the CPUs' simulated instructions and diagnoses. */
static void guest_vio(void **state)
{
        (void)state;
        for (int broken = 0; broken < 2; broken++) {
                struct feed *f = feed_new(-1, 2);
                for (unsigned i = 0; i < 4; i++) {
                        uint64_t tod = T0 + SEC(60) * i;
                        /* SYTSYP 116: 20 CPUAD, 28 DIAGT 100, 32 PRVIS 400 per interval */
                        memset(f->buf, 0, 116);
                        vec_hdr(f->buf, 116, 0, 1, tod);
                        be32(f->buf + 28, 100 * i);
                        be32(f->buf + 32, 400 * i);
                        feed_rec(f, 116);
                        /* USEACT 508: 20 VMDUSER, 132 VMDVDSCT 450 (kept) or 900 (broken) */
                        memset(f->buf, 0, 508);
                        vec_hdr(f->buf, 508, 4, 3, tod);
                        ebc(f->buf + 20, "LINUX01", 8);
                        be32(f->buf + 132, (broken ? 900u : 450u) * i);
                        feed_rec(f, 508);
                        feed_end(f, tod + SEC(1));
                }
                const struct zm_metric *m =
                    feed_find(f, 0, "user-LINUX01", "operations", "virtual-io");
                if (broken) {
                        assert_false(zm_law_status(f->e, "guest-vio")->on);
                        assert_null(m);
                        assert_true(feed_logged(f, "guests report 900 virtual I/Os, but CP "
                                                   "simulated only 500"));
                } else {
                        assert_true(zm_law_status(f->e, "guest-vio")->on);
                        assert_non_null(m);
                        assert_int_equal(m->derive[0], 900);
                }
                feed_free(f);
        }
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(storage_and_resident),
            cmocka_unit_test(paging),
            cmocka_unit_test(lpar),
            cmocka_unit_test(devices),
            cmocka_unit_test(vnic),
            cmocka_unit_test(guest_vio),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
