/* SPDX-License-Identifier: MIT */
#include "base/ebcdic.h"

/*
 * EBCDIC to Unicode (Latin-1 range) for code pages 037 and 1047.  Generated
 * once from the published code page definitions; 1047 differs from 037 in
 * X'15'/X'25' (LF/NEL), X'5F', X'AD', X'B0', X'BA', X'BB' and X'BD'.
 *
 * Each entry carries NOT_ASCII when its code point is not printable ASCII,
 * so that the common case (CP's names) is converted with a load, a store
 * and an OR a character, and the bit looked at once for the whole text.
 */
#define NOT_ASCII 0x100
#define A(u)      ((uint16_t)((u) | ((u) < 0x20 || (u) > 0x7E ? NOT_ASCII : 0)))
/* A row of 16 is a high nibble. */
/* clang-format off */
static const uint16_t cp037[256] = {
    A(0x00), A(0x01), A(0x02), A(0x03), A(0x9C), A(0x09), A(0x86), A(0x7F), A(0x97), A(0x8D), A(0x8E), A(0x0B), A(0x0C), A(0x0D), A(0x0E), A(0x0F),
    A(0x10), A(0x11), A(0x12), A(0x13), A(0x9D), A(0x85), A(0x08), A(0x87), A(0x18), A(0x19), A(0x92), A(0x8F), A(0x1C), A(0x1D), A(0x1E), A(0x1F),
    A(0x80), A(0x81), A(0x82), A(0x83), A(0x84), A(0x0A), A(0x17), A(0x1B), A(0x88), A(0x89), A(0x8A), A(0x8B), A(0x8C), A(0x05), A(0x06), A(0x07),
    A(0x90), A(0x91), A(0x16), A(0x93), A(0x94), A(0x95), A(0x96), A(0x04), A(0x98), A(0x99), A(0x9A), A(0x9B), A(0x14), A(0x15), A(0x9E), A(0x1A),
    A(0x20), A(0xA0), A(0xE2), A(0xE4), A(0xE0), A(0xE1), A(0xE3), A(0xE5), A(0xE7), A(0xF1), A(0xA2), A(0x2E), A(0x3C), A(0x28), A(0x2B), A(0x7C),
    A(0x26), A(0xE9), A(0xEA), A(0xEB), A(0xE8), A(0xED), A(0xEE), A(0xEF), A(0xEC), A(0xDF), A(0x21), A(0x24), A(0x2A), A(0x29), A(0x3B), A(0xAC),
    A(0x2D), A(0x2F), A(0xC2), A(0xC4), A(0xC0), A(0xC1), A(0xC3), A(0xC5), A(0xC7), A(0xD1), A(0xA6), A(0x2C), A(0x25), A(0x5F), A(0x3E), A(0x3F),
    A(0xF8), A(0xC9), A(0xCA), A(0xCB), A(0xC8), A(0xCD), A(0xCE), A(0xCF), A(0xCC), A(0x60), A(0x3A), A(0x23), A(0x40), A(0x27), A(0x3D), A(0x22),
    A(0xD8), A(0x61), A(0x62), A(0x63), A(0x64), A(0x65), A(0x66), A(0x67), A(0x68), A(0x69), A(0xAB), A(0xBB), A(0xF0), A(0xFD), A(0xFE), A(0xB1),
    A(0xB0), A(0x6A), A(0x6B), A(0x6C), A(0x6D), A(0x6E), A(0x6F), A(0x70), A(0x71), A(0x72), A(0xAA), A(0xBA), A(0xE6), A(0xB8), A(0xC6), A(0xA4),
    A(0xB5), A(0x7E), A(0x73), A(0x74), A(0x75), A(0x76), A(0x77), A(0x78), A(0x79), A(0x7A), A(0xA1), A(0xBF), A(0xD0), A(0xDD), A(0xDE), A(0xAE),
    A(0x5E), A(0xA3), A(0xA5), A(0xB7), A(0xA9), A(0xA7), A(0xB6), A(0xBC), A(0xBD), A(0xBE), A(0x5B), A(0x5D), A(0xAF), A(0xA8), A(0xB4), A(0xD7),
    A(0x7B), A(0x41), A(0x42), A(0x43), A(0x44), A(0x45), A(0x46), A(0x47), A(0x48), A(0x49), A(0xAD), A(0xF4), A(0xF6), A(0xF2), A(0xF3), A(0xF5),
    A(0x7D), A(0x4A), A(0x4B), A(0x4C), A(0x4D), A(0x4E), A(0x4F), A(0x50), A(0x51), A(0x52), A(0xB9), A(0xFB), A(0xFC), A(0xF9), A(0xFA), A(0xFF),
    A(0x5C), A(0xF7), A(0x53), A(0x54), A(0x55), A(0x56), A(0x57), A(0x58), A(0x59), A(0x5A), A(0xB2), A(0xD4), A(0xD6), A(0xD2), A(0xD3), A(0xD5),
    A(0x30), A(0x31), A(0x32), A(0x33), A(0x34), A(0x35), A(0x36), A(0x37), A(0x38), A(0x39), A(0xB3), A(0xDB), A(0xDC), A(0xD9), A(0xDA), A(0x9F),
};
static const uint16_t cp1047[256] = {
    A(0x00), A(0x01), A(0x02), A(0x03), A(0x9C), A(0x09), A(0x86), A(0x7F), A(0x97), A(0x8D), A(0x8E), A(0x0B), A(0x0C), A(0x0D), A(0x0E), A(0x0F),
    A(0x10), A(0x11), A(0x12), A(0x13), A(0x9D), A(0x0A), A(0x08), A(0x87), A(0x18), A(0x19), A(0x92), A(0x8F), A(0x1C), A(0x1D), A(0x1E), A(0x1F),
    A(0x80), A(0x81), A(0x82), A(0x83), A(0x84), A(0x85), A(0x17), A(0x1B), A(0x88), A(0x89), A(0x8A), A(0x8B), A(0x8C), A(0x05), A(0x06), A(0x07),
    A(0x90), A(0x91), A(0x16), A(0x93), A(0x94), A(0x95), A(0x96), A(0x04), A(0x98), A(0x99), A(0x9A), A(0x9B), A(0x14), A(0x15), A(0x9E), A(0x1A),
    A(0x20), A(0xA0), A(0xE2), A(0xE4), A(0xE0), A(0xE1), A(0xE3), A(0xE5), A(0xE7), A(0xF1), A(0xA2), A(0x2E), A(0x3C), A(0x28), A(0x2B), A(0x7C),
    A(0x26), A(0xE9), A(0xEA), A(0xEB), A(0xE8), A(0xED), A(0xEE), A(0xEF), A(0xEC), A(0xDF), A(0x21), A(0x24), A(0x2A), A(0x29), A(0x3B), A(0x5E),
    A(0x2D), A(0x2F), A(0xC2), A(0xC4), A(0xC0), A(0xC1), A(0xC3), A(0xC5), A(0xC7), A(0xD1), A(0xA6), A(0x2C), A(0x25), A(0x5F), A(0x3E), A(0x3F),
    A(0xF8), A(0xC9), A(0xCA), A(0xCB), A(0xC8), A(0xCD), A(0xCE), A(0xCF), A(0xCC), A(0x60), A(0x3A), A(0x23), A(0x40), A(0x27), A(0x3D), A(0x22),
    A(0xD8), A(0x61), A(0x62), A(0x63), A(0x64), A(0x65), A(0x66), A(0x67), A(0x68), A(0x69), A(0xAB), A(0xBB), A(0xF0), A(0xFD), A(0xFE), A(0xB1),
    A(0xB0), A(0x6A), A(0x6B), A(0x6C), A(0x6D), A(0x6E), A(0x6F), A(0x70), A(0x71), A(0x72), A(0xAA), A(0xBA), A(0xE6), A(0xB8), A(0xC6), A(0xA4),
    A(0xB5), A(0x7E), A(0x73), A(0x74), A(0x75), A(0x76), A(0x77), A(0x78), A(0x79), A(0x7A), A(0xA1), A(0xBF), A(0xD0), A(0x5B), A(0xDE), A(0xAE),
    A(0xAC), A(0xA3), A(0xA5), A(0xB7), A(0xA9), A(0xA7), A(0xB6), A(0xBC), A(0xBD), A(0xBE), A(0xDD), A(0xA8), A(0xAF), A(0x5D), A(0xB4), A(0xD7),
    A(0x7B), A(0x41), A(0x42), A(0x43), A(0x44), A(0x45), A(0x46), A(0x47), A(0x48), A(0x49), A(0xAD), A(0xF4), A(0xF6), A(0xF2), A(0xF3), A(0xF5),
    A(0x7D), A(0x4A), A(0x4B), A(0x4C), A(0x4D), A(0x4E), A(0x4F), A(0x50), A(0x51), A(0x52), A(0xB9), A(0xFB), A(0xFC), A(0xF9), A(0xFA), A(0xFF),
    A(0x5C), A(0xF7), A(0x53), A(0x54), A(0x55), A(0x56), A(0x57), A(0x58), A(0x59), A(0x5A), A(0xB2), A(0xD4), A(0xD6), A(0xD2), A(0xD3), A(0xD5),
    A(0x30), A(0x31), A(0x32), A(0x33), A(0x34), A(0x35), A(0x36), A(0x37), A(0x38), A(0x39), A(0xB3), A(0xDB), A(0xDC), A(0xD9), A(0xDA), A(0x9F),
};
/* clang-format on */

