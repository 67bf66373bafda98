/* SPDX-License-Identifier: MIT */
/*
 * The variable-record (VB) engine shared by src_vb.c, src_tape.c and
 * src_awstape.c (internal to the decoder).
 *
 * A VB stream is records, each preceded by a 4-byte record descriptor word
 * (RDW: length including itself, two bytes of zeros), optionally grouped in
 * blocks preceded by a block descriptor word (BDW: the same shape, the block
 * length including itself).  What a record holds depends on the family:
 *   ZD_FAM_CP     a CP monitor record (20-byte MRHDR), either after the RDW
 *                 (RDW length = record length + 4) or starting at the RDW
 *                 (MRHDRLEN doubles as the RDW: "MRHDRLEN DS H Record
 *                 descriptor word", CA MICS 6.3); decided record by record.
 *   ZD_FAM_VM370  a VM/370 Monitor record: its 12-byte header starts with the
 *                 RDW (vm370.h).
 */
#ifndef ZD_VB_H
#define ZD_VB_H

#include "record/record.h"

#define ZD_VB_MAX_BLOCK 32760u /* the largest block or record QSAM writes */

struct zd_vb;

/* family: ZD_FAM_CP, ZD_FAM_VM370, or -1 (decided from the first block).
 * bdw: 1 blocked, 0 not, -1 decided from the first bytes.
 * tape: VM/370 tape rules (blocks of VM/370 records above 4096 bytes are reported). */
struct zd_vb *zd_vb_new(struct zd_decoder *d, int family, int bdw, bool tape);
void zd_vb_free(struct zd_vb *vb);

/* A byte stream of blocks (or of records when unblocked), pieces of any size. */
int zd_vb_feed(struct zd_vb *vb, zd_view bytes);
int zd_vb_finish(struct zd_vb *vb);

/*
 * One physical tape block, BDW included, found at input offset off; partial:
 * the input ended inside it (the caller reported that), so only its whole
 * records are delivered and its cut is no further error.
 */
void zd_vb_block(struct zd_vb *vb, zd_view block, uint64_t off, bool partial);
/* The tape file (count of tape marks before) that following records come from. */
void zd_vb_set_file(struct zd_vb *vb, uint64_t file);

/*
 * Detection: how well head reads as VB of this family (0..100).  With bdw
 * not NULL, *bdw tells which framing read better.  A VM/370 tape that starts
 * with its tape header record scores highest.
 */
int zd_vb_score(zd_view head, int family, int *bdw);
/* Which family the records of a block (BDW included) belong to. */
int zd_vb_guess_family(zd_view block);

/* The checks behind both (src_vb_scan.c); rv is a variable record, RDW included. */
/* A descriptor word that keeps the framing: zeros in the low half, length 4..32760. */
bool zd_vb_dw_ok(zd_view v, size_t off, uint16_t *len);
/* The CP record in rv: after the RDW if its MRHDRLEN says so, else starting at it. */
zd_view zd_vb_cp_record(zd_view rv);
/* Valid MRHDR, domain 0-11, TOD after 1989 (prepended_only: the RDW must precede it). */
bool zd_vb_plausible_cp(zd_view rv, bool prepended_only);
/* Valid MNH, class 0-15, code 0-255; a tape header must have a readable session date. */
bool zd_vb_plausible_vm370(zd_view rv);

#endif
