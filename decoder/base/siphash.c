/* SPDX-License-Identifier: MIT */
/* SipHash-2-4 as its paper defines it; see siphash.h for why it is here. */
#include <string.h>

#include "base/siphash.h"

static inline uint64_t rotl(uint64_t x, unsigned b)
{
        return x << b | x >> (64 - b);
}

/* The state as four locals: through the struct, every store of a message byte might
 * have changed it (a byte pointer may alias anything), and each round went to memory. */
struct v4 {
        uint64_t v0, v1, v2, v3;
};

static inline void sip_round(struct v4 *v)
{
        v->v0 += v->v1;
        v->v1 = rotl(v->v1, 13) ^ v->v0;
        v->v0 = rotl(v->v0, 32);
        v->v2 += v->v3;
        v->v3 = rotl(v->v3, 16) ^ v->v2;
        v->v0 += v->v3;
        v->v3 = rotl(v->v3, 21) ^ v->v0;
        v->v2 += v->v1;
        v->v1 = rotl(v->v1, 17) ^ v->v2;
        v->v2 = rotl(v->v2, 32);
}

/* One message word: two compression rounds (the "2" of 2-4). */
static inline void absorb(struct v4 *v, uint64_t m)
{
        v->v3 ^= m;
        sip_round(v);
        sip_round(v);
        v->v0 ^= m;
}

static inline uint64_t load_le64(const uint8_t *p)
{
        uint64_t w;
        memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap64(w);
#endif
        return w;
}

void zh_sip_init(struct zh_sip *s, uint64_t k0, uint64_t k1)
{
        /* "somepseudorandomlygeneratedbytes", the paper's initial state */
        s->v0 = k0 ^ UINT64_C(0x736f6d6570736575);
        s->v1 = k1 ^ UINT64_C(0x646f72616e646f6d);
        s->v2 = k0 ^ UINT64_C(0x6c7967656e657261);
        s->v3 = k1 ^ UINT64_C(0x7465646279746573);
        s->tail = 0;
        s->ntail = 0;
        s->len = 0;
}

void zh_sip_put(struct zh_sip *s, const void *p, size_t n)
{
        const uint8_t *b = p;
        struct v4 v = {s->v0, s->v1, s->v2, s->v3};
        uint64_t tail = s->tail;
        unsigned t = (unsigned)s->ntail; /* 0-7: stays so across whole words */
        s->len += n;
        for (; n >= 8; n -= 8, b += 8) {
                uint64_t w = load_le64(b);
                if (!t) {
                        absorb(&v, w);
                        continue;
                }
                absorb(&v, tail | w << (8 * t));
                tail = w >> (64 - 8 * t);
        }
        for (; n; n--) {
                tail |= (uint64_t)*b++ << (8 * t);
                if (++t == 8) {
                        absorb(&v, tail);
                        tail = 0;
                        t = 0;
                }
        }
        s->v0 = v.v0, s->v1 = v.v1, s->v2 = v.v2, s->v3 = v.v3;
        s->tail = tail;
        s->ntail = t;
}

size_t zh_sip_len(uint8_t *out, size_t n)
{
        if (n < 0xFF) {
                out[0] = (uint8_t)n;
                return 1;
        }
        out[0] = 0xFF; /* then 4 bytes: lengths of one byte are never 0xFF, so none is read
                          as the start of another */
        for (int i = 0; i < 4; i++)
                out[1 + i] = (uint8_t)(n >> (8 * i));
        return 5;
}

void zh_sip_str(struct zh_sip *s, const char *str)
{
        size_t n = strlen(str);
        uint8_t len[5];
        zh_sip_put(s, len, zh_sip_len(len, n));
        zh_sip_put(s, str, n);
}

uint64_t zh_sip_final(struct zh_sip *s)
{
        struct v4 v = {s->v0, s->v1, s->v2, s->v3};
        /* the last word: the bytes left, and the length's low byte on top */
        absorb(&v, s->tail | s->len << 56);
        v.v2 ^= 0xff;
        for (int i = 0; i < 4; i++) /* the "4" of 2-4 */
                sip_round(&v);
        return v.v0 ^ v.v1 ^ v.v2 ^ v.v3;
}

uint64_t zh_sip(uint64_t k0, uint64_t k1, const void *p, size_t n)
{
        struct zh_sip s;
        zh_sip_init(&s, k0, k1);
        zh_sip_put(&s, p, n);
        return zh_sip_final(&s);
}
