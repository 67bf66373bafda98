/* SPDX-License-Identifier: MIT */
/*
 * The two readings of zpmd's offsets (doc/facts/cp-records.md 17): packed (the
 * default) and as gcc compiles zpmd's structs, each 8-byte field aligned,
 * which moves SYTPRP from PFXTOTWT on and MTRSYS from SYSTODST on 4 bytes
 * further.  Records are written by hand at the offsets that table gives, and
 * the engine must find out from the data which reading they follow.
 */
#include "cp_feed.h"

#include "layout/lay_file.h"

#define T0   VEC_TOD_2026
#define PRB0 UINT64_C(0x7FFFFFFF00000000)
#define IPL  (T0 - SEC(86400))

static unsigned off(int dom, int rec, size_t len, const char *reading, const char *name)
{
        const struct zl_field *f = zl_field(zl_find_cp_reading(dom, rec, len, reading), name);
        if (!f)
                fail_msg("no %s under reading %s", name, reading ? reading : "packed");
        return f->off;
}

/* The offsets of both readings, as section 17's table gives them. */
static void layouts_of_both_readings(void **state)
{
        (void)state;
        static const struct {
                int dom, rec;
                size_t len;
                const char *name;
                unsigned packed, aligned;
        } t[] = {
            {0, 2, 352, "SYTPRP_PFXUTIME", 32, 32},   {0, 2, 352, "SYTPRP_PFXTOTWT", 68, 72},
            {0, 2, 352, "SYTPRP_PFXRUNCI", 76, 80},   {0, 2, 352, "SYTPRP_PFXSPINT", 92, 96},
            {0, 2, 352, "SYTPRP_PFXCPUTY", 104, 108}, {1, 4, 184, "MTRSYS_HCPCPEID", 28, 28},
            {1, 4, 184, "MTRSYS_SYSTODST", 36, 40},   {1, 4, 184, "MTRSYS_SYSTERM", 44, 48},
            {1, 4, 184, "MTRSYS_SYSDATE", 52, 56},    {1, 4, 184, "MTRSYS_SYSZONE", 80, 84},
            {1, 4, 184, "MTRSYS_SYSTMID", 88, 92},    {1, 4, 184, "MTRSYS_SYSMTYPE", 108, 112},
            {1, 4, 184, "MTRSYS_LPNUMBER", 148, 152}, {1, 4, 184, "MTRSYS_LPARNAME", 160, 164},
            {1, 4, 184, "MTRSYS_CPUCAPAB", 176, 180},
        };
        for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
                assert_int_equal(off(t[i].dom, t[i].rec, t[i].len, NULL, t[i].name), t[i].packed);
                assert_int_equal(off(t[i].dom, t[i].rec, t[i].len, "aligned", t[i].name),
                                 t[i].aligned);
        }
        /* the default lookup never returns the aligned reading */
        assert_null(zl_find_cp(0, 2, 352)->reading);
        assert_string_equal(zl_find_cp_reading(0, 2, 352, "aligned")->reading, "aligned");
        /* records the readings agree on keep their one layout */
        assert_ptr_equal(zl_find_cp_reading(0, 3, 224, "aligned"), zl_find_cp(0, 3, 224));
        /* MTRSCM is IBM's (mon710: CALTOD 20, CALBYCT 28), whatever zpmd's compiler did */
        assert_int_equal(off(1, 10, 32, "aligned", "MTRSCM_CALBYCT"), 28);
        /* both carry their provenance */
        assert_non_null(
            strstr(zl_field(zl_find_cp_reading(0, 2, 352, "aligned"), "SYTPRP_PFXTOTWT")->source,
                   "aligned"));
}

