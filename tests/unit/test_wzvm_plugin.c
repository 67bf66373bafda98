/* SPDX-License-Identifier: MIT */
/*
 * write_zvm plugin core: the queue, the table, record packing and keying,
 * and the /dev/monwriter discipline, against a fake device that parses the
 * byte stream with the monwrite_hdr rules (doc/facts/kernel-drivers.md 2) and
 * keeps buffers by key the way the driver does.
 */
#include "vec_appl.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include <collectd/core/daemon/plugin.h>

#include "metric/metric.h"
#include "record/record.h"
#include "write_zvm_core.h"

/* ---- a fake monwriter ---- */
#define FAKE_MAX 64
struct fake {
        struct {
                uint16_t mod;
                uint16_t datalen;
                uint8_t data[4010];
        } buf[FAKE_MAX];
        size_t nbuf;
        unsigned max_bufs;
        int fail_start;  /* errno for every START of a new buffer, 0 = none */
        int fail_any;    /* errno for every write */
        int fail_stop;   /* errno for every STOP, 0 = none */
        bool short_stop; /* every STOP takes one byte less than its header */
        size_t writes, starts, updates, stops;
        /* a slow CP: every write() takes per_write seconds of this clock; late from deadline */
        double now, per_write, deadline;
        char log[16][800];
        int loglevel[16];
        size_t nlog;
};

static ssize_t fake_write(void *ctx, const void *p, size_t n)
{
        struct fake *f = ctx;
        f->writes++;
        f->now += f->per_write;
        if (f->fail_any) {
                errno = f->fail_any;
                return -1;
        }
        /* one header (13 bytes, doc/facts/kernel-drivers.md 2.1) + datalen bytes per write */
        const uint8_t *b = p;
        assert_true(n >= 13);
        uint8_t fn = b[0];
        uint16_t applid = (uint16_t)(b[1] << 8 | b[2]);
        uint16_t mod = (uint16_t)(b[8] << 8 | b[9]);
        uint16_t datalen = (uint16_t)(b[10] << 8 | b[11]);
        assert_int_equal(b[12], 13);
        assert_int_equal(applid, 0x7A76);
        assert_int_equal(b[3], 1);             /* record_num */
        assert_int_equal(b[4] << 8 | b[5], 1); /* version */
        assert_int_equal(b[6] << 8 | b[7], 0); /* release */
        size_t i;
        for (i = 0; i < f->nbuf && f->buf[i].mod != mod; i++)
                ;
        if (fn == 1) { /* STOP: no data follows */
                assert_int_equal(n, 13);
                if (f->short_stop)
                        return (ssize_t)n - 1; /* the driver now waits for the header's end */
                if (f->fail_stop) { /* the STOP DIAG failed: the buffer is freed anyway */
                        if (i < f->nbuf)
                                f->buf[i] = f->buf[--f->nbuf];
                        errno = f->fail_stop;
                        return -1;
                }
                if (i < f->nbuf) {
                        f->buf[i] = f->buf[--f->nbuf];
                        f->stops++;
                }
                return (ssize_t)n;
        }
        assert_int_equal(fn, 0);
        assert_int_equal(n, 13u + datalen);
        if (i < f->nbuf) {
                /* update in place: the identical header, the same size */
                assert_int_equal(datalen, f->buf[i].datalen);
                memcpy(f->buf[i].data, b + 13, datalen);
                f->updates++;
                return (ssize_t)n;
        }
        if (f->nbuf >= f->max_bufs) {
                errno = ENOSPC;
                return -1;
        }
        assert_true(f->nbuf < FAKE_MAX);
        f->buf[f->nbuf].mod = mod;
        f->buf[f->nbuf].datalen = datalen;
        memcpy(f->buf[f->nbuf].data, b + 13, datalen);
        f->nbuf++;
        if (f->fail_start) { /* the DIAG fails after the buffer was allocated */
                errno = f->fail_start;
                return -1;
        }
        f->starts++;
        return (ssize_t)n;
}

/*
 * The daemon's symbols the writer calls: its log, here the log of the fake
 * device the test writes to, and its complaints (cd_complain.h) on a clock
 * that stands still, so that only the complaints' own rules decide.
 */
static struct fake *logging_to;

void plugin_log(int level, const char *format, ...)
{
        struct fake *f = logging_to;
        if (!f || f->nlog >= 16)
                return;
        va_list ap;
        va_start(ap, format);
        f->loglevel[f->nlog] = level;
        vsnprintf(f->log[f->nlog++], sizeof(f->log[0]), format, ap);
        va_end(ap);
}

cdtime_t cdtime(void)
{
        return (cdtime_t)1 << 40;
}

#include "cd_complain.h"

static bool fake_late(void *ctx)
{
        const struct fake *f = ctx;
        return f->deadline > 0 && f->now >= f->deadline;
}

static const uint8_t *fake_buf(struct fake *f, uint16_t mod)
{
        for (size_t i = 0; i < f->nbuf; i++)
                if (f->buf[i].mod == mod)
                        return f->buf[i].data;
        return NULL;
}

