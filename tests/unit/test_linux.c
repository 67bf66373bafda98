/* SPDX-License-Identifier: MIT */
/* Kernel APPLDATA payloads: MEM, OS (both mod levels, 0..110 CPUs), NET_SUM. */
#include "vec_appl.h"

#include "payload/appldata/appl.h"

static uint8_t data[8192];
static uint8_t rec[8192];

/* Parse a record holding data[0..n) with the kernel product id for recnum/mod. */
static struct zd_appl appl_of(uint8_t recnum, const char *mod, size_t n)
{
        uint8_t prod[16];
        vec_lx_prodid(prod, recnum, mod);
        struct zd_record r = vec_record(rec, vec_d10(rec, 2, "LNX", prod, data, (uint16_t)n));
        struct zd_appl a;
        assert_int_equal(zd_appl_parse(&r, &a), ZD_E_NONE);
        return a;
}

static uint64_t get(const struct zl_layout *l, zd_view v, const char *name)
{
        uint64_t x = UINT64_MAX;
        assert_true(zl_get_u64(l, v, name, &x));
        return x;
}

/* Every payload layout: fields in order, inside min_len, no overlaps. */
static void layouts_are_consistent(void **state)
{
        (void)state;
        static const struct {
                const char *id;
                unsigned len, nf;
        } want[] = {
            {"LINUXKRNL.MEM", 144, 19},    {"LINUXKRNL.OS", 52, 12},  {"LINUXKRNL.OS.CPU00", 28, 7},
            {"LINUXKRNL.OS.CPU01", 36, 9}, {"LINUXKRNL.NET", 96, 14}, {"LNXAPPL.HDR", 12, 3},
            {"LNXAPPL.1.0.FS", 72, 9},     {"LNXAPPL.2.0", 166, 31},  {"LNXAPPL.2.1", 111, 21}};
        for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
                const struct zl_layout *l = zl_find(want[i].id, SIZE_MAX);
                assert_non_null(l);
                assert_int_equal(l->min_len, want[i].len);
                assert_int_equal(l->nfields, want[i].nf);
                unsigned end = 0;
                for (size_t f = 0; f < l->nfields; f++) {
                        assert_int_equal(l->fields[f].off, end); /* packed, no gaps */
                        end = l->fields[f].off + l->fields[f].len;
                }
                assert_int_equal(end, want[i].len);
                assert_null(zl_find(want[i].id, want[i].len - 1));
        }
}

static void mem_record_fields(void **state)
{
        (void)state;
        memset(data, 0, 144);
        vec_lx_common(data, VEC_TOD_2026, 9, 9);
        /* IBM Table 1: u64 from offset 16 to 136, in documented order. */
        static const char *const names[] = {"pgpgin",    "pgpgout",   "pswpin",  "pswpout",
                                            "sharedram", "totalram",  "freeram", "totalhigh",
                                            "freehigh",  "bufferram", "cached",  "totalswap",
                                            "freeswap",  "pgalloc",   "pgfault", "pgmajfault"};
        for (unsigned i = 0; i < 16; i++)
                be64(data + 16 + 8 * i, UINT64_C(0x0100000000) + i);
        struct zd_appl a = appl_of(1, "00", 144);
        const struct zl_layout *l = zd_appl_layout(&a);
        assert_string_equal(l->id, "LINUXKRNL.MEM");
        assert_true(get(l, a.data, "timestamp") == VEC_TOD_2026);
        assert_int_equal(get(l, a.data, "sync_count_2"), 9);
        for (unsigned i = 0; i < 16; i++)
                assert_true(get(l, a.data, names[i]) == UINT64_C(0x0100000000) + i);
        assert_int_equal(zl_field(l, "pgpgin")->kind, ZL_K_COUNTER);
        assert_int_equal(zl_field(l, "freeram")->kind, ZL_K_GAUGE);
        assert_string_equal(zl_field(l, "freeram")->unit, "KB");
        assert_true(zd_lx_consistent(a.data));
        assert_true(zd_lx_timestamp(a.data) == VEC_TOD_2026);
}

