/* SPDX-License-Identifier: MIT */
/*
 * write_zvm records written byte by byte from doc/write_zvm.md, for the
 * format and metric tests (never with the encoder under test).
 */
#ifndef TEST_WZVM_VEC_H
#define TEST_WZVM_VEC_H

#include "vec.h"

/* One record, byte by byte: host "lnx01", two entries. */
#define REC_LEN 400
static inline size_t vec_name(uint8_t *p, const char *s)
{
        size_t n = strlen(s);
        p[0] = (uint8_t)n;
        memcpy(p + 1, s, n);
        return 1 + n;
}

static inline size_t vec_entry(uint8_t *p, uint8_t ds_type, uint8_t flags, uint8_t idx, uint8_t cnt,
                               uint64_t tod, uint64_t value, const char *pl, const char *pi,
                               const char *ty, const char *ti, const char *ds)
{
        size_t off = 24;
        off += vec_name(p + off, pl);
        off += vec_name(p + off, pi);
        off += vec_name(p + off, ty);
        off += vec_name(p + off, ti);
        off += vec_name(p + off, ds);
        be16(p, (uint16_t)off);
        p[2] = ds_type;
        p[3] = flags;
        p[4] = idx;
        p[5] = cnt;
        p[6] = p[7] = 0;
        be64(p + 8, tod);
        be64(p + 16, value);
        return off;
}

/* 0.75 as IEEE 754 binary64: sign 0, exponent 1022 (0x3FE), fraction 0x8000000000000. */
#define BITS_0_75 UINT64_C(0x3FE8000000000000)

static inline size_t vec_record(uint8_t *r)
{
        memset(r, 0, REC_LEN);
        memcpy(r, "WZVM", 4);
        r[4] = 1;                  /* version */
        r[5] = 0;                  /* flags */
        be16(r + 6, 96);           /* hdr_len */
        be64(r + 8, VEC_TOD_2026); /* timestamp */
        be32(r + 16, 7);           /* sync_count_1 */
        size_t off = 96;
        off += vec_entry(r + off, 1, 0, 0, 1, VEC_TOD_2026 - 4096, BITS_0_75, "memory", "",
                         "memory", "used", "value");
        off += vec_entry(r + off, 2, 0, 1, 2, VEC_TOD_2026, (uint64_t)-5, "interface", "eth0",
                         "if_octets", "", "tx");
        be16(r + 20, 2);             /* nentries */
        be16(r + 22, (uint16_t)off); /* used */
        be32(r + 24, 10000);         /* interval_ms */
        be16(r + 28, 3);             /* rec_index */
        be16(r + 30, 4);             /* rec_total */
        memcpy(r + 32, "lnx01", 5);  /* host, NUL padded to 64 */
        be32(r + REC_LEN - 4, 7);    /* sync_count_2 */
        return off;
}

#endif
