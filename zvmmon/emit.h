/* SPDX-License-Identifier: MIT */
/*
 * Emitters for zvmmon dump: one record in, one JSON Lines object (emit_json.c,
 * libyajl) or one block of text (emit_text.c) out.  Both are driven by the
 * same walk over the record (emit_core.c), so they always show the same
 * fields: position, domain/record names, time, every field of the CP layout
 * zl_find_cp() picks and, for domain 10, the decoded Linux data.
 */
#ifndef ZMON_EMIT_H
#define ZMON_EMIT_H

#include <stdbool.h>
#include <stdio.h>

#include "zvmdec.h"

enum zmon_emit_fmt { ZMON_EMIT_JSON, ZMON_EMIT_TEXT };

/* A structured-output sink; the walk calls these in JSON order. */
struct zmon_sink {
        void *ctx;
        void (*begin)(void *ctx);
        void (*end)(void *ctx); /* one record or error complete: write it out */
        void (*key)(void *ctx, const char *k);
        void (*map_open)(void *ctx);
        void (*map_close)(void *ctx);
        void (*array_open)(void *ctx);
        void (*array_close)(void *ctx);
        void (*num)(void *ctx, const char *literal); /* a valid JSON number */
        void (*str)(void *ctx, const char *s, size_t n);
        void (*boolean)(void *ctx, bool b);
        void (*null)(void *ctx); /* a value that is not known (a TOD of 0) */
        void (*destroy)(void *ctx);
        /* False once an object could not be generated (yajl refused a call): that
         * object was not written, rather than written with members out of step. */
        bool (*ok)(void *ctx);
};
bool zmon_sink_json(struct zmon_sink *s, FILE *out);
bool zmon_sink_text(struct zmon_sink *s, FILE *out);
/* s->str of n bytes made valid UTF-8 without control characters ('?' for each bad byte):
 * for strings from outside (guest data, file names). */
void zmon_sink_str(struct zmon_sink *s, const void *p, size_t n);

struct zmon_emit;
struct zmon_emit *zmon_emit_new(enum zmon_emit_fmt fmt, FILE *out);
void zmon_emit_free(struct zmon_emit *e);
/* The sink's ok(): every object so far was generated whole. */
bool zmon_emit_ok(const struct zmon_emit *e);
/* Also show every record's bytes in hex ("hex"), header included. */
void zmon_emit_set_hex(struct zmon_emit *e, bool on);
/* Read CP records through the layouts of this reading (layout.h; NULL: the default). */
void zmon_emit_set_reading(struct zmon_emit *e, const char *reading);
/* ai: zd_appl_examine() of a D10R1/D10R2 record, NULL for anything else. */
void zmon_emit_record(struct zmon_emit *e, const struct zd_record *r,
                      const struct zd_appl_info *ai);
void zmon_emit_error(struct zmon_emit *e, const struct zd_error *err);
/* A write_zvm record (doc/write_zvm.md) as a "write_zvm" map: header and entries. */
void zmon_emit_wzvm(struct zmon_sink *s, zd_view data);
/* Bytes of hex shown for opaque application data (the size is always shown). */
#define ZMON_EMIT_HEX_MAX 4096

#endif
