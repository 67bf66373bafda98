/* SPDX-License-Identifier: MIT */
/*
 * Domain 1 (Monitor) record layouts.  Facts: doc/facts/cp-records.md 11-15
 * and 17.  Provenance tags as in lay_d0.c; the zpmd
 * sources by age in lay_short.h.  zpmd's 2009 main.c decodes MTREPR, MTRPRP
 * and MTRSPR; it declares MTRSYS (struct d1r4) but never reads it.
 */
#include "layout/lay_short.h"

/*
 * D1R1 MTREPR: 24 (4.4), 52 (7.1, 7.3).  IBM prints EDOMAINS as a 1-byte
 * bit string at 20 (mon440, mon710); what IBM puts at 21 is cut off on
 * every copy read, so byte 21 is not declared.
 */
/* clang-format off */
static const struct zl_field mtrepr[] = {
    {"MTREPR_EDOMAINS", 20, 1, BI, V, N, NULL, "IBM mon440 MRMTREPR", "event domains enabled, bit 0 (X'80') = domain 0"},
    {"MTREPR_CONFIG",   22, 2, U,  H, N, NULL, ZL09,                  ""},
};
/* clang-format on */

/* D1R2 MTRECM: 24 + command text. */
/* clang-format off */
static const struct zl_field mtrecm[] = {
    {"MTRECM_CALBYCT", 20, 4, U, V, N, "bytes", "IBM mon640 MRMTRECM", "command text length"},
};
/* clang-format on */

/*
 * D1R4 MTRSYS: 108 (4.2), 176 (4.3, 4.4), 184 (5.1), 420 (6.1).  Only
 * HCPCPEPP is printed by IBM; the rest is zpmd, length-consistent at 108,
 * 176 and 184 (field order supported, sizes inside a block not proven).
 * 148-175 copy STSI's SYSIB 2.2.2 (LPAR number, a reserved byte, the
 * characteristics byte, CPU counts, name, CAF ...), so CPUCHAR is at 151,
 * not at 150 where zpmd's d1r4 put it (its own SYTCUG has 151).
 */
/* clang-format off */
#define MTRSYS_FIELDS(A, HS)                                                                                                    \
    {"MTRSYS_HCPCPEPP", 20,      8,  BI,     V, N, NULL,    "IBM mon420 MRMTRSYS",    "program product bit map"},               \
    {"MTRSYS_HCPCPEID", 28,      8,  HX,     H, N, NULL,    HS,                       "CP identification"},                     \
    {"MTRSYS_SYSTODST", 36 + A,  8,  ZL_TOD, H, N, "tod",   HS,                       "time of last IPL"},                      \
    {"MTRSYS_SYSTERM",  44 + A,  8,  ZL_TOD, H, N, "tod",   HS,                       "time of last termination"},              \
    {"MTRSYS_SYSDATE",  52 + A,  8,  EB,     H, N, NULL,    HS,                       "date"},                                  \
    {"MTRSYS_SYSABNCD", 60 + A,  8,  HX,     H, N, NULL,    HS,                       "abend code of last termination"},        \
    {"MTRSYS_SYSZONE",  80 + A,  4,  SI,     H, N, NULL,    HS,                       "time-zone offset (unit unknown)"},       \
    {"MTRSYS_CALFLGS",  84 + A,  1,  BI,     H, N, NULL,    HS,                       "flags"},                                 \
    {"MTRSYS_CALFLG2",  86 + A,  1,  BI,     H, N, NULL,    HS,                       "X'80' format-1 measurement blocks"},     \
    {"MTRSYS_SYSTMID",  88 + A,  8,  EB,     H, N, NULL,    HS,                       "system identifier"},                     \
    {"MTRSYS_SYSCKVOL", 96 + A,  6,  EB,     H, N, NULL,    HS,                       "checkpoint volume"},                     \
    {"MTRSYS_SYSWMVOL", 102 + A, 6,  EB,     H, N, NULL,    HS,                       "warm-start volume"},                     \
    {"MTRSYS_SYSMTYPE", 108 + A, 4,  EB,     H, N, NULL,    HS,                       "machine type"},                          \
    {"MTRSYS_SYSMMODL", 112 + A, 16, EB,     H, N, NULL,    HS,                       "model"},                                 \
    {"MTRSYS_SYSMSEQC", 128 + A, 16, EB,     H, N, NULL,    HS,                       "sequence code"},                         \
    {"MTRSYS_SYSMPOM",  144 + A, 4,  EB,     H, N, NULL,    HS,                       ""},                                      \
    {"MTRSYS_LPNUMBER", 148 + A, 2,  U,      H, N, NULL,    HS,                       "LPAR number"},                           \
    {"*",               150 + A, 1,  RS,     H, N, NULL,    HS " + STSI SYSIB 2.2.2", "reserved"},                              \
    {"MTRSYS_CPUCHAR",  151 + A, 1,  BI,     H, N, NULL,    HS " + STSI SYSIB 2.2.2", "LPAR characteristics byte (zpmd: 150)"}, \
    {"MTRSYS_CPUCOUNT", 152 + A, 2,  U,      H, G, "count", HS,                       "CPU count (STSI)"},                      \
    {"MTRSYS_CPUCFGCT", 154 + A, 2,  U,      H, G, "count", HS,                       "configured CPUs"},                       \
    {"MTRSYS_CPUSTNBY", 156 + A, 2,  U,      H, G, "count", HS,                       "standby CPUs"},                          \
    {"MTRSYS_CPURESVD", 158 + A, 2,  U,      H, G, "count", HS,                       "reserved CPUs"},                         \
    {"MTRSYS_LPARNAME", 160 + A, 8,  EB,     H, N, NULL,    HS,                       "LPAR name"},                             \
    {"MTRSYS_LPARCAF",  168 + A, 4,  U,      H, G, NULL,    HS,                       "capacity adjustment factor"},            \
    {"MTRSYS_CPUDEDCT", 172 + A, 2,  U,      H, G, "count", HS,                       "dedicated CPUs"},                        \
    {"MTRSYS_CPUSHARD", 174 + A, 2,  U,      H, G, "count", HS,                       "shared CPUs"},                           \
    {"MTRSYS_CPUCAPAB", 176 + A, 4,  U,      H, G, NULL,    HS,                       "CPU capability"},                        \
    {"MTRSYS_SCPCAPAB", 180 + A, 4,  U,      H, G, NULL,    HS,                       ""}