static void writer_setup(struct wz_writer *w, struct fake *f, unsigned max_records)
{
        memset(f, 0, sizeof(*f));
        f->max_bufs = 255;
        wz_writer_init(w, WZVM_DEFAULT_APPLID, max_records, 10000);
        w->dev.write = fake_write;
        w->dev.late = fake_late;
        w->dev.ctx = f;
        logging_to = f;
}

/* A writer on a fake device and a table for it: what most tests below start from. */
struct rig {
        struct wz_writer w;
        struct fake f;
        struct wz_table t;
};

static void rig_up(struct rig *r, unsigned max_records, size_t table_max)
{
        writer_setup(&r->w, &r->f, max_records);
        wz_table_init(&r->t, table_max);
}

static void rig_down(struct rig *r)
{
        wz_table_free(&r->t);
}

static struct wz_item item(const char *host, const char *plugin, const char *pinst,
                           const char *type, const char *tinst, const char *ds, uint8_t idx,
                           uint8_t cnt, double gauge)
{
        struct wz_item it;
        memset(&it, 0, sizeof(it));
        assert_true(wz_item_set_names(&it, host, plugin, pinst, type, tinst, ds));
        it.e.ds_type = WZVM_DS_GAUGE;
        it.e.ds_index = idx;
        it.e.ds_count = cnt;
        uint64_t u;
        memcpy(&u, &gauge, 8);
        it.e.value = u;
        it.seen = 100;
        it.interval = 10;
        return it;
}

/* Entries of a record read straight from the documented layout: count and first names. */
static unsigned rec_nentries(const uint8_t *d)
{
        return (unsigned)(d[20] << 8 | d[21]);
}

/* n single-DS values "v000".. of host a, 53 bytes each: 73 fill a record (3910 / 53). */
/* One value, a list of its own, into the table; whether it went in. */
static bool put(struct wz_table *t, const struct wz_item *it)
{
        return wz_table_put_list(t, it, 1) == WZ_PUT_OK;
}

static void fill(struct wz_table *t, int from, int n, double seen)
{
        for (int i = from; i < from + n; i++) {
                char ti[16];
                snprintf(ti, sizeof(ti), "v%03d", i);
                struct wz_item it = item("a", "plugin", "inst", "gauge", ti, "value", 0, 1, i);
                it.seen = seen;
                assert_true(put(t, &it));
        }
}

/* ---- tests ---- */

static void queue_is_bounded_and_all_or_nothing(void **state)
{
        (void)state;
        struct wz_queue q;
        assert_int_equal(wz_queue_init(&q, 5), 0);
        struct wz_item three[3], two[2];
        for (int i = 0; i < 3; i++)
                three[i] = item("h", "load", "", "load", "", "shortterm", (uint8_t)i, 3, i);
        for (int i = 0; i < 2; i++)
                two[i] = item("h", "if", "", "if_octets", "", "rx", (uint8_t)i, 2, i);
        assert_true(wz_queue_push(&q, three, 3));
        assert_false(wz_queue_push(&q, three, 3)); /* 3 more do not fit in 5: none go in */
        assert_true(wz_queue_push(&q, two, 2));
        assert_int_equal(q.queued, 5);
        assert_int_equal(q.dropped, 3);
        struct wz_item out[8];
        assert_int_equal(wz_queue_pop_lists(&q, out, 4), 3); /* the next list would not fit */
        assert_int_equal(out[2].e.ds_index, 2);
        assert_true(wz_queue_push(&q, three, 3)); /* ring wraps */
        assert_int_equal(wz_queue_pop_lists(&q, out, 8), 5);
        assert_string_equal(out[0].e.type, "if_octets"); /* FIFO across the wrap */
        assert_int_equal(out[1].e.ds_index, 1);
        assert_string_equal(out[2].e.type, "load");
        assert_int_equal(out[4].e.ds_index, 2);
        wz_queue_destroy(&q);
}

/* The writer thread as it waits (plugin/write_zvm/write_zvm.c): until half full, or 10 s pass. */
struct half_waiter {
        struct wz_queue *q;
        bool waiting;
        int rc;
};

static void *wait_for_half(void *arg)
{
        struct half_waiter *w = arg;
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_sec += 10;
        pthread_mutex_lock(&w->q->mu);
        w->waiting = true;
        int rc = 0;
        while (rc == 0 && w->q->n < w->q->cap / 2)
                rc = pthread_cond_timedwait(&w->q->cv, &w->q->mu, &ts);
        w->rc = rc;
        pthread_mutex_unlock(&w->q->mu);
        return NULL;
}

