/* SPDX-License-Identifier: MIT */
/*
 * A full decode against memcpy over the same bytes, in the same run.
 *
 * Input: a MONWRITE file from zvmsim (CP domains, kernel APPLDATA, LNXAPPL
 * from mon_fsstatd and mon_procd), read into memory once so that the disk
 * is not measured.  A full decode is what the zvm plugin and zvmmon dump do
 * together: the stream API walks frames and records, every field of every
 * record with a layout is read through the layouts (the fields zvmmon dump
 * shows, without its JSON: the integers by the layout made ready (zl_reader), the whole record at
 * once, the text converted as dump converts it), and every record goes to
 * the metric engine (with no emit callback: collectd is not measured).
 *
 * The full decode reads each record once, as a consumer doing both would:
 * a record that is not APPLDATA goes to zm_engine_record_read, which finds
 * its layout (zl_find_cp's) and reads every field with the layout made ready,
 * takes its own values from those integers, and hands them to the field
 * walk, which sums them and converts the text; an APPLDATA record's header
 * is parsed by the field walk and handed to the engine
 * (zm_engine_record_examined).  "walk + engine" feeds zm_engine_record, as the
 * plugin does, which reads only the fields the engine needs.
 *
 * Each pass starts from a new stream and engine: the engine keeps state
 * across intervals, and a second pass over the same file would look to it
 * like time running backwards.  The parts (walk only, walk + fields, walk +
 * engine) are timed in the same run so a change in the ratio can be placed.
 * Figures only; speed is never a pass/fail.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/hash.h"
#include "payload/appldata/appl.h"
#include "record/record.h"
#include "layout/layout.h"
#include "metric/metric.h"
#include "source/source.h"
#include "payload/wzvm/wzvm_format.h"

/* As the plugin's File replay feeds its stream (plugin/zvm/zvm_replay.c). */
#define CHUNK (1u << 20)

enum mode { M_WALK, M_FIELDS, M_ENGINE, M_FULL, M__COUNT };
static const char *const mode_name[M__COUNT] = {"walk only", "walk + fields", "walk + engine",
                                                "full decode"};

/*
 * Readers of the layouts met so far (zl_reader), by layout: a map, not a cache.  A
 * two-way cache of 64 sets held them until a build put four of the Linux layouts, which
 * every guest's records ask for in turn, in one set: 17,000 readers set up a pass, 1.6 %
 * of the decode, for nothing in the code measured.  More slots than there are layouts,
 * so no reader is ever set up twice.
 */
#define READERS 512 /* 1 << 9: reader_of's hash keeps 9 bits */

struct run {
        enum mode mode;
        struct zm_engine *eng;
        struct zd_appl_tracker *t;
        const struct zl_layout *fs, *procd_sum, *procd_task;
        uint64_t fields, present, wzvm;
        uint64_t sink;             /* every value read ends up here, so no read is optimised away */
        struct zl_reader *readers; /* READERS of them, by layout (reader_of) */
        size_t readers_gen;        /* the layouts' generation they were set up in */
};

/*
 * Every field of l in rec, for a layout no reader takes: the integers by
 * zl_read_ints, the text converted as dump converts it (a field longer than
 * t is cut, as a metric name would be).  Reserved fields are skipped, as
 * zl_foreach skips them.
 */
static void fields_any(struct run *x, const struct zl_layout *l, zd_view rec)
{
        uint64_t u[64];
        for (size_t first = 0, n; (n = zl_read_ints(l, rec, first, u, 64)) > 0; first += n)
                for (size_t i = 0; i < n; i++) {
                        const struct zl_field *f = &l->fields[first + i];
                        if (f->type == ZL_RSVD)
                                continue;
                        x->fields++;
                        if (!zl_inside(f, rec))
                                continue;
                        x->present++;
                        if (f->type == ZL_EBCDIC || f->type == ZL_ASCII) {
                                struct zl_value v;
                                char t[512];
                                zl_read(f, rec, &v);
                                x->sink += zl_text(&v, t, sizeof(t)) + (unsigned char)t[0];
                        } else {
                                x->sink += u[i];
                        }
                }
}

