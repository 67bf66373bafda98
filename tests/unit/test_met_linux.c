/* SPDX-License-Identifier: MIT */
/*
 * met_linux: kernel APPLDATA and s390-tools monwriter records to collectd's
 * Linux plugin identifiers.  Vectors from doc/facts/kernel-drivers.md 4 and
 * doc/facts/s390-tools.md.
 */
#include <stdio.h>
#include <stdlib.h>

#include "vec_appl.h"

#include "kept_metric.h"
#include "layout/lay_file.h"
#include "metric/metric.h"
#include "payload/appldata/appl.h"
#include "base/tod.h"

#define MAXM 256
struct got {
        size_t n;
        struct zm_metric m[MAXM];
        struct kept_names names[MAXM];
};

static void collect(void *ctx, const struct zm_metric *m)
{
        struct got *g = ctx;
        if (g->n < MAXM) {
                keep_metric(&g->m[g->n], &g->names[g->n], m);
                g->n++;
        }
}

static const struct zm_metric *find(const struct got *g, const char *plugin, const char *pinst,
                                    const char *type, const char *tinst)
{
        for (size_t i = 0; i < g->n; i++)
                if (!strcmp(g->m[i].plugin, plugin) && !strcmp(g->m[i].plugin_instance, pinst) &&
                    !strcmp(g->m[i].type, type) && !strcmp(g->m[i].type_instance, tinst))
                        return &g->m[i];
        return NULL;
}

static size_t count_id(const struct got *g, const char *plugin, const char *type, const char *tinst)
{
        size_t k = 0;
        for (size_t i = 0; i < g->n; i++)
                k += !strcmp(g->m[i].plugin, plugin) && !strcmp(g->m[i].type, type) &&
                     !strcmp(g->m[i].type_instance, tinst);
        return k;
}

static void feed(struct zm_engine *e, const uint8_t *rec, size_t len)
{
        struct zd_record r = vec_record(rec, len);
        r.tod = VEC_TOD_2026;
        zm_engine_record(e, &r);
}

/* CP's Interval End (D1R11): a guest's process states of the interval go out then. */
static void interval_end(struct zm_engine *e)
{
        struct zd_record end;
        memset(&end, 0, sizeof(end));
        end.domain = 1;
        end.number = 11;
        end.tod = VEC_TOD_2026;
        zm_engine_interval_end(e, &end);
}

/*
 * Most tests' engine, with default options, and what it emitted; made and
 * freed around the test by cmocka, so a failed assertion leaks nothing.
 */
struct engine_fx {
        struct got g;
        struct zm_engine *e;
};

static int setup_engine(void **state)
{
        struct engine_fx *fx = calloc(1, sizeof(*fx));
        *state = fx;
        if (!fx)
                return -1;
        fx->e = zm_engine_new(NULL, collect, NULL, &fx->g);
        if (fx->e)
                return 0;
        free(fx); /* cmocka tears down only what was set up */
        return -1;
}

static int teardown_engine(void **state)
{
        struct engine_fx *fx = *state;
        zm_engine_free(fx->e);
        free(fx);
        return 0;
}

#define ENGINE_TEST(t) cmocka_unit_test_setup_teardown(t, setup_engine, teardown_engine)

#define TS (VEC_TOD_2026 - (UINT64_C(5000000) << 12)) /* the guest's stamp: 5 s before CP's */

/* MEM record (6.4), offsets from the table. */
static size_t mem_data(uint8_t *d, uint64_t ts, uint32_t s1, uint32_t s2)
{
        memset(d, 0, 144);
        vec_lx_common(d, ts, s1, s2);
        be64(d + 16, 1000);   /* pgpgin KB */
        be64(d + 24, 2000);   /* pgpgout KB */
        be64(d + 32, 30);     /* pswpin */
        be64(d + 40, 40);     /* pswpout */
        be64(d + 56, 100000); /* totalram KB */
        be64(d + 64, 20000);  /* freeram */
        be64(d + 88, 5000);   /* bufferram */
        be64(d + 96, 25000);  /* cached */
        be64(d + 104, 8000);  /* totalswap */
        be64(d + 112, 6000);  /* freeswap */
        be64(d + 120, 777);   /* pgalloc */
        be64(d + 128, 9000);  /* pgfault */
        be64(d + 136, 90);    /* pgmajfault */
        return 144;
}

static void mem_maps_to_memory_swap_vmem(void **state)
{
        struct engine_fx *fx = *state;
        uint8_t data[144], rec[256], pid[16];
        mem_data(data, TS, 5, 5);
        vec_lx_prodid(pid, 1, "00");
        size_t len = vec_d10(rec, 2, "LINUX01", pid, data, 144);
        feed(fx->e, rec, len);

        const struct zm_metric *m = find(&fx->g, "memory", "", "memory", "used");
        assert_non_null(m);
        assert_int_equal(m->scope, ZM_GUEST);
        assert_string_equal(m->guest, "LINUX01");
        assert_true(m->tod == TS); /* the guest's own stamp, not the CP header's */
        assert_int_equal(m->ds[0], ZM_GAUGE);
        assert_true(m->gauge[0] == (100000.0 - 20000 - 5000 - 25000) * 1024);
        assert_true(find(&fx->g, "memory", "", "memory", "free")->gauge[0] == 20000.0 * 1024);
        assert_true(find(&fx->g, "memory", "", "memory", "buffered")->gauge[0] == 5000.0 * 1024);
        assert_true(find(&fx->g, "memory", "", "memory", "cached")->gauge[0] == 25000.0 * 1024);
        assert_true(find(&fx->g, "swap", "", "swap", "used")->gauge[0] == 2000.0 * 1024);
        assert_true(find(&fx->g, "swap", "", "swap", "free")->gauge[0] == 6000.0 * 1024);
        m = find(&fx->g, "swap", "", "swap_io", "in");
        assert_int_equal(m->ds[0], ZM_DERIVE);
        assert_true(m->derive[0] == 30);
        assert_true(find(&fx->g, "swap", "", "swap_io", "out")->derive[0] == 40);
        m = find(&fx->g, "vmem", "", "vmpage_io", "memory");
        assert_int_equal(m->nvalues, 2);
        assert_true(m->derive[0] == 1000 && m->derive[1] == 2000);
        m = find(&fx->g, "vmem", "", "vmpage_io", "swap");
        assert_true(m->derive[0] == 30 && m->derive[1] == 40);
        m = find(&fx->g, "vmem", "", "vmpage_faults", "");
        assert_true(m->derive[0] == 9000 && m->derive[1] == 90);
        assert_int_equal(fx->g.n, 11);
}

