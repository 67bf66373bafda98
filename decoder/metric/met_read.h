/* SPDX-License-Identifier: MIT */
/*
 * The engine's readers of whole CP records (zm_engine_record_read): one
 * layout made ready (zl_reader) per record kind, kept with the lengths its
 * layout holds for, so a record costs an index, two compares and the read.
 */
#ifndef ZD_MET_READ_H
#define ZD_MET_READ_H

#include "layout/layout.h"
#include "record/record.h"

struct zm_readers;

struct zm_readers *zm_readers_new(void);
void zm_readers_free(struct zm_readers *c);
/*
 * zl_find_cp's layout for r made ready, or NULL when r has no layout or
 * its layout is one no reader takes (*l says which).  Valid until the next
 * call.
 */
const struct zl_reader *zm_readers_find(struct zm_readers *c, const struct zd_record *r,
                                        const struct zl_layout **l);

/*
 * For a module: the integers of r's reading when r is delivered by
 * zm_engine_record_read (u[i] field i's of *l, zl_find_cp's layout, as
 * zl_reader_ints gives them), else NULL: the module reads r itself.
 */
struct zm_engine;
const uint64_t *zm_ints(const struct zm_engine *e, const struct zd_record *r,
                        const struct zl_layout **l);

#endif
