/* SPDX-License-Identifier: MIT */
/*
 * zvmsim's /dev/monreader logic (zvmsim/sim_monreader.c) against the driver
 * behaviour in doc/facts/kernel-drivers.md 1.3-1.6: reads never cross an MCE or
 * record range, a 0-byte read ends each data set, the message reaching the
 * limit is followed by EOVERFLOW, sever gives EIO until reopened.
 */
#include <errno.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "sim.h"
#include "sim_monreader.h"
#include "vec.h"

static struct sim_dcss dcss;

/* A sample set with n records of len bytes, in ranges of at most fpm frames. */
static struct sim_set *mkset(size_t n, size_t len, uint32_t fpm)
{
        struct sim_sb b;
        dcss.max_frames_per_mce = fpm;
        sim_sb_begin(&b, &dcss, SIM_AREA_SAMPLE, 'S');
        for (size_t i = 0; i < n; i++)
                (void)sim_sb_add(&b, 0, 2, len, VEC_TOD_2026);
        return sim_sb_end(&b, true, VEC_TOD_2026);
}

static struct sim_set *mkevent(void)
{
        struct sim_sb b;
        dcss.max_frames_per_mce = 0;
        sim_sb_begin(&b, &dcss, SIM_AREA_EVENT, 'E');
        (void)sim_sb_add(&b, 0, 2, 100, VEC_TOD_2026);
        return sim_sb_end(&b, true, VEC_TOD_2026);
}

static uint8_t buf[1 << 20];

/* Read the set at the head to its end: what the read after its last bytes returned. */
static ssize_t read_set(struct sim_mr *m)
{
        ssize_t r;
        while ((r = sim_mr_read(m, buf, sizeof(buf), true)) > 0)
                ;
        return r;
}

static int setup(void **state)
{
        (void)state;
        sim_dcss_init(&dcss, 0x09000000, 4096);
        return 0;
}

static void test_sequence(void **state)
{
        (void)state;
        struct sim_mr m;
        sim_mr_init(&m, 0);
        assert_int_equal(sim_mr_read(&m, buf, 100, true), -EAGAIN);
        assert_int_equal(sim_mr_open(&m), 0);
        assert_int_equal(sim_mr_open(&m), -EBUSY);
        assert_int_equal(sim_mr_poll(&m), 0);
        assert_int_equal(sim_mr_read(&m, buf, 100, true), -EAGAIN);
        assert_int_equal(sim_mr_read(&m, buf, 100, false), SIM_MR_WAIT);

        /* 10 records of 1000 bytes in ranges of 2 frames: MCE, range, MCE, range, 0. */
        struct sim_set *s = mkset(10, 1000, 2);
        size_t r1 = s->ends[1] - 12, r2 = s->ends[3] - s->ends[2];
        assert_int_equal(s->nmce, 2);
        assert_true(sim_mr_push(&m, s));
        assert_int_equal(sim_mr_poll(&m), POLLIN | POLLRDNORM);
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), 12);
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), (ssize_t)r1);
        assert_int_equal(sim_mr_read(&m, buf, 5, true), 5);
        assert_int_equal(sim_mr_read(&m, buf, 5, true), 5);
        assert_int_equal(sim_mr_read(&m, buf, 5, true), 2);
        assert_int_equal(sim_mr_read(&m, buf, 1000, true), 1000);
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), (ssize_t)(r2 - 1000));
        assert_int_equal(sim_mr_poll(&m), POLLIN | POLLRDNORM); /* fully read, not replied */
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), 0);
        assert_int_equal(sim_mr_poll(&m), 0);
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), -EAGAIN);

        /* EFAULT: once, without advancing. */
        sim_mr_push(&m, mkset(1, 100, 0));
        m.efault = SIM_MR_ANY;
        assert_int_equal(sim_mr_read(&m, buf, 100, true), -EFAULT);
        assert_int_equal(sim_mr_read(&m, buf, 100, true), 12);

        /* Sever: EIO until closed; reopen works and the queue is empty. */
        sim_mr_sever(&m);
        assert_int_equal(sim_mr_poll(&m), POLLERR);
        assert_int_equal(sim_mr_read(&m, buf, 100, true), -EIO);
        assert_false(sim_mr_push(&m, mkset(1, 100, 0)));
        assert_int_equal(sim_mr_read(&m, buf, 100, false), -EIO);
        sim_mr_close(&m);
        assert_int_equal(sim_mr_open(&m), 0);
        assert_int_equal(sim_mr_read(&m, buf, 100, true), -EAGAIN);
        sim_mr_fini(&m);
}

