/* SPDX-License-Identifier: MIT */
/*
 * Tape images in AWSTAPE format (P/390, Hercules and other emulators): every
 * chunk of tape data is preceded by a 6-byte header
 *   +0 current chunk length   2 bytes, little-endian
 *   +2 previous chunk length  2 bytes, little-endian (0 for the first)
 *   +4 flags1  X'80' start of a block, X'40' tape mark, X'20' end of block
 *   +5 flags2  (HET: compression; AWSTAPE: zero)
 * A block over 64 KB spans chunks: the first has X'80', the last X'20', a
 * block in one chunk has both.  A tape mark is a header with length 0.  Two
 * tape marks in a row end the logical tape.  (Facts: xmi documentation
 * "Understanding Virtual Tape Files"; cctalk list, D. Wade, 2017-07-07.)
 *
 * Each block goes to the VB engine (vb.h) as one physical block; the record
 * family (VM/370 Monitor or CP records) is decided from the first data block.
 * 80-byte standard label blocks (VOL1, HDR1, EOF1, ...) are skipped.
 */
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "source/source.h"
#include "source/vb.h"

#define AWS_HDR_LEN 6
#define AWS_BOR     0x80
#define AWS_TM      0x40
#define AWS_EOR     0x20
#define AWS_HET_CMP 0x03
#define AWS_MAX_BLK (1024 * 1024)

struct aws_hdr {
        uint16_t cur, prev;
        uint8_t f1, f2;
};

struct aws_state {
        struct zd_decoder *d;
        struct zd_vb *vb;
        uint8_t *buf;
        size_t n, cap;
        uint64_t consumed;
        uint16_t last_cur;
        uint8_t *blk;
        size_t bn, bcap;
        uint64_t blk_off;
        bool in_block, dropping;
        uint64_t file;
        unsigned marks_in_row;
        bool eot, eot_reported, resyncing, resync_reported;
};

static void get_hdr(zd_view v, size_t off, struct aws_hdr *h)
{
        const uint8_t *p = v.p + off;
        h->cur = (uint16_t)(p[0] | p[1] << 8);
        h->prev = (uint16_t)(p[2] | p[3] << 8);
        h->f1 = p[4];
        h->f2 = p[5];
}

/* Flags that make sense: known bits only, tape marks empty. */
static bool hdr_sane(const struct aws_hdr *h)
{
        if (h->f1 & 0x1C)
                return false;
        if (h->f1 & AWS_TM)
                return h->cur == 0 && !(h->f1 & (AWS_BOR | AWS_EOR));
        return h->cur > 0;
}

static int aws_detect(zd_view head)
{
        size_t off = 0, chained = 0;
        uint16_t last = 0;
        while (off + AWS_HDR_LEN <= head.n && chained < 16) {
                struct aws_hdr h;
                get_hdr(head, off, &h);
                if (!hdr_sane(&h) || h.prev != last ||
                    (chained == 0 && !(h.f1 & (AWS_BOR | AWS_TM))))
                        return chained >= 2 ? 80 : 0;
                chained++;
                last = h.cur;
                off += AWS_HDR_LEN + h.cur;
        }
        if (chained >= 2 || (chained == 1 && off == head.n))
                return 95;
        return chained == 1 ? 40 : 0;
}

static void *aws_create(struct zd_decoder *d)
{
        struct aws_state *s = calloc(1, sizeof(*s));
        if (!s)
                return NULL;
        s->d = d;
        s->vb = zd_vb_new(d, -1, 1, true);
        if (!s->vb) {
                free(s);
                return NULL;
        }
        return s;
}

static bool is_label(zd_view b)
{
        /* EBCDIC VOL1 HDR1 HDR2 EOF1 EOF2 EOV1 EOV2 UHL UTL (first three letters). */
        static const uint8_t ids[][3] = {
            {0xE5, 0xD6, 0xD3}, {0xC8, 0xC4, 0xD9}, {0xC5, 0xD6, 0xC6},
            {0xC5, 0xD6, 0xE5}, {0xE4, 0xC8, 0xD3}, {0xE4, 0xE3, 0xD3},
        };
        if (b.n != 80)
                return false;
        for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
                if (memcmp(b.p, ids[i], 3) == 0)
                        return true;
        return false;
}

/* partial: the image ended before the block did (reported by the caller). */
static void block_done(struct aws_state *s, bool partial)
{
        zd_view b = zd_view_make(s->blk, s->bn);
        if (!is_label(b))
                zd_vb_block(s->vb, b, s->blk_off, partial);
        s->bn = 0;
        s->in_block = false;
}

