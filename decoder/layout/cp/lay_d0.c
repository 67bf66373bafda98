/* SPDX-License-Identifier: MIT */
/*
 * Domain 0 (System) record layouts.  Offsets count from the record start.
 * Provenance per field: VERIFIED = printed on the IBM page named in the
 * source string; HINT = zpmd's z/VM 5.3 transcription (pak-center/zpmd,
 * read packed), to be proven at run time (met_verify.c); INFERRED = forced
 * by verified facts, reason in the description.
 * Facts: doc/facts/cp-records.md sections 2-7 and 17.
 *
 * zpmd has two ages and its hints deserve different trust (section 17):
 * its 2009 code, whose main.c decoded the record on a live z/VM 5.3 ("live
 * 5.3") or only declared the struct ("zpmd 2009"), and the structs first
 * added in 2023 while "reconstruction in progress" (marked TODO), the least
 * trusted.  The source string of every HINT field says which (lay_short.h).
 */
#include "layout/lay_short.h"

/* D0R1 SYTSYP: 96 bytes (4.2-5.1), 116 (6.4, 7.3). */
/* clang-format off */
static const struct zl_field sytsyp[] = {
    {"SYTSYP_PFXCPUAD", 20, 2, U,  V, N, NULL,    "IBM mon730 MRSYTSYP", "CPU address"},
    {"*",               22, 2, RS, V, N, NULL,    "IBM mon730 MRSYTSYP", "reserved"},
    {"SYTSYP_PLSABNCT", 24, 4, U,  V, K, "count", "IBM mon730 MRSYTSYP", "soft abends taken"},
    {"SYTSYP_PLSDIAGT", 28, 4, U,  V, K, "count", "IBM mon730 MRSYTSYP", "IBM-supplied DIAGNOSE instructions"},
    {"SYTSYP_PLSPRVIS", 32, 4, U,  V, K, "count", "IBM mon730 MRSYTSYP", "simulated instructions"},
    {"SYTSYP_PLSEXTNX", 36, 4, U,  V, K, "count", "IBM mon730 MRSYTSYP", "external interrupts received by this CPU"},
    {"SYTSYP_PLSEXTNC", 40, 4, U,  V, K, "count", "IBM mon730 MRSYTSYP", "SIGP external calls"},
    {"SYTSYP_PLSMCHCT", 44, 4, U,  V, K, "count", "IBM mon440 MRSYTSYP", "machine checks"},
    {"SYTSYP_PLSCTSS",  48, 4, U,  V, K, "count", "IBM mon440 MRSYTSYP", "START SUBCHANNELs executed"},
    {"SYTSYP_PLSCTRS",  52, 4, U,  V, K, "count", "IBM mon440 MRSYTSYP", "RESUME SUBCHANNELs executed"},
    {"SYTSYP_PLSCTCS",  56, 4, U,  H, K, "count", ZL09,                  "clear subchannels"},
    {"SYTSYP_PLSCTHS",  60, 4, U,  H, K, "count", ZL09,                  "halt subchannels"},
    {"SYTSYP_PLSCTSI",  64, 4, U,  H, K, "count", ZL09,                  "I/O interrupt count (meaning guessed)"},
    {"SYTSYP_PLSCTUI",  68, 4, U,  H, K, "count", ZL09,                  "I/O interrupt count (meaning guessed)"},
    {"SYTSYP_PLSPIOPR", 72, 4, U,  H, K, "pages", ZL09,                  "paging I/O reads (meaning guessed)"},
    {"SYTSYP_PLSPIOPW", 76, 4, U,  H, K, "pages", ZL09,                  "paging I/O writes (meaning guessed)"},
    {"SYTSYP_PLSPIOSR", 80, 4, U,  H, K, "count", ZL09,                  "spooling I/O reads (meaning guessed)"},
    {"SYTSYP_PLSPIOSW", 84, 4, U,  H, K, "count", ZL09,                  "spooling I/O writes (meaning guessed)"},
    {"SYTSYP_PLSDGUCT", 88, 4, U,  H, K, "count", ZL09,                  ""},
    {"SYTSYP_PLSXITCT", 92, 4, U,  H, K, "count", ZL09,                  ""},
    /* 6.4 and later (116 bytes) */
    {"SYTSYP_PLSPAGPS", 96,  4, U, H, K, "count", ZL09, ""},
    {"SYTSYP_PLSSTKPE", 100, 4, U, H, K, "count", ZL09, ""},
    {"SYTSYP_PLSTMRCE", 104, 4, U, H, K, "count", ZL09, ""},
    {"SYTSYP_PLSPRVSC", 108, 4, U, H, K, "count", ZL09, ""},
    {"SYTSYP_PFXCPUTY", 112, 1, U, H, N, NULL,    ZL09, "CPU type"},
};
/* clang-format on */