static void test_overflow(void **state)
{
        (void)state;
        struct sim_mr m;
        sim_mr_init(&m, 3);
        sim_mr_open(&m);
        for (int i = 0; i < 5; i++)
                (void)sim_mr_push(&m, mkset(2, 200, 0));
        assert_int_equal(m.nq, 3);
        assert_int_equal(m.dropped, 2);
        ssize_t r;
        int zeros = 0;
        while ((r = sim_mr_read(&m, buf, sizeof(buf), true)) >= 0)
                zeros += r == 0;
        /* Three sets, then EOVERFLOW after the third's 0-byte read, then nothing. */
        assert_int_equal(zeros, 3);
        assert_int_equal(r, -EOVERFLOW);
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), -EAGAIN);
        /* Below the limit again: no EOVERFLOW. */
        sim_mr_push(&m, mkset(2, 200, 0));
        while ((r = sim_mr_read(&m, buf, sizeof(buf), true)) > 0)
                ;
        assert_int_equal(r, 0);
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), -EAGAIN);
        /* Closing drops what is queued. */
        sim_mr_push(&m, mkset(2, 200, 0));
        sim_mr_close(&m);
        assert_int_equal(m.nq, 0);
        sim_mr_fini(&m);
}

/* The fate record (--delivery) and the two injected read failures. */
static char fates[16][16];
static size_t nfates, fate_done[16];

static void rec_fate(void *ctx, const struct sim_set *s, const char *what, size_t done)
{
        (void)ctx;
        (void)s;
        if (nfates < 16) {
                snprintf(fates[nfates], sizeof(fates[0]), "%s", what);
                fate_done[nfates++] = done;
        }
}

/* A reader whose sets' fates are recorded from its first set on (fates[0]). */
static void recorded_reader(struct sim_mr *m, unsigned msglim)
{
        sim_mr_init(m, msglim);
        m->fate = rec_fate;
        nfates = 0;
}

static void test_fates(void **state)
{
        (void)state;
        struct sim_mr m;
        recorded_reader(&m, 2);
        assert_false(sim_mr_push(&m, mkset(1, 100, 0)));
        assert_string_equal(fates[0], "no-reader");
        sim_mr_open(&m);
        /* EFAULT needs something to copy: with nothing queued the flag waits. */
        m.efault = SIM_MR_ANY;
        assert_int_equal(sim_mr_read(&m, buf, 100, true), -EAGAIN);
        sim_mr_push(&m, mkset(1, 100, 0));
        assert_int_equal(sim_mr_read(&m, buf, 100, true), -EFAULT);
        assert_string_equal(fates[1], "efault");
        while (sim_mr_read(&m, buf, sizeof(buf), true) > 0)
                ;
        assert_string_equal(fates[2], "delivered");
        /* eio: the path goes while the reader is inside a set, not before it. */
        m.eio = SIM_MR_ANY;
        sim_mr_push(&m, mkset(1, 100, 0));
        sim_mr_push(&m, mkset(1, 100, 0));
        assert_false(sim_mr_push(&m, mkset(1, 100, 0)));
        assert_string_equal(fates[3], "queue-full");
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), 12);
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), -EIO);
        assert_int_equal(nfates, 6);
        assert_string_equal(fates[4], "eio");
        assert_int_equal(fate_done[4], 12);
        assert_string_equal(fates[5], "eio");
        assert_int_equal(fate_done[5], 0);
        assert_false(sim_mr_push(&m, mkset(1, 100, 0)));
        assert_string_equal(fates[6], "severed");
        sim_mr_close(&m);
        sim_mr_open(&m);
        sim_mr_push(&m, mkset(1, 100, 0));
        sim_mr_close(&m);
        assert_string_equal(fates[7], "close");
        sim_mr_fini(&m);
}