/* clang-format on */
static const struct zl_field mtrsys[] = {MTRSYS_FIELDS(0, Z09)};
/*
 * The aligned reading: zpmd's d1r4 struct as gcc lays it out puts SYSTODST
 * on an 8-byte boundary, every field from it on 4 bytes further (192
 * bytes).  IBM's lengths 108, 176 and 184 fall on field boundaries only
 * when packed, which favours the default; the data decide (met_reading.c).
 */
#define ZA Z09 ", as compiled (8-byte aligned)"
static const struct zl_field mtrsys_al[] = {MTRSYS_FIELDS(4, ZA)};

/* D1R5 MTRPRP: 40 (4.3, 4.4); zpmd 5.3 struct 44. */
/* clang-format off */
static const struct zl_field mtrprp[] = {
    {"MTRPRP_PFXCPUAD", 20, 2, U,  V, N, NULL, "IBM mon440 MRMTRPRP", "CPU address"},
    {"MTRPRP_PFXIDMDL", 22, 2, HX, V, N, NULL, "IBM mon440 MRMTRPRP", "CPU model number, packed decimal"},
    {"MTRPRP_PFXIDSER", 24, 3, HX, V, N, NULL, "IBM mon440 MRMTRPRP", "CPU serial number, packed decimal"},
    {"MTRPRP_PFXVFST",  27, 1, BI, V, N, NULL, "IBM mon440 MRMTRPRP", "vector facility status"},
    {"MTRPRP_CALFLAGS", 28, 1, BI, V, N, NULL, "IBM mon440 MRMTRPRP", "X'80' crypto facility online"},
    {"MTRPRP_PCCCSU",   29, 1, U,  V, N, NULL, "IBM mon440 MRMTRPRP", "crypto unit id"},
    {"MTRPRP_PFXIDVER", 30, 1, U,  V, N, NULL, "IBM mon440 MRMTRPRP", "model version code"},
    {"MTRPRP_PFXTYPE",  31, 1, U,  H, N, NULL, ZL09,                  ""},
    {"MTRPRP_CALUDED",  32, 8, EB, H, N, NULL, ZL09,                  ""},
    {"MTRPRP_PFXCPUTY", 40, 1, U,  H, N, NULL, ZL09,                  "CPU type"},
};
/* clang-format on */

