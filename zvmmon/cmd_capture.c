/* SPDX-License-Identifier: MIT */
/*
 * zvmmon capture: options and the real device around capture_loop.c, or a
 * zvm plugin's ShareSocket around capture_stream.c (--socket, or a --device
 * path that is a socket).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "zvmmon.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
        (void)sig;
        stop = 1;
}

struct dev {
        const char *path;
        int fd;
};

static int open_dev(const char *path)
{
        int fd = open(path, O_RDONLY | O_NONBLOCK);
        struct stat st;
        /* A directory opens, and only its first read fails: too late, the
         * output file would be made and the run count as data lost. */
        if (fd >= 0 && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
                close(fd);
                fd = -1;
                errno = EISDIR;
        }
        if (fd < 0) {
                if (errno == EBUSY)
                        fprintf(stderr,
                                "zvmmon capture: %s: busy (the monitor stream has one reader at a "
                                "time: is the zvm plugin or another capture running? Beside the "
                                "plugin, capture its ShareSocket: --socket PATH)\n",
                                path);
                else
                        fprintf(stderr, "zvmmon capture: %s: %s\n", path, strerror(errno));
        }
        return fd;
}

static ssize_t d_read(void *ctx, void *buf, size_t n)
{
        return read(((struct dev *)ctx)->fd, buf, n);
}

static int d_wait(void *ctx, int ms)
{
        struct pollfd p = {((struct dev *)ctx)->fd, POLLIN, 0};
        int rc = poll(&p, 1, ms);
        /* monreader reports a severed path with POLLERR only; POLLHUP (a FIFO whose
         * writer closed) means the next read returns 0, which ends the data set. */
        if (rc > 0 && (p.revents & POLLERR) && !(p.revents & POLLIN))
                return -1;
        return rc > 0;
}

static int d_reopen(void *ctx)
{
        struct dev *d = ctx;
        close(d->fd);
        d->fd = open_dev(d->path);
        return d->fd < 0 ? -1 : 0;
}

static void d_pause(void *ctx, int ms)
{
        (void)ctx;
        struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
        nanosleep(&ts, NULL);
}

