/* SPDX-License-Identifier: MIT */
/*
 * write_zvm holds no memory per value or per pass beyond its table.  The soak
 * (tests/e2e/soak) can only watch collectd's VmRSS, where collectd's own value
 * cache and malloc's high-water mark hide anything smaller than a few hundred
 * kB; this is the exact check.  Each round sends 2,000 values with identifiers
 * never seen before through the write callback (some refused for their names,
 * some dropped by a full queue, some merged), drains the queue into the table
 * as the writer thread does, and runs the writer's ticks against a fake
 * monwriter device through EPERM, a vanished device, ENOSPC and recovery,
 * until every value has expired.  After warm-up rounds (the table and the
 * queue reach their size), the heap in use must be the same after every round.
 */
#include "../../plugin/write_zvm/write_zvm.c"

#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "wzvm_cd_stubs.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HEAP_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(HEAP_ASAN)
#define HEAP_ASAN 1
#endif
#ifdef HEAP_ASAN
#if __has_include(<sanitizer/allocator_interface.h>)
#include <sanitizer/allocator_interface.h>
#else
/* gcc's libasan exports it, but gcc ships no allocator_interface.h */
size_t __sanitizer_get_current_allocated_bytes(void);
#endif
#endif
/* Cross builds (s390x) may lack the headers; they run under qemu, not valgrind. */
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define HEAP_VALGRIND 1
#endif
#endif

#define VALUES    2000 /* per round: 1,000 gauges and 500 lists of two counters */
#define WARMUP    3
#define MEASURED  5
#define TOO_LONG  "x123456789012345678901234567890123456789012345678901234567890123"
#define DEV_FINE  "/dev/null"
#define DEV_GONE  "/nonexistent/monwriter"
#define ENOSPC_AT 4 /* the driver's max_bufs, as far as this test's device goes */

/* ---- how much heap is in use ---- */
enum heap_measure { HEAP_ASAN_BYTES, HEAP_VALGRIND_LEAKS, HEAP_MALLINFO2 };
static enum heap_measure measure;

static const char *measure_name(enum heap_measure m)
{
        return m == HEAP_ASAN_BYTES       ? "__sanitizer_get_current_allocated_bytes()"
               : m == HEAP_VALGRIND_LEAKS ? "valgrind's leak check (all blocks in use)"
                                          : "mallinfo2() uordblks + hblkhd";
}

static size_t heap_in_use(void)
{
        switch (measure) {
        case HEAP_ASAN_BYTES:
#ifdef HEAP_ASAN
                return __sanitizer_get_current_allocated_bytes();
#else
                break;
#endif
        case HEAP_VALGRIND_LEAKS: {
#ifdef HEAP_VALGRIND
                /* valgrind replaces malloc but not mallinfo2 (3.19 answers zeros); its
                 * leak search sees every block, so together they are the heap in use */
                unsigned long leaked = 0, dubious = 0, reachable = 0, suppressed = 0;
                VALGRIND_DO_QUICK_LEAK_CHECK;
                VALGRIND_COUNT_LEAKS(leaked, dubious, reachable, suppressed);
                return leaked + dubious + reachable + suppressed;
#else
                break;
#endif
        }
        case HEAP_MALLINFO2: {
                /* large blocks (the table) are mmapped, counted in hblkhd, not uordblks */
                struct mallinfo2 mi = mallinfo2();
                return mi.uordblks + mi.hblkhd;
        }
        }
        return 0;
}

static void *volatile kept; /* volatile: the compiler may not drop the malloc */

/* A measure is trusted only if it sees a block of 4096 bytes come and go. */
static bool measure_works(void)
{
        size_t before = heap_in_use();
        kept = malloc(4096);
        size_t with = heap_in_use();
        free(kept);
        return with >= before + 4096;
}

static int choose_measure(void **state)
{
        (void)state;
#ifdef HEAP_ASAN
        measure = HEAP_ASAN_BYTES;
#else
        measure = HEAP_MALLINFO2;
#ifdef HEAP_VALGRIND
        if (RUNNING_ON_VALGRIND)
                measure = HEAP_VALGRIND_LEAKS;
#endif
#endif
        if (!measure_works()) {
                print_error("no way to measure the heap here: %s did not grow by 4096 bytes "
                            "when a 4096-byte block was allocated\n",
                            measure_name(measure));
                return -1; /* cmocka fails the group: never a silent skip */
        }
        return 0;
}

