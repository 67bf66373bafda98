/* SPDX-License-Identifier: MIT */
/*
 * Vectors for VB files, VM/370 Monitor tapes and AWSTAPE images, written
 * byte by byte from the documents (CA MICS 6.3, VM/370 R6 SPG App. C and
 * DA&CBL MN097-MN099: doc/facts/monitor-stream.md 8; AWSTAPE header facts),
 * never with the decoder.
 */
#ifndef TEST_VEC_HIST_H
#define TEST_VEC_HIST_H

#include <stdlib.h>

#include "vec.h"

#include "record/record.h"
#include "source/source.h"

/* 1982-06-15T10:30:00Z as a TOD clock value; its top byte is X'93'. */
#define T1982 UINT64_C(0x93E7B3C105A00000)
/* One second in TOD units. */
#define TSEC (UINT64_C(1000000) << 12)

/* EBCDIC (CP037) for the characters the vectors use, blank padded. */
static inline void ebc(uint8_t *p, const char *s, size_t len)
{
        for (size_t i = 0; i < len; i++) {
                char c = *s ? *s++ : ' ';
                uint8_t e = 0x40;
                if (c >= '0' && c <= '9')
                        e = (uint8_t)(0xF0 + (c - '0'));
                else if (c >= 'A' && c <= 'I')
                        e = (uint8_t)(0xC1 + (c - 'A'));
                else if (c >= 'J' && c <= 'R')
                        e = (uint8_t)(0xD1 + (c - 'J'));
                else if (c >= 'S' && c <= 'Z')
                        e = (uint8_t)(0xE2 + (c - 'S'));
                else if (c == '/')
                        e = 0x61;
                else if (c == ':')
                        e = 0x7A;
                p[i] = e;
        }
}

/* MNH: RECSZ(2) zeros(2) CLASS(1) CODE(2) TOD bytes 1-5. */
static inline size_t vm_hdr(uint8_t *p, uint16_t len, uint8_t cls, uint16_t code, uint64_t tod)
{
        memset(p, 0, len);
        be16(p, len);
        p[4] = cls;
        be16(p + 5, code);
        for (int i = 0; i < 5; i++)
                p[7 + i] = (uint8_t)(tod >> (48 - 8 * i));
        return len;
}

/* The tape header record, class 0 code 97: MN097 at +12 (68 bytes). */
static inline size_t vm_tape_header(uint8_t *p, uint64_t tod)
{
        vm_hdr(p, 80, 0, 97, tod);
        static const uint8_t cpuid[8] = {0x00, 0x02, 0x34, 0x56, 0x31, 0x68, 0x00, 0x00};
        memcpy(p + 12, cpuid, 8); /* version 00, serial 023456, model 3168 */
        ebc(p + 20, "REL6", 8);
        ebc(p + 28, "06/15/82", 8);
        ebc(p + 36, "10:30:00", 8);
        ebc(p + 44, "OPERATOR", 8);
        be32(p + 52, 0x0000C100); /* classes 0, 1 and 7 */
        be32(p + 56, 0x00034000);
        be32(p + 60, 0x00010000);
        be32(p + 64, 0x00F00000);
        be32(p + 68, 0x00002000);
        be32(p + 72, 0);
        be16(p + 76, 0x0000);
        be16(p + 78, 0x0001);
        return 80;
}

static inline size_t vm_trailer(uint8_t *p, uint64_t tod)
{
        vm_hdr(p, 20, 0, 98, tod);
        ebc(p + 12, "MAINT", 8);
        return 20;
}

static inline size_t vm_suspend(uint8_t *p, uint64_t tod, uint64_t at, uint32_t count)
{
        vm_hdr(p, 21, 0, 99, tod);
        for (int i = 0; i < 5; i++)
                p[12 + i] = (uint8_t)(at >> (48 - 8 * i));
        be32(p + 17, count);
        return 21;
}

/* Class 0 code 0: 4 doublewords, then 13 fullwords; counter k = base + k. */
static inline size_t vm_c0c0(uint8_t *p, uint64_t tod, uint32_t base)
{
        vm_hdr(p, 96, 0, 0, tod);
        for (int i = 0; i < 4; i++)
                be64(p + 12 + 8 * i, (UINT64_C(1000) + (uint64_t)i) << 12);
        for (int k = 0; k < 13; k++)
                be32(p + 44 + 4 * k, base + (uint32_t)k);
        return 96;
}

/* A descriptor word: length including itself, two bytes of zeros. */
static inline void dw(uint8_t *p, uint16_t len)
{
        be16(p, len);
        p[2] = p[3] = 0;
}

/* AWSTAPE chunk header: lengths little-endian, flags. */
static inline size_t aws(uint8_t *p, uint16_t cur, uint16_t prev, uint8_t f1)
{
        p[0] = (uint8_t)cur;
        p[1] = (uint8_t)(cur >> 8);
        p[2] = (uint8_t)prev;
        p[3] = (uint8_t)(prev >> 8);
        p[4] = f1;
        p[5] = 0;
        return 6;
}

/* What the handler saw. */
#define HMAX 512
struct hseen {
        size_t n;
        uint8_t fam[HMAX], dom[HMAX];
        uint16_t num[HMAX], len[HMAX];
        uint64_t tod[HMAX], off[HMAX], set[HMAX];
        size_t nerr, nint;
        int err[HMAX];
};

static inline void hseen_rec(void *ctx, const struct zd_record *r)
{
        struct hseen *s = ctx;
        if (s->n < HMAX) {
                s->fam[s->n] = r->family;
                s->dom[s->n] = r->domain;
                s->num[s->n] = r->number;
                s->len[s->n] = (uint16_t)r->rec.n;
                s->tod[s->n] = r->tod;
                s->off[s->n] = r->pos.offset;
                s->set[s->n] = r->pos.set;
                s->n++;
        }
}

static inline void hseen_err(void *ctx, const struct zd_error *e)
{
        struct hseen *s = ctx;
        if (s->nerr < HMAX)
                s->err[s->nerr++] = (int)e->kind;
}

static inline void hseen_int(void *ctx, const struct zd_record *r)
{
        (void)r;
        ((struct hseen *)ctx)->nint++;
}

static inline size_t hseen_count_err(const struct hseen *s, int kind)
{
        size_t n = 0;
        for (size_t i = 0; i < s->nerr; i++)
                n += s->err[i] == kind;
        return n;
}

/* Decode buf as fmt, fed in pieces of step bytes (0: all at once); returns the format used. */
static inline enum zd_format hdecode(enum zd_format fmt, const uint8_t *buf, size_t n, size_t step,
                                     struct hseen *s, struct zd_stats *st)
{
        memset(s, 0, sizeof(*s));
        struct zd_handler h = {s, hseen_rec, hseen_err, hseen_int};
        struct zd_stream *z = zd_stream_new(fmt, &h);
        assert_non_null(z);
        if (!step)
                step = n ? n : 1;
        for (size_t o = 0; o < n; o += step)
                zd_stream_feed(z, buf + o, n - o < step ? n - o : step);
        zd_stream_finish(z);
        enum zd_format got = zd_stream_format(z);
        if (st)
                *st = *zd_stream_stats(z);
        zd_stream_free(z);
        return got;
}

#endif