/* l's reader, set up the first time l is met; NULL for a layout no reader takes. */
static const struct zl_reader *reader_of(struct run *x, const struct zl_layout *l)
{
        size_t gen = zl_generation();
        if (x->readers_gen != gen) { /* a LayoutFile loaded: every reader is stale */
                memset(x->readers, 0, READERS * sizeof(*x->readers));
                x->readers_gen = gen;
        }
        /* the multiplicative hash's top bits, as zh_set2's: layouts that meet probe on */
        size_t i = (size_t)(((uint64_t)(uintptr_t)l * UINT64_C(0x9E3779B97F4A7C15)) >> 55);
        for (size_t tries = 0; tries < READERS; tries++, i = (i + 1) & (READERS - 1)) {
                struct zl_reader *r = &x->readers[i];
                if (r->l == l)
                        return r;
                if (!r->l) /* a layout no reader takes leaves its slot empty: asked again */
                        return zl_reader_init(r, l) ? r : NULL;
        }
        return NULL;
}

/* The fields of rec as r read them (u, and inside of them inside rec): the integers, the text. */
static inline __attribute__((always_inline)) void
fields_read(struct run *x, const struct zl_reader *r, zd_view rec, const uint64_t *u, size_t inside)
{
        uint64_t s[4] = {0, 0, 0, 0};
        x->present += inside;
        x->fields += r->ncounted;
        /* Four sums side by side: touching a value costs this consumer about one
         * instruction, where one running sum cost four (a tenth of the field walk). */
        size_t i = 0, n = r->nfields;
        for (; i + 4 <= n; i += 4)
                for (size_t k = 0; k < 4; k++)
                        s[k] += u[i + k];
        for (; i < n; i++)
                s[0] += u[i];
        x->sink += s[0] + s[1] + s[2] + s[3];
        for (size_t k = 0; k < r->ntext; k++) {
                char t[512];
                x->sink += zl_reader_text(r, k, rec, t, sizeof(t)) + (unsigned char)t[0];
        }
}

/* The same, by l's reader: every integer at once, then the text fields. */
static void fields(struct run *x, const struct zl_layout *l, zd_view rec)
{
        const struct zl_reader *r = reader_of(x, l);
        if (!r) {
                fields_any(x, l, rec);
                return;
        }
        uint64_t u[ZL_READER_MAX];
        size_t inside = zl_reader_ints(r, rec, u);
        fields_read(x, r, rec, u, inside);
}

/* The Linux data of a domain 10 record, as emit_core.c's appl() walks it. */
static void appl_fields(struct run *x, const struct zd_appl_info *ai)
{
        const struct zd_appl *a = &ai->a;
        if (ai->err || ai->opaque || !ai->layout || ai->sync_bad)
                return;
        if (a->kind == ZD_APPL_LINUXKRNL) {
                fields(x, ai->layout, a->data);
                /* an OS record whole and consistent: the examination located its CPUs */
                const struct zd_lx_cpus *c = &ai->cpus;
                if (a->recnum != ZD_LX_OS || ai->truncated || ai->cpus_err != ZD_E_NONE)
                        return;
                for (uint32_t i = 0; i < c->n; i++)
                        fields(x, c->entry, zd_lx_cpu_entry(c, a->data, i));
                return;
        }
        if (wzvm_is_record(a->data)) {
                x->wzvm++; /* zvmsim's MONWRITE files hold none; counted so it shows if they do */
                return;
        }
        if (!ai->has_body) /* its header's lengths lie */
                return;
        /* The examination parsed the header and the task's strings: taken, not parsed again. */
        if (ai->payload == ZD_PAYLOAD_FSSTATD) {
                zd_view rest = ai->body;
                struct zd_fs_entry fs;
                enum zd_err_kind e;
                while (zd_fs_next(&rest, &fs, &e) > 0) {
                        x->sink += fs.name.n + fs.dir.n + fs.type.n;
                        fields(x, x->fs, fs.statvfs);
                }
        } else if (ai->payload == ZD_PAYLOAD_PROCD_SUM) {
                fields(x, x->procd_sum, ai->body);
        } else if (ai->payload == ZD_PAYLOAD_PROCD_TASK) {
                fields(x, x->procd_task, ai->body);
                if (ai->task_ok)
                        for (int i = 0; i < ZD_PROCD_NSTR; i++)
                                x->sink += ai->task.str[i].n;
        }
}

