/* SPDX-License-Identifier: MIT */
/* The fuzz input read a byte at a time: zeros once it runs out, so every input means something. */
#ifndef FUZZ_BYTES_H
#define FUZZ_BYTES_H

#include <stddef.h>
#include <stdint.h>

struct rd {
        const uint8_t *p;
        size_t n;
};

static inline uint8_t byte(struct rd *r)
{
        if (!r->n)
                return 0;
        r->n--;
        return *r->p++;
}

#endif