/* D1R9 MTRSPR: 36 (4.3, 5.4), 48 (6.2), 52 (7.5). */
/* clang-format off */
static const struct zl_field mtrspr[] = {
    {"MTRSPR_INTERVAL", 20, 4, SI, V, N, "s",  "IBM mon540 MRMTRSPR", "sample interval (seconds per zpmd; IBM text gives no unit)"},
    {"MTRSPR_HFRATE",   24, 4, SI, H, N, "cs", ZL09,                  "high-frequency sampling rate"},
    {"MTRSPR_SDOMAINS", 28, 2, BI, H, N, NULL, ZL09,                  "sample domains, X'8000' = domain 0"},
    {"MTRSPR_HDOMAINS", 30, 1, BI, H, N, NULL, ZL09,                  "high-frequency domains"},
    {"*",               31, 1, RS, H, N, NULL, ZL09,                  "reserved"},
    {"MTRSPR_CONFIG",   32, 2, U,  H, N, NULL, ZL09,                  ""},
};
/* clang-format on */

/* D1R10 MTRSCM: 32 + command text. */
/* clang-format off */
static const struct zl_field mtrscm[] = {
    {"MTRSCM_CALTOD",  20, 8, ZL_TOD, V, N, "tod",   "IBM mon710 MRMTRSCM", "time of the command"},
    {"MTRSCM_CALBYCT", 28, 4, U,      V, N, "bytes", "IBM mon710 MRMTRSCM", "command text length"},
};
/* clang-format on */

/* D1R15 MTRUSR: 204 (5.4), 224 (6.2). */
/* clang-format off */
static const struct zl_field mtrusr[] = {
    {"MTRUSR_VMDUSER",  20, 8, EB, V, N, NULL, "IBM mon620 MRMTRUSR", "user ID"},
    {"MTRUSR_VMDCPUAD", 28, 2, U,  V, N, NULL, "IBM mon620 MRMTRUSR", "CPU address"},
};
/* clang-format on */

/* D1R21 MTRMCC: 36. */
/* clang-format off */
static const struct zl_field mtrmcc[] = {
    {"MTRMCC_SYSGSTBY", 20, 8, U, V, G, "bytes", "IBM mon610 MRMTRMCC", "standby central storage"},
    {"MTRMCC_SYSGSTRS", 28, 8, U, V, G, "bytes", "IBM mon610 MRMTRMCC", "reserved central storage"},
};
/* clang-format on */

/* D1R25 MTRSSI: 44 (6.4). */
/* clang-format off */
static const struct zl_field mtrssi[] = {
    {"MTRSSI_SYSPLXNM", 20, 8, EB, V, N, NULL,    "IBM mon640 MRMTRSSI", "SSI name"},
    {"MTRSSI_SYSPLXLV", 28, 2, U,  V, N, NULL,    "IBM mon640 MRMTRSSI", "SSI level"},
    {"MTRSSI_SYSPLXML", 30, 2, U,  V, N, NULL,    "IBM mon640 MRMTRSSI", "maximum level"},
    {"MTRSSI_SYSPLXNS", 32, 2, U,  V, G, "count", "IBM mon640 MRMTRSSI", "slots configured"},
    {"MTRSSI_SYSPLXNR", 34, 2, U,  V, G, "count", "IBM mon640 MRMTRSSI", "slots in use"},
    {"MTRSSI_CALENTSZ", 36, 2, U,  V, N, "bytes", "IBM mon640 MRMTRSSI", "member entry size"},
};
/* clang-format on */

/* D1R31 MTRSRV: 28. */
/* clang-format off */
static const struct zl_field mtrsrv[] = {
    {"MTRSRV_SRVOFF", 20, 2, U, V, N, "bytes", "IBM mon720 MRMTRSRV", "offset of the service structure"},
    {"MTRSRV_SRVLEN", 22, 2, U, V, N, "bytes", "IBM mon720 MRMTRSRV", "length of the service structure"},
    {"MTRSRV_LNELEN", 24, 2, U, V, N, "bytes", "IBM mon720 MRMTRSRV", "line length"},
};
/* clang-format on */

/* D1R33 MTRFCC: 24. */
/* clang-format off */
static const struct zl_field mtrfcc[] = {
    {"MTRFCC_FCARDEV", 20, 2, U, V, N, NULL, "IBM mon640 MRMTRFCC", "FCP device number"},
};
/* clang-format on */

#define L(id, ds, r, min, lvl, src, f, n)                                                          \
        {                                                                                          \
                id, ds, 1, r, min, lvl, src, f, n                                                  \
        }
#define LA(id, ds, r, min, lvl, src, f, n)                                                         \
        {                                                                                          \
                id, ds, 1, r, min, lvl, src, f, n, "aligned"                                       \
        }
