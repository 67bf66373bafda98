/* SPDX-License-Identifier: MIT */
#include "record/record.h"

enum zd_err_kind zd_hdr_parse(zd_view v, struct zd_hdr *h)
{
        uint64_t w;
        /* Every field defined on every return: a caller's error message shows them. */
        *h = (struct zd_hdr){0};
        if (!zd_u16(v, 0, &h->len))
                return ZD_E_HDR_SHORT;
        if (h->len < ZD_HDR_LEN || !zd_view_has(v, 0, ZD_HDR_LEN))
                return h->len < ZD_HDR_LEN ? ZD_E_HDR_SHORT : ZD_E_HDR_OVERRUN;
        /* Inside the 20 bytes just checked: length, zeros, domain, a reserved byte and
         * the number in one load, the TOD in another. */
        (void)zd_uN(v, 0, 8, &w);
        (void)zd_uN(v, 8, 8, &h->tod);
        h->zeros = (uint16_t)(w >> 32);
        h->domain = (uint8_t)(w >> 24);
        h->number = (uint16_t)w;
        if (h->zeros != 0)
                return ZD_E_HDR_ZEROS;
        if (h->len > v.n)
                return ZD_E_HDR_OVERRUN;
        return ZD_E_NONE;
}
