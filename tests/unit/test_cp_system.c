/* SPDX-License-Identifier: MIT */
/*
 * A whole simulated system through the record walker: every CP sample
 * record the metric module reads, packed into 4 KB frames (End-of-Frame
 * records, Interval End), with every law kept.  After verify_intervals + 1
 * intervals every law is on and every metric family of doc/metrics-cp.md
 * is published.  This is also the recipe zvmsim follows to keep the laws
 * (see the comments in one_interval).
 */
#include "cp_feed.h"

#include "metric/cp/met_cp_metrics.h"
#include "record/record.h"

#define T0   VEC_TOD_2026
#define PRB0 UINT64_C(0x7FFFFFFF00000000)

static uint8_t area[65536];
static size_t used;

static void add(const uint8_t *r, size_t n)
{
        size_t in_frame = used % 4096;
        if (in_frame + n + 20 > 4096) {
                vec_hdr(area + used, 20, 1, 13, T0); /* MTREOF, rest of the frame unused */
                used += 4096 - in_frame;
        }
        memcpy(area + used, r, n);
        used += n;
}

static void one_interval(unsigned i)
{
        uint64_t tod = T0 + SEC(60) * i;
        uint8_t b[512];
        /* MTRSYS: the system name */
        memset(b, 0, 184);
        vec_hdr(b, 184, 1, 4, tod);
        ebc(b + 88, "ZVMSYS1", 8);
        add(b, 184);
        for (unsigned c = 0; c < 2; c++) {
                /* SYTSYP per CPU: 100 DIAGNOSE + 400 simulated instructions, SSCH 600 per
                 * interval; paging 30 read + 12 written per CPU */
                memset(b, 0, 116);
                vec_hdr(b, 116, 0, 1, tod);
                be16(b + 20, (uint16_t)c);
                be32(b + 28, 100 * i);
                be32(b + 32, 400 * i);
                be32(b + 48, 600 * i);
                be32(b + 72, 30 * i);
                be32(b + 76, 12 * i);
                add(b, 116);
                /* SYTPRP per CPU: user 20 s + system 3 s + wait 37 s = 60 s elapsed;
                 * emulation 16 s (counting down) */
                memset(b, 0, 352);
                vec_hdr(b, 352, 0, 2, tod);
                be16(b + 20, (uint16_t)c);
                be64(b + 24, PRB0 - US(16000000ull * i));
                be64(b + 32, US(20000000ull * i));
                be64(b + 40, US(3000000ull * i));
                be64(b + 68, US(37000000ull * i));
                add(b, 352);
        }
        /* SYTRSG and STORSG: the same save-area count (300); available <= pageable */
        memset(b, 0, 224);
        vec_hdr(b, 224, 0, 3, tod);
        be32(b + 48, 1000000);
        be32(b + 52, 200000);
        be32(b + 68, 300);
        add(b, 224);
        /* SYTUSR, with its virtual-MP users' transactions: 30 trivial taking 0.6 s and 3
         * non-trivial taking 1.5 s an interval (28 and 40: TOD units) */
        memset(b, 0, 108);
        vec_hdr(b, 108, 0, 8, tod);
        be32(b + 20, 3);
        be32(b + 24, 1);
        be64(b + 28, US(600000ull * i));
        be32(b + 36, 30 * i);
        be64(b + 40, US(1500000ull * i));
        be32(b + 48, 3 * i);
        add(b, 108);
        /* SYTSYG: 28 fast CCW translations; SYTSXG: 20 execution space pages; SYTASG: 20
         * times the paging slots were 90 % full */
        memset(b, 0, 112);
        vec_hdr(b, 112, 0, 19, tod);
        be32(b + 28, 250 * i);
        add(b, 112);
        memset(b, 0, 96);
        vec_hdr(b, 96, 0, 21, tod);
        be32(b + 20, 4096);
        add(b, 96);
        memset(b, 0, 112);
        vec_hdr(b, 112, 0, 6, tod);
        be32(b + 20, i);
        add(b, 112);
        /* SSISCS: 20 synchronizations started, 24 Proceed-With-Reply sent; SSISMI: 20-39
         * entries into each state, 40-79 microseconds in each (joined all the time) */
        memset(b, 0, 60);
        vec_hdr(b, 60, 11, 1, tod);
        be32(b + 20, 2 * i);
        be32(b + 24, 2 * i);
        add(b, 60);
        memset(b, 0, 116);
        vec_hdr(b, 116, 11, 2, tod);
        be32(b + 24, 1);
        be64(b + 48, 60000000ull * i);
        add(b, 116);
        /* SYTCUP: own partition, 2 logical CPUs dispatched 30 s each (>= 46 s busy x 0.9),
         * 0.3 s of it LPAR management (+14 LCUCLPTM = 29.7 s <= +6 LCUCACTM) */
        memset(b, 0, 144);
        vec_hdr(b, 144, 0, 16, tod);
        ebc(b + 20, "LPAR1", 8);
        b[30] = 2;
        be16(b + 32, 64);
        be16(b + 34, 40);
        for (unsigned k = 0; k < 2; k++) {
                be16(b + 64 + 40 * k, (uint16_t)k);
                be64(b + 64 + 40 * k + 6, US(30000000ull * i));
                be64(b + 64 + 40 * k + 14, US(29700000ull * i));
        }
        add(b, 144);
        memset(b, 0, 464);
        vec_hdr(b, 464, 3, 1, tod);
        be32(b + 28, 300);
        add(b, 464);
        /* USEACT: guests share the 40 s user time and 32 s emulation; page reads 60, writes 24
         * (= the CPUs' paging); resident 500000 pages <= 800000 frames in use */
        static const struct {
                const char *u;
                unsigned v, tt, vt, res, pr, pw;
        } g[] = {{"LINUX01", 0, 20, 16, 300000, 40, 20},
                 {"LINUX01", 1, 10, 8, 0, 0, 0},
                 {"LINUX02", 0, 10, 8, 200000, 20, 4}};
        for (size_t k = 0; k < 3; k++) {
                memset(b, 0, 508);
                vec_hdr(b, 508, 4, 3, tod);
                ebc(b + 20, g[k].u, 8);
                be16(b + 28, (uint16_t)g[k].v);
                be64(b + 36, US(1000000ull * g[k].tt * i));
                be64(b + 44, US(1000000ull * g[k].vt * i));
                be32(b + 68, g[k].res);
                be32(b + 108, g[k].pr * i);
                be32(b + 112, g[k].pw * i);
                /* virtual I/O (128 console .. 144 other): 150 DASD + 10 console per virtual
                 * CPU, 480 in all <= 1000 simulated instructions and diagnoses */
                be32(b + 128, 10 * i);
                be32(b + 132, 150 * i);
                add(b, 508);
        }
        /* IODDEV: 500 SSCH per interval (<= 1200 executed), 16- and 32-bit counts together;
         * 56 connect 3.2 s, 60 pending 0.64 s, 64 disconnect 1.28 s, 160 device-active-only
         * 0.128 s in 128 us units: 5.2 s busy in 60 s, 10.2 ms per SSCH */
        memset(b, 0, 240);
        vec_hdr(b, 240, 6, 3, tod);
        be16(b + 52, (uint16_t)(500 * i));
        be32(b + 56, 25000 * i);
        be32(b + 60, 5000 * i);
        be32(b + 64, 10000 * i);
        be32(b + 160, 1000 * i);
        be32(b + 192, 500 * i);
        be16(b + 200, 0x0200);
        add(b, 240);
        /* VNDSES: 1500-byte packets out, 64-byte packets in */
        memset(b, 0, 316);
        vec_hdr(b, 316, 8, 1, tod);
        ebc(b + 24, "LINUX01", 8);
        be16(b + 32, 0x0600);
        be64(b + 96, 1500000ull * i);
        be64(b + 104, 64000ull * i);
        be64(b + 112, 1000ull * i);
        be64(b + 136, 1000ull * i);
        add(b, 316);
        memset(b, 0, 20);
        vec_hdr(b, 20, 1, 11, tod + SEC(1));
        add(b, 20);
}

