/* SPDX-License-Identifier: MIT */
/*
 * zvmmon capture files (format in source.h).  A damaged frame header costs a
 * resynchronisation: the reader scans forward for the next frame magic.
 */
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "source/source.h"

/* A capture frame longer than this is damage, not a data set (the DCSS limit is 2 GB). */
#define CAP_MAX_SET (UINT32_C(1) << 30)

struct cap_state {
        struct zd_decoder *d;
        uint8_t *buf;
        size_t n, cap;
        uint64_t consumed; /* input offset of buf[0] */
        uint64_t sets;
        bool header_done, resyncing, dead;
};

void zd_capture_file_header(uint8_t out[ZD_CAP_HDR_LEN])
{
        zd_wbuf b = {out, ZD_CAP_HDR_LEN};
        memcpy(out, ZD_CAP_MAGIC, 8);
        (void)zd_put16(b, 8, ZD_CAP_VERSION);
        (void)zd_put16(b, 10, ZD_CAP_HDR_LEN);
        (void)zd_put32(b, 12, 0);
}

void zd_capture_frame_header(uint8_t out[ZD_CAP_FRAME_LEN], uint32_t len, int64_t unix_us,
                             uint32_t status)
{
        zd_wbuf b = {out, ZD_CAP_FRAME_LEN};
        (void)zd_put32(b, 0, ZD_CAP_FRAME_MAGIC);
        (void)zd_put32(b, 4, len);
        (void)zd_put64(b, 8, (uint64_t)unix_us);
        (void)zd_put32(b, 16, status);
        (void)zd_put32(b, 20, 0);
}

static int cap_detect(zd_view head)
{
        return head.n >= 8 && memcmp(head.p, ZD_CAP_MAGIC, 8) == 0 ? 100 : 0;
}

static void *cap_create(struct zd_decoder *d)
{
        struct cap_state *s = calloc(1, sizeof(*s));
        if (s)
                s->d = d;
        return s;
}

static void drop(struct cap_state *s, size_t k)
{
        zd_bytes_consume(s->buf, &s->n, k);
        s->consumed += k;
}

static void report_overflow(struct cap_state *s, uint64_t set)
{
        struct zd_pos pos = {.set = set, .offset = s->consumed};
        zd_report(s->d, ZD_E_CAP_OVERFLOW, &pos,
                  "capture frame at offset %llu: EOVERFLOW after data set %llu: monitor data "
                  "was lost between it and the next set",
                  (unsigned long long)s->consumed, (unsigned long long)set);
}

/* The file header: false while it is incomplete or once it is found unusable. */
static bool cap_header_done(struct cap_state *s)
{
        if (s->header_done)
                return true;
        if (s->n < ZD_CAP_HDR_LEN)
                return false;
        zd_view h = zd_view_make(s->buf, s->n);
        uint16_t ver = 0, hlen = 0;
        (void)zd_u16(h, 8, &ver);
        (void)zd_u16(h, 10, &hlen);
        if (memcmp(s->buf, ZD_CAP_MAGIC, 8) != 0 || ver != ZD_CAP_VERSION ||
            hlen < ZD_CAP_HDR_LEN) {
                struct zd_pos pos = {0};
                zd_report(s->d, ZD_E_CAP_HEADER, &pos,
                          "capture header: magic or version %u unknown (this build reads "
                          "version %u)",
                          (unsigned)ver, ZD_CAP_VERSION);
                s->dead = true;
                return false;
        }
        if (s->n < hlen)
                return false;
        drop(s, hlen);
        s->header_done = true;
        return true;
}

/* Decode every complete frame in the buffer. */
static void cap_drain(struct cap_state *s)
{
        struct zd_pos pos = {0};
        if (s->dead || !cap_header_done(s))
                return;
        while (s->n >= ZD_CAP_FRAME_LEN) {
                zd_view f = zd_view_make(s->buf, s->n);
                uint32_t magic = 0, len = 0;
                uint64_t t = 0;
                (void)zd_u32(f, 0, &magic);
                (void)zd_u32(f, 4, &len);
                (void)zd_u64(f, 8, &t);
                uint32_t status = 0;
                (void)zd_u32(f, 16, &status);
                if (magic != ZD_CAP_FRAME_MAGIC || len > CAP_MAX_SET) {
                        if (!s->resyncing) {
                                pos.offset = s->consumed;
                                zd_report(
                                    s->d, ZD_E_CAP_FRAME, &pos,
                                    "capture frame at offset %llu: bad magic %08X or length %u; "
                                    "scanning for the next frame",
                                    (unsigned long long)s->consumed, (unsigned)magic,
                                    (unsigned)len);
                        }
                        s->resyncing = true;
                        /* Skip straight to the next candidate magic (or keep the last 3 bytes). */
                        static const uint8_t m[4] = {0x44, 0x53, 0x45, 0x54};
                        size_t k = 1;
                        while (k + 4 <= s->n && memcmp(s->buf + k, m, 4) != 0)
                                k++;
                        drop(s, k + 4 <= s->n ? k : s->n - 3);
                        continue;
                }
                if (s->n - ZD_CAP_FRAME_LEN < len)
                        return; /* wait for the rest */
                s->resyncing = false;
                uint64_t set = s->sets++;
                zd_decode_dataset(s->d, zd_view_make(s->buf + ZD_CAP_FRAME_LEN, len), set,
                                  s->consumed + ZD_CAP_FRAME_LEN);
                /* after the set's records: the loss lies between it and the next set */
                if (status & ZD_CAP_OVERFLOW)
                        report_overflow(s, set);
                drop(s, ZD_CAP_FRAME_LEN + (size_t)len);
        }
}

static int cap_feed(void *st, zd_view b)
{
        struct cap_state *s = st;
        if (s->dead)
                return -1;
        if (!zd_bytes_append(&s->buf, &s->n, &s->cap, b))
                return -1;
        cap_drain(s);
        return s->dead ? -1 : 0;
}

static int cap_finish(void *st)
{
        struct cap_state *s = st;
        cap_drain(s);
        if (!s->dead && (s->n > 0 || !s->header_done)) {
                struct zd_pos pos = {.offset = s->consumed};
                zd_report(s->d, s->header_done ? ZD_E_CAP_TRUNCATED : ZD_E_CAP_HEADER, &pos,
                          "capture ends with %zu bytes of an incomplete %s", s->n,
                          s->header_done ? "data set (dropped)" : "file header");
        }
        s->n = 0;
        return 0;
}

static void cap_destroy(void *st)
{
        struct cap_state *s = st;
        if (s)
                free(s->buf);
        free(s);
}

const struct zd_source_ops zd_src_capture = {
    .fmt = ZD_FMT_CAPTURE,
    .name = "capture",
    .desc = "zvmmon capture of monreader data sets",
    .detect = cap_detect,
    .create = cap_create,
    .feed = cap_feed,
    .finish = cap_finish,
    .destroy = cap_destroy,
};
