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
        struct zmon_emit *emit;
        struct zd_appl_tracker *t;
        int domain, record;
        const char *userid;
        /* zd_appl_examine's decoder: counts domain 10 errors outside the stream's, for the
         * whole run (a decoder per record cleared 30 KB of counters each time). */
        struct zd_decoder examine;
        /* Errors zd_appl_examine found in the current record, shown only with it. */
        struct zd_error held[4];
        unsigned nheld;
        bool out_failed; /* writing standard output failed: nothing more is printed */
};

static void on_error(void *ctx, const struct zd_error *e)
{
        struct dump *x = ctx;
        if (x->out_failed)
                return;
        zmon_emit_error(x->emit, e);
        x->out_failed = zmon_stdout_failed();
}

static void hold_error(void *ctx, const struct zd_error *e)
{
        struct dump *x = ctx;
        if (x->nheld < sizeof(x->held) / sizeof(x->held[0]))
                x->held[x->nheld++] = *e;
}

static bool wanted(const struct dump *x, const struct zd_record *r, bool d10,
                   const struct zd_appl_info *ai)
{
        if (x->domain >= 0 && r->domain != x->domain)
                return false;
        if (x->record >= 0 && r->number != x->record)
                return false;
        if (x->userid &&
            (!d10 || ai->err == ZD_E_APPL_SHORT || fnmatch(x->userid, ai->a.userid, 0) != 0))
                return false;
        return true;
}

static void on_record(void *ctx, const struct zd_record *r)
{
        struct dump *x = ctx;
        struct zd_appl_info ai;
        bool d10 = r->family == ZD_FAM_CP && r->domain == 10 && (r->number == 1 || r->number == 2);
        if (x->out_failed)
                return;
        x->nheld = 0;
        if (d10) {
                /* Every domain 10 record is examined (the staleness tracker must see all
                 * of them) and its errors counted; they are shown with the record. */
                zd_appl_examine(&x->examine, x->t, r, &ai);
        }
        if (!wanted(x, r, d10, &ai))
                return;
        for (unsigned i = 0; i < x->nheld; i++)
                zmon_emit_error(x->emit, &x->held[i]);
        zmon_emit_record(x->emit, r, d10 ? &ai : NULL);
        x->out_failed = zmon_stdout_failed();
}

/* Decimal digits only, as z/VM's tables number domains and records: strtol's
 * base 0 read "010" as octal 8 (and refused "08"), and took blanks and signs. */
static int number(const char *s, int max, int *out)
{
        long v = 0;
        if (*s == '\0')
                return -1;
        for (; *s; s++) {
                if (!isdigit((unsigned char)*s))
                        return -1;
                v = v * 10 + (*s - '0');
                if (v > max)
                        return -1;
        }
        *out = (int)v;
        return 0;
}

/* The command line: the filter goes straight into the dump's state. */
struct args {
        struct dump x;
        enum zmon_emit_fmt fmt;
        bool hex;
        const char *reading; /* NULL: packed, the default layouts */
        struct zmon_input in;
};

static const char usage_text[] =
    "Usage: zvmmon dump [--format json|text] [--input FMT] [--domain N] [--record N]\n"
    "                   [--userid GLOB] [--hex] [--reading packed|aligned] FILE|-\n"
    "Every record of FILE (- for standard input), decoded: each a JSON object on a\n"
    "line (JSON Lines), its position, domain and record, time (TOD in hex and ISO\n"
    "8601 UTC) and every field of its layout by name; a Linux guest's APPLDATA and\n"
    "write_zvm records decoded too.  Errors are lines of their own (\"type\":\"error\"),\n"
    "counted on stderr at the end.\n"
    "  -f, --format json|text  JSON Lines (default), or the same as text for a terminal\n"
    "  -i, --input FMT         the input's format: capture, monwrite, dataset,\n"
    "                          monwriter, vb, tape or awstape (default: detected)\n"
    "  -d, --domain N          only records of domain N (decimal, 0 to 255)\n"
    "  -r, --record N          only records numbered N (decimal, 0 to 65535)\n"
    "  -u, --userid GLOB       only domain 10 records of guests whose userid matches\n"
    "                          the shell pattern (case ignored), e.g. 'LINUX*'\n"
    "  -x, --hex               also each record's bytes, header included, in hex\n"
    "  -R, --reading packed|aligned\n"
    "                          read SYTPRP (D0R2) and MTRSYS (D1R4) with zpmd's offsets\n"
    "                          packed (default) or as its compiler aligned them\n"
    "Exit status: 0 clean, 1 decoded with errors, 2 unusable input or output, or a\n"
    "usage error.  See zvmmon(1).\n";

/* --reading: the layout reading of SYTPRP and MTRSYS (layout.h, doc/metrics-cp.md). */
static int reading(struct args *a, const char *name)
{
        if (!strcmp(name, "packed"))
                a->reading = NULL;
        else if (!strcmp(name, "aligned"))
                a->reading = "aligned";
        else {
                fprintf(stderr, "zvmmon dump: --reading %s: packed or aligned\n", name);
                return ZMON_UNUSABLE;
        }
        return 0;
}

