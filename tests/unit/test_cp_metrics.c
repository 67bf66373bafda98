/* SPDX-License-Identifier: MIT */
/* CP metrics: rates from count-down timers, wraps, resets; domain 1 configuration. */
#include "cp_feed.h"

#include "layout/lay_file.h"

#define T0   VEC_TOD_2026
#define PRB0 UINT64_C(0x7FFFFFFF00000000)

/* n CPUs at interval i (60 s apart): 10 s user, 1 s system and 1 s emulation an interval each. */
static void feed_cpus(struct feed *f, uint64_t t, unsigned i, unsigned n)
{
        for (unsigned c = 0; c < n; c++)
                feed_sytprp(f, t, c, PRB0 - US(1000000) * i, US(10000000) * i, US(1000000) * i, 0);
}

/* Over 60 s: user +30 s, system +6 s, emulation (counting down) -24 s. */
static void cpu_percentages(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 3);
        feed_sytprp(f, T0, 0, PRB0, US(100000000), US(5000000), 0);
        feed_end(f, T0 + SEC(1));
        assert_null(feed_find(f, 0, "cpu0", "percent", "busy")); /* no delta yet */
        feed_sytprp(f, T0 + SEC(60), 0, PRB0 - US(24000000), US(130000000), US(11000000), 0);
        feed_end(f, T0 + SEC(61));
        const struct zm_metric *m = feed_find(f, 0, "cpu0", "percent", "busy");
        assert_non_null(m);
        assert_string_equal(m->plugin, "zvm");
        assert_int_equal(m->ds[0], ZM_GAUGE);
        assert_true(m->gauge[0] > 59.999 && m->gauge[0] < 60.001);
        assert_true(feed_find(f, 0, "cpu0", "percent", "user")->gauge[0] > 49.999);
        assert_true(feed_find(f, 0, "cpu0", "percent", "overhead")->gauge[0] < 10.001);
        m = feed_find(f, 0, "cpu0", "percent", "emulation");
        assert_non_null(m);
        assert_true(m->gauge[0] > 39.999 && m->gauge[0] < 40.001);
        assert_null(m->check);
        assert_int_equal(m->domain, 0);
        assert_int_equal(m->record, 2);
        assert_true(m->tod == T0 + SEC(60));
        feed_free(f);
}

/*
 * A set stamped later than the samples after it (the configuration set CP sends
 * at connect time when the sample clock is behind, a replayed file before the
 * device) must not stop the roll of readings: each rate is over its own
 * interval (10 %), not an average since that set (30 %).
 */
static void later_stamped_set_first(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 3);
        feed_end(f, T0 + SEC(3600));
        feed_sytprp(f, T0, 0, PRB0, US(100000000), US(0), 0);
        feed_end(f, T0 + SEC(1));
        feed_sytprp(f, T0 + SEC(60), 0, PRB0, US(130000000), US(0), 0);
        feed_end(f, T0 + SEC(61));
        size_t mark = f->n;
        feed_sytprp(f, T0 + SEC(120), 0, PRB0, US(136000000), US(0), 0);
        feed_end(f, T0 + SEC(121));
        const struct zm_metric *m = feed_find(f, mark, "cpu0", "percent", "user");
        assert_non_null(m);
        assert_true(m->gauge[0] > 9.999 && m->gauge[0] < 10.001);
        assert_true(m->tod == T0 + SEC(120));
        feed_free(f);
}

/* A count-down timer passing zero wraps modulo 2^64: still a 24 s delta. */
static void countdown_wrap(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 3);
        feed_sytprp(f, T0, 1, US(10000000), US(0), US(0), 0);
        feed_end(f, T0 + SEC(1));
        feed_sytprp(f, T0 + SEC(60), 1, (uint64_t)0 - US(14000000), US(30000000), US(0), 0);
        feed_end(f, T0 + SEC(61));
        const struct zm_metric *m = feed_find(f, 0, "cpu1", "percent", "emulation");
        assert_non_null(m);
        assert_true(m->gauge[0] > 39.999 && m->gauge[0] < 40.001);
        assert_int_equal(zm_engine_counters(f->e)->timer_resets, 0);
        feed_free(f);
}

