/* SPDX-License-Identifier: MIT */
/*
 * zvmmon dump of write_zvm records (doc/write_zvm.md): header, sync state
 * and every entry with its identifier and value.  Names were checked by the
 * decoder (printable ASCII), so they go to the sink as they are.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "zvmdec.h"

/* Not zmon_sink_str: every string here is a constant or a name wzvm_name_ok() passed. */
static void kstr(struct zmon_sink *s, const char *k, const char *v)
{
        s->key(s->ctx, k);
        s->str(s->ctx, v, strlen(v));
}

static void knum(struct zmon_sink *s, const char *k, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void knum(struct zmon_sink *s, const char *k, const char *fmt, ...)
{
        char b[40];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(b, sizeof(b), fmt, ap);
        va_end(ap);
        s->key(s->ctx, k);
        s->num(s->ctx, b);
}

static void ktime(struct zmon_sink *s, const char *k, uint64_t tod)
{
        char b[40];
        if (zd_tod_to_iso8601(tod, b, sizeof(b)))
                kstr(s, k, b);
}

/*
 * A TOD field as the dump shows every other one (a layout's ZL_TOD fields):
 * {"tod":"0x...","time":"ISO 8601"}, time null for TOD 0 (never set: the
 * epoch would read as 1900).  The raw integer said nothing to a reader.
 */
static void ktod(struct zmon_sink *s, const char *k, uint64_t tod)
{
        uint8_t be[8];
        char hex[2 + 16 + 1] = "0x";
        for (int i = 0; i < 8; i++)
                be[i] = (uint8_t)(tod >> (56 - 8 * i));
        zd_hex_upper(hex + 2, be, 8);
        s->key(s->ctx, k);
        s->map_open(s->ctx);
        kstr(s, "tod", hex);
        if (tod)
                ktime(s, "time", tod);
        else {
                s->key(s->ctx, "time");
                s->null(s->ctx);
        }
        s->map_close(s->ctx);
}

static const char *ds_name(uint8_t t)
{
        static const char *const n[] = {"COUNTER", "GAUGE", "DERIVE", "ABSOLUTE"};
        return t < 4 ? n[t] : "?";
}

static void value(struct zmon_sink *s, const struct wzvm_entry *e)
{
        if (e->ds_type == WZVM_DS_GAUGE) {
                double d = wzvm_bits_double(e->value);
                if (isfinite(d))
                        knum(s, "value", "%.17g", d);
                else /* JSON has no NaN or infinity */
                        kstr(s, "value", isnan(d) ? "nan" : d > 0 ? "inf" : "-inf");
        } else if (e->ds_type == WZVM_DS_DERIVE) {
                knum(s, "value", "%" PRId64, (int64_t)e->value);
        } else {
                knum(s, "value", "%" PRIu64, e->value);
        }
}

void zmon_emit_wzvm(struct zmon_sink *s, zd_view data)
{
        struct wzvm_hdr h;
        enum zd_err_kind k = wzvm_dec_hdr(data, &h);
        s->key(s->ctx, "write_zvm");
        s->map_open(s->ctx);
        if (k != ZD_E_NONE) {
                kstr(s, "error", zd_err_name(k));
                s->map_close(s->ctx);
                return;
        }
        knum(s, "version", "%u", h.version);
        kstr(s, "host", h.host);
        ktod(s, "timestamp", h.timestamp);
        knum(s, "sync_count_1", "%" PRIu32, h.sync_count_1);
        knum(s, "sync_count_2", "%" PRIu32, h.sync_count_2);
        s->key(s->ctx, "consistent");
        s->boolean(s->ctx, h.sync_count_1 == h.sync_count_2);
        knum(s, "interval_ms", "%" PRIu32, h.interval_ms);
        knum(s, "rec_index", "%u", h.rec_index);
        knum(s, "rec_total", "%u", h.rec_total);
        knum(s, "nentries", "%u", h.nentries);
        knum(s, "used", "%u", h.used);
        struct wzvm_iter it;
        struct wzvm_entry e;
        int rc;
        wzvm_iter_init(&it, data, &h);
        s->key(s->ctx, "entries");
        s->array_open(s->ctx);
        while ((rc = wzvm_dec_next(&it, &e, &k)) == 1) {
                s->map_open(s->ctx);
                kstr(s, "plugin", e.plugin);
                kstr(s, "plugin_instance", e.plugin_instance);
                kstr(s, "type", e.type);
                kstr(s, "type_instance", e.type_instance);
                kstr(s, "ds_name", e.ds_name);
                kstr(s, "ds_type", ds_name(e.ds_type));
                if (e.flags & WZVM_F_RATE) {
                        s->key(s->ctx, "rate");
                        s->boolean(s->ctx, true);
                }
                knum(s, "ds_index", "%u", e.ds_index);
                knum(s, "ds_count", "%u", e.ds_count);
                ktime(s, "time", e.time);
                value(s, &e);
                s->map_close(s->ctx);
        }
        s->array_close(s->ctx);
        if (rc < 0)
                kstr(s, "error", zd_err_name(k));
        s->map_close(s->ctx);
}