/*
 * swap as collectd's swap plugin sends it from /proc/meminfo without
 * SwapCached (APPLDATA has none; swap_read_combined in collectd 5.12):
 * used = SwapTotal - SwapFree and free; with no swap both 0, both sent;
 * with more free than total (a record that cannot be) nothing, where it
 * returns EINVAL.  Before, used was clamped to 0 and free sent.
 */
static void swap_as_collectds_swap_plugin(void **state)
{
        struct engine_fx *fx = *state;
        uint8_t data[144], rec[256], pid[16];
        vec_lx_prodid(pid, 1, "00");
        mem_data(data, TS, 5, 5);
        be64(data + 104, 0); /* totalswap: no swap */
        be64(data + 112, 0); /* freeswap */
        feed(fx->e, rec, vec_d10(rec, 2, "NOSWAP", pid, data, 144));
        assert_true(find(&fx->g, "swap", "", "swap", "used")->gauge[0] == 0);
        assert_true(find(&fx->g, "swap", "", "swap", "free")->gauge[0] == 0);
        fx->g.n = 0;
        mem_data(data, TS, 5, 5);
        be64(data + 104, 100); /* totalswap */
        be64(data + 112, 200); /* freeswap */
        feed(fx->e, rec, vec_d10(rec, 2, "ODDSWAP", pid, data, 144));
        assert_null(find(&fx->g, "swap", "", "swap", "used"));
        assert_null(find(&fx->g, "swap", "", "swap", "free"));
        assert_non_null(find(&fx->g, "swap", "", "swap_io", "in")); /* the rest as ever */
        assert_int_equal(fx->g.n, 9);
}

/*
 * The load as collectd's load plugin on the guest has it: getloadavg reads
 * /proc/loadavg, which prints LOAD_INT(a).LOAD_FRAC(a) with a = avenrun +
 * FIXED_1/200 (FSHIFT 11: LOAD_INT(x) = x >> 11, LOAD_FRAC(x) =
 * LOAD_INT((x & 2047) * 100)); the record's avenrun already holds a
 * (appldata_os.c adds FIXED_1/200).  So a = 3082 is "1.50" (3082 >> 11 =
 * 1; 1034 * 100 >> 11 = 50), not 3082 / 2048 = 1.5048828125; a = 2047 is
 * "0.99" (204700 >> 11 = 99); a = 10, an idle guest's 0 + 10, is "0.00".
 */
static void load_as_proc_loadavg_prints_it(void **state)
{
        struct engine_fx *fx = *state;
        uint8_t data[52 + 36], rec[300], pid[16];
        size_t dl = vec_lx_os(data, 1, 36, TS);
        be32(data + 36, 3082);
        be32(data + 40, 2047);
        be32(data + 44, 10);
        vec_lx_prodid(pid, 2, "01");
        feed(fx->e, rec, vec_d10(rec, 2, "LNXLOAD", pid, data, (uint16_t)dl));
        const struct zm_metric *m = find(&fx->g, "load", "", "load", "");
        assert_non_null(m);
        assert_true(m->gauge[0] == strtod("1.50", NULL));
        assert_true(m->gauge[1] == strtod("0.99", NULL));
        assert_true(m->gauge[2] == strtod("0.00", NULL));
        fx->g.n = 0;
        dl = vec_lx_os(data, 1, 36, TS + 4096);
        be32(data + 36, UINT32_MAX); /* the largest: 2097151.99 */
        be32(data + 40, 2048 + 20);  /* 1.00 (20 * 100 >> 11 = 0) */
        be32(data + 44, 2048 + 21);  /* 1.01 (2100 >> 11 = 1) */
        feed(fx->e, rec, vec_d10(rec, 2, "LNXLOAD", pid, data, (uint16_t)dl));
        m = find(&fx->g, "load", "", "load", "");
        assert_true(m->gauge[0] == strtod("2097151.99", NULL));
        assert_true(m->gauge[1] == 1.0);
        assert_true(m->gauge[2] == strtod("1.01", NULL));
}

/*
 * A header whose CALDATOF points past the record is counted once (appl_bad),
 * however many modules read APPLDATA, makes nothing and names no guest; a
 * whole one names the guest CP stamped on it.
 */
static void lying_header_counted_once(void **state)
{
        struct engine_fx *fx = *state;
        uint8_t data[144], rec[256], pid[16];
        mem_data(data, TS, 5, 5);
        vec_lx_prodid(pid, 1, "00");
        size_t len = vec_d10(rec, 2, "LINUX01", pid, data, 144);
        be16(rec + 20, (uint16_t)(len + 1)); /* CALDATOF past the end */
        feed(fx->e, rec, len);
        assert_int_equal(fx->g.n, 0);
        assert_int_equal(zm_engine_counters(fx->e)->appl_bad, 1);
        assert_false(zm_engine_knows_guest(fx->e, "LINUX01"));
        len = vec_d10(rec, 2, "LINUX01", pid, data, 144);
        feed(fx->e, rec, len);
        assert_int_equal(fx->g.n, 11);
        assert_int_equal(zm_engine_counters(fx->e)->appl_bad, 1);
        assert_true(zm_engine_knows_guest(fx->e, "LINUX01"));
}

