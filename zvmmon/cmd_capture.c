/* SPDX-License-Identifier: MIT */
/*
 * zvmmon capture: read a monreader device the way the plugin does and keep
 * every data set in a capture file (decoder/source.h, doc/zvmmon.md).
 *
 * A data set is everything read between two 0-byte reads.  EAGAIN: poll.
 * EOVERFLOW comes on the read after the 0-byte read that completed the
 * affected set, so the last complete set is held back until the next read
 * says whether to flag it.  EIO and EFAULT invalidate the partial set; after
 * EIO the path may be severed, so the device is closed and reopened.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "zvmmon.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
        (void)sig;
        stop = 1;
}

struct buf {
        unsigned char *p;
        size_t n, cap;
};

static bool reserve(struct buf *b, size_t more)
{
        if (b->cap - b->n >= more)
                return true;
        size_t cap = b->cap ? b->cap : 1 << 16;
        while (cap - b->n < more)
                cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (!p)
                return false;
        b->p = p;
        b->cap = cap;
        return true;
}

static int64_t now_us(void)
{
        struct timeval tv;
        gettimeofday(&tv, NULL);
        return (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
}

static double mono(void)
{
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

struct cap {
        FILE *out;
        const char *opath;
        struct buf cur, held; /* set being read; last complete set, not yet written */
        bool have_held;
        uint32_t held_status;
        int64_t held_time;
        unsigned long long sets, bytes, overflows, discarded, empty;
        bool write_failed;
};

static void flush_held(struct cap *c)
{
        if (!c->have_held)
                return;
        uint8_t fh[ZD_CAP_FRAME_LEN];
        zd_capture_frame_header(fh, (uint32_t)c->held.n, c->held_time, c->held_status);
        if (fwrite(fh, 1, sizeof(fh), c->out) != sizeof(fh) ||
            fwrite(c->held.p, 1, c->held.n, c->out) != c->held.n || fflush(c->out) != 0) {
                if (!c->write_failed)
                        fprintf(stderr, "zvmmon capture: %s: write failed: %s\n", c->opath,
                                strerror(errno));
                c->write_failed = true;
        }
        c->sets++;
        c->bytes += c->held.n;
        c->have_held = false;
}

/* A 0-byte read completed the set being read. */
static void complete(struct cap *c)
{
        if (c->cur.n == 0) {
                c->empty++; /* an invalid MCA is answered with an immediate 0-byte read */
                return;
        }
        flush_held(c);
        struct buf t = c->held;
        c->held = c->cur;
        c->cur = t;
        c->cur.n = 0;
        c->have_held = true;
        c->held_status = 0;
        c->held_time = now_us();
}

static int open_dev(const char *dev)
{
        int fd = open(dev, O_RDONLY | O_NONBLOCK);
        if (fd < 0) {
                if (errno == EBUSY)
                        fprintf(stderr,
                                "zvmmon capture: %s: busy (the monitor stream has one reader at a "
                                "time: is the zvm plugin or another capture running?)\n",
                                dev);
                else
                        fprintf(stderr, "zvmmon capture: %s: %s\n", dev, strerror(errno));
        }
        return fd;
}

static long parse_count(const char *opt, const char *s)
{
        char *end;
        long v = strtol(s, &end, 10);
        if (*s == '\0' || *end || v <= 0) {
                fprintf(stderr, "zvmmon capture: %s %s: a positive number is needed\n", opt, s);
                return -1;
        }
        return v;
}

