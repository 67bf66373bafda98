/* SPDX-License-Identifier: MIT */
/*
 * Domain 8 (Virtual Network) record layouts.  Facts: doc/facts/cp-records.md
 * 10.  VNDSES: IBM's prolog (mon730) says what
 * the record holds but no offset is confirmed; the layout is zpmd's
 * (316 bytes in 5.3, marked untested by its author).
 */
#include "layout/lay_short.h"

#define ZP ZUT

/* clang-format off */
static const struct zl_field vndses[] = {
    {"VNDSES_VDEVSUB",  20,  2,  U,  H, N, NULL,      ZP, ""},
    {"VNDSES_OWNER",    24,  8,  EB, H, N, NULL,      ZP, "guest owning the NIC"},
    {"VNDSES_VDEVDEV",  32,  2,  U,  H, N, NULL,      ZP, "base device address"},
    {"VNDSES_NICBASE",  34,  2,  U,  H, N, NULL,      ZP, ""},
    {"VNDSES_NICMAC",   36,  6,  HX, H, N, NULL,      ZP, "MAC address"},
    {"VNDSES_NICTRANP", 42,  1,  U,  H, N, NULL,      ZP, "transport type"},
    {"VNDSES_NICTYPE",  43,  1,  U,  H, N, NULL,      ZP, "NIC type"},
    {"VNDSES_LANID",    44,  16, EB, H, N, NULL,      ZP, "LAN owner and name"},
    {"VNDSES_VSWITCH",  60,  1,  BI, H, N, NULL,      ZP, "VSWITCH flag"},
    {"VNDSES_SESTXBYT", 96,  8,  U,  H, K, "bytes",   ZP, "bytes sent"},
    {"VNDSES_SESRXBYT", 104, 8,  U,  H, K, "bytes",   ZP, "bytes received"},
    {"VNDSES_SESTXPKT", 112, 8,  U,  H, K, "packets", ZP, "packets sent"},
    {"VNDSES_SESTXDSC", 120, 8,  U,  H, K, "packets", ZP, "outbound packets discarded"},
    {"VNDSES_SESTXERR", 128, 8,  U,  H, K, "count",   ZP, "outbound errors"},
    {"VNDSES_SESRXPKT", 136, 8,  U,  H, K, "packets", ZP, "packets received"},
    {"VNDSES_SESRXDSC", 144, 8,  U,  H, K, "packets", ZP, "inbound packets discarded"},
    {"VNDSES_SESRXERR", 152, 8,  U,  H, K, "count",   ZP, "inbound errors"},
};
/* clang-format on */

/*
 * D8R3 VNDLSD: 56 (5.4), 60 (6.3: mon630; 6.4, 7.5); D8R2 VNDLSU has the
 * same shape per zpmd only.  The 6.3+ copies are cut off at 47, so the
 * port and ifIndex (48, 52) are cited from mon540, where they are printed:
 * IBM appends fields and does not move them (layout.h).
 */
/* clang-format off */
static const struct zl_field vndlsd[] = {
    {"VNDLSD_LANOWNER", 20, 8, EB, V, N, NULL, "IBM mon750 MRVNDLSD", "virtual network owner"},
    {"VNDLSD_LANNAME",  28, 8, EB, V, N, NULL, "IBM mon640 MRVNDLSD", "virtual network name"},
    {"VNDLSD_NICOWNER", 36, 8, EB, V, N, NULL, "IBM mon640 MRVNDLSD", "NIC owner"},
    {"VNDLSD_NICBASE",  44, 2, U,  V, N, NULL, "IBM mon640 MRVNDLSD", "virtual NIC address"},
    {"VNDLSD_NICMGPOR", 48, 4, U,  V, N, NULL, "IBM mon540 MRVNDLSD", "port"},
    {"VNDLSD_NICMGIFI", 52, 4, U,  V, N, NULL, "IBM mon540 MRVNDLSD", "ifIndex"},
    /* 6.3 and later */
    {"VNDLSD_NICTYPE", 46, 1, U, V, N, NULL, "IBM mon640 MRVNDLSD", "1 HiperSockets, 2 QDIO"},
};
/* clang-format on */

#define L(id, ds, r, min, lvl, src, f, n)                                                          \
        {                                                                                          \
                id, ds, 8, r, min, lvl, src, f, n                                                  \
        }
/* clang-format off */
static const struct zl_layout layouts[] = {
    L("D8R1", "VNDSES", 1, 160, "z/VM 5.3 (zpmd, 316 bytes)", "zpmd v53_records.h (IBM mon730: prolog only)", vndses, ZL_COUNT(vndses)),
    L("D8R3", "VNDLSD", 3, 56,  "z/VM 5.4",                   "IBM mon540 MRVNDLSD",                          vndlsd, 6),
    L("D8R3", "VNDLSD", 3, 60,  "z/VM 6.3+",                  "IBM mon630/mon640 MRVNDLSD",                   vndlsd, ZL_COUNT(vndlsd)),
};
/* clang-format on */
ZL_TABLE(d8, layouts);
