/* SPDX-License-Identifier: MIT */
/*
 * Variable-record (VB) monitor files, and the VB engine the tape sources
 * share (vb.h).  A data transfer program strips MONWRITE's control records
 * and writes each monitor record as a variable-length record (CA MICS 6.3,
 * doc/facts/monitor-stream.md 8.1); such files arrive with or without block
 * descriptor words, and with the RDW either before the CP record or doubling
 * as its MRHDRLEN.
 *
 * Framing errors (a descriptor word with nonzero low half, a length below 4
 * or above 32760) lose the framing: the engine reports once and scans forward
 * for the next offset where a plausible block or record starts.  Runs of zero
 * bytes (padding at the end of a transferred file) are skipped silently.
 */
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "source/source.h"
#include "source/vb.h"
#include "record/vm370_hdr.h"

/* Bytes looked at before deciding between blocked and unblocked. */
#define DECIDE_HEAD (16 * 1024)

struct zd_vb {
        struct zd_decoder *d;
        int family, bdw;
        bool tape;
        uint8_t *buf;
        size_t n, cap;
        uint64_t consumed; /* input offset of buf[0] */
        uint64_t block, file;
        bool resyncing, resync_reported;
        /* Once a record came after its own RDW, a record that does not is damage. */
        bool cp_prepended;
        uint64_t ref_tod; /* VM/370: a TOD close to the next record's */
};

struct zd_vb *zd_vb_new(struct zd_decoder *d, int family, int bdw, bool tape)
{
        struct zd_vb *vb = calloc(1, sizeof(*vb));
        if (!vb)
                return NULL;
        vb->d = d;
        vb->family = family;
        vb->bdw = bdw;
        vb->tape = tape;
        return vb;
}

void zd_vb_free(struct zd_vb *vb)
{
        if (vb)
                free(vb->buf);
        free(vb);
}

void zd_vb_set_file(struct zd_vb *vb, uint64_t file)
{
        vb->file = file;
}

static void deliver_vm370(struct zd_vb *vb, zd_view rv, const struct zd_pos *pos)
{
        struct zd_vm370_hdr h;
        enum zd_err_kind e = zd_vm370_hdr_parse(rv, &h);
        if (e != ZD_E_NONE) {
                zd_report(vb->d, e, pos, "VM/370 record of %zu bytes at offset %llu: %s; skipped",
                          rv.n, (unsigned long long)pos->offset, zd_err_desc(e));
                return;
        }
        if (h.cls == 0 && h.code == ZD_VM370_TAPE_HEADER) {
                uint64_t t = zd_vm370_session_tod(rv);
                if (t)
                        vb->ref_tod = t;
        }
        uint64_t tod = zd_vm370_tod(h.tod40, vb->ref_tod);
        if (tod)
                vb->ref_tod = tod;
        struct zd_record r = {
            .pos = *pos,
            .domain = h.cls,
            .number = h.code,
            .tod = tod,
            .rec = rv,
            .body = zd_view_tail(rv, ZD_VM370_HDR_LEN),
            .family = ZD_FAM_VM370,
        };
        zd_deliver(vb->d, &r);
}

static void deliver_cp(struct zd_vb *vb, zd_view rv, struct zd_pos *pos)
{
        zd_view rec = zd_vb_cp_record(rv);
        if (rec.p == rv.p && vb->cp_prepended) {
                uint16_t inner = 0;
                (void)zd_u16(rv, 4, &inner);
                zd_report(vb->d, ZD_E_VB_RDW, pos,
                          "RDW at offset %llu says %zu bytes, the record after it says %u; skipped",
                          (unsigned long long)pos->offset, rv.n, (unsigned)inner);
                return;
        }
        if (rec.p != rv.p)
                vb->cp_prepended = true;
        pos->offset += (uint64_t)(rec.p - rv.p);
        struct zd_hdr h;
        enum zd_err_kind e = rec.n < ZD_HDR_LEN ? ZD_E_VB_RECORD : zd_hdr_parse(rec, &h);
        if (e != ZD_E_NONE) {
                zd_report(vb->d, e, pos, "variable record of %zu bytes at offset %llu: %s; skipped",
                          rv.n, (unsigned long long)pos->offset, zd_err_desc(e));
                return;
        }
        struct zd_record r = {
            .pos = *pos,
            .domain = h.domain,
            .number = h.number,
            .tod = h.tod,
            .rec = rec,
            .body = zd_view_tail(rec, ZD_HDR_LEN),
        };
        zd_deliver(vb->d, &r);
}

static void on_record(struct zd_vb *vb, zd_view rv, uint64_t off)
{
        struct zd_pos pos = {.offset = off, .set = vb->file, .block = vb->block};
        if (vb->family == ZD_FAM_VM370)
                deliver_vm370(vb, rv, &pos);
        else
                deliver_cp(vb, rv, &pos);
}

