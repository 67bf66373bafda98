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
                size_t declared = (size_t)m.end - m.start + 1;
                size_t present = set.n - off - ZD_MCE_LEN;
                if (e != ZD_E_NONE) {
                        zd_report(d, e, &pos,
                                  "data set %llu, MCE %u (type %02X, domains %02X%02X, %08X-%08X): "
                                  "%s; its %zu bytes skipped",
                                  (unsigned long long)set_index, (unsigned)i, m.type, m.dom0_7,
                                  m.dom8_15, (unsigned)m.start, (unsigned)m.end, zd_err_desc(e),
                                  declared);
                        if (declared > present)
                                break;
                        off += ZD_MCE_LEN + declared;
                        continue;
                }
                size_t len = declared;
                if (declared > present) {
                        zd_report(
                            d, ZD_E_MCE_LENGTH, &pos,
                            "data set %llu, MCE %u declares %zu bytes (%08X-%08X) but %zu are "
                            "present; walking what is there",
                            (unsigned long long)set_index, (unsigned)i, declared, (unsigned)m.start,
                            (unsigned)m.end, present);
                        len = present;
                }
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