struct ctx {
        struct zm_engine *e;
};

static void on_record(void *c, const struct zd_record *r)
{
        zm_engine_record(((struct ctx *)c)->e, r);
}

static void on_end(void *c, const struct zd_record *r)
{
        zm_engine_interval_end(((struct ctx *)c)->e, r);
}

static void on_error(void *c, const struct zd_error *err)
{
        (void)c;
        fail_msg("decoder error: %s", err->msg);
}

/* Does s fit the instance pattern p (a <token> stands for one or more name characters)? */
static bool matches(const char *p, const char *s)
{
        if (*p == '<') {
                const char *end = strchr(p, '>');
                assert_non_null(end);
                for (const char *q = s; *q && *q != '-'; q++)
                        if (matches(end + 1, q + 1))
                                return true;
                return false;
        }
        if (*p != *s)
                return false;
        return !*p || matches(p + 1, s + 1);
}

static void all_laws_kept(void **state)
{
        (void)state;
        struct feed *f = feed_new(-1, 3);
        struct ctx c = {f->e};
        struct zd_handler h = {&c, on_record, on_error, on_end};
        struct zd_decoder d;
        zd_decoder_init(&d, &h);
        for (unsigned i = 0; i < 4; i++) {
                used = 0;
                one_interval(i);
                assert_true(used < sizeof(area));
                zd_walk_recset(&d, zd_view_make(area, used), 0, 'S', NULL);
        }
        assert_int_equal(d.st.intervals, 4);
        assert_string_equal(zm_engine_system(f->e), "zvmsys1");
        const struct zv_law_status *st;
        for (size_t i = 0; (st = zm_law_at(f->e, i)) != NULL; i++)
                if (!st->on)
                        fail_msg("law %s not on: %s", st->name, st->reason);
        static const char *const want[][3] = {
            {"cpu0", "percent", "busy"},
            {"cpu1", "percent", "wait"},
            {"cpu0", "operations", "ssch"},
            {"storage", "memory", "free"},
            {"storage", "memory", "used"},
            {"storage", "vmpage_io", "paging"},
            {"system", "users", "logged-on"},
            {"system", "response_time", "transactions-mp-nontrivial"},
            {"storage", "memory", "execution-space"},
            {"ssi", "total_time_in_ms", "joined"},
            {"lpar-LPAR1", "percent", "cpu1"},
            {"lpar-LPAR1", "percent", "cpu1-management"},
            {"user-LINUX01", "percent", "cpu-total"},
            {"user-LINUX02", "virt_cpu_total", "virtual"},
            {"user-LINUX01", "memory", "resident"},
            {"user-LINUX02", "vmpage_io", "paging"},
            {"user-LINUX01", "operations", "virtual-io"},
            {"device-0200", "operations", "ssch"},
            {"device-0200", "total_time_in_ms", "connect"},
            {"device-0200", "total_time_in_ms", "device-active"},
            {"vnic-LINUX01-0600", "if_octets", ""},
            {"vnic-LINUX01-0600", "if_dropped", ""},
            {"reader", "gauge", "law-vnic"},
        };
        for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
                if (!feed_find(f, 0, want[i][0], want[i][1], want[i][2]))
                        fail_msg("no %s/%s-%s", want[i][0], want[i][1], want[i][2]);
        /* SYTSYP's paging is one series, its sums over both CPUs under the first: published
         * once an interval, 30 + 30 pages read and 12 + 12 written in each of 3 deltas. */
        const struct zm_metric *paging = NULL;
        for (size_t j = 0; j < f->n; j++) {
                const struct zm_metric *m = &f->m[j];
                if (strcmp(m->plugin_instance, "storage") || strcmp(m->type, "vmpage_io"))
                        continue;
                if (paging && paging->tod == m->tod)
                        fail_msg("storage/vmpage_io-paging twice in one interval");
                paging = m;
        }
        assert_non_null(paging);
        assert_int_equal(paging->nvalues, 2);
        assert_int_equal(paging->derive[0], 3 * 60);
        assert_int_equal(paging->derive[1], 3 * 24);
        /* Every row of the metric table the decoder emits by, and doc/metrics-cp.md lists. */
        for (size_t k = 0; k < cp_nmetrics; k++) {
                const struct cp_metric *m = &cp_metrics[k];
                size_t j = 0;
                for (; j < f->n; j++)
                        if (f->m[j].domain == m->domain && f->m[j].record == m->record &&
                            !strcmp(f->m[j].type, m->type) &&
                            matches(m->pinst, f->m[j].plugin_instance) &&
                            matches(m->tinst ? m->tinst : "", f->m[j].type_instance))
                                break;
                if (j == f->n)
                        fail_msg("table row %s/%s-%s: never emitted", m->pinst, m->type,
                                 m->tinst ? m->tinst : "");
        }
        feed_free(f);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(all_laws_kept),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
