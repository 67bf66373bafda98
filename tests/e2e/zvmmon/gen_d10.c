/* SPDX-License-Identifier: MIT */
/*
 * Test-only generator for the zvmmon end-to-end tests: capture files with
 * domain 10 records written byte by byte from the documented layouts
 * (doc/facts/monitor-stream.md 1, 4, 7; kernel-drivers.md 4; s390-tools.md;
 * decoder/source/source.h for the capture framing).  It uses only the test
 * vector helpers, never the decoder's encoders.
 *
 *   gen_d10 clean FILE      two data sets, every kind of record, no damage
 *   gen_d10 damaged FILE    one data set with lying lengths, sync, CPUs, strings
 *   gen_d10 seeds DIR       one D10 record per file (fuzz corpus)
 */
#include <stdio.h>
#include <stdlib.h>

#include "vec_appl.h"

#define TS1 (VEC_TOD_2026 + (UINT64_C(10) << 32))
#define TS2 (VEC_TOD_2026 + (UINT64_C(70) << 32))

static uint8_t set[65536];
static size_t nset;
static uint8_t recs[16384];
static size_t nrecs;
static uint32_t dcss = 0x00100000; /* frame-aligned DCSS address of recs[0] */

/* Append a record; an End-of-Frame record (D1R13) and padding when it does not fit. */
static void put(const uint8_t *r, size_t n)
{
        size_t left = 4096 - (nrecs % 4096);
        if (n > left - 20) { /* keep room for the EOF record */
                vec_hdr(recs + nrecs, 20, 1, 13, VEC_TOD_2026);
                memset(recs + nrecs + 20, 0, left - 20);
                nrecs += left;
        }
        memcpy(recs + nrecs, r, n);
        nrecs += n;
}

/* Close the record set under one MCE (4.2) and append it to the data set. */
static void mce(uint8_t type, uint8_t d0, uint8_t d1)
{
        vec_mce(set + nset, type, d0, d1, dcss, dcss + (uint32_t)nrecs - 1);
        memcpy(set + nset + 12, recs, nrecs);
        nset += 12 + nrecs;
        dcss += (uint32_t)((nrecs + 4095) / 4096 * 4096);
        nrecs = 0;
}

static void frame(FILE *f, int64_t unix_us)
{
        uint8_t h[24] = {0};
        memcpy(h, "DSET", 4);
        be32(h + 4, (uint32_t)nset);
        be64(h + 8, (uint64_t)unix_us);
        fwrite(h, 1, 24, f);
        fwrite(set, 1, nset, f);
        nset = 0;
}

static FILE *cap_open(const char *path)
{
        FILE *f = fopen(path, "wb");
        if (!f) {
                perror(path);
                exit(2);
        }
        uint8_t h[16] = {0};
        memcpy(h, "ZVMCAP\r\n", 8);
        be16(h + 8, 1);
        be16(h + 10, 16);
        fwrite(h, 1, 16, f);
        return f;
}

static uint8_t r[8192], d[8192], prod[16];

static size_t mem(const char *user, uint16_t recnum, uint64_t ts, uint32_t s1, uint32_t s2)
{
        memset(d, 0, 144);
        vec_lx_common(d, ts, s1, s2);
        for (int i = 0; i < 16; i++)
                be64(d + 16 + 8 * i, (uint64_t)(i + 1) * 1000 + (ts >> 32 & 0xFF));
        vec_lx_prodid(prod, 1, "00");
        return vec_d10(r, recnum, user, prod, d, 144);
}

static size_t os(const char *user, uint32_t ncpu, uint32_t esize, const char *mod, uint64_t ts,
                 size_t len)
{
        size_t n = vec_lx_os(d, ncpu, esize, ts);
        if (len > n) {
                memset(d + n, 0, len - n);
                n = len;
        }
        vec_lx_prodid(prod, 2, mod);
        return vec_d10(r, 2, user, prod, d, (uint16_t)n);
}

static size_t net(const char *user, uint16_t recnum, uint64_t ts)
{
        memset(d, 0, 96);
        vec_lx_common(d, ts, 3, 3);
        be32(d + 16, 2);
        for (int i = 0; i < 9; i++)
                be64(d + 24 + 8 * i, (uint64_t)(i + 1) * 100000 + (ts >> 32 & 0xFF));
        vec_lx_prodid(prod, 3, "00");
        return vec_d10(r, recnum, user, prod, d, 96);
}

