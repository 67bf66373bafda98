/* SPDX-License-Identifier: MIT */
/* zvmmon top: options, then the full screen (top_loop.c) or batch mode. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "top.h"
#include "zvmmon.h"

static const char usage_text[] =
    "Usage: zvmmon top [-b [--json]] [-n N] [--screen NAME] [--sort COL] [--reverse]\n"
    "                  [--filter GLOB] [--speed X | --step] [--input FMT]\n"
    "                  [--device PATH | --socket PATH | FILE|-]\n"
    "Tables per sample interval: the system line, then a screen: the guests (CP's\n"
    "view and a Linux guest's own APPLDATA), processors, LPAR, storage and paging,\n"
    "devices or vNICs.  Without FILE: the device (/dev/monreader).\n"
    "  --device PATH     the monitor device (one reader per guest: not while the zvm\n"
    "                    plugin reads it)\n"
    "  --socket PATH     a zvm plugin's ShareSocket: live beside the collector (a FILE\n"
    "                    or --device that is a socket is read so too)\n"
    "  -b, --batch       print each interval (text, or --json lines) instead of the screen\n"
    "  -n, --intervals N stop after N intervals (full screen: the Nth is left printed)\n"
    "  --screen NAME     guests processors lpar storage devices vnics, or 1-6; batch\n"
    "                    mode also all (default guests)\n"
    "  -s, --sort COL    a column of that screen, by its key or name (guests: u c v p\n"
    "                    i r l m, or userid cpu vcpu paging vio resident load\n"
    "                    linux_mem; default cpu; the help screen lists each screen's)\n"
    "  -r, --reverse     smallest first (keys Z to A)\n"
    "  -f, --filter GLOB only rows whose key matches (case-insensitive): the userid on\n"
    "                    the guests, the device number on devices...\n"
    "  --speed X         replay a file X times as fast as it was recorded (default 30;\n"
    "                    batch mode: as fast as it reads unless given)\n"
    "  --step            replay paused: n shows the next interval\n"
    "  ? marks a value from a hint field whose law is not proven, - no value.\n";

struct args {
        struct top_opts o;
        const char *sort, *glob; /* for the screen chosen, once it is known */
        bool batch, json, speed_set;
        const char *device;
        bool socket; /* --socket: device names a ShareSocket */
        struct zmon_input in;
};

static bool positive(const char *opt, const char *s, double *out)
{
        char *end;
        double v = strtod(s, &end);
        if (*s == '\0' || *end || !(v > 0) || v > 1e9) {
                fprintf(stderr, "zvmmon top: %s %s: a positive number is needed\n", opt, s);
                return false;
        }
        *out = v;
        return true;
}

/* A count of intervals: digits only (strtoul would take "-1" and " 1"), at least 1. */
static bool intervals(const char *s, unsigned long *out)
{
        char *end;
        errno = 0;
        unsigned long v = isdigit((unsigned char)*s) ? strtoul(s, &end, 10) : 0;
        if (!v || *end || errno == ERANGE) {
                fprintf(stderr, "zvmmon top: -n %s: a whole number of intervals, 1 or more\n", s);
                return false;
        }
        *out = v;
        return true;
}

static int filter_opt(struct args *a, const char *glob)
{
        /* Cut, a bracket expression loses its ']' and matches no guest. */
        if (strlen(glob) >= sizeof(a->o.glob[0])) {
                fprintf(stderr, "zvmmon top: --filter %s: at most %zu characters\n", glob,
                        sizeof(a->o.glob[0]) - 1);
                return ZMON_UNUSABLE;
        }
        a->glob = glob;
        return 0;
}