static void sync_counters(void **state)
{
        (void)state;
        memset(data, 0, 16);
        vec_lx_common(data, 1, 0xFFFFFFFF, 0xFFFFFFFF);
        assert_true(zd_lx_consistent(zd_view_make(data, 16)));
        vec_lx_common(data, 1, 0, 0xFFFFFFFF); /* sync_count_1 wrapped mid-update */
        assert_false(zd_lx_consistent(zd_view_make(data, 16)));
        vec_lx_common(data, 1, 3, 3);
        assert_false(zd_lx_consistent(zd_view_make(data, 15))); /* cannot tell: refuse */
        assert_true(zd_lx_timestamp(zd_view_make(data, 7)) == 0);
}

static void check_cpu(const struct zd_lx_cpus *c, zd_view d, uint32_t i, bool v01)
{
        zd_view e = zd_lx_cpu_entry(c, d, i);
        assert_int_equal(e.n, c->step);
        assert_int_equal(get(c->entry, e, "per_cpu_user"), 1000 * i + 1);
        assert_int_equal(get(c->entry, e, "per_cpu_idle"), 1000 * i + 4);
        assert_int_equal(get(c->entry, e, "per_cpu_iowait"), 1000 * i + 7);
        if (v01) {
                assert_int_equal(get(c->entry, e, "per_cpu_steal"), 1000 * i + 8);
                assert_int_equal(get(c->entry, e, "cpu_id"), i);
        } else {
                assert_null(zl_field(c->entry, "per_cpu_steal"));
        }
}

static void os_mod01_cpus(void **state)
{
        (void)state;
        struct zd_lx_cpus c;
        static const uint32_t counts[] = {1, 2, 64, 110};
        for (size_t k = 0; k < 4; k++) {
                size_t n = vec_lx_os(data, counts[k], 36, 5);
                struct zd_appl a = appl_of(2, "01", n);
                assert_int_equal(zd_lx_os_cpus(&a, &c), ZD_E_NONE);
                assert_string_equal(c.entry->id, "LINUXKRNL.OS.CPU01");
                assert_int_equal(c.n, counts[k]);
                assert_int_equal(c.off, 52);
                assert_int_equal(c.step, 36);
                for (uint32_t i = 0; i < c.n; i++)
                        check_cpu(&c, a.data, i, true);
                assert_int_equal(zd_lx_cpu_entry(&c, a.data, c.n).n, 0);
        }
        size_t n = vec_lx_os(data, 64, 36, 5);
        assert_int_equal(n, 2356);
        struct zd_appl a = appl_of(2, "01", n);
        const struct zl_layout *l = zd_appl_layout(&a);
        assert_int_equal(get(l, a.data, "nr_cpus"), 64);
        assert_true(zd_lx_load((uint32_t)get(l, a.data, "avenrun_1")) == 0.5);
        assert_true(zd_lx_load((uint32_t)get(l, a.data, "avenrun_5")) == 1.0);
        assert_true(zd_lx_load((uint32_t)get(l, a.data, "avenrun_15")) == 2.5);
        assert_int_equal(get(l, a.data, "nr_iowait"), 1);
}

static void os_mod00_cpus(void **state)
{
        (void)state;
        struct zd_lx_cpus c;
        /* <= 2.6.17: 28-byte entries; the record was sized for NR_CPUS (32) behind an
         * unpacked 56-byte header, while nr_cpus counted online CPUs only. */
        vec_lx_os(data, 3, 28, 5);
        size_t n = 56 + 32 * 28;
        struct zd_appl a = appl_of(2, "00", n);
        assert_int_equal(zd_lx_os_cpus(&a, &c), ZD_E_NONE);
        assert_string_equal(c.entry->id, "LINUXKRNL.OS.CPU00");
        assert_int_equal(c.n, 3);
        assert_int_equal(c.step, 28);
        for (uint32_t i = 0; i < 3; i++)
                check_cpu(&c, a.data, i, false);
        /* 64 CPUs at mod level 00. */
        n = vec_lx_os(data, 64, 28, 5);
        a = appl_of(2, "00", n);
        assert_int_equal(zd_lx_os_cpus(&a, &c), ZD_E_NONE);
        assert_int_equal(c.n, 64);
        check_cpu(&c, a.data, 63, false);
}

