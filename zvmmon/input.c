/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "zvmmon.h"

/* Why feeding the stream stopped. */
enum fed { FED_END, FED_READ_ERROR, FED_OUTPUT_FAILED };

static enum fed feed_all(FILE *f, struct zd_stream *s, int *rc, bool *empty)
{
        static unsigned char buf[1 << 16];
        size_t n;
        while (*rc == 0 && (n = fread(buf, 1, sizeof(buf), f)) > 0) {
                *empty = false;
                *rc = zd_stream_feed(s, buf, n);
                /* What dump would print of the rest has no reader (a closed pipe, a
                 * full disk): decoding on to the end of a large file is for nothing. */
                if (zmon_stdout_failed())
                        return FED_OUTPUT_FAILED;
        }
        return ferror(f) ? FED_READ_ERROR : FED_END;
}

int zmon_run_input(const struct zmon_input *in, const struct zd_handler *h, struct zd_stats *st,
                   enum zd_format *fmt_out)
{
        FILE *f = strcmp(in->path, "-") == 0 ? stdin : fopen(in->path, "rb");
        if (!f) {
                fprintf(stderr, "zvmmon: %s: %s\n", in->path, strerror(errno));
                return ZMON_UNUSABLE;
        }
        struct zd_stream *s = zd_stream_new(in->fmt, h);
        if (!s) {
                fprintf(stderr, "zvmmon: out of memory\n");
                if (f != stdin)
                        fclose(f);
                return ZMON_UNUSABLE;
        }
        int rc = 0;
        bool empty = true;
        enum fed why = feed_all(f, s, &rc, &empty);
        if (why == FED_READ_ERROR)
                fprintf(stderr, "zvmmon: %s: read error: %s\n", in->path, strerror(errno));
        /* After a read error the input did not end, it broke off, and after a write
         * error the rest was left unread: finishing the stream would judge what came
         * so far as the whole input (empty, format not recognised, a cut set) and say
         * so, after the real reason.  Nothing at all is "empty input", said below:
         * finishing would add an in-band "format not recognised" and count it. */
        else if (why == FED_END && rc == 0 && !empty)
                rc = zd_stream_finish(s);
        *st = *zd_stream_stats(s);
        enum zd_format fmt = zd_stream_format(s);
        if (fmt_out)
                *fmt_out = fmt;
        zd_stream_free(s);
        if (f != stdin)
                fclose(f);
        if (why != FED_END)
                return ZMON_UNUSABLE;
        if (empty) {
                fprintf(stderr, "zvmmon: %s: empty input\n", in->path);
                return ZMON_UNUSABLE;
        }
        if (fmt == ZD_FMT_UNKNOWN || (rc < 0 && st->records == 0)) {
                fprintf(
                    stderr, "zvmmon: %s: not monitor data this build can read%s\n", in->path,
                    fmt == ZD_FMT_UNKNOWN
                        ? " (not a capture, MONWRITE file, monreader data set, monwriter output, "
                          "VB file, VM/370 tape or AWSTAPE image)"
                        : "");
                return ZMON_UNUSABLE;
        }
        return ZMON_OK;
}

int zmon_report_errors(const struct zd_stats *st)
{
        uint64_t total = zd_stats_errors(st);
        if (!total)
                return ZMON_OK;
        fprintf(stderr, "zvmmon: %llu error%s:", (unsigned long long)total, total == 1 ? "" : "s");
        for (int k = 1; k < ZD_E__COUNT; k++)
                if (st->errors[k])
                        fprintf(stderr, " %s=%llu", zd_err_name((enum zd_err_kind)k),
                                (unsigned long long)st->errors[k]);
        fputc('\n', stderr);
        return ZMON_ERRORS;
}

void zmon_count_appl(struct zmon_appl_counts *c, const struct zd_appl_info *ai)
{
        if (ai->err)
                return;
        if (ai->stale)
                c->stale++;
        if (ai->sync_bad)
                c->sync_drops++;
        if (ai->opaque)
                c->opaque++;
        const struct zd_appl *a = &ai->a;
        if (a->kind == ZD_APPL_LINUXKRNL) {
                c->linuxkrnl[a->recnum <= 3 ? a->recnum : 0]++;
                return;
        }
        if (a->kind != ZD_APPL_LNXAPPL) {
                c->other++;
                return;
        }
        const char *k = zd_appl_kind_name(a);
        if (!k)
                c->lnxappl_other++;
        else if (strcmp(k, "fsstatd") == 0)
                c->fsstatd++;
        else if (strcmp(k, "procd.sum") == 0)
                c->procd_sum++;
        else
                c->procd_task++;
}

/*
 * The options of a command that prints a table (layouts, metrics): --markdown
 * and --help, no arguments.  -1 to go on (*md set), else the exit code.
 */
int zmon_table_opts(int argc, char **argv, const char *cmd, bool *md)
{
        static const struct option opts[] = {
            {"markdown", no_argument, NULL, 'm'},
            {"help", no_argument, NULL, 'h'},
            {NULL, 0, NULL, 0},
        };
        *md = false;
        int c;
        optind = 1;
        while ((c = getopt_long(argc, argv, "mh", opts, NULL)) != -1) {
                if (c == 'm')
                        *md = true;
                else if (c == 'h') {
                        printf("Usage: zvmmon %s [--markdown]\n", cmd);
                        return ZMON_OK;
                } else
                        return ZMON_UNUSABLE;
        }
        if (optind != argc) {
                fprintf(stderr, "zvmmon %s: no arguments expected\n", cmd);
                return ZMON_UNUSABLE;
        }
        return -1;
}
