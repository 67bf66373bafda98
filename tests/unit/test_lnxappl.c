/* SPDX-License-Identifier: MIT */
/* s390-tools LNXAPPL payloads: mon_fsstatd entries, mon_procd summary and tasks. */
#include "vec_appl.h"

#include <stdio.h>

#include "payload/appldata/appl.h"

static uint8_t pay[8192];
static uint8_t rec[8192];

/* The 12-byte header (7.1/7.2): time_stamp, data_len, data_offset (12). */
static size_t lnx_hdr(uint8_t *p, uint64_t ts, uint16_t len)
{
        be64(p, ts);
        be16(p + 8, len);
        be16(p + 10, 12);
        return 12;
}

static size_t lnx_str(uint8_t *p, const char *s, size_t n)
{
        be16(p, (uint16_t)n);
        memcpy(p + 2, s, n);
        return 2 + n;
}

/* One mon_fsstatd entry (7.1): name, dir, type strings, then 9 x u64 statvfs. */
static size_t fs_entry(uint8_t *p, const char *name, size_t n1, const char *dir, size_t n2,
                       const char *type, size_t n3, uint64_t base)
{
        size_t o = 0;
        o += lnx_str(p + o, name, n1);
        o += lnx_str(p + o, dir, n2);
        o += lnx_str(p + o, type, n3);
        for (int i = 0; i < 9; i++, o += 8)
                be64(p + o, base + (uint64_t)i);
        return o;
}

static struct zd_record lnx_record(uint16_t applid, uint8_t recnum, uint16_t mod, size_t plen)
{
        uint8_t prod[16];
        vec_lnx_prodid(prod, applid, recnum, 0, 0, mod);
        return vec_record(rec, vec_d10(rec, 2, "LINUX07", prod, pay, (uint16_t)plen));
}

static void header_checks(void **state)
{
        (void)state;
        struct zd_lnx_hdr h;
        memset(pay, 0, 64);
        lnx_hdr(pay, 1795305600, 20);
        assert_int_equal(zd_lnx_hdr_parse(zd_view_make(pay, 32), &h), ZD_E_NONE);
        assert_true(h.time_stamp == 1795305600);
        assert_ptr_equal(h.data.p, pay + 12);
        assert_int_equal(h.data.n, 20);
        assert_int_equal(zd_lnx_hdr_parse(zd_view_make(pay, 31), &h), ZD_E_LNX_HEADER);
        assert_int_equal(h.data.n, 0);
        assert_int_equal(zd_lnx_hdr_parse(zd_view_make(pay, 11), &h), ZD_E_APPL_TRUNCATED);
        be16(pay + 10, 4); /* data inside the header */
        assert_int_equal(zd_lnx_hdr_parse(zd_view_make(pay, 64), &h), ZD_E_LNX_HEADER);
        be16(pay + 10, 0xFFFF);
        assert_int_equal(zd_lnx_hdr_parse(zd_view_make(pay, 64), &h), ZD_E_LNX_HEADER);
}