/* A timer that jumps back (CPU reset, IPL) is a reset: the interval is dropped and counted. */
static void timer_reset_dropped(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 3);
        feed_sytprp(f, T0, 2, PRB0, US(900000000), US(5000000), 0);
        feed_end(f, T0 + SEC(1));
        feed_sytprp(f, T0 + SEC(60), 2, PRB0 - US(1000000), US(1000000), US(6000000), 0);
        feed_end(f, T0 + SEC(61));
        assert_null(feed_find(f, 0, "cpu2", "percent", "user"));
        assert_null(feed_find(f, 0, "cpu2", "percent", "busy"));
        assert_true(zm_engine_counters(f->e)->timer_resets >= 1);
        /* the next interval is good again */
        size_t mark = f->n;
        feed_sytprp(f, T0 + SEC(120), 2, PRB0 - US(2000000), US(7000000), US(12000000), 0);
        feed_end(f, T0 + SEC(121));
        assert_non_null(feed_find(f, mark, "cpu2", "percent", "user"));
        feed_free(f);
}

/* 32-bit counters wrap; the DERIVE value keeps growing. */
static void counter_wrap_derive(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 3);
        feed_sytsyp(f, T0, 0, 0xFFFFFFF0u, 10, 0, 0);
        feed_end(f, T0 + SEC(1));
        feed_sytsyp(f, T0 + SEC(60), 0, 0x10u, 15, 0, 0);
        feed_end(f, T0 + SEC(61));
        const struct zm_metric *m = feed_find(f, 0, "cpu0", "operations", "diagnose");
        assert_non_null(m);
        assert_int_equal(m->ds[0], ZM_DERIVE);
        assert_int_equal(m->derive[0], 0x20);
        m = feed_find(f, 0, "cpu0", "operations", "ssch");
        assert_int_equal(m->derive[0], 5);
        size_t mark = f->n;
        feed_sytsyp(f, T0 + SEC(120), 0, 0x30u, 15, 0, 0);
        feed_end(f, T0 + SEC(121));
        assert_int_equal(feed_find(f, mark, "cpu0", "operations", "diagnose")->derive[0], 0x40);
        feed_free(f);
}

/* Without Interval End records, a second SYTPRP for the same CPU closes the interval. */
static void interval_without_end_record(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 3);
        feed_sytprp(f, T0, 0, PRB0, US(0), US(0), 0);
        feed_sytprp(f, T0 + SEC(60), 0, PRB0 - US(6000000), US(6000000), US(0), 0);
        feed_sytprp(f, T0 + SEC(120), 0, PRB0 - US(12000000), US(12000000), US(0), 0);
        const struct zm_metric *m = feed_find(f, 0, "cpu0", "percent", "user");
        assert_non_null(m);
        assert_true(m->gauge[0] > 9.999 && m->gauge[0] < 10.001);
        feed_free(f);
}

/* D1R4 MTRSYS_SYSTMID (88, hint) names the system, lower case; D1R9 INTERVAL (20). */
static void monitor_config(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 3);
        memset(f->buf, 0, 184);
        vec_hdr(f->buf, 184, 1, 4, T0);
        ebc(f->buf + 88, "ZVMSYS1", 8);
        feed_rec(f, 184);
        assert_string_equal(zm_engine_system(f->e), "zvmsys1");
        /* garbage where the name should be, under either reading (met_reading.c): no
         * system name from MTRSYS at all, CP data go under collectd's Hostname */
        memset(f->buf + 88, 0x00, 8);
        f->buf[88] = 0x15;
        feed_rec(f, 184);
        assert_string_equal(zm_engine_system(f->e), "");
        assert_true(feed_logged(f, "not a CP name"));
        assert_true(feed_logged(f, "collectd's Hostname"));
        memset(f->buf, 0, 52);
        vec_hdr(f->buf, 52, 1, 9, T0);
        be32(f->buf + 20, 60);
        feed_rec(f, 52);
        assert_true(zm_engine_interval(f->e) == 60.0);
        be32(f->buf + 20, 0xFFFFFFFF); /* -1 s */
        feed_rec(f, 52);
        assert_true(zm_engine_interval(f->e) == 60.0);
        feed_free(f);
}

