/* SPDX-License-Identifier: MIT */
/*
 * Walking a record set.  Records never cross a 4 KB frame of the DCSS, so
 * frame arithmetic is done on DCSS addresses (the MCE start address tells
 * where v[0] sits), never on offsets into the buffer.
 */
#include "record/record.h"

/*
 * A record in the statistics.  kinds is the counter of r's kind (samples,
 * events, or one nobody reads), chosen once per set by the walker.  The
 * first TOD is 0 until one is seen: minus one, both sides wrap to the
 * largest value, so a zero TOD never moves it and the first nonzero one does.
 */
static inline __attribute__((always_inline)) void count(struct zd_stats *st, uint8_t family,
                                                        uint8_t domain, uint16_t number,
                                                        uint64_t tod, uint64_t *kinds)
{
        st->records++;
        unsigned slot = number < ZD_NRECSLOTS ? number : ZD_NRECSLOTS - 1;
        if (family == ZD_FAM_VM370) {
                if (domain < ZD_NDOMAINS)
                        st->by_vm370[domain][slot]++;
        } else {
                if (domain > ZD_MAX_DOMAIN)
                        st->unknown_domain++;
                if (domain < ZD_NDOMAINS)
                        st->by_rec[domain][slot]++;
        }
        (*kinds)++;
        if (tod - 1 < st->first_tod - 1)
                st->first_tod = tod;
        if (tod > st->last_tod)
                st->last_tod = tod;
}

/* What a CP domain 1 record means to the walk, after the handler saw it. */
static inline __attribute__((always_inline)) void
control(struct zd_decoder *d, const struct zd_record *r, uint16_t number)
{
        if (number == ZD_D1_END_OF_FRAME)
                d->st.frames++;
        if (number == ZD_D1_INTERVAL_END) {
                d->st.intervals++;
                if (d->h.interval_end)
                        d->h.interval_end(d->h.ctx, r);
        }
}

static uint64_t *kind_counter(struct zd_stats *st, char kind, uint64_t *none)
{
        return kind == 'S' ? &st->samples : kind == 'E' ? &st->events : none;
}

void zd_deliver(struct zd_decoder *d, const struct zd_record *r)
{
        uint64_t none;
        uint8_t family = r->family, domain = r->domain;
        uint16_t number = r->number;
        count(&d->st, family, domain, number, r->tod, kind_counter(&d->st, r->kind, &none));
        if (d->h.record)
                d->h.record(d->h.ctx, r);
        if (family == ZD_FAM_CP && domain == 1)
                control(d, r, number);
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

/* A header the walk cannot use: reported as zd_hdr_parse finds it, the frame skipped. */
static __attribute__((noinline, cold)) void bad_header(struct zd_decoder *d, zd_view v, size_t off,
                                                       size_t frame_left, const struct zd_pos *pos)
{
        struct zd_hdr h;
        enum zd_err_kind e = zd_hdr_parse(zd_view_tail(v, off), &h);
        if (e == ZD_E_NONE && h.len > frame_left)
                e = ZD_E_HDR_FRAME;
        zd_report(d, e, pos,
                  "record at DCSS %08X: length %u, zeros %04X, %zu bytes left in set, %zu in "
                  "frame; skipping to the next frame",
                  (unsigned)pos->dcss, (unsigned)h.len, (unsigned)h.zeros, v.n - off, frame_left);
}

/*
 * The record struct is filled once for the set (position of the set and the
 * control element, kind, family) and only what a record changes is stored
 * per record; the header is two 8-byte loads (length, zeros, domain, number;
 * the TOD) from the 20 bytes the frame and the set were checked to hold.
 */
size_t zd_walk_recset(struct zd_decoder *d, zd_view v, uint32_t dcss_start, char kind,
                      const struct zd_pos *base)
{
        size_t off = 0, delivered = 0;
        uint64_t none, *kinds = kind_counter(&d->st, kind, &none);
        struct zd_record r = {.pos = base ? *base : (struct zd_pos){0}, .kind = kind};
        uint64_t base_off = r.pos.offset;

        while (off < v.n) {
                uint32_t addr = dcss_start + (uint32_t)off;
                size_t frame_left = ZD_FRAME_SIZE - (addr & (ZD_FRAME_SIZE - 1));
                size_t left = v.n - off;
                r.pos.offset = base_off + off;
                r.pos.dcss = addr;

                size_t room = frame_left < left ? frame_left : left;
                if (room < ZD_HDR_LEN) {
                        short_tail(d, v, off, room, &r.pos);
                        off += frame_left;
                        continue;
                }
                /* Both loads read inside the 20 bytes room was just checked to hold. */
                const uint8_t *p = v.p + off;
                uint64_t w = zd_uN_load8(p), tod = zd_uN_load8(p + 8);
                uint16_t len = (uint16_t)(w >> 48), zeros = (uint16_t)(w >> 32);
                uint8_t domain = (uint8_t)(w >> 24);
                uint16_t number = (uint16_t)w;
                /* A zero length: CP left the rest of the frame unused. */
                if (len == 0) {
                        off += frame_left;
                        continue;
                }
                if (len < ZD_HDR_LEN || zeros != 0 || len > room) {
                        bad_header(d, v, off, frame_left, &r.pos);
                        off += frame_left;
                        continue;
                }

                r.domain = domain;
                r.number = number;
                r.tod = tod;
                r.rec.p = p;
                r.rec.n = len;
                r.body.p = p + ZD_HDR_LEN;
                r.body.n = len - ZD_HDR_LEN;
                count(&d->st, ZD_FAM_CP, domain, number, tod, kinds);
                /* End-of-Frame: the rest of the frame is unused. */
                off += domain == 1 && number == ZD_D1_END_OF_FRAME ? frame_left : len;
                if (d->h.record)
                        d->h.record(d->h.ctx, &r);
                delivered++;
                /* r read again, not kept in registers the call would make the walk save */
                if (r.domain == 1)
                        control(d, &r, r.number);
        }
        return delivered;
}
