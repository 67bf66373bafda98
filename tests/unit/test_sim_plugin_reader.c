/* SPDX-License-Identifier: MIT */
/*
 * The zvm plugin's device reader (plugin/zvm/zvm_reader.c) against zvmsim's
 * monreader logic (zvmsim/sim_monreader.c) and its simulated system, in one
 * process: the reader's open, read and poll go to sim_mr_*, so the faults
 * zvmsim injects reach the reader as the FUSE file would give them, without
 * FUSE.  What each fault must do to the reader: a clear message, a counter,
 * nothing of a damaged set dispatched, and the reader going on.
 *
 * "Nothing dispatched" is checked against a second run of the same system
 * in which the damaged data set never arrived: the value lists dispatched
 * must be the same, in number and in a hash of identifiers, values and times.
 */
#include <errno.h>
#include <fcntl.h>

#include "vec.h"

#include "cd_stubs.h"

#include "sim.h"
#include "sim_monreader.h"
#include "zvm.h"

static struct sim_mr mr;
static struct sim_sys *sys;
static size_t opens, closes;

static int f_open(const char *path, int flags)
{
        (void)path;
        assert_true(flags & O_NONBLOCK);
        int rc = sim_mr_open(&mr);
        if (rc) {
                errno = -rc;
                return -1;
        }
        opens++;
        sim_mr_push(&mr, sim_sys_config(sys, VEC_TOD_2026));
        return 7;
}
static ssize_t f_read(int fd, void *buf, size_t n)
{
        assert_int_equal(fd, 7);
        ssize_t r = sim_mr_read(&mr, buf, n, true);
        if (r < 0) {
                errno = (int)-r;
                return -1;
        }
        return r;
}
static int f_poll(struct pollfd *p, nfds_t n, int ms)
{
        (void)n;
        (void)ms;
        p->revents = (short)sim_mr_poll(&mr);
        return p->revents ? 1 : 0;
}
static int f_close(int fd)
{
        assert_int_equal(fd, 7);
        closes++;
        sim_mr_close(&mr);
        return 0;
}
static const char *f_not_device(int fd)
{
        assert_int_equal(fd, 7);
        return NULL;
}
static const struct zvm_sys simdev = {f_open, f_read, f_poll, f_close, f_not_device};

/* FNV-1a over every value list dispatched. */
static uint64_t vl_hash;
static void hash_bytes(const void *p, size_t n)
{
        const uint8_t *b = p;
        for (size_t i = 0; i < n; i++)
                vl_hash = (vl_hash ^ b[i]) * 0x100000001b3ull;
}
static void on_dispatch(value_list_t const *vl)
{
        hash_bytes(vl->host, strlen(vl->host) + 1);
        hash_bytes(vl->plugin_instance, strlen(vl->plugin_instance) + 1);
        hash_bytes(vl->type, strlen(vl->type) + 1);
        hash_bytes(vl->type_instance, strlen(vl->type_instance) + 1);
        hash_bytes(vl->values, vl->values_len * sizeof(vl->values[0]));
        hash_bytes(&vl->time, sizeof(vl->time));
}

struct fix {
        struct zvm_config c;
        struct zvm_pipe p;
        struct zvm_reader r;
        double now;
};

static void start(struct fix *f)
{
        cd_reset();
        cd_count_only = true;
        cd_on_dispatch = on_dispatch;
        vl_hash = 0xcbf29ce484222325ull;
        zvm_stats_reset();
        opens = closes = 0;
        struct sim_cfg sc;
        sim_cfg_default(&sc);
        sc.cpus = 2;
        sc.guests = 6;
        sc.linux_guests = 2;
        sc.devices = 2;
        sc.vnics = 2;
        sc.start_tod = VEC_TOD_2026;
        sc.max_frames_per_mce = 1; /* several MCEs per sample set, for "cut" */
        sys = sim_sys_new(&sc, NULL);
        sim_mr_init(&mr, 0);
        zvm_config_defaults(&f->c);
        f->c.device = strdup("/dev/monreader");
        f->c.retry_min = 1;
        f->c.retry_max = 8;
        assert_true(zvm_pipe_init(&f->p, &f->c));
        zvm_reader_init(&f->r, &f->c, &simdev, &f->p);
        f->now = 0;
}

static void stop(struct fix *f)
{
        zvm_reader_close(&f->r);
        zvm_pipe_destroy(&f->p);
        zvm_config_free(&f->c);
        sim_mr_fini(&mr);
        sim_sys_free(sys);
        cd_on_dispatch = NULL;
        cd_count_only = false;
}

