/* SPDX-License-Identifier: MIT */
/* Domain 11 (SSI) record layouts.  Facts: doc/facts/cp-records.md 14; all VERIFIED. */
#include "layout/lay_short.h"

#define S6 "IBM mon620 MRSSISMI"
#define S7 "IBM mon710 MRSSISMI"

/* D11R2 SSISMI: 116 (6.2 - 7.1); 88-115 not known.  Times are already in microseconds. */
/* clang-format off */
static const struct zl_field ssismi[] = {
    {"SSISMI_PLMNJONG", 20, 4, U, V, K, "count", S6, "times joining was entered"},
    {"SSISMI_PLMNJOND", 24, 4, U, V, K, "count", S6, "times joined was entered"},
    {"SSISMI_PLMNLEAV", 28, 4, U, V, K, "count", S6, "times leaving was entered"},
    {"SSISMI_PLMNISOL", 32, 4, U, V, K, "count", S6, "times isolated was entered"},
    {"SSISMI_PLMNSUSP", 36, 4, U, V, K, "count", S6, "times suspended was entered"},
    {"SSISMI_PLMTJONG", 40, 8, U, V, K, "us",    S6, "time in joining"},
    {"SSISMI_PLMTJOND", 48, 8, U, V, K, "us",    S6, "time in joined"},
    {"SSISMI_PLMTLEAV", 56, 8, U, V, K, "us",    S6, "time in leaving"},
    {"SSISMI_PLMTISOL", 64, 8, U, V, K, "us",    S6, "time in isolated"},
    {"SSISMI_PLMTSUSP", 72, 8, U, V, K, "us",    S6, "time in suspended"},
    {"SSISMI_PLMNSTAB", 80, 4, U, V, K, "count", S7, "times stable mode was entered"},
    {"SSISMI_PLMNINFL", 84, 4, U, V, K, "count", S7, "times in-flux mode was entered"},
};
/* clang-format on */

/* D11R1 SSISCS: 60 (6.4). */
/* clang-format off */
static const struct zl_field ssiscs[] = {
    {"SSISCS_PLMSYCNT", 20, 4, U, V, K, "count", "IBM mon640 MRSSISCS", "synchronizations started"},
    {"SSISCS_PLMSYPRO", 24, 4, U, V, K, "count", "IBM mon640 MRSSISCS", "Proceed-With-Reply sent"},
    {"SSISCS_PLMSYPRP", 28, 4, U, V, K, "count", "IBM mon640 MRSSISCS", ""},
};
/* clang-format on */

/* D11R4 SSISLT: 36, complete. */
/* clang-format off */
static const struct zl_field ssislt[] = {
    {"SSISLT_SYSPLXNS", 20, 2, U,  V, G, "count", "IBM mon730 MRSSISLT", "slots configured"},
    {"SSISLT_SYSPLXNR", 22, 2, U,  V, G, "count", "IBM mon730 MRSSISLT", "slots in use"},
    {"SSISLT_PMSSYSSL", 24, 2, U,  V, N, NULL,    "IBM mon730 MRSSISLT", "slot number"},
    {"*",               26, 2, RS, V, N, NULL,    "IBM mon730 MRSSISLT", "reserved"},
    {"SSISLT_PMSSYSNM", 28, 8, EB, V, N, NULL,    "IBM mon730 MRSSISLT", "member name"},
};
/* clang-format on */

#define L(id, ds, r, min, lvl, src, f)                                                             \
        {                                                                                          \
                id, ds, 11, r, min, lvl, src, f, ZL_COUNT(f)                                       \
        }
/* clang-format off */
static const struct zl_layout layouts[] = {
    L("D11R1", "SSISCS", 1, 32, "z/VM 6.4+", "IBM mon640 MRSSISCS",        ssiscs),
    L("D11R2", "SSISMI", 2, 88, "z/VM 6.2+", "IBM mon620/mon710 MRSSISMI", ssismi),
    L("D11R4", "SSISLT", 4, 36, "z/VM 6.4+", "IBM mon730 MRSSISLT",        ssislt),
};
/* clang-format on */
ZL_TABLE(d11, layouts);