static void a_half_full_queue_wakes_the_writer(void **state)
{
        (void)state;
        struct wz_queue q;
        assert_int_equal(wz_queue_init(&q, 8), 0);
        struct half_waiter w = {&q, false, -1};
        pthread_t t;
        assert_int_equal(pthread_create(&t, NULL, wait_for_half, &w), 0);
        /* Once the lock is ours after it set waiting, the waiter is inside the wait. */
        for (bool in = false; !in;) {
                pthread_mutex_lock(&q.mu);
                in = w.waiting;
                pthread_mutex_unlock(&q.mu);
        }
        struct wz_item it[4];
        for (int i = 0; i < 4; i++)
                it[i] = item("h", "load", "", "load", "", "shortterm", (uint8_t)i, 4, i);
        assert_true(wz_queue_push(&q, it, 3)); /* below half: no need to wake anyone */
        assert_true(wz_queue_push(&q, it, 1)); /* half full */
        pthread_join(t, NULL);
        assert_int_equal(w.rc, 0); /* woken, not timed out */
        wz_queue_destroy(&q);
}

/* A value enters the table owed, whatever a producer left in its written and missed flags. */
static void a_value_enters_owed(void **state)
{
        (void)state;
        struct wz_table t;
        wz_table_init(&t, 4);
        struct wz_item a = item("h", "memory", "", "memory", "used", "value", 0, 1, 1);
        a.written = a.missed = true;
        assert_true(put(&t, &a));
        assert_false(t.v[0].written || t.v[0].missed);
        assert_true(put(&t, &a)); /* replaced before any pass: merged */
        assert_int_equal(t.merged, 1);
        assert_int_equal(t.dropped_space, 0);
        wz_table_free(&t);
}

static void table_updates_in_place_sorted_and_expires(void **state)
{
        (void)state;
        struct wz_table t;
        wz_table_init(&t, 3);
        struct wz_item a = item("h", "memory", "", "memory", "used", "value", 0, 1, 1);
        struct wz_item b = item("h", "cpu", "0", "cpu", "user", "value", 0, 1, 2);
        struct wz_item c = item("g", "zz", "", "gauge", "", "value", 0, 1, 3);
        assert_true(put(&t, &a));
        assert_true(put(&t, &b));
        a.e.value = 42;
        assert_true(put(&t, &a)); /* same identifier: replaced */
        assert_int_equal(t.n, 2);
        assert_true(put(&t, &c));
        assert_string_equal(t.v[0].host, "g"); /* host first */
        assert_string_equal(t.v[1].e.plugin, "cpu");
        assert_true(t.v[2].e.value == 42);
        struct wz_item d = item("h", "new", "", "gauge", "", "value", 0, 1, 4);
        assert_false(put(&t, &d)); /* full */
        assert_int_equal(t.dropped_full, 1);
        t.v[1].seen = 50; /* 50 s old at 100, interval 10, factor 2: gone */
        assert_int_equal(wz_table_expire(&t, 100, 2), 1);
        assert_int_equal(t.n, 2);
        assert_string_equal(t.v[1].e.plugin, "memory");
        wz_table_free(&t);
}

/*
 * A burst of identifiers does not pin its peak: once expiry leaves a quarter
 * or less of the array in use, it halves (never below 64 entries), and the
 * values that stay keep their order.
 */
static void an_emptied_table_gives_back_its_peak(void **state)
{
        (void)state;
        struct wz_table t;
        wz_table_init(&t, 10000);
        fill(&t, 0, 1000, 100); /* 64 doubled to 1024 */
        assert_int_equal(t.cap, 1024);
        fill(&t, 1000, 200, 150);
        assert_int_equal(t.cap, 2048);
        /* the first 1,000 expire: 200 of 2,048 left, halved while a quarter or less */
        assert_int_equal(wz_table_expire(&t, 125, 2), 1000);
        assert_int_equal(t.n, 200);
        assert_int_equal(t.cap, 512);
        assert_string_equal(t.v[0].e.type_instance, "v1000");
        assert_string_equal(t.v[199].e.type_instance, "v1199");
        assert_int_equal(wz_table_expire(&t, 125, 2), 0); /* nothing gone: nothing moves */
        assert_int_equal(t.cap, 512);
        assert_int_equal(wz_table_expire(&t, 200, 2), 200);
        assert_int_equal(t.n, 0);
        assert_int_equal(t.cap, 64);
        fill(&t, 0, 10, 300); /* and it fills again */
        assert_int_equal(t.n, 10);
        wz_table_free(&t);
}

static void names_follow_the_format(void **state)
{
        (void)state;
        struct wz_item it;
        char longname[80];
        memset(longname, 'x', sizeof(longname));
        longname[64] = 0;
        assert_false(wz_item_set_names(&it, "h", longname, "", "t", "", "value"));
        longname[63] = 0;
        assert_true(wz_item_set_names(&it, "h", longname, "", "t", "", "value"));
        assert_false(wz_item_set_names(&it, "", "p", "", "t", "", "value"));
        assert_false(wz_item_set_names(&it, "h", "p", "a/b", "t", "", "value"));
        assert_false(wz_item_set_names(&it, "h", "p", "", "t", "\t", "value"));
}