/*
 * D0R2 SYTPRP: 104 (4.3), 124 (5.4), 140 (6.1/6.2), 352 (6.4).  From 6.4
 * IBM says PFXPRBTM starts near X'7FFFFFFF00000000' and counts down; the
 * older pages do not say, so the older layouts type it as counting up and
 * the metric layer accepts either direction (metric/cp/met_cp_close.c).
 */
/* clang-format off */
#define SYTPRP_FIELDS(PRBTYPE, PRBSRC, A, HS)                                                                                        \
    {"SYTPRP_PFXCPUAD", 20,      2,      U,       V, N, NULL,    "IBM mon640 MRSYTPRP", "real CPU address"},                         \
    {"SYTPRP_PLSCUHAF", 22,      2,      U,       V, K, "count", "IBM mon640 MRSYTPRP", "dispatches of a VMDBK with hard affinity"}, \
    {"SYTPRP_PFXPRBTM", 24,      8,      PRBTYPE, V, K, "timer", PRBSRC,                "CPU time in emulation mode, all users"},    \
    {"SYTPRP_PFXUTIME", 32,      8,      T,       V, K, "timer", "IBM mon640 MRSYTPRP", "CPU time charged to users"},                \
    {"SYTPRP_PFXTMSYS", 40,      8,      T,       V, K, "timer", "IBM mon610 MRSYTPRP", "CPU time charged to the system"},           \
    {"*",               48,      20 + A, RS,      H, N, NULL,    HS,                    "reserved"},                                 \
    {"SYTPRP_PFXTOTWT", 68 + A,  8,      T,       H, K, "timer", HS,                    "total wait time"},                          \
    {"SYTPRP_PFXRUNCI", 76 + A,  4,      U,       H, K, "count", HS,                    "SIE-related counter"},                      \
    {"SYTPRP_PFXRUNPF", 80 + A,  4,      U,       H, K, "count", HS,                    "SIE-related counter"},                      \
    {"SYTPRP_PFXRUNCP", 84 + A,  4,      U,       H, K, "count", HS,                    "SIE entries"},                              \
    {"SYTPRP_CALFSTPH", 88 + A,  4,      U,       H, K, "count", HS,                    ""},                                         \
    {"SYTPRP_PFXSPINT", 92 + A,  8,      T,       H, K, "timer", HS,                    "spin-lock time"},                           \
    {"SYTPRP_PFXSPINC", 100 + A, 4,      U,       H, K, "count", HS,                    "spin-lock count"},                          \
    {"SYTPRP_PFXCPUTY", 104 + A, 1,      U,       H, N, NULL,    HS,                    "CPU type"}
/* clang-format on */
#define P610 "IBM mon610 MRSYTPRP"
#define P640 "IBM mon640 MRSYTPRP (counts down)"
static const struct zl_field sytprp[] = {SYTPRP_FIELDS(T, P610, 0, Z09)};
static const struct zl_field sytprp64[] = {SYTPRP_FIELDS(TD, P640, 0, Z09)};
/*
 * The aligned reading (doc/facts/cp-records.md 17): zpmd's d0r2 struct as gcc
 * lays it out, with PFXTOTWT on an 8-byte boundary, puts every field from
 * PFXTOTWT on 4 bytes further (72 ... 108, 112 bytes).  The default reading
 * is packed, as IBM's DSECTs are; only the data can tell (met_reading.c).
 */
#define ZA Z09 ", as compiled (8-byte aligned)"
static const struct zl_field sytprp_al[] = {SYTPRP_FIELDS(T, P610, 4, ZA)};
static const struct zl_field sytprp64_al[] = {SYTPRP_FIELDS(TD, P640, 4, ZA)};

/*
 * D0R3 SYTRSG: 128 (5.1), 224 (5.2), 604 (7.5, mon750: offset 20 reserved);
 * zpmd 5.3 is 492.  Frames are 4 KB.  The 7.5 length has a layout of its
 * own so that it is recognised as a known level; its hints are still
 * zpmd's 5.3 ones (IBM only retires fields, it does not move them), to be
 * proven by the storage law on 7.5 data like on any other.
 */
