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

/*
 * Layouts from IBM's pages alone (doc/facts/ibm-record-pages.md 3, 7): each is
 * chosen at IBM's length for the level its page was read at and declares
 * only the fields that page shows; past what a page let read, the record
 * stays undeclared (partial, zvmmon layouts --coverage).
 */
/* D3R6 STOSHP: 44 (7.3), readable to 28. */
/* clang-format off */
static const struct zl_field stoshp[] = {
    {"STOSHP_SDFFN", 20, 8, EB, V, N, NULL, "IBM mon730 MRSTOSHP", "NSS/DCSS name"},
};
/* clang-format on */

/* D3R12 STOASC: 64 and D3R13 STOASD: 52 (7.3); 28 holds 24 bytes whose name is cut off. */
/* clang-format off */
static const struct zl_field stoasc[] = {
    {"STOASC_ASCUSRID", 20, 8, EB, V, N, NULL, "IBM mon730 MRSTOASC", "owning user ID"},
};
static const struct zl_field stoasd[] = {
    {"STOASD_ASCUSRID", 20, 8, EB, V, N, NULL, "IBM mon730 MRSTOASD", "owning user ID"},
};
/* clang-format on */

/* D3R17 STOVDK: 68 (7.3); 28 holds 24 bytes whose name is cut off. */
/* clang-format off */
static const struct zl_field stovdk[] = {
    {"STOVDK_MDIOUSER", 20, 8, EB, V, N, NULL, "IBM mon730 MRSTOVDK", "owning user ID"},
};
/* clang-format on */

/* D3R19 STOSXG: 88 (7.3), readable to 24. */
/* clang-format off */
static const struct zl_field stosxg[] = {
    {"STOSXG_RSASXUOT", 20, 4, U, V, N, "pages", "IBM mon730 MRSTOSXG", "pages of the \"other CP\" type (derived from SYTSXG's counts; the description is cut off)"},
};
/* clang-format on */

/* D3R21 STOADD: 132 (7.5), readable to 28. */
/* clang-format off */
static const struct zl_field stoadd[] = {
    {"STOADD_CALMEMAD", 20, 8, HX, V, N, NULL, "IBM mon750 MRSTOADD", "amount of permanent and reconfigurable storage added (Character 8; the description is cut off)"},
};
/* clang-format on */

/* D3R22 STORST: 56 (7.5) and D3R23 STOREM: 148 (7.3), readable to 21. */
/* clang-format off */
static const struct zl_field storst[] = {
    {"STORST_DSRFLAG0", 20, 1, BI, V, N, NULL, "IBM mon750 MRSTORST", "flags of the SET STORAGE request (their meanings are cut off)"},
};
static const struct zl_field storem[] = {
    {"STOREM_DSRFLAG0", 20, 1, BI, V, N, NULL, "IBM mon730 MRSTOREM", "flags of the SET STORAGE request (their meanings are cut off)"},
};
/* clang-format on */

/*
 * D3R25 STOAZN: 36+ (7.3), readable to 32.  The zone entries follow at
 * CALENTDSP, CALENTSZ bytes each; STOAZN_C says more records follow in the
 * interval.
 */
/* clang-format off */
static const struct zl_field stoazn[] = {
    {"STOAZN_RSAMCHNG",        20, 4, U, V, N, "count", "IBM mon730 MRSTOAZN", "memory reconfigurations"},
    {"STOAZN_NUMZONES_RECORD", 24, 4, U, V, N, "count", "IBM mon730 MRSTOAZN", "zones in this record"},
    {"STOAZN_CALENTSZ",        28, 2, U, V, N, "bytes", "IBM mon730 MRSTOAZN", "size of a zone entry"},
    {"STOAZN_CALENTDSP",       30, 2, U, V, N, "bytes", "IBM mon730 MRSTOAZN", "displacement of the zone entries"},
};
/* clang-format on */

/* clang-format off */
static const struct zl_layout pages[] = {
    L("D3R6",  "STOSHP", 6,  44,  "z/VM 7.3", "IBM mon730 MRSTOSHP", stoshp),
    L("D3R12", "STOASC", 12, 64,  "z/VM 7.3", "IBM mon730 MRSTOASC", stoasc),
    L("D3R13", "STOASD", 13, 52,  "z/VM 7.3", "IBM mon730 MRSTOASD", stoasd),
    L("D3R17", "STOVDK", 17, 68,  "z/VM 7.3", "IBM mon730 MRSTOVDK", stovdk),
    L("D3R19", "STOSXG", 19, 88,  "z/VM 7.3", "IBM mon730 MRSTOSXG", stosxg),
    L("D3R21", "STOADD", 21, 132, "z/VM 7.5", "IBM mon750 MRSTOADD", stoadd),
    L("D3R22", "STORST", 22, 56,  "z/VM 7.5", "IBM mon750 MRSTORST", storst),
    L("D3R23", "STOREM", 23, 148, "z/VM 7.3", "IBM mon730 MRSTOREM", storem),
    L("D3R25", "STOAZN", 25, 36,  "z/VM 7.3", "IBM mon730 MRSTOAZN", stoazn),
};
/* clang-format on */
ZL_TABLE(d3p, pages);