static void plan_groups_hosts_and_types(void **state)
{
        (void)state;
        struct wz_table t;
        wz_table_init(&t, 10000);
        /* 100 single-DS values of host a (62 bytes each: 63 fit in 3910), 1 of host b */
        for (int i = 0; i < 100; i++) {
                char ti[16];
                snprintf(ti, sizeof(ti), "v%03d", i);
                struct wz_item it = item("a", "plugin", "inst", "gauge", ti, "value", 0, 1, i);
                assert_int_equal(wzvm_entry_size(&it.e), 24 + 7 + 5 + 6 + 5 + 6);
                assert_true(put(&t, &it));
        }
        struct wz_item b = item("b", "p", "", "gauge", "", "value", 0, 1, 0);
        assert_true(put(&t, &b));
        size_t starts[8], placed;
        /* 3910 / 53 = 73 per record */
        assert_int_equal(wz_plan(&t, 8, starts, &placed), 3);
        assert_int_equal(starts[0], 0);
        assert_int_equal(starts[1], 73);
        assert_int_equal(starts[2], 100); /* host b starts its own record */
        assert_int_equal(placed, 101);
        assert_int_equal(wz_plan(&t, 2, starts, &placed), 2);
        assert_int_equal(placed, 100);
        wz_table_free(&t);

        /* a type's data sources are never split between records */
        wz_table_init(&t, 10000);
        for (int i = 0; i < 72; i++) {
                char ti[16];
                snprintf(ti, sizeof(ti), "v%03d", i);
                struct wz_item it = item("a", "plugin", "inst", "gauge", ti, "value", 0, 1, i);
                put(&t, &it);
        }
        for (uint8_t i = 0; i < 2; i++) { /* "w000" sorts after "v071": 72 + 2 > 73 */
                struct wz_item it = item("a", "plugin", "inst", "gauge", "w000", "value", i, 2, i);
                put(&t, &it);
        }
        assert_int_equal(wz_plan(&t, 8, starts, &placed), 2);
        assert_int_equal(starts[1], 72);
        wz_table_free(&t);
}

static void writer_starts_updates_and_stops(void **state)
{
        (void)state;
        struct rig r;
        rig_up(&r, 32, 10000);
        fill(&r.t, 0, 100, 100);
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_OK);
        assert_int_equal(r.f.starts, 2);
        assert_int_equal(r.f.nbuf, 2);
        const uint8_t *r0 = fake_buf(&r.f, 0), *r1 = fake_buf(&r.f, 1);
        assert_non_null(r0);
        assert_non_null(r1);
        assert_memory_equal(r0, "WZVM", 4);
        assert_int_equal(rec_nentries(r0) + rec_nentries(r1), 100);
        /* sync_count_1 (offset 16) and sync_count_2 (last 4 bytes) both 1 */
        assert_int_equal(r0[19], 1);
        assert_int_equal(r0[4009], 1);
        assert_int_equal(r0[29], 0); /* rec_index */
        assert_int_equal(r1[29], 1);
        assert_int_equal(r1[31], 2); /* rec_total */
        /* second pass: updates in place, counters advance */
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026 + 1, true), WZ_OK);
        assert_int_equal(r.f.updates, 2);
        assert_int_equal(fake_buf(&r.f, 0)[19], 2);
        assert_int_equal(fake_buf(&r.f, 0)[4009], 2);
        /* fewer values: record 1 is stopped */
        r.t.n = 10;
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026 + 2, true), WZ_OK);
        assert_int_equal(r.f.stops, 1);
        assert_int_equal(r.f.nbuf, 1);
        assert_int_equal(r.w.nstarted, 1);
        assert_int_equal(rec_nentries(fake_buf(&r.f, 0)), 10);
        assert_int_equal(r.f.nlog, 0);
        rig_down(&r);
}

static void eperm_logs_once_and_backs_off(void **state)
{
        (void)state;
        struct rig r;
        rig_up(&r, 32, 100);
        struct wz_item it = item("a", "load", "", "load", "", "shortterm", 0, 1, 0.5);
        put(&r.t, &it);
        r.f.fail_start = EPERM;
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_BACKOFF);
        /* the half-started buffer was stopped so that the next START issues the DIAG again */
        assert_int_equal(r.f.nbuf, 0);
        assert_int_equal(r.f.nlog, 1);
        assert_int_equal(r.f.loglevel[0], LOG_ERR);
        assert_non_null(strstr(r.f.log[0], "OPTION APPLMON"));
        size_t writes = r.f.writes;
        /* while backing off, no new record is even attempted */
        for (int i = 0; i < 100; i++)
                assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, false), WZ_OK);
        assert_int_equal(r.f.writes, writes);
        /* retry: still refused, still one message */
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_BACKOFF);
        assert_int_equal(r.f.nlog, 1);
        /* fixed: one recovery notice */
        r.f.fail_start = 0;
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_OK);
        assert_int_equal(r.f.nlog, 2);
        assert_int_equal(r.f.loglevel[1], LOG_NOTICE);
        assert_int_equal(r.f.nbuf, 1);
        rig_down(&r);
}

/*
 * A complaint lasts while the device fails: after "works again" the same
 * failure is news and said again, and a failure of another errno is said at
 * once, not held back as a repeat of the first.
 */
