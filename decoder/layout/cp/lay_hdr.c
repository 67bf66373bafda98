/* SPDX-License-Identifier: MIT */
#include "layout/layout.h"
#include "layout/layout.h"

/* MRHDR / MRRECHDR, identical from z/VM 4.2 to 7.5 (doc/facts/monitor-stream.md 1). */
/* clang-format off */
static const struct zl_field hdr_fields[] = {
    {"MRHDRLEN", 0,  2, ZL_UINT, ZL_VERIFIED, ZL_K_NONE, "bytes", "IBM mon750 MRHDR", "record length, header included"},
    {"MRHDRZER", 2,  2, ZL_UINT, ZL_VERIFIED, ZL_K_NONE, NULL,    "IBM mon750 MRHDR", "always zero"},
    {"MRHDRDM",  4,  1, ZL_UINT, ZL_VERIFIED, ZL_K_NONE, NULL,    "IBM mon750 MRHDR", "domain number"},
    {"*",        5,  1, ZL_RSVD, ZL_VERIFIED, ZL_K_NONE, NULL,    "IBM mon750 MRHDR", "reserved"},
    {"MRHDRRC",  6,  2, ZL_UINT, ZL_VERIFIED, ZL_K_NONE, NULL,    "IBM mon750 MRHDR", "record number within the domain"},
    {"MRHDRTOD", 8,  8, ZL_TOD,  ZL_VERIFIED, ZL_K_NONE, "tod",   "IBM mon750 MRHDR", "time the record was built"},
    {"*",        16, 4, ZL_RSVD, ZL_VERIFIED, ZL_K_NONE, NULL,    "IBM mon750 MRHDR", "reserved"},
};
/* clang-format on */

/* clang-format off */
static const struct zl_layout layouts[] = {
    {"MRHDR", "MRHDR", -1, -1, 20, "z/VM 4.2-7.5", "IBM mon750 MRHDR", hdr_fields, ZL_COUNT(hdr_fields)},
};
/* clang-format on */
ZL_TABLE(hdr, layouts);
