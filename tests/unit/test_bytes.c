/* SPDX-License-Identifier: MIT */
/* Byte access, EBCDIC and TOD: the layer every decoder stands on. */
#include <stdio.h>

#include "vec.h"

#include "base/ebcdic.h"
#include "base/numtext.h"
#include "base/tod.h"
#include "base/view.h"

static void view_reads_big_endian(void **state)
{
        (void)state;
        static const uint8_t b[] = {0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0, 0xFF};
        zd_view v = zd_view_make(b, sizeof(b));
        uint8_t u8;
        uint16_t u16;
        uint32_t u32;
        uint64_t u64;
        assert_true(zd_u8(v, 8, &u8));
        assert_int_equal(u8, 0xFF);
        assert_true(zd_u16(v, 1, &u16));
        assert_int_equal(u16, 0x3456);
        assert_true(zd_u32(v, 5, &u32));
        assert_int_equal(u32, 0xBCDEF0FF);
        assert_true(zd_u64(v, 0, &u64));
        assert_true(u64 == UINT64_C(0x123456789ABCDEF0));
        assert_true(zd_uN(v, 2, 3, &u64));
        assert_true(u64 == 0x56789A);
}

static void view_refuses_out_of_bounds(void **state)
{
        (void)state;
        static const uint8_t b[4] = {1, 2, 3, 4};
        zd_view v = zd_view_make(b, sizeof(b));
        uint16_t u16 = 0xAAAA;
        uint32_t u32 = 0xAAAAAAAA;
        uint64_t u64 = 7;
        zd_view s;
        assert_false(zd_u16(v, 3, &u16));
        assert_int_equal(u16, 0xAAAA); /* untouched */
        assert_false(zd_u32(v, 1, &u32));
        assert_false(zd_u64(v, 0, &u64));
        assert_false(zd_u16(v, SIZE_MAX, &u16)); /* no overflow in the check */
        assert_false(zd_view_sub(v, 2, SIZE_MAX, &s));
        assert_false(zd_uN(v, 0, 9, &u64));
        assert_false(zd_uN(v, 0, 0, &u64));
        assert_int_equal(zd_view_tail(v, 10).n, 0);
        zd_view empty = zd_view_make(NULL, 10);
        assert_int_equal(empty.n, 0);
}

/*
 * zd_uN takes most values from one 8-byte load that reaches past the field,
 * inside the view: every length at every offset of views from 1 to 20 bytes
 * against a byte at a time, and nothing read or written when it does not fit.
 */
static void view_uN_every_offset(void **state)
{
        (void)state;
        uint8_t b[20];
        for (size_t i = 0; i < sizeof(b); i++)
                b[i] = (uint8_t)(0x11 * (i + 1) ^ 0x80);
        for (size_t n = 1; n <= sizeof(b); n++)
                for (size_t off = 0; off <= n + 1; off++)
                        for (size_t len = 0; len <= 9; len++) {
                                zd_view v = zd_view_make(b, n);
                                uint64_t got = 0xA5A5, want = 0;
                                bool fits = len >= 1 && len <= 8 && off + len <= n;
                                assert_int_equal(zd_uN(v, off, len, &got), fits);
                                if (!fits) {
                                        assert_true(got == 0xA5A5);
                                        continue;
                                }
                                for (size_t i = 0; i < len; i++)
                                        want = want << 8 | b[off + i];
                                assert_true(got == want);
                        }
}

