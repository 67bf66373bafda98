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

/*
 * Layouts from IBM's pages alone (doc/facts/ibm-record-pages.md 3 and 7):
 * each is chosen at IBM's length for the level its page was read at and
 * declares only the fields that page shows, every one VERIFIED; past what
 * a page let read, the record stays undeclared (partial, zvmmon layouts
 * --coverage).  The device events open with the subchannel ID and the
 * device number, or with the device type code; the PCI events with the
 * real and virtual function IDs.
 */
/* clang-format off */
#define RDEV_SID_DEV(P, SRC)                                                                    \
    {P "_RDEVSID", 20, 4, U, V, N, NULL, SRC, "host subchannel ID, defined at initialization"}, \
    {P "_RDEVDEV", 24, 2, U, V, N, NULL, SRC, "device number"}
#define PCI_FIDS(P, SRC)                                                  \
    {P "_RPCIPFID", 20, 4, U, V, N, NULL, SRC, "real PCI function ID"},   \
    {P "_VPCIPFID", 24, 4, U, V, N, NULL, SRC, "virtual PCI function ID"}
/* clang-format on */
#define RDEV_TYPE(P, SRC)                                                                          \
        {                                                                                          \
                P "_RDEVTYPE", 20, 1, BI, V, N, NULL, SRC,                                         \
                    "device type code, unique within the device class (RDEVCLAS)"                  \
        }
#define LAN_OWNER(P, SRC)                                                                          \
        {                                                                                          \
                P "_LANOWNER", 20, 8, EB, V, N, NULL, SRC, "virtual switch owner"                  \
        }
#define PCI_RFID(P, SRC)                                                                           \
        {                                                                                          \
                P "_RPCIPFID", 20, 4, U, V, N, NULL, SRC, "real PCI function ID"                   \
        }

static const struct zl_field iodvon[] = {RDEV_TYPE("IODVON", "IBM mon730 MRIODVON")};
static const struct zl_field iodvof[] = {RDEV_SID_DEV("IODVOF", "IBM mon750 MRIODVOF")};
static const struct zl_field iodatd[] = {RDEV_TYPE("IODATD", "IBM mon730 MRIODATD")};
static const struct zl_field ioddtd[] = {RDEV_SID_DEV("IODDTD", "IBM mon750 MRIODDTD")};
static const struct zl_field iodenb[] = {RDEV_SID_DEV("IODENB", "IBM mon740 MRIODENB")};
static const struct zl_field ioddsb[] = {RDEV_SID_DEV("IODDSB", "IBM mon730 MRIODDSB")};
static const struct zl_field iodats[] = {RDEV_TYPE("IODATS", "IBM mon750 MRIODATS")};
static const struct zl_field iodson[] = {RDEV_TYPE("IODSON", "IBM mon730 MRIODSON")};
static const struct zl_field iodsof[] = {RDEV_SID_DEV("IODSOF", "IBM mon750 MRIODSOF")};
static const struct zl_field iodmon[] = {RDEV_SID_DEV("IODMON", "IBM mon730 MRIODMON")};
static const struct zl_field iodton[] = {RDEV_SID_DEV("IODTON", "IBM mon730 MRIODTON")};
static const struct zl_field iodtof[] = {RDEV_SID_DEV("IODTOF", "IBM mon730 MRIODTOF")};

/* D6R15 IODDDV: 28 (7.1, 7.2), complete. */
/* clang-format off */
static const struct zl_field iodddv[] = {
    RDEV_SID_DEV("IODDDV", "IBM mon710 MRIODDDV"),
    {"*", 26, 2, RS, V, N, NULL, "IBM mon710 MRIODDDV", "reserved"},
};
/* clang-format on */

/* D6R16 IODMDV: 36 (7.1), complete. */
/* clang-format off */
static const struct zl_field iodmdv[] = {
    RDEV_SID_DEV("IODMDV", "IBM mon710 MRIODMDV"),
    {"IODMDV_RDEVPIM",  26, 1, BI, V, N, NULL, "IBM mon710 MRIODMDV", "path-installed mask"},
    {"IODMDV_RDEVPAM",  27, 1, BI, V, N, NULL, "IBM mon710 MRIODMDV", "path-available mask"},
    {"IODMDV_RDEVCHPS", 28, 8, HX, V, N, NULL, "IBM mon710 MRIODMDV", "the eight CHPIDs"},
};
/* clang-format on */

