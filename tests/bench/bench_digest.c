/* SPDX-License-Identifier: MIT */
/*
 * A digest of everything the metric engine makes of a file: every metric
 * (its scope, guest, five names, values, time, source record, law) and every
 * log message, in order, hashed into one number, with the engine's counters.
 * A change meant to make the decode cheaper must leave it as it was: two
 * builds, one file, the same line.  Not a benchmark; it sits here because it
 * judges the benchmark's rounds (README.md).
 *
 * Usage: bench_digest FILE
 *   records are fed to zm_engine_record, as the plugin does.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric/metric.h"
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

int main(int argc, char **argv)
{
        if (argc != 2) {
                fprintf(stderr, "usage: bench_digest FILE\n");
                return 2;
        }
        FILE *f = fopen(argv[1], "rb");
        if (!f) {
                perror(argv[1]);
                return 2;
        }
        struct digest d = {.h = UINT64_C(0xcbf29ce484222325)};
        d.eng = zm_engine_new(NULL, on_metric, on_log, &d);
        struct zd_handler h = {&d, on_record, on_error, on_interval_end};
        struct zd_stream *s = zd_stream_new(ZD_FMT_MONWRITE, &h);
        if (!d.eng || !s) {
                fprintf(stderr, "bench_digest: out of memory\n");
                return 2;
        }
        static uint8_t buf[1u << 20];
        size_t n;
        while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
                if (zd_stream_feed(s, buf, n) < 0)
                        break;
        zd_stream_finish(s);
        fclose(f);
        const struct zm_counters *c = zm_engine_counters(d.eng);
        printf("digest %016" PRIx64 " metrics %" PRIu64 " logs %" PRIu64 " records %" PRIu64
               " sync %" PRIu64 " stale %" PRIu64 " bad %" PRIu64 " capped %" PRIu64
               " resets %" PRIu64 " hint %" PRIu64 " torn %" PRIu64 " future %" PRIu64 "\n",
               d.h, d.metrics, d.logs, zd_stream_stats(s)->records, c->appl_sync, c->appl_stale,
               c->appl_bad, c->series_capped, c->timer_resets, c->hint_suppressed, c->procd_torn,
               c->appl_future);
        zd_stream_free(s);
        zm_engine_free(d.eng);
        return 0;
}
