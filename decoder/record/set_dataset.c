/* SPDX-License-Identifier: MIT */
/*
 * One monreader data set: [12-byte MCE][record set] pairs, as many as the
 * IUCV message's control area had.  A damaged MCE whose range is still
 * readable costs only its own record set; one without a usable range ends the
 * set, because nothing after it can be located safely.
 */
#include "record/record.h"

size_t zd_decode_dataset(struct zd_decoder *d, zd_view set, uint64_t set_index, uint64_t offset)
{
        size_t off = 0, delivered = 0;
        struct zd_pos pos = {.set = set_index};

        d->st.sets++;
        d->st.bytes += set.n;
        for (uint32_t i = 0; off < set.n; i++) {
                struct zd_mce m;
                pos.offset = offset + off;
                pos.mce = i;
                pos.dcss = 0;
                enum zd_err_kind e = zd_mce_parse(zd_view_tail(set, off), &m);
                if (e == ZD_E_SET_SHORT || e == ZD_E_MCE_RANGE) {
                        zd_report(
                            d, e, &pos,
                            "data set %llu, MCE %u at offset %zu: %s; rest of the set (%zu bytes) "
                            "dropped",
                            (unsigned long long)set_index, (unsigned)i, off, zd_err_desc(e),
                            set.n - off);
                        break;
                }
                pos.dcss = m.start;
                d->st.mces++;
                uint64_t declared = zd_mce_bytes(&m);
                size_t present = set.n - off - ZD_MCE_LEN;
                if (e != ZD_E_NONE) {
                        zd_report(d, e, &pos,
                                  "data set %llu, MCE %u (type %02X, domains %02X%02X, %08X-%08X): "
                                  "%s; its %llu bytes skipped",
                                  (unsigned long long)set_index, (unsigned)i, m.type, m.dom0_7,
                                  m.dom8_15, (unsigned)m.start, (unsigned)m.end, zd_err_desc(e),
                                  (unsigned long long)declared);
                        if (declared > present)
                                break;
                        off += ZD_MCE_LEN + (size_t)declared;
                        continue;
                }
                size_t len = present;
                if (declared > present)
                        zd_report(
                            d, ZD_E_MCE_LENGTH, &pos,
                            "data set %llu, MCE %u declares %llu bytes (%08X-%08X) but %zu are "
                            "present; walking what is there",
                            (unsigned long long)set_index, (unsigned)i,
                            (unsigned long long)declared, (unsigned)m.start, (unsigned)m.end,
                            present);
                else
                        len = (size_t)declared;
                zd_view recs;
                if (!zd_view_sub(set, off + ZD_MCE_LEN, len, &recs))
                        break; /* len was cut to what is present above: not reached */
                struct zd_pos base = pos;
                base.offset = offset + off + ZD_MCE_LEN;
                delivered +=
                    zd_walk_recset(d, recs, m.start, m.type == ZD_MCE_SAMPLE ? 'S' : 'E', &base);
                off += ZD_MCE_LEN + len;
        }
        return delivered;
}

/* Does the last frame of a sample range (v at DCSS address start) hold Interval End? */
static bool last_frame_closes(zd_view v, uint32_t start)
{
        if (!v.n)
                return false;
        /* in 64 bits: a range may end at the top of the 31-bit DCSS space and a bit beyond */
        uint64_t last = (uint64_t)start + v.n - 1, frame = last & ~(uint64_t)(ZD_FRAME_SIZE - 1);
        size_t off = frame > start ? (size_t)(frame - start) : 0;
        struct zd_hdr h;
        /* a record never crosses a frame, and the first one of a frame starts at its start */
        for (; off < v.n && zd_hdr_parse(zd_view_tail(v, off), &h) == ZD_E_NONE; off += h.len) {
                if (h.domain != 1)
                        continue;
                if (h.number == ZD_D1_INTERVAL_END)
                        return true;
                if (h.number == ZD_D1_END_OF_FRAME)
                        return false;
        }
        return false;
}

bool zd_dataset_sample_cut(zd_view set)
{
        bool sample = false, closed = false;
        for (size_t off = 0; off < set.n;) {
                struct zd_mce m;
                enum zd_err_kind e = zd_mce_parse(zd_view_tail(set, off), &m);
                if (e == ZD_E_SET_SHORT || e == ZD_E_MCE_RANGE)
                        break;
                uint64_t declared = zd_mce_bytes(&m);
                size_t present = set.n - off - ZD_MCE_LEN;
                zd_view recs;
                if (e == ZD_E_NONE && m.type == ZD_MCE_SAMPLE) {
                        sample = true;
                        /* a range cut by the set's end lost its last frame */
                        closed = declared <= present &&
                                 zd_view_sub(set, off + ZD_MCE_LEN, (size_t)declared, &recs) &&
                                 last_frame_closes(recs, m.start);
                }
                if (declared > present)
                        break;
                off += ZD_MCE_LEN + (size_t)declared;
        }
        return sample && !closed;
}