static size_t lstr(uint8_t *p, const char *s)
{
        size_t n = strlen(s);
        be16(p, (uint16_t)n);
        memcpy(p + 2, s, n);
        return 2 + n;
}

/* mon_fsstatd small buffer: 589 data bytes, one file system (7.1). */
static size_t fsstat(const char *user, uint64_t unix_s)
{
        memset(d, 0, 589);
        size_t o = 12;
        o += lstr(d + o, "/dev/dasdb1");
        o += lstr(d + o, "/srv/data");
        o += lstr(d + o, "ext4");
        static const uint64_t sv[9] = {4096,   4096,   2621440, 1310720, 1179648,
                                       655360, 600000, 600000,  0x1000};
        for (int i = 0; i < 9; i++, o += 8)
                be64(d + o, sv[i]);
        be64(d, unix_s);
        be16(d + 8, (uint16_t)(o - 12));
        be16(d + 10, 12);
        vec_lnx_prodid(prod, 1, 0, 0, 0, 0);
        return vec_d10(r, 2, user, prod, d, 589);
}

/* mon_procd summary: 178 data bytes (7.2). */
static size_t procsum(const char *user, uint64_t unix_s)
{
        memset(d, 0, 178);
        uint8_t *s = d + 12;
        be64(d, unix_s);
        be16(d + 8, 166);
        be16(d + 10, 12);
        be64(s, 123456);
        be32(s + 8, 3);
        memcpy(s + 12, "0.42", 4);
        memcpy(s + 18, "0.30", 4);
        memcpy(s + 24, "0.25", 4);
        static const uint32_t task[5] = {180, 2, 170, 0, 1};
        for (int i = 0; i < 5; i++)
                be32(s + 30 + 4 * i, task[i]);
        be32(s + 50, 2);
        static const uint16_t cpu[8] = {1250, 0, 430, 8200, 20, 5, 10, 85};
        for (int i = 0; i < 8; i++)
                be16(s + 54 + 2 * i, cpu[i]);
        static const uint64_t mem6[12] = {4036988, 1200000, 2836988, 120000, 5500, 9100,
                                          1048572, 0,       1048572, 800000, 0,    0};
        for (int i = 0; i < 12; i++)
                be64(s + 70 + 8 * i, mem6[i]);
        vec_lnx_prodid(prod, 2, 0, 0, 0, 0);
        return vec_d10(r, 2, user, prod, d, 178);
}

/* mon_procd task, small buffer: 499 data bytes (7.2). */
static size_t proctask(const char *user, uint64_t unix_s, uint16_t mod)
{
        memset(d, 0, 499);
        uint8_t *t = d + 12;
        be32(t, 4711);
        be32(t + 4, 1);
        be32(t + 8, 0);
        be16(t + 14, 20);
        be16(t + 16, 0);
        be32(t + 18, 1);
        be16(t + 22, 150);
        be16(t + 24, 33);
        be64(t + 26, 9000);
        be64(t + 34, 9100);
        be64(t + 42, 250000);
        be64(t + 50, 200000);
        be64(t + 58, 50000);
        be64(t + 66, 400);
        be64(t + 74, 30000);
        be64(t + 82, 8000);
        be64(t + 90, 0);
        be64(t + 98, 12);
        t[106] = 'S';
        be32(t + 107, 0x00400100);
        size_t o = 111;
        o += lstr(t + o, "root");
        o += lstr(t + o, "root");
        o += lstr(t + o, "root");
        o += lstr(t + o, "poll_schedule_timeout");
        o += lstr(t + o, "sshd");
        o += lstr(t + o, "sshd: /usr/sbin/sshd -D [listener] 0 of 10-100 startups");
        be64(d, unix_s);
        be16(d + 8, (uint16_t)o);
        be16(d + 10, 12);
        vec_lnx_prodid(prod, 2, 1, 0, 0, mod);
        return vec_d10(r, 2, user, prod, d, 499);
}

static size_t opaque_app(const char *user)
{
        for (int i = 0; i < 16; i++)
                d[i] = (uint8_t)(0xA0 + i);
        vec_lnx_prodid(prod, 99, 5, 1, 2, 3);
        return vec_d10(r, 2, user, prod, d, 16);
}

static size_t ibm_product(void)
{
        const char *id = "5684112SF1010100";
        for (int i = 0; i < 16; i++)
                prod[i] = vec_e(id[i]);
        memcpy(d, "\x00\x01\x02\x03\x04\x05\x06\x07", 8);
        return vec_d10(r, 2, "SFSSERV", prod, d, 8);
}