/* 0: go on; -1: --help was shown; else the exit code. */
static int option(struct args *a, int c)
{
        switch (c) {
        case 'f':
                if (!strcmp(optarg, "json"))
                        a->fmt = ZMON_EMIT_JSON;
                else if (!strcmp(optarg, "text"))
                        a->fmt = ZMON_EMIT_TEXT;
                else {
                        fprintf(stderr, "zvmmon dump: --format json or text\n");
                        return ZMON_UNUSABLE;
                }
                return 0;
        case 'd':
                if (number(optarg, 255, &a->x.domain)) {
                        fprintf(stderr, "zvmmon dump: --domain %s: not a domain number\n", optarg);
                        return ZMON_UNUSABLE;
                }
                return 0;
        case 'r':
                if (number(optarg, 65535, &a->x.record)) {
                        fprintf(stderr, "zvmmon dump: --record %s: not a record number\n", optarg);
                        return ZMON_UNUSABLE;
                }
                return 0;
        case 'u':
                /* "" would match no userid and dump nothing, with exit 0: a mistake, said. */
                if (!*optarg) {
                        fprintf(stderr, "zvmmon dump: --userid: empty; give a userid or a glob "
                                        "such as LINUX*\n");
                        return ZMON_UNUSABLE;
                }
                /* z/VM userids are upper case: match the glob case-insensitively. */
                for (char *p = optarg; *p; p++)
                        *p = (char)toupper((unsigned char)*p);
                a->x.userid = optarg;
                return 0;
        case 'i': {
                const struct zd_source_ops *o = zd_source_by_name(optarg);
                if (!o) {
                        fprintf(stderr, "zvmmon dump: --input %s: unknown format\n", optarg);
                        return ZMON_UNUSABLE;
                }
                a->in.fmt = o->fmt;
                return 0;
        }
        case 'x':
                a->hex = true;
                return 0;
        case 'R':
                return reading(a, optarg);
        case 'h':
                fputs(usage_text, stdout);
                return -1;
        default:
                return ZMON_UNUSABLE;
        }
}

static int parse(struct args *a, int argc, char **argv)
{
        static const struct option opts[] = {
            {"format", required_argument, NULL, 'f'},
            {"domain", required_argument, NULL, 'd'},
            {"record", required_argument, NULL, 'r'},
            {"userid", required_argument, NULL, 'u'},
            {"input", required_argument, NULL, 'i'},
            {"hex", no_argument, NULL, 'x'},
            {"reading", required_argument, NULL, 'R'},
            {"help", no_argument, NULL, 'h'},
            {NULL, 0, NULL, 0},
        };
        int c, rc;
        optind = 1;
        while ((c = getopt_long(argc, argv, "f:d:r:u:i:xR:h", opts, NULL)) != -1)
                if ((rc = option(a, c)) != 0)
                        return rc;
        if (optind != argc - 1) {
                fprintf(stderr, "zvmmon dump: one FILE (or -) expected\n");
                return ZMON_UNUSABLE;
        }
        a->in.path = argv[optind];
        return 0;
}

/* The exit status of a run that ended with rc, said on stderr. */
static int verdict(struct dump *x, int rc, struct zd_stats *st)
{
        /* The records before the error summary on a terminal.  A run whose output
         * failed is said once, by main ("write error"): counts of the input read up to
         * there would only bury it. */
        if (!zmon_flush_stdout() || zmon_stdout_failed())
                return ZMON_UNUSABLE;
        if (!zmon_emit_ok(x->emit)) {
                fprintf(stderr, "zvmmon dump: some records could not be generated as JSON\n");
                rc = ZMON_UNUSABLE;
        }
        if (rc != ZMON_OK) {
                zmon_report_errors(st);
                return rc;
        }
        for (int k = 0; k < ZD_E__COUNT; k++)
                st->errors[k] += x->examine.st.errors[k];
        return zmon_report_errors(st);
}

int zmon_cmd_dump(int argc, char **argv)
{
        struct args a = {.x = {.domain = -1, .record = -1}, .fmt = ZMON_EMIT_JSON};
        int rc = parse(&a, argc, argv);
        if (rc)
                return rc < 0 ? ZMON_OK : rc;
        struct dump *x = &a.x;
        x->emit = zmon_emit_new(a.fmt, stdout);
        if (x->emit) {
                zmon_emit_set_hex(x->emit, a.hex);
                zmon_emit_set_reading(x->emit, a.reading);
        }
        x->t = zd_appl_tracker_new();
        if (!x->emit || !x->t) {
                fprintf(stderr, "zvmmon: out of memory\n");
                zmon_emit_free(x->emit);
                zd_appl_tracker_free(x->t);
                return ZMON_UNUSABLE;
        }
        zd_decoder_init(&x->examine, &(struct zd_handler){x, NULL, hold_error, NULL});
        struct zd_handler h = {x, on_record, on_error, NULL};
        struct zd_stats st;
        rc = zmon_run_input(&a.in, &h, &st, NULL);
        rc = verdict(x, rc, &st);
        zmon_emit_free(x->emit);
        zd_appl_tracker_free(x->t);
        return rc;
}