unsigned zd_ebcdic_char(uint8_t c, enum zd_codepage cp)
{
        return (cp == ZD_CP1047 ? cp1047[c] : cp037[c]) & 0xFF;
}

/*
 * Every character without checking for room: the caller made sure of 2 bytes
 * per character and the NUL.
 */
static size_t convert_roomy(const uint8_t *p, size_t n, const uint16_t *t, char *out)
{
        char *o = out;
        for (const uint8_t *e = p + n; p < e; p++) {
                unsigned u = t[*p] & 0xFF;
                if (u - 0x20 < 0x7F - 0x20) {
                        *o++ = (char)u;
                } else if (u < 0xA0) {
                        *o++ = '.'; /* control characters never reach a metric name */
                } else {
                        o[0] = (char)(0xC0 | u >> 6);
                        o[1] = (char)(0x80 | (u & 0x3F));
                        o += 2;
                }
        }
        *o = '\0';
        return (size_t)(o - out);
}

/*
 * Printable ASCII only, one byte a character, with room for n and the NUL:
 * false when a character is not (out is then to be written again).
 */
static bool convert_ascii(const uint8_t *p, size_t n, const uint16_t *t, char *out)
{
        unsigned acc = 0;
        for (size_t i = 0; i < n; i++) {
                uint16_t a = t[p[i]];
                out[i] = (char)a;
                acc |= a;
        }
        out[n] = '\0';
        return !(acc & NOT_ASCII);
}

