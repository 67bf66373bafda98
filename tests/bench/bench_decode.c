/* SPDX-License-Identifier: MIT */
/*
 * The shipped consumers of the decoder against memcpy over the same bytes,
 * in the same run.
 *
 * Input: a MONWRITE file from zvmsim (CP domains, kernel APPLDATA, LNXAPPL
 * from mon_fsstatd and mon_procd), read into memory once so that the disk
 * is not measured, and fed in the chunks the plugin's File replay uses.
 * Modes:
 *   walk only      the stream API walks frames and records, nothing more;
 *   walk + engine  every record to zm_engine_record with the plugin's
 *                  default options (plugin/zvm/zvm_config.c), as the
 *                  plugin's read path feeds it, with no emit callback:
 *                  collectd is not measured;
 *   walk + dump    every record as `zvmmon dump` shows it: domain 10
 *                  records examined (zd_appl_examine), every record emitted
 *                  as JSON Lines, written to /dev/null.
 * Each pass starts from a new stream and engine: the engine keeps state
 * across intervals, and a second pass over the same file would look to it
 * like time running backwards.  Figures only; speed is never a pass/fail.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emit.h"
#include "metric/metric.h"
#include "payload/appldata/appl.h"
#include "source/source.h"

/* As the plugin's File replay feeds its stream (plugin/zvm/zvm_replay.c). */
#define CHUNK (1u << 20)

enum mode { M_WALK, M_ENGINE, M_DUMP, M__COUNT };
static const char *const mode_name[M__COUNT] = {"walk only", "walk + engine", "walk + dump"};
static const char *const mode_arg[M__COUNT] = {"walk", "engine", "dump"};

/* The engine options zvm_config_defaults sets (doc/plugin.md). */
static const struct zm_options plugin_defaults = {
    .max_series_per_guest = 1000,
    .unverified = -1,
    .verify_intervals = 3,
};

struct run {
        enum mode mode;
        struct zm_engine *eng;
        struct zmon_emit *emit;
        struct zd_appl_tracker *t;
        struct zd_decoder examine; /* zd_appl_examine's errors, emitted as dump emits them */
};

static void on_record(void *ctx, const struct zd_record *r)
{
        struct run *x = ctx;
        if (x->eng) {
                zm_engine_record(x->eng, r);
                return;
        }
        if (!x->emit)
                return;
        if (r->family == ZD_FAM_CP && r->domain == 10 && (r->number == 1 || r->number == 2)) {
                struct zd_appl_info ai;
                zd_appl_examine(&x->examine, x->t, r, &ai);
                zmon_emit_record(x->emit, r, &ai);
                return;
        }
        zmon_emit_record(x->emit, r, NULL);
}

static void on_interval_end(void *ctx, const struct zd_record *r)
{
        struct run *x = ctx;
        if (x->eng)
                zm_engine_interval_end(x->eng, r);
}

static void on_error(void *ctx, const struct zd_error *e)
{
        struct run *x = ctx;
        if (x->emit)
                zmon_emit_error(x->emit, e);
}

