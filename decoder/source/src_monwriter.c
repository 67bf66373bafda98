/* SPDX-License-Identifier: MIT */
/*
 * What an application wrote to /dev/monwriter, saved in a plain file: a
 * stream of 13-byte monwrite headers, each followed by its data
 * (doc/facts/kernel-drivers.md 2.1, 2.3).  Developers of monwriter programs
 * (mon_fsstatd, mon_procd, write_zvm, their own) rarely have z/VM; this
 * source turns their output into the domain 10 records CP would build from
 * it, and counts what the driver or z/VM would refuse (err_kinds.def, mwr_*).
 *
 * What CP adds and this source fills in instead (doc/monwriter-output.md):
 *   - the 20-byte record header: D10R2 (sample) for START_INTERVAL and
 *     START_CONFIG, D10R1 (event) for GEN_EVENT and for STOP (with the
 *     buffer's last data, as CP writes at STOP); TOD 0, the file has no time;
 *   - the APPLDATA header: CALDATOF 52, CALDATLN datalen, the product id the
 *     driver builds ("LNXAPPL" + applid, record, version, release, mod level)
 *     and the userid ZD_MWR_USERID;
 *   - sample intervals: CP copies every buffer once per interval; here each
 *     START write is one sample, and an interval ends (a D1R11 Interval End)
 *     when a buffer is written a second time (the application's next pass)
 *     and at the end of the file.
 */
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/ebcdic.h"
#include "source/source.h"

enum { MWR_START = 0, MWR_STOP = 1, MWR_EVENT = 2, MWR_CONFIG = 3 };
#define MWR_REC_HDR 52 /* MRHDR + the APPLDATA header CP puts before the data */

struct mwr_buf {
        uint8_t key[9]; /* applid, record, version, release, mod level as written */
        uint8_t fn;
        uint16_t datalen;
        bool in_interval; /* written since the last Interval End */
        uint8_t *data;
};

struct mwr_state {
        struct zd_decoder *d;
        uint8_t *buf;
        size_t n, cap;
        uint64_t off; /* input offset of buf[0] */
        struct mwr_buf *b;
        size_t nb;
        bool samples; /* a sample since the last Interval End */
        uint64_t sets;
};

struct mwr_hdr {
        uint8_t fn, key[9], hdrlen;
        uint16_t datalen;
};

static void hdr_parse(const uint8_t *p, struct mwr_hdr *h)
{
        h->fn = p[0];
        memcpy(h->key, p + 1, 9);
        h->datalen = (uint16_t)(p[10] << 8 | p[11]);
        h->hdrlen = p[12];
}

static bool hdr_ok(const struct mwr_hdr *h)
{
        return h->fn <= MWR_CONFIG && h->hdrlen == ZD_MWR_HDR_LEN &&
               h->datalen <= ZD_MWR_MAX_DATALEN;
}

/*
 * Every header in head that the driver accepts, one after the other: two or
 * more, or one whose data ends the head exactly, make the format certain;
 * one whole record before a refused header makes it likely.
 */
static int mwr_detect(zd_view head)
{
        size_t off = 0, good = 0;
        while (off + ZD_MWR_HDR_LEN <= head.n && good < 8) {
                struct mwr_hdr h;
                hdr_parse(head.p + off, &h);
                if (!hdr_ok(&h)) /* a refused header later on is this format's error */
                        return good >= 2 ? 70 : good ? 45 : 0;
                good++;
                off += ZD_MWR_HDR_LEN + (h.fn == MWR_STOP ? 0 : h.datalen);
        }
        if (good >= 2 || (good == 1 && off == head.n))
                return 70;
        return good ? 30 : 0;
}

static void *mwr_create(struct zd_decoder *d)
{
        struct mwr_state *s = calloc(1, sizeof(*s));
        if (s)
                s->d = d;
        return s;
}

static void mwr_destroy(void *st)
{
        struct mwr_state *s = st;
        if (!s)
                return;
        for (size_t i = 0; i < s->nb; i++)
                free(s->b[i].data);
        free(s->b);
        free(s->buf);
        free(s);
}

