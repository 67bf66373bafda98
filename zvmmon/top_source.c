/* SPDX-License-Identifier: MIT */
/*
 * zvmmon top's input, read a piece at a time so that the screen stays live:
 * a file of any format through a stream, or a monreader device whose data
 * sets end with a 0-byte read, as in capture_loop.c (EAGAIN: wait for poll;
 * EOVERFLOW: data was lost, go on; EFAULT: the partial set is dropped; EIO:
 * the path was severed, open again).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "top.h"

struct top_src {
        bool device;
        const char *path;
        FILE *f;
        struct zd_stream *s;
        int fd;
        struct zd_decoder dec;
        unsigned char *set;
        size_t n, cap;
        uint64_t sets;
};

static int open_dev(const char *path)
{
        int fd = open(path, O_RDONLY | O_NONBLOCK);
        if (fd < 0)
                fprintf(stderr, "zvmmon top: %s: %s%s\n", path, strerror(errno),
                        errno == EBUSY ? " (one reader at a time: is the zvm plugin or a "
                                         "capture running?)"
                                       : "");
        return fd;
}

struct top_src *top_src_open(const char *path, bool device, enum zd_format fmt,
                             const struct zd_handler *h)
{
        struct top_src *s = calloc(1, sizeof(*s));
        if (!s)
                return NULL;
        s->device = device;
        s->path = path;
        s->fd = -1;
        if (device) {
                zd_decoder_init(&s->dec, h);
                s->fd = open_dev(path);
                if (s->fd >= 0)
                        return s;
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
        if (n > 0)
                return zd_stream_feed(s->s, buf, n) == 0 ? TOP_SRC_MORE : TOP_SRC_FAIL;
        if (ferror(s->f)) {
                fprintf(stderr, "zvmmon top: %s: read error\n", s->path);
                return TOP_SRC_FAIL;
        }
        zd_stream_finish(s->s);
        if (zd_stream_format(s->s) == ZD_FMT_UNKNOWN) {
                fprintf(stderr, "zvmmon top: %s: not monitor data this build can read\n", s->path);
                return TOP_SRC_FAIL;
        }
        return TOP_SRC_END;
}

static enum top_pump dev_error(struct top_src *s)
{
        switch (errno) {
        case EINTR:
                return TOP_SRC_MORE;
        case EAGAIN:
                return TOP_SRC_WAIT;
        case EOVERFLOW: /* the sets before it are whole; the table goes on */
                return TOP_SRC_MORE;
        case EFAULT:
                s->n = 0;
                return TOP_SRC_MORE;
        case EIO:
                s->n = 0;
                close(s->fd);
                s->fd = open_dev(s->path);
                return s->fd < 0 ? TOP_SRC_FAIL : TOP_SRC_MORE;
        default:
                fprintf(stderr, "zvmmon top: %s: %s\n", s->path, strerror(errno));
                return TOP_SRC_FAIL;
        }
}

static enum top_pump pump_dev(struct top_src *s)
{
        if (s->cap - s->n < (1 << 16)) {
                size_t cap = s->cap ? s->cap * 2 : 1 << 17;
                unsigned char *p = realloc(s->set, cap);
                if (!p)
                        return TOP_SRC_FAIL;
                s->set = p;
                s->cap = cap;
        }
        ssize_t got = read(s->fd, s->set + s->n, s->cap - s->n);
        if (got < 0)
                return dev_error(s);
        if (got > 0) {
                s->n += (size_t)got;
                return TOP_SRC_MORE;
        }
        if (!s->n) { /* an invalid MCA is answered with an immediate 0-byte read: no spin */
                struct timespec ts = {0, 50 * 1000000L};
                nanosleep(&ts, NULL);
                return TOP_SRC_WAIT;
        }
        zd_decode_dataset(&s->dec, zd_view_make(s->set, s->n), s->sets++, 0);
        s->n = 0; /* a 0-byte read ended the data set */
        return TOP_SRC_MORE;
}

enum top_pump top_src_pump(struct top_src *s)
{
        return s->device ? pump_dev(s) : pump_file(s);
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
        return s->device ? &s->dec.st : zd_stream_stats(s->s);
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