static double now(void)
{
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct result {
        double secs;
        struct zd_stats st;
        struct zm_counters cnt;
};

/* The consumer of mode m, with what it needs; false if out of memory. */
static bool consumer(struct run *x, FILE *null)
{
        if (x->mode == M_ENGINE)
                return (x->eng = zm_engine_new(&plugin_defaults, NULL, NULL, NULL)) != NULL;
        if (x->mode != M_DUMP)
                return true;
        zd_decoder_init(&x->examine, &(struct zd_handler){x, NULL, on_error, NULL});
        x->emit = zmon_emit_new(ZMON_EMIT_JSON, null);
        x->t = zd_appl_tracker_new();
        return x->emit && x->t;
}

/* One pass over the whole input; false if the stream could not be set up. */
static bool pass(enum mode m, const uint8_t *data, size_t n, FILE *null, struct result *out)
{
        struct run x = {.mode = m};
        struct zd_handler h = {&x, on_record, on_error, on_interval_end};
        bool ok = consumer(&x, null);
        struct zd_stream *s = ok ? zd_stream_new(ZD_FMT_MONWRITE, &h) : NULL;
        if (s) {
                double t0 = now();
                for (size_t off = 0; off < n; off += CHUNK)
                        if (zd_stream_feed(s, data + off, n - off < CHUNK ? n - off : CHUNK) < 0)
                                break;
                zd_stream_finish(s);
                if (x.emit)
                        fflush(null);
                out->secs = now() - t0;
                out->st = *zd_stream_stats(s);
                if (x.eng)
                        out->cnt = *zm_engine_counters(x.eng);
        }
        zd_stream_free(s);
        zm_engine_free(x.eng);
        zmon_emit_free(x.emit);
        zd_appl_tracker_free(x.t);
        return s != NULL;
}

static uint8_t *slurp(const char *path, size_t *n)
{
        FILE *f = fopen(path, "rb");
        if (!f) {
                fprintf(stderr, "bench_decode: %s: %s\n", path, strerror(errno));
                return NULL;
        }
        uint8_t *p = NULL;
        if (fseek(f, 0, SEEK_END) == 0) {
                long len = ftell(f);
                rewind(f);
                if (len > 0 && (p = malloc((size_t)len)) != NULL &&
                    fread(p, 1, (size_t)len, f) != (size_t)len) {
                        free(p);
                        p = NULL;
                }
                *n = len > 0 ? (size_t)len : 0;
        }
        if (!p)
                fprintf(stderr, "bench_decode: %s: cannot read it into memory\n", path);
        fclose(f);
        return p;
}

/* A byte of every copy, read: a copy nobody reads may be optimised away. */
static volatile uint8_t copied;

/* The fastest memcpy of the input of a few tries: one busy moment is not the memory's speed. */
static double copy_secs(uint8_t *copy, const uint8_t *data, size_t n)
{
        double best = 1e9;
        for (int c = 0; c < 3; c++) {
                double t0 = now();
                memcpy(copy, data, n);
                double t = now() - t0;
                copied = copy[n / 2];
                if (t < best)
                        best = t;
        }
        return best;
}

static void report(const char *path, size_t n, const struct result *best, double best_copy,
                   int only)
{
        const struct result *f = &best[only >= 0 ? only : M_ENGINE];
        double mb = (double)n / (1 << 20);
        printf("bench_decode: %s: %.0f MB, %llu data sets, %llu records, %llu intervals, %llu "
               "decode errors\n",
               path, mb, (unsigned long long)f->st.sets, (unsigned long long)f->st.records,
               (unsigned long long)f->st.intervals, (unsigned long long)zd_stats_errors(&f->st));
        if (only < 0 || only == M_ENGINE)
                printf("bench_decode: per pass %llu metrics, %llu capped by the series cap\n",
                       (unsigned long long)best[M_ENGINE].cnt.metrics,
                       (unsigned long long)best[M_ENGINE].cnt.series_capped);
        printf("bench_decode: memcpy         %7.0f MB/s\n", mb / best_copy);
        for (int m = 0; m < M__COUNT; m++)
                if (only < 0 || m == only)
                        printf("bench_decode: %-14s %7.0f MB/s, %9.0f records/s, /memcpy = %.3f\n",
                               mode_name[m], mb / best[m].secs,
                               (double)best[m].st.records / best[m].secs, best_copy / best[m].secs);
}

int main(int argc, char **argv)
{
        if (argc < 2) {
                fprintf(stderr, "usage: bench_decode MONWRITE-FILE [PASSES [MODE]]\n"
                                "  MODE: walk, engine or dump; only that one is run (for a\n"
                                "  profiler); default all\n");
                return 2;
        }
        int passes = argc > 2 ? atoi(argv[2]) : 3;
        if (passes < 1)
                passes = 1;
        int only = -1;
        for (int m = 0; argc > 3 && m < M__COUNT; m++)
                if (strcmp(argv[3], mode_arg[m]) == 0)
                        only = m;
        if (argc > 3 && only < 0) {
                fprintf(stderr, "bench_decode: no mode %s (walk, engine or dump)\n", argv[3]);
                return 2;
        }
        size_t n;
        uint8_t *data = slurp(argv[1], &n);
        uint8_t *copy = data ? malloc(n) : NULL;
        FILE *null = fopen("/dev/null", "w");
        if (!copy || !null) {
                fprintf(stderr, "bench_decode: cannot set up the run\n");
                return 1;
        }
        memset(copy, 0, n); /* fault the pages in before timing */

        struct result best[M__COUNT];
        double best_copy = 1e9;
        for (int m = 0; m < M__COUNT; m++)
                best[m].secs = 1e9;
        /* Interleaved, so that a slow moment of the machine does not hit one mode only. */
        for (int rep = 0; rep < passes; rep++) {
                for (int m = 0; m < M__COUNT; m++) {
                        if (only >= 0 && m != only)
                                continue;
                        struct result r;
                        if (!pass((enum mode)m, data, n, null, &r)) {
                                fprintf(stderr, "bench_decode: out of memory\n");
                                return 1;
                        }
                        if (r.secs < best[m].secs)
                                best[m] = r;
                }
                double t = copy_secs(copy, data, n);
                best_copy = t < best_copy ? t : best_copy;
        }
        report(argv[1], n, best, best_copy, only);
        int rc = best[only >= 0 ? only : M_ENGINE].st.records == 0 ? 1 : 0;
        fclose(null);
        free(data);
        free(copy);
        return rc;
}