static void fsstatd_max_lengths(void **state)
{
        (void)state;
        static char name[ZD_FS_NAME_MAX], dir[ZD_FS_DIR_MAX], type[ZD_FS_TYPE_MAX];
        memset(name, 'n', sizeof(name));
        memset(dir, 'd', sizeof(dir));
        memset(type, 't', sizeof(type));
        name[0] = '/';
        dir[ZD_FS_DIR_MAX - 1] = 'D';
        size_t n =
            fs_entry(pay + 12, name, sizeof(name), dir, sizeof(dir), type, sizeof(type), 4096);
        assert_int_equal(n, 3934); /* 2+1800 + 2+1800 + 2+256 + 72 */
        lnx_hdr(pay, 1795305600, (uint16_t)n);
        /* The large buffer: 4010 bytes written, 3997 data, zero padded. */
        memset(pay + 12 + n, 0, 3997 - 12 - n);
        struct zd_record r = lnx_record(1, 0, 1, 3997);
        assert_int_equal(r.rec.n, 4049);

        struct zd_decoder d;
        zd_decoder_init(&d, NULL);
        struct zd_appl_info ai;
        zd_appl_examine(&d, NULL, &r, &ai);
        assert_int_equal(zd_stats_errors(&d.st), 0);
        assert_string_equal(zd_appl_kind_name(&ai.a), "fsstatd");
        assert_true(ai.timestamp == 1795305600);

        struct zd_lnx_hdr h;
        assert_int_equal(zd_lnx_hdr_parse(ai.a.data, &h), ZD_E_NONE);
        zd_view rest = h.data;
        struct zd_fs_entry fs;
        enum zd_err_kind e;
        assert_int_equal(zd_fs_next(&rest, &fs, &e), 1);
        assert_int_equal(fs.name.n, 1800);
        assert_int_equal(fs.dir.n, 1800);
        assert_int_equal(fs.type.n, 256);
        assert_int_equal(fs.name.p[0], '/');
        assert_int_equal(fs.dir.p[1799], 'D');
        assert_memory_equal(fs.type.p, type, 256);
        const struct zl_layout *l = zl_find("LNXAPPL.1.0.FS", SIZE_MAX);
        uint64_t v;
        assert_true(zl_get_u64(l, fs.statvfs, "fs_bsize", &v));
        assert_int_equal(v, 4096);
        assert_true(zl_get_u64(l, fs.statvfs, "fs_flag", &v));
        assert_int_equal(v, 4104);
        assert_int_equal(zd_fs_next(&rest, &fs, &e), 0);
}

static void fsstatd_damage(void **state)
{
        (void)state;
        struct zd_fs_entry fs;
        enum zd_err_kind e;
        size_t n = fs_entry(pay, "/dev/dasda1", 11, "/", 1, "ext4", 4, 1);
        zd_view v = zd_view_make(pay, n - 1); /* statvfs one byte short */
        assert_int_equal(zd_fs_next(&v, &fs, &e), -1);
        assert_int_equal(e, ZD_E_APPL_TRUNCATED);
        be16(pay, 5000); /* name longer than the data */
        v = zd_view_make(pay, n);
        assert_int_equal(zd_fs_next(&v, &fs, &e), -1);
        assert_int_equal(e, ZD_E_LNX_STRING);
        /* Two entries in one data area are both found. */
        n = fs_entry(pay, "a", 1, "/a", 2, "xfs", 3, 10);
        n += fs_entry(pay + n, "b", 1, "/b", 2, "ext4", 4, 20);
        v = zd_view_make(pay, n);
        assert_int_equal(zd_fs_next(&v, &fs, &e), 1);
        assert_int_equal(zd_fs_next(&v, &fs, &e), 1);
        assert_memory_equal(fs.type.p, "ext4", 4);
        assert_int_equal(zd_fs_next(&v, &fs, &e), 0);
        /* Through examine: damage is reported and counted. */
        memset(pay, 0, 12);
        size_t m = fs_entry(pay + 12, "a", 1, "/a", 2, "xfs", 3, 10);
        lnx_hdr(pay, 5, (uint16_t)(m + 3)); /* claims 3 bytes of a next entry */
        struct zd_decoder d;
        zd_decoder_init(&d, NULL);
        struct zd_appl_info ai;
        struct zd_record r = lnx_record(1, 0, 0, 12 + m + 10);
        zd_appl_examine(&d, NULL, &r, &ai);
        assert_int_equal(d.st.errors[ZD_E_LNX_STRING], 1);
}

