/* SPDX-License-Identifier: MIT */
/* Deterministic numbers: splitmix64, so a seed gives the same system everywhere. */
#include <string.h>

#include "zvmdec.h"
#include "sim.h"

uint64_t sim_mix(uint64_t x)
{
        x += UINT64_C(0x9E3779B97F4A7C15);
        x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
        x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
        return x ^ (x >> 31);
}

uint64_t sim_hash2(uint64_t a, uint64_t b)
{
        return sim_mix(a ^ sim_mix(b));
}

uint64_t sim_hash_str(const char *s)
{
        /* A digit short of FNV's offset basis, as zvmsim always had it: kept, so that
         * a seed still gives the system it gave before. */
        return sim_mix(zh_bytes(UINT64_C(1469598103934665603), s, strlen(s)));
}

uint64_t sim_rng_next(struct sim_rng *r)
{
        r->s += UINT64_C(0x9E3779B97F4A7C15);
        uint64_t x = r->s;
        x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
        x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
        return x ^ (x >> 31);
}

double sim_rng_unit(struct sim_rng *r)
{
        return (double)(sim_rng_next(r) >> 11) / 9007199254740992.0;
}

uint64_t sim_rng_below(struct sim_rng *r, uint64_t n)
{
        return n ? sim_rng_next(r) % n : 0;
}
