/* SPDX-License-Identifier: MIT */
/*
 * decoder/base/hash.c's index over a caller's dense array: entries found
 * again after growth by doubling (zh_add), after a resize in a bigger step
 * (zh_resize, as the plugin's dispatcher grows its indexes), and after the
 * caller moved its entries (zh_remap).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/hash.h"
#include "base/siphash.h"

#define N 5000

struct arr {
        uint64_t key[N];
};

static bool key_eq(const void *ctx, size_t pos)
{
        const uint64_t *p = ctx;
        return p[0] == ((const struct arr *)(uintptr_t)p[1])->key[pos];
}

static size_t find(const struct zh_index *ix, const struct arr *a, uint64_t key)
{
        uint64_t probe[2] = {key, (uint64_t)(uintptr_t)a};
        return zh_find(ix, zh_u64(ZH_SEED, key), key_eq, probe);
}

static void fill(struct zh_index *ix, struct arr *a, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                a->key[i] = 1000 + 7 * i;
                assert_true(zh_add(ix, zh_u64(ZH_SEED, a->key[i]), i));
        }
}

static void found_after_doubling_and_resize(void **state)
{
        (void)state;
        static struct arr a;
        struct zh_index ix = {0};
        fill(&ix, &a, N);
        assert_true(ix.cap >= 2 * N);
        size_t cap = ix.cap;
        assert_false(zh_resize(&ix, cap + 1));   /* not a power of two */
        assert_false(zh_resize(&ix, 2 * N - 8)); /* would be more than half full */
        assert_int_equal(ix.cap, cap);           /* refused: unchanged */
        assert_true(zh_resize(&ix, 4 * cap));
        assert_int_equal(ix.cap, 4 * cap);
        assert_int_equal(ix.n, N);
        for (size_t i = 0; i < N; i++)
                assert_int_equal(find(&ix, &a, a.key[i]), i);
        assert_int_equal(find(&ix, &a, 3), SIZE_MAX);
        zh_free(&ix);
}

static void remapped_after_the_entries_moved(void **state)
{
        (void)state;
        static struct arr a, b;
        static uint32_t to[N];
        struct zh_index ix = {0};
        fill(&ix, &a, N);
        for (size_t i = 0; i < N; i++) { /* reversed */
                to[i] = (uint32_t)(N - 1 - i);
                b.key[to[i]] = a.key[i];
        }
        zh_remap(&ix, to);
        for (size_t i = 0; i < N; i++)
                assert_int_equal(find(&ix, &b, a.key[i]), N - 1 - i);
        zh_free(&ix);
}

/*
 * zh_mix backwards (MurmurHash3's finaliser is a bijection: each step
 * undone, the multiplications by their inverses mod 2^64), so that a test
 * can make hashes that mix to what it wants instead of searching for them.
 * Checked against zh_mix before it is trusted.
 */
static uint64_t unmix(uint64_t x)
{
        x ^= x >> 33;
        x *= UINT64_C(0x9CB4B2F8129337DB);
        x ^= x >> 33;
        x *= UINT64_C(0x4F74430C22A54005);
        return x ^ x >> 33;
}

static bool h_eq(const void *ctx, size_t pos)
{
        const uint64_t *p = ctx;
        return p[0] == ((const uint64_t *)(uintptr_t)p[1])[pos];
}

/*
 * A slot keeps 32 bits of the hash mixed with the index's seed: two hashes
 * that share them must still be told apart by the caller's comparison, at
 * every size the index passes through, and the one that is absent must stay
 * absent.
 */