/* clang-format off */
#define SYTRSG_HINTS                                                                    \
    {"SYTRSG_SYSRSVPG", 36, 4, U,  H, G, "frames", ZL09, "reserved pages"},             \
    {"SYTRSG_RSACPLOK", 40, 4, U,  H, G, "frames", ZL09, "CP-locked frames"},           \
    {"SYTRSG_RSANONPG", 44, 4, U,  H, G, "frames", ZL09, "non-pageable frames"},        \
    {"SYTRSG_RSAPGABL", 48, 4, U,  H, G, "frames", ZL09, "pageable frames"},            \
    {"SYTRSG_RSAAVAIL", 52, 4, U,  H, G, "frames", ZL09, "available frames"},           \
    {"SYTRSG_RSAFRQWT", 56, 4, U,  H, G, "count",  ZL09, "frame requests waiting"},     \
    {"SYTRSG_RSAXTEND", 60, 4, U,  H, K, "count",  ZL09, ""},                           \
    {"SYTRSG_RSASAVFR", 68, 4, U,  H, G, "frames", ZL09, "frames used for save areas"}, \
    {"SYTRSG_CALFLAG1", 73, 1, BI, H, N, NULL,     ZL09, "flags"}
static const struct zl_field sytrsg51[] = {
    {"SYTRSG_RSAFSTOR", 20, 4, U, V, G, "frames", "IBM mon510 MRSYTRSG", "(retired in 5.2)"},
    SYTRSG_HINTS,
};
static const struct zl_field sytrsg52[] = {
    {"*", 20, 4, RS, V, N, NULL, "IBM mon520 MRSYTRSG", "reserved (was RSAFSTOR)"},
    SYTRSG_HINTS,
    {"SYTRSG_RSALGFRM", 128, 8, U, H, G, "frames", ZL09, ""},
    {"SYTRSG_RSA2GAVL", 140, 8, U, H, G, "frames", ZL09, ""},
};
static const struct zl_field sytrsg75[] = {
    {"*", 20, 4, RS, V, N, NULL, "IBM mon750 MRSYTRSG", "reserved for IBM use"},
    SYTRSG_HINTS,
    {"SYTRSG_RSALGFRM", 128, 8, U, H, G, "frames", ZL09, ""},
    {"SYTRSG_RSA2GAVL", 140, 8, U, H, G, "frames", ZL09, ""},
};
/* clang-format on */

/* D0R4 SYTRSP: 48 (4.3). */
/* clang-format off */
static const struct zl_field sytrsp[] = {
    {"SYTRSP_PFXCPUAD", 20, 2, U,  V, N, NULL,     "IBM mon430 MRSYTRSP", "CPU address"},
    {"*",               22, 2, RS, V, N, NULL,     "IBM mon430 MRSYTRSP", "reserved"},
    {"SYTRSP_PLSSTLFR", 24, 4, U,  V, K, "frames", "IBM mon430 MRSYTRSP", "frames taken for the free-storage extend condition"},
};
/* clang-format on */

/* D0R8 SYTUSR: 100 (4.3, 6.1), 108 (6.4); zpmd's 104 conflicts, so 100+ is left out. */
/* clang-format off */
static const struct zl_field sytusr[] = {
    {"SYTUSR_SYSUSRS",  20, 4, U, V, G, "users", "IBM mon640 MRSYTUSR",               "logged-on users"},
    {"SYTUSR_SRMCDORM", 24, 4, U, V, G, "users", "IBM mon640 MRSYTUSR",               "VMDBKs on the dormant list"},
    {"SYTUSR_CALMPTRV", 28, 8, U, V, K, "tod",   "IBM mon640 MRSYTUSR",               "time of trivial transactions, virtual-MP users"},
    {"SYTUSR_CALMPTCT", 36, 4, U, V, K, "count", "IBM mon640 MRSYTUSR",               "trivial transactions, virtual-MP users"},
    {"SYTUSR_CALMPNTR", 40, 8, U, V, K, "tod",   "IBM mon430 MRSYTUSR",               "time of non-trivial transactions, virtual-MP users"},
    {"SYTUSR_CALMPNCT", 48, 4, U, V, K, "count", "IBM mon430 MRSYTUSR",               "non-trivial transactions, virtual-MP users"},
    {"SYTUSR_CALUPTRV", 52, 8, U, H, K, "tod",   "IBM mon430 MRSYTUSR (type) + " Z23, "time of trivial transactions, uniprocessor users"},
    {"SYTUSR_CALUPTCT", 60, 4, U, H, K, "count", Z23,                                 ""},
    {"SYTUSR_CALUPNTR", 64, 8, U, H, K, "tod",   Z23,                                 ""},
    {"SYTUSR_CALUPNCT", 72, 4, U, H, K, "count", Z23,                                 ""},
    {"SYTUSR_CALQDNTR", 76, 8, U, H, K, "tod",   Z23,                                 ""},
    {"SYTUSR_CALQDNCT", 84, 4, U, H, K, "count", Z23,                                 ""},
    {"SYTUSR_SYSDIALD", 88, 4, U, H, G, "users", Z23,                                 "users attached by DIAL"},
    {"SYTUSR_SYSLUCNT", 92, 4, U, H, G, "count", Z23,                                 ""},
    {"SYTUSR_SYSIOPQ",  96, 4, U, H, G, "count", Z23,                                 ""},
};
/* clang-format on */

