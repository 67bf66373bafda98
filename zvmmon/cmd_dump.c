/* SPDX-License-Identifier: MIT */
/* zvmmon dump: every record as JSON Lines (or text), errors in-band. */
#include <ctype.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "zvmmon.h"

struct dump {
        struct zd_emit *emit;
        struct zd_decoder *d; /* set on the first callback: errors found here are reported */
        struct zd_appl_tracker *t;
        int domain, record;
        const char *userid;
        struct zd_stats extra; /* domain 10 errors counted outside the stream's decoder */
};

static void on_error(void *ctx, const struct zd_error *e)
{
        zd_emit_error(((struct dump *)ctx)->emit, e);
}

static void on_record(void *ctx, const struct zd_record *r)
{
        struct dump *x = ctx;
        struct zd_appl_info ai;
        bool d10 = r->domain == 10 && (r->number == 1 || r->number == 2);
        if (d10) {
                /* A private decoder: its errors are emitted in-band and counted in extra. */
                struct zd_handler h = {x, NULL, on_error, NULL};
                struct zd_decoder d;
                zd_decoder_init(&d, &h);
                zd_appl_examine(&d, x->t, r, &ai);
                for (int k = 0; k < ZD_E__COUNT; k++)
                        x->extra.errors[k] += d.st.errors[k];
        }
        if (x->domain >= 0 && r->domain != x->domain)
                return;
        if (x->record >= 0 && r->number != x->record)
                return;
        if (x->userid &&
            (!d10 || ai.err == ZD_E_APPL_SHORT || fnmatch(x->userid, ai.a.userid, 0) != 0))
                return;
        zd_emit_record(x->emit, r, d10 ? &ai : NULL);
}

static int number(const char *s, int max, int *out)
{
        char *end;
        long v = strtol(s, &end, 0);
        if (*s == '\0' || *end || v < 0 || v > max)
                return -1;
        *out = (int)v;
        return 0;
}

int zm_cmd_dump(int argc, char **argv)
{
        static const struct option opts[] = {
            {"format", required_argument, NULL, 'f'},
            {"domain", required_argument, NULL, 'd'},
            {"record", required_argument, NULL, 'r'},
            {"userid", required_argument, NULL, 'u'},
            {"input", required_argument, NULL, 'i'},
            {"help", no_argument, NULL, 'h'},
            {NULL, 0, NULL, 0},
        };
        struct dump x = {.domain = -1, .record = -1};
        enum zd_emit_fmt fmt = ZD_EMIT_JSON;
        struct zm_input in = {0};
        int c;
        optind = 1;
        while ((c = getopt_long(argc, argv, "f:d:r:u:i:h", opts, NULL)) != -1) {
                switch (c) {
                case 'f':
                        if (!strcmp(optarg, "json"))
                                fmt = ZD_EMIT_JSON;
                        else if (!strcmp(optarg, "text"))
                                fmt = ZD_EMIT_TEXT;
                        else {
                                fprintf(stderr, "zvmmon dump: --format json or text\n");
                                return ZM_UNUSABLE;
                        }
                        break;
                case 'd':
                        if (number(optarg, 255, &x.domain)) {
                                fprintf(stderr, "zvmmon dump: --domain %s: not a domain number\n",
                                        optarg);
                                return ZM_UNUSABLE;
                        }
                        break;
                case 'r':
                        if (number(optarg, 65535, &x.record)) {
                                fprintf(stderr, "zvmmon dump: --record %s: not a record number\n",
                                        optarg);
                                return ZM_UNUSABLE;
                        }
                        break;
                case 'u':
                        /* z/VM userids are upper case: match the glob case-insensitively. */
                        for (char *p = optarg; *p; p++)
                                *p = (char)toupper((unsigned char)*p);
                        x.userid = optarg;
                        break;
                case 'i': {
                        const struct zd_source_ops *o = zd_source_by_name(optarg);
                        if (!o) {
                                fprintf(stderr, "zvmmon dump: --input %s: unknown format\n",
                                        optarg);
                                return ZM_UNUSABLE;
                        }
                        in.fmt = o->fmt;
                        break;
                }
                case 'h':
                        puts("Usage: zvmmon dump [--format json|text] [--input FMT] [--domain N] "
                             "[--record N] [--userid GLOB] FILE|-");
                        return ZM_OK;
                default:
                        return ZM_UNUSABLE;
                }
        }
        if (optind != argc - 1) {
                fprintf(stderr, "zvmmon dump: one FILE (or -) expected\n");
                return ZM_UNUSABLE;
        }
        in.path = argv[optind];
        x.emit = zd_emit_new(fmt, stdout);
        x.t = zd_appl_tracker_new();
        if (!x.emit || !x.t) {
                fprintf(stderr, "zvmmon: out of memory\n");
                zd_emit_free(x.emit);
                zd_appl_tracker_free(x.t);
                return ZM_UNUSABLE;
        }
        struct zd_handler h = {&x, on_record, on_error, NULL};
        struct zd_stats st;
        int rc = zm_run_input(&in, &h, &st, NULL);
        fflush(stdout);
        zd_emit_free(x.emit);
        zd_appl_tracker_free(x.t);
        if (rc != ZM_OK) {
                zm_report_errors(&st);
                return rc;
        }
        for (int k = 0; k < ZD_E__COUNT; k++)
                st.errors[k] += x.extra.errors[k];
        return zm_report_errors(&st);
}