static void each_episode_is_said_once(void **state)
{
        (void)state;
        struct rig r;
        rig_up(&r, 32, 100);
        struct wz_item it = item("a", "load", "", "load", "", "shortterm", 0, 1, 0.5);
        put(&r.t, &it);
        r.f.fail_start = EPERM;
        for (int i = 0; i < 3; i++)
                assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_BACKOFF);
        assert_int_equal(r.f.nlog, 1);
        r.f.fail_start = EINVAL;
        for (int i = 0; i < 3; i++)
                assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_BACKOFF);
        assert_int_equal(r.f.nlog, 2);
        assert_non_null(strstr(r.f.log[1], "EINVAL"));
        r.f.fail_start = 0;
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_OK);
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_OK);
        assert_int_equal(r.f.nlog, 3);
        assert_int_equal(r.f.loglevel[2], LOG_NOTICE);
        /* a second record that cannot start: the same errno as before, a new episode */
        fill(&r.t, 0, 90, 100);
        r.f.fail_start = EPERM;
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_BACKOFF);
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_BACKOFF);
        assert_int_equal(r.f.nlog, 4);
        assert_non_null(strstr(r.f.log[3], "OPTION APPLMON"));
        rig_down(&r);
}

static void enospc_names_max_bufs_and_keeps_updating(void **state)
{
        (void)state;
        struct rig r;
        rig_up(&r, 32, 10000);
        r.f.max_bufs = 1;
        fill(&r.t, 0, 100, 100);
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_BACKOFF);
        assert_int_equal(r.f.nbuf, 1);
        assert_int_equal(r.f.nlog, 1);
        assert_non_null(strstr(r.f.log[0], "max_bufs"));
        assert_non_null(strstr(r.f.log[0], "ENOSPC"));
        assert_int_equal(r.t.dropped_space, 0); /* the 27 left out are owed, not yet lost */
        /* backing off: record 0 is still updated, record 1 not attempted, no message */
        size_t writes = r.f.writes;
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, false), WZ_OK);
        assert_int_equal(r.f.writes, writes + 1);
        assert_int_equal(r.f.updates, 1);
        assert_int_equal(r.f.nlog, 1);
        rig_down(&r);
}

/*
 * K failed passes count the values lost, not K x the values left out: 100
 * values, max_bufs 1, so record 0 holds v000..v072 and v073..v099 (27) find no
 * buffer in six passes (ENOSPC, then backing off).  The old count was 6 x 27.
 */
static void dropped_space_counts_values_not_passes(void **state)
{
        (void)state;
        struct rig r;
        rig_up(&r, 32, 10000);
        r.f.max_bufs = 1;
        fill(&r.t, 0, 100, 100);
        for (int k = 0; k < 6; k++)
                wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, k % 2 == 0);
        assert_int_equal(r.f.starts, 1);
        assert_int_equal(r.t.dropped_space, 0); /* nothing has left the table yet */
        fill(&r.t, 80, 10, 101);                /* v080..v089 replaced: 10 values lost */
        assert_int_equal(r.t.dropped_space, 10);
        fill(&r.t, 0, 5, 101); /* v000..v004 were written: their replacement loses nothing */
        assert_int_equal(r.t.dropped_space, 10);
        fill(&r.t, 80, 10, 102); /* the replacements were in no pass: the newest one wins */
        assert_int_equal(r.t.dropped_space, 10);
        assert_int_equal(r.t.merged, 10); /* merged, not lost: counted apart */
        r.f.max_bufs = 255;               /* recovered: everything in the table is written */
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_OK);
        assert_int_equal(r.f.starts, 2);
        assert_int_equal(wz_table_expire(&r.t, 1000, 2), 100);
        assert_int_equal(r.t.dropped_space, 10);
        assert_int_equal(r.t.dropped_expired, 0);
        rig_down(&r);
}

/* Written once in an accepted record: never counted, whatever later passes do. */
static void a_value_written_once_is_not_counted(void **state)
{
        (void)state;
        struct rig r;
        rig_up(&r, 32, 100);
        struct wz_item it = item("a", "load", "", "load", "", "shortterm", 0, 1, 0.5);
        put(&r.t, &it);
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_OK);
        r.f.fail_any = ENOSPC; /* every update refused from now on */
        for (int k = 0; k < 5; k++)
                assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_BACKOFF);
        it.e.value = 1;
        put(&r.t, &it); /* the written value goes */
        assert_int_equal(r.t.dropped_space, 0);
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, false), WZ_BACKOFF);
        it.e.value = 2;
        put(&r.t, &it); /* value 1 was in a failed pass only: lost */
        assert_int_equal(r.t.dropped_space, 1);
        assert_int_equal(r.t.merged, 0);
        r.f.fail_any = 0;
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_OK);
        assert_int_equal(wz_table_expire(&r.t, 1000, 2), 1); /* value 2 was written */
        assert_int_equal(r.t.dropped_space, 1);
        assert_int_equal(r.t.dropped_expired, 0);
        rig_down(&r);
}

