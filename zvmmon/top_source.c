/* SPDX-License-Identifier: MIT */
/*
 * zvmmon top's input, read a piece at a time so that the screen stays live:
 * a file of any format through a stream, or a monreader device whose data
 * sets end with a 0-byte read, as in capture_loop.c (EAGAIN: wait for poll;
 * EOVERFLOW: data was lost, go on; EFAULT: the partial set is dropped; EIO:
 * the path was severed, open again; a sample set without Interval End was cut
 * by the driver's checks: dropped).  Each of these is said as it happens
 * (the full screen has no stderr while it is up: the message goes to the
 * caller's note function, the model's queue) and counted.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "zvmdec.h"
#include "top.h"
#include "zvmmon.h"

/* The device's errors, survived (or not: TOP_EV_OTHER), each said as it came. */
enum top_ev { TOP_EV_OVERFLOW, TOP_EV_FAULT, TOP_EV_SEVER, TOP_EV_CUT, TOP_EV_OTHER, TOP_EV_N };

struct top_src {
        bool device; /* live: the device, or a socket (fd, and the stream s) */
        bool socket;
        const char *path;
        FILE *f;
        struct zd_stream *s;
        int fd;
        struct zd_decoder dec;
        unsigned char *set;
        size_t n, cap;
        uint64_t sets;
        bool regular;       /* a plain file given as the device: its end is the end */
        bool fed;           /* a file gave bytes: its end is not "empty input" */
        unsigned empty_run; /* empty reads since the last byte */
        top_note_fn note;
        void *note_ctx;
        uint64_t ev[TOP_EV_N];
};

__attribute__((format(printf, 3, 4))) static void say(struct top_src *s, int level, const char *fmt,
                                                      ...)
{
        char what[320], msg[400];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof(what), fmt, ap);
        va_end(ap);
        snprintf(msg, sizeof(msg), "%s: %s", s->path, what);
        if (s->note)
                s->note(s->note_ctx, level, msg);
        else
                fprintf(stderr, "zvmmon top: %s\n", msg);
}

static int open_dev(const char *path)
{
        return open(path, O_RDONLY | O_NONBLOCK);
}

static const char busy_hint[] = " (one reader at a time: is the zvm plugin or a capture running? "
                                "Beside the plugin, read its ShareSocket: --socket PATH)";

/* A ShareSocket: its bytes are a capture, decoded as a file's are. */
static bool open_socket(struct top_src *s, const struct zd_handler *h)
{
        s->fd = zmon_share_connect(s->path, "zvmmon top");
        return s->fd >= 0 && (s->s = zd_stream_new(ZD_FMT_CAPTURE, h));
}

struct top_src *top_src_open(const char *path, enum top_in in, enum zd_format fmt,
                             const struct zd_handler *h, top_note_fn note, void *note_ctx)
{
        struct top_src *s = calloc(1, sizeof(*s));
        if (!s)
                return NULL;
        s->device = in != TOP_IN_FILE;
        s->socket = in == TOP_IN_SOCKET;
        s->path = path;
        s->fd = -1;
        s->note = note;
        s->note_ctx = note_ctx;
        if (s->socket) {
                if (open_socket(s, h))
                        return s;
        } else if (s->device) {
                struct stat st;
                zd_decoder_init(&s->dec, h);
                s->fd = open_dev(path);
                if (s->fd < 0)
                        fprintf(stderr, "zvmmon top: %s: %s%s\n", path, strerror(errno),
                                errno == EBUSY ? busy_hint : "");
                if (s->fd >= 0) {
                        s->regular = fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode);
                        return s;
                }
        } else {
                s->f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
                if (!s->f)
                        fprintf(stderr, "zvmmon top: %s: %s\n", path, strerror(errno));
                else if ((s->s = zd_stream_new(fmt, h)))
                        return s;
        }
        top_src_close(s);
        return NULL;
}