static void interval_end(void)
{
        vec_hdr(r, 20, 1, 11, TS2);
        put(r, 20);
}

static void gen_clean(const char *path)
{
        FILE *f = cap_open(path);
        /* Set 1: every kind of record once. */
        put(r, mem("LINUX01", 2, TS1, 1, 1));
        put(r, os("LINUX01", 2, 36, "01", TS1, 0));
        put(r, net("LINUX01", 2, TS1));
        put(r, os("LINUX02", 1, 28, "00", TS1, 56 + 4 * 28));
        put(r, fsstat("LINUX01", 1795305610));
        put(r, procsum("LINUX01", 1795305610));
        put(r, proctask("LINUX01", 1795305610, 0));
        put(r, opaque_app("LINUX03"));
        put(r, ibm_product());
        interval_end();
        mce(0xE2, 0x40, 0x20); /* sample: domains 1 and 10 */
        frame(f, 1795305610000000);
        /* Set 2: refreshed MEM and NET, an OS record CP sampled again unchanged (stale),
         * a guest with no CPUs online in its record, then the event at STOP. */
        put(r, mem("LINUX01", 2, TS2, 2, 2));
        put(r, os("LINUX01", 2, 36, "01", TS1, 0));
        put(r, net("LINUX01", 2, TS2));
        put(r, os("LINUX04", 0, 36, "01", TS2, 0));
        put(r, fsstat("LINUX01", 1795305670));
        interval_end();
        mce(0xE2, 0x40, 0x20);
        put(r, net("LINUX01", 1, TS2));
        mce(0xC5, 0x00, 0x20); /* event: domain 10 */
        frame(f, 1795305670000000);
        fclose(f);
}

static void gen_damaged(const char *path)
{
        FILE *f = cap_open(path);
        size_t n;
        put(r, mem("GOOD", 2, TS1, 1, 1));
        n = mem("BADOFF", 2, TS1, 1, 1);
        be16(r + 20, 10); /* CALDATOF into the header */
        put(r, n);
        n = mem("BADLEN", 2, TS1, 1, 1);
        be16(r + 22, 400); /* CALDATLN past the record */
        put(r, n);
        put(r, mem("SYNC", 2, TS1, 8, 7)); /* caught mid-update */
        n = os("CPUS", 4, 36, "01", TS1, 0);
        be32(r + 52 + 16, 5); /* one CPU more than delivered */
        put(r, n);
        n = net("SHORT", 2, TS1);
        be16(r + 22, 60); /* only 60 of 96 bytes */
        put(r, n);
        n = fsstat("FSLIE", 1795305610);
        be16(r + 52 + 12, 3000); /* fs_name longer than the data */
        put(r, n);
        n = proctask("PROCLIE", 1795305610, 0);
        be16(r + 52 + 10, 600); /* data_offset past the buffer */
        put(r, n);
        interval_end();
        mce(0xE2, 0x40, 0x20);
        frame(f, 1795305610000000);
        fclose(f);
}

static void seed(const char *dir, const char *name, size_t n)
{
        char path[512];
        snprintf(path, sizeof(path), "%s/%s", dir, name);
        FILE *f = fopen(path, "wb");
        if (!f) {
                perror(path);
                exit(2);
        }
        fwrite(r, 1, n, f);
        fclose(f);
}

static void gen_seeds(const char *dir)
{
        seed(dir, "mem", mem("LINUX01", 2, TS1, 1, 1));
        seed(dir, "os01", os("LINUX01", 4, 36, "01", TS1, 0));
        seed(dir, "os00", os("LINUX02", 2, 28, "00", TS1, 56 + 4 * 28));
        seed(dir, "net", net("LINUX01", 2, TS1));
        seed(dir, "fsstatd", fsstat("LINUX01", 1795305610));
        seed(dir, "procsum", procsum("LINUX01", 1795305610));
        seed(dir, "proctask", proctask("LINUX01", 1795305610, 1));
        seed(dir, "opaque", opaque_app("LINUX03"));
}

int main(int argc, char **argv)
{
        if (argc != 3) {
                fprintf(stderr, "usage: gen_d10 clean|damaged|seeds PATH\n");
                return 2;
        }
        if (!strcmp(argv[1], "clean"))
                gen_clean(argv[2]);
        else if (!strcmp(argv[1], "damaged"))
                gen_damaged(argv[2]);
        else if (!strcmp(argv[1], "seeds"))
                gen_seeds(argv[2]);
        else
                return 2;
        return 0;
}