static void mem_sync_mismatch_dropped_and_stale_not_repeated(void **state)
{
        struct engine_fx *fx = *state;
        uint8_t data[144], rec[256], pid[16];
        vec_lx_prodid(pid, 1, "00");
        mem_data(data, TS, 6, 5); /* caught mid-update */
        size_t len = vec_d10(rec, 2, "LINUX01", pid, data, 144);
        feed(fx->e, rec, len);
        assert_int_equal(fx->g.n, 0);
        assert_int_equal(zm_engine_counters(fx->e)->appl_sync, 1);

        mem_data(data, TS, 6, 6);
        len = vec_d10(rec, 2, "LINUX01", pid, data, 144);
        feed(fx->e, rec, len);
        size_t first = fx->g.n;
        assert_int_equal(first, 11);
        feed(fx->e, rec, len); /* the next CP sample of an unchanged buffer */
        assert_int_equal(fx->g.n, first);
        assert_int_equal(zm_engine_counters(fx->e)->appl_stale, 1);
        /* Another guest with the same stamp is not stale. */
        len = vec_d10(rec, 2, "LINUX02", pid, data, 144);
        feed(fx->e, rec, len);
        assert_int_equal(fx->g.n, 2 * first);
}

static void os_maps_load_processes_cpu(void **state)
{
        struct engine_fx *fx = *state;
        uint8_t data[52 + 3 * 36], rec[400], pid[16];
        size_t dl = vec_lx_os(data, 3, 36, TS);
        be32(data + 52 + 2 * 36 + 32, 7); /* third entry is Linux CPU 7 */
        vec_lx_prodid(pid, 2, "01");
        size_t len = vec_d10(rec, 2, "LNXWEB", pid, data, (uint16_t)dl);
        feed(fx->e, rec, len);

        const struct zm_metric *m = find(&fx->g, "load", "", "load", "");
        assert_non_null(m);
        assert_int_equal(m->nvalues, 3);
        assert_true(m->gauge[0] == 0.5 && m->gauge[1] == 1.0 && m->gauge[2] == 2.5);
        assert_true(find(&fx->g, "processes", "", "ps_state", "running")->gauge[0] == 3);
        /* nr_iowait: a guest without mon_procd's, sent when the interval ends */
        assert_null(find(&fx->g, "processes", "", "ps_state", "blocked"));
        interval_end(fx->e);
        m = find(&fx->g, "processes", "", "ps_state", "blocked");
        assert_true(m && m->gauge[0] == 1 && m->tod == TS);
        /* vec_lx_os: entry i field f holds 1000*i + f + 1 (user, nice, system, idle, irq, softirq,
         * iowait, steal). */
        static const char *const st[] = {"user",      "nice",    "system", "idle",
                                         "interrupt", "softirq", "wait",   "steal"};
        for (int f = 0; f < 8; f++) {
                m = find(&fx->g, "cpu", "1", "cpu", st[f]);
                assert_non_null(m);
                assert_int_equal(m->ds[0], ZM_DERIVE);
                assert_true(m->derive[0] == 1000 + f + 1);
        }
        assert_non_null(find(&fx->g, "cpu", "7", "cpu", "steal"));
        assert_null(find(&fx->g, "cpu", "2", "cpu", "user"));
        assert_int_equal(count_id(&fx->g, "cpu", "cpu", "user"), 3);
}

static void os_mod00_has_no_steal(void **state)
{
        struct engine_fx *fx = *state;
        uint8_t data[52 + 2 * 28], rec[400], pid[16];
        size_t dl = vec_lx_os(data, 2, 28, TS);
        vec_lx_prodid(pid, 2, "00");
        size_t len = vec_d10(rec, 2, "OLDLNX", pid, data, (uint16_t)dl);
        feed(fx->e, rec, len);
        assert_non_null(find(&fx->g, "cpu", "1", "cpu", "wait")); /* cpu number = entry index */
        assert_int_equal(count_id(&fx->g, "cpu", "cpu", "steal"), 0);
}

static void os_lying_cpu_area_is_bad(void **state)
{
        struct engine_fx *fx = *state;
        uint8_t data[52 + 2 * 36], rec[400], pid[16];
        size_t dl = vec_lx_os(data, 2, 36, TS);
        be32(data + 16, 50); /* nr_cpus claims 50 entries */
        vec_lx_prodid(pid, 2, "01");
        size_t len = vec_d10(rec, 2, "LIAR", pid, data, (uint16_t)dl);
        feed(fx->e, rec, len);
        assert_int_equal(fx->g.n, 0); /* nothing partial */
        assert_true(zm_engine_counters(fx->e)->appl_bad >= 1);
}

static void net_maps_interface_all(void **state)
{
        struct engine_fx *fx = *state;
        uint8_t data[96], rec[200], pid[16];
        memset(data, 0, sizeof(data));
        vec_lx_common(data, TS, 1, 1);
        be32(data + 16, 3);
        for (int i = 0; i < 9; i++)
                be64(data + 24 + 8 * i,
                     100 + (uint64_t)i); /* rx_p tx_p rx_b tx_b rx_e tx_e rx_d tx_d coll */
        vec_lx_prodid(pid, 3, "00");
        size_t len = vec_d10(rec, 2, "LINUX01", pid, data, 96);
        feed(fx->e, rec, len);
        const struct zm_metric *m = find(&fx->g, "interface", "all", "if_octets", "");
        assert_non_null(m);
        assert_true(m->derive[0] == 102 && m->derive[1] == 103);
        m = find(&fx->g, "interface", "all", "if_packets", "");
        assert_true(m->derive[0] == 100 && m->derive[1] == 101);
        m = find(&fx->g, "interface", "all", "if_errors", "");
        assert_true(m->derive[0] == 104 && m->derive[1] == 105);
        m = find(&fx->g, "interface", "all", "if_dropped", "");
        assert_true(m->derive[0] == 106 && m->derive[1] == 107);
        assert_int_equal(fx->g.n, 4);
}