static enum top_pump pump_file(struct top_src *s)
{
        static unsigned char buf[1 << 14];
        size_t n = fread(buf, 1, sizeof(buf), s->f);
        s->fed |= n > 0;
        if (n > 0 && zd_stream_feed(s->s, buf, n) == 0)
                return TOP_SRC_MORE;
        if (n > 0) { /* 64 KB and no format recognised, or the source gave up */
                say(s, ZM_LOG_ERR, "%s",
                    zd_stream_format(s->s) == ZD_FMT_UNKNOWN
                        ? "not monitor data this build can read"
                        : "cannot be decoded further");
                return TOP_SRC_FAIL;
        }
        if (ferror(s->f)) {
                say(s, ZM_LOG_ERR, "read error: %s", strerror(errno));
                return TOP_SRC_FAIL;
        }
        /* As dump says it: finishing would count and say "format not recognised". */
        if (!s->fed) {
                say(s, ZM_LOG_ERR, "empty input");
                return TOP_SRC_FAIL;
        }
        zd_stream_finish(s->s);
        if (zd_stream_format(s->s) == ZD_FMT_UNKNOWN) {
                say(s, ZM_LOG_ERR, "not monitor data this build can read");
                return TOP_SRC_FAIL;
        }
        return TOP_SRC_END;
}

static void pause_ms(long ms)
{
        struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
}

/* The severed path's close may not be done with when we open again (EBUSY). */
static enum top_pump reopen(struct top_src *s, const char *why)
{
        bool partial = s->n > 0;
        s->n = 0;
        close(s->fd);
        int err = 0;
        for (int i = 0; (s->fd = open_dev(s->path)) < 0 && (err = errno) == EBUSY && i < 20; i++)
                pause_ms(50);
        if (s->fd < 0) {
                say(s, ZM_LOG_ERR, "%s%s; cannot open it again: %s%s", why,
                    partial ? ", the partial data set dropped" : "", strerror(err),
                    err == EBUSY ? busy_hint : "");
                return TOP_SRC_FAIL;
        }
        say(s, ZM_LOG_WARNING, "%s%s; reopened", why,
            partial ? ", the partial data set dropped" : "");
        return TOP_SRC_MORE;
}

static enum top_pump dev_error(struct top_src *s)
{
        switch (errno) {
        case EINTR:
                return TOP_SRC_MORE;
        case EAGAIN:
                return TOP_SRC_WAIT;
        case EOVERFLOW: /* the sets before it are whole; the table goes on */
                s->ev[TOP_EV_OVERFLOW]++;
                /* sets counted from 0, as dump's "set" and a replay's cap_overflow name them */
                if (s->sets)
                        say(s, ZM_LOG_WARNING,
                            "EOVERFLOW: the message limit was reached, monitor data was lost "
                            "after data set %llu",
                            (unsigned long long)s->sets - 1);
                else
                        say(s, ZM_LOG_WARNING,
                            "EOVERFLOW: the message limit was reached, monitor data was lost "
                            "before the first data set");
                return TOP_SRC_MORE;
        case EFAULT:
                s->ev[TOP_EV_FAULT]++;
                say(s, ZM_LOG_WARNING, "EFAULT: %s",
                    s->n ? "the partial data set dropped" : "a data set could not be read");
                s->n = 0;
                return TOP_SRC_MORE;
        case EIO:
                s->ev[TOP_EV_SEVER]++;
                return reopen(s, "EIO: the path was severed");
        default:
                s->ev[TOP_EV_OTHER]++;
                say(s, ZM_LOG_ERR, "read: %s", strerror(errno));
                return TOP_SRC_FAIL;
        }
}