static bool append(struct aws_state *s, zd_view data)
{
        if (s->bn + data.n > AWS_MAX_BLK)
                return false;
        if (s->bn + data.n > s->bcap) {
                size_t cap = s->bcap ? s->bcap : 65536;
                while (cap < s->bn + data.n)
                        cap *= 2;
                uint8_t *p = realloc(s->blk, cap);
                if (!p)
                        return false;
                s->blk = p;
                s->bcap = cap;
        }
        if (data.n)
                memcpy(s->blk + s->bn, data.p, data.n);
        s->bn += data.n;
        return true;
}

static void on_tape_mark(struct aws_state *s, const struct zd_pos *pos)
{
        if (s->in_block) {
                zd_report(s->d, ZD_E_AWS_SEGMENT, pos,
                          "tape mark at offset %llu inside a block (no end-of-block chunk); "
                          "the incomplete block is dropped",
                          (unsigned long long)pos->offset);
                s->in_block = false;
                s->bn = 0;
        }
        s->d->st.tapemarks++;
        zd_vb_set_file(s->vb, ++s->file);
        if (++s->marks_in_row >= 2)
                s->eot = true;
}

/* A data chunk starts a block or continues the open one.  False: it belongs to none. */
static bool chunk_in_block(struct aws_state *s, const struct aws_hdr *h, const struct zd_pos *pos)
{
        if (h->f1 & AWS_BOR) {
                if (s->in_block)
                        zd_report(s->d, ZD_E_AWS_SEGMENT, pos,
                                  "new block at offset %llu before the previous one ended; the "
                                  "incomplete block is dropped",
                                  (unsigned long long)pos->offset);
                s->in_block = true;
                s->dropping = false;
                s->bn = 0;
                s->blk_off = pos->offset + AWS_HDR_LEN;
                return true;
        }
        if (s->in_block)
                return true;
        if (!s->dropping)
                zd_report(s->d, ZD_E_AWS_SEGMENT, pos,
                          "chunk at offset %llu continues a block that never started; skipped",
                          (unsigned long long)pos->offset);
        s->dropping = !(h->f1 & AWS_EOR);
        return false;
}

/* Anything after the logical end of tape, a chunk or not, is reported once. */
static void after_eot(struct aws_state *s, const struct zd_pos *pos)
{
        if (!s->eot_reported)
                zd_report(s->d, ZD_E_TAPE_EOT, pos,
                          "data at offset %llu after two tape marks (logical end of tape) ignored",
                          (unsigned long long)pos->offset);
        s->eot_reported = true;
}

/* One chunk: header h at input offset off, its data. */
static void on_chunk(struct aws_state *s, const struct aws_hdr *h, zd_view data, uint64_t off)
{
        struct zd_pos pos = {.offset = off, .set = s->file};
        if (h->f1 & AWS_TM) {
                on_tape_mark(s, &pos);
                return;
        }
        if (s->eot) {
                after_eot(s, &pos);
                return;
        }
        s->marks_in_row = 0;
        if ((h->f1 & AWS_HET_CMP) || h->f2) {
                zd_report(s->d, ZD_E_AWS_COMPRESSED, &pos,
                          "chunk at offset %llu is compressed (flags %02X %02X: a HET image); "
                          "skipped",
                          (unsigned long long)off, h->f1, h->f2);
                s->in_block = false;
                s->bn = 0;
                return;
        }
        if (!chunk_in_block(s, h, &pos))
                return;
        if (!append(s, data)) {
                zd_report(s->d, ZD_E_AWS_SEGMENT, &pos,
                          "block starting at offset %llu grows past %d bytes; dropped",
                          (unsigned long long)s->blk_off, AWS_MAX_BLK);
                s->in_block = false;
                s->dropping = true;
                s->bn = 0;
                return;
        }
        if (h->f1 & AWS_EOR)
                block_done(s, false);
}

/* Could a chunk header start at v[0]?  -1: need more bytes. */
static int could_start(zd_view v, bool final)
{
        struct aws_hdr h, g;
        if (v.n < AWS_HDR_LEN)
                return final ? 0 : -1;
        get_hdr(v, 0, &h);
        if (!hdr_sane(&h) || h.f2)
                return 0;
        size_t next = AWS_HDR_LEN + (size_t)h.cur;
        if (v.n == next && final)
                return 1;
        if (v.n < next + AWS_HDR_LEN)
                return final ? 0 : -1;
        get_hdr(v, next, &g);
        return hdr_sane(&g) && g.prev == h.cur;
}

/* Scanning after damage: -1: need more bytes; 0: no header at v[0]; 1: one is. */
static int resync(struct aws_state *s, zd_view v, bool final)
{
        int c = could_start(v, final);
        if (c > 0) {
                s->resyncing = false;
                struct aws_hdr h;
                get_hdr(v, 0, &h);
                s->last_cur = h.prev; /* the chain starts afresh here */
        }
        return c;
}

/*
 * The chunk at v[0], zp its position: handed on, or its damage reported.
 * *took: the bytes it used up (none when its header is damaged: resyncing
 * starts there).  False: more input is needed.
 */