/* One reader turn a second, up to 10: it opens when its backoff allows and reads what is queued. */
static void settle(struct fix *f)
{
        for (int i = 0; i < 10; i++) {
                zvm_reader_step(&f->r, 0, f->now);
                f->now += 1;
                if (f->r.fd >= 0 && !mr.nq)
                        return;
        }
}

/* One sample interval as zvmsim's FUSE side sends it: its events, then its sample set. */
static void interval(struct fix *f, bool lose_sample)
{
        struct sim_set *s = sim_sys_interval(sys), *e;
        while ((e = sim_sys_next_event(sys)))
                sim_mr_push(&mr, e);
        if (lose_sample)
                sim_set_free(s);
        else
                sim_mr_push(&mr, s);
        settle(f);
}

struct outcome {
        size_t vls;
        uint64_t hash;
};

/*
 * Six intervals; at the fourth, arm() arms a fault (NULL: the sample set is
 * lost before the reader, the reference run).  What was dispatched.
 */
static struct outcome run(struct fix *f, void (*arm)(void))
{
        start(f);
        settle(f);
        assert_int_equal(opens, 1);
        for (int i = 1; i <= 6; i++) {
                if (i == 4 && arm)
                        arm();
                interval(f, i == 4 && !arm);
        }
        struct outcome o = {cd_ncounted, vl_hash};
        assert_true(o.vls > 100);
        return o;
}

static void arm_empty(void)
{
        mr.empty = SIM_MR_SAMPLE;
}
static void arm_cut(void)
{
        mr.cut = SIM_MR_SAMPLE;
}

/*
 * An empty data set (the driver refused the message's control area): the
 * interval's data is gone.  The reader must say so and count it, keep the
 * device open, and dispatch what it would have had the set never come.
 */
static void empty_set_counted_and_said(void **state)
{
        static struct fix f;
        (void)state;
        struct outcome ref = run(&f, NULL);
        stop(&f);
        struct outcome got = run(&f, arm_empty);
        assert_int_equal(mr.cut_sets, 1);
        assert_int_equal(zvm_stats()->empty_sets, 1);
        assert_non_null(strstr(cd_lastlog, "empty data set"));
        assert_int_equal(opens, 1);
        assert_int_equal(closes, 0);
        assert_int_equal(got.vls, ref.vls);
        assert_true(got.hash == ref.hash);
        stop(&f);
}

/*
 * A sample set cut short (its last MCE refused, so no Interval End): its
 * records must not reach the metrics, neither alone nor mixed into the next
 * interval.  Counted and said; the device stays open.
 */
static void cut_set_dispatches_nothing(void **state)
{
        static struct fix f;
        (void)state;
        struct outcome ref = run(&f, NULL);
        stop(&f);
        struct outcome got = run(&f, arm_cut);
        assert_int_equal(mr.cut_sets, 1);
        assert_int_equal(zvm_stats()->discarded_short, 1);
        assert_non_null(strstr(cd_lastlog, "Interval End"));
        assert_int_equal(opens, 1);
        assert_int_equal(closes, 0);
        assert_int_equal(got.vls, ref.vls);
        assert_true(got.hash == ref.hash);
        stop(&f);
}

/*
 * EIO at open, by a sever while connecting and by an IUCV CONNECT return
 * code: both are EIO to the reader, which says where the reason is
 * (the kernel log), counts each failure and opens again with backoff.
 */
static void open_eio(struct fix *f, unsigned rc)
{
        start(f);
        mr.open_fails = 2;
        mr.connect_rc = rc;
        zvm_reader_step(&f->r, 0, 0);
        assert_int_equal(zvm_stats()->open_failures, 1);
        assert_non_null(strstr(cd_lastlog, "IUCV"));
        assert_non_null(strstr(cd_lastlog, "kernel log"));
        assert_non_null(strstr(cd_lastlog, "return code"));
        assert_false(zvm_stats()->connected);
        f->now = 0.5;
        settle(f);
        assert_int_equal(zvm_stats()->open_failures, 2);
        assert_int_equal(opens, 1);
        assert_true(zvm_stats()->connected);
        assert_int_equal(zvm_stats()->reconnects, 0);
        interval(f, false);
        interval(f, false);
        assert_int_equal(zvm_stats()->sets, 3); /* the configuration set and both intervals */
        assert_true(cd_ncounted > 0);
        assert_int_equal(mr.open_eios, 2);
        stop(f);
}

static void open_severed_while_connecting(void **state)
{
        static struct fix f;
        (void)state;
        open_eio(&f, 0);
}

static void open_connect_rc(void **state)
{
        static struct fix f;
        (void)state;
        open_eio(&f, 11);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(empty_set_counted_and_said),
            cmocka_unit_test(cut_set_dispatches_nothing),
            cmocka_unit_test(open_severed_while_connecting),
            cmocka_unit_test(open_connect_rc),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
