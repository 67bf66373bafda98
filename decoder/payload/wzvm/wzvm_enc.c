/* SPDX-License-Identifier: MIT */
/* write_zvm format: the encoder (used by the write_zvm plugin and zvmsim tests). */
#include <string.h>

#include "layout/layout.h"
#include "payload/wzvm/wzvm_format.h"

bool wzvm_enc_begin(struct wzvm_enc *enc, uint8_t *buf, size_t len)
{
        memset(enc, 0, sizeof(*enc));
        if (len < WZVM_HDR_LEN + WZVM_TRAILER || len > UINT16_MAX)
                return false;
        memset(buf, 0, len);
        enc->p = buf;
        enc->len = len;
        enc->used = WZVM_HDR_LEN;
        return true;
}

static size_t put_name(uint8_t *p, const char *s)
{
        size_t n = strlen(s);
        p[0] = (uint8_t)n;
        memcpy(p + 1, s, n);
        return 1 + n;
}

bool wzvm_enc_add(struct wzvm_enc *enc, const struct wzvm_entry *e)
{
        const struct zl_layout *l = zl_find("WZVM.ENTRY", WZVM_ENTRY_FIX);
        size_t sz = wzvm_entry_size(e);
        if (!l || !enc->p || sz == 0 || enc->n == UINT16_MAX ||
            sz > enc->len - WZVM_TRAILER - enc->used)
                return false;
        zd_wbuf b = {enc->p + enc->used, sz};
        bool ok = zl_set(l, b, "entry_len", sz) && zl_set(l, b, "ds_type", e->ds_type) &&
                  zl_set(l, b, "flags", e->flags) && zl_set(l, b, "ds_index", e->ds_index) &&
                  zl_set(l, b, "ds_count", e->ds_count) && zl_set(l, b, "time", e->time) &&
                  zl_set(l, b, "value", e->value);
        if (!ok)
                return false;
        size_t off = WZVM_ENTRY_FIX;
        off += put_name(b.p + off, e->plugin);
        off += put_name(b.p + off, e->plugin_instance);
        off += put_name(b.p + off, e->type);
        off += put_name(b.p + off, e->type_instance);
        put_name(b.p + off, e->ds_name);
        enc->used += sz;
        enc->n++;
        return true;
}

bool wzvm_enc_finish(struct wzvm_enc *enc, const struct wzvm_hdr *h)
{
        const struct zl_layout *l = zl_find("WZVM.HDR", WZVM_HDR_LEN);
        const struct zl_layout *t = zl_find("WZVM.TRAILER", WZVM_TRAILER);
        size_t hl = strnlen(h->host, sizeof(h->host));
        if (!l || !t || !enc->p || hl > WZVM_HOST_MAX)
                return false;
        zd_wbuf b = {enc->p, WZVM_HDR_LEN};
        zd_wbuf tb = {enc->p + enc->len - WZVM_TRAILER, WZVM_TRAILER};
        return zl_set_text(l, b, "eyecatcher", WZVM_EYECATCHER) &&
               zl_set(l, b, "version", WZVM_VERSION) && zl_set(l, b, "flags", h->flags) &&
               zl_set(l, b, "hdr_len", WZVM_HDR_LEN) && zl_set(l, b, "timestamp", h->timestamp) &&
               zl_set(l, b, "sync_count_1", h->sync_count_1) && zl_set(l, b, "nentries", enc->n) &&
               zl_set(l, b, "used", enc->used) && zl_set(l, b, "interval_ms", h->interval_ms) &&
               zl_set(l, b, "rec_index", h->rec_index) && zl_set(l, b, "rec_total", h->rec_total) &&
               zl_set_text(l, b, "host", h->host) && zl_set(t, tb, "sync_count_2", h->sync_count_2);
}
