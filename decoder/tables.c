/* SPDX-License-Identifier: MIT */
/*
 * Every built-in layout table, the one list.  It sits above the layers
 * because its tables come from two of them: the CP domains' from layout/cp/,
 * the payload families' from payload/.  The layout engine reads the list
 * through zl_builtin (layout.h) and names no table itself, so layout/ knows
 * nothing of payload/; zl_builtin is the one symbol a layer takes from
 * above it (scripts/check-layers.py, HOOKS).
 *
 * A new lay_*.c file ends with ZL_TABLE(name, its_layouts); and adds its
 * name to TABLES here.
 */
#include "layout/layout.h"

/* clang-format off */
#define TABLES(X) \
    X(hdr)        \
    X(d0)         \
    X(d0p)        \
    X(d1)         \
    X(d1p)        \
    X(d3)         \
    X(d3p)        \
    X(d4)         \
    X(d5)         \
    X(d5p)        \
    X(d6)         \
    X(d6p)        \
    X(d8)         \
    X(d9)         \
    X(d11)        \
    X(d10)        \
    X(linux)      \
    X(lnxappl)    \
    X(vm370)      \
    X(wzvm)
/* clang-format on */

#define DECLARE(name) extern const struct zl_table zl_tab_##name;
TABLES(DECLARE)
#undef DECLARE

const struct zl_table *const zl_builtin[] = {
#define ENTRY(name) &zl_tab_##name,
    TABLES(ENTRY)
#undef ENTRY
        NULL,
};
