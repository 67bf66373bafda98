/* SPDX-License-Identifier: MIT */
/*
 * Domain 3 (Storage) record layouts.  Only what IBM prints is decoded
 * (doc/facts/cp-records.md 6, 15); no zpmd offsets are used for this domain.
 */
#include "layout/lay_short.h"

/* D3R1 STORSG: 464 (6.2), 780 (6.3), 844 (6.4); the first fields hold at every level. */
/* clang-format off */
static const struct zl_field storsg[] = {
    {"STORSG_CALSSUBT", 20, 4, U,  V, G, "count",  "IBM mon640 MRSTORSG", "blocks on the regular free-storage subpool lists below 2 GB"},
    {"*",               24, 4, RS, V, N, NULL,     "IBM mon640 MRSTORSG", "reserved (was CALVSUBT)"},
    {"STORSG_RSASAVFR", 28, 4, U,  V, G, "frames", "IBM mon640 MRSTORSG", "frames in use for save areas"},
    {"STORSG_RSAMAXPP", 32, 4, U,  V, G, NULL,     "IBM mon640 MRSTORSG", ""},
};
/* clang-format on */

/* D3R2 STORSP: 720 (6.3), 744 (6.4). */
/* clang-format off */
static const struct zl_field storsp[] = {
    {"STORSP_PFXCPUAD", 20, 2, U,  V, N, NULL, "IBM mon640 MRSTORSP", "CPU address"},
    {"*",               22, 2, RS, V, N, NULL, "IBM mon640 MRSTORSP", "reserved"},
    {"*",               24, 4, RS, V, N, NULL, "IBM mon630 MRSTORSP", "reserved (was PLSFRECT)"},
    {"*",               28, 4, RS, V, N, NULL, "IBM mon630 MRSTORSP", "reserved"},
};
/* clang-format on */

/* D3R5 STOSHS: 44, complete. */
/* clang-format off */
static const struct zl_field stoshs[] = {
    {"STOSHS_SDFFN",    20, 8, EB,      V, N, NULL, "IBM mon540 MRSTOSHS", "NSS/DCSS name"},
    {"STOSHS_SDFFT",    28, 8, EB,      V, N, NULL, "IBM mon540 MRSTOSHS", "file type"},
    {"STOSHS_SDFCLTIM", 36, 4, U,       V, N, NULL, "IBM mon540 MRSTOSHS", "creation time"},
    {"STOSHS_SDFIDNUM", 40, 2, ZL_SINT, V, N, NULL, "IBM mon540 MRSTOSHS", "spool ID"},
};
/* clang-format on */

#define L(id, ds, r, min, lvl, src, f)                                                             \
        {                                                                                          \
                id, ds, 3, r, min, lvl, src, f, ZL_COUNT(f)                                        \
        }
/* clang-format off */
static const struct zl_layout layouts[] = {
    L("D3R1", "STORSG", 1, 36, "z/VM 6.2+ (first fields)", "IBM mon620/mon640 MRSTORSG", storsg),
    L("D3R2", "STORSP", 2, 32, "z/VM 6.3+ (first fields)", "IBM mon630/mon640 MRSTORSP", storsp),
    L("D3R5", "STOSHS", 5, 44, "z/VM 5.4+",                "IBM mon540 MRSTOSHS",        stoshs),
};
/* clang-format on */
ZL_TABLE(d3, layouts);
