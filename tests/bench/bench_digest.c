/* SPDX-License-Identifier: MIT */
/*
 * A digest of everything the metric engine makes of a file: every metric
 * (its scope, guest, five names, values, time, source record, law) and every
 * log message, in order, hashed into one number, with the engine's counters.
 * A change meant to leave the decode's behaviour alone must leave it as it
 * was: two builds, one file, the same line.  make check-digest holds it to
 * the lines committed in tests/digest/.  Not a benchmark; it sits here
 * because it judges changes made for the benchmarks' sake (README.md).
 *
 * Usage: bench_digest [--no-options] [--process NAME]
 *                     [--process-match NAME REGEX] FILE
 *   Records go through zm_engine_record, as the zvm plugin feeds them, with
 *   the options the plugin sets by default (tests/digest/plugin_options.h).
 *   --no-options: zm_engine_new(NULL): the engine's own defaults, which
 *   have no series cap.
 *   --process, --process-match (repeatable): the plugin's Process and
 *   ProcessMatch options, for every guest, so that mon_procd's tasks give
 *   metrics.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric/metric.h"
#include "metric/procsel.h"
#include "plugin_options.h"
#include "source/source.h"

struct digest {
        uint64_t h, metrics, logs;
        struct zm_engine *eng;
};

/* FNV-1a: order-sensitive, and a byte changed anywhere changes the result. */
static void mix(struct digest *d, const void *p, size_t n)
{
        const unsigned char *b = p;
        for (size_t i = 0; i < n; i++)
                d->h = (d->h ^ b[i]) * UINT64_C(0x100000001b3);
}

static void mix_str(struct digest *d, const char *s)
{
        mix(d, s ? s : "(null)", strlen(s ? s : "(null)") + 1);
}

static void on_metric(void *ctx, const struct zm_metric *m)
{
        struct digest *d = ctx;
        d->metrics++;
        uint64_t w[4] = {m->scope, m->nvalues, m->tod, (uint64_t)m->domain << 16 | m->record};
        mix(d, w, sizeof(w));
        mix_str(d, m->scope == ZM_GUEST ? m->guest : "");
        mix_str(d, m->host);
        mix_str(d, m->plugin);
        mix_str(d, m->plugin_instance);
        mix_str(d, m->type);
        mix_str(d, m->type_instance);
        mix_str(d, m->check);
        for (size_t i = 0; i < m->nvalues && i < ZM_MAXVALUES; i++) {
                uint64_t v[2] = {m->ds[i], 0};
                if (m->ds[i] == ZM_GAUGE)
                        memcpy(&v[1], &m->gauge[i], sizeof(double));
                else
                        v[1] = (uint64_t)m->derive[i];
                mix(d, v, sizeof(v));
        }
}

static void on_log(void *ctx, int level, const char *msg)
{
        struct digest *d = ctx;
        d->logs++;
        mix(d, &level, sizeof(level));
        mix_str(d, msg);
}

static void on_record(void *ctx, const struct zd_record *r)
{
        struct digest *d = ctx;
        zm_engine_record(d->eng, r);
}

static void on_interval_end(void *ctx, const struct zd_record *r)
{
        struct digest *d = ctx;
        zm_engine_interval_end(d->eng, r);
}

static void on_error(void *ctx, const struct zd_error *e)
{
        (void)ctx, (void)e;
}

static int usage(void)
{
        fprintf(stderr, "usage: bench_digest [--no-options] [--process NAME] "
                        "[--process-match NAME REGEX] FILE\n");
        return 2;
}

struct args {
        const char *path;
        bool plain;
        struct zm_procsel *procs;
};

/* The options before FILE; -1 for a usage error, 0 when a selection was refused. */
static int parse_args(int argc, char **argv, struct args *a)
{
        int i = 1;
        for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
                bool match = strcmp(argv[i], "--process-match") == 0;
                if (strcmp(argv[i], "--no-options") == 0) {
                        a->plain = true;
                        continue;
                }
                if ((!match && strcmp(argv[i], "--process") != 0) || i + 1 + match >= argc)
                        return -1;
                char err[256];
                if ((!a->procs && !(a->procs = zm_procsel_new())) ||
                    !zm_procsel_add(a->procs, argv[i + 1], match ? argv[i + 2] : NULL, err,
                                    sizeof(err))) {
                        fprintf(stderr, "bench_digest: %s %s: %s\n", argv[i], argv[i + 1],
                                a->procs ? err : "out of memory");
                        return 0;
                }
                i += 1 + match;
        }
        if (i != argc - 1 || (a->plain && a->procs))
                return -1;
        a->path = argv[i];
        return 1;
}

static void feed(struct zd_stream *s, FILE *f)
{
        static uint8_t buf[1u << 20];
        size_t n;
        while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
                if (zd_stream_feed(s, buf, n) < 0)
                        break;
        zd_stream_finish(s);
}

static void report(const struct digest *d, const struct zd_stream *s)
{
        const struct zm_counters *c = zm_engine_counters(d->eng);
        printf("digest %016" PRIx64 " metrics %" PRIu64 " logs %" PRIu64 " records %" PRIu64
               " sync %" PRIu64 " stale %" PRIu64 " bad %" PRIu64 " capped %" PRIu64
               " resets %" PRIu64 " hint %" PRIu64 " torn %" PRIu64 " future %" PRIu64 "\n",
               d->h, d->metrics, d->logs, zd_stream_stats(s)->records, c->appl_sync, c->appl_stale,
               c->appl_bad, c->series_capped, c->timer_resets, c->hint_suppressed, c->procd_torn,
               c->appl_future);
}

int main(int argc, char **argv)
{
        struct args a = {0};
        int rc = parse_args(argc, argv, &a);
        if (rc <= 0) {
                zm_procsel_free(a.procs);
                return rc < 0 ? usage() : 2;
        }
        FILE *f = fopen(a.path, "rb");
        if (!f) {
                perror(a.path);
                zm_procsel_free(a.procs);
                return 2;
        }
        struct zm_options opt;
        digest_plugin_options(&opt);
        opt.procs = a.procs;
        struct digest d = {.h = UINT64_C(0xcbf29ce484222325)};
        d.eng = zm_engine_new(a.plain ? NULL : &opt, on_metric, on_log, &d);
        struct zd_handler h = {&d, on_record, on_error, on_interval_end};
        struct zd_stream *s = zd_stream_new(ZD_FMT_MONWRITE, &h);
        if (!d.eng || !s) {
                fprintf(stderr, "bench_digest: out of memory\n");
                return 2;
        }
        feed(s, f);
        fclose(f);
        report(&d, s);
        zd_stream_free(s);
        zm_engine_free(d.eng);
        zm_procsel_free(a.procs);
        return 0;
}
