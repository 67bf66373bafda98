/* SPDX-License-Identifier: MIT */
/*
 * EBCDIC text as z/VM writes it: userids, system names, product ids.
 * Code pages 037 (US/Canada) and 1047 (Latin-1/Open Systems) differ in only a
 * few punctuation positions; CP's own names use the common subset.
 */
#ifndef ZD_EBCDIC_H
#define ZD_EBCDIC_H

#include "base/view.h"

enum zd_codepage { ZD_CP037, ZD_CP1047 };

/*
 * Convert src to NUL-terminated UTF-8 in out (at most outsz bytes including
 * the NUL), trailing EBCDIC blanks (X'40') and NULs trimmed.  Characters
 * without a printable mapping become '.'.  Returns the string length.
 */
size_t zd_ebcdic_to_utf8(zd_view src, enum zd_codepage cp, char *out, size_t outsz);

/* ASCII to EBCDIC, blank-padded to len (for encoders and the simulator). */
void zd_ascii_to_ebcdic(const char *src, enum zd_codepage cp, uint8_t *out, size_t len);

/* One code point of a code page, as Unicode (0..255). */
unsigned zd_ebcdic_char(uint8_t c, enum zd_codepage cp);

#endif