/*
 * src's length without its trailing blanks (X'40') and NULs.  X'40' and
 * X'00' are the only bytes that OR X'40' leaves X'40': in a word loaded
 * big-endian the last byte is the lowest, so the trailing zero bits of
 * (word | blanks) ^ blanks, over 8, count the trailing blanks of the word.
 */
static size_t trimmed(zd_view src)
{
        const uint64_t blanks = UINT64_C(0x4040404040404040);
        size_t n = src.n;
        for (; n >= 8; n -= 8) {
                uint64_t rest = (zd_uN_load8(src.p + n - 8) | blanks) ^ blanks;
                if (rest)
                        return n - (size_t)__builtin_ctzll(rest) / 8;
        }
        while (n > 0 && (src.p[n - 1] | 0x40) == 0x40)
                n--;
        return n;
}

/*
 * What convert_ascii did not take, with room checked: a character that needs
 * 2 bytes, a control character, a text that may not fit.  Out of line, so
 * that the fast path is a leaf with few registers to save.
 */
static __attribute__((noinline)) size_t convert_checked(const uint8_t *p, size_t n,
                                                        const uint16_t *t, char *out, size_t outsz)
{
        /* dump's buffers (4 bytes per byte) always have room for the 2 a character may take. */
        if (n < outsz / 2)
                return convert_roomy(p, n, t, out);
        size_t o = 0;
        for (size_t i = 0; i < n; i++) {
                unsigned u = t[p[i]] & 0xFF;
                if (u - 0x20 >= 0x7F - 0x20) {
                        if (u < 0x20 || (u >= 0x7F && u < 0xA0))
                                u = '.';
                        if (u >= 0x80) {
                                if (o + 2 >= outsz)
                                        break;
                                out[o++] = (char)(0xC0 | u >> 6);
                                out[o++] = (char)(0x80 | (u & 0x3F));
                                continue;
                        }
                }
                if (o + 1 >= outsz)
                        break;
                out[o++] = (char)u;
        }
        out[o] = '\0';
        return o;
}