static double d_mono(void *ctx)
{
        (void)ctx;
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int64_t d_unix_us(void *ctx)
{
        (void)ctx;
        struct timeval tv;
        gettimeofday(&tv, NULL);
        return (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
}

static long parse_count(const char *opt, const char *s)
{
        char *end = NULL;
        errno = 0; /* strtol says ERANGE only there: a huge count is LONG_MAX, not an error */
        /* Digits first, as top -n: strtol alone let " 5" and "+5" through. */
        long v = isdigit((unsigned char)*s) ? strtol(s, &end, 10) : 0;
        if (v <= 0 || *end || errno == ERANGE) {
                fprintf(stderr, "zvmmon capture: %s %s: a positive number is needed\n", opt, s);
                return -1;
        }
        return v;
}

struct args {
        const char *opath;
        struct dev d;
        long max_sets, seconds;
        bool socket; /* d.path is a ShareSocket */
};

static const char usage_text[] =
    "Usage: zvmmon capture -o FILE [--device PATH | --socket PATH] [--sets N] [--seconds N]\n"
    "Record monitor data sets, as they are read, into a capture file (zvmmon dump,\n"
    "stat and top read it; the zvm plugin replays it with File).\n"
    "  -o, --output FILE  the capture file (- for standard output); made anew\n"
    "  -D, --device PATH  the monitor device (default /dev/monreader; one reader per\n"
    "                     guest: not while the zvm plugin reads it).  A path that is\n"
    "                     a socket is read as --socket\n"
    "  -S, --socket PATH  a zvm plugin's ShareSocket: the data sets the collector\n"
    "                     reads, beside it; ends when collectd closes the connection\n"
    "  -n, --sets N       stop after N data sets\n"
    "  -s, --seconds N    stop after N seconds\n"
    "SIGINT or SIGTERM stops it cleanly.  Exit status: 0, 1 when data was lost\n"
    "(EOVERFLOW, a set discarded, the device or the connection lost), 2 unusable.\n";

/* 0: go on; -1: --help was shown; else the exit code. */
static int parse(struct args *a, int argc, char **argv)
{
        static const struct option opts[] = {
            {"output", required_argument, NULL, 'o'},
            {"device", required_argument, NULL, 'D'},
            {"sets", required_argument, NULL, 'n'},
            {"seconds", required_argument, NULL, 's'},
            {"socket", required_argument, NULL, 'S'},
            {"help", no_argument, NULL, 'h'},
            {NULL, 0, NULL, 0},
        };
        int c, given = 0;
        optind = 1;
        while ((c = getopt_long(argc, argv, "o:D:S:n:s:h", opts, NULL)) != -1) {
                switch (c) {
                case 'o':
                        a->opath = optarg;
                        break;
                case 'D':
                case 'S':
                        a->d.path = optarg;
                        a->socket = c == 'S' || zmon_is_socket(optarg);
                        given++;
                        break;
                case 'n':
                        if ((a->max_sets = parse_count("--sets", optarg)) < 0)
                                return ZMON_UNUSABLE;
                        break;
                case 's':
                        if ((a->seconds = parse_count("--seconds", optarg)) < 0)
                                return ZMON_UNUSABLE;
                        break;
                case 'h':
                        fputs(usage_text, stdout);
                        return -1;
                default:
                        return ZMON_UNUSABLE;
                }
        }
        if (!a->opath || optind != argc) {
                fprintf(stderr, "zvmmon capture: -o FILE is required (and nothing else)\n");
                return ZMON_UNUSABLE;
        }
        if (given > 1) {
                fprintf(stderr, "zvmmon capture: one --device or --socket\n");
                return ZMON_UNUSABLE;
        }
        return 0;
}

int zmon_cmd_capture(int argc, char **argv)
{
        struct args a = {.d = {"/dev/monreader", -1}};
        int rc = parse(&a, argc, argv);
        if (rc)
                return rc < 0 ? ZMON_OK : rc;
        struct dev *d = &a.d;
        const char *opath = a.opath;
        if ((d->fd = a.socket ? zmon_share_connect(d->path, "zvmmon capture") : open_dev(d->path)) <
            0)
                return ZMON_UNUSABLE;
        FILE *out = strcmp(opath, "-") == 0 ? stdout : fopen(opath, "wb");
        if (!out) {
                fprintf(stderr, "zvmmon capture: %s: %s\n", opath, strerror(errno));
                close(d->fd);
                return ZMON_UNUSABLE;
        }
        struct sigaction sa = {0};
        sa.sa_handler = on_signal;
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);

        struct zmon_cap_io io = {d, d_read, d_wait, d_reopen, d_pause, d_mono, d_unix_us};
        struct zmon_cap_opts o = {(unsigned long long)a.max_sets, (double)a.seconds, &stop, d->path,
                                  opath};
        struct zmon_cap_result r;
        (a.socket ? zmon_capture_stream : zmon_capture_run)(&io, out, &o, &r);
        if (d->fd >= 0)
                close(d->fd);
        fprintf(stderr,
                "zvmmon capture: %llu data sets, %llu bytes to %s; %llu overflows, %llu discarded, "
                "%llu empty, %llu reopens\n",
                r.sets, r.bytes, opath, r.overflows, r.discarded, r.empty, r.reopens);
        if (out != stdout && fclose(out) != 0) {
                fprintf(stderr, "zvmmon capture: %s: %s\n", opath, strerror(errno));
                r.write_failed = true;
        }
        if (out == stdout && r.write_failed)
                zmon_stdout_reported = true;
        if (r.write_failed || r.bad_stream)
                return ZMON_UNUSABLE;
        return r.device_lost || r.no_memory || r.overflows || r.discarded ? ZMON_ERRORS : ZMON_OK;
}
