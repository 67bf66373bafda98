/* SPDX-License-Identifier: MIT */
/*
 * Test input for the zvm plugin's end-to-end tests, written byte by byte from
 * the documented layouts (never with the project's encoders):
 *   OUT/stream.cap       a zvmmon capture (source.h): one data set per interval
 *   OUT/stream.monwrite  the same sets as a MONWRITE file (doc/facts/monitor-stream.md 5)
 *   OUT/truth.csv        what collectd must write: identifier,time,values
 * Usage: gen OUT INTERVALS INTERVAL_SECONDS
 *
 * Per interval: D1R4 and D1R9 (first set only), then domain 10 records of
 * guests LINUX01 (MEM, OS, NET_SUM, mon_fsstatd), LINUX02 (MEM; NET_SUM with
 * a frozen stamp: reported once), LINUX03 (MEM caught mid-update: dropped),
 * then D1R11.  The guests' own stamps are 2 s before the CP header TOD.
 */
#include <stdio.h>
#include <stdlib.h>

#include "vec_appl.h"

#define DCSS_BASE 0x01000000u
#define MCA_BASE  0x00F00000u

static FILE *truth;
static const uint64_t T0 = UINT64_C(1795305600); /* 2026-11-22T00:00:00Z */

static uint64_t tod_of(double unix_s)
{
        return ((uint64_t)(unix_s * 1e6) + UINT64_C(2208988800) * 1000000) << 12;
}

static void expect(const char *host, const char *id, double t, const char *vals)
{
        fprintf(truth, "%s/%s,%.3f,%s\n", host, id, t, vals);
}

static size_t d1r4(uint8_t *p, uint64_t tod)
{
        vec_hdr(p, 184, 1, 4, tod);
        memset(p + 20, 0, 164);
        const char *id = "ZVMSIM1";
        for (int i = 0; i < 8; i++)
                p[88 + i] = vec_e(i < 7 ? id[i] : ' ');
        return 184;
}

static size_t d1r9(uint8_t *p, uint64_t tod, uint32_t interval)
{
        vec_hdr(p, 36, 1, 9, tod);
        memset(p + 20, 0, 16);
        be32(p + 20, interval); /* MTRSPR_INTERVAL, seconds */
        return 36;
}

static size_t mem(uint8_t *p, const char *guest, uint64_t tod, uint64_t ts, uint32_t s1,
                  uint32_t s2, uint64_t k, double t, bool truth_it)
{
        uint8_t d[144] = {0}, pid[16];
        vec_lx_common(d, ts, s1, s2);
        uint64_t total = 2000000, freer = 500000 + k * 1000, buf = 10000, cached = 300000 + k;
        be64(d + 16, 1000 * k + 1);
        be64(d + 24, 2000 * k + 2);
        be64(d + 32, 3 * k);
        be64(d + 40, 4 * k);
        be64(d + 56, total);
        be64(d + 64, freer);
        be64(d + 88, buf);
        be64(d + 96, cached);
        be64(d + 104, 1000000);
        be64(d + 112, 900000 - k);
        be64(d + 128, 50000 + 7 * k);
        be64(d + 136, 50 + k);
        vec_lx_prodid(pid, 1, "00");
        size_t n = vec_d10(p, 2, guest, pid, d, 144);
        be64(p + 8, tod);
        if (truth_it) {
                char host[16], v[128];
                size_t i = 0;
                for (; guest[i]; i++)
                        host[i] = (char)(guest[i] | 0x20);
                host[i] = 0;
                snprintf(v, sizeof(v), "%.6f", (double)(total - freer - buf - cached) * 1024);
                expect(host, "memory/memory-used", t, v);
                snprintf(v, sizeof(v), "%.6f", (double)freer * 1024);
                expect(host, "memory/memory-free", t, v);
                snprintf(v, sizeof(v), "%.6f", (double)cached * 1024);
                expect(host, "memory/memory-cached", t, v);
                snprintf(v, sizeof(v), "%.6f", (double)(1000000 - (900000 - k)) * 1024);
                expect(host, "swap/swap-used", t, v);
                snprintf(v, sizeof(v), "%llu,%llu", (unsigned long long)(1000 * k + 1),
                         (unsigned long long)(2000 * k + 2));
                expect(host, "vmem/vmpage_io-memory", t, v);
                snprintf(v, sizeof(v), "%llu,%llu", (unsigned long long)(50000 + 7 * k),
                         (unsigned long long)(50 + k));
                expect(host, "vmem/vmpage_faults", t, v);
                snprintf(v, sizeof(v), "%llu", (unsigned long long)(4 * k));
                expect(host, "swap/swap_io-out", t, v);
        }
        return n;
}

