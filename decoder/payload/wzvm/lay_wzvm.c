/* SPDX-License-Identifier: MIT */
/*
 * The write_zvm record (doc/write_zvm.md): our own format, so every field is
 * VERIFIED by definition; the source is that document.  Payload offsets count
 * from the start of the application data (after the 52-byte D10 header).
 */
#include "layout/layout.h"

#define SRC "doc/write_zvm.md"
#define F(name, off, len, type, kind, unit, desc)                                                  \
        {                                                                                          \
                name, off, len, type, ZL_VERIFIED, kind, unit, SRC, desc                           \
        }

/* clang-format off */
static const struct zl_field hdr_fields[] = {
    F("eyecatcher",   0,  4,  ZL_ASCII, ZL_K_NONE, NULL,    "ASCII \"WZVM\" (57 5A 56 4D)"),
    F("version",      4,  1,  ZL_UINT,  ZL_K_NONE, NULL,    "format version, 1"),
    F("flags",        5,  1,  ZL_BITS,  ZL_K_NONE, NULL,    "reserved flags, 0"),
    F("hdr_len",      6,  2,  ZL_UINT,  ZL_K_NONE, "bytes", "offset of the first entry (96)"),
    F("timestamp",    8,  8,  ZL_TOD,   ZL_K_NONE, "tod",   "when the writer built the record"),
    F("sync_count_1", 16, 4,  ZL_UINT,  ZL_K_NONE, NULL,    "incremented before each update; equal to sync_count_2 in a consistent copy"),
    F("nentries",     20, 2,  ZL_UINT,  ZL_K_NONE, "count", "entries that follow the header"),
    F("used",         22, 2,  ZL_UINT,  ZL_K_NONE, "bytes", "header + entries; zero fill follows"),
    F("interval_ms",  24, 4,  ZL_UINT,  ZL_K_NONE, "ms",    "writer's update interval"),
    F("rec_index",    28, 2,  ZL_UINT,  ZL_K_NONE, NULL,    "this record's place in the pass (= mod_level)"),
    F("rec_total",    30, 2,  ZL_UINT,  ZL_K_NONE, "count", "records the writer keeps in this pass"),
    F("host",         32, 64, ZL_ASCII, ZL_K_NONE, NULL,    "collectd host name, NUL padded (max 63)"),
};
/* clang-format on */

/* Fixed part; five names follow, each a 1-byte length and that many ASCII bytes. */
/* clang-format off */
static const struct zl_field entry_fields[] = {
    F("entry_len", 0, 2, ZL_UINT, ZL_K_NONE, "bytes", "whole entry, names included"),
    F("ds_type",   2, 1, ZL_UINT, ZL_K_NONE, NULL,    "0 COUNTER, 1 GAUGE, 2 DERIVE, 3 ABSOLUTE"),
    F("flags",     3, 1, ZL_BITS, ZL_K_NONE, NULL,    "X'01': GAUGE is the rate of a cumulative source"),
    F("ds_index",  4, 1, ZL_UINT, ZL_K_NONE, NULL,    "data source index within the type"),
    F("ds_count",  5, 1, ZL_UINT, ZL_K_NONE, "count", "data sources of the type"),
    {"*", 6, 2, ZL_RSVD, ZL_VERIFIED, ZL_K_NONE, NULL, SRC, "reserved, 0"},
    F("time",  8,  8, ZL_TOD, ZL_K_NONE, "tod", "collectd time of the value"),
    F("value", 16, 8, ZL_HEX, ZL_K_NONE, NULL,  "GAUGE: IEEE 754 double; DERIVE: int64; COUNTER/ABSOLUTE: uint64"),
};
/* clang-format on */

/* clang-format off */
static const struct zl_field trailer_fields[] = {
    F("sync_count_2", 0, 4, ZL_UINT, ZL_K_NONE, NULL, "last 4 bytes of the record; incremented after each update"),
};
/* clang-format on */

/* clang-format off */
static const struct zl_layout layouts[] = {
    {"WZVM.HDR",     "WZVMHDR", -1, -1, 96, "write_zvm format 1", SRC, hdr_fields,     ZL_COUNT(hdr_fields)},
    {"WZVM.ENTRY",   "WZVMENT", -1, -1, 24, "write_zvm format 1", SRC, entry_fields,   ZL_COUNT(entry_fields)},
    {"WZVM.TRAILER", "WZVMTRL", -1, -1, 4,  "write_zvm format 1", SRC, trailer_fields, ZL_COUNT(trailer_fields)},
};
/* clang-format on */
ZL_TABLE(wzvm, layouts);
