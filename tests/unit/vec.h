/* SPDX-License-Identifier: MIT */
/*
 * Test vectors are built here byte by byte from the documented layouts
 * (doc/facts), never with the encoders under test.
 */
#ifndef TEST_VEC_H
#define TEST_VEC_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static inline void be16(uint8_t *p, uint16_t v)
{
        p[0] = (uint8_t)(v >> 8);
        p[1] = (uint8_t)v;
}
static inline void be32(uint8_t *p, uint32_t v)
{
        be16(p, (uint16_t)(v >> 16));
        be16(p + 2, (uint16_t)v);
}
static inline void be64(uint8_t *p, uint64_t v)
{
        be32(p, (uint32_t)(v >> 32));
        be32(p + 4, (uint32_t)v);
}

/* MRHDR (doc/facts/monitor-stream.md 1): len, zeros, domain, reserved, record, TOD, reserved. */
static inline size_t vec_hdr(uint8_t *p, uint16_t len, uint8_t dom, uint16_t rec, uint64_t tod)
{
        memset(p, 0, 20);
        be16(p, len);
        p[4] = dom;
        be16(p + 6, rec);
        be64(p + 8, tod);
        return len;
}

/* MCE (doc/facts/monitor-stream.md 4.2): type, domain bytes, reserved, start, end (last byte). */
static inline void vec_mce(uint8_t *p, uint8_t type, uint8_t d0, uint8_t d1, uint32_t start,
                           uint32_t end)
{
        p[0] = type;
        p[1] = d0;
        p[2] = d1;
        p[3] = 0;
        be32(p + 4, start);
        be32(p + 8, end);
}

/* TOD for 2026-11-22T00:00:00Z: (1795305600 s * 10^6 + epoch offset) << 12. */
#define VEC_TOD_2026 ((UINT64_C(1795305600) * 1000000 + UINT64_C(2208988800) * 1000000) << 12)

/* A record collector for the decoder's handler. */
#define VEC_MAXREC 4096
struct vec_seen {
        size_t n;
        uint8_t dom[VEC_MAXREC];
        uint16_t rec[VEC_MAXREC];
        uint16_t len[VEC_MAXREC];
        uint32_t dcss[VEC_MAXREC];
        uint64_t off[VEC_MAXREC];
        char kind[VEC_MAXREC];
        uint64_t tod[VEC_MAXREC];
        size_t nerr;
        int err[VEC_MAXREC];
        size_t nint;
};

#endif