static void equal_tags_told_apart(void **state)
{
        (void)state;
        struct zh_index ix = {0};
        assert_true(zh_resize(&ix, 64));
        assert_true(ix.seed != 0);
        assert_true(ix.seed == zh_secret());
        const uint64_t top = UINT64_C(0x5EED1234) << 32;
        uint64_t keys[3] = {unmix(top | 1) ^ ix.seed, 12345, unmix(top | 2) ^ ix.seed};
        assert_true(zh_mix(keys[0] ^ ix.seed) == (top | 1));
        assert_true(zh_mix(keys[2] ^ ix.seed) == (top | 2));
        for (size_t cap = 64; cap <= 1024; cap *= 4) {
                if (cap > 64)
                        assert_true(zh_resize(&ix, cap));
                for (size_t i = 0; i < 3; i++) {
                        uint64_t probe[2] = {keys[i], (uint64_t)(uintptr_t)keys};
                        if (cap == 64)
                                assert_int_equal(zh_find(&ix, keys[i], h_eq, probe), SIZE_MAX);
                        else
                                assert_int_equal(zh_find(&ix, keys[i], h_eq, probe),
                                                 i == 2 ? SIZE_MAX : i);
                }
                if (cap == 64) {
                        assert_true(zh_add(&ix, keys[0], 0));
                        assert_true(zh_add(&ix, keys[1], 1));
                }
        }
        /* the second of the pair, absent so far, has its own place */
        assert_true(zh_add(&ix, keys[2], 2));
        for (size_t i = 0; i < 3; i++) {
                uint64_t probe[2] = {keys[i], (uint64_t)(uintptr_t)keys};
                assert_int_equal(zh_find(&ix, keys[i], h_eq, probe), i);
        }
        zh_free(&ix);
}

/*
 * Keys chosen to land together: 1,000 whose place in a 4,096-slot index
 * would be slot 0 if the index mixed their hashes without its seed, as a
 * guest that knows the code could choose its product ids.  With the seed
 * they scatter: a lookup takes a probe or two, where the run they would have
 * made costs 500 on average.
 */
static void chosen_keys_do_not_cluster(void **state)
{
        (void)state;
        enum { K = 1000, CAP = 4096 };
        static uint64_t keys[K];
        for (uint64_t i = 0; i < K; i++) {
                keys[i] = unmix((i + 1) * CAP << 32 | i);
                assert_true(((zh_mix(keys[i]) >> 32) & (CAP - 1)) == 0);
        }
        struct zh_index ix = {0};
        assert_true(zh_resize(&ix, CAP));
        for (size_t i = 0; i < K; i++)
                assert_true(zh_add(&ix, keys[i], i));
        zh_count_probes(true);
        uint64_t p0 = zh_probes();
        for (size_t i = 0; i < K; i++) {
                uint64_t probe[2] = {keys[i], (uint64_t)(uintptr_t)keys};
                assert_int_equal(zh_find(&ix, keys[i], h_eq, probe), i);
        }
        double per = (double)(zh_probes() - p0) / K;
        zh_count_probes(false);
        printf("  %d chosen keys: %.2f probes a lookup\n", K, per);
        assert_true(per < 4);
        zh_free(&ix);
}

/* The name's characters up to its NUL, the first in the lowest byte, on either byte order. */
static uint64_t word8_reference(const char *s, bool *ended)
{
        uint64_t u = 0;
        size_t i;
        for (i = 0; i < 8 && s[i]; i++)
                u |= (uint64_t)(uint8_t)s[i] << (8 * i);
        *ended = i < 8;
        return u;
}

/* Every byte value at every position, with the NUL before, at or after it and none. */
static void word8_every_byte(void **state)
{
        (void)state;
        for (size_t nul = 0; nul <= 9; nul++)
                for (size_t pos = 0; pos < 9; pos++)
                        for (unsigned b = 0; b < 256; b++) {
                                char s[9];
                                for (size_t i = 0; i < 9; i++)
                                        s[i] = (char)(0xC1 + i);
                                s[pos] = (char)b;
                                if (nul < 9)
                                        s[nul] = 0;
                                bool ended, ref_ended;
                                uint64_t ref = word8_reference(s, &ref_ended);
                                assert_true(zh_word8_ended(s, &ended) == ref);
                                assert_true(ended == ref_ended);
                                assert_true(zh_word8(s) == ref);
                        }
}

/*
 * SipHash-2-4 against its authors' reference vectors: key bytes 00..0f,
 * message bytes 00, 01, ... of length n (the paper's appendix and the
 * reference code's table; here n = 0-15 and 63).
 */