/* One block, BDW included; partial: the input ended inside it (reported already). */
static void on_block(struct zd_vb *vb, zd_view blk, uint64_t off, bool partial)
{
        struct zd_pos pos = {.offset = off, .set = vb->file, .block = vb->block};
        vb->d->st.blocks++;
        if (vb->family < 0)
                vb->family = zd_vb_guess_family(blk);
        /* The limit is VM/370 Monitor's: a tape of CP records may block up to 32760. */
        if (vb->tape && vb->family == ZD_FAM_VM370 && blk.n > ZD_VM370_MAX_BLOCK && !partial)
                zd_report(vb->d, ZD_E_TAPE_BLOCK, &pos,
                          "block %llu at offset %llu is %zu bytes (VM/370 Monitor writes at most "
                          "4096); decoding it anyway",
                          (unsigned long long)vb->block, (unsigned long long)off, blk.n);
        size_t o = 4;
        uint16_t len = 0, z = 0;
        while (o + 4 <= blk.n) {
                (void)zd_u16(blk, o, &len);
                (void)zd_u16(blk, o + 2, &z);
                if (z != 0 || len < 4 || len > blk.n - o) {
                        if (!(partial && z == 0 && len >= 4)) {
                                pos.offset = off + o;
                                zd_report(
                                    vb->d, ZD_E_VB_RDW, &pos,
                                    "block %llu: RDW at +%zu says %u bytes (zeros %04X) but the "
                                    "block has %zu left; rest of the block dropped",
                                    (unsigned long long)vb->block, o, (unsigned)len, (unsigned)z,
                                    blk.n - o);
                        }
                        vb->block++;
                        return;
                }
                zd_view rv;
                if (!zd_view_sub(blk, o, len, &rv)) /* the test above made sure: never */
                        break;
                on_record(vb, rv, off + o);
                o += len;
        }
        if (o != blk.n && !partial) {
                pos.offset = off + o;
                zd_report(vb->d, ZD_E_VB_RDW, &pos,
                          "block %llu ends with %zu bytes that are not a whole record",
                          (unsigned long long)vb->block, blk.n - o);
        }
        vb->block++;
}

void zd_vb_block(struct zd_vb *vb, zd_view blk, uint64_t off, bool partial)
{
        uint16_t len = 0;
        struct zd_pos pos = {.offset = off, .set = vb->file, .block = vb->block};
        if (partial && blk.n < 8) /* cut before a record could be whole: the cut is reported */
                return;
        if (!zd_vb_dw_ok(blk, 0, &len) || len < 8) {
                zd_report(
                    vb->d, ZD_E_VB_BDW, &pos,
                    "tape block %llu (%zu bytes) does not start with a block descriptor word; "
                    "skipped",
                    (unsigned long long)vb->block, blk.n);
                vb->block++;
                vb->d->st.blocks++;
                return;
        }
        if (len < blk.n || (len > blk.n && !partial)) {
                zd_report(
                    vb->d, ZD_E_VB_BDW, &pos,
                    "tape block %llu: BDW says %u bytes, the block has %zu; using the smaller",
                    (unsigned long long)vb->block, (unsigned)len, blk.n);
                if (len < blk.n)
                        blk.n = len;
        }
        on_block(vb, blk, off, partial);
}

/* Could a block (or record, unblocked) start at v[0]?  -1: need more bytes. */
static int could_start(const struct zd_vb *vb, zd_view v, bool final)
{
        uint16_t len, rlen;
        if (v.n < 4)
                return final ? 0 : -1;
        if (!zd_vb_dw_ok(v, 0, &len))
                return 0;
        size_t first = 0;
        if (vb->bdw) {
                if (len < 8)
                        return 0;
                if (v.n < 8)
                        return final ? 0 : -1;
                if (!zd_vb_dw_ok(v, 4, &rlen) || rlen > len - 4)
                        return 0;
                first = 4;
                len = rlen;
        }
        zd_view rv;
        if (!zd_view_sub(v, first, len, &rv))
                return final ? 0 : -1;
        int fam =
            vb->family < 0 ? (zd_vb_plausible_vm370(rv) ? ZD_FAM_VM370 : ZD_FAM_CP) : vb->family;
        return fam == ZD_FAM_CP ? zd_vb_plausible_cp(rv, vb->cp_prepended)
                                : zd_vb_plausible_vm370(rv);
}

static bool all_zero(zd_view v)
{
        for (size_t i = 0; i < v.n; i++)
                if (v.p[i])
                        return false;
        return true;
}

/* Blocked or not, judged on the head of the input.  False: too little input yet. */
static bool decide_framing(struct zd_vb *vb, bool final)
{
        if (!final && vb->n < DECIDE_HEAD)
                return false;
        /* The same bytes whatever arrived in the read that crossed DECIDE_HEAD. */
        zd_view all = zd_view_make(vb->buf, vb->n < DECIDE_HEAD ? vb->n : DECIDE_HEAD);
        int fam = vb->family, b = 0;
        if (fam < 0)
                fam = zd_vb_score(all, ZD_FAM_VM370, NULL) >= zd_vb_score(all, ZD_FAM_CP, NULL)
                          ? ZD_FAM_VM370
                          : ZD_FAM_CP;
        /* Judge the framing where something plausible starts (damage may come first). */
        for (size_t k = 0; k < all.n && k < 4096; k++)
                if (zd_vb_score(zd_view_tail(all, k), fam, &b) > 0)
                        break;
        vb->bdw = b;
        return true;
}