/* A hint metric (wait time) is held back and counted while its law has not held. */
static void hint_metric_held_back(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 3);
        feed_sytprp(f, T0, 0, PRB0, US(0), US(0), US(0));
        feed_end(f, T0 + SEC(1));
        feed_sytprp(f, T0 + SEC(60), 0, PRB0, US(30000000), US(0), US(30000000));
        feed_end(f, T0 + SEC(61));
        assert_null(feed_find(f, 0, "cpu0", "percent", "wait"));
        assert_non_null(feed_find(f, 0, "cpu0", "percent", "user"));
        assert_true(zm_engine_counters(f->e)->hint_suppressed >= 1);
        feed_free(f);
}

/* Truncated and lying records are skipped without harm. */
static void hostile_records(void **state)
{
        (void)state;
        struct feed *f = feed_new(1, 3);
        /* SYTCUP claiming 200 entries of 40 bytes in a 144-byte record */
        memset(f->buf, 0, 144);
        vec_hdr(f->buf, 144, 0, 16, T0);
        ebc(f->buf + 20, "LPAR1", 8);
        f->buf[30] = 200;
        be16(f->buf + 32, 64);
        be16(f->buf + 34, 40);
        feed_rec(f, 144);
        /* negative offset */
        be16(f->buf + 32, 0xFFF0);
        feed_rec(f, 144);
        /* SYTPRP shorter than any level: no layout */
        memset(f->buf, 0, 40);
        vec_hdr(f->buf, 40, 0, 2, T0);
        feed_rec(f, 40);
        feed_end(f, T0 + SEC(1));
        /* a userid with EBCDIC '/' (0x61) and blank (0x40) inside cannot break identifiers */
        for (unsigned i = 0; i < 2; i++) {
                feed_useact(f, T0 + SEC(60) * i, "A", 0, US(1000000ull * i), 0, 0, 0, 0);
                f->buf[21] = 0x61;
                f->buf[22] = 0x40;
                f->buf[23] = 0xC2;
                feed_rec(f, 508);
                feed_end(f, T0 + SEC(60) * i + SEC(1));
        }
        const struct zm_metric *u = feed_find(f, 0, "user-A__B", "percent", "cpu-total");
        assert_non_null(u);
        assert_string_equal(u->guest, "A__B"); /* the plugin's userid filters see the guest */
        assert_int_equal(u->scope, ZM_SYSTEM); /* but the host stays the z/VM system */
        assert_true(feed_logged(f, "SYTCUP entries do not fit"));
        assert_null(feed_find(f, 0, "lpar-LPAR1", "percent", "cpu0"));
        feed_free(f);
}

/*
 * Metrics follow the provenance of the fields they read: a LayoutFile that
 * marks PFXTOTWT verified publishes wait time without its law; one that
 * marks PFXUTIME uncertain stops user and busy time.
 */