/* D1R4 MTRSYS, 184 bytes, at offsets shifted by a (0 packed, 4 aligned). */
static void mtrsys(struct feed *f, uint64_t tod, unsigned a, const char *name, unsigned cpus)
{
        memset(f->buf, 0, 192);
        vec_hdr(f->buf, 184, 1, 4, tod);
        be64(f->buf + 36 + a, IPL);
        ebc(f->buf + 52 + a, "11/21/26", 8);
        f->buf[52 + a + 2] = 0x61; /* EBCDIC '/' */
        f->buf[52 + a + 5] = 0x61;
        ebc(f->buf + 88 + a, name, 8);
        ebc(f->buf + 108 + a, "3931", 4);
        be16(f->buf + 148 + a, 7);
        be16(f->buf + 152 + a, (uint16_t)cpus);
        be16(f->buf + 154 + a, (uint16_t)cpus);
        ebc(f->buf + 160 + a, "LPAR1", 8);
        feed_rec(f, 184);
}

/* D1R5 MTRPRP, 44 bytes: 20 PFXCPUAD (IBM mon440). */
static void mtrprp(struct feed *f, uint64_t tod, unsigned cpu)
{
        memset(f->buf, 0, 44);
        vec_hdr(f->buf, 44, 1, 5, tod);
        be16(f->buf + 20, (uint16_t)cpu);
        feed_rec(f, 44);
}

/* D0R2 SYTPRP, 352 bytes: 20 CPUAD, 24 PRBTM, 32 UTIME, 40 TMSYS; TOTWT at 68 + a. */
static void sytprp(struct feed *f, uint64_t tod, unsigned a, unsigned cpu, unsigned i)
{
        memset(f->buf, 0, 352);
        vec_hdr(f->buf, 352, 0, 2, tod);
        be16(f->buf + 20, (uint16_t)cpu);
        be64(f->buf + 24, PRB0 - US(16000000ull * i));
        be64(f->buf + 32, US(20000000ull * i));
        be64(f->buf + 40, US(3000000ull * i));
        be64(f->buf + 68 + a, US(37000000ull * i)); /* 20 + 3 + 37 = 60 s */
        feed_rec(f, 352);
}

static double reading_gauge(const struct feed *f)
{
        double v = -99;
        for (size_t i = 0; i < f->n; i++)
                if (strcmp(f->m[i].type_instance, "cp-reading") == 0)
                        v = f->m[i].gauge[0];
        return v;
}

/* A system of 2 CPUs written under reading a, for 4 intervals. */
static void run_system(struct feed *f, unsigned a)
{
        mtrsys(f, T0, a, "ZVMSYS1", 2);
        mtrprp(f, T0, 0);
        mtrprp(f, T0, 1);
        for (unsigned i = 0; i < 4; i++) {
                uint64_t tod = T0 + SEC(60) * i;
                sytprp(f, tod, a, 0, i);
                sytprp(f, tod, a, 1, i);
                feed_end(f, tod + SEC(1));
        }
}

static void packed_data_keep_the_default(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 2);
        run_system(f, 0);
        assert_null(zm_engine_reading(f->e));
        assert_string_equal(zm_engine_system(f->e), "zvmsys1");
        assert_true(reading_gauge(f) == 0.0);
        assert_false(feed_logged(f, "CP layout reading aligned"));
        assert_true(zm_law_status(f->e, "cpu-wait")->on);
        feed_free(f);
}

static void aligned_data_switch_once(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 2);
        run_system(f, 4);
        assert_string_equal(zm_engine_reading(f->e), "aligned");
        assert_string_equal(zm_engine_system(f->e), "zvmsys1");
        assert_true(reading_gauge(f) == 1.0);
        size_t n = 0;
        for (size_t i = 0; i < f->nlog; i++)
                n += strstr(f->log[i], "CP layout reading aligned") != NULL;
        assert_int_equal(n, 1);
        assert_true(feed_logged(f, "is not a CP name")); /* why the packed reading failed */
        /* the wait time is read at 72 and keeps its law: 37 s of 60 */
        assert_true(zm_law_status(f->e, "cpu-wait")->on);
        const struct zm_metric *m = feed_find(f, 0, "cpu1", "percent", "wait");
        assert_non_null(m);
        assert_true(m->gauge[0] > 61.6 && m->gauge[0] < 61.7);
        feed_free(f);
}

