/* SPDX-License-Identifier: MIT */
/*
 * Short names for the CP layout tables (lay_d*.c only), so that a field
 * declaration fits on one line and reads like a row of IBM's page.
 */
#ifndef ZD_LAY_SHORT_H
#define ZD_LAY_SHORT_H

#include "layout/layout.h"

/* types */
#define U  ZL_UINT
#define SI ZL_SINT
#define T  ZL_TIMER
#define TD ZL_TIMERD
#define EB ZL_EBCDIC
#define BI ZL_BITS
#define HX ZL_HEX
#define RS ZL_RSVD
/* provenance */
#define V ZL_VERIFIED
#define H ZL_HINT
#define I ZL_INFERRED
/* kind */
#define G ZL_K_GAUGE
#define K ZL_K_COUNTER
#define N ZL_K_NONE

/*
 * The sources of HINT fields, by zpmd's age (doc/facts/cp-records.md 17): a
 * site reads from the source string how far a field deserves trust.
 */
#define ZL09 "zpmd 2009 (live 5.3)"            /* decoded by zpmd's 2009 main.c */
#define Z09  "zpmd 2009"                       /* struct in the 2009 code, never decoded there */
#define Z23  "zpmd 2023 reconstruction (TODO)" /* first in commit b45f66f, marked TODO */
#define ZUT  "zpmd, untested by its author"    /* "not tested" in both ages */

#endif