static void provenance_from_layout_file(void **state)
{
        (void)state;
        static const char text[] =
            "layout D0R2 SYTPRP min_len 352 level \"test\" source \"test\"\n"
            "field SYTPRP_PFXCPUAD 20 2 uint verified none - \"t\" \"\"\n"
            "field SYTPRP_PFXPRBTM 24 8 timer-down verified counter - \"t\" \"\"\n"
            "field SYTPRP_PFXUTIME 32 8 timer uncertain counter - \"t\" \"\"\n"
            "field SYTPRP_PFXTMSYS 40 8 timer verified counter - \"t\" \"\"\n"
            "field SYTPRP_PFXTOTWT 68 8 timer verified counter - \"site check\" \"\"\n"
            "end\n";
        char err[256];
        if (!zl_load_text(text, strlen(text), "t", err, sizeof(err)))
                fail_msg("%s", err);
        struct feed *f = feed_new(-1, 3);
        feed_sytprp(f, T0, 0, PRB0, US(0), US(0), US(0));
        feed_end(f, T0 + SEC(1));
        feed_sytprp(f, T0 + SEC(60), 0, PRB0, US(30000000), US(6000000), US(24000000));
        feed_end(f, T0 + SEC(61));
        const struct zm_metric *m = feed_find(f, 0, "cpu0", "percent", "wait");
        assert_non_null(m);
        assert_null(m->check);
        assert_true(m->gauge[0] > 39.999 && m->gauge[0] < 40.001);
        assert_null(feed_find(f, 0, "cpu0", "percent", "user"));
        assert_null(feed_find(f, 0, "cpu0", "percent", "busy"));
        assert_non_null(feed_find(f, 0, "cpu0", "percent", "overhead"));
        feed_free(f);
        zl_file_unload_all();
}

/*
 * CP's metrics come with a key (met_cp_emit.c: the row, the entry's id and
 * name), so the engine gives each an id without hashing its names: one id for
 * one set of names and guest, over intervals, and another for anything else.
 * Guests with as many virtual CPUs whose userids share a prefix, CPUs that
 * differ in their number only: the id follows each (it fails with the
 * entry's id left out of the key).
 */
static void metric_ids_follow_names(void **state)
{
        (void)state;
        struct feed *f = feed_new(1, 3);
        static const char *const users[] = {"LINUX01", "LINUX010", "LINUX1", "TCPIP"};
        for (unsigned i = 0; i < 4; i++) {
                uint64_t t = T0 + SEC(60) * i;
                feed_cpus(f, t, i, 3);
                for (unsigned u = 0; u < 4; u++)
                        feed_useact(f, t, users[u], 2, US(1000000) * i * (u + 1),
                                    US(500000) * i * (u + 1), 100 + u, 10 * i, 5 * i);
                feed_end(f, t + SEC(1));
        }
        assert_true(f->n > 40);
        size_t keyed = 0;
        for (size_t i = 0; i < f->n; i++) {
                keyed += f->m[i].key != 0;
                assert_true(f->m[i].key == 0 || (f->m[i].id & 1) == 1);
        }
        assert_ids_follow_names(f->m, f->n, true);
        /* every CPU and guest metric is keyed; the reader's laws are not */
        for (size_t i = 0; i < f->n; i++)
                if (strcmp(f->m[i].plugin_instance, "reader") != 0 && !f->m[i].key)
                        fail_msg("%s/%s/%s/%s has no key", f->m[i].plugin, f->m[i].plugin_instance,
                                 f->m[i].type, f->m[i].type_instance);
        assert_true(keyed > 100);
        feed_free(f);
}

/*
 * A guest's entry is found where its table expects it only while the record
 * there is the same userid and virtual CPU (met_cp.c expected_entry).
 * LINUXC takes LINUXB's place in interval 3 and LINUXD's virtual CPU 0
 * becomes 1 (each where the table expects the old entry): both are new entries, with no rate until
 * their second reading, never the next reading of the entry that was there.
 */
