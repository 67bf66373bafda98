/* SPDX-License-Identifier: MIT */
/*
 * Domain 10 APPLDATA header (doc/facts/monitor-stream.md 7).
 * IBM verifies the 52-byte header size and the names APLSDT_CALDATOF and
 * APLSDT_ADATA; offsets and the other names come from zpmd's d10r1/d10r2
 * structs, so they are HINTs that appl_hdr.c proves on every record (the
 * data offset and length must fit the record, or the record is refused).
 */
#include "layout/layout.h"
#include "layout/layout.h"

#define SRC_S                                                                                      \
        "IBM mon750 MRAPLSDT (names, 52-byte header); zpmd 2023 reconstruction (TODO) d10r2 "      \
        "(offsets)"
#define SRC_E                                                                                      \
        "IBM mon730 MRAPLEDT (names, 52-byte header); zpmd 2023 reconstruction (TODO) d10r1 "      \
        "(offsets)"

/* clang-format off */
#define D10_FIELDS(P, SRC)                                                                                                                                  \
    {P "_CALDATOF", 20, 2,  ZL_SINT,   ZL_HINT,      ZL_K_NONE, "bytes", SRC, "offset of the application data from the record start (expect 52); checked"}, \
    {P "_CALDATLN", 22, 2,  ZL_SINT,   ZL_HINT,      ZL_K_NONE, "bytes", SRC, "length of the application data; checked against the record length"},         \
    {P "_USERID",   24, 8,  ZL_EBCDIC, ZL_HINT,      ZL_K_NONE, NULL,    SRC, "userid of the guest that declared the buffer"},                              \
    {P "_PRODID",   32, 16, ZL_HEX,    ZL_HINT,      ZL_K_NONE, NULL,    SRC, "16-byte product id passed with DIAGNOSE X'DC' (zpmd: mdgprod)"},             \
    {P "_STATUS",   48, 1,  ZL_BITS,   ZL_UNCERTAIN, ZL_K_NONE, NULL,    SRC, "status flags; meaning not documented"},                                      \
    {"*",           49, 3,  ZL_RSVD,   ZL_HINT,      ZL_K_NONE, NULL,    SRC, "reserved"},
/* clang-format on */

static const struct zl_field edt_fields[] = {D10_FIELDS("APLEDT", SRC_E)};
static const struct zl_field sdt_fields[] = {D10_FIELDS("APLSDT", SRC_S)};

/* clang-format off */
static const struct zl_layout layouts[] = {
    {"D10R1", "APLEDT", 10, 1, 52, "z/VM 5.3-7.5", SRC_E, edt_fields, ZL_COUNT(edt_fields)},
    {"D10R2", "APLSDT", 10, 2, 52, "z/VM 5.3-7.5", SRC_S, sdt_fields, ZL_COUNT(sdt_fields)},
};
/* clang-format on */
ZL_TABLE(d10, layouts);