static int option(struct args *a, int c)
{
        switch (c) {
        case 'b':
                a->batch = true;
                return 0;
        case 'j':
                a->json = true;
                return 0;
        case 'n':
                return intervals(optarg, &a->o.max_frames) ? 0 : ZMON_UNUSABLE;
        case 's':
                a->sort = optarg;
                return 0;
        case 'r':
                a->o.reverse = true;
                return 0;
        case 'W':
                if ((a->o.scr = top_scr_by_name(optarg)) < 0) {
                        fprintf(stderr, "zvmmon top: --screen %s: no such screen\n", optarg);
                        return ZMON_UNUSABLE;
                }
                return 0;
        case 'f':
                return filter_opt(a, optarg);
        case 'S':
                a->speed_set = true;
                return positive("--speed", optarg, &a->o.speed) ? 0 : ZMON_UNUSABLE;
        case 'T':
                a->o.step = true;
                return 0;
        case 'D':
        case 'K':
                if (a->device) {
                        fprintf(stderr, "zvmmon top: one --device or --socket\n");
                        return ZMON_UNUSABLE;
                }
                a->device = optarg;
                a->socket = c == 'K';
                return 0;
        case 'i': {
                const struct zd_source_ops *so = zd_source_by_name(optarg);
                if (!so) {
                        fprintf(stderr, "zvmmon top: --input %s: unknown format\n", optarg);
                        return ZMON_UNUSABLE;
                }
                a->in.fmt = so->fmt;
                return 0;
        }
        case 'h':
                fputs(usage_text, stdout);
                return -1;
        default:
                return ZMON_UNUSABLE;
        }
}

/* --sort and --filter name the chosen screen's key and columns (all: the guests'). */
static bool screen_opts(struct args *a)
{
        int scr = a->o.scr < TOP_NSCR ? a->o.scr : TOP_SCR_GUESTS;
        for (int k = 0; k < TOP_NSCR; k++)
                a->o.sort[k] = top_screens[k].sort;
        if (a->sort && (a->o.sort[scr] = top_col_by_name(scr, a->sort)) < 0) {
                fprintf(stderr, "zvmmon top: --sort %s: no such column on the %s screen\n", a->sort,
                        top_screens[scr].name);
                return false;
        }
        if (a->glob)
                snprintf(a->o.glob[scr], sizeof(a->o.glob[scr]), "%s", a->glob);
        return true;
}

static int parse(struct args *a, int argc, char **argv)
{
        static const struct option opts[] = {
            {"batch", no_argument, NULL, 'b'},
            {"json", no_argument, NULL, 'j'},
            {"intervals", required_argument, NULL, 'n'},
            {"sort", required_argument, NULL, 's'},
            {"reverse", no_argument, NULL, 'r'},
            {"screen", required_argument, NULL, 'W'},
            {"filter", required_argument, NULL, 'f'},
            {"speed", required_argument, NULL, 'S'},
            {"step", no_argument, NULL, 'T'},
            {"device", required_argument, NULL, 'D'},
            {"socket", required_argument, NULL, 'K'},
            {"input", required_argument, NULL, 'i'},
            {"help", no_argument, NULL, 'h'},
            {NULL, 0, NULL, 0},
        };
        int c, rc;
        optind = 1;
        while ((c = getopt_long(argc, argv, "bjn:s:rf:h", opts, NULL)) != -1)
                if ((rc = option(a, c)) != 0)
                        return rc;
        if (optind < argc - 1 || (optind == argc - 1 && a->device)) {
                fprintf(stderr, "zvmmon top: one FILE, or --device PATH, or --socket PATH\n");
                return ZMON_UNUSABLE;
        }
        if (a->json && !a->batch) {
                fprintf(stderr, "zvmmon top: --json is for batch mode (-b)\n");
                return ZMON_UNUSABLE;
        }
        if (a->o.scr == TOP_NSCR && !a->batch) {
                fprintf(stderr, "zvmmon top: --screen all is for batch mode (-b)\n");
                return ZMON_UNUSABLE;
        }
        if (!screen_opts(a))
                return ZMON_UNUSABLE;
        a->in.path = optind == argc - 1 ? argv[optind] : a->device ? a->device : "/dev/monreader";
        return 0;
}

/* A path given as FILE that is a character device is read as a device, one that is a
 * socket as a ShareSocket (so is one given as --device). */
static enum top_in input_kind(const struct args *a)
{
        struct stat st;
        bool dash = strcmp(a->in.path, "-") == 0;
        if (a->socket || (!dash && zmon_is_socket(a->in.path)))
                return TOP_IN_SOCKET;
        if (a->device || strcmp(a->in.path, "/dev/monreader") == 0)
                return TOP_IN_DEVICE;
        return !dash && stat(a->in.path, &st) == 0 && S_ISCHR(st.st_mode) ? TOP_IN_DEVICE
                                                                          : TOP_IN_FILE;
}