static const uint64_t sip_k0 = UINT64_C(0x0706050403020100), sip_k1 = UINT64_C(0x0f0e0d0c0b0a0908);
static const uint64_t sip_vec[16] = {
    UINT64_C(0x726fdb47dd0e0e31), UINT64_C(0x74f839c593dc67fd), UINT64_C(0x0d6c8009d9a94f5a),
    UINT64_C(0x85676696d7fb7e2d), UINT64_C(0xcf2794e0277187b7), UINT64_C(0x18765564cd99a68d),
    UINT64_C(0xcbc9466e58fee3ce), UINT64_C(0xab0200f58b01d137), UINT64_C(0x93f5f5799a932462),
    UINT64_C(0x9e0082df0ba9e4b0), UINT64_C(0x7a5dbbc594ddb9f3), UINT64_C(0xf4b32f46226bada7),
    UINT64_C(0x751e8fbc860ee5fb), UINT64_C(0x14ea5627c0843d90), UINT64_C(0xf723ca908e7af2ee),
    UINT64_C(0xa129ca6149be45e5)};
static const uint64_t sip_vec63 = UINT64_C(0x958a324ceb064572);

static void siphash_reference_vectors(void **state)
{
        (void)state;
        uint8_t msg[64];
        for (int i = 0; i < 64; i++)
                msg[i] = (uint8_t)i;
        for (size_t n = 0; n < 16; n++)
                assert_true(zh_sip(sip_k0, sip_k1, msg, n) == sip_vec[n]);
        assert_true(zh_sip(sip_k0, sip_k1, msg, 63) == sip_vec63);
        /* put in three pieces, at every pair of places: the same hash */
        for (size_t a = 0; a <= 63; a++)
                for (size_t b = a; b <= 63; b++) {
                        struct zh_sip s;
                        zh_sip_init(&s, sip_k0, sip_k1);
                        zh_sip_put(&s, msg, a);
                        zh_sip_put(&s, msg + a, b - a);
                        zh_sip_put(&s, msg + b, 63 - b);
                        assert_true(zh_sip_final(&s) == sip_vec63);
                }
}

/* Strings go in with their lengths: ("ab", "c") and ("a", "bc") differ. */
static void siphash_strings_keep_their_bounds(void **state)
{
        (void)state;
        struct zh_sip x, y;
        zh_sip_init(&x, sip_k0, sip_k1);
        zh_sip_init(&y, sip_k0, sip_k1);
        zh_sip_str(&x, "ab");
        zh_sip_str(&x, "c");
        zh_sip_str(&y, "a");
        zh_sip_str(&y, "bc");
        assert_true(zh_sip_final(&x) != zh_sip_final(&y));
        /* the length in a byte, then the bytes */
        static const uint8_t abc[] = {3, 'a', 'b', 'c'};
        zh_sip_init(&x, sip_k0, sip_k1);
        zh_sip_str(&x, "abc");
        assert_true(zh_sip_final(&x) == zh_sip(sip_k0, sip_k1, abc, sizeof(abc)));
        /* from 255 on: 0xFF, then four bytes little-endian */
        char long_name[301];
        memset(long_name, 'x', 300);
        long_name[300] = '\0';
        uint8_t enc[305];
        enc[0] = 0xFF, enc[1] = 300 & 0xFF, enc[2] = 300 >> 8, enc[3] = enc[4] = 0;
        memset(enc + 5, 'x', 300);
        zh_sip_init(&x, sip_k0, sip_k1);
        zh_sip_str(&x, long_name);
        assert_true(zh_sip_final(&x) == zh_sip(sip_k0, sip_k1, enc, sizeof(enc)));
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(found_after_doubling_and_resize),
            cmocka_unit_test(remapped_after_the_entries_moved),
            cmocka_unit_test(equal_tags_told_apart),
            cmocka_unit_test(chosen_keys_do_not_cluster),
            cmocka_unit_test(word8_every_byte),
            cmocka_unit_test(siphash_reference_vectors),
            cmocka_unit_test(siphash_strings_keep_their_bounds),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
