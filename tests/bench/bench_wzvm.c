/* SPDX-License-Identifier: MIT */
/*
 * How long write_zvm's write callback holds one of collectd's write threads
 * when the queue is full and the device blocks.
 *
 * The plugin's own sources are linked against stand-ins for the daemon's
 * symbols (as tests/unit/test_wzvm_glue.c does) and driven the way collectd
 * drives it: module_register, the config callback, init, then the write
 * callback from several threads at once.  The device is a FIFO whose reader
 * never reads, its pipe shrunk to one page, so the writer thread's second
 * record write blocks for good and the smallest QueueLength fills.  Every
 * call is timed with CLOCK_MONOTONIC; the percentiles, the maximum and the
 * plugin's own drop count are printed.  A figure, never a pass/fail.
 */
#define _GNU_SOURCE /* F_SETPIPE_SZ */
#include <collectd/core/daemon/collectd.h>
#include <collectd/core/daemon/plugin.h>
#include <collectd/core/daemon/utils_cache.h>
#include <collectd/core/daemon/utils_time.h>
#include <collectd/liboconfig/oconfig.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void module_register(void);

/* ---- stand-ins for the daemon (the unit tests' own): they keep the plugin's callbacks ---- */
#include "wzvm_cd_stubs.h"

/* The plugin's self-metrics, by type instance. */
static struct {
        uint64_t queued, dropped_queue, record_start, record_update, write_error;
} self;
static void self_metric(const value_list_t *vl)
{
        uint64_t v = (uint64_t)vl->values[0].derive;
        if (strcmp(vl->type_instance, "queued") == 0)
                self.queued = v;
        else if (strcmp(vl->type_instance, "dropped_queue") == 0)
                self.dropped_queue = v;
        else if (strcmp(vl->type_instance, "record_start") == 0)
                self.record_start = v;
        else if (strcmp(vl->type_instance, "record_update") == 0)
                self.record_update = v;
        else if (strcmp(vl->type_instance, "write_error") == 0)
                self.write_error = v;
}

/* ---- the load ---- */
static data_source_t if_ds[2] = {{"rx", DS_TYPE_DERIVE, 0, NAN}, {"tx", DS_TYPE_DERIVE, 0, NAN}};
static data_set_t if_octets = {"if_octets", 2, if_ds};
static data_source_t g_ds[1] = {{"value", DS_TYPE_GAUGE, NAN, NAN}};
static data_set_t gauge_set = {"memory", 1, g_ds};

struct worker {
        pthread_t tid;
        int id;
        size_t calls;
        uint64_t *ns; /* one per call */
        int bad;      /* calls that did not return 0 */
};

static atomic_int go;