/* mon_fsstatd data (7.1): 12-byte header, three strings, statvfs. */
static size_t fs_data(uint8_t *d, uint64_t secs, const char *dir)
{
        memset(d, 0, 589);
        size_t o = 12;
        const char *s[3] = {"/dev/dasda1", dir, "ext4"};
        for (int i = 0; i < 3; i++) {
                size_t n = strlen(s[i]);
                be16(d + o, (uint16_t)n);
                memcpy(d + o + 2, s[i], n);
                o += 2 + n;
        }
        uint64_t sv[9] = {4096, 4096, 1000, 400, 300, 50, 40, 40, 0};
        for (int i = 0; i < 9; i++)
                be64(d + o + 8 * i, sv[i]);
        o += 72;
        be64(d, secs);
        be16(d + 8, (uint16_t)(o - 12));
        be16(d + 10, 12);
        return 589;
}

struct logged {
        int n;
        char last[512];
};

static void keep_log(void *ctx, int level, const char *msg)
{
        struct logged *l = ctx;
        (void)level;
        l->n++;
        snprintf(l->last, sizeof(l->last), "%s", msg);
}

struct got_log {
        struct got g;
        struct logged l;
};

static void collect_gl(void *ctx, const struct zm_metric *m)
{
        collect(&((struct got_log *)ctx)->g, m);
}

static void log_gl(void *ctx, int level, const char *msg)
{
        keep_log(&((struct got_log *)ctx)->l, level, msg);
}

#define SEC(s) ((uint64_t)(s)*1000000 << 12) /* seconds in TOD units (bit 51 = 1 us) */

/*
 * A guest's stamp up to 300 s after CP's record is the guest's time; later
 * than that, CP's (VEC_TOD_2026): kept, a series stamped in year 9999 would
 * take no later value.  Counted each time, logged once per guest.
 */
static void guest_stamp_far_ahead_of_cp_takes_cps_time(void **state)
{
        (void)state;
        struct got_log gl;
        memset(&gl, 0, sizeof(gl));
        struct zm_engine *e = zm_engine_new(NULL, collect_gl, log_gl, &gl);
        uint8_t data[589], rec[700], pid[16];
        vec_lx_prodid(pid, 1, "00");
        const uint64_t stamps[] = {VEC_TOD_2026 + SEC(300), VEC_TOD_2026 + SEC(301),
                                   UINT64_C(0xFFFFFFFFFFFFF000), VEC_TOD_2026 + SEC(1)};
        const uint64_t want[] = {VEC_TOD_2026 + SEC(300), VEC_TOD_2026, VEC_TOD_2026,
                                 VEC_TOD_2026 + SEC(1)};
        const int future[] = {0, 1, 2, 2}, lines[] = {0, 1, 1, 1};
        for (int i = 0; i < 4; i++) {
                gl.g.n = 0;
                mem_data(data, stamps[i], 5, 5);
                feed(e, rec, vec_d10(rec, 2, "LINUX01", pid, data, 144));
                const struct zm_metric *m = find(&gl.g, "memory", "", "memory", "free");
                assert_non_null(m);
                assert_true(m->tod == want[i]);
                assert_int_equal(zm_engine_counters(e)->appl_future, future[i]);
                assert_int_equal(gl.l.n, lines[i]);
        }
        assert_non_null(strstr(gl.l.last, "guest LINUX01 stamps its values 301 s after CP"));
        assert_non_null(strstr(gl.l.last, "appl_future"));

        /* mon_fsstatd's stamp in seconds: the same bound, another guest logged on its own */
        vec_lnx_prodid(pid, 1, 0, 0, 0, 0);
        gl.g.n = 0;
        feed(e, rec,
             vec_d10(rec, 2, "LINUX02", pid, data,
                     (uint16_t)fs_data(data, 1795305600 + 86400, "/")));
        const struct zm_metric *m = find(&gl.g, "df", "root", "df_complex", "used");
        assert_non_null(m);
        assert_true(m->tod == VEC_TOD_2026);
        assert_int_equal(zm_engine_counters(e)->appl_future, 3);
        assert_int_equal(gl.l.n, 2);
        assert_non_null(strstr(gl.l.last, "guest LINUX02 stamps its values 86400 s after CP"));
        zm_engine_free(e);
}

static void fsstatd_maps_df(void **state)
{
        struct engine_fx *fx = *state;
        uint8_t data[589], rec[700], pid[16];
        vec_lnx_prodid(pid, 1, 0, 0, 0, 0);
        size_t len =
            vec_d10(rec, 2, "LINUX01", pid, data, (uint16_t)fs_data(data, 1795305000, "/"));
        feed(fx->e, rec, len);
        vec_lnx_prodid(pid, 1, 0, 0, 0, 2);
        len =
            vec_d10(rec, 2, "LINUX01", pid, data, (uint16_t)fs_data(data, 1795305000, "/var/log"));
        feed(fx->e, rec, len);
        const struct zm_metric *m = find(&fx->g, "df", "root", "df_complex", "used");
        assert_non_null(m);
        assert_true(m->gauge[0] == 600.0 * 4096);
        assert_true(m->tod == zd_unix_us_to_tod(INT64_C(1795305000) * 1000000));
        assert_true(find(&fx->g, "df", "root", "df_complex", "free")->gauge[0] == 300.0 * 4096);
        assert_true(find(&fx->g, "df", "root", "df_complex", "reserved")->gauge[0] == 100.0 * 4096);
        assert_non_null(find(&fx->g, "df", "var-log", "df_complex", "free"));
        assert_int_equal(fx->g.n, 6);
}

