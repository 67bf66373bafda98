/* SPDX-License-Identifier: MIT */
/*
 * Walking a record set.  Records never cross a 4 KB frame of the DCSS, so
 * frame arithmetic is done on DCSS addresses (the MCE start address tells
 * where v[0] sits), never on offsets into the buffer.
 */
#include "record/record.h"

static void count(struct zd_decoder *d, const struct zd_record *r)
{
        struct zd_stats *st = &d->st;
        st->records++;
        unsigned slot = r->number < ZD_NRECSLOTS ? r->number : ZD_NRECSLOTS - 1;
        if (r->family == ZD_FAM_VM370) {
                if (r->domain < ZD_NDOMAINS)
                        st->by_vm370[r->domain][slot]++;
        } else {
                if (r->domain > ZD_MAX_DOMAIN)
                        st->unknown_domain++;
                if (r->domain < ZD_NDOMAINS)
                        st->by_rec[r->domain][slot]++;
        }
        if (r->kind == 'S')
                st->samples++;
        else if (r->kind == 'E')
                st->events++;
        if (r->tod) {
                if (!st->first_tod || r->tod < st->first_tod)
                        st->first_tod = r->tod;
                if (r->tod > st->last_tod)
                        st->last_tod = r->tod;
        }
}

void zd_deliver(struct zd_decoder *d, const struct zd_record *r)
{
        count(d, r);
        if (d->h.record)
                d->h.record(d->h.ctx, r);
        if (r->family != ZD_FAM_CP || r->domain != 1)
                return;
        if (r->number == ZD_D1_END_OF_FRAME)
                d->st.frames++;
        if (r->number == ZD_D1_INTERVAL_END) {
                d->st.intervals++;
                if (d->h.interval_end)
                        d->h.interval_end(d->h.ctx, r);
        }
}

/*
 * Fewer than a header's bytes before the frame or the set ends.  CP never
 * leaves that after a record (End-of-Frame needs 20 bytes and a range ends
 * with its last record), so bytes there that are not zero are a record cut
 * short or a wrong length.
 */
static void short_tail(struct zd_decoder *d, zd_view v, size_t off, size_t room,
                       const struct zd_pos *pos)
{
        uint8_t b = 0;
        for (size_t i = 0; i < room; i++)
                if (zd_u8(v, off + i, &b) && b != 0) {
                        zd_report(d, ZD_E_HDR_TAIL, pos,
                                  "%zu bytes at DCSS %08X, too few for a record header, are not "
                                  "all zero; skipping to the next frame",
                                  room, (unsigned)pos->dcss);
                        return;
                }
}

size_t zd_walk_recset(struct zd_decoder *d, zd_view v, uint32_t dcss_start, char kind,
                      const struct zd_pos *base)
{
        size_t off = 0, delivered = 0;
        struct zd_pos pos = base ? *base : (struct zd_pos){0};

        while (off < v.n) {
                uint32_t addr = dcss_start + (uint32_t)off;
                size_t frame_left = ZD_FRAME_SIZE - (addr & (ZD_FRAME_SIZE - 1));
                size_t left = v.n - off;
                pos.offset = (base ? base->offset : 0) + off;
                pos.dcss = addr;

                size_t room = frame_left < left ? frame_left : left;
                if (room < ZD_HDR_LEN) {
                        short_tail(d, v, off, room, &pos);
                        off += frame_left;
                        continue;
                }
                /* A zero length: CP left the rest of the frame unused. */
                uint16_t len = 0;
                if (zd_u16(v, off, &len) && len == 0) {
                        off += frame_left;
                        continue;
                }

                struct zd_hdr h;
                enum zd_err_kind e = zd_hdr_parse(zd_view_tail(v, off), &h);
                if (e == ZD_E_NONE && h.len > frame_left)
                        e = ZD_E_HDR_FRAME;
                if (e != ZD_E_NONE) {
                        zd_report(d, e, &pos,
                                  "record at DCSS %08X: length %u, zeros %04X, %zu bytes left in "
                                  "set, %zu in frame; skipping to the next frame",
                                  (unsigned)addr, (unsigned)len, (unsigned)h.zeros, left,
                                  frame_left);
                        off += frame_left;
                        continue;
                }

                struct zd_record r = {
                    .pos = pos,
                    .domain = h.domain,
                    .number = h.number,
                    .tod = h.tod,
                    .kind = kind,
                };
                (void)zd_view_sub(v, off, h.len, &r.rec);
                r.body = zd_view_tail(r.rec, ZD_HDR_LEN);
                zd_deliver(d, &r);
                delivered++;
                /* End-of-Frame: the rest of the frame is unused. */
                off += h.domain == 1 && h.number == ZD_D1_END_OF_FRAME ? frame_left : h.len;
        }
        return delivered;
}
