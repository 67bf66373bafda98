/* SPDX-License-Identifier: MIT */
#include <stdlib.h>

#include "base/bytes.h"

bool zd_bytes_append(uint8_t **buf, size_t *n, size_t *cap, zd_view b)
{
        if (b.n > *cap - *n) {
                size_t c = *cap ? *cap : 65536;
                while (c - *n < b.n) {
                        if (c > SIZE_MAX / 2)
                                return false;
                        c *= 2;
                }
                uint8_t *p = realloc(*buf, c);
                if (!p)
                        return false;
                *buf = p;
                *cap = c;
        }
        if (b.n)
                memcpy(*buf + *n, b.p, b.n);
        *n += b.n;
        return true;
}

void zd_bytes_consume(uint8_t *buf, size_t *n, size_t k)
{
        if (k >= *n) {
                *n = 0;
                return;
        }
        memmove(buf, buf + k, *n - k);
        *n -= k;
}