static void entries_follow_names_not_places(void **state)
{
        (void)state;
        struct feed *f = feed_new(1, 3);
        size_t mark[5] = {0};
        for (unsigned i = 0; i < 5; i++) {
                uint64_t t = T0 + SEC(60) * i;
                mark[i] = f->n;
                feed_cpus(f, t, i, 3);
                feed_useact(f, t, "LINUX01", 0, US(1000000) * i, US(500000) * i, 100, 0, 0);
                if (i < 3)
                        feed_useact(f, t, "LINUXB", 0, US(2000000) * i, US(1000000) * i, 100, 0, 0);
                else /* 9 s at its first reading, then 3 s an interval */
                        feed_useact(f, t, "LINUXC", 0, US(3000000) * i, US(1000000) * i, 100, 0, 0);
                /* after C's new entry, the table's guess is lost until E is found again */
                feed_useact(f, t, "LINUXE", 0, US(1000000) * i, US(500000) * i, 100, 0, 0);
                feed_useact(f, t, "LINUXD", i < 3 ? 0 : 1, US(1500000) * i, US(500000) * i, 100, 0,
                            0);
                feed_end(f, t + SEC(1));
        }
        const struct zm_metric *m = feed_find(f, mark[2], "user-LINUXB", "percent", "cpu-total");
        assert_non_null(m); /* B had its rate while it was there */
        assert_true(m->gauge[0] > 3.333 && m->gauge[0] < 3.334);
        for (unsigned i = 3; i < 5; i++)
                for (size_t k = mark[i]; k < (i < 4 ? mark[i + 1] : f->n); k++)
                        assert_string_not_equal(f->m[k].plugin_instance, "user-LINUXB");
        m = feed_find(f, mark[3], "user-LINUXC", "percent", "cpu-total");
        assert_true(m == NULL || m->tod != T0 + SEC(180)); /* its first reading: no rate */
        m = feed_find(f, mark[4], "user-LINUXC", "percent", "cpu-total");
        assert_non_null(m);
        assert_true(m->gauge[0] > 4.999 && m->gauge[0] < 5.001); /* 3 s of 60, its own */
        m = feed_find(f, mark[3], "user-LINUXD", "percent", "cpu-total");
        assert_true(m == NULL || m->tod != T0 + SEC(180)); /* its new virtual CPU has no delta */
        m = feed_find(f, mark[4], "user-LINUXD", "percent", "cpu-total");
        assert_non_null(m);
        assert_true(m->gauge[0] > 2.499 && m->gauge[0] < 2.501);
        feed_free(f);
}

/*
 * A guest's series keep their keys (zm_metric.key) whatever its number of
 * virtual CPUs: LINUXV has one, is gone for an interval, and comes back
 * with two.  Its entry is made again, and the names are the same, so the
 * keys must be: a consumer keeps what it derives from a series under them.
 */
static void guest_keys_stay_when_vcpus_change(void **state)
{
        (void)state;
        struct feed *f = feed_new(1, 3);
        size_t mark[7] = {0};
        for (unsigned i = 0; i < 7; i++) {
                uint64_t t = T0 + SEC(60) * i;
                mark[i] = f->n;
                feed_cpus(f, t, i, 2);
                feed_useact(f, t, "LINUX01", 0, US(1000000) * i, US(500000) * i, 100, 0, 0);
                for (unsigned v = 0; i != 3 && v < (i < 3 ? 1u : 2u); v++)
                        feed_useact(f, t, "LINUXV", v, US(2000000) * i, US(1000000) * i, 100, 0, 0);
                feed_end(f, t + SEC(1));
        }
        size_t compared = 0;
        for (size_t k = mark[2]; k < mark[3]; k++) {
                if (strcmp(f->m[k].plugin_instance, "user-LINUXV") != 0)
                        continue;
                const struct zm_metric *later =
                    feed_find(f, mark[6], "user-LINUXV", f->m[k].type, f->m[k].type_instance);
                assert_non_null(later);
                assert_true(later->key == f->m[k].key);
                compared++;
        }
        assert_true(compared >= 2);
        feed_free(f);
}

/*
 * A guest's values come together, whatever the number of guests: collectd's
 * cache then finds one guest's series along one warm path (met_cp_emit.c,
 * BLOCK).  Each row over all 150 guests would put every other guest's values
 * between a guest's first and its last.
 */