static size_t os(uint8_t *p, uint64_t tod, uint64_t ts, uint32_t k, double t)
{
        uint8_t d[52 + 2 * 36], pid[16];
        vec_lx_os(d, 2, 36, ts);
        be32(d + 8, k);
        be32(d + 12, k);
        be32(d + 28, 2 + k % 3);      /* nr_running */
        be32(d + 36, 2048 * (k % 4)); /* avenrun 1 min */
        for (int c = 0; c < 2; c++) {
                be32(d + 52 + 36 * c, 100 * k + (uint32_t)c);    /* user */
                be32(d + 52 + 36 * c + 28, 5 * k + (uint32_t)c); /* steal */
        }
        vec_lx_prodid(pid, 2, "01");
        size_t n = vec_d10(p, 2, "LINUX01", pid, d, sizeof(d));
        be64(p + 8, tod);
        char v[128];
        snprintf(v, sizeof(v), "%.6f,%.6f,%.6f", (double)(k % 4), 1.0, 2.5);
        expect("linux01", "load/load", t, v);
        snprintf(v, sizeof(v), "%.6f", (double)(2 + k % 3));
        expect("linux01", "processes/ps_state-running", t, v);
        snprintf(v, sizeof(v), "%u", 100 * k + 1);
        expect("linux01", "cpu-1/cpu-user", t, v);
        snprintf(v, sizeof(v), "%u", 5 * k);
        expect("linux01", "cpu-0/cpu-steal", t, v);
        return n;
}

static size_t net(uint8_t *p, const char *guest, uint64_t tod, uint64_t ts, uint64_t k, double t,
                  bool truth_it)
{
        uint8_t d[96] = {0}, pid[16];
        vec_lx_common(d, ts, 1, 1);
        be32(d + 16, 2);
        be64(d + 24, 10 * k);   /* rx_packets */
        be64(d + 32, 20 * k);   /* tx_packets */
        be64(d + 40, 1500 * k); /* rx_bytes */
        be64(d + 48, 3000 * k); /* tx_bytes */
        vec_lx_prodid(pid, 3, "00");
        size_t n = vec_d10(p, 2, guest, pid, d, 96);
        be64(p + 8, tod);
        if (truth_it) {
                char v[128], host[16];
                size_t i = 0;
                for (; guest[i]; i++)
                        host[i] = (char)(guest[i] | 0x20);
                host[i] = 0;
                snprintf(v, sizeof(v), "%llu,%llu", (unsigned long long)(1500 * k),
                         (unsigned long long)(3000 * k));
                expect(host, "interface-all/if_octets", t, v);
                snprintf(v, sizeof(v), "%llu,%llu", (unsigned long long)(10 * k),
                         (unsigned long long)(20 * k));
                expect(host, "interface-all/if_packets", t, v);
        }
        return n;
}

static size_t fsstat(uint8_t *p, uint64_t tod, uint64_t secs, uint64_t k)
{
        uint8_t d[589] = {0}, pid[16];
        size_t o = 12;
        const char *s[3] = {"/dev/dasdb1", "/srv/data", "xfs"};
        for (int i = 0; i < 3; i++) {
                size_t n = strlen(s[i]);
                be16(d + o, (uint16_t)n);
                memcpy(d + o + 2, s[i], n);
                o += 2 + n;
        }
        uint64_t sv[9] = {4096, 4096, 100000, 60000 - k, 55000 - k, 1000, 900, 900, 0};
        for (int i = 0; i < 9; i++)
                be64(d + o + 8 * i, sv[i]);
        o += 72;
        be64(d, secs);
        be16(d + 8, (uint16_t)(o - 12));
        be16(d + 10, 12);
        vec_lnx_prodid(pid, 1, 0, 0, 0, 0);
        size_t n = vec_d10(p, 2, "LINUX01", pid, d, sizeof(d));
        be64(p + 8, tod);
        char v[64];
        snprintf(v, sizeof(v), "%.6f", (double)(100000 - (60000 - k)) * 4096);
        expect("linux01", "df-srv-data/df_complex-used", (double)secs, v);
        snprintf(v, sizeof(v), "%.6f", (double)(55000 - k) * 4096);
        expect("linux01", "df-srv-data/df_complex-free", (double)secs, v);
        return n;
}

