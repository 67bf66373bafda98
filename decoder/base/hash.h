/* SPDX-License-Identifier: MIT */
/*
 * One hash and one hash index for every table that grows with the monitored
 * system (guests, devices, series, writers' buffers), so that the work per
 * record and per value stays the same at 50 guests and at 50,000.
 *
 * The index maps a 64-bit hash to a position in the caller's own array; the
 * caller keeps its entries dense and confirms a candidate with its own key
 * comparison (eq), so a hash collision costs a comparison, never a wrong
 * answer.  Every probe is counted (zh_probes) so that a test can show the
 * cost per lookup does not grow with the number of entries, without timing
 * anything.
 */
#ifndef ZD_HASH_H
#define ZD_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define ZH_SEED UINT64_C(0xCBF29CE484222325) /* FNV-1a offset basis */

/* MurmurHash3's 64-bit finaliser: every input bit reaches every output bit. */
static inline uint64_t zh_mix(uint64_t h)
{
        h ^= h >> 33;
        h *= UINT64_C(0xFF51AFD7ED558CCD);
        h ^= h >> 33;
        h *= UINT64_C(0xC4CEB9FE1A85EC53);
        return h ^ h >> 33;
}

/*
 * The set of key k in a two-way cache of 1 << bits slots (a small table of
 * answers found once, not an index): its first slot, even; the second way
 * is the slot after it.  Caches keyed by addresses meet in different slots
 * with every build, and with one way two keys asked for in turn could meet
 * and miss every time: two ways (zh_way_fill below) take any
 * such pair.  A multiplicative hash spreads keys in a row (lengths,
 * adjacent names) over the sets.
 */
static inline size_t zh_set2(uint64_t k, unsigned bits)
{
        return (size_t)((k * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - bits)) & ~(size_t)1;
}

/*
 * The one replacement rule of those caches: last[set] is the way hit last
 * (a hit stores its way there), and a miss fills the other way, returned
 * here as a slot (set + way) and noted as the latest.  Two keys asked for
 * in turn then never evict each other, and no slot is moved.
 */
static inline size_t zh_way_fill(uint8_t *last, size_t set)
{
        size_t w = !last[set];
        last[set] = (uint8_t)w;
        return set + w;
}

/* One step of the string hash: a word in, a multiply, the high half folded down. */
static inline uint64_t zh_step(uint64_t h, uint64_t w)
{
        h = (h ^ w) * UINT64_C(0x9E3779B97F4A7C15);
        return h ^ h >> 32;
}

/*
 * A string, eight bytes at a time (names are hashed for every value), then
 * its length, so that chained fields ("ab", "c") and ("a", "bc") hash apart.
 * Unfinished: chain several with zh_str_part, then zh_mix once; zh_str does
 * both for one string.  Not FNV: the finaliser spreads names that differ
 * only in their last characters ("U0000001/0", "U0000002/0") as well as any;
 * every table still confirms its keys.
 */
static inline uint64_t zh_str_part(uint64_t h, const char *s)
{
        size_t n = strlen(s), i = 0;
        for (; i + 8 <= n; i += 8) {
                uint64_t w;
                memcpy(&w, s + i, 8);
                h = zh_step(h, w);
        }
        /* The last n % 8 bytes in at most three loads of fixed size, not a loop of
           bytes: names are hashed once per value.  The value depends on the
           machine's byte order: these hashes never leave the process. */
        uint64_t w = 0;
        size_t r = n - i;
        if (r & 4) {
                uint32_t x;
                memcpy(&x, s + i, 4);
                w = x;
                i += 4;
        }
        if (r & 2) {
                uint16_t x;
                memcpy(&x, s + i, 2);
                w = w << 16 | x;
                i += 2;
        }
        if (r & 1)
                w = w << 8 | (uint8_t)s[i];
        return zh_step(h, w ^ (uint64_t)n << 56);
}

/*
 * The first 8 bytes at p as a word, without the NUL that ends a shorter
 * string there and whatever follows it: p must have 8 readable bytes (a
 * userid's char[9]), all of them set (what follows the NUL may hold
 * anything, but not nothing: valgrind follows it through the mask); ended
 * says whether the string ended within them.  A load and a mask where a
 * loop took a byte at a time.  The word depends on the byte order; it never
 * leaves the process.
 */