/*
 * Expired unwritten: left out by a pass (MaxRecords 1 holds 73 of 100) is
 * dropped_space; never met by a pass is dropped_expired; a tick without a
 * device leaves everything out.  Values seen at 100 with interval 10 and
 * Timeout 2 are gone at 121.
 */
static void unwritten_values_that_expire_are_counted(void **state)
{
        (void)state;
        struct rig r;
        rig_up(&r, 1, 10000);
        fill(&r.t, 0, 100, 100);
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_OK);
        fill(&r.t, 100, 3, 100); /* after the pass: no pass meets them */
        assert_int_equal(wz_table_expire(&r.t, 120, 2), 0);
        assert_int_equal(wz_table_expire(&r.t, 121, 2), 103);
        assert_int_equal(r.t.dropped_space, 27);
        assert_int_equal(r.t.dropped_expired, 3);
        /* the device is away at a WriteInterval: 4 values owed, then 2 replaced, 2 expire */
        fill(&r.t, 0, 4, 200);
        wz_table_missed(&r.t);
        fill(&r.t, 0, 2, 205);
        assert_int_equal(r.t.dropped_space, 29);
        assert_int_equal(wz_table_expire(&r.t, 221, 2), 2); /* v002, v003 seen at 200 */
        assert_int_equal(r.t.dropped_space, 31);
        assert_int_equal(r.t.dropped_expired, 3);
        rig_down(&r);
}

/* A type too large for any record (70 x 108 bytes > 3910) is never written, so owed. */
static void a_type_larger_than_a_record_is_owed(void **state)
{
        (void)state;
        struct rig r;
        rig_up(&r, 32, 1000);
        char ds[61];
        memset(ds, 'd', 60);
        ds[60] = 0;
        for (uint8_t i = 0; i < 70; i++) {
                struct wz_item it = item("a", "plugin", "inst", "gauge", "v000", ds, i, 70, i);
                assert_int_equal(wzvm_entry_size(&it.e), 24 + 7 + 5 + 6 + 5 + 61);
                put(&r.t, &it);
        }
        struct wz_item b = item("b", "p", "", "gauge", "", "value", 0, 1, 0);
        put(&r.t, &b);
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_OK);
        assert_int_equal(r.f.starts, 1); /* host b's record only */
        assert_int_equal(wz_table_expire(&r.t, 1000, 2), 71);
        assert_int_equal(r.t.dropped_space, 70);
        rig_down(&r);
}

static void einval_and_device_errors(void **state)
{
        (void)state;
        struct rig r;
        rig_up(&r, 32, 100);
        struct wz_item it = item("a", "load", "", "load", "", "shortterm", 0, 1, 0.5);
        put(&r.t, &it);
        r.f.fail_start = EINVAL;
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_BACKOFF);
        assert_int_equal(r.f.nlog, 1);
        assert_non_null(strstr(r.f.log[0], "EINVAL"));
        assert_non_null(strstr(r.f.log[0], "datalen 4010"));
        assert_non_null(strstr(r.f.log[0], "hdrlen 13"));
        r.f.fail_start = 0;
        r.f.fail_any = EIO;
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_REOPEN);
        assert_int_equal(r.f.nlog, 2);
        wz_writer_closed(&r.w);
        assert_int_equal(r.w.nstarted, 0);
        rig_down(&r);
}

/*
 * collectd stops and CP takes 10 s a record: the last pass may write until the
 * deadline (15 s) and not after.  200 values of 53 bytes (names "plugin",
 * "inst", "gauge", "v000", "value": 24 + 5 + 24) fill records of 3910 bytes of
 * entries with 73, 73 and 54: record 0 is written by 10 s, record 1 by 20 s,
 * after the deadline (accepted, so written), record 2 never; the STOPs of
 * records no longer needed are not sent either.  What the deadline found
 * unwritten is what the table says is unwritten.  After it, a failing write
 * says nothing: collectd may be taking its log down.
 */
static void the_deadline_stops_a_pass_and_silences_it(void **state)
{
        (void)state;
        struct rig r;
        rig_up(&r, 32, 1000);
        fill(&r.t, 0, 200, 100);
        r.f.per_write = 10;
        r.f.deadline = 15;
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_LATE);
        assert_int_equal(r.f.writes, 2);
        assert_int_equal(r.w.nstarted, 2);
        assert_int_equal(wz_table_unwritten(&r.t), 54);
        assert_int_equal(rec_nentries(fake_buf(&r.f, 1)), 73);
        /* late before it starts: nothing written, all of it owed */
        wz_table_free(&r.t);
        wz_table_init(&r.t, 1000);
        fill(&r.t, 0, 200, 100);
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_LATE);
        assert_int_equal(r.f.writes, 2);
        assert_int_equal(wz_table_unwritten(&r.t), 200);
        /* records no longer needed: no STOP after the deadline */
        wz_table_free(&r.t);
        wz_table_init(&r.t, 1000);
        fill(&r.t, 0, 10, 100);
        r.f.now = 0;
        r.f.deadline = 5;
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_LATE);
        assert_int_equal(r.f.writes, 3);
        assert_int_equal(r.f.stops, 0);
        assert_int_equal(r.w.nstarted, 2);
        /* a write that fails past the deadline: counted, not said, no reopen */
        r.f.now = 0;
        r.f.deadline = 5;
        r.f.fail_any = EIO;
        uint64_t errors = r.w.errors;
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_LATE);
        assert_int_equal(r.w.errors, errors + 1);
        assert_int_equal(r.f.nlog, 0);
        /* before the deadline the same failure is said */
        r.f.now = 0;
        r.f.deadline = 0;
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_REOPEN);
        assert_int_equal(r.f.nlog, 1);
        rig_down(&r);
}