/* The driver's buffer match: same key, and the same function unless the new one is STOP. */
static struct mwr_buf *find(struct mwr_state *s, const struct mwr_hdr *h)
{
        for (size_t i = 0; i < s->nb; i++)
                if (memcmp(s->b[i].key, h->key, 9) == 0 &&
                    (h->fn == MWR_STOP ? s->b[i].fn != MWR_EVENT : s->b[i].fn == h->fn))
                        return &s->b[i];
        return NULL;
}

static void interval_end(struct mwr_state *s, uint64_t off)
{
        uint8_t rec[ZD_HDR_LEN] = {0, ZD_HDR_LEN, 0, 0, 1, 0, 0, ZD_D1_INTERVAL_END};
        struct zd_record r = {.domain = 1, .number = ZD_D1_INTERVAL_END, .kind = 'S'};
        r.pos.offset = off;
        r.pos.set = s->sets++;
        r.rec = zd_view_make(rec, sizeof(rec));
        r.body = zd_view_make(rec + ZD_HDR_LEN, 0);
        zd_deliver(s->d, &r);
        s->d->st.sets++;
        s->samples = false;
        for (size_t i = 0; i < s->nb; i++)
                s->b[i].in_interval = false;
}

/* The D10 record CP would write for this buffer (see the top of the file). */
static void deliver(struct mwr_state *s, const struct mwr_hdr *h, uint16_t number,
                    const uint8_t *data, uint16_t len, uint64_t off)
{
        static uint8_t rec[MWR_REC_HDR + ZD_MWR_MAX_DATALEN];
        size_t n = MWR_REC_HDR + (size_t)len;
        zd_wbuf w = {rec, n};
        memset(rec, 0, MWR_REC_HDR);
        (void)zd_put16(w, 0, (uint16_t)n);
        rec[4] = 10;
        (void)zd_put16(w, 6, number);
        (void)zd_put16(w, 20, MWR_REC_HDR);
        (void)zd_put16(w, 22, len);
        zd_ascii_to_ebcdic(ZD_MWR_USERID, ZD_CP037, rec + 24, 8);
        memcpy(rec + 32, "LNXAPPL", 7);
        memcpy(rec + 39, h->key, 9);
        if (len)
                memcpy(rec + MWR_REC_HDR, data, len);
        struct zd_record r = {.domain = 10, .number = number, .kind = number == 2 ? 'S' : 'E'};
        r.pos.offset = off;
        r.pos.set = s->sets;
        r.rec = zd_view_make(rec, n);
        r.body = zd_view_make(rec + ZD_HDR_LEN, n - ZD_HDR_LEN);
        zd_deliver(s->d, &r);
}

/* The header's own faults, which the driver refuses before CP sees anything. */
static bool header_ok(struct mwr_state *s, const struct mwr_hdr *h, const struct zd_pos *pos)
{
        if (h->fn > MWR_CONFIG)
                zd_report(s->d, ZD_E_MWR_FUNCTION, pos, "mon_function %u", h->fn);
        else if (h->hdrlen != ZD_MWR_HDR_LEN)
                zd_report(s->d, ZD_E_MWR_HDRLEN, pos, "hdrlen %u, the driver wants 13", h->hdrlen);
        else if (h->datalen > ZD_MWR_MAX_DATALEN)
                zd_report(s->d, ZD_E_MWR_DATALEN, pos, "datalen %u, at most 4010", h->datalen);
        else
                return true;
        return false;
}

/* A new buffer for h's key (START or START_CONFIG); NULL when refused or out of memory. */
static struct mwr_buf *new_buf(struct mwr_state *s, const struct mwr_hdr *h,
                               const struct zd_pos *pos)
{
        if (s->nb >= ZD_MWR_MAX_BUFS) {
                zd_report(s->d, ZD_E_MWR_BUFFERS, pos, "buffer %zu", s->nb + 1);
                return NULL;
        }
        struct mwr_buf *nb = realloc(s->b, (s->nb + 1) * sizeof(*nb));
        uint8_t *copy = malloc(h->datalen);
        if (nb)
                s->b = nb;
        if (!nb || !copy) {
                free(copy);
                return NULL;
        }
        struct mwr_buf *b = &s->b[s->nb++];
        memset(b, 0, sizeof(*b));
        memcpy(b->key, h->key, 9);
        b->fn = h->fn;
        b->datalen = h->datalen;
        b->data = copy;
        return b;
}