/* clang-format off */
static const struct zl_layout layouts[] = {
    L("D1R1", "MTREPR", 1, 24,  "z/VM 4.4+",    "IBM mon440 MRMTREPR + zpmd", mtrepr, ZL_COUNT(mtrepr)),
    L("D1R2", "MTRECM", 2, 24,  "z/VM 6.3+",    "IBM mon640 MRMTRECM",        mtrecm, ZL_COUNT(mtrecm)),
    L("D1R4", "MTRSYS", 4, 108, "z/VM 4.2",     "IBM mon420 MRMTRSYS + zpmd", mtrsys, 12),
    L("D1R4", "MTRSYS", 4, 176, "z/VM 4.3-4.4", "IBM mon430 MRMTRSYS + zpmd", mtrsys, 27),
    L("D1R4", "MTRSYS", 4, 184, "z/VM 5.1+",    "IBM mon510 MRMTRSYS + zpmd", mtrsys, ZL_COUNT(mtrsys)),
    LA("D1R4", "MTRSYS", 4, 108, "z/VM 4.2",     "IBM mon420 MRMTRSYS + zpmd aligned", mtrsys_al, 11),
    LA("D1R4", "MTRSYS", 4, 176, "z/VM 4.3-4.4", "IBM mon430 MRMTRSYS + zpmd aligned", mtrsys_al, 25),
    LA("D1R4", "MTRSYS", 4, 184, "z/VM 5.1+",    "IBM mon510 MRMTRSYS + zpmd aligned", mtrsys_al, ZL_COUNT(mtrsys_al) - 1),
    L("D1R5",  "MTRPRP", 5,  40, "z/VM 4.3-4.4", "IBM mon440 MRMTRPRP + zpmd",        mtrprp, 9),
    L("D1R5",  "MTRPRP", 5,  44, "z/VM 5.3+",    "IBM mon440 MRMTRPRP + zpmd",        mtrprp, ZL_COUNT(mtrprp)),
    L("D1R9",  "MTRSPR", 9,  36, "z/VM 4.3+",    "IBM mon540 MRMTRSPR + zpmd",        mtrspr, ZL_COUNT(mtrspr)),
    L("D1R10", "MTRSCM", 10, 32, "z/VM 4.4+",    "IBM mon710 MRMTRSCM",               mtrscm, ZL_COUNT(mtrscm)),
    L("D1R11", "MTREND", 11, 20, "z/VM 4.2+",    "IBM mon730 MRMTREND (header only)", NULL,   0),
    L("D1R12", "MTRSOS", 12, 20, "z/VM 5.2+",    "IBM mon720 MRMTRSOS (header only)", NULL,   0),
    L("D1R13", "MTREOF", 13, 20, "z/VM 4.2+",    "IBM mon730 MRMTREOF (header only)", NULL,   0),
    L("D1R15", "MTRUSR", 15, 30, "z/VM 5.4+",    "IBM mon620 MRMTRUSR",               mtrusr, ZL_COUNT(mtrusr)),
    L("D1R21", "MTRMCC", 21, 36, "z/VM 6.1+",    "IBM mon610 MRMTRMCC",               mtrmcc, ZL_COUNT(mtrmcc)),
    L("D1R25", "MTRSSI", 25, 38, "z/VM 6.4+",    "IBM mon640 MRMTRSSI",               mtrssi, ZL_COUNT(mtrssi)),
    L("D1R31", "MTRSRV", 31, 28, "z/VM 7.2+",    "IBM mon720 MRMTRSRV",               mtrsrv, ZL_COUNT(mtrsrv)),
    L("D1R33", "MTRFCC", 33, 24, "z/VM 6.4+",    "IBM mon640 MRMTRFCC",               mtrfcc, ZL_COUNT(mtrfcc)),
};
/* clang-format on */
ZL_TABLE(d1, layouts);

/*
 * Layouts from IBM's pages alone (doc/facts/ibm-record-pages.md 3, 7): each is
 * chosen at IBM's length for the level its page was read at and declares
 * only the fields that page shows, every one VERIFIED; past what a page
 * let read, the record stays undeclared (partial, zvmmon layouts
 * --coverage).  IBM types a binary value it prints as Character (a size in
 * bytes, a count of frames) as Character: such fields are hex here.
 */
/* D1R7 MTRMEM: 326 (7.3). */
/* clang-format off */
static const struct zl_field mtrmem[] = {
    {"MTRMEM_RSASTORE", 20, 4, U, V, G, "bytes", "IBM mon730 MRMTRMEM", "actual real storage size"},
};
/* clang-format on */