/* What the metric engine makes of the records: value lists, values, records dropped. */
struct decoded {
        size_t lists, values;
};

static void count_values(void *ctx, const struct zm_metric *m)
{
        struct decoded *d = ctx;
        d->lists++;
        d->values += m->nvalues;
}

/* The record of buffer mod as z/VM hands it on: a D10R2 of guest LINUX01. */
static void decode(struct zm_engine *e, const uint8_t *data, uint16_t mod)
{
        uint8_t prodid[16];
        vec_lnx_prodid(prodid, WZVM_DEFAULT_APPLID, 1, 1, 0, mod);
        static uint8_t rec[52 + WZVM_RECORD_LEN];
        struct zd_record r =
            vec_record(rec, vec_d10(rec, 2, "LINUX01", prodid, data, WZVM_RECORD_LEN));
        r.tod = VEC_TOD_2026;
        zm_engine_record(e, &r);
}

/* Every record a writer with room for nrec records makes of t, through the metric engine. */
static struct decoded write_and_decode(struct wz_table *t, unsigned nrec, uint64_t *appl_bad)
{
        struct wz_writer w;
        static struct fake f;
        writer_setup(&w, &f, nrec);
        assert_int_equal(wz_writer_pass(&w, t, VEC_TOD_2026, true), WZ_OK);
        assert_int_equal(f.nbuf, nrec);
        struct decoded d = {0};
        struct zm_engine *e = zm_engine_new(NULL, count_values, NULL, &d);
        assert_non_null(e);
        for (uint16_t mod = 0; mod < nrec; mod++)
                decode(e, fake_buf(&f, mod), mod);
        *appl_bad = zm_engine_counters(e)->appl_bad;
        zm_engine_free(e);
        return d;
}

/*
 * MaxRecords 1 makes a table of 163 values: 162 single values, then load's
 * three, of which one more would fit.  load's first value without the other
 * two made a record that a reader drops whole (appl_bad), every pass.
 */
static void a_list_enters_the_table_whole_or_not_at_all(void **state)
{
        (void)state;
        struct wz_queue q;
        assert_int_equal(wz_queue_init(&q, 1024), 0);
        for (int i = 0; i < 162; i++) {
                char ti[16];
                snprintf(ti, sizeof(ti), "v%03d", i);
                struct wz_item it = item("a", "plugin", "inst", "gauge", ti, "value", 0, 1, i);
                it.e.time = VEC_TOD_2026;
                assert_true(wz_queue_push(&q, &it, 1));
        }
        const char *ds[3] = {"shortterm", "midterm", "longterm"};
        struct wz_item load[3];
        for (uint8_t i = 0; i < 3; i++) {
                load[i] = item("a", "load", "", "load", "", ds[i], i, 3, 0.5);
                load[i].e.time = VEC_TOD_2026;
        }
        assert_true(wz_queue_push(&q, load, 3));
        struct wz_table t;
        wz_table_init(&t, 163);
        static struct wz_item buf[WZ_LIST_MAX]; /* as the writer thread drains */
        size_t n;
        enum wz_put why = WZ_PUT_OK;
        while ((n = wz_queue_pop_lists(&q, buf, WZ_LIST_MAX)) > 0)
                wz_table_put_lists(&t, buf, n, &why);
        assert_int_equal(why, WZ_PUT_FULL);
        /* "load" sorts before "plugin": its values would lead record 0 */
        uint64_t bad;
        struct decoded d = write_and_decode(&t, 1, &bad);
        assert_int_equal(bad, 0);
        assert_int_equal(d.values, 73); /* 3910 / 53 */
        /* the 162 are all there: records enough for them bring each back */
        d = write_and_decode(&t, 3, &bad);
        assert_int_equal(bad, 0);
        assert_int_equal(d.values, 162);
        assert_int_equal(d.lists, 162);
        assert_int_equal(t.n, 162);
        assert_int_equal(t.dropped_full, 3); /* the whole list, counted once each */
        wz_table_free(&t);
        wz_queue_destroy(&q);
}