/* START or START_CONFIG with data: the buffer as CP would sample it. */
static void sample(struct mwr_state *s, const struct mwr_hdr *h, struct mwr_buf *b,
                   const uint8_t *data, uint64_t off, const struct zd_pos *pos)
{
        if (b && b->datalen != h->datalen) {
                zd_report(s->d, ZD_E_MWR_RESIZE, pos,
                          "buffer of %u bytes rewritten with %u (STOP it first)", b->datalen,
                          h->datalen);
                return;
        }
        if (!b && !(b = new_buf(s, h, pos)))
                return;
        if (b->in_interval) /* the application's next pass: CP's next sample */
                interval_end(s, off);
        memcpy(b->data, data, h->datalen);
        b->in_interval = true;
        s->samples = true;
        deliver(s, h, 2, data, h->datalen, off);
}

/* One header and its data at p (off in the input); returns the bytes it takes. */
static size_t one(struct mwr_state *s, const struct mwr_hdr *h, const uint8_t *data, uint64_t off)
{
        struct zd_pos pos = {.offset = off, .set = s->sets};
        size_t take = ZD_MWR_HDR_LEN + (h->fn == MWR_STOP ? 0 : h->datalen);
        if (!header_ok(s, h, &pos))
                return take;
        struct mwr_buf *b = find(s, h);
        if (h->fn == MWR_STOP) { /* no data follows a STOP, whatever its datalen says */
                if (b) {
                        deliver(s, h, 1, b->data, b->datalen, off);
                        free(b->data);
                        *b = s->b[--s->nb];
                }
        } else if (h->datalen == 0)
                zd_report(s->d, ZD_E_MWR_EMPTY, &pos, "mon_function %u with no data", h->fn);
        else if (h->fn == MWR_EVENT)
                deliver(s, h, 1, data, h->datalen, off);
        else
                sample(s, h, b, data, off, &pos);
        return take;
}

static int mwr_feed(void *st, zd_view bytes)
{
        struct mwr_state *s = st;
        if (!zd_bytes_append(&s->buf, &s->n, &s->cap, bytes))
                return -1;
        size_t at = 0;
        while (s->n - at >= ZD_MWR_HDR_LEN) {
                struct mwr_hdr h;
                hdr_parse(s->buf + at, &h);
                size_t take = ZD_MWR_HDR_LEN + (h.fn == MWR_STOP ? 0 : h.datalen);
                if (s->n - at < take)
                        break;
                one(s, &h, s->buf + at + ZD_MWR_HDR_LEN, s->off + at);
                at += take;
        }
        memmove(s->buf, s->buf + at, s->n - at);
        s->d->st.bytes += at;
        s->n -= at;
        s->off += at;
        return 0;
}

static int mwr_finish(void *st)
{
        struct mwr_state *s = st;
        if (s->n) {
                struct zd_pos pos = {.offset = s->off, .set = s->sets};
                zd_report(s->d, ZD_E_MWR_TRUNCATED, &pos, "%zu bytes left over", s->n);
                s->d->st.bytes += s->n;
                s->n = 0;
        }
        if (s->samples)
                interval_end(s, s->off);
        return 0;
}

const struct zd_source_ops zd_src_monwriter = {
    .fmt = ZD_FMT_MONWRITER,
    .name = "monwriter",
    .desc = "what a program wrote to /dev/monwriter, saved in a file (13-byte headers + data)",
    .detect = mwr_detect,
    .create = mwr_create,
    .feed = mwr_feed,
    .finish = mwr_finish,
    .destroy = mwr_destroy,
};