/* FNV-1a, 64 bits, as published (offset basis 0xcbf29ce484222325, prime 0x100000001b3). */
static uint64_t fnv1a64(const char *s)
{
        uint64_t h = 0xcbf29ce484222325ull;
        for (; *s; s++)
                h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
        return h;
}

/*
 * Mount points longer than collectd's 127-byte names: two that share their
 * first 127 bytes stay apart, as "first 110 bytes~16 hex digits of the hash";
 * one of exactly 127 bytes is kept whole (doc/plugin.md).
 */
static void fsstatd_long_mount_points(void **state)
{
        struct engine_fx *fx = *state;
        uint8_t data[589], rec[700], pid[16];
        char dir[3][200], inst[3][200];
        memset(dir, 0, sizeof(dir));
        dir[0][0] = dir[1][0] = dir[2][0] = '/';
        memset(dir[0] + 1, 'a', 150);
        memset(dir[1] + 1, 'a', 150);
        strcat(dir[0], "/x");
        strcat(dir[1], "/y");
        memset(dir[2] + 1, 'b', 127);
        for (int i = 0; i < 3; i++) {
                vec_lnx_prodid(pid, 1, 0, 0, 0, (uint16_t)i);
                size_t len = vec_d10(rec, 2, "LINUX01", pid, data,
                                     (uint16_t)fs_data(data, 1795305000, dir[i]));
                feed(fx->e, rec, len);
                /* collectd's df naming: leading '/' dropped, '/' -> '-' */
                snprintf(inst[i], sizeof(inst[i]), "%s", dir[i] + 1);
                for (char *c = inst[i]; *c; c++)
                        *c = *c == '/' ? '-' : *c;
        }
        assert_int_equal(fx->g.n, 9);
        char want[2][ZM_NAME_LEN];
        for (int i = 0; i < 2; i++) {
                snprintf(want[i], sizeof(want[i]), "%.110s~%016llx", inst[i],
                         (unsigned long long)fnv1a64(inst[i]));
                assert_int_equal(strlen(want[i]), 127);
                assert_non_null(find(&fx->g, "df", want[i], "df_complex", "used"));
        }
        assert_string_not_equal(want[0], want[1]);
        assert_int_equal(strlen(inst[2]), 127);
        assert_non_null(find(&fx->g, "df", inst[2], "df_complex", "used"));
}

/* mon_procd's summary (doc/facts/s390-tools.md 3): stamp secs, the tasks' counts as given. */
static size_t procd_sum(uint8_t *data, uint64_t secs, uint32_t sleeping)
{
        memset(data, 0, 178);
        be64(data, secs);
        be16(data + 8, 166);
        be16(data + 10, 12);
        uint8_t *s = data + 12;
        be64(s, 86400);         /* uptime */
        be32(s + 8, 4);         /* users */
        be32(s + 30, 120);      /* total */
        be32(s + 34, 2);        /* running */
        be32(s + 38, sleeping); /* sleeping: S and D */
        be32(s + 42, 3);        /* stopped */
        be32(s + 46, 5);        /* zombie */
        return 178;
}

/*
 * A task record (doc/facts/s390-tools.md 3): the 12-byte header with stamp
 * secs, task_t (111 bytes; pid at 0, state at 106), six empty strings.
 */
static size_t procd_task(uint8_t *data, uint64_t secs, uint32_t pid, char state)
{
        memset(data, 0, 12 + 111 + 12);
        be64(data, secs);
        be16(data + 8, 111 + 12);
        be16(data + 10, 12);
        be32(data + 12, pid);
        data[12 + 106] = (uint8_t)state;
        return 12 + 111 + 12;
}

static void feed_task(struct zm_engine *e, const char *guest, uint16_t mod, uint64_t secs,
                      uint32_t pid, char state)
{
        uint8_t data[200], rec[300], pidb[16];
        size_t n = procd_task(data, secs, pid, state);
        vec_lnx_prodid(pidb, 2, 1, 0, 0, mod);
        feed(e, rec, vec_d10(rec, 2, guest, pidb, data, (uint16_t)n));
}

static void feed_sum(struct zm_engine *e, const char *guest, uint64_t secs, uint32_t sleeping)
{
        uint8_t data[178], rec[300], pid[16];
        vec_lnx_prodid(pid, 2, 0, 0, 0, 0);
        feed(e, rec, vec_d10(rec, 2, guest, pid, data, (uint16_t)procd_sum(data, secs, sleeping)));
}

/*
 * uptime and users as they come; the task states when the interval ends,
 * with the tasks in uninterruptible sleep (D) out of the summary's sleeping
 * (S and D) and under blocked, as collectd's processes plugin counts them
 * on the guest (ps_read_process: 'S' sleeping, 'D' blocked).  The task
 * records of the summary's pass say which are D, whatever their order in
 * the interval's data; those of another pass (CP copied mid-pass) do not.
 */