/* Scanning after damage: -1: need more bytes; 0: nothing starts at v[0]; 1: something does. */
static int resync(struct zd_vb *vb, zd_view v, const struct zd_pos *zp, bool final)
{
        int c = could_start(vb, v, final);
        if (c == 0 && v.p[0] != 0 && !vb->resync_reported) {
                zd_report(vb->d, vb->bdw ? ZD_E_VB_BDW : ZD_E_VB_RDW, zp,
                          "%s descriptor word at offset %llu is damaged; scanning for the next "
                          "plausible %s",
                          vb->bdw ? "block" : "record", (unsigned long long)zp->offset,
                          vb->bdw ? "block" : "record");
                vb->resync_reported = true;
        }
        if (c > 0)
                vb->resyncing = false;
        return c;
}

/*
 * The block (or record, unblocked) at v[0], zp its position: delivered, or
 * its damage reported.  *took: the bytes it used up (none when its descriptor
 * word is damaged: resyncing starts there).  False: more input is needed.
 */
static bool take_unit(struct zd_vb *vb, zd_view v, const struct zd_pos *zp, bool final,
                      size_t *took)
{
        uint16_t len = 0;
        *took = 0;
        if (v.n < 4) {
                if (!final)
                        return false;
                if (!all_zero(v))
                        zd_report(vb->d, ZD_E_VB_TRUNCATED, zp,
                                  "input ends with %zu bytes, less than a descriptor word", v.n);
                *took = v.n;
                return true;
        }
        if (!zd_vb_dw_ok(v, 0, &len) || (vb->bdw && len < 8)) {
                vb->resyncing = true;
                vb->resync_reported = false;
                return true;
        }
        if (len > v.n) {
                if (!final)
                        return false;
                zd_report(vb->d, ZD_E_VB_TRUNCATED, zp,
                          "input ends inside a %s: %u bytes announced at offset %llu, %zu present",
                          vb->bdw ? "block" : "record", (unsigned)len,
                          (unsigned long long)zp->offset, v.n);
                if (vb->bdw)
                        on_block(vb, v, zp->offset, true);
                *took = v.n;
                return true;
        }
        zd_view unit;
        (void)zd_view_sub(v, 0, len, &unit);
        if (vb->bdw) {
                on_block(vb, unit, zp->offset, false);
        } else {
                if (vb->family < 0)
                        vb->family = zd_vb_plausible_vm370(unit) ? ZD_FAM_VM370 : ZD_FAM_CP;
                on_record(vb, unit, zp->offset);
        }
        *took = len;
        return true;
}

static void drain(struct zd_vb *vb, bool final)
{
        if (vb->bdw < 0 && !decide_framing(vb, final))
                return;
        zd_view all = zd_view_make(vb->buf, vb->n);
        size_t pos = 0, took;
        while (pos < vb->n) {
                zd_view v = zd_view_tail(all, pos);
                struct zd_pos zp = {
                    .offset = vb->consumed + pos, .set = vb->file, .block = vb->block};
                if (vb->resyncing) {
                        int c = resync(vb, v, &zp, final);
                        if (c < 0)
                                break;
                        if (c == 0) {
                                pos++;
                                continue;
                        }
                }
                if (!take_unit(vb, v, &zp, final, &took))
                        break;
                pos += took;
        }
        vb->d->st.bytes += pos;
        if (pos == 0)
                return;
        zd_bytes_consume(vb->buf, &vb->n, pos);
        vb->consumed += pos;
}

int zd_vb_feed(struct zd_vb *vb, zd_view b)
{
        if (!zd_bytes_append(&vb->buf, &vb->n, &vb->cap, b))
                return -1;
        drain(vb, false);
        return 0;
}

int zd_vb_finish(struct zd_vb *vb)
{
        drain(vb, true);
        vb->d->st.bytes += vb->n;
        vb->consumed += vb->n;
        vb->n = 0;
        return 0;
}

/* The VB source: CP monitor records. */
static int vb_detect(zd_view head)
{
        return zd_vb_score(head, ZD_FAM_CP, NULL);
}

static void *vb_create(struct zd_decoder *d)
{
        return zd_vb_new(d, ZD_FAM_CP, -1, false);
}

static int vb_feed(void *st, zd_view b)
{
        return zd_vb_feed(st, b);
}

static int vb_finish(void *st)
{
        return zd_vb_finish(st);
}

static void vb_destroy(void *st)
{
        zd_vb_free(st);
}

const struct zd_source_ops zd_src_vb = {
    .fmt = ZD_FMT_VB,
    .name = "vb",
    .desc = "variable-record file of CP monitor records (RDW, optional BDW)",
    .detect = vb_detect,
    .create = vb_create,
    .feed = vb_feed,
    .finish = vb_finish,
    .destroy = vb_destroy,
};