/* D0R15 SYTCUG: 28 (4.2), 56 (4.3). */
/* clang-format off */
static const struct zl_field sytcug[] = {
    {"SYTCUG_LCUTNPAR", 20, 1, U, V, G, "count", "IBM mon430 MRSYTCUG", "defined logical partitions"},
};
/* clang-format on */

/*
 * D0R16 SYTCUP: fixed part 44 (4.2), 64 (5.1-6.2), all zpmd (packed; the
 * IBM lengths fall on its field boundaries).  The per-CPU entries are found
 * with CALCPUOF and CALCPULN, as IBM insists; they have their own layout.
 * The entry's two times carry the names of DIAGNOSE X'204''s acc_time and
 * lp_time (Linux asm/diag.h), which s390-tools' hyptop reads as dispatch
 * time including LPAR management and CPU time without it: management is
 * their difference (indirect evidence, doc/facts/cp-records.md 17).
 */
/* clang-format off */
static const struct zl_field sytcup[] = {
    {"SYTCUP_LCUPNAME", 20, 8,  EB,      H, N, NULL,    Z23, "partition name"},
    {"SYTCUP_LCUPPNUM", 28, 1,  U,       H, N, NULL,    Z23, "partition number"},
    {"SYTCUP_CALFLGS",  29, 1,  BI,      H, N, NULL,    Z23, "flags"},
    {"SYTCUP_LCUPCPCT", 30, 1,  U,       H, G, "count", Z23, "logical CPUs (entries)"},
    {"*",               31, 1,  RS,      H, N, NULL,    Z23, "reserved"},
    {"SYTCUP_CALCPUOF", 32, 2,  ZL_SINT, H, N, "bytes", Z23, "offset of the first CPU entry from the record start"},
    {"SYTCUP_CALCPULN", 34, 2,  ZL_SINT, H, N, "bytes", Z23, "length of one CPU entry"},
    {"SYTCUP_LCUTCTOD", 36, 8,  ZL_TOD,  H, N, "tod",   Z23, "time of the data"},
    {"SYTCUP_LCPTYPE",  44, 16, HX,      H, N, NULL,    Z23, ""},
    {"SYTCUP_LCXPUPID", 60, 1,  U,       H, N, NULL,    Z23, ""},
};
static const struct zl_field sytcup_cpu[] = {
    {"SYTCUP_LCUCPUID", 0,  2,  U,  H, N, NULL,    Z23, "logical CPU address"},
    {"SYTCUP_LCUCWGHT", 2,  2,  U,  H, G, NULL,    Z23, "weight"},
    {"SYTCUP_LCUCFLGS", 4,  1,  BI, H, N, NULL,    Z23, "flags"},
    {"SYTCUP_LCUCACTM", 6,  8,  T,  H, K, "timer", Z23, "dispatch time of the logical CPU, LPAR management included (DIAG X'204' acc_time)"},
    {"SYTCUP_LCUCLPTM", 14, 8,  T,  H, K, "timer", Z23, "dispatch time without LPAR management (DIAG X'204' lp_time)"},
    {"SYTCUP_LCXCPTYP", 22, 16, EB, H, N, NULL,    Z23, "CPU type"},
};
/* clang-format on */

