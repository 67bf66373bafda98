/* SPDX-License-Identifier: MIT */
/*
 * Every built-in layout table.  A new lay_*.c file ends with
 * ZL_TABLE(name, its_layouts); and adds its name to TABLES here.
 */
#include "layout.h"

#define TABLES(X) X(hdr) X(wzvm)

#define DECLARE(name) extern const struct zl_table zl_tab_##name;
TABLES(DECLARE)
#undef DECLARE

const struct zl_table *const zl_builtin[] = {
#define ENTRY(name) &zl_tab_##name,
	TABLES(ENTRY)
#undef ENTRY
	NULL,
};