/* ---- the fake monwriter device ---- */
enum dev_mode { DEV_OK, DEV_EPERM, DEV_ENODEV, DEV_ENOSPC };
static enum dev_mode mode;
static bool dev_started[WZ_MAX_RECORDS];
static uint64_t dev_writes;

static ssize_t fake_write(void *ctx, const void *p, size_t n)
{
        (void)ctx;
        const uint8_t *h = p;
        unsigned idx = (unsigned)(h[8] << 8 | h[9]); /* mod_level: the record's buffer */
        dev_writes++;
        if (mode == DEV_EPERM || mode == DEV_ENODEV) {
                errno = mode == DEV_EPERM ? EPERM : ENODEV;
                return -1;
        }
        if (h[0] == WZVM_MW_STOP) {
                dev_started[idx] = false;
                return (ssize_t)n;
        }
        if (mode == DEV_ENOSPC && !dev_started[idx] && idx >= ENOSPC_AT) {
                errno = ENOSPC;
                return -1;
        }
        dev_started[idx] = true;
        return (ssize_t)n;
}

/* ---- one round ---- */
static data_source_t g_ds[1] = {{"value", DS_TYPE_GAUGE, NAN, NAN}};
static data_set_t gauge_set = {"gauge", 1, g_ds};
static data_source_t if_ds[2] = {{"rx", DS_TYPE_DERIVE, 0, NAN}, {"tx", DS_TYPE_DERIVE, 0, NAN}};
static data_set_t if_octets = {"if_octets", 2, if_ds};

/* Lists 0..999 are gauges living 10 s (Timeout 2 x interval 5), 1000..1499 counters 60 s. */
static void send_list(unsigned round, unsigned i, const char *tinst)
{
        value_t v[2] = {{.derive = (derive_t)i}, {.derive = (derive_t)round}};
        bool gauge = i < VALUES / 2;
        value_list_t vl = VALUE_LIST_INIT;
        vl.values = v;
        vl.values_len = gauge ? 1 : 2;
        vl.time = TIME_T_TO_CDTIME_T(1795305600);
        vl.interval = TIME_T_TO_CDTIME_T(gauge ? 5 : 30);
        snprintf(vl.host, sizeof(vl.host), "lnxa");
        snprintf(vl.plugin, sizeof(vl.plugin), "gen");
        snprintf(vl.plugin_instance, sizeof(vl.plugin_instance), "round%u", round);
        snprintf(vl.type, sizeof(vl.type), "%s", gauge ? "gauge" : "if_octets");
        snprintf(vl.type_instance, sizeof(vl.type_instance), "%s", tinst);
        assert_int_equal(wz_write(gauge ? &gauge_set : &if_octets, &vl, NULL), 0);
}

static void send_round(unsigned round)
{
        char tinst[16];
        uint64_t dropped = queue.dropped;
        for (unsigned i = 0; i < VALUES * 3 / 4; i++) {
                snprintf(tinst, sizeof(tinst), "%u", i);
                send_list(round, i, tinst);
                if (i % 200 == 199)
                        drain();
        }
        drain();
        send_list(round, 0, TOO_LONG); /* refused for its name: the early return frees */
        /* again, undrained, more than the queue holds: merged, and dropped whole lists */
        for (unsigned i = 0; i < VALUES * 3 / 4; i++) {
                snprintf(tinst, sizeof(tinst), "%u", i);
                send_list(round, i, tinst);
        }
        assert_true(queue.dropped > dropped);
        drain();
        assert_int_equal(table.n, VALUES);
}

/* The writer's ticks, as wz_thread calls them, at times after the round's values arrived. */
static void tick_at(double t0, double dt, enum dev_mode m, const char *dev, double *retry_at)
{
        mode = m;
        snprintf(cfg.device, sizeof(cfg.device), "%s", dev);
        tick(t0 + dt, retry_at);
        if (fd < 0) /* closing the device stops every buffer */
                memset(dev_started, 0, sizeof(dev_started));
}