/* D0R19 SYTSYG: 56 (4.2), 112 (4.3, 5.1), 144 (6.2). */
/* clang-format off */
static const struct zl_field sytsyg[] = {
    {"SYTSYG_XCTMSACT", 20, 8, U, V, K, "us",    "IBM mon430 MRSYTSYG", "elapsed time user exits were active"},
    {"SYTSYG_FTRDONE",  28, 4, U, V, K, "count", "IBM mon430 MRSYTSYG", "fast CCW translations completed for DASD"},
    {"SYTSYG_FTRABORT", 32, 4, U, H, K, "count", ZL09,                  ""},
    {"SYTSYG_FTRNOTEL", 36, 4, U, H, K, "count", ZL09,                  ""},
    {"SYTSYG_FTRWRITE", 40, 4, U, H, K, "count", ZL09,                  ""},
    {"SYTSYG_CTNDONE",  44, 4, U, H, K, "count", ZL09,                  ""},
    {"SYTSYG_CTNABORT", 48, 4, U, H, K, "count", ZL09,                  ""},
    {"SYTSYG_CTNNOTEL", 52, 4, U, H, K, "count", ZL09,                  ""},
    /* 4.3 and later */
    {"SYTSYG_SCPCAPAB", 56, 4, U, H, G, NULL,    ZL09, ""},
    {"SYTSYG_CPUCAPAB", 60, 4, U, H, G, NULL,    ZL09, "CPU capability (STSI)"},
    {"SYTSYG_CPUCOUNT", 64, 2, U, H, G, "count", ZL09, "CPU count (STSI)"},
    {"SYTSYG_CPUCFGCT", 66, 2, U, H, G, "count", ZL09, "configured CPUs"},
    {"SYTSYG_CPUSTNBY", 68, 2, U, H, G, "count", ZL09, "standby CPUs"},
    {"SYTSYG_CPURESVD", 70, 2, U, H, G, "count", ZL09, "reserved CPUs"},
    {"SYTSYG_VL3DBCT",  72, 1, U, H, G, NULL,    ZL09, ""},
    {"SYTSYG_VL3COUNT", 74, 2, U, H, G, "count", ZL09, ""},
    {"SYTSYG_VL3CFGCT", 76, 2, U, H, G, "count", ZL09, ""},
    {"SYTSYG_VL3STNBY", 78, 2, U, H, G, "count", ZL09, ""},
    {"SYTSYG_VL3RESVD", 80, 2, U, H, G, "count", ZL09, ""},
};
/* clang-format on */

#define L(id, ds, r, min, lvl, src, f, n)                                                          \
        {                                                                                          \
                id, ds, 0, r, min, lvl, src, f, n                                                  \
        }
#define LA(id, ds, r, min, lvl, src, f, n)                                                         \
        {                                                                                          \
                id, ds, 0, r, min, lvl, src, f, n, "aligned"                                       \
        }