/*
 * "efault sample" and "eio sample" let an event set that comes first pass
 * whole and meet the sample set behind it (the soak must hit a sample interval).
 */
static void test_sample_only(void **state)
{
        (void)state;
        struct sim_mr m;
        recorded_reader(&m, 4);
        sim_mr_open(&m);
        m.efault = SIM_MR_SAMPLE;
        sim_mr_push(&m, mkevent());
        sim_mr_push(&m, mkset(1, 100, 0));
        assert_int_equal(read_set(&m), 0);
        assert_string_equal(fates[0], "delivered");
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), -EFAULT);
        assert_string_equal(fates[1], "efault");
        assert_int_equal(m.efault, SIM_MR_OFF);
        assert_int_equal(read_set(&m), 0);
        assert_string_equal(fates[2], "delivered");

        m.eio = SIM_MR_SAMPLE;
        sim_mr_push(&m, mkevent());
        sim_mr_push(&m, mkset(1, 100, 0));
        assert_int_equal(read_set(&m), 0);
        assert_string_equal(fates[3], "delivered");
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), 12);
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), -EIO);
        assert_int_equal(nfates, 5);
        assert_string_equal(fates[4], "eio");
        assert_int_equal(fate_done[4], 12);
        sim_mr_fini(&m);
}

/*
 * The driver keeps the message that reached the limit counted as ready from
 * its 0-byte read until the read that reports EOVERFLOW (monreader.c
 * decrements read_ready only there), so poll() says POLLIN in between,
 * also when nothing else is queued.
 */
static void test_overflow_poll(void **state)
{
        (void)state;
        struct sim_mr m;
        sim_mr_init(&m, 2);
        sim_mr_open(&m);
        sim_mr_push(&m, mkset(1, 100, 0));
        sim_mr_push(&m, mkset(1, 100, 0));
        assert_int_equal(read_set(&m), 0);
        assert_int_equal(sim_mr_poll(&m), POLLIN | POLLRDNORM);
        assert_int_equal(read_set(&m), 0); /* the second reached the limit */
        assert_int_equal(m.nq, 0);
        assert_int_equal(sim_mr_poll(&m), POLLIN | POLLRDNORM);
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), -EOVERFLOW);
        assert_int_equal(sim_mr_poll(&m), 0);
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), -EAGAIN);
        sim_mr_fini(&m);
}

/*
 * copy_to_user is only called by a read that copies bytes: the read that
 * replies to a fully read message returns 0, and a pending EOVERFLOW is
 * reported before any copy.  An armed EFAULT waits for such a read.
 */
static void test_efault_needs_a_copy(void **state)
{
        (void)state;
        struct sim_mr m;
        sim_mr_init(&m, 1); /* every message reaches the limit */
        sim_mr_open(&m);
        sim_mr_push(&m, mkset(1, 100, 0));
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), 12);
        assert_true(sim_mr_read(&m, buf, sizeof(buf), true) > 0);
        m.efault = SIM_MR_ANY;
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), 0); /* the reply copies nothing */
        assert_int_equal(m.efault, SIM_MR_ANY);
        sim_mr_push(&m, mkset(1, 100, 0));
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), -EOVERFLOW);
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), -EFAULT);
        assert_int_equal(m.efault, SIM_MR_OFF);
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), 12);
        sim_mr_fini(&m);
}

/*
 * "empty": the control area fails the driver's checks, which reply at the
 * first read: a 0-byte read with nothing before it.  An event set ahead of
 * it passes with "sample".  The next set is whole again.
 */