/* The n bytes at p, 4 <= n <= 8, big-endian in the low bytes of a word: two 4-byte
 * loads that overlap where n < 8, each inside the n bytes. */
static inline uint64_t load4to8(const uint8_t *p, size_t n)
{
        return (uint64_t)zd_uN_load4(p) << (n - 4) * 8 | zd_uN_load4(p + n - 4);
}

/*
 * Character i of a name into out, its entry ORed into acc.  The empty asm keeps
 * the ORs in order: without it gcc loaded all 8 entries before the first OR and
 * held them in 8 registers, 6 of them saved and restored on every call.
 */
static inline __attribute__((always_inline)) unsigned name_char(const uint8_t *p, const uint16_t *t,
                                                                char *out, size_t i, unsigned acc)
{
        unsigned a = t[p[i]];
        out[i] = (char)a;
        acc |= a;
        __asm__("" : "+r"(acc));
        return acc;
}

/*
 * A text of 4 to 8 bytes, the width of CP's names, into room for 8 and the NUL.
 * Trimmed in the word the bytes make (X'40' and X'00' are the only bytes that
 * OR X'40' leaves X'40'), then 8 bytes converted with no loop when the field
 * is 8 wide; SIZE_MAX when a character is not printable ASCII.
 */
static inline size_t convert_short(const uint8_t *p, size_t n, const uint16_t *t, char *out)
{
        const uint64_t blanks = UINT64_C(0x4040404040404040);
        uint64_t rest = (load4to8(p, n) | blanks) ^ blanks;
        if (!rest) {
                out[0] = '\0';
                return 0;
        }
        size_t m = n - (size_t)__builtin_ctzll(rest) / 8;
        if (n < 8)
                return convert_ascii(p, m, t, out) ? m : SIZE_MAX;
        /* All 8, the trimmed ones too, so that there is no loop to leave: a blank is
         * printable, a trailing NUL is not and sends the text the slow way. */
        unsigned acc = name_char(p, t, out, 0, 0);
        acc = name_char(p, t, out, 1, acc);
        acc = name_char(p, t, out, 2, acc);
        acc = name_char(p, t, out, 3, acc);
        acc = name_char(p, t, out, 4, acc);
        acc = name_char(p, t, out, 5, acc);
        acc = name_char(p, t, out, 6, acc);
        acc = name_char(p, t, out, 7, acc);
        out[m] = '\0';
        return acc & NOT_ASCII ? SIZE_MAX : m;
}

size_t zd_ebcdic_to_utf8(zd_view src, enum zd_codepage cp, char *out, size_t outsz)
{
        if (!out || outsz == 0)
                return 0;
        /* zvmmon dump converts every text field of every record: the code page is chosen
         * once, and printable ASCII (almost every character CP writes) goes the fast way. */
        const uint16_t *t = cp == ZD_CP1047 ? cp1047 : cp037;
        if (src.n >= 4 && src.n <= 8 && outsz > 8) {
                size_t m = convert_short(src.p, src.n, t, out);
                if (m != SIZE_MAX)
                        return m;
        }
        size_t n = trimmed(src);
        if (n < outsz && convert_ascii(src.p, n, t, out))
                return n;
        return convert_checked(src.p, n, t, out, outsz);
}

void zd_ascii_to_ebcdic(const char *src, enum zd_codepage cp, uint8_t *out, size_t len)
{
        const uint16_t *t = cp == ZD_CP1047 ? cp1047 : cp037;
        size_t i = 0;
        for (; src && src[i] && i < len; i++) {
                uint8_t want = (uint8_t)src[i], code = 0x6F; /* '?' */
                for (unsigned c = 0; c < 256; c++)
                        if ((t[c] & 0xFF) == want) {
                                code = (uint8_t)c;
                                break;
                        }
                out[i] = code;
        }
        for (; i < len; i++)
                out[i] = 0x40;
}