/* clang-format off */
static const struct zl_layout layouts[] = {
    L("D0R1", "SYTSYP", 1, 96,  "z/VM 4.2-5.1", "IBM mon440 MRSYTSYP + zpmd", sytsyp,   20),
    L("D0R1", "SYTSYP", 1, 116, "z/VM 6.4-7.3", "IBM mon730 MRSYTSYP + zpmd", sytsyp,   ZL_COUNT(sytsyp)),
    L("D0R2", "SYTPRP", 2, 104, "z/VM 4.3",     "IBM mon610 MRSYTPRP + zpmd", sytprp,   ZL_COUNT(sytprp) - 1),
    L("D0R2", "SYTPRP", 2, 124, "z/VM 5.3-6.3", "IBM mon610 MRSYTPRP + zpmd", sytprp,   ZL_COUNT(sytprp)),
    L("D0R2", "SYTPRP", 2, 352, "z/VM 6.4+",    "IBM mon640 MRSYTPRP + zpmd", sytprp64, ZL_COUNT(sytprp64)),
    LA("D0R2", "SYTPRP", 2, 104, "z/VM 4.3",     "IBM mon610 MRSYTPRP + zpmd aligned", sytprp_al,   ZL_COUNT(sytprp_al) - 2),
    LA("D0R2", "SYTPRP", 2, 124, "z/VM 5.3-6.3", "IBM mon610 MRSYTPRP + zpmd aligned", sytprp_al,   ZL_COUNT(sytprp_al)),
    LA("D0R2", "SYTPRP", 2, 352, "z/VM 6.4+",    "IBM mon640 MRSYTPRP + zpmd aligned", sytprp64_al, ZL_COUNT(sytprp64_al)),
    L("D0R3",  "SYTRSG", 3,  128, "z/VM 5.1",     "IBM mon510 MRSYTRSG + zpmd",        sytrsg51, ZL_COUNT(sytrsg51)),
    L("D0R3",  "SYTRSG", 3,  224, "z/VM 5.2-7.4", "IBM mon520 MRSYTRSG + zpmd",        sytrsg52, ZL_COUNT(sytrsg52)),
    L("D0R3",  "SYTRSG", 3,  604, "z/VM 7.5",     "IBM mon750 MRSYTRSG + zpmd",        sytrsg75, ZL_COUNT(sytrsg75)),
    L("D0R4",  "SYTRSP", 4,  28,  "z/VM 4.3+",    "IBM mon430 MRSYTRSP",               sytrsp,   ZL_COUNT(sytrsp)),
    L("D0R8",  "SYTUSR", 8,  100, "z/VM 4.3+",    "IBM mon430/mon640 MRSYTUSR + zpmd", sytusr,   ZL_COUNT(sytusr)),
    L("D0R15", "SYTCUG", 15, 28,  "z/VM 4.2+",    "IBM mon430 MRSYTCUG",               sytcug,   ZL_COUNT(sytcug)),
    L("D0R16", "SYTCUP", 16, 44,  "z/VM 4.2",     "zpmd (lengths IBM mon420)",         sytcup,   8),
    L("D0R16", "SYTCUP", 16, 64,  "z/VM 5.1+",    "zpmd (lengths IBM mon510-mon620)",  sytcup,   ZL_COUNT(sytcup)),
    {"D0R16.CPU", "SYTCUP", -1, -1, 38, "z/VM 5.3", "zpmd (entry of 40 bytes, packed)", sytcup_cpu, ZL_COUNT(sytcup_cpu)},
    L("D0R19", "SYTSYG", 19, 56,  "z/VM 4.2",  "IBM mon420 MRSYTSYG + zpmd", sytsyg, 8),
    L("D0R19", "SYTSYG", 19, 112, "z/VM 4.3+", "IBM mon430 MRSYTSYG + zpmd", sytsyg, ZL_COUNT(sytsyg)),
};
/* clang-format on */
ZL_TABLE(d0, layouts);

/*
 * Layouts from IBM's pages alone (doc/facts/ibm-record-pages.md 3): each is
 * chosen at IBM's length for the level its page was read at, so a shorter
 * record (an older level, or a damaged one) gets none, and declares only
 * the fields that page shows, every one VERIFIED.  Where the page went on
 * past what could be read, the rest of the record stays undeclared: the
 * layout is partial (zvmmon layouts --coverage).  Kept apart from the
 * table above, whose layouts also carry zpmd's hints.
 */
/* D0R6 SYTASG: 112 (7.3), readable to 24. */
/* clang-format off */
static const struct zl_field sytasg[] = {
    {"SYTASG_CAL90FUL", 20, 4, U, V, K, "count", "IBM mon730 MRSYTASG", "times the available paging slots reached 90% full (SAL90FUL)"},
};
/* clang-format on */

/* D0R14 SYTXSG: 204 (7.5), readable to 28. */
/* clang-format off */
static const struct zl_field sytxsg[] = {
    {"*", 20, 4, RS, V, N, NULL, "IBM mon750 MRSYTXSG", "reserved (was SYTXSG_XSTXBGET)"},
    {"*", 24, 4, RS, V, N, NULL, "IBM mon750 MRSYTXSG", "reserved"},
};
/* clang-format on */

/* D0R21 SYTSXG: 96 (7.3), readable to 28. */
/* clang-format off */
static const struct zl_field sytsxg[] = {
    {"SYTSXG_SXSSIZE",  20, 4, U, V, G, "pages", "IBM mon730 MRSYTSXG", "size of the system execution space"},
    {"SYTSXG_RSASXAVL", 24, 4, U, V, N, "count", "IBM mon730 MRSYTSXG", "a count (the page's description is cut off)"},
};
/* clang-format on */

/* clang-format off */
static const struct zl_layout pages[] = {
    L("D0R6",  "SYTASG", 6,  112, "z/VM 7.3", "IBM mon730 MRSYTASG", sytasg, ZL_COUNT(sytasg)),
    L("D0R14", "SYTXSG", 14, 204, "z/VM 7.5", "IBM mon750 MRSYTXSG", sytxsg, ZL_COUNT(sytxsg)),
    L("D0R21", "SYTSXG", 21, 96,  "z/VM 7.3", "IBM mon730 MRSYTSXG", sytsxg, ZL_COUNT(sytsxg)),
};
/* clang-format on */
ZL_TABLE(d0p, pages);