static void test_empty(void **state)
{
        (void)state;
        struct sim_mr m;
        recorded_reader(&m, 8);
        sim_mr_open(&m);
        m.empty = SIM_MR_SAMPLE;
        sim_mr_push(&m, mkevent());
        sim_mr_push(&m, mkset(10, 1000, 2));
        sim_mr_push(&m, mkset(1, 100, 0));
        assert_int_equal(read_set(&m), 0);
        assert_string_equal(fates[0], "delivered");
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), 0);
        assert_string_equal(fates[1], "empty");
        assert_int_equal(fate_done[1], 0);
        assert_int_equal(m.empty, SIM_MR_OFF);
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), 12);
        assert_int_equal(read_set(&m), 0);
        assert_string_equal(fates[2], "delivered");
        assert_int_equal(m.delivered, 2);
        assert_int_equal(m.cut_sets, 1);
        /* An armed EFAULT waits: the read that meets an empty set copies nothing. */
        m.empty = m.efault = SIM_MR_ANY;
        sim_mr_push(&m, mkset(1, 100, 0));
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), 0);
        assert_int_equal(m.efault, SIM_MR_ANY);
        sim_mr_fini(&m);
}

/*
 * "cut": the last MCE fails the checks, so the reader gets every MCE and
 * range before it, then the 0-byte read; a set of one MCE comes empty.
 */
static void test_cut(void **state)
{
        (void)state;
        struct sim_mr m;
        recorded_reader(&m, 8);
        sim_mr_open(&m);
        struct sim_set *s = mkset(10, 1000, 1);
        size_t nmce = s->nmce, last = s->mce_off[nmce - 1];
        assert_true(nmce >= 3);
        m.cut = SIM_MR_ANY;
        sim_mr_push(&m, s);
        size_t got = 0;
        ssize_t r;
        while ((r = sim_mr_read(&m, buf, sizeof(buf), true)) > 0)
                got += (size_t)r;
        assert_int_equal(r, 0);
        assert_int_equal(got, last);
        assert_string_equal(fates[0], "cut");
        assert_int_equal(fate_done[0], last);
        assert_int_equal(m.cut_sets, 1);
        assert_int_equal(m.delivered, 0);
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), -EAGAIN);
        m.cut = SIM_MR_ANY;
        sim_mr_push(&m, mkset(1, 100, 0));
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), 0);
        assert_string_equal(fates[1], "cut");
        assert_int_equal(fate_done[1], 0);
        /* Closing disarms: a new reader's sets are whole. */
        m.cut = SIM_MR_ANY;
        sim_mr_close(&m);
        sim_mr_open(&m);
        sim_mr_push(&m, mkset(1, 100, 0));
        assert_int_equal(sim_mr_read(&m, buf, sizeof(buf), true), 12);
        sim_mr_fini(&m);
}

/*
 * A failed connect: EIO for as many opens as armed, the device stays free
 * (no configuration set, no reader); EBUSY still comes first, as the
 * driver's busy bit is tested before it connects.
 */
static void test_open_fails(void **state)
{
        (void)state;
        struct sim_mr m;
        sim_mr_init(&m, 8);
        m.open_fails = 2;
        m.connect_rc = 11;
        assert_int_equal(sim_mr_open(&m), -EIO);
        assert_false(m.open);
        assert_false(sim_mr_push(&m, mkset(1, 100, 0)));
        assert_int_equal(sim_mr_open(&m), -EIO);
        assert_int_equal(sim_mr_open(&m), 0);
        assert_int_equal(m.open_eios, 2);
        m.open_fails = 1;
        assert_int_equal(sim_mr_open(&m), -EBUSY);
        assert_int_equal(m.open_fails, 1);
        sim_mr_close(&m);
        assert_int_equal(sim_mr_open(&m), -EIO);
        assert_int_equal(sim_mr_open(&m), 0);
        sim_mr_fini(&m);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test_setup(test_sequence, setup),
            cmocka_unit_test_setup(test_overflow, setup),
            cmocka_unit_test_setup(test_fates, setup),
            cmocka_unit_test_setup(test_sample_only, setup),
            cmocka_unit_test_setup(test_overflow_poll, setup),
            cmocka_unit_test_setup(test_efault_needs_a_copy, setup),
            cmocka_unit_test_setup(test_empty, setup),
            cmocka_unit_test_setup(test_cut, setup),
            cmocka_unit_test_setup(test_open_fails, setup),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
