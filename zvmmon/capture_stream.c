/* SPDX-License-Identifier: MIT */
/*
 * zvmmon capture --socket: the zvm plugin's ShareSocket already speaks the
 * capture format (decoder/source/source.h: a file header, then a frame per
 * data set), so each whole frame is checked and written as it came: the
 * file holds the data sets byte for byte as the plugin read them, with the
 * plugin's times.  The end of the connection ends the capture: collectd
 * stopped, or the capture fell more than ShareBuffer behind and was dropped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "zvmdec.h"
#include "zvmmon.h"

/* A frame longer than this is no data set (src_capture.c's bound). */
#define FRAME_MAX (UINT32_C(1) << 30)

struct stream {
        const struct zmon_cap_io *io;
        const struct zmon_cap_opts *o;
        FILE *out;
        struct zmon_cap_result *res;
        unsigned char *p;
        size_t n, cap;
        bool header; /* the stream's file header was read */
};

static uint32_t be32(const unsigned char *p)
{
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void consume(struct stream *s, size_t k)
{
        memmove(s->p, s->p + k, s->n - k);
        s->n -= k;
}

static bool not_share(struct stream *s, const char *what)
{
        fprintf(stderr, "zvmmon capture: %s: %s: not a zvm plugin's ShareSocket stream\n",
                s->o->dev, what);
        s->res->bad_stream = true;
        return false;
}

/* The stream's file header, once whole; false when it is not one. */
static bool header(struct stream *s)
{
        if (s->header || s->n < ZD_CAP_HDR_LEN)
                return true;
        uint32_t hlen = (uint32_t)s->p[10] << 8 | s->p[11];
        if (memcmp(s->p, ZD_CAP_MAGIC, 8) != 0 || (s->p[8] << 8 | s->p[9]) != ZD_CAP_VERSION ||
            hlen < ZD_CAP_HDR_LEN)
                return not_share(s, "no capture header");
        if (s->n < hlen)
                return true;
        consume(s, hlen);
        s->header = true;
        return true;
}

static void write_frame(struct stream *s, size_t len, uint32_t status)
{
        errno = 0;
        if (fwrite(s->p, 1, ZD_CAP_FRAME_LEN + len, s->out) != ZD_CAP_FRAME_LEN + len ||
            fflush(s->out) != 0) {
                fprintf(stderr, "zvmmon capture: %s: write failed: %s\n", s->o->out_name,
                        errno ? strerror(errno) : "short write");
                s->res->write_failed = true;
                return;
        }
        s->res->sets++;
        s->res->bytes += len;
        s->res->overflows += (status & ZD_CAP_OVERFLOW) != 0;
}

/* Every whole frame buffered, written; false: stop (a bad stream, output failed, enough sets). */
static bool drain(struct stream *s)
{
        if (!header(s))
                return false;
        while (s->header && s->n >= ZD_CAP_FRAME_LEN) {
                if (s->o->max_sets && s->res->sets >= s->o->max_sets)
                        return false;
                uint32_t len = be32(s->p + 4);
                if (be32(s->p) != ZD_CAP_FRAME_MAGIC || len > FRAME_MAX)
                        return not_share(s, "a frame without its magic");
                if (s->n - ZD_CAP_FRAME_LEN < len)
                        return true;
                write_frame(s, len, be32(s->p + 16));
                if (s->res->write_failed)
                        return false;
                consume(s, ZD_CAP_FRAME_LEN + len);
        }
        return !(s->o->max_sets && s->res->sets >= s->o->max_sets);
}

static bool reserve(struct stream *s)
{
        if (s->cap - s->n >= 1 << 16)
                return true;
        size_t cap = s->cap ? s->cap * 2 : 1 << 17;
        unsigned char *p = realloc(s->p, cap);
        if (!p)
                return false;
        s->p = p;
        s->cap = cap;
        return true;
}

/* A read that gave nothing; false: the capture ends. */
static bool nothing(struct stream *s, ssize_t got, double left)
{
        if (got == 0) {
                fprintf(stderr,
                        "zvmmon capture: %s: the collector closed the connection (collectd "
                        "stopped, or this capture fell more than ShareBuffer behind and was "
                        "dropped)\n",
                        s->o->dev);
                s->res->device_lost = true;
                return false;
        }
        if (errno == EINTR)
                return true;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
                s->io->wait(s->io->ctx, (int)(left > 1.0 ? 1000 : left * 1000 + 1));
                return true;
        }
        fprintf(stderr, "zvmmon capture: %s: %s\n", s->o->dev, strerror(errno));
        s->res->device_lost = true;
        return false;
}

void zmon_capture_stream(const struct zmon_cap_io *io, FILE *out, const struct zmon_cap_opts *o,
                         struct zmon_cap_result *res)
{
        memset(res, 0, sizeof(*res));
        struct stream s = {.io = io, .o = o, .out = out, .res = res};
        if (!zmon_cap_begin(out, o, res))
                return;
        double deadline = o->seconds > 0 ? io->mono(io->ctx) + o->seconds : 0;
        while (!(o->stop && *o->stop)) {
                double left = deadline > 0 ? deadline - io->mono(io->ctx) : 1.0;
                if (left <= 0)
                        break;
                if (!reserve(&s)) {
                        fprintf(stderr, "zvmmon capture: out of memory\n");
                        res->no_memory = true;
                        break;
                }
                ssize_t got = io->read(io->ctx, s.p + s.n, s.cap - s.n);
                if (got > 0 ? (s.n += (size_t)got, !drain(&s)) : !nothing(&s, got, left))
                        break;
        }
        /* A frame begun and not ended by the collector (not one left unread by --sets). */
        if (res->device_lost && s.header && s.n)
                res->discarded++;
        free(s.p);
}
