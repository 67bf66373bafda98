/* SPDX-License-Identifier: MIT */
/*
 * Domain 6 (I/O) record layouts.  Facts: doc/facts/cp-records.md 9.
 * IODDEV: IBM confirms no offset; the layout is zpmd's, read packed with
 * the 20-byte header zpmd omits added, from its 2023 reconstruction (marked
 * TODO).  The same SCM fields are VERIFIED in IODMOF, which supports their
 * order, not their place in IODDEV; zpmd's 2009 main.c decodes IODMOF.
 *
 * The SCM times are the channel measurement block's (Linux cmf.c: "in
 * units of 128 usec"; IBM mon730 MRIODDEV: service time = SCMFPTIM +
 * SCMCNTIM + SCMDDTIM + SCMDATIM).  No page read says CP stores them
 * unconverted, so the unit is a HINT too: the device-time law proves it.
 */
#include "layout/lay_short.h"

#define ZP Z23 ", +20 header"
#define ZM ZL09

/* D6R3 IODDEV: zpmd 5.3, no IBM length known. */
/* clang-format off */
static const struct zl_field ioddev[] = {
    {"IODDEV_RDEVAFLG", 20,  1, BI, H, N, NULL,    ZP, ""},
    {"IODDEV_RDEVLPM",  21,  1, BI, H, N, NULL,    ZP, "logical path mask"},
    {"IODDEV_VDEVIOP1", 22,  1, BI, H, N, NULL,    ZP, "SIE-assist eligibility flags"},
    {"IODDEV_CALFLAG1", 23,  1, BI, H, N, NULL,    ZP, ""},
    {"IODDEV_RDEVSID",  24,  4, U,  H, N, NULL,    ZP, "subchannel ID"},
    {"IODDEV_RDEVCHPS", 28,  8, HX, H, N, NULL,    ZP, "CHPIDs"},
    {"IODDEV_RDEVSER",  36,  6, EB, H, N, NULL,    ZP, "volume serial"},
    {"IODDEV_CALUSER",  42,  8, EB, H, N, NULL,    ZP, ""},
    {"IODDEV_RDEVLCNT", 50,  2, U,  H, N, NULL,    ZP, ""},
    {"IODDEV_SCMSSCH",  52,  2, U,  H, K, "count", ZP, "SSCH+RSCH count (16-bit, wraps)"},
    {"IODDEV_SCMCOUNT", 54,  2, U,  H, K, "count", ZP, "sample count (16-bit, wraps)"},
    {"IODDEV_SCMCNTIM", 56,  4, U,  H, K, "128us", ZP, "connect time"},
    {"IODDEV_SCMFPTIM", 60,  4, U,  H, K, "128us", ZP, "function-pending time"},
    {"IODDEV_SCMDDTIM", 64,  4, U,  H, K, "128us", ZP, "disconnect time"},
    {"IODDEV_HFRDEVCT", 68,  4, U,  H, K, "count", ZP, ""},
    {"IODDEV_HFCTIO",   72,  4, U,  H, K, "count", ZP, ""},
    {"IODDEV_SCMDATIM", 160, 4, U,  H, K, "128us", ZP, "device-active-only time (service-time term, mon730)"},
    {"IODDEV_SCMCQTIM", 180, 4, U,  H, K, "128us", ZP, ""},
    {"IODDEV_SCMDBTIM", 184, 4, U,  H, K, "128us", ZP, ""},
    {"IODDEV_SCMIRTIM", 188, 4, U,  H, K, "128us", ZP, ""},
    {"IODDEV_SCGSSCH",  192, 4, U,  H, K, "count", ZP, "SSCH+RSCH count (32-bit)"},
    {"IODDEV_SCGCOUNT", 196, 4, U,  H, K, "count", ZP, "sample count (32-bit)"},
    {"IODDEV_RDEVDEV",  200, 2, U,  H, N, NULL,    ZP, "device number"},
};
/* clang-format on */

/*
 * D6R14 IODMOF: 52 (4.3), 68 (4.4-6.2), 76 (6.4).  IBM's pages show 20-29
 * (mon640 reaches 28); from 30 on no copy read reaches, so 30-39 are zpmd's,
 * in the order of the channel measurement block (Linux cmf.c, format 0:
 * sample count u16 after the SSCH count, then connect and function-pending
 * times).  No metric reads IODMOF, so no law needs to prove them.
 */
/* clang-format off */
static const struct zl_field iodmof[] = {
    {"IODMOF_RDEVSID",  20, 4, U,  V, N, NULL,    "IBM mon640 MRIODMOF", "subchannel ID"},
    {"IODMOF_RDEVDEV",  24, 2, U,  V, N, NULL,    "IBM mon640 MRIODMOF", "device number"},
    {"*",               26, 2, RS, V, N, NULL,    "IBM mon640 MRIODMOF", "reserved"},
    {"IODMOF_SCMSSCH",  28, 2, U,  V, K, "count", "IBM mon640 MRIODMOF", "SSCH+RSCH count"},
    {"IODMOF_SCMCOUNT", 30, 2, U,  H, K, "count", ZM,                    "sample count"},
    {"IODMOF_SCMCNTIM", 32, 4, U,  H, K, NULL,    ZM,                    "connect time"},
    {"IODMOF_SCMFPTIM", 36, 4, U,  H, K, NULL,    ZM,                    "function-pending time"},
    /* 4.4 and later */
    {"IODMOF_SCMDDTIM", 40, 4, U, H, K, NULL,    ZM, "disconnect time"},
    {"IODMOF_SCMCQTIM", 44, 4, U, H, K, NULL,    ZM, ""},
    {"IODMOF_SCMDATIM", 48, 4, U, H, K, NULL,    ZM, ""},
    {"IODMOF_SCMDBTIM", 52, 4, U, H, K, NULL,    ZM, ""},
    {"IODMOF_SCMIRTIM", 56, 4, U, H, K, NULL,    ZM, ""},
    {"IODMOF_SCGSSCH",  60, 4, U, H, K, "count", ZM, ""},
    {"IODMOF_SCGCOUNT", 64, 4, U, H, K, "count", ZM, ""},
};
/* clang-format on */

#define L(id, ds, r, min, lvl, src, f, n)                                                          \
        {                                                                                          \
                id, ds, 6, r, min, lvl, src, f, n                                                  \
        }
/* clang-format off */
static const struct zl_layout layouts[] = {
    L("D6R3",  "IODDEV", 3,  202, "z/VM 5.3 (zpmd)", "zpmd v53_records.h (IBM: prolog only)", ioddev, ZL_COUNT(ioddev)),
    L("D6R14", "IODMOF", 14, 52,  "z/VM 4.3",        "IBM mon430 MRIODMOF",                   iodmof, 7),
    L("D6R14", "IODMOF", 14, 68,  "z/VM 4.4+",       "IBM mon640 MRIODMOF + zpmd",            iodmof, ZL_COUNT(iodmof)),
};
/* clang-format on */
ZL_TABLE(d6, layouts);