static void guest_values_come_together(void **state)
{
        (void)state;
        enum { GUESTS = 150 };
        struct feed *f = feed_new(1, 3);
        size_t mark = 0;
        for (unsigned i = 0; i < 2; i++) {
                uint64_t t = T0 + SEC(60) * i;
                mark = f->n;
                for (unsigned g = 0; g < GUESTS; g++) {
                        char user[9];
                        snprintf(user, sizeof(user), "G%05u", g * 7 % GUESTS);
                        feed_useact(f, t, user, 0, US(1000000) * i, US(500000) * i, 100, 10 * i,
                                    5 * i);
                }
                feed_end(f, t + SEC(1));
        }
        size_t first[GUESTS], last[GUESTS], values = 0, worst = 0;
        unsigned owner[FEED_MAX]; /* the guest of each value, GUESTS for none */
        for (unsigned g = 0; g < GUESTS; g++)
                first[g] = SIZE_MAX, last[g] = 0;
        for (size_t k = mark; k < f->n; k++) {
                unsigned g;
                if (sscanf(f->m[k].plugin_instance, "user-G%5u", &g) != 1 || g >= GUESTS)
                        g = GUESTS;
                owner[k] = g;
                if (g == GUESTS)
                        continue;
                first[g] = k < first[g] ? k : first[g];
                last[g] = k;
                values++;
        }
        assert_true(values >= 6 * GUESTS); /* every row of every guest in the second interval */
        for (unsigned g = 0; g < GUESTS; g++) {
                /* other guests' values between this one's first and last */
                size_t others = 0;
                for (size_t k = first[g]; k <= last[g]; k++)
                        others += owner[k] != GUESTS && owner[k] != g;
                worst = others > worst ? others : worst;
        }
        /* a block of 32 guests, 7 rows: at most 31 other guests' 7 values */
        assert_true(worst <= 31 * 7);
        feed_free(f);
}

/*
 * A guest's sums are over this interval's virtual CPUs only.  The roll no
 * longer clears them (the first virtual CPU added in an interval does:
 * met_cp_close.c, to_guest), and the readings change banks instead of being
 * copied, so a rate depends on the banks taking turns right.  A guest with
 * two virtual CPUs, then one: 1 s and 3 s of CPU an interval, 100 and 300
 * resident pages (USEACT_VMDCTPVR).
 */
static void guest_sums_start_over(void **state)
{
        (void)state;
        enum { IVALS = 7, TWO = 4 }; /* intervals 0-3 with both virtual CPUs */
        struct feed *f = feed_new(1, 3);
        size_t mark[IVALS + 1] = {0};
        for (unsigned i = 0; i < IVALS; i++) {
                uint64_t t = T0 + SEC(60) * i;
                mark[i] = f->n;
                feed_cpus(f, t, i, 2);
                feed_useact(f, t, "LINUXV", 0, US(1000000) * i, US(500000) * i, 100, 0, 0);
                if (i < TWO)
                        feed_useact(f, t, "LINUXV", 1, US(3000000) * i, US(1500000) * i, 300, 0, 0);
                feed_end(f, t + SEC(1));
        }
        mark[IVALS] = f->n;
        /* What interval i's close says: from interval 2 on (1 has no deltas yet). */
        for (unsigned i = 2; i < IVALS; i++) {
                /* pages of 4,096 bytes; percent of the elapsed time of each virtual CPU */
                double pages = i < TWO ? 400 : 100;
                double pct = i < TWO ? 100.0 * 4 / 120 : 100.0 * 1 / 60;
                const struct zm_metric *m =
                    feed_find(f, mark[i], "user-LINUXV", "memory", "resident");
                assert_non_null(m);
                assert_true(m < f->m + mark[i + 1]);
                if (m->gauge[0] < pages * 4096 - 0.5 || m->gauge[0] > pages * 4096 + 0.5)
                        fail_msg("interval %u: resident %.0f bytes, not %.0f pages", i, m->gauge[0],
                                 pages);
                m = feed_find(f, mark[i], "user-LINUXV", "percent", "cpu-total");
                assert_non_null(m);
                assert_true(m < f->m + mark[i + 1]);
                if (m->gauge[0] < pct - 0.001 || m->gauge[0] > pct + 0.001)
                        fail_msg("interval %u: cpu-total %.4f %%, not %.4f", i, m->gauge[0], pct);
        }
        feed_free(f);
}

