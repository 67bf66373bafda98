/* SPDX-License-Identifier: MIT */
/*
 * The record walker against memcpy over the same bytes, in the same run.
 *
 * Generates data sets shaped like a mid-size system's sample intervals
 * (per-processor SYTPRP/SYTSYP, per-guest USEACT, device IODDEV, APPLDATA
 * from Linux guests, End-of-Frame closing every 4 KB frame, Interval End),
 * at least 256 MB of them, then times zd_decode_dataset over all of them and
 * memcpy of the same bytes.  Prints MB/s of both and the ratio; speed is a
 * figure to watch, never a pass/fail.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "record/record.h"

struct mix {
        int domain, record, len, count;
};
/* A mix of record sizes like z/VM 6.x-7.x's (doc/facts/cp-records.md). */
static const struct mix mix[] = {
    {0, 1, 116, 16},   {0, 2, 352, 16},  {0, 3, 492, 1},    {0, 19, 200, 1},
    {4, 3, 508, 500},  {6, 3, 220, 200}, {10, 2, 196, 100}, {10, 2, 52 + 52 + 16 * 36, 100},
    {10, 2, 148, 100}, {8, 1, 316, 40},
};

static void put16(uint8_t *p, unsigned v)
{
        p[0] = (uint8_t)(v >> 8);
        p[1] = (uint8_t)v;
}

/* One interval as one data set: MCE, then records packed into frames. Returns its size. */
static size_t make_set(uint8_t *p, uint32_t dcss)
{
        size_t off = 12, frame_used = 0;
        for (size_t m = 0; m < sizeof(mix) / sizeof(mix[0]); m++)
                for (int i = 0; i < mix[m].count; i++) {
                        size_t len = (size_t)mix[m].len;
                        if (frame_used + len + 20 > 4096) { /* keep room for End-of-Frame */
                                memset(p + off, 0, 20);
                                put16(p + off, 20);
                                p[off + 4] = 1;
                                put16(p + off + 6, 13);
                                off += 4096 - frame_used;
                                frame_used = 0;
                        }
                        memset(p + off, (int)(i & 0x7F), len);
                        put16(p + off, (unsigned)len);
                        put16(p + off + 2, 0);
                        p[off + 4] = (uint8_t)mix[m].domain;
                        p[off + 5] = 0;
                        put16(p + off + 6, (unsigned)mix[m].record);
                        off += len;
                        frame_used += len;
                }
        memset(p + off, 0, 20);
        put16(p + off, 20);
        p[off + 4] = 1;
        put16(p + off + 6, 11);
        off += 20;
        size_t n = off - 12;
        p[0] = 0xE2;
        p[1] = 0xFF;
        p[2] = 0xE0;
        p[3] = 0;
        uint32_t end = dcss + (uint32_t)n - 1;
        for (int i = 0; i < 4; i++) {
                p[4 + i] = (uint8_t)(dcss >> (24 - 8 * i));
                p[8 + i] = (uint8_t)(end >> (24 - 8 * i));
        }
        return off;
}

static uint64_t sink;
static void on_record(void *ctx, const struct zd_record *r)
{
        (void)ctx;
        sink += r->number + r->rec.n;
}

static double now(void)
{
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
        size_t total_mb = argc > 1 ? (size_t)atol(argv[1]) : 256;
        size_t total = total_mb << 20;
        uint8_t *sets = malloc(total + (4u << 20));
        uint8_t *copy = malloc(total + (4u << 20));
        size_t *starts = malloc(sizeof(size_t) * 100000);
        if (!sets || !copy || !starts)
                return 1;
        size_t n = 0, nsets = 0;
        while (n < total && nsets < 100000) {
                starts[nsets++] = n;
                n += make_set(sets + n, 0x09000000u);
        }
        starts[nsets] = n;
        memset(copy, 0, n); /* fault the pages in before timing */

        struct zd_handler h = {NULL, on_record, NULL, NULL};
        struct zd_decoder d;
        double best_walk = 1e9, best_copy = 1e9;
        for (int rep = 0; rep < 3; rep++) {
                zd_decoder_init(&d, &h);
                double t0 = now();
                for (size_t i = 0; i < nsets; i++)
                        zd_decode_dataset(&d,
                                          zd_view_make(sets + starts[i], starts[i + 1] - starts[i]),
                                          i, starts[i]);
                double t1 = now();
                memcpy(copy, sets, n);
                double t2 = now();
                if (t1 - t0 < best_walk)
                        best_walk = t1 - t0;
                if (t2 - t1 < best_copy)
                        best_copy = t2 - t1;
        }
        double mb = (double)n / (1 << 20);
        printf("bench_walk: %.0f MB in %zu data sets, %llu records, %llu errors\n", mb, nsets,
               (unsigned long long)d.st.records, (unsigned long long)zd_stats_errors(&d.st));
        printf("bench_walk: walker %.0f MB/s, memcpy %.0f MB/s, walker/memcpy = %.3f (best of 3)\n",
               mb / best_walk, mb / best_copy, best_copy / best_walk);
        if (copy[n / 2] == 0xFF && sink == 42)
                puts("");
        free(sets);
        free(copy);
        free(starts);
        return zd_stats_errors(&d.st) ? 1 : 0;
}