/*
 * The full decode reads each record once: the engine reads its fields and
 * the field walk takes what it read (zm_engine_record_read), and the engine
 * takes the APPLDATA header the field walk parsed, as a consumer doing both
 * would.
 */
static void on_record(void *ctx, const struct zd_record *r)
{
        struct run *x = ctx;
        if (x->mode != M_FIELDS && x->mode != M_FULL) { /* the walk, or the plugin's way */
                if (x->eng)
                        zm_engine_record(x->eng, r);
                return;
        }
        bool appl = r->family == ZD_FAM_CP && r->domain == 10 && (r->number == 1 || r->number == 2);
        if (x->mode == M_FULL && !appl) {
                const struct zm_read *rd = zm_engine_record_read(x->eng, r);
                if (!rd) { /* out of memory: the engine has it, the walk reads it itself */
                        const struct zl_layout *l = zl_find_cp(r->domain, r->number, r->rec.n);
                        if (l)
                                fields(x, l, r->rec);
                } else if (rd->reader) {
                        fields_read(x, rd->reader, r->rec, rd->u, rd->inside);
                } else if (rd->layout) {
                        fields_any(x, rd->layout, r->rec);
                }
                return;
        }
        const struct zl_layout *l = zl_find_cp(r->domain, r->number, r->rec.n);
        if (l)
                fields(x, l, r->rec);
        if (appl) {
                struct zd_appl_info ai;
                zd_appl_examine(NULL, x->t, r, &ai);
                appl_fields(x, &ai);
                if (x->eng)
                        zm_engine_record_examined(x->eng, r, &ai);
                return;
        }
        if (x->eng)
                zm_engine_record(x->eng, r);
}

static void on_interval_end(void *ctx, const struct zd_record *r)
{
        struct run *x = ctx;
        if (x->eng)
                zm_engine_interval_end(x->eng, r);
}

static void on_error(void *ctx, const struct zd_error *e)
{
        (void)ctx, (void)e; /* counted in the stream's stats */
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
        uint64_t fields, present, wzvm, sink;
};

