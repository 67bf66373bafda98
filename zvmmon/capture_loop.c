/* SPDX-License-Identifier: MIT */
/*
 * Reading a monreader device into a capture file (doc/zvmmon.md).
 *
 * A data set is everything read between two 0-byte reads.  EAGAIN: wait.
 * EOVERFLOW comes on the read after the 0-byte read that completed the
 * affected set, so the last complete set is held back until the next read
 * says whether to flag it.  EIO and EFAULT invalidate the partial set; after
 * EIO (or a sever seen by poll) the device is closed and reopened.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "zvmdec.h"
#include "zvmmon.h"

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

struct cap {
        const struct zmon_cap_io *io;
        const struct zmon_cap_opts *o;
        FILE *out;
        struct zmon_cap_result *res;
        struct buf cur, held; /* the set being read; the last complete set, not yet written */
        unsigned empty_run;   /* empty reads since the last byte */
        bool have_held;
        uint32_t held_status;
        int64_t held_time;
};

static void flush_held(struct cap *c)
{
        if (!c->have_held)
                return;
        uint8_t fh[ZD_CAP_FRAME_LEN];
        zd_capture_frame_header(fh, (uint32_t)c->held.n, c->held_time, c->held_status);
        errno = 0; /* a short write need not set it: no stale reason from the device */
        if (fwrite(fh, 1, sizeof(fh), c->out) != sizeof(fh) ||
            fwrite(c->held.p, 1, c->held.n, c->out) != c->held.n || fflush(c->out) != 0) {
                if (!c->res->write_failed)
                        fprintf(stderr, "zvmmon capture: %s: write failed: %s\n", c->o->out_name,
                                errno ? strerror(errno) : "short write");
                c->res->write_failed = true;
        } else { /* the summary counts what is in the file, not what was tried */
                c->res->sets++;
                c->res->bytes += c->held.n;
        }
        c->have_held = false;
}

/* A 0-byte read completed the set being read. */
static void complete(struct cap *c)
{
        if (c->cur.n == 0) {
                c->res->empty++; /* an invalid MCA is answered with an immediate 0-byte read */
                if (++c->empty_run == ZMON_EMPTY_RUN_WARN && !c->res->empty_warned) {
                        fprintf(stderr,
                                "zvmmon capture: %s: %u empty reads in a row and no data: not a "
                                "monitor stream? (monreader reads empty only after a data set "
                                "or for a control element it cannot read; going on)\n",
                                c->o->dev, c->empty_run);
                        c->res->empty_warned = true;
                }
                return;
        }
        flush_held(c);
        struct buf t = c->held;
        c->held = c->cur;
        c->cur = t;
        c->cur.n = 0;
        c->have_held = true;
        c->held_status = 0;
        c->held_time = c->io->unix_us(c->io->ctx);
}

static bool reopen(struct cap *c)
{
        if (c->cur.n)
                c->res->discarded++;
        c->cur.n = 0;
        c->res->reopens++;
        c->io->pause(c->io->ctx, 1000);
        if (c->io->reopen(c->io->ctx) == 0)
                return true;
        c->res->device_lost = true;
        return false;
}

/* A read failed with errno; left: seconds to the deadline.  False: stop capturing. */
static bool on_read_error(struct cap *c, double left)
{
        const struct zmon_cap_io *io = c->io;
        struct zmon_cap_result *res = c->res;
        const char *dev = c->o->dev;
        switch (errno) {
        case EINTR:
                return true;
        case EAGAIN:
                if (io->wait(io->ctx, (int)(left > 1.0 ? 1000 : left * 1000 + 1)) < 0) {
                        fprintf(stderr, "zvmmon capture: %s: connection severed; reopening\n", dev);
                        return reopen(c);
                }
                return true;
        case EOVERFLOW:
                res->overflows++;
                if (c->have_held)
                        c->held_status |= ZD_CAP_OVERFLOW;
                /* sets counted from 0, as dump's "set" and a replay's cap_overflow name them */
                if (res->sets + c->have_held)
                        fprintf(stderr,
                                "zvmmon capture: %s: message limit reached (EOVERFLOW): monitor "
                                "data was lost after data set %llu\n",
                                dev, res->sets + c->have_held - 1);
                else
                        fprintf(stderr,
                                "zvmmon capture: %s: message limit reached (EOVERFLOW): monitor "
                                "data was lost before the first data set\n",
                                dev);
                return true;
        case EFAULT:
                res->discarded += c->cur.n > 0;
                c->cur.n = 0;
                fprintf(stderr, "zvmmon capture: %s: EFAULT: partial data set discarded\n", dev);
                return true;
        case EIO:
                fprintf(stderr, "zvmmon capture: %s: EIO: partial data set discarded; reopening\n",
                        dev);
                return reopen(c);
        default:
                fprintf(stderr, "zvmmon capture: %s: %s\n", dev, strerror(errno));
                res->device_lost = true;
                return false;
        }
}

void zmon_capture_run(const struct zmon_cap_io *io, FILE *out, const struct zmon_cap_opts *o,
                      struct zmon_cap_result *res)
{
        memset(res, 0, sizeof(*res));
        struct cap c = {.io = io, .o = o, .out = out, .res = res};
        if (!zmon_cap_begin(out, o, res))
                return;
        double deadline = o->seconds > 0 ? io->mono(io->ctx) + o->seconds : 0;
        while (!(o->stop && *o->stop) && !res->write_failed) {
                if (o->max_sets && res->sets + c.have_held >= o->max_sets)
                        break;
                double left = deadline > 0 ? deadline - io->mono(io->ctx) : 1.0;
                if (left <= 0)
                        break;
                if (!reserve(&c.cur, 1 << 16)) {
                        fprintf(stderr, "zvmmon capture: out of memory\n");
                        res->no_memory = true;
                        break;
                }
                ssize_t n = io->read(io->ctx, c.cur.p + c.cur.n, c.cur.cap - c.cur.n);
                if (n > 0) {
                        flush_held(&c); /* no EOVERFLOW came for it */
                        c.cur.n += (size_t)n;
                        c.empty_run = 0;
                } else if (n == 0) {
                        bool was_empty = c.cur.n == 0;
                        complete(&c);
                        if (was_empty)
                                io->pause(io->ctx, 50); /* nothing queued: do not spin */
                } else if (!on_read_error(&c, left)) {
                        break;
                }
        }
        flush_held(&c);
        if (c.cur.n)
                res->discarded++; /* stopped inside a set: it was never completed */
        free(c.cur.p);
        free(c.held.p);
}