static void view_signed(void **state)
{
        (void)state;
        static const uint8_t b[] = {0xFF, 0xFE, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
        zd_view v = zd_view_make(b, sizeof(b));
        int16_t s16;
        int32_t s32;
        int64_t s64;
        assert_true(zd_s16(v, 0, &s16));
        assert_int_equal(s16, -2);
        assert_true(zd_s32(v, 2, &s32));
        assert_true(s32 == INT32_MIN);
        assert_true(zd_s64(v, 2, &s64));
        assert_true(s64 == INT64_MIN);
        assert_true(zd_sign_extend(0x7F, 8) == 127);
        assert_true(zd_sign_extend(0x80, 8) == -128);
}

static void writer_bounds(void **state)
{
        (void)state;
        uint8_t buf[4] = {0};
        zd_wbuf w = {buf, sizeof(buf)};
        assert_true(zd_put16(w, 2, 0xBEEF));
        assert_int_equal(buf[2], 0xBE);
        assert_int_equal(buf[3], 0xEF);
        assert_false(zd_put32(w, 1, 1));
        assert_false(zd_put_bytes(w, 3, "ab", 2));
}

static void ebcdic_userids(void **state)
{
        (void)state;
        /* "LINUX01 " in EBCDIC: L=D3 I=C9 N=D5 U=E4 X=E7 0=F0 1=F1 blank=40 */
        static const uint8_t uid[] = {0xD3, 0xC9, 0xD5, 0xE4, 0xE7, 0xF0, 0xF1, 0x40};
        char out[16];
        assert_int_equal(zd_ebcdic_to_utf8(zd_view_make(uid, 8), ZD_CP037, out, sizeof(out)), 7);
        assert_string_equal(out, "LINUX01");
        /* lower case and digits: a=81 z=A9 9=F9; '$'=5B '#'=7B '@'=7C in 037 */
        static const uint8_t mix[] = {0x81, 0xA9, 0xF9, 0x5B, 0x7B, 0x7C};
        zd_ebcdic_to_utf8(zd_view_make(mix, 6), ZD_CP037, out, sizeof(out));
        assert_string_equal(out, "az9$#@");
        /* all blanks trim to empty */
        static const uint8_t blanks[] = {0x40, 0x40, 0x40};
        assert_int_equal(zd_ebcdic_to_utf8(zd_view_make(blanks, 3), ZD_CP037, out, 16), 0);
        /* output is always terminated and never overruns */
        assert_int_equal(zd_ebcdic_to_utf8(zd_view_make(uid, 8), ZD_CP037, out, 4), 3);
        assert_string_equal(out, "LIN");
        /* control characters never come through */
        static const uint8_t ctl[] = {0xC1, 0x15, 0x05};
        zd_ebcdic_to_utf8(zd_view_make(ctl, 3), ZD_CP037, out, 16);
        assert_string_equal(out, "A..");
}

static void ebcdic_codepages_differ(void **state)
{
        (void)state;
        /* X'AD' is '[' in 1047 and U+00DD (Y acute, UTF-8 C3 9D) in 037. */
        static const uint8_t b[] = {0xAD};
        char out[8];
        zd_ebcdic_to_utf8(zd_view_make(b, 1), ZD_CP1047, out, sizeof(out));
        assert_string_equal(out, "[");
        zd_ebcdic_to_utf8(zd_view_make(b, 1), ZD_CP037, out, sizeof(out));
        assert_string_equal(out, "\xC3\x9D");
        uint8_t e[4];
        zd_ascii_to_ebcdic("S", ZD_CP037, e, 4);
        assert_int_equal(e[0], 0xE2);
        assert_int_equal(e[3], 0x40);
}

/* The conversion as first written, a character at a time: what the fast one must match. */
static size_t ebcdic_reference(const uint8_t *p, size_t n, enum zd_codepage cp, char *out,
                               size_t outsz)
{
        while (n > 0 && (p[n - 1] == 0x40 || p[n - 1] == 0x00))
                n--;
        size_t o = 0;
        for (size_t i = 0; i < n; i++) {
                unsigned u = zd_ebcdic_char(p[i], cp);
                if (u < 0x20 || (u >= 0x7F && u < 0xA0))
                        u = '.';
                if (u < 0x80) {
                        if (o + 1 >= outsz)
                                break;
                        out[o++] = (char)u;
                } else {
                        if (o + 2 >= outsz)
                                break;
                        out[o++] = (char)(0xC0 | u >> 6);
                        out[o++] = (char)(0x80 | (u & 0x3F));
                }
        }
        out[o] = '\0';
        return o;
}

/* Every byte of both code pages, in text of every output size, trailing blanks and NULs. */
static void ebcdic_every_byte(void **state)
{
        (void)state;
        uint8_t all[260];
        for (size_t i = 0; i < 256; i++)
                all[i] = (uint8_t)(i * 7 + 3); /* every value once, not in table order */
        all[256] = 0x40, all[257] = 0x00, all[258] = 0x40, all[259] = 0x00;
        const enum zd_codepage cps[] = {ZD_CP037, ZD_CP1047};
        for (size_t c = 0; c < 2; c++)
                for (size_t outsz = 1; outsz <= 520; outsz++) {
                        char got[520], want[520];
                        size_t n =
                            zd_ebcdic_to_utf8(zd_view_make(all, sizeof(all)), cps[c], got, outsz);
                        size_t m = ebcdic_reference(all, sizeof(all), cps[c], want, outsz);
                        assert_int_equal(n, m);
                        assert_memory_equal(got, want, m + 1);
                }
        char one[4];
        for (unsigned b = 0; b < 256; b++) {
                uint8_t x = (uint8_t)b;
                char want[4];
                for (size_t c = 0; c < 2; c++) {
                        size_t n = zd_ebcdic_to_utf8(zd_view_make(&x, 1), cps[c], one, sizeof(one));
                        assert_int_equal(n, ebcdic_reference(&x, 1, cps[c], want, sizeof(want)));
                        assert_string_equal(one, want);
                }
        }
}

/*
 * Short fields, 1 to 8 bytes (CP's names and serials), into outputs from 1 byte
 * to ample: every byte value at every position of a name, followed by blanks,
 * NULs or both, and the fields of blanks and NULs alone.
 */
static void ebcdic_short_fields(void **state)
{
        (void)state;
        const enum zd_codepage cps[] = {ZD_CP037, ZD_CP1047};
        static const uint8_t name[8] = {0xE3, 0xC3, 0xD7, 0xC9, 0xD7, 0xF0, 0xF1, 0xC1};
        static const uint8_t tails[][3] = {
            {0x40, 0x40, 0x40}, {0x00, 0x00, 0x00}, {0x40, 0x00, 0x40}, {0xC1, 0x00, 0x40}};
        const size_t sizes[] = {1, 2, 5, 8, 9, 10, 17, 64};
        for (size_t c = 0; c < 2; c++)
                for (size_t w = 1; w <= 8; w++)
                        for (size_t keep = 0; keep <= w; keep++)
                                for (size_t tl = 0; tl < 4; tl++)
                                        for (unsigned b = 0; b < 256; b++) {
                                                uint8_t u[8];
                                                for (size_t i = 0; i < w; i++)
                                                        u[i] =
                                                            i < keep ? name[i] : tails[tl][i % 3];
                                                if (keep)
                                                        u[b % keep] = (uint8_t)b;
                                                for (size_t k = 0; k < 8; k++) {
                                                        char got[64], want[64];
                                                        size_t g = zd_ebcdic_to_utf8(
                                                            zd_view_make(u, w), cps[c], got,
                                                            sizes[k]);
                                                        size_t r = ebcdic_reference(u, w, cps[c],
                                                                                    want, sizes[k]);
                                                        assert_int_equal(g, r);
                                                        assert_memory_equal(got, want, r + 1);
                                                }
                                        }
}

/*
 * A userid: 8 bytes into 9, where a character may take only one byte.  Every
 * byte value at every position among letters, and every pair in the last two
 * positions (trailing blanks and NULs, a 2-byte character that no longer fits).
 */
static void ebcdic_userid_every_byte(void **state)
{
        (void)state;
        const enum zd_codepage cps[] = {ZD_CP037, ZD_CP1047};
        static const uint8_t base[8] = {0xD3, 0xC9, 0xD5, 0xE4, 0xE7, 0xF0, 0xF0, 0xF1};
        for (size_t c = 0; c < 2; c++) {
                for (size_t pos = 0; pos < 8; pos++)
                        for (unsigned b = 0; b < 256; b++) {
                                uint8_t u[8];
                                memcpy(u, base, 8);
                                u[pos] = (uint8_t)b;
                                char got[9], want[9];
                                size_t g = zd_ebcdic_to_utf8(zd_view_make(u, 8), cps[c], got, 9);
                                size_t w = ebcdic_reference(u, 8, cps[c], want, 9);
                                assert_int_equal(g, w);
                                assert_memory_equal(got, want, w + 1);
                        }
                for (unsigned b = 0; b < 65536; b++) {
                        uint8_t u[8];
                        memcpy(u, base, 8);
                        u[6] = (uint8_t)(b >> 8);
                        u[7] = (uint8_t)b;
                        char got[9], want[9];
                        size_t g = zd_ebcdic_to_utf8(zd_view_make(u, 8), cps[c], got, 9);
                        size_t w = ebcdic_reference(u, 8, cps[c], want, 9);
                        assert_int_equal(g, w);
                        assert_memory_equal(got, want, w + 1);
                }
        }
}

/*
 * Short texts from a few telling bytes (blank, NUL, a letter, a 2-byte
 * character, a control) in every order up to 6 bytes and one order in 61
 * (co-prime to the 5 bytes, so every byte still meets every position) from 7
 * to 9, and 10 when blank runs reach a word, into every output size: blanks
 * and NULs inside a text stay, only the trailing ones go, and running out of
 * room cuts as before.  Every order up to 9 took minutes under valgrind and
 * qemu.
 */
static void ebcdic_blanks_and_room(void **state)
{
        (void)state;
        static const uint8_t alpha[] = {0x40, 0x00, 0xC1, 0x4A, 0x15};
        const enum zd_codepage cps[] = {ZD_CP037, ZD_CP1047};
        uint8_t p[20];
        for (size_t len = 0; len <= 9; len++) {
                size_t combos = 1;
                for (size_t i = 0; i < len; i++)
                        combos *= sizeof(alpha);
                for (size_t k = 0; k < combos; k += len <= 6 ? 1 : 61) {
                        size_t x = k;
                        for (size_t i = 0; i < len; i++, x /= sizeof(alpha))
                                p[i] = alpha[x % sizeof(alpha)];
                        /* and the same followed by 10 blanks/NULs: whole words of them */
                        for (size_t pad = 0; pad <= 10; pad += 10) {
                                for (size_t i = 0; i < pad; i++)
                                        p[len + i] = i % 3 ? 0x40 : 0x00;
                                for (size_t c = 0; c < 2; c++)
                                        for (size_t outsz = 1; outsz <= 2 * (len + pad) + 2;
                                             outsz++) {
                                                char got[48], want[48];
                                                size_t g = zd_ebcdic_to_utf8(
                                                    zd_view_make(p, len + pad), cps[c], got, outsz);
                                                size_t w = ebcdic_reference(p, len + pad, cps[c],
                                                                            want, outsz);
                                                assert_int_equal(g, w);
                                                assert_memory_equal(got, want, w + 1);
                                        }
                        }
                }
        }
}

static void tod_conversions(void **state)
{
        (void)state;
        assert_true(zd_tod_to_unix_us(UINT64_C(0x7D91048BCA000000)) == 0);
        assert_true(zd_tod_to_unix_us(VEC_TOD_2026) == INT64_C(1795305600) * 1000000);
        assert_true(zd_unix_us_to_tod(INT64_C(1795305600) * 1000000) == VEC_TOD_2026);
        /* one microsecond is 4096 TOD units (bit 51) */
        assert_true(zd_tod_to_unix_us(VEC_TOD_2026 + UINT64_C(4096) * 1500000) ==
                    INT64_C(1795305600) * 1000000 + 1500000);
        char iso[40];
        assert_true(zd_tod_to_iso8601(VEC_TOD_2026 + UINT64_C(4096) * 1500000, iso, sizeof(iso)));
        assert_string_equal(iso, "2026-11-22T00:00:01.500000Z");
        assert_true(zd_tod_to_unix_us(0) < 0); /* 1900 */
        assert_true(zd_tod_to_iso8601(0, iso, sizeof(iso)));
        assert_string_equal(iso, "1900-01-01T00:00:00.000000Z");
        assert_false(zd_tod_to_iso8601(VEC_TOD_2026, iso, 10));
        assert_false(zd_tod_to_iso8601(VEC_TOD_2026, iso, 27)); /* one short of the NUL */
        /* the last microsecond of 2026: 1798761599.999999 s after the Unix epoch */
        assert_true(zd_tod_to_iso8601(zd_unix_us_to_tod(INT64_C(1798761599999999)), iso, 28));
        assert_string_equal(iso, "2026-12-31T23:59:59.999999Z");
        /* the TOD clock's last value (Principles of Operation: it wraps in September 2042) */
        assert_true(zd_tod_to_iso8601(UINT64_MAX, iso, sizeof(iso)));
        assert_string_equal(iso, "2042-09-17T23:53:47.370495Z");
}

/* Integers and bytes as text (numtext.h), against what printf's %llu, %lld and %02X write. */
static void numbers_as_text(void **state)
{
        (void)state;
        char b[ZD_DEC_MAX];
        assert_int_equal(zd_dec_u64(b, 0), 1);
        assert_string_equal(b, "0");
        assert_int_equal(zd_dec_u64(b, 10), 2);
        assert_string_equal(b, "10");
        assert_int_equal(zd_dec_u64(b, UINT64_MAX), 20);
        assert_string_equal(b, "18446744073709551615");
        assert_int_equal(zd_dec_i64(b, -1), 2);
        assert_string_equal(b, "-1");
        assert_int_equal(zd_dec_i64(b, INT64_MIN), 20);
        assert_string_equal(b, "-9223372036854775808");
        assert_int_equal(zd_dec_i64(b, INT64_MAX), 19);
        assert_string_equal(b, "9223372036854775807");
        /* widths and hex, as %0*llu and %0*llX write them */
        assert_int_equal(zd_u64_text(b, 7, 10, 4), 4);
        assert_string_equal(b, "0007");
        assert_int_equal(zd_u64_text(b, 12345, 10, 2), 5); /* wider than width: whole */
        assert_string_equal(b, "12345");
        assert_int_equal(zd_u64_text(b, 0, 10, 0), 1);
        assert_string_equal(b, "0");
        assert_int_equal(zd_u64_text(b, 0xAB, 16, 4), 4);
        assert_string_equal(b, "00AB");
        assert_int_equal(zd_u64_text(b, 0x1F00D, 16, 4), 5);
        assert_string_equal(b, "1F00D");
        assert_int_equal(zd_u64_text(b, UINT64_MAX, 16, 1), 16);
        assert_string_equal(b, "FFFFFFFFFFFFFFFF");
        assert_int_equal(zd_u64_text(b, 1, 10, ZD_NUM_DIGITS), 20);
        assert_string_equal(b, "00000000000000000001");
        for (uint64_t v = 1, k = 0; k < 64; k++, v = v * 3 + k) {
                char want[ZD_DEC_MAX];
                snprintf(want, sizeof(want), "%06llu", (unsigned long long)v);
                zd_u64_text(b, v, 10, 6);
                assert_string_equal(b, want);
                snprintf(want, sizeof(want), "%04llX", (unsigned long long)v);
                zd_u64_text(b, v, 16, 4);
                assert_string_equal(b, want);
        }
        char h[9];
        static const uint8_t bytes[4] = {0x00, 0x9F, 0xA0, 0xFF};
        zd_hex_upper(h, bytes, 4);
        assert_string_equal(h, "009FA0FF");
        zd_hex_upper(h, bytes, 0);
        assert_string_equal(h, "");
}

static void cputimer_deltas(void **state)
{
        (void)state;
        /* counting up: 2 s of CPU */
        assert_true(zd_cputimer_delta_us(4096 * 1000, UINT64_C(4096) * 2001000, false,
                                         UINT64_MAX) == 2000000);
        /* counting down from near X'7FFFFFFF00000000', as SYTPRP's PFXPRBTM does */
        uint64_t start = UINT64_C(0x7FFFFFFF00000000);
        assert_true(zd_cputimer_delta_us(start, start - 4096 * 750, true, UINT64_MAX) == 750);
        /* a counting-up timer that wrapped past 2^64 */
        assert_true(zd_cputimer_delta_us(UINT64_MAX - 4095, 4096, false, UINT64_MAX) == 2);
        /* a reset (timer went backwards) is refused, not reported as 2^52 us */
        assert_true(zd_cputimer_delta_us(4096 * 100, 4096 * 50, false, 3600000000ull) == -1);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(view_reads_big_endian),
            cmocka_unit_test(view_refuses_out_of_bounds),
            cmocka_unit_test(view_signed),
            cmocka_unit_test(writer_bounds),
            cmocka_unit_test(ebcdic_userids),
            cmocka_unit_test(ebcdic_codepages_differ),
            cmocka_unit_test(tod_conversions),
            cmocka_unit_test(numbers_as_text),
            cmocka_unit_test(cputimer_deltas),
            cmocka_unit_test(view_uN_every_offset),
            cmocka_unit_test(ebcdic_every_byte),
            cmocka_unit_test(ebcdic_blanks_and_room),
            cmocka_unit_test(ebcdic_userid_every_byte),
            cmocka_unit_test(ebcdic_short_fields),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
