/* SPDX-License-Identifier: MIT */
/*
 * bench_sink: a collectd write plugin for make bench-plugin that drops every
 * value list and counts it, or with Record "PATH" appends each one to a file
 * (bench_rec.h) for bench_replay to dispatch again.
 *
 *   <Plugin bench_sink>
 *     Result "PATH"              where the figures go when the run is over
 *     EndAfterLog "TEXT" ...     a log message that says the source is done
 *     Expect N                   optional: value lists the run must see
 *     Record "PATH"              optional: record instead of only counting
 *   </Plugin>
 *
 * The end of a run is known without timing guesses: the source logs one
 * message after its last dispatch; on seeing it the sink dispatches a marker
 * value list, which the write queue delivers after everything the source
 * dispatched before it.  At the marker the sink writes Result: CPU of the
 * whole process (all threads) since init and since the first value, wall
 * time, the count, and the memory after malloc_trim (so freed write-queue
 * entries do not count).  Load it with Globals true: bench_replay looks up
 * bench_sink_count to bound the values in flight.
 */
#include <collectd/core/daemon/collectd.h>
#include <collectd/core/daemon/plugin.h>

#include <dirent.h>

#include <malloc.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <time.h>
#include <valgrind/callgrind.h>

#include "bench_rec.h"

#define SINK      "bench_sink"
#define MAX_TEXTS 8
#define MAX_SEGS  64

struct mark {
        uint64_t cpu_ns, wall_ns;
};

static char *result_path, *record_path;
static char *end_texts[MAX_TEXTS];
static int n_end_texts;
static uint64_t expect;

static atomic_uint_fast64_t count;
static atomic_bool ended, marker_sent;
static struct mark at_init, at_first;
static pthread_mutex_t rec_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Where each monitor interval starts in the stream: the first value list of
 * a time more than half an interval past every earlier one.  The harness
 * reads steady-state intervals from these marks, away from the warm-up.
 */
static _Atomic cdtime_t seg_after; /* a time past this starts a segment */
static pthread_mutex_t seg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
        struct mark at;
        uint64_t count;
        cdtime_t time;
} segs[MAX_SEGS];
static int nsegs;
static struct bench_recorder *rec;
static uint64_t series;
static bool rec_ok = true;

/* Exported: the values written so far, for bench_replay's flow control. */
__attribute__((visibility("default"))) uint64_t bench_sink_count(void);
uint64_t bench_sink_count(void)
{
        return atomic_load_explicit(&count, memory_order_relaxed);
}