static void procd_summary(void **state)
{
        (void)state;
        uint8_t *s = pay + 12;
        memset(pay, 0, 12 + 166);
        lnx_hdr(pay, 1795305660, 166);
        be64(s + 0, 86400);
        be32(s + 8, 2);
        memcpy(s + 12, "0.15", 4);
        memcpy(s + 18, "10.25", 5);
        memcpy(s + 24, "100.00", 6); /* six characters: no NUL */
        for (int i = 0; i < 5; i++)
                be32(s + 30 + 4 * i, (uint32_t)(100 + i));
        be32(s + 50, 4);
        for (int i = 0; i < 8; i++)
                be16(s + 54 + 2 * i, (uint16_t)(1000 + i));
        for (int i = 0; i < 12; i++)
                be64(s + 70 + 8 * i, UINT64_C(1) << 40 | (uint64_t)i);
        struct zd_record r = lnx_record(2, 0, 0, 12 + 166);
        struct zd_decoder d;
        zd_decoder_init(&d, NULL);
        struct zd_appl_info ai;
        zd_appl_examine(&d, NULL, &r, &ai);
        assert_int_equal(zd_stats_errors(&d.st), 0);
        assert_string_equal(zd_appl_kind_name(&ai.a), "procd.sum");
        struct zd_lnx_hdr h;
        assert_int_equal(zd_lnx_hdr_parse(ai.a.data, &h), ZD_E_NONE);
        const struct zl_layout *l = zl_find("LNXAPPL.2.0", SIZE_MAX);
        struct zl_value v;
        char txt[16];
        assert_true(zl_get(l, h.data, "loadavg_1", &v));
        zl_text(&v, txt, sizeof(txt));
        assert_string_equal(txt, "0.15");
        assert_true(zl_get(l, h.data, "loadavg_15", &v));
        zl_text(&v, txt, sizeof(txt));
        assert_string_equal(txt, "100.00");
        uint64_t x;
        assert_true(zl_get_u64(l, h.data, "task_zombie", &x));
        assert_int_equal(x, 104);
        assert_true(zl_get_u64(l, h.data, "cpu_num_cpus", &x));
        assert_int_equal(x, 4);
        assert_true(zl_get_u64(l, h.data, "cpu_steal", &x));
        assert_int_equal(x, 1007);
        assert_true(zl_get_u64(l, h.data, "mem_total", &x));
        assert_true(x == (UINT64_C(1) << 40));
        assert_true(zl_get_u64(l, h.data, "swap_pswpout", &x));
        assert_true(x == (UINT64_C(1) << 40 | 11));

        r = lnx_record(2, 0, 0, 12 + 165); /* header says 166, payload has 165 */
        zd_appl_examine(&d, NULL, &r, &ai);
        assert_int_equal(d.st.errors[ZD_E_LNX_HEADER], 1);
        be16(pay + 8, 165); /* header agrees, summary short */
        r = lnx_record(2, 0, 0, 12 + 165);
        zd_appl_examine(&d, NULL, &r, &ai);
        assert_int_equal(d.st.errors[ZD_E_APPL_TRUNCATED], 1);
}

/* One mon_procd task record (7.2): task_t then six length-prefixed strings. */
static size_t procd_task(uint8_t *p, uint32_t pid, const char *cmdline)
{
        uint8_t *t = p + 12;
        memset(t, 0, 111);
        be32(t, pid);
        be32(t + 4, 1);
        be32(t + 8, 1000);
        be16(t + 14, (uint16_t)-20); /* priority s16 */
        be16(t + 16, (uint16_t)-5);  /* nice */
        be16(t + 22, 9999);
        be64(t + 26, 12345);
        be64(t + 98, pid * 3u);
        t[106] = 'S';
        size_t o = 111;
        char user[16];
        int un = snprintf(user, sizeof(user), "user%u", pid);
        o += lnx_str(t + o, user, (size_t)un);
        o += lnx_str(t + o, "root", 4);
        o += lnx_str(t + o, "users", 5);
        o += lnx_str(t + o, "-", 1);
        o += lnx_str(t + o, "worker", 6);
        o += lnx_str(t + o, cmdline, strlen(cmdline));
        lnx_hdr(p, 1795305660, (uint16_t)o);
        return 12 + o;
}

