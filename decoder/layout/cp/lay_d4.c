/* SPDX-License-Identifier: MIT */
/*
 * Domain 4 (User) record layouts.  Facts: doc/facts/cp-records.md 1.
 *
 * USEACT: IBM prints bytes 20-32 (mon520, mon610, mon620); nothing past 32
 * is confirmed.  zpmd has no USEACT struct.  Its USELOF struct (a sibling
 * record whose verified bytes 20-32 are identical to USEACT's) puts
 * VMDTTIME at 36 and VMDVTIME at 44 after 32 VMDSLIST, 33 VMDELIST, 34
 * CALFLAG1, 35 VMDSTYPE; its USEATE struct has the same resource block 4
 * bytes earlier (VMDTTIME at 32).  The USEACT hint offsets below are that
 * USELOF alignment applied to the USEATE block (USEATE offset + 4).  They
 * are HINTs twice over and never reach a metric until a conservation law
 * (met_verify.c) has held for them.
 *
 * The two structs are of different ages (doc/facts/cp-records.md 17): USELOF
 * (and zpmd's empty USEACT) first appear in its 2023 "reconstruction in
 * progress" commit, marked TODO; USEATE is in the 2009 code but is 360
 * bytes long where IBM gives 352 already at z/VM 5.4 (mon540), so it holds
 * at least 8 bytes too many and some of its offsets are wrong, which ones
 * unknown.  D4R9 USEATE itself therefore gets no layout past its header.
 */
#include "layout/lay_short.h"

#define HL Z23 ", USELOF alignment"
#define HA "zpmd 2009 USEATE+4 (a 360-byte struct, IBM 352: 8+ bytes wrong)"

/* clang-format off */
#define USER_PREFIX(P, SRC)                                                                                      \
    {P "_VMDUSER",  20, 8, EB, V, N, NULL, SRC, "user ID"},                                                      \
    {P "_VMDCPUAD", 28, 2, U,  V, N, NULL, SRC, "virtual CPU address"},                                          \
    {P "_VMDMODE",  30, 1, BI, V, N, NULL, SRC, "guest machine mode (CP internal)"},                             \
    {P "_CALMODE",  31, 1, BI, V, N, NULL, SRC, "architecture mode bits"},                                       \
    {P "_VMDSLIST", 32, 1, U,  V, N, NULL, SRC, "scheduler list: X'37' dispatch, X'21' eligible, X'0B' dormant"}
/* clang-format on */

/* D4R3 USEACT: 364 (5.2), 440 (6.1), 508 (6.2), longer later. */
/* clang-format off */
static const struct zl_field useact[] = {
    USER_PREFIX("USEACT", "IBM mon620 MRUSEACT"),
    {"USEACT_VMDTTIME", 36,  8, T, H, K, "timer", HL, "total CPU time of the virtual CPU"},
    {"USEACT_VMDVTIME", 44,  8, T, H, K, "timer", HL, "virtual CPU time of the virtual CPU"},
    {"USEACT_VMDCTPVR", 68,  4, U, H, G, "pages", HA, "resident pages"},
    {"USEACT_VMDWSSPR", 76,  4, U, H, G, "pages", HA, "working set size"},
    {"USEACT_VMDCTPWT", 104, 4, U, H, K, "count", HA, "page waits"},
    {"USEACT_CALCPPGR", 108, 4, U, H, K, "pages", HA, "page reads"},
    {"USEACT_CALCPPGW", 112, 4, U, H, K, "pages", HA, "page writes"},
    {"USEACT_VMDVCSCT", 128, 4, U, H, K, "count", HA, "virtual I/O: console"},
    {"USEACT_VMDVDSCT", 132, 4, U, H, K, "count", HA, "virtual I/O: DASD"},
    {"USEACT_VMDVUSCT", 136, 4, U, H, K, "count", HA, "virtual I/O: unit record"},
    {"USEACT_VMDVTSCT", 140, 4, U, H, K, "count", HA, "virtual I/O: tape"},
    {"USEACT_VMDVOSCT", 144, 4, U, H, K, "count", HA, "virtual I/O: other"},
};
/* clang-format on */

