/* SPDX-License-Identifier: MIT */
/*
 * Domain 10 test vectors, written from doc/facts/monitor-stream.md 7,
 * kernel-drivers.md 3.2 and 4, s390-tools.md and IBM's APPLDATA layout page.
 * The EBCDIC here is a hand table for A-Z, 0-9 and blank, independent of
 * decoder/base/ebcdic.c.
 */
#ifndef TEST_VEC_APPL_H
#define TEST_VEC_APPL_H

#include "vec.h"

#include "record/record.h"

static inline uint8_t vec_e(char c)
{
        if (c >= 'A' && c <= 'I')
                return (uint8_t)(0xC1 + (c - 'A'));
        if (c >= 'J' && c <= 'R')
                return (uint8_t)(0xD1 + (c - 'J'));
        if (c >= 'S' && c <= 'Z')
                return (uint8_t)(0xE2 + (c - 'S'));
        if (c >= '0' && c <= '9')
                return (uint8_t)(0xF0 + (c - '0'));
        return 0x40;
}

/* 16-byte product ids (4.3): kernel EBCDIC "LINUXKRNL" rr "2601" mm, monwriter ASCII. */
static inline void vec_lx_prodid(uint8_t *p, uint8_t recnum, const char *mod)
{
        static const uint8_t k[9] = {0xD3, 0xC9, 0xD5, 0xE4, 0xE7, 0xD2, 0xD9, 0xD5, 0xD3};
        memcpy(p, k, 9);
        p[9] = recnum;
        p[10] = 0xF2, p[11] = 0xF6, p[12] = 0xF0, p[13] = 0xF1;
        p[14] = vec_e(mod[0]);
        p[15] = vec_e(mod[1]);
}

static inline void vec_lnx_prodid(uint8_t *p, uint16_t applid, uint8_t recnum, uint16_t ver,
                                  uint16_t rel, uint16_t mod)
{
        memcpy(p, "LNXAPPL", 7);
        be16(p + 7, applid);
        p[9] = recnum;
        be16(p + 10, ver);
        be16(p + 12, rel);
        be16(p + 14, mod);
}

/*
 * A D10 record (7.9): MRHDR, CALDATOF, CALDATLN, USERID (EBCDIC, blank padded),
 * product id, status, 3 reserved, then the data at offset 52.  Returns the length.
 */
static inline size_t vec_d10(uint8_t *p, uint16_t recnum, const char *userid,
                             const uint8_t prodid[16], const void *data, uint16_t dlen)
{
        uint16_t len = (uint16_t)(52 + dlen);
        vec_hdr(p, len, 10, recnum, VEC_TOD_2026);
        be16(p + 20, 52);
        be16(p + 22, dlen);
        size_t n = strlen(userid);
        for (size_t i = 0; i < 8; i++)
                p[24 + i] = i < n ? vec_e(userid[i]) : 0x40;
        memcpy(p + 32, prodid, 16);
        p[48] = 0;
        p[49] = p[50] = p[51] = 0;
        if (dlen)
                memcpy(p + 52, data, dlen);
        return len;
}

static inline struct zd_record vec_record(const uint8_t *p, size_t len)
{
        struct zd_record r;
        memset(&r, 0, sizeof(r));
        r.domain = p[4];
        r.number = (uint16_t)(p[6] << 8 | p[7]);
        r.kind = r.number == 2 ? 'S' : 'E';
        r.rec.p = p;
        r.rec.n = len;
        r.body.p = p + 20;
        r.body.n = len - 20;
        return r;
}

/* Kernel record common part (6.3): timestamp, sync_count_1, sync_count_2. */
static inline void vec_lx_common(uint8_t *d, uint64_t ts, uint32_t s1, uint32_t s2)
{
        be64(d, ts);
        be32(d + 8, s1);
        be32(d + 12, s2);
}

/*
 * OS record (6.5): header of 52 bytes, then ncpus entries of size esize from
 * offset 52.  Entry i holds user = 1000*i+1, nice +2, system +3, idle +4,
 * irq +5, softirq +6, iowait +7 and, for 36-byte entries, steal +8, cpu_id i.
 */
static inline size_t vec_lx_os(uint8_t *d, uint32_t ncpus, uint32_t esize, uint64_t ts)
{
        memset(d, 0, 52 + (size_t)ncpus * esize);
        vec_lx_common(d, ts, 7, 7);
        be32(d + 16, ncpus);
        be32(d + 20, esize);
        be32(d + 24, 52);
        be32(d + 28, 3);    /* nr_running */
        be32(d + 32, 150);  /* nr_threads */
        be32(d + 36, 1024); /* avenrun 0.5 */
        be32(d + 40, 2048); /* 1.0 */
        be32(d + 44, 5120); /* 2.5 */
        be32(d + 48, 1);    /* nr_iowait */
        for (uint32_t i = 0; i < ncpus; i++) {
                uint8_t *e = d + 52 + (size_t)i * esize;
                for (uint32_t f = 0; f < 7; f++)
                        be32(e + 4 * f, 1000 * i + f + 1);
                if (esize >= 36) {
                        be32(e + 28, 1000 * i + 8);
                        be32(e + 32, i);
                }
        }
        return 52 + (size_t)ncpus * esize;
}

#endif