static uint64_t mono_ns(void)
{
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *work(void *arg)
{
        struct worker *w = arg;
        value_t v[2];
        value_list_t vl = VALUE_LIST_INIT;
        vl.values = v;
        vl.interval = TIME_T_TO_CDTIME_T(10);
        snprintf(vl.host, sizeof(vl.host), "lnx%02d", w->id);
        while (!atomic_load(&go))
                ;
        for (size_t i = 0; i < w->calls; i++) {
                /* Many identifiers and both shapes of value list, as a real host sends. */
                const data_set_t *ds;
                if (i & 1) {
                        ds = &if_octets;
                        snprintf(vl.plugin, sizeof(vl.plugin), "interface");
                        snprintf(vl.plugin_instance, sizeof(vl.plugin_instance), "eth%zu", i % 16);
                        snprintf(vl.type, sizeof(vl.type), "if_octets");
                        vl.type_instance[0] = '\0';
                        v[0].derive = (derive_t)i;
                        v[1].derive = (derive_t)(2 * i);
                } else {
                        ds = &gauge_set;
                        snprintf(vl.plugin, sizeof(vl.plugin), "memory");
                        vl.plugin_instance[0] = '\0';
                        snprintf(vl.type, sizeof(vl.type), "memory");
                        snprintf(vl.type_instance, sizeof(vl.type_instance), "m%zu", i % 64);
                        v[0].gauge = (gauge_t)i;
                }
                vl.values_len = ds->ds_num;
                vl.time = TIME_T_TO_CDTIME_T(1795305600) + (cdtime_t)i;
                uint64_t t0 = mono_ns();
                int rc = stub_cb.write(ds, &vl, NULL);
                w->ns[i] = mono_ns() - t0;
                if (rc != 0)
                        w->bad++;
        }
        return NULL;
}

/* Empties the FIFO once the figures are taken, so the writer thread can see shutdown. */
static void *drain_fifo(void *arg)
{
        int fd = *(int *)arg;
        char buf[8192];
        int fl = fcntl(fd, F_GETFL);
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
        while (read(fd, buf, sizeof(buf)) > 0)
                ;
        return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
        uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
        return x < y ? -1 : x > y;
}

static oconfig_value_t sval(const char *s)
{
        oconfig_value_t v = {.type = OCONFIG_TYPE_STRING};
        v.value.string = (char *)s;
        return v;
}
static oconfig_value_t nval(double d)
{
        oconfig_value_t v = {.type = OCONFIG_TYPE_NUMBER};
        v.value.number = d;
        return v;
}

int main(int argc, char **argv)
{
        if (argc < 2) {
                fprintf(stderr, "usage: bench_wzvm DIR [CALLS [THREADS [QUEUELENGTH]]]\n");
                return 2;
        }
        stub_on_dispatch = self_metric;
        stub_log_echo = 8; /* the first few are worth seeing; the rest would time the terminal */
        size_t total = argc > 2 ? (size_t)atol(argv[2]) : 1000000;
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        /* More callers than CPUs would time the scheduler's slices, not the plugin. */
        int nthreads = argc > 3 ? atoi(argv[3]) : (int)(ncpu < 2 ? 2 : ncpu > 4 ? 4 : ncpu);
        int qlen = argc > 4 ? atoi(argv[4]) : 16;
        if (nthreads < 1 || total < (size_t)nthreads || qlen < 16) {
                fprintf(stderr, "bench_wzvm: at least one call per thread, QueueLength >= 16\n");
                return 2;
        }

        char fifo[4096];
        snprintf(fifo, sizeof(fifo), "%s/bench_wzvm.fifo", argv[1]);
        unlink(fifo);
        if (mkfifo(fifo, 0600) != 0) {
                fprintf(stderr, "bench_wzvm: mkfifo %s: %s\n", fifo, strerror(errno));
                return 1;
        }
        /* A reader that never reads: the plugin's open succeeds, its writes fill the pipe. */
        int rfd = open(fifo, O_RDONLY | O_NONBLOCK);
        if (rfd < 0) {
                fprintf(stderr, "bench_wzvm: open %s: %s\n", fifo, strerror(errno));
                return 1;
        }
        int pipe_sz = fcntl(rfd, F_SETPIPE_SZ, 4096);

        module_register();
        if (!stub_cb.config || !stub_cb.init || !stub_cb.shutdown) {
                fprintf(stderr, "bench_wzvm: the plugin registered no config/init/shutdown\n");
                return 1;
        }
        oconfig_value_t vals[4] = {sval(fifo), nval(qlen), nval(0.001), nval(32)};
        oconfig_item_t kids[4] = {
            {.key = "Device", .values = &vals[0], .values_num = 1},
            {.key = "QueueLength", .values = &vals[1], .values_num = 1},
            {.key = "WriteInterval", .values = &vals[2], .values_num = 1},
            {.key = "MaxRecords", .values = &vals[3], .values_num = 1},
        };
        oconfig_item_t top = {.key = "Plugin", .children = kids, .children_num = 4};
        if (stub_cb.config(&top) != 0 || stub_cb.init() != 0 || !stub_cb.write || !stub_cb.read) {
                fprintf(stderr, "bench_wzvm: the plugin refused its configuration\n");
                return 1;
        }

        struct worker *ws = calloc((size_t)nthreads, sizeof(*ws));
        if (!ws)
                return 1;
        for (int t = 0; t < nthreads; t++) {
                ws[t].id = t;
                ws[t].calls = total / (size_t)nthreads + ((size_t)t < total % (size_t)nthreads);
                ws[t].ns = malloc(ws[t].calls * sizeof(uint64_t));
                /* fault the pages in: a page fault inside a timed call is not the plugin's */
                if (!ws[t].ns || !memset(ws[t].ns, 0, ws[t].calls * sizeof(uint64_t)) ||
                    pthread_create(&ws[t].tid, NULL, work, &ws[t]) != 0)
                        return 1;
        }
        uint64_t t0 = mono_ns();
        atomic_store(&go, 1);
        for (int t = 0; t < nthreads; t++)
                pthread_join(ws[t].tid, NULL);
        double secs = (double)(mono_ns() - t0) / 1e9;

        int pending = -1;
        ioctl(rfd, FIONREAD, &pending);
        stub_cb.read(); /* the counters the writer thread published before it blocked */

        uint64_t *all = malloc(total * sizeof(uint64_t));
        if (!all)
                return 1;
        size_t k = 0;
        int bad = 0;
        for (int t = 0; t < nthreads; t++) {
                memcpy(all + k, ws[t].ns, ws[t].calls * sizeof(uint64_t));
                k += ws[t].calls;
                bad += ws[t].bad;
        }
        qsort(all, total, sizeof(uint64_t), cmp_u64);
#define PCT(p) ((double)all[(size_t)((double)(total - 1) * (p))] / 1000.0)
        printf("bench_wzvm: %zu write callbacks from %d threads (%ld CPUs), QueueLength %d, "
               "device a FIFO never read (pipe %d bytes, %d unread), %.2f s\n",
               total, nthreads, ncpu, qlen, pipe_sz, pending, secs);
        printf("bench_wzvm: plugin counters: queued %llu, dropped_queue %llu, record_start %llu, "
               "record_update %llu, write_error %llu; %d calls returned non-zero\n",
               (unsigned long long)self.queued, (unsigned long long)self.dropped_queue,
               (unsigned long long)self.record_start, (unsigned long long)self.record_update,
               (unsigned long long)self.write_error, bad);
        size_t over100us = 0, over1ms = 0;
        for (size_t i = 0; i < total; i++) {
                over100us += all[i] > 100000;
                over1ms += all[i] > 1000000;
        }
        printf("bench_wzvm: time in the write callback: p50 %.2f us, p99 %.2f us, p99.9 %.2f us, "
               "max %.1f us; %zu calls over 100 us, %zu over 1 ms\n",
               PCT(0.5), PCT(0.99), PCT(0.999), (double)all[total - 1] / 1000.0, over100us,
               over1ms);

        /* Let the blocked writer thread finish, or shutdown would wait on it for good. */
        pthread_t drainer;
        int drained = pthread_create(&drainer, NULL, drain_fifo, &rfd) == 0;
        stub_cb.shutdown();
        if (drained)
                pthread_join(drainer, NULL);
        close(rfd);
        unlink(fifo);
        for (int t = 0; t < nthreads; t++)
                free(ws[t].ns);
        free(ws);
        free(all);
        return 0;
}