/*
 * A virtual CPU keeps its guest's place in the guest table from one interval
 * to the next (met_cp_close.c, to_guest).  When a guest logs off, the guests
 * after it move down: LINUXB goes away after interval 1, LINUXC and LINUXD
 * take its place and LINUXD's, and each must still get only its own sums
 * (2 s and 4 s of CPU an interval).
 */
static void guest_sums_follow_moved_guests(void **state)
{
        (void)state;
        enum { IVALS = 5 };
        static const char *const user[] = {"LINUXA", "LINUXB", "LINUXC", "LINUXD"};
        struct feed *f = feed_new(1, 3);
        size_t mark[IVALS + 1] = {0};
        for (unsigned i = 0; i < IVALS; i++) {
                uint64_t t = T0 + SEC(60) * i;
                mark[i] = f->n;
                feed_cpus(f, t, i, 2);
                for (unsigned g = 0; g < 4; g++)
                        if (g != 1 || i < 2)
                                feed_useact(f, t, user[g], 0, US(1000000) * (g + 1) * i,
                                            US(500000) * i, 100, 0, 0);
                feed_end(f, t + SEC(1));
        }
        mark[IVALS] = f->n;
        for (unsigned i = 2; i < IVALS; i++)
                for (unsigned g = 2; g < 4; g++) {
                        char inst[32];
                        snprintf(inst, sizeof(inst), "user-%s", user[g]);
                        const struct zm_metric *m =
                            feed_find(f, mark[i], inst, "percent", "cpu-total");
                        assert_non_null(m);
                        assert_true(m < f->m + mark[i + 1]);
                        double pct = 100.0 * (g + 1) / 60;
                        if (m->gauge[0] < pct - 0.001 || m->gauge[0] > pct + 0.001)
                                fail_msg("interval %u: %s at %.4f %%, not %.4f", i, user[g],
                                         m->gauge[0], pct);
                }
        feed_free(f);
}

/* Whether a and b are one metric: names, values, time, check and key. */
static bool same_metric(const struct zm_metric *a, const struct zm_metric *b)
{
        if (strcmp(a->plugin_instance, b->plugin_instance) != 0 || strcmp(a->type, b->type) != 0 ||
            strcmp(a->type_instance, b->type_instance) != 0 || strcmp(a->guest, b->guest) != 0 ||
            a->nvalues != b->nvalues || a->tod != b->tod || a->key != b->key ||
            (a->check == NULL) != (b->check == NULL) ||
            (a->check && strcmp(a->check, b->check) != 0))
                return false;
        for (size_t i = 0; i < a->nvalues; i++)
                if (a->ds[i] != b->ds[i] || (a->ds[i] == ZM_GAUGE ? a->gauge[i] != b->gauge[i]
                                                                  : a->derive[i] != b->derive[i]))
                        return false;
        return true;
}

/*
 * A block whose entries do not all have their deltas (a CPU whose timer went
 * back, a guest new this interval) or are not all current (a guest gone this
 * interval) beside entries that do and are: the others' values are what they
 * are without that entry, in the same order, and the gone guest gives none.
 * The rows decide per block whether every entry has what they need
 * (met_cp_emit.c, block_of).
 */