/* D6R17 IODDCH: 24 (7.5), complete. */
/* clang-format off */
static const struct zl_field ioddch[] = {
    {"IODDCH_CALCHPID", 20, 1, U,  V, N, NULL, "IBM mon750 MRIODDCH", "CHPID that was deleted"},
    {"*",               21, 3, RS, V, N, NULL, "IBM mon750 MRIODDCH", "reserved"},
};
/* clang-format on */

/* D6R22 IODVSF: 80 and D6R23 IODVSR: 88 (7.5); IODVSF's 36 is cut off in its name. */
/* clang-format off */
static const struct zl_field iodvsf[] = {
    LAN_OWNER("IODVSF", "IBM mon750 MRIODVSF"),
    {"IODVSF_LANNAME", 28, 8, EB, V, N, NULL, "IBM mon750 MRIODVSF", "virtual switch name"},
};
static const struct zl_field iodvsr[] = {
    LAN_OWNER("IODVSR", "IBM mon750 MRIODVSR"),
    {"IODVSR_LANNAME", 28, 8, EB, V, N, NULL, "IBM mon750 MRIODVSR", "virtual switch name (the page's description is cut off)"},
};
/* clang-format on */

/* D6R31 IODMDE: 84 (7.5), readable to 70. */
/* clang-format off */
static const struct zl_field iodmde[] = {
    {"IODMDE_MDIOUSER", 20, 8,  EB, V, N, NULL, "IBM mon750 MRIODMDE", "user ID owning the minidisk"},
    {"IODMDE_MDIOVDEV", 28, 2,  BI, V, N, NULL, "IBM mon750 MRIODMDE", "owner's virtual device number"},
    {"IODMDE_EQIDUID",  30, 40, HX, V, N, NULL, "IBM mon750 MRIODMDE", "EQID (Character 40; the description is cut off)"},
};
/* clang-format on */

/* D6R33 IODBPA: 80 and D6R34 IODBPD: 124 (7.3), virtual switch bridge ports. */
static const struct zl_field iodbpa[] = {LAN_OWNER("IODBPA", "IBM mon730 MRIODBPA")};
/* clang-format off */
static const struct zl_field iodbpd[] = {
    LAN_OWNER("IODBPD", "IBM mon730 MRIODBPD"),
    {"IODBPD_LANNAME", 28, 8, EB, V, N, NULL, "IBM mon730 MRIODBPD", "virtual switch name"},
};
/* clang-format on */

/* D6R36 IODPAT: 44, D6R38 IODPEN: 40 (7.3); D6R39 IODPAC: 112+, D6R40 IODPDS: 116+ (7.5). */
/* clang-format off */
static const struct zl_field iodpat[] = {
    PCI_FIDS("IODPAT", "IBM mon730 MRIODPAT"),
    {"IODPAT_VMDUSER", 28, 8, EB, V, N, NULL, "IBM mon730 MRIODPAT", "user the function is attached to"},
};
/* clang-format on */
static const struct zl_field iodpen[] = {PCI_FIDS("IODPEN", "IBM mon730 MRIODPEN")};
static const struct zl_field iodpac[] = {PCI_FIDS("IODPAC", "IBM mon750 MRIODPAC")};
static const struct zl_field iodpds[] = {PCI_RFID("IODPDS", "IBM mon750 MRIODPDS")};

/* D6R46 IODPOF: 28 (7.3), complete. */
/* clang-format off */
static const struct zl_field iodpof[] = {
    PCI_RFID("IODPOF", "IBM mon730 MRIODPOF"),
    {"IODPOF_RPCIHNDG", 24, 4, U, V, N, NULL, "IBM mon730 MRIODPOF", "general handle of the function"},
};
/* clang-format on */

/* D6R47 IODCHA: 24 (7.5), readable to 21; D6R51 IODFCA: 24 (7.3), complete. */
/* clang-format off */
static const struct zl_field iodcha[] = {
    {"IODCHA_CHACHPID", 20, 1, U, V, N, NULL, "IBM mon750 MRIODCHA", "CHPID number"},
};
static const struct zl_field iodfca[] = {
    {"IODFCA_FCARDEV", 20, 2, U,  V, N, NULL, "IBM mon730 MRIODFCA", "FCP device number"},
    {"*",              22, 2, RS, V, N, NULL, "IBM mon730 MRIODFCA", "reserved"},
};
/* clang-format on */

