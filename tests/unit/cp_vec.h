/* SPDX-License-Identifier: MIT */
/* Helpers for the CP record tests: EBCDIC text by hand, field reads by name. */
#ifndef TEST_CP_VEC_H
#define TEST_CP_VEC_H

#include "vec.h"

#include "layout/layout.h"

/* CP037 for A-Z, 0-9 and blank, written out here rather than taken from ebcdic.c. */
static inline void ebc(uint8_t *p, const char *s, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                char c = *s ? *s++ : ' ';
                uint8_t b = 0x40;
                if (c >= 'A' && c <= 'I')
                        b = (uint8_t)(0xC1 + (c - 'A'));
                else if (c >= 'J' && c <= 'R')
                        b = (uint8_t)(0xD1 + (c - 'J'));
                else if (c >= 'S' && c <= 'Z')
                        b = (uint8_t)(0xE2 + (c - 'S'));
                else if (c >= '0' && c <= '9')
                        b = (uint8_t)(0xF0 + (c - '0'));
                p[i] = b;
        }
}

static inline uint64_t getu(const struct zl_layout *l, const uint8_t *rec, size_t n,
                            const char *name)
{
        uint64_t v = UINT64_C(0xDEADDEADDEADDEAD);
        if (!zl_get_u64(l, zd_view_make(rec, n), name, &v))
                fail_msg("field %s not readable from %s", name, l ? l->id : "(null)");
        return v;
}

static inline const char *gett(const struct zl_layout *l, const uint8_t *rec, size_t n,
                               const char *name, char *buf, size_t bufsz)
{
        struct zl_value v = {0};
        if (!zl_get(l, zd_view_make(rec, n), name, &v) || !v.present)
                fail_msg("field %s not readable", name);
        zl_text(&v, buf, bufsz);
        return buf;
}

static inline int provof(const struct zl_layout *l, const char *name)
{
        const struct zl_field *f = zl_field(l, name);
        if (!f)
                fail_msg("no field %s in %s", name, l->id);
        return f->prov;
}

#endif
