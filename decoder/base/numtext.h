/* SPDX-License-Identifier: MIT */
/*
 * Integers and bytes as text without printf, for text written once per
 * field or per record (zvmmon dump, a record's product id, a metric's
 * instance): a format string is parsed on every call, these are not.  Every
 * integer the decoder and its programs write by hand goes through
 * zd_u64_text, so there is one loop to get right.
 */
#ifndef ZD_NUMTEXT_H
#define ZD_NUMTEXT_H

#include <stddef.h>
#include <stdint.h>

/* The most digits zd_u64_text writes: 64 bits in decimal. */
#define ZD_NUM_DIGITS 20
/* "18446744073709551615" or "-9223372036854775808", and the NUL */
#define ZD_DEC_MAX 21

/*
 * v in base 10 or 16 (upper-case digits) at out, zero-padded to at least
 * width digits (at most ZD_NUM_DIGITS), NUL-terminated; returns the number of
 * digits.  A value wider than width is written whole, never cut: a caller
 * with a fixed-width field makes sure the value fits it.
 */
static inline size_t zd_u64_text(char *out, uint64_t v, unsigned base, size_t width)
{
        static const char digit[] = "0123456789ABCDEF";
        if (v < base && width <= 1) { /* most numbers in ids and names are one digit */
                out[0] = digit[v];
                out[1] = '\0';
                return 1;
        }
        char t[ZD_NUM_DIGITS];
        size_t n = 0;
        do {
                t[n++] = digit[v % base];
                v /= base;
        } while ((v || n < width) && n < sizeof(t));
        for (size_t i = 0; i < n; i++)
                out[i] = t[n - 1 - i];
        out[n] = '\0';
        return n;
}

/* v in decimal at out (ZD_DEC_MAX bytes), NUL-terminated; returns its length. */
static inline size_t zd_dec_u64(char *out, uint64_t v)
{
        return zd_u64_text(out, v, 10, 1);
}

static inline size_t zd_dec_i64(char *out, int64_t v)
{
        if (v >= 0)
                return zd_dec_u64(out, (uint64_t)v);
        out[0] = '-';
        /* in unsigned arithmetic, so that INT64_MIN negates too */
        return 1 + zd_dec_u64(out + 1, (uint64_t)0 - (uint64_t)v);
}

/* n bytes as 2n upper-case hex digits at out (2n + 1 bytes), NUL-terminated. */
static inline void zd_hex_upper(char *out, const uint8_t *p, size_t n)
{
        static const char digit[] = "0123456789ABCDEF";
        for (size_t i = 0; i < n; i++) {
                out[2 * i] = digit[p[i] >> 4];
                out[2 * i + 1] = digit[p[i] & 0xF];
        }
        out[2 * n] = '\0';
}

#endif
