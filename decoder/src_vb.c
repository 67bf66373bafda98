/* SPDX-License-Identifier: MIT */
/*
 * Variable-record (VB) monitor files, and the VB engine the tape sources
 * share (vb.h).  A data transfer program strips MONWRITE's control records
 * and writes each monitor record as a variable-length record (seed 001);
 * such files arrive with or without block descriptor words, and with the RDW
 * either before the CP record or doubling as its MRHDRLEN.
 *
 * Framing errors (a descriptor word with nonzero low half, a length below 4
 * or above 32760) lose the framing: the engine reports once and scans forward
 * for the next offset where a plausible block or record starts.  Runs of zero
 * bytes (padding at the end of a transferred file) are skipped silently.
 */
#include <stdlib.h>
#include <string.h>

#include "source.h"
#include "vb.h"
#include "vm370.h"

/* Bytes looked at before deciding between blocked and unblocked. */
#define DECIDE_HEAD (16 * 1024)
/* CP record TODs below this (top byte X'A0', about 1989) are not z/VM's. */
#define CP_TOD_FLOOR UINT64_C(0xA000000000000000)

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

/* The CP record inside a variable record rv (RDW included). */
static zd_view cp_record_view(zd_view rv)
{
	zd_view payload = zd_view_tail(rv, 4);
	uint16_t len = 0, zeros = 1;
	(void)zd_u16(payload, 0, &len);
	(void)zd_u16(payload, 2, &zeros);
	if (payload.n >= ZD_HDR_LEN && len == payload.n && zeros == 0)
		return payload; /* RDW, then the record */
	return rv;              /* the record's own MRHDRLEN is the RDW */
}