static void os_zero_cpus(void **state)
{
        (void)state;
        struct zd_lx_cpus c;
        size_t n = vec_lx_os(data, 0, 36, 5);
        be32(data + 24, 0xFFFFFFFF); /* offset and size are irrelevant without entries */
        be32(data + 20, 0);
        struct zd_appl a = appl_of(2, "01", n);
        assert_int_equal(zd_lx_os_cpus(&a, &c), ZD_E_NONE);
        assert_int_equal(c.n, 0);
        assert_int_equal(zd_lx_cpu_entry(&c, a.data, 0).n, 0);
}

static void os_lying_cpu_area(void **state)
{
        (void)state;
        struct zd_lx_cpus c;
        struct zd_appl a;
        size_t n;

        n = vec_lx_os(data, 64, 36, 5);
        be32(data + 16, 65); /* one CPU more than delivered */
        a = appl_of(2, "01", n);
        assert_int_equal(zd_lx_os_cpus(&a, &c), ZD_E_LX_CPUS);
        assert_int_equal(c.n, 0);

        be32(data + 16, 0xFFFFFFFF); /* n * size would overflow 32 bits */
        a = appl_of(2, "01", n);
        assert_int_equal(zd_lx_os_cpus(&a, &c), ZD_E_LX_CPUS);

        n = vec_lx_os(data, 4, 36, 5);
        be32(data + 24, 40); /* entries overlapping the header */
        a = appl_of(2, "01", n);
        assert_int_equal(zd_lx_os_cpus(&a, &c), ZD_E_LX_CPUS);
        be32(data + 24, 0x7FFFFFF0); /* far outside */
        a = appl_of(2, "01", n);
        assert_int_equal(zd_lx_os_cpus(&a, &c), ZD_E_LX_CPUS);

        n = vec_lx_os(data, 4, 36, 5);
        be32(data + 20, 0); /* zero-sized entries */
        a = appl_of(2, "01", n);
        assert_int_equal(zd_lx_os_cpus(&a, &c), ZD_E_LX_CPUS);
        be32(data + 20, 28); /* mod 01 needs 36 */
        a = appl_of(2, "01", n);
        assert_int_equal(zd_lx_os_cpus(&a, &c), ZD_E_LX_CPUS);

        /* A future, larger entry is stepped over with per_cpu_size. */
        n = vec_lx_os(data, 4, 40, 5);
        a = appl_of(2, "01", n);
        assert_int_equal(zd_lx_os_cpus(&a, &c), ZD_E_NONE);
        assert_int_equal(c.step, 40);
        check_cpu(&c, a.data, 3, true);

        /* Header itself cut short. */
        a = appl_of(2, "01", 51);
        assert_int_equal(zd_lx_os_cpus(&a, &c), ZD_E_APPL_TRUNCATED);
}

static void net_record_fields(void **state)
{
        (void)state;
        memset(data, 0, 96);
        vec_lx_common(data, 77, 1, 1);
        be32(data + 16, 3);
        be32(data + 20, 0xDEADBEEF); /* padding: never decoded */
        static const char *const names[] = {"rx_packets", "tx_packets", "rx_bytes",
                                            "tx_bytes",   "rx_errors",  "tx_errors",
                                            "rx_dropped", "tx_dropped", "collisions"};
        for (unsigned i = 0; i < 9; i++)
                be64(data + 24 + 8 * i, UINT64_C(0xF000000000000000) + i);
        struct zd_appl a = appl_of(3, "00", 96);
        const struct zl_layout *l = zd_appl_layout(&a);
        assert_string_equal(l->id, "LINUXKRNL.NET");
        assert_int_equal(get(l, a.data, "nr_interfaces"), 3);
        for (unsigned i = 0; i < 9; i++)
                assert_true(get(l, a.data, names[i]) == UINT64_C(0xF000000000000000) + i);
        assert_int_equal(zl_field(l, "padding")->type, ZL_RSVD);
        /* Cut short: fields past the end are absent, not garbage. */
        struct zl_value v;
        a.data.n = 60;
        assert_false(zl_get(l, a.data, "rx_errors", &v));
        assert_true(zl_get(l, a.data, "tx_bytes", &v));
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(layouts_are_consistent), cmocka_unit_test(mem_record_fields),
            cmocka_unit_test(sync_counters),          cmocka_unit_test(os_mod01_cpus),
            cmocka_unit_test(os_mod00_cpus),          cmocka_unit_test(os_zero_cpus),
            cmocka_unit_test(os_lying_cpu_area),      cmocka_unit_test(net_record_fields),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