/* A pop never ends inside a value list, so the table sees every list whole. */
static void a_pop_never_splits_a_list(void **state)
{
        (void)state;
        struct wz_queue q;
        assert_int_equal(wz_queue_init(&q, 16), 0);
        struct wz_item it[3];
        for (uint8_t i = 0; i < 3; i++)
                it[i] = item("h", "load", "", "load", "", "shortterm", i, 3, i);
        assert_true(wz_queue_push(&q, it, 3));
        assert_true(wz_queue_push(&q, it, 3));
        struct wz_item out[8];
        assert_int_equal(wz_queue_pop_lists(&q, out, 5), 3);
        assert_int_equal(wz_queue_pop_lists(&q, out, 2), 0);
        assert_int_equal(wz_queue_pop_lists(&q, out, 8), 3);
        assert_int_equal(out[2].e.ds_index, 2);
        /* up to max items: lists that fill it exactly go out, a list of max items too */
        assert_true(wz_queue_push(&q, it, 3));
        assert_true(wz_queue_push(&q, it, 3));
        assert_true(wz_queue_push(&q, it, 3));
        assert_int_equal(wz_queue_pop_lists(&q, out, 6), 6);
        assert_int_equal(wz_queue_pop_lists(&q, out, 3), 3);
        wz_queue_destroy(&q);
}

/*
 * A STOP written short leaves the driver's parser inside a header, and the
 * next START would be misread; a STOP failing with other than the DIAG's
 * EPERM or EINVAL leaves the device in doubt.  Both reopen it; a failed DIAG
 * (the buffer is freed all the same) does not.
 */
static void a_failed_stop_reopens_the_device(void **state)
{
        (void)state;
        struct rig r;
        rig_up(&r, 32, 10000);
        fill(&r.t, 0, 100, 100); /* two records */
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_OK);
        r.t.n = 10; /* record 1 is no longer needed */
        r.f.short_stop = true;
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_REOPEN);
        assert_int_equal(r.w.errors, 1);
        assert_int_equal(r.f.nlog, 1);
        assert_int_equal(r.f.loglevel[0], LOG_ERR);
        assert_non_null(strstr(r.f.log[0], "STOP of record 1"));
        assert_non_null(strstr(r.f.log[0], "reopening"));
        wz_writer_closed(&r.w);
        r.f.short_stop = false;
        r.f.nbuf = 0; /* closing the device freed every buffer */
        fill(&r.t, 10, 90, 100);
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_OK);
        assert_int_equal(r.f.nlog, 2); /* works again */
        r.t.n = 10;
        r.f.fail_stop = EPERM;
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_OK);
        assert_int_equal(r.f.loglevel[2], LOG_WARNING);
        assert_int_equal(r.w.nstarted, 1);
        fill(&r.t, 10, 90, 100);
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_OK);
        r.t.n = 10;
        r.f.fail_stop = ENOMEM;
        assert_int_equal(wz_writer_pass(&r.w, &r.t, VEC_TOD_2026, true), WZ_REOPEN);
        assert_int_equal(r.w.errors, 3);
        rig_down(&r);
}

static void filter_rules(void **state)
{
        (void)state;
        struct wz_filter f = {0};
        assert_true(wz_filter_pass(&f, "cpu", "cpu")); /* no rules: everything */
        assert_true(wz_filter_add(&f, false, "memory/memory"));
        assert_false(wz_filter_pass(&f, "memory", "memory"));
        assert_true(wz_filter_pass(&f, "memory", "percent"));
        assert_true(wz_filter_add(&f, true, "cpu"));
        assert_true(wz_filter_add(&f, true, "*/percent"));
        assert_true(wz_filter_pass(&f, "cpu", "cpu"));
        assert_true(wz_filter_pass(&f, "memory", "percent"));
        assert_false(wz_filter_pass(&f, "load", "load"));
        assert_false(wz_filter_add(&f, true, ""));
        assert_false(wz_filter_add(&f, true, "a/b/c"));
        assert_false(wz_filter_add(&f, true, "cpu/"));
        assert_false(wz_filter_add(&f, true, "/cpu"));
        wz_filter_free(&f);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(queue_is_bounded_and_all_or_nothing),
            cmocka_unit_test(a_half_full_queue_wakes_the_writer),
            cmocka_unit_test(a_value_enters_owed),
            cmocka_unit_test(table_updates_in_place_sorted_and_expires),
            cmocka_unit_test(an_emptied_table_gives_back_its_peak),
            cmocka_unit_test(names_follow_the_format),
            cmocka_unit_test(plan_groups_hosts_and_types),
            cmocka_unit_test(writer_starts_updates_and_stops),
            cmocka_unit_test(eperm_logs_once_and_backs_off),
            cmocka_unit_test(each_episode_is_said_once),
            cmocka_unit_test(enospc_names_max_bufs_and_keeps_updating),
            cmocka_unit_test(dropped_space_counts_values_not_passes),
            cmocka_unit_test(a_value_written_once_is_not_counted),
            cmocka_unit_test(unwritten_values_that_expire_are_counted),
            cmocka_unit_test(a_type_larger_than_a_record_is_owed),
            cmocka_unit_test(einval_and_device_errors),
            cmocka_unit_test(the_deadline_stops_a_pass_and_silences_it),
            cmocka_unit_test(a_list_enters_the_table_whole_or_not_at_all),
            cmocka_unit_test(a_pop_never_splits_a_list),
            cmocka_unit_test(a_failed_stop_reopens_the_device),
            cmocka_unit_test(filter_rules),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