int zm_cmd_capture(int argc, char **argv)
{
        static const struct option opts[] = {
            {"output", required_argument, NULL, 'o'}, {"device", required_argument, NULL, 'D'},
            {"sets", required_argument, NULL, 'n'},   {"seconds", required_argument, NULL, 's'},
            {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
        };
        const char *opath = NULL, *dev = "/dev/monreader";
        long max_sets = 0, seconds = 0;
        int c;
        optind = 1;
        while ((c = getopt_long(argc, argv, "o:D:n:s:h", opts, NULL)) != -1) {
                switch (c) {
                case 'o':
                        opath = optarg;
                        break;
                case 'D':
                        dev = optarg;
                        break;
                case 'n':
                        if ((max_sets = parse_count("--sets", optarg)) < 0)
                                return ZM_UNUSABLE;
                        break;
                case 's':
                        if ((seconds = parse_count("--seconds", optarg)) < 0)
                                return ZM_UNUSABLE;
                        break;
                case 'h':
                        puts("Usage: zvmmon capture -o FILE [--device PATH] [--sets N] [--seconds "
                             "N]");
                        return ZM_OK;
                default:
                        return ZM_UNUSABLE;
                }
        }
        if (!opath || optind != argc) {
                fprintf(stderr, "zvmmon capture: -o FILE is required (and nothing else)\n");
                return ZM_UNUSABLE;
        }
        int fd = open_dev(dev);
        if (fd < 0)
                return ZM_UNUSABLE;
        struct cap cp = {.opath = opath};
        cp.out = strcmp(opath, "-") == 0 ? stdout : fopen(opath, "wb");
        if (!cp.out) {
                fprintf(stderr, "zvmmon capture: %s: %s\n", opath, strerror(errno));
                close(fd);
                return ZM_UNUSABLE;
        }
        uint8_t fhdr[ZD_CAP_HDR_LEN];
        zd_capture_file_header(fhdr);
        if (fwrite(fhdr, 1, sizeof(fhdr), cp.out) != sizeof(fhdr) || fflush(cp.out) != 0) {
                fprintf(stderr, "zvmmon capture: %s: %s\n", opath, strerror(errno));
                if (cp.out != stdout)
                        fclose(cp.out);
                close(fd);
                return ZM_UNUSABLE;
        }
        struct sigaction sa = {0};
        sa.sa_handler = on_signal;
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);

        double deadline = seconds ? mono() + (double)seconds : 0;
        int rc = ZM_OK;
        while (!stop && !cp.write_failed) {
                if (max_sets && cp.sets + cp.have_held >= (unsigned long long)max_sets)
                        break;
                double left = deadline ? deadline - mono() : 1.0;
                if (left <= 0)
                        break;
                if (!reserve(&cp.cur, 1 << 16)) {
                        fprintf(stderr, "zvmmon capture: out of memory\n");
                        rc = ZM_ERRORS;
                        break;
                }
                ssize_t n = read(fd, cp.cur.p + cp.cur.n, cp.cur.cap - cp.cur.n);
                if (n > 0) {
                        flush_held(&cp); /* no EOVERFLOW came for it */
                        cp.cur.n += (size_t)n;
                        continue;
                }
                if (n == 0) {
                        bool was_empty = cp.cur.n == 0;
                        complete(&cp);
                        if (was_empty) {
                                /* Nothing queued behind an empty set (or a FIFO without a writer):
                                 * do not spin. */
                                struct timespec ts = {0, 50 * 1000 * 1000};
                                nanosleep(&ts, NULL);
                        }
                        continue;
                }
                switch (errno) {
                case EINTR:
                        break;
                case EAGAIN: {
                        struct pollfd p = {fd, POLLIN, 0};
                        int ms = (int)(left > 1.0 ? 1000 : left * 1000 + 1);
                        if (poll(&p, 1, ms) > 0 && (p.revents & (POLLERR | POLLHUP)) &&
                            !(p.revents & POLLIN)) {
                                fprintf(stderr,
                                        "zvmmon capture: %s: connection severed; reopening\n", dev);
                                goto reopen;
                        }
                        break;
                }
                case EOVERFLOW:
                        cp.overflows++;
                        if (cp.have_held)
                                cp.held_status |= ZD_CAP_OVERFLOW;
                        fprintf(stderr,
                                "zvmmon capture: %s: message limit reached (EOVERFLOW): "
                                "monitor data was lost after data set %llu\n",
                                dev, cp.sets + cp.have_held);
                        break;
                case EFAULT:
                        cp.discarded++;
                        cp.cur.n = 0;
                        fprintf(stderr, "zvmmon capture: %s: EFAULT: partial data set discarded\n",
                                dev);
                        break;
                case EIO:
                        cp.discarded += cp.cur.n > 0;
                        fprintf(stderr,
                                "zvmmon capture: %s: EIO: partial data set discarded; "
                                "reopening\n",
                                dev);
                        goto reopen;
                default:
                        fprintf(stderr, "zvmmon capture: %s: %s\n", dev, strerror(errno));
                        rc = ZM_ERRORS;
                        goto done;
                }
                continue;
        reopen:
                cp.cur.n = 0;
                close(fd);
                sleep(1);
                if ((fd = open_dev(dev)) < 0) {
                        rc = ZM_ERRORS;
                        goto done;
                }
        }
done:
        flush_held(&cp);
        if (fd >= 0)
                close(fd);
        if (cp.cur.n)
                cp.discarded++; /* stopped inside a set: it was never completed */
        fprintf(stderr,
                "zvmmon capture: %llu data sets, %llu bytes to %s; %llu overflows, %llu discarded, "
                "%llu empty\n",
                cp.sets, cp.bytes, opath, cp.overflows, cp.discarded, cp.empty);
        if (cp.out != stdout && fclose(cp.out) != 0)
                cp.write_failed = true;
        free(cp.cur.p);
        free(cp.held.p);
        if (cp.write_failed)
                return ZM_UNUSABLE;
        if (rc == ZM_OK && (cp.overflows || cp.discarded))
                rc = ZM_ERRORS;
        return rc;
}
