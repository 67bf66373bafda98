/* SPDX-License-Identifier: MIT */
/* zvmmon stat: what is in a file, and what was wrong with it. */
#include <getopt.h>
#include <inttypes.h>
#include <string.h>

#include "emit.h"
#include "zvmdec.h"
#include "zvmmon.h"

struct stat_ctx {
        struct zd_appl_tracker *t;
        struct zmon_appl_counts ac;
        struct zd_stats extra;
};

static void on_record(void *ctx, const struct zd_record *r)
{
        struct stat_ctx *x = ctx;
        if (r->family != ZD_FAM_CP || r->domain != 10 || (r->number != 1 && r->number != 2))
                return;
        struct zd_decoder d;
        zd_decoder_init(&d, NULL);
        struct zd_appl_info ai;
        zd_appl_examine(&d, x->t, r, &ai);
        for (int k = 0; k < ZD_E__COUNT; k++)
                x->extra.errors[k] += d.st.errors[k];
        zmon_count_appl(&x->ac, &ai);
}

static void num(struct zmon_sink *s, const char *k, uint64_t v)
{
        char b[24];
        snprintf(b, sizeof(b), "%" PRIu64, v);
        s->key(s->ctx, k);
        s->num(s->ctx, b);
}

/* v may be a file name: any bytes, where JSON wants UTF-8. */
static void text(struct zmon_sink *s, const char *k, const char *v)
{
        s->key(s->ctx, k);
        zmon_sink_str(s, v, strlen(v));
}

/* What the file is and what it holds in total. */
static void report_totals(struct zmon_sink *s, const char *path, enum zd_format fmt,
                          const struct zd_stats *st)
{
        text(s, "input", path);
        const struct zd_source_ops *o = zd_source_by_fmt(fmt);
        text(s, "format", o ? o->name : "unknown");
        num(s, "bytes", st->bytes);
        num(s, "sets", st->sets);
        num(s, "mces", st->mces);
        num(s, "records", st->records);
        num(s, "samples", st->samples);
        num(s, "events", st->events);
        num(s, "frames", st->frames);
        num(s, "intervals", st->intervals);
        char b[40];
        if (st->first_tod && zd_tod_to_iso8601(st->first_tod, b, sizeof(b)))
                text(s, "first_time", b);
        if (st->last_tod && zd_tod_to_iso8601(st->last_tod, b, sizeof(b)))
                text(s, "last_time", b);
}

static void report_by_record(struct zmon_sink *s, const struct zd_stats *st)
{
        s->key(s->ctx, "by_record");
        s->array_open(s->ctx);
        for (unsigned d = 0; d < ZD_NDOMAINS; d++)
                for (unsigned r = 0; r < ZD_NRECSLOTS; r++) {
                        uint64_t n = st->by_rec[d][r];
                        if (!n)
                                continue;
                        s->map_open(s->ctx);
                        num(s, "domain", d);
                        const char *dn = zr_domain_name(d);
                        text(s, "domain_name", dn ? dn : "unknown");
                        num(s, "record", r);
                        const struct zr_record *zr = zr_lookup(d, r);
                        text(s, "record_name",
                             r == ZD_NRECSLOTS - 1 ? "127 or above"
                             : zr                  ? zr->name
                                                   : "unknown");
                        text(s, "dsect", zr && zr->dsect ? zr->dsect : "unknown");
                        num(s, "count", n);
                        s->map_close(s->ctx);
                }
        s->array_close(s->ctx);
}

/* VM/370 Monitor tapes: records by MONITOR CALL class and code. */
static void report_by_vm370(struct zmon_sink *s, const struct zd_stats *st)
{
        bool vm370 = false;
        for (unsigned c = 0; c < ZD_NDOMAINS; c++)
                for (unsigned k = 0; k < ZD_NRECSLOTS; k++)
                        vm370 |= st->by_vm370[c][k] != 0;
        if (!vm370)
                return;
        s->key(s->ctx, "by_vm370");
        s->array_open(s->ctx);
        for (unsigned c = 0; c < ZD_NDOMAINS; c++)
                for (unsigned k = 0; k < ZD_NRECSLOTS; k++) {
                        if (!st->by_vm370[c][k])
                                continue;
                        s->map_open(s->ctx);
                        num(s, "class", c);
                        const char *cn = zd_vm370_class_name(c);
                        text(s, "class_name", cn ? cn : "unknown");
                        num(s, "code", k);
                        const char *kn = zd_vm370_code_name(c, k);
                        text(s, "code_name",
                             k == ZD_NRECSLOTS - 1 ? "127 or above"
                             : kn                  ? kn
                                                   : "unknown");
                        num(s, "count", st->by_vm370[c][k]);
                        s->map_close(s->ctx);
                }
        s->array_close(s->ctx);
}

