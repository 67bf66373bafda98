/* SPDX-License-Identifier: MIT */
/*
 * Bounds-checked big-endian access to wire data.
 *
 * Every byte that comes from z/VM (or a file claiming to come from z/VM) is
 * read through a zd_view: a pointer and a length.  Structs are never cast onto
 * buffers: the layouts are big-endian, packed and sometimes unaligned, and the
 * same code must behave identically on x86-64 and s390x.  Readers return false
 * (and leave *out untouched) instead of reading past the end.
 */
#ifndef ZD_VIEW_H
#define ZD_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct zd_view {
        const uint8_t *p;
        size_t n;
} zd_view;

static inline zd_view zd_view_make(const void *p, size_t n)
{
        zd_view v = {(const uint8_t *)p, p ? n : 0};
        return v;
}

/* True when [off, off+len) lies inside v; written so that it cannot overflow. */
static inline bool zd_view_has(zd_view v, size_t off, size_t len)
{
        return off <= v.n && len <= v.n - off;
}

static inline bool zd_view_sub(zd_view v, size_t off, size_t len, zd_view *out)
{
        if (!zd_view_has(v, off, len))
                return false;
        out->p = v.p + off;
        out->n = len;
        return true;
}

/* The tail of v from off on; empty (not an error) when off is past the end. */
static inline zd_view zd_view_tail(zd_view v, size_t off)
{
        zd_view t = {v.p + (off <= v.n ? off : v.n), off <= v.n ? v.n - off : 0};
        return t;
}

static inline bool zd_u8(zd_view v, size_t off, uint8_t *out)
{
        if (!zd_view_has(v, off, 1))
                return false;
        *out = v.p[off];
        return true;
}

static inline bool zd_u16(zd_view v, size_t off, uint16_t *out)
{
        if (!zd_view_has(v, off, 2))
                return false;
        *out = (uint16_t)((unsigned)v.p[off] << 8 | v.p[off + 1]);
        return true;
}

static inline bool zd_u32(zd_view v, size_t off, uint32_t *out)
{
        if (!zd_view_has(v, off, 4))
                return false;
        *out = (uint32_t)v.p[off] << 24 | (uint32_t)v.p[off + 1] << 16 |
               (uint32_t)v.p[off + 2] << 8 | v.p[off + 3];
        return true;
}

static inline bool zd_u64(zd_view v, size_t off, uint64_t *out)
{
        uint32_t hi, lo;
        if (!zd_u32(v, off, &hi) || !zd_u32(v, off + 4, &lo))
                return false;
        *out = (uint64_t)hi << 32 | lo;
        return true;
}

/* zd_uN's load: 8 bytes big-endian at p, already checked to lie inside the view. */
static inline uint64_t zd_uN_load8(const uint8_t *p)
{
        return (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 | (uint64_t)p[2] << 40 |
               (uint64_t)p[3] << 32 | (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 |
               (uint64_t)p[6] << 8 | p[7];
}

/* 4 bytes big-endian at p, already checked to lie inside the view. */
static inline uint32_t zd_uN_load4(const uint8_t *p)
{
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/*
 * An unsigned big-endian integer of 1 to 8 bytes (3-byte serials, 5-byte clocks).
 * Layouts read every field through here.  A byte-wise loop costs a dependent
 * shift per byte, so when the view holds the 8 bytes that end with the field
 * (any field 8 bytes or more into a record), or those that start with it,
 * one 8-byte load is made and the bytes outside the field are masked or
 * shifted away: still only bytes inside the view are read.
 */
static inline bool zd_uN(zd_view v, size_t off, size_t len, uint64_t *out)
{
        if (len < 1 || len > 8 || !zd_view_has(v, off, len))
                return false;
        if (off + len >= 8) {
                *out = zd_uN_load8(v.p + off + len - 8) & ~(uint64_t)0 >> (8 - len) * 8;
                return true;
        }
        if (v.n - off >= 8) {
                *out = zd_uN_load8(v.p + off) >> (8 - len) * 8;
                return true;
        }
        uint64_t x = 0;
        for (size_t i = 0; i < len; i++)
                x = x << 8 | v.p[off + i];
        *out = x;
        return true;
}

/* Two's complement without implementation-defined conversions. */
static inline int64_t zd_sign_extend(uint64_t x, unsigned bits)
{
        uint64_t mask = bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
        x &= mask;
        if (!(x >> (bits - 1) & 1))
                return (int64_t)x;
        return -(int64_t)(~x & mask) - 1;
}

static inline bool zd_s16(zd_view v, size_t off, int16_t *out)
{
        uint16_t u;
        if (!zd_u16(v, off, &u))
                return false;
        *out = (int16_t)zd_sign_extend(u, 16);
        return true;
}

static inline bool zd_s32(zd_view v, size_t off, int32_t *out)
{
        uint32_t u;
        if (!zd_u32(v, off, &u))
                return false;
        *out = (int32_t)zd_sign_extend(u, 32);
        return true;
}

static inline bool zd_s64(zd_view v, size_t off, int64_t *out)
{
        uint64_t u;
        if (!zd_u64(v, off, &u))
                return false;
        *out = zd_sign_extend(u, 64);
        return true;
}

/*
 * Writers, for the encoders (write_zvm, zvmsim, test helpers): a buffer with
 * a capacity, big-endian stores that refuse to write past it.
 */
typedef struct zd_wbuf {
        uint8_t *p;
        size_t cap;
} zd_wbuf;

static inline bool zd_put_uN(zd_wbuf b, size_t off, size_t len, uint64_t x)
{
        if (len < 1 || len > 8 || off > b.cap || len > b.cap - off)
                return false;
        for (size_t i = len; i-- > 0;) {
                b.p[off + i] = (uint8_t)(x & 0xFF);
                x >>= 8;
        }
        return true;
}

static inline bool zd_put8(zd_wbuf b, size_t off, uint8_t x)
{
        return zd_put_uN(b, off, 1, x);
}
static inline bool zd_put16(zd_wbuf b, size_t off, uint16_t x)
{
        return zd_put_uN(b, off, 2, x);
}
static inline bool zd_put32(zd_wbuf b, size_t off, uint32_t x)
{
        return zd_put_uN(b, off, 4, x);
}
static inline bool zd_put64(zd_wbuf b, size_t off, uint64_t x)
{
        return zd_put_uN(b, off, 8, x);
}
static inline bool zd_put_bytes(zd_wbuf b, size_t off, const void *src, size_t len)
{
        if (off > b.cap || len > b.cap - off)
                return false;
        if (len)
                memcpy(b.p + off, src, len);
        return true;
}

#endif
