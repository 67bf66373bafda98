/* SPDX-License-Identifier: MIT */
/*
 * Domain 9 (ISFC) record layouts, from IBM's pages alone
 * (doc/facts/ibm-record-pages.md 3): each is chosen at IBM's length for the
 * level its page was read at and declares only the fields that page
 * shows; past what a page let read, the record stays undeclared (partial,
 * zvmmon layouts --coverage).
 */
#include "layout/lay_short.h"

/* D9R1 ISFISC: 244 and D9R3 ISFILC: 140 (7.3), readable to 21. */
/* clang-format off */
static const struct zl_field isfisc[] = {
    {"ISFISC_ACTIVITY", 20, 1, U, V, N, NULL, "IBM mon730 MRISFISC", "the end point activity that caused the record"},
};
static const struct zl_field isfilc[] = {
    {"ISFILC_ACTIVITY", 20, 1, U, V, N, NULL, "IBM mon730 MRISFILC", "the logical link activity that caused the record"},
};
/* clang-format on */

/*
 * D9R2 ISFISA: 112 (7.5), readable to 24.  On lock contention CP writes a
 * single record with SCKID 0 in place of the sample.
 */
/* clang-format off */
static const struct zl_field isfisa[] = {
    {"ISFISA_SCKID", 20, 4, U, V, N, NULL, "IBM mon750 MRISFISA", "end point ID (0 in the single record written on lock contention)"},
};
/* clang-format on */

#define L(id, ds, r, min, lvl, src, f)                                                             \
        {                                                                                          \
                id, ds, 9, r, min, lvl, src, f, ZL_COUNT(f)                                        \
        }
/* clang-format off */
static const struct zl_layout layouts[] = {
    L("D9R1", "ISFISC", 1, 244, "z/VM 7.3", "IBM mon730 MRISFISC", isfisc),
    L("D9R2", "ISFISA", 2, 112, "z/VM 7.5", "IBM mon750 MRISFISA", isfisa),
    L("D9R3", "ISFILC", 3, 140, "z/VM 7.3", "IBM mon730 MRISFILC", isfilc),
};
/* clang-format on */
ZL_TABLE(d9, layouts);