static void report_appldata(struct zmon_sink *s, const struct zmon_appl_counts *a)
{
        s->key(s->ctx, "appldata");
        s->map_open(s->ctx);
        num(s, "linuxkrnl_mem", a->linuxkrnl[1]);
        num(s, "linuxkrnl_os", a->linuxkrnl[2]);
        num(s, "linuxkrnl_net", a->linuxkrnl[3]);
        num(s, "linuxkrnl_other", a->linuxkrnl[0]);
        num(s, "lnxappl_fsstatd", a->fsstatd);
        num(s, "lnxappl_procd_summary", a->procd_sum);
        num(s, "lnxappl_procd_task", a->procd_task);
        num(s, "lnxappl_other", a->lnxappl_other);
        num(s, "other_products", a->other);
        num(s, "opaque", a->opaque);
        num(s, "stale", a->stale);
        num(s, "sync_drops", a->sync_drops);
        s->map_close(s->ctx);
}

static void report_errors(struct zmon_sink *s, const struct zd_stats *st)
{
        s->key(s->ctx, "errors");
        s->map_open(s->ctx);
        for (int k = 1; k < ZD_E__COUNT; k++)
                if (st->errors[k])
                        num(s, zd_err_name((enum zd_err_kind)k), st->errors[k]);
        s->map_close(s->ctx);
}

static void report(struct zmon_sink *s, const char *path, enum zd_format fmt,
                   const struct zd_stats *st, const struct stat_ctx *x)
{
        s->begin(s->ctx);
        s->map_open(s->ctx);
        report_totals(s, path, fmt, st);
        report_by_record(s, st);
        num(s, "unknown_domain", st->unknown_domain);
        report_by_vm370(s, st);
        if (st->blocks)
                num(s, "blocks", st->blocks);
        if (st->tapemarks)
                num(s, "tapemarks", st->tapemarks);
        report_appldata(s, &x->ac);
        report_errors(s, st);
        s->map_close(s->ctx);
        s->end(s->ctx);
}

/* 0: go on; -1: --help was shown; else the exit code. */
static int parse(struct zmon_input *in, bool *json, int argc, char **argv)
{
        static const struct option opts[] = {
            {"format", required_argument, NULL, 'f'},
            {"input", required_argument, NULL, 'i'},
            {"help", no_argument, NULL, 'h'},
            {NULL, 0, NULL, 0},
        };
        int c;
        optind = 1;
        while ((c = getopt_long(argc, argv, "f:i:h", opts, NULL)) != -1) {
                switch (c) {
                case 'f':
                        if (strcmp(optarg, "json") && strcmp(optarg, "text")) {
                                fprintf(stderr, "zvmmon stat: --format json or text\n");
                                return ZMON_UNUSABLE;
                        }
                        *json = !strcmp(optarg, "json");
                        break;
                case 'i': {
                        const struct zd_source_ops *o = zd_source_by_name(optarg);
                        if (!o) {
                                fprintf(stderr, "zvmmon stat: --input %s: unknown format\n",
                                        optarg);
                                return ZMON_UNUSABLE;
                        }
                        in->fmt = o->fmt;
                        break;
                }
                case 'h':
                        puts("Usage: zvmmon stat [--format text|json] [--input FMT] FILE|-");
                        return -1;
                default:
                        return ZMON_UNUSABLE;
                }
        }
        if (optind != argc - 1) {
                fprintf(stderr, "zvmmon stat: one FILE (or -) expected\n");
                return ZMON_UNUSABLE;
        }
        in->path = argv[optind];
        return 0;
}

int zmon_cmd_stat(int argc, char **argv)
{
        struct zmon_input in = {0};
        bool json = false;
        int rc = parse(&in, &json, argc, argv);
        if (rc)
                return rc < 0 ? ZMON_OK : rc;
        struct stat_ctx x = {0};
        x.t = zd_appl_tracker_new();
        if (!x.t)
                return ZMON_UNUSABLE;
        struct zd_handler h = {&x, on_record, NULL, NULL};
        struct zd_stats st;
        enum zd_format fmt = ZD_FMT_UNKNOWN;
        rc = zmon_run_input(&in, &h, &st, &fmt);
        zd_appl_tracker_free(x.t);
        for (int k = 0; k < ZD_E__COUNT; k++)
                st.errors[k] += x.extra.errors[k];
        if (rc == ZMON_OK) {
                struct zmon_sink s;
                if (!(json ? zmon_sink_json(&s, stdout) : zmon_sink_text(&s, stdout)))
                        return ZMON_UNUSABLE;
                report(&s, in.path, fmt, &st, &x);
                bool whole = s.ok(s.ctx);
                s.destroy(s.ctx);
                if (!whole) {
                        fprintf(stderr, "zvmmon stat: the report could not be generated\n");
                        rc = ZMON_UNUSABLE;
                }
        }
        int erc = zmon_report_errors(&st);
        return rc != ZMON_OK ? rc : erc;
}