#define LP(id, ds, r, min, lvl, src, f) L(id, ds, r, min, lvl, src, f, ZL_COUNT(f))
/* clang-format off */
static const struct zl_layout pages[] = {
    LP("D6R1",  "IODVON", 1,  292, "z/VM 7.3", "IBM mon730 MRIODVON", iodvon),
    LP("D6R2",  "IODVOF", 2,  28,  "z/VM 7.5", "IBM mon750 MRIODVOF", iodvof),
    LP("D6R5",  "IODATD", 5,  44,  "z/VM 7.3", "IBM mon730 MRIODATD", iodatd),
    LP("D6R6",  "IODDTD", 6,  28,  "z/VM 7.5", "IBM mon750 MRIODDTD", ioddtd),
    LP("D6R7",  "IODENB", 7,  28,  "z/VM 7.4", "IBM mon740 MRIODENB", iodenb),
    LP("D6R8",  "IODDSB", 8,  28,  "z/VM 7.3", "IBM mon730 MRIODDSB", ioddsb),
    LP("D6R9",  "IODATS", 9,  44,  "z/VM 7.5", "IBM mon750 MRIODATS", iodats),
    LP("D6R11", "IODSON", 11, 44,  "z/VM 7.3", "IBM mon730 MRIODSON", iodson),
    LP("D6R12", "IODSOF", 12, 28,  "z/VM 7.5", "IBM mon750 MRIODSOF", iodsof),
    LP("D6R13", "IODMON", 13, 28,  "z/VM 7.3", "IBM mon730 MRIODMON", iodmon),
    LP("D6R15", "IODDDV", 15, 28,  "z/VM 7.1", "IBM mon710 MRIODDDV", iodddv),
    LP("D6R16", "IODMDV", 16, 36,  "z/VM 7.1", "IBM mon710 MRIODMDV", iodmdv),
    LP("D6R17", "IODDCH", 17, 24,  "z/VM 7.5", "IBM mon750 MRIODDCH", ioddch),
    LP("D6R18", "IODTON", 18, 40,  "z/VM 7.3", "IBM mon730 MRIODTON", iodton),
    LP("D6R19", "IODTOF", 19, 40,  "z/VM 7.3", "IBM mon730 MRIODTOF", iodtof),
    LP("D6R22", "IODVSF", 22, 80,  "z/VM 7.5", "IBM mon750 MRIODVSF", iodvsf),
    LP("D6R23", "IODVSR", 23, 88,  "z/VM 7.5", "IBM mon750 MRIODVSR", iodvsr),
    LP("D6R31", "IODMDE", 31, 84,  "z/VM 7.5", "IBM mon750 MRIODMDE", iodmde),
    LP("D6R33", "IODBPA", 33, 80,  "z/VM 7.3", "IBM mon730 MRIODBPA", iodbpa),
    LP("D6R34", "IODBPD", 34, 124, "z/VM 7.3", "IBM mon730 MRIODBPD", iodbpd),
    LP("D6R36", "IODPAT", 36, 44,  "z/VM 7.3", "IBM mon730 MRIODPAT", iodpat),
    LP("D6R38", "IODPEN", 38, 40,  "z/VM 7.3", "IBM mon730 MRIODPEN", iodpen),
    LP("D6R39", "IODPAC", 39, 112, "z/VM 7.5", "IBM mon750 MRIODPAC", iodpac),
    LP("D6R40", "IODPDS", 40, 116, "z/VM 7.5", "IBM mon750 MRIODPDS", iodpds),
    LP("D6R46", "IODPOF", 46, 28,  "z/VM 7.3", "IBM mon730 MRIODPOF", iodpof),
    LP("D6R47", "IODCHA", 47, 24,  "z/VM 7.5", "IBM mon750 MRIODCHA", iodcha),
    LP("D6R51", "IODFCA", 51, 24,  "z/VM 7.3", "IBM mon730 MRIODFCA", iodfca),
};
/* clang-format on */
ZL_TABLE(d6p, pages);
