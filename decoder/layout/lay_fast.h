/* SPDX-License-Identifier: MIT */
/*
 * Readers compiled with their layout's table (the built-in layout files): the step
 * zl_reader_init makes of each field (layout.h, struct zl_step), written
 * inline so that a loop over a static const table, unrolled, folds every
 * step to constants.  A record that reaches every field is then read with
 * a load, a byte swap and a store a field (a mask or a shift where the
 * field needs one), without a loop, a step table or a bound.
 */
#ifndef ZD_LAY_FAST_H
#define ZD_LAY_FAST_H

#include "layout/layout.h"

/* Which bytes make field f's integer: zl_ref_make's rule, for every reader (f not NULL). */
static inline struct zl_ref zl_ref_of(const struct zl_field *f)
{
        uint32_t n = f->len < 8 ? f->len : 8;
        struct zl_ref r = {0, (uint32_t)f->off + f->len, (uint32_t)f->off + n};
        if ((unsigned)f->type < 32 && (ZL_INT_TYPES >> f->type & 1) && n)
                r.mask = n == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * n)) - 1;
        return r;
}

/* Field f's step, as zl_reader_init makes it: its bytes (zl_ref_of), a shift, a sign bit. */
static inline struct zl_step zl_step_of(const struct zl_field *f)
{
        struct zl_ref ref = zl_ref_of(f);
        uint32_t at = ref.at;
        struct zl_step s = {ref.mask, 0, ref.need, 0, 0, false};
        s.base = (uint16_t)(at >= 8 ? at - 8 : 0);
        /* a field of no bytes at offset 0 would shift by 64: it reads as 0 anyway */
        s.shift = (uint8_t)(at >= 8 || !s.mask ? 0 : (8 - at) * 8);
        s.sign = f->type == ZL_SINT && s.mask ? (s.mask >> 1) + 1 : 0;
        s.counted = f->type != ZL_RSVD;
        return s;
}

/* Step s's integer from the 8 bytes at p + s.base: (v ^ sign) - sign extends a sign bit. */
static inline uint64_t zl_step_take(struct zl_step s, const uint8_t *p)
{
        if (!s.mask)
                return 0;
        uint64_t v = zd_uN_load8(p + s.base) >> s.shift & s.mask;
        return (v ^ s.sign) - s.sign;
}

/*
 * ZL_FAST(f) defines zl_fast_f, the reader of every field of table f (its
 * whole length: a layout of a prefix of f is read by zl_reader's steps);
 * ZL_FAST_ENTRY(f) names it in a list of them (struct zl_fast).
 */
#define ZL_FAST(f)                                                                                 \
        static void zl_fast_##f(const uint8_t *p, uint64_t *u)                                     \
        {                                                                                          \
                _Pragma("GCC unroll 64") for (size_t i = 0; i < ZL_COUNT(f); i++) u[i] =           \
                    zl_step_take(zl_step_of(&f[i]), p);                                            \
        }
#define ZL_FAST_ENTRY(f) {f, ZL_COUNT(f), zl_fast_##f},

/*
 * ZL_FAST_FILE(file, TABLES): the readers of the tables TABLES(X) names,
 * and zl_fast_file, their list for lay_index.c's FAST.  A file names its
 * tables once: TABLES(X) is X(a) X(b) ...
 */
#define ZL_FAST_FILE(file, TABLES)                                                                 \
        TABLES(ZL_FAST)                                                                            \
        const struct zl_fast zl_fast_##file[] = {TABLES(ZL_FAST_ENTRY){NULL, 0, NULL}}

#endif
