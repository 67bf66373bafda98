/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "source/source.h"

/* Bytes held back to detect the format when none was given. */
#define DETECT_HEAD (64 * 1024)

struct zd_stream {
        struct zd_decoder d;
        const struct zd_source_ops *ops;
        void *st;
        uint8_t *head;
        size_t nhead;
        bool failed;
};

struct zd_stream *zd_stream_new(enum zd_format fmt, const struct zd_handler *h)
{
        struct zd_stream *s = calloc(1, sizeof(*s));
        if (!s)
                return NULL;
        zd_decoder_init(&s->d, h);
        if (fmt != ZD_FMT_UNKNOWN) {
                s->ops = zd_source_by_fmt(fmt);
                s->st = s->ops ? s->ops->create(&s->d) : NULL;
                if (!s->st) {
                        free(s);
                        return NULL;
                }
        } else if (!(s->head = malloc(DETECT_HEAD))) {
                free(s);
                return NULL;
        }
        return s;
}

static int start(struct zd_stream *s)
{
        s->ops = zd_source_detect(zd_view_make(s->head, s->nhead));
        if (!s->ops) {
                zd_report(
                    &s->d, ZD_E_FORMAT, NULL,
                    "input format not recognised (not a capture, MONWRITE file, data set, VB file, "
                    "VM/370 tape or AWSTAPE image)");
                s->failed = true;
                return -1;
        }
        s->st = s->ops->create(&s->d);
        if (!s->st) {
                s->failed = true;
                return -1;
        }
        int rc = s->ops->feed(s->st, zd_view_make(s->head, s->nhead));
        free(s->head);
        s->head = NULL;
        return rc;
}

int zd_stream_feed(struct zd_stream *s, const void *buf, size_t len)
{
        if (s->failed)
                return -1;
        if (!s->ops) {
                size_t take = DETECT_HEAD - s->nhead < len ? DETECT_HEAD - s->nhead : len;
                /* memcpy wants a pointer even for no bytes, and an empty piece may be NULL. */
                if (take)
                        memcpy(s->head + s->nhead, buf, take);
                s->nhead += take;
                if (s->nhead < DETECT_HEAD)
                        return 0;
                if (start(s) < 0)
                        return -1;
                buf = (const uint8_t *)buf + take;
                len -= take;
        }
        return len ? s->ops->feed(s->st, zd_view_make(buf, len)) : 0;
}

int zd_stream_finish(struct zd_stream *s)
{
        if (s->failed)
                return -1;
        if (!s->ops && start(s) < 0)
                return -1;
        return s->ops->finish(s->st);
}

enum zd_format zd_stream_format(const struct zd_stream *s)
{
        return s->ops ? s->ops->fmt : ZD_FMT_UNKNOWN;
}

const struct zd_stats *zd_stream_stats(const struct zd_stream *s)
{
        return &s->d.st;
}

void zd_stream_free(struct zd_stream *s)
{
        if (!s)
                return;
        if (s->ops && s->st)
                s->ops->destroy(s->st);
        free(s->head);
        free(s);
}