static inline uint64_t zh_word8_ended(const char *p, bool *ended)
{
        uint64_t w;
        memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap64(w); /* the first character in the low byte, as below */
#endif
        /* The lowest zero byte, exactly (a false mark can only sit above a true one). */
        uint64_t z = (w - UINT64_C(0x0101010101010101)) & ~w & UINT64_C(0x8080808080808080);
        *ended = z != 0;
        return z ? w & (((z & -z) >> 7) - 1) : w;
}

static inline uint64_t zh_word8(const char *p)
{
        bool ended;
        return zh_word8_ended(p, &ended);
}

static inline uint64_t zh_str(uint64_t h, const char *s)
{
        return zh_mix(zh_str_part(h, s));
}

/* FNV-1a, as published: for names that must be reproducible outside (zm_name_fit). */
static inline uint64_t zh_bytes(uint64_t h, const void *p, size_t n)
{
        const uint8_t *b = p;
        for (size_t i = 0; i < n; i++)
                h = (h ^ b[i]) * UINT64_C(0x100000001B3);
        return h;
}

static inline uint64_t zh_u64(uint64_t h, uint64_t v)
{
        return zh_mix(h ^ zh_mix(v));
}

/*
 * Eight bytes a slot: 32 bits of the mixed hash, which also say where the
 * entry lives (its home is their low bits, so a resize needs nothing else),
 * and the position.  The index of every series is the plugin's biggest
 * table, and a slot twice the size would double its memory and the page
 * faults while it grows.  Fewer hash bits cost key
 * comparisons, never answers: entries that share a home share its bits, so
 * 32 - log2(cap) bits tell them apart (10 at 4 million slots), about one
 * comparison more in a few thousand lookups.
 */
struct zh_slot {
        uint32_t tag;
        uint32_t pos; /* position + 1 in the caller's array; 0 = empty */
};

struct zh_index {
        struct zh_slot *slot;
        size_t cap; /* a power of two, at most 2^32; kept at most half full */
        size_t n;
        uint64_t seed; /* zh_secret, taken when the first slots are */
};

/*
 * A random key of this process, drawn once, never 0: mixed into every
 * index's places, and the start of the hashes over names or ids a guest
 * chooses whose tables confirm their keys (identifiers and host names in
 * the plugin, product ids in the APPLDATA tracker), so that a guest cannot
 * aim them at one place.  It does not stop a guest making two of them equal
 * (zh_step passes a difference in a word's top bits on unmixed, to be
 * cancelled by the next word's): those tables only probe longer for it.
 * An id taken for its names without comparing them is SipHash under
 * zh_secret_sip's 128-bit key instead (siphash.h).  Thread-safe.
 */
uint64_t zh_secret(void);
/* The process's SipHash key (two words), drawn with zh_secret. */
const uint64_t *zh_secret_sip(void);

/* Does the caller's entry at pos have the key being looked up? */
typedef bool (*zh_eq_fn)(const void *ctx, size_t pos);

/* The position of the entry with hash h for which eq holds, or SIZE_MAX. */
size_t zh_find(const struct zh_index *ix, uint64_t h, zh_eq_fn eq, const void *ctx);
/* Record that the caller's entry at pos has hash h; false when out of memory. */
bool zh_add(struct zh_index *ix, uint64_t h, size_t pos);
/*
 * The index in cap slots (a power of two, more than twice its entries, at
 * most 2^32), every entry put again; false when out of memory (the index is
 * unchanged).  zh_add doubles an index that is half full; a caller that
 * knows it will grow far can take bigger steps.
 */
bool zh_resize(struct zh_index *ix, size_t cap);
/* The caller's entries moved: the one at position p is now at to[p].  No rehashing. */
void zh_remap(struct zh_index *ix, const uint32_t *to);
/*
 * Room for entry n in the caller's dense array of *cap entries of size bytes,
 * doubling it when full; false when out of memory (the array is unchanged).
 */
bool zh_grow(void **arr, size_t *cap, size_t n, size_t size);
/* Forget every entry (the caller compacted or cleared its array); keeps the memory. */
void zh_clear(struct zh_index *ix);
void zh_free(struct zh_index *ix);

/* Probes made by zh_find and zh_add in this thread while counting was on (tests). */
void zh_count_probes(bool on);
uint64_t zh_probes(void);

#endif
