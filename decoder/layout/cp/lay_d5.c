/* SPDX-License-Identifier: MIT */
/*
 * Domain 5 (Processor) record layouts.  Facts: doc/facts/cp-records.md 8, 17;
 * zpmd's 2009 main.c decodes PRCPRP (sources by age in lay_short.h).
 */
#include "layout/lay_short.h"

/* D5R3 PRCPRP: 124 (4.3, 5.1), 384 (5.4 - 7.5). */
/* clang-format off */
#define PRCPRP_MID                                                                  \
    {"PRCPRP_PFXDSPCS", 84,  4, U,  H, K, "count", ZL09, ""},                       \
    {"PRCPRP_PLSDSPCM", 88,  4, U,  H, K, "count", ZL09, ""},                       \
    {"PRCPRP_DSVMAXUS", 92,  4, U,  H, G, NULL,    ZL09, ""},                       \
    {"PRCPRP_HFCOUNT",  96,  4, U,  H, K, "count", ZL09, "high-frequency samples"}, \
    {"PRCPRP_HFUSERZ",  100, 4, U,  H, K, "count", ZL09, ""},                       \
    {"PRCPRP_HFUSERC",  104, 4, U,  H, K, "count", ZL09, ""},                       \
    {"PRCPRP_CALUDED",  108, 8, EB, H, N, NULL,    ZL09, ""},                       \
    {"PRCPRP_PFXTYPE",  116, 1, U,  H, N, NULL,    ZL09, ""},                       \
    {"PRCPRP_HFUSERM",  120, 4, U,  H, K, "count", ZL09, ""}
static const struct zl_field prcprp43[] = {
    {"PRCPRP_PFXCPUAD", 20, 2,  U,  V, N, NULL, "IBM mon430 MRPRCPRP", "CPU address"},
    {"PRCPRP_PLSSTLNU", 22, 62, HX, V, N, NULL, "IBM mon430 MRPRCPRP", "VMDBKs stolen from each other CPU (31 halfwords)"},
    PRCPRP_MID,
};
static const struct zl_field prcprp54[] = {
    {"PRCPRP_PFXCPUAD", 20, 2,  U,  V, N, NULL, "IBM mon710 MRPRCPRP", "CPU address"},
    {"*",               22, 62, RS, V, N, NULL, "IBM mon710 MRPRCPRP", "reserved (see PRCDHF)"},
    PRCPRP_MID,
    {"PRCPRP_PLSSTLCT", 124, 256, HX, H, N, NULL, ZL09, ""},
    {"PRCPRP_PFXCPUTY", 380, 1,   U,  H, N, NULL, ZL09, "CPU type"},
};
/* clang-format on */

/* D5R2 PRCVOF: 24.  D5R6 PRCCFN: 24. */
/* clang-format off */
static const struct zl_field prcvof[] = {
    {"PRCVOF_PFXCPUAD", 20, 2, U, V, N, NULL, "IBM mon510 MRPRCVOF", "CPU address"},
};
static const struct zl_field prccfn[] = {
    {"PRCCFN_PFXCPUAD", 20, 2, U, V, N, NULL, "IBM mon440 MRPRCCFN", "CPU address"},
    {"PRCCFN_PCCCSU",   22, 1, U, V, N, NULL, "IBM mon440 MRPRCCFN", "crypto unit"},
};
/* clang-format on */

#define L(id, ds, r, min, lvl, src, f)                                                             \
        {                                                                                          \
                id, ds, 5, r, min, lvl, src, f, ZL_COUNT(f)                                        \
        }
/* clang-format off */
static const struct zl_layout layouts[] = {
    L("D5R2", "PRCVOF", 2, 24,  "z/VM 5.1+",    "IBM mon510 MRPRCVOF",        prcvof),
    L("D5R3", "PRCPRP", 3, 124, "z/VM 4.3-5.3", "IBM mon430 MRPRCPRP + zpmd", prcprp43),
    L("D5R3", "PRCPRP", 3, 384, "z/VM 5.4+",    "IBM mon710 MRPRCPRP + zpmd", prcprp54),
    L("D5R6", "PRCCFN", 6, 24,  "z/VM 4.4+",    "IBM mon440 MRPRCCFN",        prccfn),
};
/* clang-format on */
ZL_TABLE(d5, layouts);

/*
 * Layouts from IBM's pages alone (doc/facts/ibm-record-pages.md 7): each is
 * chosen at IBM's length for the level its page was read at and declares
 * only the fields that page shows; past what a page let read, the record
 * stays undeclared (partial, zvmmon layouts --coverage).
 */
/* D5R1 PRCVON: 32 (7.5); 24 holds 3 bytes whose name is cut off. */
/* clang-format off */
static const struct zl_field prcvon[] = {
    {"PRCVON_PFXCPUAD", 20, 2, U,  V, N, NULL, "IBM mon750 MRPRCVON", "processor address"},
    {"PRCVON_PFXIDMDL", 22, 2, HX, V, N, NULL, "IBM mon750 MRPRCVON", "CPU model number, packed decimal"},
};
/* clang-format on */

/* D5R2 PRCVOF: 28 (7.5), readable to 23. */
/* clang-format off */
static const struct zl_field prcvof75[] = {
    {"PRCVOF_PFXCPUAD", 20, 2, U, V, N, NULL, "IBM mon750 MRPRCVOF", "processor address"},
    {"PRCVOF_VOFFRSON", 22, 1, U, V, N, NULL, "IBM mon750 MRPRCVOF", "vary off reason: X'00' the VARY OFF command (the other values are cut off)"},
};
/* clang-format on */

/* clang-format off */
static const struct zl_layout pages[] = {
    L("D5R1", "PRCVON", 1, 32, "z/VM 7.5", "IBM mon750 MRPRCVON", prcvon),
    L("D5R2", "PRCVOF", 2, 28, "z/VM 7.5", "IBM mon750 MRPRCVOF", prcvof75),
};
/* clang-format on */
ZL_TABLE(d5p, pages);