static void put_be32(FILE *f, uint32_t v)
{
        uint8_t b[4];
        be32(b, v);
        fwrite(b, 1, 4, f);
}

int main(int argc, char **argv)
{
        if (argc != 4) {
                fprintf(stderr, "usage: gen OUTDIR INTERVALS INTERVAL_SECONDS\n");
                return 2;
        }
        int nint = atoi(argv[2]), iv = atoi(argv[3]);
        char path[4096];
        snprintf(path, sizeof(path), "%s/stream.cap", argv[1]);
        FILE *cap = fopen(path, "wb");
        snprintf(path, sizeof(path), "%s/stream.monwrite", argv[1]);
        FILE *mw = fopen(path, "wb");
        snprintf(path, sizeof(path), "%s/truth.csv", argv[1]);
        truth = fopen(path, "w");
        if (!cap || !mw || !truth) {
                perror(argv[1]);
                return 1;
        }
        /* Capture file header: magic, version 1, header length 16, flags 0. */
        fwrite("ZVMCAP\r\n", 1, 8, cap);
        uint8_t h[8] = {0, 1, 0, 16, 0, 0, 0, 0};
        fwrite(h, 1, 8, cap);

        static uint8_t recs[4096], set[4096 + 12];
        for (int i = 0; i < nint; i++) {
                double t = (double)T0 + (double)i * iv, ts = t - 2;
                uint64_t tod = tod_of(t), lts = tod_of(ts);
                uint64_t k = (uint64_t)i + 1;
                size_t n = 0;
                memset(recs, 0, sizeof(recs));
                if (i == 0) {
                        n += d1r4(recs + n, tod);
                        n += d1r9(recs + n, tod, (uint32_t)iv);
                }
                n += mem(recs + n, "LINUX01", tod, lts, (uint32_t)k, (uint32_t)k, k, ts, true);
                n += os(recs + n, tod, lts, (uint32_t)k, ts);
                n += net(recs + n, "LINUX01", tod, lts, k, ts, true);
                n += fsstat(recs + n, tod, (uint64_t)t - 1, k);
                n += mem(recs + n, "LINUX02", tod, lts, 7, 7, k, ts, true);
                /* LINUX02's NET_SUM never refreshes: its first sample only. */
                n += net(recs + n, "LINUX02", tod, tod_of((double)T0 - 2), 1, (double)T0 - 2,
                         i == 0);
                n += mem(recs + n, "LINUX03", tod, lts, 8, 9, k, ts, false); /* mid-update */
                n += vec_hdr(recs + n, 20, 1, 11, tod);                      /* Interval End */
                if (n > 4096) {
                        fprintf(stderr, "gen: records do not fit a 4 KB frame\n");
                        return 1;
                }
                uint32_t a = DCSS_BASE + (uint32_t)i * 0x1000;
                /* Capture frame: "DSET", length, capture time (us), status, reserved. */
                vec_mce(set, 0xE2, 0xC0, 0x20, a, a + (uint32_t)n - 1);
                memcpy(set + 12, recs, n);
                put_be32(cap, 0x44534554);
                put_be32(cap, (uint32_t)(n + 12));
                uint8_t t8[8];
                be64(t8, (uint64_t)(t * 1e6));
                fwrite(t8, 1, 8, cap);
                put_be32(cap, 0);
                put_be32(cap, 0);
                fwrite(set, 1, n + 12, cap);

                /* MONWRITE: control record (MWTBK) then the image of the one DCSS page. */
                static uint8_t ctl[4096], page[4096];
                memset(ctl, 0, sizeof(ctl));
                ctl[3] = 0x08;
                be32(ctl + 12, MCA_BASE + (uint32_t)i * 12);
                be32(ctl + 16, MCA_BASE + (uint32_t)i * 12 + 11);
                vec_mce(ctl + 40, 0xE2, 0xC0, 0x20, a, a + (uint32_t)n - 1);
                memset(page, 0, sizeof(page));
                memcpy(page, recs, n);
                fwrite(ctl, 1, 4096, mw);
                fwrite(page, 1, 4096, mw);
        }
        fclose(cap);
        fclose(mw);
        fclose(truth);
        return 0;
}
