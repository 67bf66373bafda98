/* SPDX-License-Identifier: MIT */
/*
 * Integers and bytes as text without printf: zvmmon dump writes every
 * field of every record, and snprintf's parsing of its format was a fifth
 * of the dump's instructions.
 */
#ifndef ZD_NUMTEXT_H
#define ZD_NUMTEXT_H

#include <stddef.h>
#include <stdint.h>

/* "18446744073709551615" or "-9223372036854775808", and the NUL */
#define ZD_DEC_MAX 21

/* v in decimal at out (ZD_DEC_MAX bytes), NUL-terminated; returns its length. */
static inline size_t zd_dec_u64(char *out, uint64_t v)
{
        char t[20];
        size_t n = 0;
        do {
                t[n++] = (char)('0' + v % 10);
                v /= 10;
        } while (v);
        for (size_t i = 0; i < n; i++)
                out[i] = t[n - 1 - i];
        out[n] = '\0';
        return n;
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