static void pause_for(double s)
{
        if (s <= 0)
                return;
        struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
        nanosleep(&ts, NULL);
}

/*
 * The messages that came with the tables up to interval upto, on stderr: stdout
 * stays one table or one JSON object per interval, whatever a script expects
 * of it.  Those that came after the last table (the input ended inside an
 * interval) say so.
 */
static void notes(struct top_model *t, uint64_t upto, uint64_t shown)
{
        struct top_note n;
        while (top_model_take_note(t, upto, &n)) {
                if (n.interval <= shown)
                        fprintf(stderr, "zvmmon top: interval %llu: %s\n",
                                (unsigned long long)n.interval, n.text);
                else if (!shown) /* no table to refer to */
                        fprintf(stderr, "zvmmon top: %s\n", n.text);
                else
                        fprintf(stderr, "zvmmon top: after interval %llu: %s\n",
                                (unsigned long long)shown, n.text);
        }
}

static int batch(struct top_src *src, struct top_model *t, const struct args *a)
{
        struct top_batch *b = top_batch_new(stdout, a->json, &a->o);
        if (!b)
                return ZMON_UNUSABLE;
        unsigned long shown = 0;
        uint64_t last = 0; /* the TOD of the table shown last */
        enum top_pump r = TOP_SRC_MORE;
        while (!a->o.max_frames || shown < a->o.max_frames) {
                struct top_frame *f = top_model_pop(t);
                if (!f) {
                        if (r == TOP_SRC_END || r == TOP_SRC_FAIL)
                                break;
                        if ((r = top_src_pump(src)) == TOP_SRC_WAIT) {
                                /* No table yet to go with: a device that gives nothing says
                                   why now, not when (if ever) a table comes. */
                                if (!shown)
                                        notes(t, UINT64_MAX, 0);
                                poll(&(struct pollfd){top_src_fd(src), POLLIN, 0}, 1, 1000);
                        }
                        continue;
                }
                if (a->speed_set && shown && !top_src_is_device(src))
                        pause_for(top_gap(last, f) / a->o.speed);
                last = f->tod;
                notes(t, f->seq, f->seq);
                top_batch_frame(b, f);
                top_frame_free(f);
                shown++;
                /* Each table as it comes; when nobody reads them, stop (a device never ends). */
                if (!zmon_flush_stdout())
                        break;
        }
        top_batch_free(b);
        if (r == TOP_SRC_END || r == TOP_SRC_FAIL) /* not stopped by -n: what came last */
                notes(t, UINT64_MAX, shown);
        if (top_model_notes_dropped(t))
                fprintf(stderr, "zvmmon top: %llu more messages not shown (too many at once)\n",
                        (unsigned long long)top_model_notes_dropped(t));
        /* An input that failed said why as it failed (top_source.c): "no monitor
         * records" after "read error" would only repeat it, less precisely. */
        if (!shown && r != TOP_SRC_FAIL)
                fprintf(stderr, "zvmmon top: %s: %s\n", a->in.path, top_model_why_none(t));
        return r == TOP_SRC_FAIL ? ZMON_UNUSABLE : ZMON_OK;
}

int zmon_cmd_top(int argc, char **argv)
{
        struct args a = {.o = {.speed = 30, .scr = TOP_SCR_GUESTS}};
        int rc = parse(&a, argc, argv);
        if (rc)
                return rc < 0 ? ZMON_OK : rc;
        if (!a.batch && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
                fprintf(stderr, "zvmmon top: the full screen needs a terminal (-b: batch mode)\n");
                return ZMON_UNUSABLE;
        }
        struct top_model *t = top_model_new();
        struct zd_handler h = t ? top_model_handler(t) : (struct zd_handler){0};
        struct top_src *src =
            t ? top_src_open(a.in.path, input_kind(&a), a.in.fmt, &h, top_model_note, t) : NULL;
        if (!src) {
                top_model_free(t);
                return ZMON_UNUSABLE;
        }
        rc = a.batch ? batch(src, t, &a) : top_loop(src, t, &a.o);
        int erc = zmon_report_errors(top_src_stats(src));
        /* Device errors were survived, but data was lost: as zvmmon capture, exit 1. */
        if (top_src_report(src))
                erc = ZMON_ERRORS;
        top_src_close(src);
        top_model_free(t);
        return rc != ZMON_OK ? rc : erc;
}
