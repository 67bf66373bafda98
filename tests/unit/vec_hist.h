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

/*
 * Class 0 code 0 as long as a real one: the 84 bytes of p.358, then the
 * record's last 42 bytes as p.360 lists them (five halfwords, eight
 * fullwords), with what p.359 (not found) may hold between them left zero.
 */
static inline size_t vm_c0c0_long(uint8_t *p, uint64_t tod, uint32_t base, uint16_t len)
{
        vm_c0c0(p, tod, base);
        uint8_t keep[84];
        memcpy(keep, p + 12, sizeof(keep));
        vm_hdr(p, len, 0, 0, tod);
        memcpy(p + 12, keep, sizeof(keep));
        size_t t = len - 42u;
        for (int i = 0; i < 5; i++)
                be16(p + t + 2 * i, (uint16_t)(0xEE00 + i));
        for (int i = 0; i < 8; i++)
                be32(p + t + 10 + 4 * i, 0xEEEE0000u + (uint32_t)i);
        return len;
}

/*
 * Class 0 code 1 (SPG p.360): the attached processor's four times (8 each),
 * then 19 fullwords in the page's order: external interrupts, SVCs, page
 * reads, page writes, time and spins for the system, DMKFRE, RUNLIST, timer
 * request and dispatcher queue locks, CPFRELK and CPFRESW sets, system and
 * VMBLOK lock deferrals, DMKDSPRU entries; fullword k = base + k.
 */
static inline size_t vm_c0c1(uint8_t *p, uint64_t tod, uint32_t base)
{
        vm_hdr(p, 120, 0, 1, tod);
        for (int i = 0; i < 4; i++)
                be64(p + 12 + 8 * i, (UINT64_C(2000) + (uint64_t)i) << 12);
        for (int k = 0; k < 19; k++)
                be32(p + 44 + 4 * k, base + (uint32_t)k);
        return 120;
}

/* Class 1 (DA p.47 MN10X, MN10Y): userid, line address; for MN10Y a byte count and the line. */
static inline size_t vm_c1(uint8_t *p, uint16_t code, uint64_t tod, const char *uid, uint16_t line,
                           const char *data)
{
        size_t n = data ? strlen(data) : 0;
        size_t len = vm_hdr(p, (uint16_t)(data ? 23 + n : 22), 1, code, tod);
        ebc(p + 12, uid, 8);
        be16(p + 20, line);
        if (data) {
                p[22] = (uint8_t)n;
                ebc(p + 23, data, n);
        }
        return len;
}

/*
 * Class 6 code 0 or 1 (DA p.51 MN600): the package count, then n 14-byte
 * packages: address, type, volser (6, EBCDIC), accumulated I/O count.
 */
static inline size_t vm_c6(uint8_t *p, uint16_t code, uint64_t tod, uint16_t count, size_t n,
                           const uint16_t *addr, const uint32_t *io)
{
        size_t len = vm_hdr(p, (uint16_t)(14 + 14 * n), 6, code, tod);
        be16(p + 12, count);
        for (size_t i = 0; i < n; i++) {
                uint8_t *d = p + 14 + 14 * i;
                be16(d, addr[i]);
                be16(d + 2, 0x2314);
                ebc(d + 4, "VMSYS", 6);
                be32(d + 10, io[i]);
        }
        return len;
}

/* Class 7 code 0 (DA p.53 MN700, MN700LEN X'12'): one DASD I/O request. */
static inline size_t vm_c7(uint8_t *p, uint64_t tod)
{
        vm_hdr(p, 30, 7, 0, tod);
        ebc(p + 12, "CMSUSER", 8);
        be16(p + 20, 0x0231);
        be16(p + 22, 180); /* cylinder sought */
        be16(p + 24, 40);  /* arm position */
        p[26] = 2;
        p[27] = 1;
        p[28] = 0;
        p[29] = 0x01; /* to a higher cylinder */
        return 30;
}

/* Class 8 code 2 (DA p.54 MN802HDR): the counter count, then the 4-byte device I/O counts. */
static inline size_t vm_c8(uint8_t *p, uint64_t tod, uint16_t n, const uint32_t *cnt)
{
        size_t len = vm_hdr(p, (uint16_t)(14 + 4 * n), 8, 2, tod);
        be16(p + 12, n);
        for (uint16_t i = 0; i < n; i++)
                be32(p + 14 + 4 * i, cnt[i]);
        return len;
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