static void block_with_an_entry_short_of_deltas(void **state)
{
        (void)state;
        struct feed *with = feed_new(1, 3), *without = feed_new(1, 3);
        size_t mark[2] = {0, 0}, second[3];
        for (unsigned i = 0; i < 3; i++) {
                uint64_t t = T0 + SEC(60) * i;
                struct feed *fs[2] = {with, without};
                for (int k = 0; k < 2; k++) {
                        struct feed *f = fs[k];
                        mark[k] = f->n;
                        for (unsigned c = 0; c < 3; c++)
                                if (c != 1 || f == with)
                                        /* CPU 1's user time goes back in the second interval */
                                        feed_sytprp(f, t, c, PRB0 - US(1000000) * i,
                                                    c == 1 && i == 1
                                                        ? US(1000000)
                                                        : US(50000000) + US(10000000) * i,
                                                    US(1000000) * i, US(2000000) * i);
                        /* G1 comes in the second interval, G3 goes in the third */
                        static const char *const user[] = {"G0", "G1", "G2", "G3"};
                        for (unsigned g = 0; g < 4; g++)
                                if ((g != 1 && g != 3) || (f == with && (g == 1 ? i >= 1 : i < 2)))
                                        feed_useact(f, t, user[g], 0, US(1000000) * i,
                                                    US(500000) * i, 100, 10 * i, 5 * i);
                        feed_end(f, t + SEC(1));
                }
                /* the interval's CPU and guest values, less CPU 1's, G1's and G3's, alike */
                size_t a = mark[0], b = mark[1], n = 0;
                for (;; a++, b++, n++) {
                        while (a < with->n && (strcmp(with->m[a].plugin_instance, "cpu1") == 0 ||
                                               strcmp(with->m[a].plugin_instance, "user-G1") == 0 ||
                                               strcmp(with->m[a].plugin_instance, "user-G3") == 0 ||
                                               strcmp(with->m[a].plugin_instance, "reader") == 0))
                                a++;
                        while (b < without->n &&
                               strcmp(without->m[b].plugin_instance, "reader") == 0)
                                b++;
                        if (a >= with->n || b >= without->n)
                                break;
                        if (!same_metric(&with->m[a], &without->m[b]))
                                fail_msg("interval %u: %s %s %s against %s %s %s", i,
                                         with->m[a].plugin_instance, with->m[a].type,
                                         with->m[a].type_instance, without->m[b].plugin_instance,
                                         without->m[b].type, without->m[b].type_instance);
                }
                assert_true(a >= with->n && b >= without->n);
                if (i > 0)
                        assert_int_equal(n, 2 * 5 + 2 * 7); /* CPUs 0 and 2, G0 and G2 */
                second[i] = mark[0];
        }
        /* CPU 1 gave no user time in the interval its timer went back, and did again after;
         * G3 nothing in the interval it was gone */
        const struct zm_metric *m = feed_find(with, second[1], "cpu1", "percent", "user");
        assert_true(m == NULL || m >= with->m + second[2]);
        assert_non_null(feed_find(with, second[2], "cpu1", "percent", "user"));
        assert_true(zm_engine_counters(with->e)->timer_resets >= 1);
        for (size_t k = second[2]; k < with->n; k++)
                assert_string_not_equal(with->m[k].plugin_instance, "user-G3");
        feed_free(with);
        feed_free(without);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(cpu_percentages),
            cmocka_unit_test(guest_sums_start_over),
            cmocka_unit_test(guest_sums_follow_moved_guests),
            cmocka_unit_test(entries_follow_names_not_places),
            cmocka_unit_test(guest_keys_stay_when_vcpus_change),
            cmocka_unit_test(guest_values_come_together),
            cmocka_unit_test(countdown_wrap),
            cmocka_unit_test(timer_reset_dropped),
            cmocka_unit_test(counter_wrap_derive),
            cmocka_unit_test(interval_without_end_record),
            cmocka_unit_test(monitor_config),
            cmocka_unit_test(hint_metric_held_back),
            cmocka_unit_test(later_stamped_set_first),
            cmocka_unit_test(hostile_records),
            cmocka_unit_test(provenance_from_layout_file),
            cmocka_unit_test(metric_ids_follow_names),
            cmocka_unit_test(block_with_an_entry_short_of_deltas),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
