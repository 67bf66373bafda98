/* SPDX-License-Identifier: MIT */
#include "record/record.h"

enum zd_err_kind zd_hdr_parse(zd_view v, struct zd_hdr *h)
{
        uint8_t rsv;
        /* Every field defined on every return: a caller's error message shows them. */
        *h = (struct zd_hdr){0};
        if (!zd_u16(v, 0, &h->len))
                return ZD_E_HDR_SHORT;
        if (h->len < ZD_HDR_LEN || !zd_view_has(v, 0, ZD_HDR_LEN))
                return h->len < ZD_HDR_LEN ? ZD_E_HDR_SHORT : ZD_E_HDR_OVERRUN;
        /* All reads below are inside the 20 bytes just checked. */
        (void)zd_u16(v, 2, &h->zeros);
        (void)zd_u8(v, 4, &h->domain);
        (void)zd_u8(v, 5, &rsv);
        (void)zd_u16(v, 6, &h->number);
        (void)zd_u64(v, 8, &h->tod);
        if (h->zeros != 0)
                return ZD_E_HDR_ZEROS;
        if (h->len > v.n)
                return ZD_E_HDR_OVERRUN;
        return ZD_E_NONE;
}
