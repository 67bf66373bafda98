/* SPDX-License-Identifier: MIT */
/*
 * The growing input buffer every streaming source keeps: bytes arrive in
 * pieces of any size and are consumed from the front once decoded.
 */
#ifndef ZD_BYTES_H
#define ZD_BYTES_H

#include "base/view.h"

/* Append b to (*buf, *n), doubling *cap as needed.  False on allocation failure. */
bool zd_bytes_append(uint8_t **buf, size_t *n, size_t *cap, zd_view b);
/* Drop the first k bytes (k <= *n). */
void zd_bytes_consume(uint8_t *buf, size_t *n, size_t k);

#endif
