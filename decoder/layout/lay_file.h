/* SPDX-License-Identifier: MIT */
/*
 * LayoutFile: record layouts added or corrected at run time, without
 * recompiling (plugin option LayoutFile, zvmmon --layouts FILE).  The
 * format is documented in doc/layoutfile.md.  A file is parsed completely
 * before anything is registered: one error and none of its layouts is used.
 * Loaded layouts win over built-in ones with the same id and min_len.
 */
#ifndef ZD_LAY_FILE_H
#define ZD_LAY_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* Limits that keep a hostile file small. */
#define ZL_FILE_MAX_BYTES   (1u << 20)
#define ZL_FILE_MAX_LINE    1024
#define ZL_FILE_MAX_LAYOUTS 256
#define ZL_FILE_MAX_FIELDS  512 /* per layout */

/* Load path; on failure err says "path:line: what is wrong". */
bool zl_load_file(const char *path, char *err, size_t errlen);
/* The same from memory (name is used in messages). */
bool zl_load_text(const char *text, size_t len, const char *name, char *err, size_t errlen);
/* Unregister every run-time layout and free what the loader allocated. */
void zl_file_unload_all(void);

#endif