/*
 * D4R4 USEINT: no IBM page was read.  Every user-domain record IBM prints
 * (USEACT, USELOF, USELON, USERDC, USESCP) starts with VMDUSER at 20, so
 * that one field is INFERRED; the rest is left out.
 */
/* clang-format off */
static const struct zl_field useint[] = {
    {"USEINT_VMDUSER", 20, 8, EB, I, N, NULL, "inferred: every user-domain record", "user ID"},
};
/* clang-format on */

/* D4R1 USELON: 180 (6.4). */
/* clang-format off */
static const struct zl_field uselon[] = {
    {"USELON_VMDUSER",  20, 8, EB, V, N, NULL, "IBM mon640 MRUSELON", "user ID"},
    {"USELON_VMDCPUAD", 28, 2, U,  V, N, NULL, "IBM mon640 MRUSELON", "CPU address"},
    {"USELON_VMDMODE",  30, 1, BI, V, N, NULL, "IBM mon640 MRUSELON", "machine mode"},
};
/* clang-format on */

/* D4R2 USELOF: 284 (4.3) .. 496 (6.2). */
/* clang-format off */
static const struct zl_field uselof[] = {
    USER_PREFIX("USELOF", "IBM mon620 MRUSELOF"),
};
/* clang-format on */

/* D4R7 USERDC: 32, complete. */
/* clang-format off */
static const struct zl_field userdc[] = {
    {"USERDC_VMDUSER",  20, 8, EB, V, N, NULL, "IBM mon430 MRUSERDC", "user ID"},
    {"USERDC_VMDCPUAD", 28, 2, U,  V, N, NULL, "IBM mon430 MRUSERDC", "old CPU address"},
    {"USERDC_NEWCPUAD", 30, 2, U,  V, N, NULL, "IBM mon430 MRUSERDC", "new CPU address"},
};
/* clang-format on */

/* D4R14 USESCP: 132 (7.4). */
/* clang-format off */
static const struct zl_field usescp[] = {
    {"USESCP_VMDUSER",  20, 8,  EB, V, N, NULL, "IBM mon740 MRUSESCP", "user ID"},
    {"USESCP_SCPTYPE",  28, 8,  EB, V, N, NULL, "IBM mon740 MRUSESCP", "control program type"},
    {"USESCP_SCPNAME",  36, 8,  EB, V, N, NULL, "IBM mon740 MRUSESCP", "system name"},
    {"USESCP_SCPPLEX",  44, 8,  EB, V, N, NULL, "IBM mon740 MRUSESCP", "sysplex or cluster"},
    {"USESCP_CALLEVEL", 52, 16, EB, V, N, NULL, "IBM mon740 MRUSESCP", "level"},
};
/* clang-format on */

#define L(id, ds, r, min, lvl, src, f)                                                             \
        {                                                                                          \
                id, ds, 4, r, min, lvl, src, f, ZL_COUNT(f)                                        \
        }
/* clang-format off */
static const struct zl_layout layouts[] = {
    L("D4R1",  "USELON", 1,  31,  "z/VM 6.4+",      "IBM mon640 MRUSELON",                      uselon),
    L("D4R2",  "USELOF", 2,  284, "z/VM 4.3+",      "IBM mon620 MRUSELOF",                      uselof),
    L("D4R3",  "USEACT", 3,  364, "z/VM 5.2+",      "IBM mon620 MRUSEACT + zpmd USELOF/USEATE", useact),
    L("D4R4",  "USEINT", 4,  28,  "any (inferred)", "inferred from the user-domain records",    useint),
    L("D4R7",  "USERDC", 7,  32,  "z/VM 4.3+",      "IBM mon430 MRUSERDC",                      userdc),
    L("D4R14", "USESCP", 14, 68,  "z/VM 7.4+",      "IBM mon740 MRUSESCP",                      usescp),
};
/* clang-format on */
ZL_TABLE(d4, layouts);