static enum top_pump pump_dev(struct top_src *s)
{
        if (s->cap - s->n < (1 << 16)) {
                size_t cap = s->cap ? s->cap * 2 : 1 << 17;
                unsigned char *p = realloc(s->set, cap);
                if (!p) {
                        say(s, ZM_LOG_ERR, "out of memory for a data set of %zu bytes", s->n);
                        return TOP_SRC_FAIL;
                }
                s->set = p;
                s->cap = cap;
        }
        ssize_t got = read(s->fd, s->set + s->n, s->cap - s->n);
        if (got < 0)
                return dev_error(s);
        if (got > 0) {
                s->n += (size_t)got;
                s->empty_run = 0;
                return TOP_SRC_MORE;
        }
        if (!s->n && s->regular) { /* a monreader's 0-byte reads never end; a file's do */
                say(s, ZM_LOG_NOTICE,
                    "end of file (not a character device: read as %llu data "
                    "set%s)",
                    (unsigned long long)s->sets, s->sets == 1 ? "" : "s");
                return TOP_SRC_END;
        }
        if (!s->n) { /* an invalid MCA is answered with an immediate 0-byte read: no spin */
                if (++s->empty_run == ZMON_EMPTY_RUN_WARN)
                        say(s, ZM_LOG_WARNING,
                            "%u empty reads in a row and no data: not a monitor stream? "
                            "(monreader reads empty only after a data set or for a control "
                            "element it cannot read; going on)",
                            s->empty_run);
                pause_ms(50);
                return TOP_SRC_WAIT;
        }
        if (zd_dataset_sample_cut(zd_view_make(s->set, s->n))) {
                /* its interval would be shown from part of its records, and the laws judged
                   on them */
                s->ev[TOP_EV_CUT]++;
                say(s, ZM_LOG_WARNING,
                    "a sample data set of %zu bytes ended without its Interval End (monreader "
                    "refused a later control element): dropped",
                    s->n);
        } else {
                zd_decode_dataset(&s->dec, zd_view_make(s->set, s->n), s->sets, 0);
        }
        s->sets++;
        s->n = 0; /* a 0-byte read ended the data set */
        return TOP_SRC_MORE;
}

/* The socket: what came, to the stream; its end, the end of the input. */
static enum top_pump pump_socket(struct top_src *s)
{
        static unsigned char buf[1 << 16];
        ssize_t got = read(s->fd, buf, sizeof(buf));
        if (got > 0) {
                s->fed = true;
                if (zd_stream_feed(s->s, buf, (size_t)got) == 0)
                        return TOP_SRC_MORE;
                say(s, ZM_LOG_ERR, "not a zvm plugin's ShareSocket stream");
                return TOP_SRC_FAIL;
        }
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                return TOP_SRC_WAIT;
        if (got < 0 && errno == EINTR)
                return TOP_SRC_MORE;
        if (got < 0) {
                say(s, ZM_LOG_ERR, "read: %s", strerror(errno));
                return TOP_SRC_FAIL;
        }
        zd_stream_finish(s->s);
        say(s, ZM_LOG_NOTICE,
            "the collector closed the connection (collectd stopped, or this reader fell more "
            "than ShareBuffer behind and was dropped)");
        return TOP_SRC_END;
}

enum top_pump top_src_pump(struct top_src *s)
{
        if (s->socket)
                return pump_socket(s);
        return s->device ? pump_dev(s) : pump_file(s);
}

uint64_t top_src_errors(const struct top_src *s)
{
        uint64_t n = zd_stats_errors(top_src_stats(s));
        for (int k = 0; k < TOP_EV_N; k++)
                n += s->ev[k];
        return n;
}

int top_src_report(const struct top_src *s)
{
        uint64_t n = 0;
        for (int k = 0; k < TOP_EV_N; k++)
                n += s->ev[k];
        if (!n)
                return 0;
        fprintf(stderr,
                "zvmmon top: %s: %llu device error%s: %llu EOVERFLOW (data lost), %llu EFAULT, "
                "%llu EIO (severed, reopened), %llu sample set%s cut short, %llu other\n",
                s->path, (unsigned long long)n, n == 1 ? "" : "s",
                (unsigned long long)s->ev[TOP_EV_OVERFLOW], (unsigned long long)s->ev[TOP_EV_FAULT],
                (unsigned long long)s->ev[TOP_EV_SEVER], (unsigned long long)s->ev[TOP_EV_CUT],
                s->ev[TOP_EV_CUT] == 1 ? "" : "s", (unsigned long long)s->ev[TOP_EV_OTHER]);
        return 1;
}

int top_src_fd(const struct top_src *s)
{
        return s->device ? s->fd : -1;
}

bool top_src_is_device(const struct top_src *s)
{
        return s->device;
}

const struct zd_stats *top_src_stats(const struct top_src *s)
{
        return s->device && !s->socket ? &s->dec.st : zd_stream_stats(s->s);
}

void top_src_close(struct top_src *s)
{
        if (!s)
                return;
        if (s->fd >= 0)
                close(s->fd);
        if (s->f && s->f != stdin)
                fclose(s->f);
        zd_stream_free(s->s);
        free(s->set);
        free(s);
}
