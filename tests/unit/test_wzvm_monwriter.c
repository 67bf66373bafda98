/* SPDX-License-Identifier: MIT */
/*
 * write_zvm's writer against zvmsim's /dev/monwriter as the driver has behaved
 * since mid-2026 (doc/facts/kernel-drivers.md 2.5): a buffer rewritten with
 * another data length gets EINVAL.  write_zvm keeps one length per buffer
 * (record i is mod_level i, always 4010 bytes; a size would change only by
 * STOP and START): over passes whose tables need 1 to 11 records, EPERM,
 * ENOSPC and a reopen, the device never answers EINVAL, and what CP samples
 * is one record per mod level, each holding what the plan put in it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <collectd/core/daemon/plugin.h>

#include "sim_monwriter.h"
#include "write_zvm_core.h"

/* The daemon's symbols the writer calls: its log (kept) and complaints. */
static char lastlog[1024];
static size_t nlog;

void plugin_log(int level, const char *format, ...)
{
        (void)level;
        va_list ap;
        va_start(ap, format);
        vsnprintf(lastlog, sizeof(lastlog), format, ap);
        va_end(ap);
        nlog++;
}

cdtime_t cdtime(void)
{
        return (cdtime_t)1 << 40;
}

#include "cd_complain.h"

/* ---- the device: zvmsim's monwriter, counting what it refused ---- */
static struct sim_mw mw;
static struct sim_mw_file *file;
static size_t einval, refused, writes;

static ssize_t sim_write(void *ctx, const void *p, size_t n)
{
        (void)ctx;
        writes++;
        ssize_t rc = sim_mw_write(file, p, n);
        if (rc >= 0)
                return rc;
        refused++;
        einval += rc == -EINVAL;
        errno = (int)-rc;
        return -1;
}

static uint16_t be16(const uint8_t *p)
{
        return (uint16_t)(p[0] << 8 | p[1]);
}

/* What CP samples: the active buffers, checked against the writer's plan. */
struct sampled {
        const struct wz_writer *w;
        unsigned n;
        size_t entries;
        bool bad;
};

static void check_buf(void *ctx, const struct sim_mw_buf *b)
{
        struct sampled *s = ctx;
        const uint8_t *d = b->data;
        unsigned idx = b->hdr.mod_level;
        /* the write_zvm header (doc/write_zvm.md): eyecatcher, rec_index at 28, nentries at 20 */
        bool ok = b->hdr.applid == WZVM_DEFAULT_APPLID && b->hdr.datalen == 4010 &&
                  memcmp(d, "WZVM", 4) == 0 && be16(d + 28) == idx && idx < s->w->nstarted;
        s->bad |= !ok;
        s->n++;
        s->entries += be16(d + 20);
}

/* values named v00000.. of host "a", 53 bytes each: 73 fill a record */
static void fill(struct wz_table *t, unsigned from, unsigned n, double seen)
{
        for (unsigned i = from; i < from + n; i++) {
                struct wz_item it;
                memset(&it, 0, sizeof(it));
                char ti[16];
                snprintf(ti, sizeof(ti), "v%04u", i % 10000);
                assert_true(wz_item_set_names(&it, "a", "plugin", "ins", "gauge", ti, "value"));
                it.e.ds_type = WZVM_DS_GAUGE;
                it.e.ds_count = 1;
                it.seen = seen;
                it.interval = 10;
                assert_int_equal(wz_table_put_list(t, &it, 1), WZ_PUT_OK);
        }
}

/* One pass at time now with the table as it is; what CP would sample after it. */
static enum wz_result pass(struct wz_writer *w, struct wz_table *t, double now, struct sampled *s)
{
        wz_table_expire(t, now, 1);
        enum wz_result r = wz_writer_pass(w, t, (uint64_t)now << 32, true);
        memset(s, 0, sizeof(*s));
        s->w = w;
        sim_mw_foreach(&mw, false, check_buf, s);
        return r;
}

static void one_length_per_buffer_under_the_2026_driver(void **state)
{
        (void)state;
        sim_mw_init(&mw, "LNXA");
        assert_false(mw.old_resize); /* the 2026 behaviour is zvmsim's default */
        file = sim_mw_open(&mw);
        struct wz_writer w;
        wz_writer_init(&w, WZVM_DEFAULT_APPLID, 32, 10000);
        w.dev.write = sim_write;
        w.dev.ctx = NULL;
        struct wz_table t;
        wz_table_init(&t, 32 * 163);
        /* values per round: 1 to 11 records, growing and shrinking */
        static const unsigned sizes[] = {10, 300, 80, 700, 5, 150, 800, 73, 74, 0, 500, 20};
        double now = 100;
        unsigned next = 0, passes = 0;
        struct sampled s;
        for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++, now += 20) {
                fill(&t, next, sizes[k], now); /* the last round's values expire (1 x 10 s) */
                next += sizes[k];
                for (int rep = 0; rep < 2; rep++, passes++) { /* START, then update */
                        assert_int_equal(pass(&w, &t, now + rep, &s), WZ_OK);
                        assert_false(s.bad);
                        assert_int_equal(s.n, w.nstarted);
                        assert_int_equal(s.n, (sizes[k] + 72) / 73);
                        assert_int_equal(s.entries, sizes[k]);
                }
        }
        /* EPERM while records are needed, then again without */
        fill(&t, next, 400, now);
        mw.eperm = true;
        assert_int_equal(pass(&w, &t, now, &s), WZ_BACKOFF);
        mw.eperm = false;
        assert_int_equal(pass(&w, &t, now, &s), WZ_OK);
        assert_int_equal(s.n, 6);
        assert_int_equal(s.entries, 400);
        /* ENOSPC past eight buffers: the six and two new ones go on being updated */
        now += 20;
        fill(&t, next + 400, 700, now);
        mw.max_bufs = 8;
        assert_int_equal(pass(&w, &t, now, &s), WZ_BACKOFF);
        assert_int_equal(s.n, 8);
        assert_int_equal(pass(&w, &t, now, &s), WZ_BACKOFF);
        mw.max_bufs = SIM_MW_MAX_BUFS;
        assert_int_equal(pass(&w, &t, now, &s), WZ_OK);
        assert_int_equal(s.n, 10);
        /* the device closed and opened again: every buffer new */
        sim_mw_close(file);
        file = sim_mw_open(&mw);
        wz_writer_closed(&w);
        assert_int_equal(pass(&w, &t, now, &s), WZ_OK);
        assert_false(s.bad);
        assert_int_equal(s.n, 10);
        assert_true(passes >= 24 && writes > 100);
        assert_true(refused > 0); /* the EPERM and ENOSPC rounds */
        assert_int_equal(einval, 0);
        assert_null(strstr(lastlog, "EINVAL"));
        /* the rig sees EINVAL when there is one: record 0 rewritten 2000 bytes long */
        static uint8_t rec[13 + 2000];
        rec[0] = 0;                        /* START_INTERVAL */
        rec[1] = WZVM_DEFAULT_APPLID >> 8; /* applid, record 1, version 1, release 0 */
        rec[2] = WZVM_DEFAULT_APPLID & 0xFF;
        rec[3] = 1;
        rec[5] = 1;
        rec[10] = 2000 >> 8;
        rec[11] = 2000 & 0xFF;
        rec[12] = 13;
        assert_int_equal(sim_write(NULL, rec, sizeof(rec)), -1);
        assert_int_equal(errno, EINVAL);
        assert_int_equal(einval, 1);
        wz_table_free(&t);
        sim_mw_fini(&mw);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(one_length_per_buffer_under_the_2026_driver),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
