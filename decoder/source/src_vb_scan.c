/* SPDX-License-Identifier: MIT */
/*
 * Recognising variable records (vb.h): what a plausible CP or VM/370 record
 * looks like inside its RDW, and reading a head of bytes both as blocked and
 * as unblocked records to see which framing holds.  Detection scores and the
 * VB engine's resynchronisation both rest on these checks.
 */
#include "source/vb.h"
#include "record/vm370_hdr.h"

/* CP record TODs below this (top byte X'A0', about 1989) are not z/VM's. */
#define CP_TOD_FLOOR UINT64_C(0xA000000000000000)

/* The CP record inside a variable record rv (RDW included). */
zd_view zd_vb_cp_record(zd_view rv)
{
        zd_view payload = zd_view_tail(rv, 4);
        uint16_t len = 0, zeros = 1;
        (void)zd_u16(payload, 0, &len);
        (void)zd_u16(payload, 2, &zeros);
        if (payload.n >= ZD_HDR_LEN && len == payload.n && zeros == 0)
                return payload; /* RDW, then the record */
        return rv;              /* the record's own MRHDRLEN is the RDW */
}

bool zd_vb_plausible_cp(zd_view rv, bool prepended_only)
{
        struct zd_hdr h;
        zd_view rec = zd_vb_cp_record(rv);
        if (prepended_only && rec.p == rv.p)
                return false;
        return zd_hdr_parse(rec, &h) == ZD_E_NONE && h.domain <= ZD_MAX_DOMAIN &&
               h.tod >= CP_TOD_FLOOR;
}

static bool is_tape_header(zd_view rv)
{
        struct zd_vm370_hdr h;
        return zd_vm370_hdr_parse(rv, &h) == ZD_E_NONE && h.cls == 0 &&
               h.code == ZD_VM370_TAPE_HEADER && h.len >= 80 && zd_vm370_session_tod(rv) != 0;
}

bool zd_vb_plausible_vm370(zd_view rv)
{
        struct zd_vm370_hdr h;
        if (zd_vm370_hdr_parse(rv, &h) != ZD_E_NONE || h.cls > 15 || h.code > 255)
                return false;
        return !(h.cls == 0 && h.code == ZD_VM370_TAPE_HEADER) || is_tape_header(rv);
}

static bool plausible(int family, zd_view rv)
{
        return family == ZD_FAM_VM370 ? zd_vb_plausible_vm370(rv) : zd_vb_plausible_cp(rv, false);
}

/* A descriptor word that keeps the framing: zeros in the low half, 4..32760. */
bool zd_vb_dw_ok(zd_view v, size_t off, uint16_t *len)
{
        uint16_t z = 1;
        if (!zd_u16(v, off, len) || !zd_u16(v, off + 2, &z))
                return false;
        return z == 0 && *len >= 4 && *len <= ZD_VB_MAX_BLOCK;
}

struct walk {
        size_t recs;
        bool header; /* the first record is a VM/370 tape header */
        bool clean;  /* stopped at the end of the view, not at damage */
};

static struct walk walk_records(zd_view v, int family)
{
        struct walk w = {0};
        size_t off = 0;
        uint16_t len;
        while (off + 4 <= v.n && zd_vb_dw_ok(v, off, &len)) {
                zd_view rv;
                if (!zd_view_sub(v, off, len, &rv)) {
                        w.clean = true; /* cut by the end of the head */
                        return w;
                }
                if (!plausible(family, rv))
                        return w;
                if (w.recs++ == 0 && family == ZD_FAM_VM370)
                        w.header = is_tape_header(rv);
                off += len;
        }
        w.clean = off == v.n;
        return w;
}

static struct walk walk_blocks(zd_view v, int family)
{
        struct walk w = {0};
        size_t off = 0;
        uint16_t len;
        while (off + 4 <= v.n && zd_vb_dw_ok(v, off, &len) && len >= 8) {
                zd_view inner = zd_view_tail(v, off + 4);
                bool cut = inner.n < (size_t)len - 4;
                if (!cut)
                        inner.n = (size_t)len - 4;
                struct walk b = walk_records(inner, family);
                if (w.recs == 0)
                        w.header = b.header;
                w.recs += b.recs;
                if (cut || !b.clean) {
                        w.clean = cut && b.clean;
                        return w;
                }
                off += len;
        }
        w.clean = off == v.n;
        return w;
}

int zd_vb_score(zd_view head, int family, int *bdw)
{
        struct walk a = walk_records(head, family), b = walk_blocks(head, family);
        /* Ties (one record per block) read the same either way; tapes are blocked. */
        bool blocked = b.recs > a.recs || (b.recs == a.recs && family == ZD_FAM_VM370);
        struct walk w = blocked ? b : a;
        if (bdw)
                *bdw = blocked;
        if (w.recs == 0)
                return 0;
        if (family == ZD_FAM_VM370) {
                if (w.header)
                        return 95;
                /* Without the header, VM/370 records have little to recognise them by. */
                return w.recs >= 3 && w.clean ? 45 : 20;
        }
        return w.recs >= 3 || w.clean ? 85 : 50;
}

int zd_vb_guess_family(zd_view block)
{
        zd_view recs = zd_view_tail(block, 4);
        struct walk vm = walk_records(recs, ZD_FAM_VM370), cp = walk_records(recs, ZD_FAM_CP);
        if (vm.header)
                return ZD_FAM_VM370;
        return cp.recs > 0 && cp.recs >= vm.recs ? ZD_FAM_CP : ZD_FAM_VM370;
}