static void procd_summary_maps_uptime_users_states(void **state)
{
        struct engine_fx *fx = *state;
        feed_task(fx->e, "LINUX01", 0, 1795305000, 1, 'S');
        feed_task(fx->e, "LINUX01", 2, 1795305000, 42, 'D');
        feed_sum(fx->e, "LINUX01", 1795305000, 110);
        feed_task(fx->e, "LINUX01", 4, 1795305000, 43, 'D'); /* after the summary: counted */
        feed_task(fx->e, "LINUX01", 6, 1795304940, 44, 'D'); /* the pass before: not */
        feed_task(fx->e, "LINUX01", 8, 1795305000, 45, 'R');
        assert_true(find(&fx->g, "uptime", "", "uptime", "")->gauge[0] == 86400);
        assert_true(find(&fx->g, "users", "", "users", "")->gauge[0] == 4);
        assert_null(find(&fx->g, "processes", "", "ps_state", "sleeping"));
        interval_end(fx->e);
        assert_true(find(&fx->g, "processes", "", "ps_state", "sleeping")->gauge[0] == 108);
        assert_true(find(&fx->g, "processes", "", "ps_state", "blocked")->gauge[0] == 2);
        assert_true(find(&fx->g, "processes", "", "ps_state", "stopped")->gauge[0] == 3);
        assert_true(find(&fx->g, "processes", "", "ps_state", "zombies")->gauge[0] == 5);
        assert_true(find(&fx->g, "processes", "", "ps_state", "blocked")->tod ==
                    zd_unix_us_to_tod(INT64_C(1795305000) * 1000000));
        assert_null(find(&fx->g, "processes", "", "ps_state", "running")); /* the kernel record's */
        /* the same pass again (mon_procd's interval is longer than CP's): nothing new */
        fx->g.n = 0;
        feed_task(fx->e, "LINUX01", 2, 1795305000, 42, 'D');
        feed_sum(fx->e, "LINUX01", 1795305000, 110);
        interval_end(fx->e);
        assert_int_equal(fx->g.n, 0);
}

/*
 * One source of blocked per guest and interval: mon_procd's D tasks for a
 * guest that runs it (its summary seen, new or not), else the kernel OS
 * record's nr_iowait.  Never both, which would make one series jump
 * between two numbers.
 */
static void blocked_from_one_source(void **state)
{
        struct engine_fx *fx = *state;
        uint8_t data[52 + 36], rec[300], pid[16];
        vec_lx_prodid(pid, 2, "01");
        size_t dl = vec_lx_os(data, 1, 36, TS);
        be32(data + 48, 9); /* nr_iowait */
        feed(fx->e, rec, vec_d10(rec, 2, "LINUX01", pid, data, (uint16_t)dl));
        be32(data + 48, 6);
        feed(fx->e, rec, vec_d10(rec, 2, "LINUX02", pid, data, (uint16_t)dl));
        feed_task(fx->e, "LINUX01", 0, 1795305000, 42, 'D');
        feed_sum(fx->e, "LINUX01", 1795305000, 110);
        interval_end(fx->e);
        assert_int_equal(count_id(&fx->g, "processes", "ps_state", "blocked"), 2);
        for (size_t i = 0; i < fx->g.n; i++)
                if (!strcmp(fx->g.m[i].type_instance, "blocked"))
                        assert_true(fx->g.m[i].gauge[0] ==
                                    (!strcmp(fx->g.m[i].guest, "LINUX01") ? 1 : 6));
        /* next interval: LINUX01's summary stale (the same pass), its kernel record new */
        fx->g.n = 0;
        dl = vec_lx_os(data, 1, 36, TS + (UINT64_C(60000000) << 12));
        be32(data + 48, 9); /* nr_iowait */
        feed(fx->e, rec, vec_d10(rec, 2, "LINUX01", pid, data, (uint16_t)dl));
        feed_sum(fx->e, "LINUX01", 1795305000, 110);
        interval_end(fx->e);
        assert_int_equal(count_id(&fx->g, "processes", "ps_state", "blocked"), 0);
}

/*
 * The summaries' metrics read their fields through the payload layouts
 * (LNXAPPL.1.0.FS, LNXAPPL.2.0): a LayoutFile that swaps two fields of each
 * swaps the values dispatched, and unloading it brings them back.  Offsets
 * from doc/facts/s390-tools.md 2 (statvfs: bsize 0, frsize 8, blocks 16,
 * bfree 24, bavail 32, files 40, ffree 48, favail 56) and 3 (summary:
 * uptime 0, users 8, task_sleeping 38, task_stopped 42, task_zombie 46).
 */
static const char swapped[] =
    "layout LNXAPPL.1.0.FS fsstatd_statvfs min_len 72 level \"test\" source \"test\"\n"
    "  field fs_bsize  8  8 uint verified none  bytes \"test\" \"swapped with fs_frsize\"\n"
    "  field fs_frsize 0  8 uint verified none  bytes \"test\" \"\"\n"
    "  field fs_blocks 16 8 uint verified gauge -     \"test\" \"\"\n"
    "  field fs_bfree  24 8 uint verified gauge -     \"test\" \"\"\n"
    "  field fs_bavail 56 8 uint verified gauge -     \"test\" \"swapped with fs_favail\"\n"
    "  field fs_favail 32 8 uint verified gauge -     \"test\" \"\"\n"
    "end\n"
    "layout LNXAPPL.2.0 proc_sum_t min_len 166 level \"test\" source \"test\"\n"
    "  field uptime        0  8 uint verified gauge s     \"test\" \"\"\n"
    "  field users         8  4 uint verified gauge count \"test\" \"\"\n"
    "  field task_sleeping 42 4 uint verified gauge count \"test\" \"swapped\"\n"
    "  field task_stopped  38 4 uint verified gauge count \"test\" \"swapped\"\n"
    "  field task_zombie   46 4 uint verified gauge count \"test\" \"\"\n"
    "end\n";

