/* SPDX-License-Identifier: MIT */
/*
 * write_zvm format: the decoder.  The data comes from a guest, so every
 * length is checked against the record and every name against the rules a
 * collectd identifier obeys before anything is handed on.
 */
#include <string.h>

#include "layout/layout.h"
#include "payload/wzvm/wzvm_format.h"

bool wzvm_is_record(zd_view data)
{
        return data.n >= 4 && memcmp(data.p, WZVM_EYECATCHER, 4) == 0;
}

static uint64_t get(const struct zl_layout *l, zd_view v, const char *name)
{
        uint64_t x = 0;
        zl_get_u64(l, v, name, &x);
        return x;
}

enum zd_err_kind wzvm_dec_hdr(zd_view data, struct wzvm_hdr *h)
{
        const struct zl_layout *l = zl_find("WZVM.HDR", WZVM_HDR_LEN);
        const struct zl_layout *t = zl_find("WZVM.TRAILER", WZVM_TRAILER);
        memset(h, 0, sizeof(*h));
        if (!wzvm_is_record(data))
                return ZD_E_WZVM_EYECATCHER;
        if (data.n < WZVM_HDR_LEN + WZVM_TRAILER || !l || !t)
                return ZD_E_WZVM_SHORT;
        h->version = (uint8_t)get(l, data, "version");
        if (h->version != WZVM_VERSION)
                return ZD_E_WZVM_VERSION;
        h->flags = (uint8_t)get(l, data, "flags");
        h->hdr_len = (uint16_t)get(l, data, "hdr_len");
        h->timestamp = get(l, data, "timestamp");
        h->sync_count_1 = (uint32_t)get(l, data, "sync_count_1");
        h->nentries = (uint16_t)get(l, data, "nentries");
        h->used = (uint16_t)get(l, data, "used");
        h->interval_ms = (uint32_t)get(l, data, "interval_ms");
        h->rec_index = (uint16_t)get(l, data, "rec_index");
        h->rec_total = (uint16_t)get(l, data, "rec_total");
        h->sync_count_2 =
            (uint32_t)get(t, zd_view_tail(data, data.n - WZVM_TRAILER), "sync_count_2");
        /* A later version may grow the header; version 1 readers insist on 96. */
        if (h->hdr_len != WZVM_HDR_LEN || h->used < h->hdr_len || h->used > data.n - WZVM_TRAILER)
                return ZD_E_WZVM_LENGTH;
        zd_view host;
        zd_view_sub(data, 32, 64, &host);
        size_t hl = strnlen((const char *)host.p, host.n);
        if (hl > WZVM_HOST_MAX || !wzvm_name_ok((const char *)host.p, hl, true))
                return ZD_E_WZVM_NAME;
        for (size_t i = hl; i < host.n; i++)
                if (host.p[i] != 0)
                        return ZD_E_WZVM_NAME;
        memcpy(h->host, host.p, hl);
        h->host[hl] = 0;
        return ZD_E_NONE;
}

void wzvm_iter_init(struct wzvm_iter *it, zd_view data, const struct wzvm_hdr *h)
{
        it->data = data;
        it->off = h->hdr_len;
        it->end = h->used <= data.n ? h->used : data.n;
        it->left = h->nentries;
}

static bool get_name(zd_view ent, size_t *off, char *out, bool may_be_empty)
{
        uint8_t n;
        zd_view s;
        if (!zd_u8(ent, *off, &n) || !zd_view_sub(ent, *off + 1, n, &s) ||
            !wzvm_name_ok((const char *)s.p, s.n, may_be_empty))
                return false;
        memcpy(out, s.p, s.n);
        out[s.n] = 0;
        *off += 1 + (size_t)n;
        return true;
}

int wzvm_dec_next(struct wzvm_iter *it, struct wzvm_entry *e, enum zd_err_kind *err)
{
        const struct zl_layout *l = zl_find("WZVM.ENTRY", WZVM_ENTRY_FIX);
        if (it->left == 0) {
                if (it->off != it->end) {
                        *err = ZD_E_WZVM_COUNT;
                        return -1;
                }
                return 0;
        }
        zd_view rest = {it->data.p + it->off, it->end - it->off}, ent;
        uint16_t len;
        if (!l || !zd_u16(rest, 0, &len) || len < WZVM_ENTRY_FIX ||
            !zd_view_sub(rest, 0, len, &ent)) {
                *err = rest.n == 0 ? ZD_E_WZVM_COUNT : ZD_E_WZVM_ENTRY;
                return -1;
        }
        memset(e, 0, sizeof(*e));
        e->ds_type = (uint8_t)get(l, ent, "ds_type");
        e->flags = (uint8_t)get(l, ent, "flags");
        e->ds_index = (uint8_t)get(l, ent, "ds_index");
        e->ds_count = (uint8_t)get(l, ent, "ds_count");
        e->time = get(l, ent, "time");
        /* ZL_HEX: the meaning depends on ds_type, so the layout keeps it raw. */
        struct zl_value raw;
        if (zl_get(l, ent, "value", &raw))
                zd_u64(raw.raw, 0, &e->value);
        if (e->ds_type > WZVM_DS_ABSOLUTE ||
            ((e->flags & WZVM_F_RATE) && e->ds_type != WZVM_DS_GAUGE) || e->ds_count == 0 ||
            e->ds_index >= e->ds_count) {
                *err = ZD_E_WZVM_DSTYPE;
                return -1;
        }
        size_t off = WZVM_ENTRY_FIX;
        if (!get_name(ent, &off, e->plugin, false) ||
            !get_name(ent, &off, e->plugin_instance, true) ||
            !get_name(ent, &off, e->type, false) || !get_name(ent, &off, e->type_instance, true) ||
            !get_name(ent, &off, e->ds_name, false)) {
                *err = ZD_E_WZVM_NAME;
                return -1;
        }
        if (off != len) {
                *err = ZD_E_WZVM_ENTRY;
                return -1;
        }
        it->off += len;
        it->left--;
        return 1;
}
