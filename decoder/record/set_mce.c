/* SPDX-License-Identifier: MIT */
#include "record/record.h"

enum zd_err_kind zd_mce_parse(zd_view v, struct zd_mce *m)
{
        *m = (struct zd_mce){0}; /* defined on every return, as zd_hdr_parse's header */
        if (!zd_view_has(v, 0, ZD_MCE_LEN))
                return ZD_E_SET_SHORT;
        (void)zd_u8(v, 0, &m->type);
        (void)zd_u8(v, 1, &m->dom0_7);
        (void)zd_u8(v, 2, &m->dom8_15);
        (void)zd_u32(v, 4, &m->start);
        (void)zd_u32(v, 8, &m->end);
        if (m->start > m->end)
                return ZD_E_MCE_RANGE;
        if (m->type != ZD_MCE_SAMPLE && m->type != ZD_MCE_EVENT)
                return ZD_E_MCE_TYPE;
        if (!m->dom0_7 && !m->dom8_15)
                return ZD_E_MCE_DOMAINS;
        return ZD_E_NONE;
}

bool zd_mce_has_domain(const struct zd_mce *m, unsigned domain)
{
        if (domain < 8)
                return m->dom0_7 >> (7 - domain) & 1;
        if (domain < 16)
                return m->dom8_15 >> (15 - domain) & 1;
        return false;
}