/* D1R16 MTRSCH: 128+ (7.5), readable to 24. */
/* clang-format off */
static const struct zl_field mtrsch[] = {
    {"MTRSCH_SRMBIASI", 20, 4, U, V, N, NULL, "IBM mon750 MRMTRSCH", "interactive bias intensity, as set or defaulted by SET SRM"},
};
/* clang-format on */

/* D1R21 MTRMCC: 48 (6.2, 7.5), complete. */
/* clang-format off */
static const struct zl_field mtrmcc62[] = {
    {"MTRMCC_SYSGSTBY", 20, 8, HX, V, N, "bytes",  "IBM mon750 MRMTRMCC", "standby central storage (Character 8)"},
    {"MTRMCC_SYSGSTRS", 28, 8, HX, V, N, "bytes",  "IBM mon750 MRMTRMCC", "reserved central storage (Character 8)"},
    {"MTRMCC_RSAGOFFL", 36, 8, HX, V, N, "frames", "IBM mon620 MRMTRMCC", "offline frames above 2 GB (Character 8)"},
    {"MTRMCC_RSAOFFLN", 44, 4, HX, V, N, "frames", "IBM mon620 MRMTRMCC", "offline frames below 2 GB (Character 4)"},
};
/* clang-format on */

/* D1R28 MTRCPC and D1R29 MTRCPD: 40 (7.3), readable to 29. */
/* clang-format off */
static const struct zl_field mtrcpc[] = {
    {"MTRCPC_LIMPOOL", 20, 8, EB, V, N, NULL, "IBM mon730 MRMTRCPC", "CPU pool name"},
    {"MTRCPC_FLAGS",   28, 1, BI, V, N, NULL, "IBM mon730 MRMTRCPC", "flags (their meanings are cut off)"},
};
static const struct zl_field mtrcpd[] = {
    {"MTRCPD_LIMPOOL", 20, 8, EB, V, N, NULL, "IBM mon730 MRMTRCPD", "CPU pool name"},
    {"MTRCPD_FLAGS",   28, 1, BI, V, N, NULL, "IBM mon730 MRMTRCPD", "flags: X'80' MTRCPD_CPUAFFON (the rest is cut off)"},
};
/* clang-format on */

/* D1R32 MTRCHC: 24 (7.5), complete. */
/* clang-format off */
static const struct zl_field mtrchc[] = {
    {"MTRCHC_CHACHPID", 20, 1, U,  V, N, NULL, "IBM mon750 MRMTRCHC", "FCP CHPID in use by EDEVs"},
    {"*",               21, 3, RS, V, N, NULL, "IBM mon750 MRMTRCHC", "reserved"},
};
/* clang-format on */

/* D1R37 MTRFAC: 36 (7.3); 28 is a fullword whose name is cut off. */
/* clang-format off */
static const struct zl_field mtrfac[] = {
    {"MTRFAC_VMDUSER", 20, 8, EB, V, N, NULL, "IBM mon730 MRMTRFAC", "user that issued SET FACILITY ... SYSTEM"},
};
/* clang-format on */

/* clang-format off */
static const struct zl_layout pages[] = {
    L("D1R7",  "MTRMEM", 7,  326, "z/VM 7.3",  "IBM mon730 MRMTRMEM",        mtrmem,   ZL_COUNT(mtrmem)),
    L("D1R16", "MTRSCH", 16, 128, "z/VM 7.5",  "IBM mon750 MRMTRSCH",        mtrsch,   ZL_COUNT(mtrsch)),
    L("D1R21", "MTRMCC", 21, 48,  "z/VM 6.2+", "IBM mon620/mon750 MRMTRMCC", mtrmcc62, ZL_COUNT(mtrmcc62)),
    L("D1R28", "MTRCPC", 28, 40,  "z/VM 7.3",  "IBM mon730 MRMTRCPC",        mtrcpc,   ZL_COUNT(mtrcpc)),
    L("D1R29", "MTRCPD", 29, 40,  "z/VM 7.3",  "IBM mon730 MRMTRCPD",        mtrcpd,   ZL_COUNT(mtrcpd)),
    L("D1R32", "MTRCHC", 32, 24,  "z/VM 7.5",  "IBM mon750 MRMTRCHC",        mtrchc,   ZL_COUNT(mtrchc)),
    L("D1R37", "MTRFAC", 37, 36,  "z/VM 7.3",  "IBM mon730 MRMTRFAC",        mtrfac,   ZL_COUNT(mtrfac)),
};
/* clang-format on */
ZL_TABLE(d1p, pages);