/* Garbage under both readings: no name from MTRSYS, collectd's Hostname, said once. */
static void neither_reading_falls_back_to_hostname(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 2);
        mtrsys(f, T0, 0, "ZVMSYS1", 2);
        assert_string_equal(zm_engine_system(f->e), "zvmsys1");
        memset(f->buf + 80, 0x15, 24); /* SYSTMID under both readings */
        feed_rec(f, 184);
        assert_string_equal(zm_engine_system(f->e), "");
        assert_true(feed_logged(f, "neither reading"));
        assert_true(feed_logged(f, "collectd's Hostname"));
        feed_end(f, T0 + SEC(1));
        assert_true(reading_gauge(f) == -1.0);
        feed_free(f);
}

/* An IPL time after the record's own time is no IPL time. */
static void ipl_after_record_fails(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 2);
        mtrsys(f, T0, 0, "ZVMSYS1", 2);
        be64(f->buf + 36, T0 + SEC(10));
        feed_rec(f, 184);
        assert_true(feed_logged(f, "SYSTODST"));
        assert_string_equal(zm_engine_system(f->e), "");
        feed_free(f);
}

/* CPReading pins a reading; the data's verdict on it is still logged. */
static void pinned_reading(void **state)
{
        (void)state;
        struct feed *f = calloc(1, sizeof(*f));
        struct zm_options o = {.unverified = -1, .verify_intervals = 2, .cp_reading = "aligned"};
        f->e = zm_engine_new(&o, feed_emit, feed_log, f);
        run_system(f, 4);
        assert_string_equal(zm_engine_reading(f->e), "aligned");
        assert_true(feed_logged(f, "pinned by CPReading"));
        feed_free(f);
        f = calloc(1, sizeof(*f));
        o.cp_reading = "packed";
        f->e = zm_engine_new(&o, feed_emit, feed_log, f);
        run_system(f, 4);
        assert_null(zm_engine_reading(f->e));
        assert_true(feed_logged(f, "CPReading packed (pinned) fails"));
        assert_string_equal(zm_engine_system(f->e), "");
        feed_free(f);
}

/* LayoutFile: "reading aligned" adds a layout of that reading; one without pins both. */
static void layoutfile_readings(void **state)
{
        (void)state;
        static const char txt[] =
            "layout D0R2 SYTPRP min_len 352 level \"z/VM 7.4\" source \"site\" reading aligned\n"
            "  field SYTPRP_PFXCPUAD 20 2 uint verified none - \"IBM mon640\" \"CPU\"\n"
            "  field SYTPRP_PFXTOTWT 200 8 timer hint counter timer \"site\" \"wait\"\n"
            "end\n"
            "layout D1R4 MTRSYS min_len 184 level \"z/VM 7.4\" source \"site pin\"\n"
            "  field MTRSYS_SYSTMID 100 8 ebcdic hint none - \"site\" \"system\"\n"
            "end\n";
        char err[256];
        assert_true(zl_load_text(txt, strlen(txt), "readings", err, sizeof(err)));
        assert_int_equal(off(0, 2, 352, "aligned", "SYTPRP_PFXTOTWT"), 200);
        assert_int_equal(off(0, 2, 352, NULL, "SYTPRP_PFXTOTWT"), 68);
        assert_int_equal(off(1, 4, 184, NULL, "MTRSYS_SYSTMID"), 100);
        assert_int_equal(off(1, 4, 184, "aligned", "MTRSYS_SYSTMID"), 100);
        zl_file_unload_all();
        assert_int_equal(off(1, 4, 184, "aligned", "MTRSYS_SYSTMID"), 92);
        static const char bad[] =
            "layout D0R2 SYTPRP min_len 352 level \"x\" source \"y\" readin aligned\nend\n";
        assert_false(zl_load_text(bad, strlen(bad), "bad", err, sizeof(err)));
        assert_non_null(strstr(err, "reading NAME"));
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(layouts_of_both_readings),
            cmocka_unit_test(packed_data_keep_the_default),
            cmocka_unit_test(aligned_data_switch_once),
            cmocka_unit_test(neither_reading_falls_back_to_hostname),
            cmocka_unit_test(ipl_after_record_fails),
            cmocka_unit_test(pinned_reading),
            cmocka_unit_test(layoutfile_readings),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
