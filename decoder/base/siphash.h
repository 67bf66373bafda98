/* SPDX-License-Identifier: MIT */
/*
 * SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF",
 * INDOCRYPT 2012): a keyed pseudorandom function of a byte string, for ids
 * that a consumer takes for the names they were made of without comparing
 * the names (series ids, met_metric.c).  Without
 * the key nobody can make two inputs give one output, which the multiply
 * and fold chain of hash.h (zh_step) does not promise: a difference in the
 * top bits of one word passes through a step unmixed and can be cancelled
 * by the next word, whatever the seed.
 *
 * Incremental, so that several strings can go in one after the other (each
 * with its length first, so that ("ab", "c") and ("a", "bc") differ).
 * Words are taken little-endian, as the reference does: the same bytes give
 * the same hash on s390x and x86-64 (the test vectors check both).
 */
#ifndef ZVM_SIPHASH_H
#define ZVM_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

struct zh_sip {
        uint64_t v0, v1, v2, v3;
        uint64_t tail; /* up to 7 bytes not yet taken, the first in the low byte */
        size_t ntail;
        uint64_t len; /* bytes put so far */
};

/* A new hash under the 128-bit key (k0, k1): k0 holds key bytes 0-7, little-endian. */
void zh_sip_init(struct zh_sip *s, uint64_t k0, uint64_t k1);
void zh_sip_put(struct zh_sip *s, const void *p, size_t n);
/*
 * n as a string's length goes in (zh_sip_str) into out[5]: one byte below
 * 255, else 0xFF and four bytes, little-endian.  Returns the bytes written.
 */
size_t zh_sip_len(uint8_t *out, size_t n);
/* A string's length (zh_sip_len), then its bytes. */
void zh_sip_str(struct zh_sip *s, const char *str);
/* The hash of everything put; s is spent. */
uint64_t zh_sip_final(struct zh_sip *s);
/* The hash of n bytes at p in one call. */
uint64_t zh_sip(uint64_t k0, uint64_t k1, const void *p, size_t n);

#endif