static struct mark now(void)
{
        struct rusage ru;
        struct timespec ts;
        getrusage(RUSAGE_SELF, &ru);
        clock_gettime(CLOCK_MONOTONIC, &ts);
        uint64_t cpu = ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000u +
                       ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000u;
        return (struct mark){cpu, (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec};
}

/* The kB figure of one /proc/self/status line, -1 if absent. */
static long status_kb(const char *status, const char *key)
{
        const char *p = strstr(status, key);
        return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

static void read_status(char *buf, size_t n)
{
        FILE *f = fopen("/proc/self/status", "r");
        size_t got = f ? fread(buf, 1, n - 1, f) : 0;
        buf[got] = 0;
        if (f)
                fclose(f);
}

/*
 * CPU of the source's thread (the zvm plugin's reader, bench_replay's) and of
 * all the others, in ns, from the scheduler's per-thread accounting: which
 * side of the hand-over to collectd the time went to.
 */
static void thread_cpu(uint64_t *src, uint64_t *rest)
{
        *src = *rest = 0;
        DIR *dir = opendir("/proc/self/task");
        if (!dir)
                return;
        struct dirent *de;
        while ((de = readdir(dir)) != NULL) {
                if (de->d_name[0] == '.')
                        continue;
                char path[300], comm[64] = "";
                unsigned long long ns = 0;
                snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
                FILE *f = fopen(path, "r");
                if (f) {
                        if (!fgets(comm, sizeof(comm), f))
                                comm[0] = 0;
                        fclose(f);
                }
                snprintf(path, sizeof(path), "/proc/self/task/%s/schedstat", de->d_name);
                f = fopen(path, "r");
                if (f) {
                        if (fscanf(f, "%llu", &ns) != 1)
                                ns = 0;
                        fclose(f);
                }
                if (strncmp(comm, "zvm reader", 10) == 0 || strncmp(comm, "bench replay", 12) == 0)
                        *src += ns;
                else
                        *rest += ns;
        }
        closedir(dir);
}

/*
 * Where the memory is, for the "extra B/series" column: the mappings (which
 * arena, which library) and malloc's own view of each arena, beside the
 * result (kept with BENCH_KEEP=1).
 */
static void keep_memory_map(void)
{
        char path[4096];
        snprintf(path, sizeof(path), "%s.malloc.xml", result_path);
        FILE *f = fopen(path, "w");
        if (f) {
                malloc_info(0, f);
                fclose(f);
        }
        snprintf(path, sizeof(path), "%s.smaps", result_path);
        FILE *out = fopen(path, "w"), *in = fopen("/proc/self/smaps", "r");
        char buf[8192];
        size_t n;
        while (in && out && (n = fread(buf, 1, sizeof(buf), in)) > 0)
                fwrite(buf, 1, n, out);
        if (in)
                fclose(in);
        if (out)
                fclose(out);
}

static void write_result(bool done)
{
        /* Under BENCH_IR's callgrind: the instructions up to the last value, not the shutdown's. */
        CALLGRIND_DUMP_STATS_AT("result");
        struct mark end = now();
        char before[4096], after[4096];
        read_status(before, sizeof(before));
        malloc_trim(0);
        read_status(after, sizeof(after));

        char tmp[4096];
        snprintf(tmp, sizeof(tmp), "%s.tmp", result_path);
        FILE *f = fopen(tmp, "w");
        if (!f) {
                ERROR(SINK " plugin: cannot write %s", tmp);
                return;
        }
        uint64_t n = bench_sink_count();
        fprintf(f, "done %d\ncount %llu\n", done, (unsigned long long)n);
        fprintf(f, "cpu_ns %llu\nwall_ns %llu\n", (unsigned long long)(end.cpu_ns - at_init.cpu_ns),
                (unsigned long long)(end.wall_ns - at_init.wall_ns));
        if (n)
                fprintf(f, "cpu_first_ns %llu\nwall_first_ns %llu\n",
                        (unsigned long long)(end.cpu_ns - at_first.cpu_ns),
                        (unsigned long long)(end.wall_ns - at_first.wall_ns));
        uint64_t src, rest;
        thread_cpu(&src, &rest);
        fprintf(f, "src_cpu_ns %llu\nrest_cpu_ns %llu\n", (unsigned long long)src,
                (unsigned long long)rest);
        fprintf(f, "rss_kb %ld\nrss_anon_kb %ld\nrss_anon_untrimmed_kb %ld\nhwm_kb %ld\n",
                status_kb(after, "VmRSS:"), status_kb(after, "RssAnon:"),
                status_kb(before, "RssAnon:"), status_kb(after, "VmHWM:"));
        /* Live heap: what RSS holds minus the freed write-queue copies malloc keeps in pieces. */
        struct mallinfo2 mi = mallinfo2();
        fprintf(f, "heap_inuse_kb %zu\n", (mi.uordblks + mi.hblkhd) / 1024);
        for (int i = 0; i < nsegs; i++)
                fprintf(f, "seg %llu %llu %llu %.3f\n", (unsigned long long)segs[i].count,
                        (unsigned long long)(segs[i].at.cpu_ns - at_init.cpu_ns),
                        (unsigned long long)(segs[i].at.wall_ns - at_init.wall_ns),
                        CDTIME_T_TO_DOUBLE(segs[i].time));
        if (record_path)
                fprintf(f, "series %llu\nrecord_ok %d\n", (unsigned long long)series, rec_ok);
        if (fclose(f) != 0 || rename(tmp, result_path) != 0)
                ERROR(SINK " plugin: cannot write %s", result_path);
        keep_memory_map();
}

static void end_run(void)
{
        /* With several write threads the last values may still be in another thread. */
        for (int i = 0; i < 2000 && expect && bench_sink_count() < expect; i++)
                nanosleep(&(struct timespec){0, 1000000}, NULL);
        pthread_mutex_lock(&rec_lock);
        if (rec) {
                series = bench_rec_series(rec);
                rec_ok = bench_rec_close(rec) && rec_ok;
                rec = NULL;
        }
        pthread_mutex_unlock(&rec_lock);
        write_result(true);
        INFO(SINK " plugin: run over after %llu value lists",
             (unsigned long long)bench_sink_count());
}

static void new_segment(const value_list_t *vl, uint64_t n)
{
        pthread_mutex_lock(&seg_lock);
        if (vl->time > seg_after) {
                if (nsegs < MAX_SEGS) {
                        segs[nsegs].at = now();
                        segs[nsegs].count = n;
                        segs[nsegs].time = vl->time;
                        nsegs++;
                }
                seg_after = vl->time + vl->interval / 2;
        }
        pthread_mutex_unlock(&seg_lock);
}

static int sink_write(const data_set_t *ds, const value_list_t *vl, user_data_t *ud)
{
        (void)ud;
        /* A plain compare first: this runs for every value list measured. */
        if (vl->plugin[0] == BENCH_MARKER_PLUGIN[0] &&
            strcmp(vl->plugin, BENCH_MARKER_PLUGIN) == 0) {
                if (!atomic_exchange(&ended, true))
                        end_run();
                return 0;
        }
        uint64_t n = atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
        if (n == 0)
                at_first = now();
        if (vl->time > atomic_load_explicit(&seg_after, memory_order_relaxed))
                new_segment(vl, n);
        if (record_path) {
                pthread_mutex_lock(&rec_lock);
                if (rec && !bench_rec_add(rec, ds, vl))
                        rec_ok = false;
                pthread_mutex_unlock(&rec_lock);
        }
        return 0;
}

static void send_marker(void)
{
        value_t v = {.gauge = 0};
        value_list_t vl = VALUE_LIST_INIT;
        vl.values = &v;
        vl.values_len = 1;
        vl.time = cdtime();
        vl.interval = TIME_T_TO_CDTIME_T(10);
        snprintf(vl.host, sizeof(vl.host), "bench");
        snprintf(vl.plugin, sizeof(vl.plugin), "%s", BENCH_MARKER_PLUGIN);
        snprintf(vl.type, sizeof(vl.type), "gauge");
        plugin_dispatch_values(&vl);
}

static void sink_log(int severity, const char *msg, user_data_t *ud)
{
        (void)severity;
        (void)ud;
        if (atomic_load(&marker_sent) || strncmp(msg, SINK " plugin", strlen(SINK " plugin")) == 0)
                return;
        for (int i = 0; i < n_end_texts; i++)
                if (strstr(msg, end_texts[i]) && !atomic_exchange(&marker_sent, true)) {
                        send_marker();
                        return;
                }
}

static int get_string(const oconfig_item_t *ci, int i, char **out)
{
        if (ci->values_num <= i || ci->values[i].type != OCONFIG_TYPE_STRING) {
                ERROR(SINK " plugin: %s needs a string", ci->key);
                return -1;
        }
        free(*out);
        return (*out = strdup(ci->values[i].value.string)) ? 0 : -1;
}

static int sink_config(oconfig_item_t *ci)
{
        for (int i = 0; i < ci->children_num; i++) {
                const oconfig_item_t *c = &ci->children[i];
                if (strcasecmp(c->key, "Result") == 0) {
                        if (get_string(c, 0, &result_path))
                                return -1;
                } else if (strcasecmp(c->key, "Record") == 0) {
                        if (get_string(c, 0, &record_path))
                                return -1;
                } else if (strcasecmp(c->key, "EndAfterLog") == 0) {
                        for (int j = 0; j < c->values_num; j++) {
                                if (n_end_texts == MAX_TEXTS)
                                        return -1;
                                if (get_string(c, j, &end_texts[n_end_texts++]))
                                        return -1;
                        }
                } else if (strcasecmp(c->key, "Expect") == 0 && c->values_num == 1 &&
                           c->values[0].type == OCONFIG_TYPE_NUMBER) {
                        expect = (uint64_t)c->values[0].value.number;
                } else {
                        ERROR(SINK " plugin: unknown option %s", c->key);
                        return -1;
                }
        }
        return 0;
}

static int sink_init(void)
{
        if (!result_path || !n_end_texts) {
                ERROR(SINK " plugin: Result and EndAfterLog are required");
                return -1;
        }
        if (record_path && !(rec = bench_rec_open(record_path))) {
                ERROR(SINK " plugin: cannot create %s", record_path);
                return -1;
        }
        at_init = now();
        return 0;
}

static int sink_shutdown(void)
{
        /* Stopped before the end (the harness's time limit): say how far it got. */
        if (result_path && !atomic_exchange(&ended, true)) {
                pthread_mutex_lock(&rec_lock);
                if (rec) {
                        series = bench_rec_series(rec);
                        bench_rec_close(rec);
                        rec = NULL;
                }
                pthread_mutex_unlock(&rec_lock);
                write_result(false);
        }
        return 0;
}

__attribute__((visibility("default"))) void module_register(void)
{
        plugin_register_complex_config(SINK, sink_config);
        plugin_register_init(SINK, sink_init);
        plugin_register_write(SINK, sink_write, NULL);
        plugin_register_log(SINK, sink_log, NULL);
        plugin_register_shutdown(SINK, sink_shutdown);
}