static bool take_chunk(struct aws_state *s, zd_view v, const struct zd_pos *zp, bool final,
                       size_t *took)
{
        unsigned long long off = zp->offset;
        *took = 0;
        if (v.n < AWS_HDR_LEN) {
                if (!final)
                        return false;
                zd_report(s->d, ZD_E_VB_TRUNCATED, zp,
                          "AWSTAPE image ends with %zu bytes, less than a block header", v.n);
                *took = v.n;
                return true;
        }
        struct aws_hdr h;
        get_hdr(v, 0, &h);
        if (!hdr_sane(&h)) {
                if (s->eot)
                        after_eot(s, zp);
                else if (!s->resync_reported)
                        zd_report(s->d, ZD_E_AWS_HEADER, zp,
                                  "AWSTAPE header at offset %llu is damaged (length %u, previous "
                                  "%u, flags %02X %02X); scanning for the next header",
                                  off, (unsigned)h.cur, (unsigned)h.prev, h.f1, h.f2);
                s->resync_reported = true;
                s->resyncing = true;
                s->in_block = false;
                s->bn = 0;
                return true;
        }
        /* Before any report: a chunk still arriving is looked at again on the next feed. */
        if (v.n - AWS_HDR_LEN < h.cur && !final)
                return false;
        if (h.prev != s->last_cur && !s->eot)
                zd_report(s->d, ZD_E_AWS_HEADER, zp,
                          "AWSTAPE header at offset %llu gives the previous chunk as %u bytes, "
                          "it was %u",
                          off, (unsigned)h.prev, (unsigned)s->last_cur);
        if (v.n - AWS_HDR_LEN < h.cur) {
                zd_report(s->d, ZD_E_VB_TRUNCATED, zp,
                          "AWSTAPE image ends inside a chunk: %u bytes announced at offset "
                          "%llu, %zu present; the whole records before the cut are decoded",
                          (unsigned)h.cur, off, v.n - AWS_HDR_LEN);
                /* The block's records up to the cut, as a plain tape's; its end is not here. */
                struct aws_hdr cut = h;
                cut.f1 &= (uint8_t)~AWS_EOR;
                if (!s->eot)
                        on_chunk(s, &cut, zd_view_tail(v, AWS_HDR_LEN), zp->offset);
                if (s->in_block)
                        block_done(s, true);
                *took = v.n;
                return true;
        }
        s->resync_reported = false;
        zd_view data;
        (void)zd_view_sub(v, AWS_HDR_LEN, h.cur, &data);
        on_chunk(s, &h, data, zp->offset);
        s->last_cur = h.cur;
        *took = AWS_HDR_LEN + (size_t)h.cur;
        return true;
}

static void drain(struct aws_state *s, bool final)
{
        zd_view all = zd_view_make(s->buf, s->n);
        size_t pos = 0, took;
        while (pos < s->n) {
                zd_view v = zd_view_tail(all, pos);
                struct zd_pos zp = {.offset = s->consumed + pos, .set = s->file};
                if (s->resyncing) {
                        int c = resync(s, v, final);
                        if (c < 0)
                                break;
                        if (c == 0) {
                                pos++;
                                continue;
                        }
                }
                if (!take_chunk(s, v, &zp, final, &took))
                        break;
                pos += took;
        }
        s->d->st.bytes += pos;
        if (pos == 0)
                return;
        zd_bytes_consume(s->buf, &s->n, pos);
        s->consumed += pos;
}

static int aws_feed(void *st, zd_view b)
{
        struct aws_state *s = st;
        if (!zd_bytes_append(&s->buf, &s->n, &s->cap, b))
                return -1;
        drain(s, false);
        return 0;
}

static int aws_finish(void *st)
{
        struct aws_state *s = st;
        drain(s, true);
        if (s->in_block) {
                struct zd_pos pos = {.offset = s->blk_off, .set = s->file};
                zd_report(s->d, ZD_E_VB_TRUNCATED, &pos,
                          "AWSTAPE image ends inside the block at offset %llu (no end-of-block "
                          "chunk); the whole records in it are decoded",
                          (unsigned long long)s->blk_off);
                block_done(s, true);
        }
        s->d->st.bytes += s->n;
        s->n = 0;
        return 0;
}

static void aws_destroy(void *st)
{
        struct aws_state *s = st;
        if (!s)
                return;
        zd_vb_free(s->vb);
        free(s->buf);
        free(s->blk);
        free(s);
}

const struct zd_source_ops zd_src_awstape = {
    .fmt = ZD_FMT_AWSTAPE,
    .name = "awstape",
    .desc = "tape image in AWSTAPE format (Hercules): VM/370 Monitor or VB monitor records",
    .detect = aws_detect,
    .create = aws_create,
    .feed = aws_feed,
    .finish = aws_finish,
    .destroy = aws_destroy,
};
