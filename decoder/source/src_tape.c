/* SPDX-License-Identifier: MIT */
/*
 * VM/370 Monitor tapes copied to a file as plain concatenated blocks: each
 * block is a standard VB block (BDW, then records), every record a 12-byte
 * MNH header and its data (vm370.h).  Without the emulator's block headers
 * the BDWs are the only framing; a file of unblocked records (RDWs only) is
 * read too.
 */
#include "source/source.h"
#include "source/vb.h"

static int tape_detect(zd_view head)
{
        return zd_vb_score(head, ZD_FAM_VM370, NULL);
}

static void *tape_create(struct zd_decoder *d)
{
        return zd_vb_new(d, ZD_FAM_VM370, -1, true);
}

static int tape_feed(void *st, zd_view b)
{
        return zd_vb_feed(st, b);
}

static int tape_finish(void *st)
{
        return zd_vb_finish(st);
}

static void tape_destroy(void *st)
{
        zd_vb_free(st);
}

const struct zd_source_ops zd_src_tape = {
    .fmt = ZD_FMT_TAPE,
    .name = "tape",
    .desc = "VM/370 Monitor tape as concatenated VB blocks",
    .detect = tape_detect,
    .create = tape_create,
    .feed = tape_feed,
    .finish = tape_finish,
    .destroy = tape_destroy,
};
