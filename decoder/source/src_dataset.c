/* SPDX-License-Identifier: MIT */
/*
 * A raw data set saved to a file (what one monreader read sequence between
 * two 0-byte reads returned).  Without the 0-byte reads the set boundaries
 * are gone, so the whole input is decoded as one set at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "source/source.h"

struct ds_state {
        struct zd_decoder *d;
        uint8_t *buf;
        size_t n, cap;
};

static int ds_detect(zd_view head)
{
        struct zd_mce m;
        if (zd_mce_parse(head, &m) != ZD_E_NONE)
                return 0;
        /* A plausible first record header right after the MCE makes it likely. */
        struct zd_hdr h;
        zd_view rest = zd_view_tail(head, ZD_MCE_LEN);
        if (rest.n >= ZD_HDR_LEN && zd_hdr_parse(rest, &h) == ZD_E_NONE &&
            h.domain <= ZD_MAX_DOMAIN)
                return 60;
        return 20;
}

static void *ds_create(struct zd_decoder *d)
{
        struct ds_state *s = calloc(1, sizeof(*s));
        if (s)
                s->d = d;
        return s;
}

static int ds_feed(void *st, zd_view b)
{
        struct ds_state *s = st;
        if (!zd_bytes_append(&s->buf, &s->n, &s->cap, b))
                return -1;
        return 0;
}

static int ds_finish(void *st)
{
        struct ds_state *s = st;
        if (s->n)
                zd_decode_dataset(s->d, zd_view_make(s->buf, s->n), 0, 0);
        s->n = 0;
        return 0;
}

static void ds_destroy(void *st)
{
        struct ds_state *s = st;
        if (s)
                free(s->buf);
        free(s);
}

const struct zd_source_ops zd_src_dataset = {
    .fmt = ZD_FMT_DATASET,
    .name = "dataset",
    .desc = "one raw monreader data set ([MCE][records]...)",
    .detect = ds_detect,
    .create = ds_create,
    .feed = ds_feed,
    .finish = ds_finish,
    .destroy = ds_destroy,
};
