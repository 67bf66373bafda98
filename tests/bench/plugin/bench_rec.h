/* SPDX-License-Identifier: MIT */
/*
 * The file bench_sink writes in Record mode and bench_replay reads: every
 * value list collectd handed to the write plugins, in order.  Host byte order
 * (the file never leaves the machine that ran the benchmark).
 *
 *   file   = "ZVMBREC1" record*
 *   record = time u64, interval u64, nvalues u8, len[5] u8,
 *            dstype[nvalues] u8, value[nvalues] 8 bytes, the five names
 *
 * The names (host, plugin, plugin instance, type, type instance) are stored
 * without terminators; DATA_MAX_NAME_LEN is 128 so a length fits one byte.
 * Values are value_t's bytes: whatever the DS type, replaying them gives
 * collectd back the same value.
 */
#ifndef BENCH_REC_H
#define BENCH_REC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <collectd/core/daemon/collectd.h>
#include <collectd/core/daemon/plugin.h>

#define BENCH_REC_MAGIC     "ZVMBREC1"
#define BENCH_REC_MAGIC_LEN 8
#define BENCH_REC_FIXED     22 /* time, interval, nvalues, five lengths */
#define BENCH_REC_MAXVALUES 255
#define BENCH_REC_MAX       (BENCH_REC_FIXED + BENCH_REC_MAXVALUES * 9 + 5 * 127)

/* The plugin name of the end-of-run value list bench_sink sends to itself. */
#define BENCH_MARKER_PLUGIN "bench_sink_end"

/* Where the five names live in a value_list_t, in record order. */
static const size_t bench_name_off[5] = {
    offsetof(value_list_t, host), offsetof(value_list_t, plugin),
    offsetof(value_list_t, plugin_instance), offsetof(value_list_t, type),
    offsetof(value_list_t, type_instance)};

/* Encode vl into out (BENCH_REC_MAX bytes); 0 if it has too many values. */
static inline size_t bench_rec_encode(uint8_t *out, const data_set_t *ds, const value_list_t *vl)
{
        if (vl->values_len == 0 || vl->values_len > BENCH_REC_MAXVALUES)
                return 0;
        uint64_t t = vl->time, iv = vl->interval;
        memcpy(out, &t, 8);
        memcpy(out + 8, &iv, 8);
        out[16] = (uint8_t)vl->values_len;
        size_t o = BENCH_REC_FIXED;
        for (size_t i = 0; i < vl->values_len; i++)
                out[o++] = (uint8_t)(i < ds->ds_num ? ds->ds[i].type : 0xFF);
        memcpy(out + o, vl->values, vl->values_len * 8);
        o += vl->values_len * 8;
        for (int i = 0; i < 5; i++) {
                const char *s = (const char *)vl + bench_name_off[i];
                size_t n = strnlen(s, DATA_MAX_NAME_LEN - 1);
                out[17 + i] = (uint8_t)n;
                memcpy(out + o, s, n);
                o += n;
        }
        return o;
}

/*
 * Decode the record at p (avail bytes) into vl, whose values point at a
 * BENCH_REC_MAXVALUES array; returns its length, 0 if it is cut short.
 */
static inline size_t bench_rec_decode(const uint8_t *p, size_t avail, value_list_t *vl)
{
        if (avail < BENCH_REC_FIXED)
                return 0;
        size_t nv = p[16], o = BENCH_REC_FIXED + nv * 9;
        size_t need = o;
        for (int i = 0; i < 5; i++)
                need += p[17 + i];
        if (nv == 0 || avail < need)
                return 0;
        uint64_t t, iv;
        memcpy(&t, p, 8);
        memcpy(&iv, p + 8, 8);
        vl->time = t;
        vl->interval = iv;
        vl->values_len = nv;
        memcpy(vl->values, p + BENCH_REC_FIXED + nv, nv * 8);
        for (int i = 0; i < 5; i++) {
                char *dst = (char *)vl + bench_name_off[i];
                memcpy(dst, p + o, p[17 + i]);
                dst[p[17 + i]] = 0;
                o += p[17 + i];
        }
        return o;
}

/*
 * The writer behind Record (bench_rec.c): appends records and counts the
 * distinct identifiers on the way, so the harness learns the number of
 * series without reading the file again.  Callers serialise add/close.
 */
struct bench_recorder;
struct bench_recorder *bench_rec_open(const char *path);
/* false if the record could not be written (the error is kept for close). */
bool bench_rec_add(struct bench_recorder *r, const data_set_t *ds, const value_list_t *vl);
uint64_t bench_rec_series(const struct bench_recorder *r);
uint64_t bench_rec_skipped(const struct bench_recorder *r);
/* Flush and free; false if any write failed. */
bool bench_rec_close(struct bench_recorder *r);

#endif