static void procd_hundred_tasks(void **state)
{
        (void)state;
        struct zd_decoder d;
        zd_decoder_init(&d, NULL);
        struct zd_appl_tracker *t = zd_appl_tracker_new();
        const struct zl_layout *l = zl_find("LNXAPPL.2.1", SIZE_MAX);
        char cmdline[1400];
        for (uint32_t i = 0; i < 100; i++) {
                /* Large buffers (odd mod levels) for long command lines. */
                size_t clen = i % 10 == 9 ? 1300 : 20 + i;
                memset(cmdline, 'a' + (char)(i % 26), clen);
                cmdline[clen] = '\0';
                size_t n = procd_task(pay, 1000 + i, cmdline);
                size_t bufsz = n <= 499 ? 499 : 1487;
                assert_true(n <= bufsz);
                memset(pay + n, 0, bufsz - n);
                struct zd_record r =
                    lnx_record(2, 1, (uint16_t)(bufsz == 499 ? 2 * i : 2 * i + 1), bufsz);
                struct zd_appl_info ai;
                zd_appl_examine(&d, t, &r, &ai);
                assert_false(ai.stale || ai.truncated || ai.opaque);
                struct zd_lnx_hdr h;
                assert_int_equal(zd_lnx_hdr_parse(ai.a.data, &h), ZD_E_NONE);
                struct zd_procd_task pt;
                assert_int_equal(zd_procd_task_parse(h.data, &pt), ZD_E_NONE);
                assert_int_equal(ai.payload, ZD_PAYLOAD_PROCD_TASK);
                uint64_t x;
                struct zl_value v;
                assert_true(zl_get_u64(l, pt.fixed, "pid", &x));
                assert_int_equal(x, 1000 + i);
                assert_true(zl_get_u64(l, pt.fixed, "maj_flt", &x));
                assert_int_equal(x, (1000 + i) * 3);
                assert_true(zl_get(l, pt.fixed, "nice", &v));
                assert_int_equal(v.s, -5);
                assert_true(zl_get(l, pt.fixed, "priority", &v));
                assert_int_equal(v.s, -20);
                assert_int_equal(pt.str[ZD_PROCD_CMDLINE].n, clen);
                assert_int_equal(pt.str[ZD_PROCD_CMDLINE].p[clen - 1], 'a' + (char)(i % 26));
                assert_memory_equal(pt.str[ZD_PROCD_CMD].p, "worker", 6);
                assert_memory_equal(pt.str[ZD_PROCD_EGROUP].p, "users", 5);
        }
        assert_int_equal(zd_stats_errors(&d.st), 0);
        assert_string_equal(zd_procd_str_names[ZD_PROCD_CMDLINE], "cmdline");
        zd_appl_tracker_free(t);
}

static void procd_task_damage(void **state)
{
        (void)state;
        struct zd_procd_task pt;
        size_t n = procd_task(pay, 7, "sleep 60");
        zd_view d = zd_view_make(pay + 12, n - 12);
        assert_int_equal(zd_procd_task_parse(d, &pt), ZD_E_NONE);
        d.n -= 1; /* command line one byte short */
        assert_int_equal(zd_procd_task_parse(d, &pt), ZD_E_LNX_STRING);
        d.n = 110;
        assert_int_equal(zd_procd_task_parse(d, &pt), ZD_E_APPL_TRUNCATED);
        d.n = 111; /* fixed part only: the strings are missing */
        assert_int_equal(zd_procd_task_parse(d, &pt), ZD_E_LNX_STRING);

        /* Examined: the header holds, the task's strings do not. */
        lnx_hdr(pay, 1795305660, (uint16_t)(n - 13));
        struct zd_record r = lnx_record(2, 1, 0, n - 1);
        struct zd_decoder dec;
        zd_decoder_init(&dec, NULL);
        struct zd_appl_info ai;
        zd_appl_examine(&dec, NULL, &r, &ai);
        assert_int_equal(dec.st.errors[ZD_E_LNX_STRING], 1);
        assert_int_equal(dec.st.errors[ZD_E_LNX_HEADER], 0);
        assert_false(ai.truncated);
        /* A header that lies: the task is never looked at. */
        lnx_hdr(pay, 1795305660, (uint16_t)n);
        r = lnx_record(2, 1, 0, n - 1);
        zd_appl_examine(&dec, NULL, &r, &ai);
        assert_int_equal(dec.st.errors[ZD_E_LNX_HEADER], 1);
        assert_int_equal(dec.st.errors[ZD_E_LNX_STRING], 1);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(header_checks),       cmocka_unit_test(fsstatd_max_lengths),
            cmocka_unit_test(fsstatd_damage),      cmocka_unit_test(procd_summary),
            cmocka_unit_test(procd_hundred_tasks), cmocka_unit_test(procd_task_damage),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