/* One pass over the whole input; false if the stream could not be set up. */
static bool pass(enum mode m, const uint8_t *data, size_t n, struct result *out)
{
        struct run x = {.mode = m, .readers_gen = zl_generation()};
        x.fs = zl_find("LNXAPPL.1.0.FS", SIZE_MAX);
        x.procd_sum = zl_find("LNXAPPL.2.0", SIZE_MAX);
        x.procd_task = zl_find("LNXAPPL.2.1", SIZE_MAX);
        if (!x.fs || !x.procd_sum || !x.procd_task)
                return false;
        if (m == M_ENGINE || m == M_FULL)
                x.eng = zm_engine_new(NULL, NULL, NULL, NULL);
        x.t = zd_appl_tracker_new();
        x.readers = calloc(READERS, sizeof(*x.readers));
        struct zd_handler h = {&x, on_record, on_error, on_interval_end};
        struct zd_stream *s = zd_stream_new(ZD_FMT_MONWRITE, &h);
        bool ok = s && x.t && x.readers && (x.eng || m == M_WALK || m == M_FIELDS);
        if (ok) {
                double t0 = now();
                for (size_t off = 0; off < n; off += CHUNK)
                        if (zd_stream_feed(s, data + off, n - off < CHUNK ? n - off : CHUNK) < 0)
                                break;
                zd_stream_finish(s);
                out->secs = now() - t0;
                out->st = *zd_stream_stats(s);
                if (x.eng)
                        out->cnt = *zm_engine_counters(x.eng);
                out->fields = x.fields;
                out->present = x.present;
                out->wzvm = x.wzvm;
                out->sink = x.sink;
        }
        zd_stream_free(s);
        zm_engine_free(x.eng);
        zd_appl_tracker_free(x.t);
        free(x.readers);
        return ok;
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

int main(int argc, char **argv)
{
        if (argc < 2) {
                fprintf(stderr, "usage: bench_decode MONWRITE-FILE [PASSES [MODE]]\n"
                                "  MODE: 0 walk, 1 walk + fields, 2 walk + engine, 3 full decode;\n"
                                "  only that one is run (for a profiler); default all\n");
                return 2;
        }
        int passes = argc > 2 ? atoi(argv[2]) : 3;
        if (passes < 1)
                passes = 1;
        int only = argc > 3 ? atoi(argv[3]) : -1;
        if (only >= M__COUNT) {
                fprintf(stderr, "bench_decode: no mode %d\n", only);
                return 2;
        }
        size_t n;
        uint8_t *data = slurp(argv[1], &n);
        if (!data)
                return 1;
        uint8_t *copy = malloc(n);
        if (!copy)
                return 1;
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
                        if (!pass((enum mode)m, data, n, &r)) {
                                fprintf(stderr, "bench_decode: out of memory or layouts missing\n");
                                return 1;
                        }
                        if (r.secs < best[m].secs)
                                best[m] = r;
                }
                /* memcpy is short and the machine may be shared: a few tries per pass so one
                 * busy moment does not pass for the memory's speed (it moved the ratio 3x). */
                for (int c = 0; c < 3; c++) {
                        double t0 = now();
                        memcpy(copy, data, n);
                        double t = now() - t0;
                        if (t < best_copy)
                                best_copy = t;
                }
        }

        const struct result *f = &best[only >= 0 ? only : M_FULL];
        double mb = (double)n / (1 << 20);
        printf("bench_decode: %s: %.0f MB, %llu data sets, %llu records, %llu intervals, %llu "
               "decode errors\n",
               argv[1], mb, (unsigned long long)f->st.sets, (unsigned long long)f->st.records,
               (unsigned long long)f->st.intervals, (unsigned long long)zd_stats_errors(&f->st));
        printf("bench_decode: per pass %llu fields read (%llu inside their records), %llu "
               "metrics, %llu write_zvm records skipped\n",
               (unsigned long long)f->fields, (unsigned long long)f->present,
               (unsigned long long)f->cnt.metrics, (unsigned long long)f->wzvm);
        printf("bench_decode: memcpy         %7.0f MB/s\n", mb / best_copy);
        for (int m = 0; m < M__COUNT; m++)
                if (only < 0 || m == only)
                        printf("bench_decode: %-14s %7.0f MB/s, %9.0f records/s, /memcpy = %.3f\n",
                               mode_name[m], mb / best[m].secs,
                               (double)best[m].st.records / best[m].secs, best_copy / best[m].secs);
        if (only < 0)
                printf("bench_decode: full decode %.0f MB/s, memcpy %.0f MB/s, decode/memcpy = "
                       "%.3f, %.0f records/s (best of %d)\n",
                       mb / f->secs, mb / best_copy, best_copy / f->secs,
                       (double)f->st.records / f->secs, passes);
        if (copy[n / 2] == 0xFF && f->sink == 42)
                puts("");
        int rc = f->st.records == 0 ? 1 : 0;
        free(data);
        free(copy);
        return rc;
}