/* One mon_fsstatd record of "/" and one mon_procd summary, fed to e at stamp secs. */
static void feed_summaries(struct zm_engine *e, uint64_t secs)
{
        uint8_t data[589], rec[700], pid[16];
        size_t n = fs_data(data, secs, "/");
        /* the statvfs block after the strings "/dev/dasda1", "/", "ext4" */
        uint8_t *sv = data + 12 + (2 + 11) + (2 + 1) + (2 + 4);
        static const uint64_t v[8] = {4096, 1024, 1000, 400, 300, 50, 40, 30};
        for (int i = 0; i < 8; i++)
                be64(sv + 8 * i, v[i]);
        vec_lnx_prodid(pid, 1, 0, 0, 0, 0);
        feed(e, rec, vec_d10(rec, 2, "LINUX01", pid, data, (uint16_t)n));
        uint8_t sum[178];
        memset(sum, 0, sizeof(sum));
        be64(sum, secs);
        be16(sum + 8, 166);
        be16(sum + 10, 12);
        be64(sum + 12, 86400);    /* uptime */
        be32(sum + 12 + 8, 4);    /* users */
        be32(sum + 12 + 38, 110); /* sleeping */
        be32(sum + 12 + 42, 3);   /* stopped */
        be32(sum + 12 + 46, 5);   /* zombie */
        vec_lnx_prodid(pid, 2, 0, 0, 0, 0);
        feed(e, rec, vec_d10(rec, 2, "LINUX01", pid, sum, sizeof(sum)));
}

static double value_of(const struct got *g, const char *plugin, const char *pinst, const char *type,
                       const char *tinst)
{
        const struct zm_metric *m = find(g, plugin, pinst, type, tinst);
        assert_non_null(m);
        return m->gauge[0];
}

static void summaries_read_through_layouts(void **state)
{
        struct engine_fx *fx = *state;
        feed_summaries(fx->e, 1795305000);
        interval_end(fx->e);
        assert_true(value_of(&fx->g, "df", "root", "df_complex", "used") == 600.0 * 1024);
        assert_true(value_of(&fx->g, "df", "root", "df_complex", "free") == 300.0 * 1024);
        assert_true(value_of(&fx->g, "df", "root", "df_complex", "reserved") == 100.0 * 1024);
        assert_true(value_of(&fx->g, "processes", "", "ps_state", "sleeping") == 110);
        assert_true(value_of(&fx->g, "processes", "", "ps_state", "stopped") == 3);

        char err[256];
        assert_true(zl_load_text(swapped, strlen(swapped), "swapped", err, sizeof(err)));
        fx->g.n = 0;
        feed_summaries(fx->e, 1795305060);
        interval_end(fx->e);
        /* frsize now reads bsize's 4096, bavail favail's 30 */
        assert_true(value_of(&fx->g, "df", "root", "df_complex", "used") == 600.0 * 4096);
        assert_true(value_of(&fx->g, "df", "root", "df_complex", "free") == 30.0 * 4096);
        assert_true(value_of(&fx->g, "df", "root", "df_complex", "reserved") == 370.0 * 4096);
        assert_true(value_of(&fx->g, "processes", "", "ps_state", "sleeping") == 3);
        assert_true(value_of(&fx->g, "processes", "", "ps_state", "stopped") == 110);
        assert_true(value_of(&fx->g, "uptime", "", "uptime", "") == 86400);

        zl_file_unload_all();
        fx->g.n = 0;
        feed_summaries(fx->e, 1795305120);
        interval_end(fx->e);
        assert_true(value_of(&fx->g, "df", "root", "df_complex", "free") == 300.0 * 1024);
        assert_true(value_of(&fx->g, "processes", "", "ps_state", "sleeping") == 110);
}

/* An engine with a series cap, so that every guest metric gets its id (zm_emit). */
static struct zm_engine *capped_engine(struct got *g)
{
        struct zm_options o;
        memset(&o, 0, sizeof(o));
        o.max_series_per_guest = 1000;
        o.unverified = -1;
        return zm_engine_new(&o, collect, NULL, g);
}

/*
 * With a series cap the engine names every guest series by an id.  Kernel
 * metrics get theirs from the module's key (the names are literals, a CPU's
 * number aside), mon_fsstatd's from their names: either way, one id for one
 * set of names of one guest, whatever the record it came in, and another for
 * anything else.  The two kinds never meet: key ids are odd, name ids even.
 */
static void metric_ids_follow_names_and_guest(void **state)
{
        (void)state;
        struct got g = {0};
        struct zm_engine *e = capped_engine(&g);
        uint8_t data[600], rec[800], pid[16];
        vec_lx_prodid(pid, 2, "01");
        const char *who[] = {"LNXWEB", "LNXWEB", "LNXDB"};
        for (int k = 0; k < 3; k++) {
                size_t dl = vec_lx_os(data, 3, 36, TS + (uint64_t)k * (UINT64_C(5000000) << 12));
                be32(data + 52 + 2 * 36 + 32, 7); /* CPUs 0, 1 and 7 */
                size_t len = vec_d10(rec, 2, who[k], pid, data, (uint16_t)dl);
                feed(e, rec, len);
                interval_end(e); /* blocked goes out at the end */
        }
        size_t kernel = g.n;
        assert_int_equal(kernel, 3 * (1 + 2 + 3 * 8));
        vec_lnx_prodid(pid, 1, 0, 0, 0, 0);
        for (int k = 0; k < 3; k++) {
                size_t len = vec_d10(rec, 2, who[k], pid, data,
                                     (uint16_t)fs_data(data, 1795305000 + k, k ? "/" : "/var"));
                feed(e, rec, len);
        }
        assert_int_equal(g.n, kernel + 9);
        for (size_t i = 0; i < g.n; i++) {
                assert_true(g.m[i].id != 0);
                assert_int_equal(g.m[i].id & 1, i < kernel ? 1 : 0);
                assert_true(i < kernel ? g.m[i].key != 0 : g.m[i].key == 0);
        }
        assert_ids_follow_names(g.m, g.n, false);
        /* LNXWEB's second record named nothing new, and nothing was capped */
        assert_int_equal(zm_engine_counters(e)->series_capped, 0);
        zm_engine_free(e);
}