static void write_round(void)
{
        /* values arrived at mono_now(); the ticks run on a clock of their own from there,
         * so a round's retry time starts afresh (the writer's state carries over) */
        double t0 = mono_now(), retry_at = 0;
        uint64_t errors = writer.errors;
        tick_at(t0, 0.0, DEV_OK, DEV_FINE, &retry_at);
        assert_true(writer.nstarted > ENOSPC_AT);
        tick_at(t0, 0.1, DEV_EPERM, DEV_FINE, &retry_at); /* backs off */
        tick_at(t0, 0.2, DEV_EPERM, DEV_FINE, &retry_at); /* updates only, still refused */
        tick_at(t0, 1.0, DEV_OK, DEV_FINE, &retry_at);    /* works again */
        tick_at(t0, 1.1, DEV_ENODEV, DEV_GONE, &retry_at);
        assert_true(fd < 0 && writer.nstarted == 0);
        tick_at(t0, 1.4, DEV_OK, DEV_GONE, &retry_at); /* cannot reopen: owed */
        assert_true(fd < 0);
        tick_at(t0, 1.7, DEV_ENOSPC, DEV_FINE, &retry_at); /* reopened, max_bufs reached */
        assert_int_equal(writer.nstarted, ENOSPC_AT);
        tick_at(t0, 1.8, DEV_OK, DEV_FINE, &retry_at); /* backing off: no new records */
        assert_int_equal(writer.nstarted, ENOSPC_AT);
        tick_at(t0, 2.0, DEV_OK, DEV_FINE, &retry_at); /* all records again */
        assert_true(writer.nstarted > ENOSPC_AT && !c_would_release(&writer.complaint.c));
        assert_int_equal(table.n, VALUES);
        tick_at(t0, 20.0, DEV_OK, DEV_FINE, &retry_at); /* the gauges expired */
        assert_int_equal(table.n, VALUES / 2);
        tick_at(t0, 100.0, DEV_OK, DEV_FINE, &retry_at); /* every value expired */
        assert_int_equal(table.n, 0);
        assert_int_equal(writer.nstarted, 0);
        assert_true(writer.errors > errors);
        assert_int_equal(wz_read(), 0);
}

/* ---- the test ---- */
static int setup(void **state)
{
        cfg.store_rates = true; /* the counters take uc_get_rate's allocation */
        cfg.timeout = 2;
        cfg.retry = 0.25;
        cfg.max_records = 32;
        assert_int_equal(wz_queue_init(&queue, 1024), 0);
        wz_table_init(&table, (size_t)cfg.max_records * 163);
        wz_writer_init(&writer, WZVM_DEFAULT_APPLID, (unsigned)cfg.max_records, 1000);
        writer.retry = cfg.retry;
        writer.dev.write = fake_write;
        return choose_measure(state);
}

static int teardown(void **state)
{
        (void)state;
        wz_queue_destroy(&queue);
        if (fd >= 0)
                close(fd);
        fd = -1;
        wz_table_free(&table);
        return 0;
}

static void heap_is_flat_across_rounds(void **state)
{
        (void)state;
        size_t at[WARMUP + MEASURED + 1];
        at[0] = heap_in_use();
        for (unsigned r = 1; r <= WARMUP + MEASURED; r++) {
                nlog = 0;
                send_round(r);
                write_round();
                at[r] = heap_in_use();
                print_message("round %u: %zu bytes of heap in use (%s)\n", r, at[r],
                              measure_name(measure));
        }
        print_message("%d values a round, %zu bytes each in the table, %llu device writes\n",
                      VALUES, sizeof(struct wz_item), (unsigned long long)dev_writes);
        /* Exactly: every round allocates and frees the same blocks in the same order,
         * and the table and the queue reached their size in the first round. */
        for (unsigned r = WARMUP + 1; r <= WARMUP + MEASURED; r++)
                if (at[r] != at[WARMUP])
                        fail_msg("heap in use after round %u is %zu bytes, after round %d %zu: "
                                 "%+lld bytes over %u rounds of %d values",
                                 r, at[r], WARMUP, at[WARMUP],
                                 (long long)at[r] - (long long)at[WARMUP], r - WARMUP, VALUES);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test_setup_teardown(heap_is_flat_across_rounds, setup, teardown),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