static bool plausible_cp(zd_view rv, bool prepended_only)
{
	struct zd_hdr h;
	zd_view rec = cp_record_view(rv);
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

static bool plausible_vm370(zd_view rv)
{
	struct zd_vm370_hdr h;
	if (zd_vm370_hdr_parse(rv, &h) != ZD_E_NONE || h.cls > 15 || h.code > 255)
		return false;
	return !(h.cls == 0 && h.code == ZD_VM370_TAPE_HEADER) || is_tape_header(rv);
}

static bool plausible(int family, zd_view rv)
{
	return family == ZD_FAM_VM370 ? plausible_vm370(rv) : plausible_cp(rv, false);
}

/* A descriptor word that keeps the framing: zeros in the low half, 4..32760. */
static bool dw_ok(zd_view v, size_t off, uint16_t *len)
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
	while (off + 4 <= v.n && dw_ok(v, off, &len)) {
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
	while (off + 4 <= v.n && dw_ok(v, off, &len) && len >= 8) {
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
		zd_report(vb->d, e, pos,
			  "VM/370 record of %zu bytes at offset %llu: %s; skipped", rv.n,
			  (unsigned long long)pos->offset, zd_err_desc(e));
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
	zd_view rec = cp_record_view(rv);
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
	if (vb->tape && blk.n > ZD_VM370_MAX_BLOCK && !partial)
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
				zd_report(vb->d, ZD_E_VB_RDW, &pos,
					  "block %llu: RDW at +%zu says %u bytes (zeros %04X) but the "
					  "block has %zu left; rest of the block dropped",
					  (unsigned long long)vb->block, o, (unsigned)len, (unsigned)z,
					  blk.n - o);
			}
			vb->block++;
			return;
		}
		zd_view rv;
		(void)zd_view_sub(blk, o, len, &rv);
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

void zd_vb_block(struct zd_vb *vb, zd_view blk, uint64_t off)
{
	uint16_t len = 0;
	struct zd_pos pos = {.offset = off, .set = vb->file, .block = vb->block};
	if (!dw_ok(blk, 0, &len) || len < 8) {
		zd_report(vb->d, ZD_E_VB_BDW, &pos,
			  "tape block %llu (%zu bytes) does not start with a block descriptor word; "
			  "skipped",
			  (unsigned long long)vb->block, blk.n);
		vb->block++;
		vb->d->st.blocks++;
		return;
	}
	if (len != blk.n) {
		zd_report(vb->d, ZD_E_VB_BDW, &pos,
			  "tape block %llu: BDW says %u bytes, the block has %zu; using the smaller",
			  (unsigned long long)vb->block, (unsigned)len, blk.n);
		if (len < blk.n)
			blk.n = len;
	}
	on_block(vb, blk, off, false);
}

/* Could a block (or record, unblocked) start at v[0]?  -1: need more bytes. */
static int could_start(const struct zd_vb *vb, zd_view v, bool final)
{
	uint16_t len, rlen;
	if (v.n < 4)
		return final ? 0 : -1;
	if (!dw_ok(v, 0, &len))
		return 0;
	size_t first = 0;
	if (vb->bdw) {
		if (len < 8)
			return 0;
		if (v.n < 8)
			return final ? 0 : -1;
		if (!dw_ok(v, 4, &rlen) || rlen > len - 4)
			return 0;
		first = 4;
		len = rlen;
	}
	zd_view rv;
	if (!zd_view_sub(v, first, len, &rv))
		return final ? 0 : -1;
	int fam = vb->family < 0 ? (plausible_vm370(rv) ? ZD_FAM_VM370 : ZD_FAM_CP) : vb->family;
	return fam == ZD_FAM_CP ? plausible_cp(rv, vb->cp_prepended) : plausible_vm370(rv);
}

static bool all_zero(zd_view v)
{
	for (size_t i = 0; i < v.n; i++)
		if (v.p[i])
			return false;
	return true;
}

static void drain(struct zd_vb *vb, bool final)
{
	zd_view all = zd_view_make(vb->buf, vb->n);
	size_t pos = 0;
	if (vb->bdw < 0) {
		if (!final && vb->n < DECIDE_HEAD)
			return;
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
	}
	while (pos < vb->n) {
		zd_view v = zd_view_tail(all, pos);
		struct zd_pos zp = {.offset = vb->consumed + pos, .set = vb->file, .block = vb->block};
		if (vb->resyncing) {
			int c = could_start(vb, v, final);
			if (c < 0)
				break;
			if (c == 0) {
				if (v.p[0] != 0 && !vb->resync_reported) {
					zd_report(vb->d, vb->bdw ? ZD_E_VB_BDW : ZD_E_VB_RDW, &zp,
						  "%s descriptor word at offset %llu is damaged; scanning "
						  "for the next plausible %s",
						  vb->bdw ? "block" : "record",
						  (unsigned long long)zp.offset,
						  vb->bdw ? "block" : "record");
					vb->resync_reported = true;
				}
				pos++;
				continue;
			}
			vb->resyncing = false;
		}
		uint16_t len = 0;
		if (v.n < 4) {
			if (final) {
				if (!all_zero(v))
					zd_report(vb->d, ZD_E_VB_TRUNCATED, &zp,
						  "input ends with %zu bytes, less than a descriptor word",
						  v.n);
				pos = vb->n;
			}
			break;
		}
		if (!dw_ok(v, 0, &len) || (vb->bdw && len < 8)) {
			vb->resyncing = true;
			vb->resync_reported = false;
			continue;
		}
		if (len > v.n) {
			if (!final)
				break;
			zd_report(vb->d, ZD_E_VB_TRUNCATED, &zp,
				  "input ends inside a %s: %u bytes announced at offset %llu, %zu present",
				  vb->bdw ? "block" : "record", (unsigned)len,
				  (unsigned long long)zp.offset, v.n);
			if (vb->bdw)
				on_block(vb, v, zp.offset, true);
			pos = vb->n;
			break;
		}
		zd_view unit;
		(void)zd_view_sub(v, 0, len, &unit);
		if (vb->bdw) {
			on_block(vb, unit, zp.offset, false);
		} else {
			if (vb->family < 0)
				vb->family = plausible_vm370(unit) ? ZD_FAM_VM370 : ZD_FAM_CP;
			on_record(vb, unit, zp.offset);
		}
		pos += len;
	}
	vb->d->st.bytes += pos;
	if (pos == 0)
		return;
	memmove(vb->buf, vb->buf + pos, vb->n - pos);
	vb->n -= pos;
	vb->consumed += pos;
}

int zd_vb_feed(struct zd_vb *vb, zd_view b)
{
	if (b.n > vb->cap - vb->n) {
		size_t cap = vb->cap ? vb->cap : 65536;
		while (cap - vb->n < b.n)
			cap *= 2;
		uint8_t *p = realloc(vb->buf, cap);
		if (!p)
			return -1;
		vb->buf = p;
		vb->cap = cap;
	}
	if (b.n)
		memcpy(vb->buf + vb->n, b.p, b.n);
	vb->n += b.n;
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