/*
 * The names and keys of CPU numbers below 64 are made once; a number above
 * is named as it comes, with the same key rule (the series cap's ids
 * follow the names either way).
 */
static void cpu_numbers_past_the_kept_names(void **state)
{
        (void)state;
        struct got g = {0};
        struct zm_engine *e = capped_engine(&g);
        uint8_t data[600], rec[800], pid[16];
        vec_lx_prodid(pid, 2, "01");
        static const uint32_t ids[][3] = {{0, 63, 64}, {64, 4000000000u, 63}};
        for (int k = 0; k < 2; k++) {
                size_t dl = vec_lx_os(data, 3, 36, TS + (uint64_t)k * (UINT64_C(5000000) << 12));
                for (int c = 0; c < 3; c++)
                        be32(data + 52 + (size_t)c * 36 + 32, ids[k][c]);
                size_t len = vec_d10(rec, 2, "LNXWEB", pid, data, (uint16_t)dl);
                feed(e, rec, len);
                interval_end(e);
        }
        assert_int_equal(g.n, 2 * (1 + 2 + 3 * 8));
        assert_int_equal(count_id(&g, "cpu", "cpu", "steal"), 6);
        const struct zm_metric *m = find(&g, "cpu", "4000000000", "cpu", "idle");
        assert_non_null(m);
        assert_true(m->derive[0] == 1000 + 3 + 1); /* the second entry's, as vec_lx_os fills it */
        assert_non_null(find(&g, "cpu", "64", "cpu", "user"));
        assert_non_null(find(&g, "cpu", "63", "cpu", "steal"));
        assert_ids_follow_names(g.m, g.n, false);
        assert_int_equal(zm_engine_counters(e)->series_capped, 0);
        zm_engine_free(e);
}

/*
 * Product ids are the guest's to choose: past the 256 remembered for one
 * guest, its samples are reported every time and counted, and another
 * guest's unchanged buffer stays stale.
 */
static void invented_product_ids_counted_as_untracked(void **state)
{
        struct engine_fx *fx = *state;
        uint8_t data[144], rec[256], pid[16];
        mem_data(data, TS, 5, 5);
        vec_lx_prodid(pid, 1, "00");
        size_t len = vec_d10(rec, 2, "LINUX02", pid, data, 144);
        feed(fx->e, rec, len);
        /* 256 ids (every record number at mod level 00), then a 257th: MEM at mod 01. */
        for (uint32_t i = 0; i < 256; i++) {
                pid[9] = (uint8_t)i;
                len = vec_d10(rec, 2, "EVIL", pid, data, 144);
                feed(fx->e, rec, len);
        }
        vec_lx_prodid(pid, 1, "01");
        len = vec_d10(rec, 2, "EVIL", pid, data, 144);
        feed(fx->e, rec, len);
        const struct zm_counters *c = zm_engine_counters(fx->e);
        assert_int_equal(c->appl_untracked, 1);
        assert_int_equal(c->appl_stale, 0);
        size_t before = fx->g.n;
        feed(fx->e, rec, len); /* the 257th id again: reported again, counted again */
        assert_int_equal(c->appl_untracked, 2);
        assert_int_equal(fx->g.n, before + 11);
        vec_lx_prodid(pid, 1, "00");
        len = vec_d10(rec, 2, "LINUX02", pid, data, 144);
        feed(fx->e, rec, len);
        assert_int_equal(c->appl_stale, 1);
        assert_int_equal(fx->g.n, before + 11);
}

static void other_products_ignored(void **state)
{
        struct engine_fx *fx = *state;
        uint8_t rec[200], pid[16];
        memcpy(pid, "\xF5\xF6\xF8\xF4\xF1\xF1\xF2\xE2\xC6\xF1\xF0\xF1\xF0\xF1\xF0\xF0", 16);
        uint8_t data[40] = {0};
        size_t len = vec_d10(rec, 2, "SFSSRV", pid, data, sizeof(data));
        feed(fx->e, rec, len);
        assert_int_equal(fx->g.n, 0);
        assert_int_equal(zm_engine_counters(fx->e)->appl_unknown, 1);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            ENGINE_TEST(mem_maps_to_memory_swap_vmem),
            ENGINE_TEST(lying_header_counted_once),
            ENGINE_TEST(mem_sync_mismatch_dropped_and_stale_not_repeated),
            ENGINE_TEST(invented_product_ids_counted_as_untracked),
            ENGINE_TEST(os_maps_load_processes_cpu),
            ENGINE_TEST(os_mod00_has_no_steal),
            ENGINE_TEST(os_lying_cpu_area_is_bad),
            ENGINE_TEST(net_maps_interface_all),
            ENGINE_TEST(fsstatd_maps_df),
            ENGINE_TEST(fsstatd_long_mount_points),
            ENGINE_TEST(procd_summary_maps_uptime_users_states),
            ENGINE_TEST(blocked_from_one_source),
            ENGINE_TEST(swap_as_collectds_swap_plugin),
            ENGINE_TEST(load_as_proc_loadavg_prints_it),
            ENGINE_TEST(summaries_read_through_layouts),
            ENGINE_TEST(other_products_ignored),
            cmocka_unit_test(guest_stamp_far_ahead_of_cp_takes_cps_time),
            cmocka_unit_test(metric_ids_follow_names_and_guest),
            cmocka_unit_test(cpu_numbers_past_the_kept_names),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
