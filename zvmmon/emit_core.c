/* SPDX-License-Identifier: MIT */
/*
 * The walk behind both emitters: what a dump shows of a record.  Guest
 * strings (file system names, command lines) are passed on only as valid
 * UTF-8 without control characters; anything else becomes '?'.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "zvmdec.h"

struct zmon_emit {
        struct zmon_sink s;
        bool hex;
        const char *reading; /* NULL: each record's default layout */
};

void zmon_emit_set_hex(struct zmon_emit *e, bool on)
{
        e->hex = on;
}

void zmon_emit_set_reading(struct zmon_emit *e, const char *reading)
{
        e->reading = reading;
}

struct zmon_emit *zmon_emit_new(enum zmon_emit_fmt fmt, FILE *out)
{
        struct zmon_emit *e = calloc(1, sizeof(*e));
        if (!e)
                return NULL;
        bool ok = fmt == ZMON_EMIT_JSON ? zmon_sink_json(&e->s, out) : zmon_sink_text(&e->s, out);
        if (!ok) {
                free(e);
                return NULL;
        }
        return e;
}

bool zmon_emit_ok(const struct zmon_emit *e)
{
        return e->s.ok(e->s.ctx);
}

void zmon_emit_free(struct zmon_emit *e)
{
        if (!e)
                return;
        e->s.destroy(e->s.ctx);
        free(e);
}

/* Length of a valid UTF-8 sequence at p (n bytes left), 0 if invalid. */
static size_t utf8_len(const uint8_t *p, size_t n)
{
        size_t len;
        if (p[0] < 0x80)
                return p[0] >= 0x20 && p[0] != 0x7F ? 1 : 0;
        if (p[0] >= 0xC2 && p[0] <= 0xDF)
                len = 2;
        else if (p[0] >= 0xE0 && p[0] <= 0xEF)
                len = 3;
        else if (p[0] >= 0xF0 && p[0] <= 0xF4)
                len = 4;
        else
                return 0;
        if (len > n)
                return 0;
        for (size_t i = 1; i < len; i++)
                if ((p[i] & 0xC0) != 0x80)
                        return 0;
        if ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] >= 0xA0) ||
            (p[0] == 0xF0 && p[1] < 0x90) || (p[0] == 0xF4 && p[1] >= 0x90))
                return 0; /* overlong, surrogate, above U+10FFFF */
        return len;
}

void zmon_sink_str(struct zmon_sink *s, const void *p, size_t n)
{
        const uint8_t *b = p;
        char *out = malloc(n + 1);
        if (!out) {
                s->str(s->ctx, "", 0);
                return;
        }
        size_t o = 0;
        for (size_t i = 0; i < n;) {
                size_t l = utf8_len(b + i, n - i);
                if (l == 0) {
                        out[o++] = '?';
                        i++;
                        continue;
                }
                memcpy(out + o, b + i, l);
                o += l;
                i += l;
        }
        s->str(s->ctx, out, o);
        free(out);
}

static void kstr(struct zmon_sink *s, const char *k, const char *v)
{
        s->key(s->ctx, k);
        zmon_sink_str(s, v, strlen(v));
}

static void ku(struct zmon_sink *s, const char *k, uint64_t v)
{
        char b[ZD_DEC_MAX];
        zd_dec_u64(b, v);
        s->key(s->ctx, k);
        s->num(s->ctx, b);
}

static void ks(struct zmon_sink *s, const char *k, int64_t v)
{
        char b[ZD_DEC_MAX];
        zd_dec_i64(b, v);
        s->key(s->ctx, k);
        s->num(s->ctx, b);
}

static void kbool(struct zmon_sink *s, const char *k, bool v)
{
        s->key(s->ctx, k);
        s->boolean(s->ctx, v);
}

static void khex(struct zmon_sink *s, const char *k, zd_view v, size_t max)
{
        size_t n = v.n < max ? v.n : max;
        char *h = malloc(2 * n + 1);
        if (!h)
                return;
        zd_hex_upper(h, v.p, n);
        kstr(s, k, h);
        free(h);
}

static void ktod(struct zmon_sink *s, const char *k, const char *tk, uint64_t tod)
{
        char b[40];
        uint8_t be[8];
        for (int i = 0; i < 8; i++)
                be[i] = (uint8_t)(tod >> (56 - 8 * i));
        b[0] = '0';
        b[1] = 'x';
        zd_hex_upper(b + 2, be, 8);
        kstr(s, k, b);
        /* TOD 0 is no time: a record of a monwriter file (CP stamps the time), a field
         * never filled; the TOD clock's epoch would read as 1900-01-01. */
        if (tod == 0) {
                s->key(s->ctx, tk);
                s->null(s->ctx);
        } else if (zd_tod_to_iso8601(tod, b, sizeof(b)))
                kstr(s, tk, b);
}

/* Unix seconds from a guest: only years 1970..9999 get a time. */
static void kunix(struct zmon_sink *s, const char *k, uint64_t sec)
{
        char b[40];
        if (sec <= UINT64_C(253402300799) &&
            zd_tod_to_iso8601(zd_unix_us_to_tod((int64_t)sec * 1000000), b, sizeof(b)))
                kstr(s, k, b);
}

static void value(struct zmon_sink *s, const struct zl_value *v)
{
        const struct zl_field *f = v->f;
        s->key(s->ctx, f->name);
        switch (f->type) {
        case ZL_UINT:
        case ZL_SINT:
        case ZL_TIMER:
        case ZL_TIMERD:
                if (v->raw.n <= 8) {
                        char b[ZD_DEC_MAX];
                        if (f->type == ZL_SINT)
                                zd_dec_i64(b, v->s);
                        else
                                zd_dec_u64(b, v->u);
                        s->num(s->ctx, b);
                        return;
                }
                break;
        case ZL_TOD:
                if (v->raw.n == 8) {
                        s->map_open(s->ctx);
                        ktod(s, "tod", "time", v->u);
                        s->map_close(s->ctx);
                        return;
                }
                break;
        case ZL_EBCDIC:
        case ZL_ASCII: {
                size_t sz = 4 * (size_t)f->len + 1;
                char *t = malloc(sz);
                if (t) {
                        size_t n = zl_text(v, t, sz);
                        zmon_sink_str(s, t, n);
                        free(t);
                        return;
                }
                break;
        }
        default:
                break;
        }
        size_t n = v->raw.n;
        char *h = malloc(2 * n + 1);
        if (!h) {
                s->str(s->ctx, "", 0);
                return;
        }
        zd_hex_upper(h, v->raw.p, n);
        s->str(s->ctx, h, 2 * n);
        free(h);
}

static void field_cb(void *ctx, const struct zl_value *v)
{
        if (v->present)
                value(ctx, v);
}

/* "key": { every present field of l over data } */
static void fields(struct zmon_sink *s, const char *key, const struct zl_layout *l, zd_view data)
{
        s->key(s->ctx, key);
        s->map_open(s->ctx);
        zl_foreach(l, data, field_cb, s);
        s->map_close(s->ctx);
}

static void num_double(struct zmon_sink *s, const char *k, double d)
{
        char b[32];
        snprintf(b, sizeof(b), "%.4f", d);
        s->key(s->ctx, k);
        s->num(s->ctx, b);
}

static void kernel(struct zmon_sink *s, const struct zd_appl_info *ai)
{
        const struct zd_appl *a = &ai->a;
        kstr(s, "layout", ai->layout->id);
        fields(s, "fields", ai->layout, a->data);
        if (a->recnum != ZD_LX_OS || ai->truncated)
                return;
        static const char *const av[] = {"avenrun_1", "avenrun_5", "avenrun_15"};
        static const char *const ld[] = {"load_1", "load_5", "load_15"};
        s->key(s->ctx, "load");
        s->map_open(s->ctx);
        for (int i = 0; i < 3; i++) {
                uint64_t x;
                if (zl_get_u64(ai->layout, a->data, av[i], &x))
                        num_double(s, ld[i], zd_lx_load((uint32_t)x));
        }
        s->map_close(s->ctx);
        struct zd_lx_cpus c;
        enum zd_err_kind e = zd_lx_os_cpus(a, &c);
        if (e) {
                kstr(s, "cpus_error", zd_err_name(e));
                return;
        }
        kstr(s, "cpu_layout", c.entry->id);
        s->key(s->ctx, "cpus");
        s->array_open(s->ctx);
        for (uint32_t i = 0; i < c.n; i++) {
                s->map_open(s->ctx);
                zl_foreach(c.entry, zd_lx_cpu_entry(&c, a->data, i), field_cb, s);
                s->map_close(s->ctx);
        }
        s->array_close(s->ctx);
}

static void lnxappl(struct zmon_sink *s, const struct zd_appl_info *ai)
{
        struct zd_lnx_hdr h;
        enum zd_err_kind e = zd_lnx_hdr_parse(ai->a.data, &h);
        s->key(s->ctx, "header");
        s->map_open(s->ctx);
        ku(s, "time_stamp", h.time_stamp);
        kunix(s, "time", h.time_stamp);
        ku(s, "data_len", h.data_len);
        ku(s, "data_offset", h.data_offset);
        s->map_close(s->ctx);
        if (e) {
                kstr(s, "error", zd_err_name(e));
                return;
        }
        const char *k = zd_appl_kind_name(&ai->a);
        if (strcmp(k, "fsstatd") == 0) {
                const struct zl_layout *l = zl_find("LNXAPPL.1.0.FS", SIZE_MAX);
                zd_view rest = h.data;
                struct zd_fs_entry fs;
                int rc;
                s->key(s->ctx, "filesystems");
                s->array_open(s->ctx);
                while ((rc = zd_fs_next(&rest, &fs, &e)) > 0) {
                        s->map_open(s->ctx);
                        s->key(s->ctx, "fs_name");
                        zmon_sink_str(s, fs.name.p, fs.name.n);
                        s->key(s->ctx, "fs_dir");
                        zmon_sink_str(s, fs.dir.p, fs.dir.n);
                        s->key(s->ctx, "fs_type");
                        zmon_sink_str(s, fs.type.p, fs.type.n);
                        zl_foreach(l, fs.statvfs, field_cb, s);
                        s->map_close(s->ctx);
                }
                s->array_close(s->ctx);
                if (rc < 0)
                        kstr(s, "error", zd_err_name(e));
        } else if (strcmp(k, "procd.sum") == 0) {
                const struct zl_layout *l = zl_find("LNXAPPL.2.0", SIZE_MAX);
                kstr(s, "layout", l->id);
                fields(s, "fields", l, h.data);
        } else {
                const struct zl_layout *l = zl_find("LNXAPPL.2.1", SIZE_MAX);
                struct zd_procd_task pt;
                e = zd_procd_task_parse(h.data, &pt);
                kstr(s, "layout", l->id);
                fields(s, "fields", l, h.data);
                if (e) {
                        kstr(s, "error", zd_err_name(e));
                        return;
                }
                s->key(s->ctx, "strings");
                s->map_open(s->ctx);
                for (int i = 0; i < ZD_PROCD_NSTR; i++) {
                        s->key(s->ctx, zd_procd_str_names[i]);
                        zmon_sink_str(s, pt.str[i].p, pt.str[i].n);
                }
                s->map_close(s->ctx);
        }
}

static void appl(struct zmon_sink *s, const struct zd_appl_info *ai)
{
        const struct zd_appl *a = &ai->a;
        s->key(s->ctx, "appl");
        s->map_open(s->ctx);
        kstr(s, "userid", a->userid);
        kstr(s, "product", a->prodid_text);
        khex(s, "prodid", zd_view_make(a->prodid, 16), 16);
        khex(s, "status", zd_view_make(&a->status, 1), 1);
        ks(s, "data_offset", a->dataof);
        ks(s, "data_length", a->dataln);
        kstr(s, "class",
             a->kind == ZD_APPL_LINUXKRNL ? "linuxkrnl"
             : a->kind == ZD_APPL_LNXAPPL ? "lnxappl"
                                          : "other");
        if (ai->err) {
                kstr(s, "error", zd_err_name(ai->err));
                s->map_close(s->ctx);
                return;
        }
        if (a->kind == ZD_APPL_LNXAPPL) {
                ku(s, "applid", a->applid);
                ku(s, "recnum", a->recnum);
                ku(s, "version", a->version);
                ku(s, "release", a->release);
                ku(s, "mod_level", a->modlvl);
        } else if (a->kind == ZD_APPL_LINUXKRNL) {
                ku(s, "recnum", a->recnum);
                kstr(s, "mod_level", a->modlvl_text);
        }
        if (a->kind == ZD_APPL_LNXAPPL && wzvm_is_record(a->data)) {
                kstr(s, "type", "write_zvm"); /* self-describing, any applid */
                zmon_emit_wzvm(s, a->data);
                s->map_close(s->ctx);
                return;
        }
        const char *k = zd_appl_kind_name(a);
        kstr(s, "type", k ? k : "opaque");
        if (ai->opaque || !ai->layout) {
                s->key(s->ctx, "opaque");
                s->map_open(s->ctx);
                ku(s, "size", a->data.n);
                khex(s, "hex", a->data, ZMON_EMIT_HEX_MAX);
                s->map_close(s->ctx);
                s->map_close(s->ctx);
                return;
        }
        kbool(s, "stale", ai->stale);
        if (ai->sync_bad) {
                kstr(s, "dropped", "sync");
        } else {
                if (ai->truncated)
                        kbool(s, "truncated", true);
                if (a->kind == ZD_APPL_LINUXKRNL)
                        kernel(s, ai);
                else
                        lnxappl(s, ai);
        }
        s->map_close(s->ctx);
}

static void pos(struct zmon_sink *s, const struct zd_pos *p)
{
        ku(s, "offset", p->offset);
        ku(s, "set", p->set);
        ku(s, "mce", p->mce);
        ku(s, "dcss", p->dcss);
        ku(s, "block", p->block);
}

/* A VM/370 Monitor tape record (vm370.h): class and code instead of domain and record. */
static void vm370(struct zmon_sink *s, const struct zd_record *r)
{
        kstr(s, "family", "vm370");
        ku(s, "class", r->domain);
        const char *cn = zd_vm370_class_name(r->domain);
        kstr(s, "class_name", cn ? cn : "unknown");
        ku(s, "code", r->number);
        const char *n = zd_vm370_code_name(r->domain, r->number);
        kstr(s, "code_name", n ? n : "unknown");
        ku(s, "length", r->rec.n);
        if (r->tod) /* 0: no tape header yet, the year is unknown */
                ktod(s, "tod", "time", r->tod);
        const struct zl_layout *h = zl_find("VM370.MNH", r->rec.n);
        if (h)
                fields(s, "header", h, r->rec);
        const struct zl_layout *l = zd_vm370_layout(r->domain, r->number, r->rec.n);
        if (l) {
                kstr(s, "layout", l->id);
                fields(s, "fields", l, r->rec);
        } else {
                khex(s, "data", r->body, ZMON_EMIT_HEX_MAX);
        }
        struct zd_vm370_entries en;
        if (!zd_vm370_entries(r->domain, r->number, r->rec, &en))
                return;
        kstr(s, "entry_layout", en.l->id);
        s->key(s->ctx, "entries");
        s->array_open(s->ctx);
        for (size_t i = 0; i < en.n; i++) {
                zd_view d;
                if (!zd_view_sub(r->rec, en.first + i * en.size, en.size, &d))
                        break;
                s->map_open(s->ctx);
                zl_foreach(en.l, d, field_cb, s);
                s->map_close(s->ctx);
        }
        s->array_close(s->ctx);
}

void zmon_emit_record(struct zmon_emit *e, const struct zd_record *r, const struct zd_appl_info *ai)
{
        struct zmon_sink *s = &e->s;
        s->begin(s->ctx);
        s->map_open(s->ctx);
        kstr(s, "type", "record");
        pos(s, &r->pos);
        if (r->family == ZD_FAM_VM370) {
                vm370(s, r);
                if (e->hex) /* the bytes no layout declares, such as code 0's past offset 96 */
                        khex(s, "hex", r->rec, r->rec.n);
                s->map_close(s->ctx);
                s->end(s->ctx);
                return;
        }
        ku(s, "domain", r->domain);
        const char *dn = zr_domain_name(r->domain);
        kstr(s, "domain_name", dn ? dn : "unknown");
        ku(s, "record", r->number);
        const struct zr_record *zr = zr_lookup(r->domain, r->number);
        kstr(s, "record_name", zr ? zr->name : "unknown");
        if (zr)
                kstr(s, "dsect", zr->dsect);
        kstr(s, "kind", r->kind == 'S' ? "sample" : r->kind == 'E' ? "event" : "unknown");
        ku(s, "length", r->rec.n);
        ktod(s, "tod", "time", r->tod);
        const struct zl_layout *l = zl_find_cp_reading(r->domain, r->number, r->rec.n, e->reading);
        if (l) {
                kstr(s, "layout", l->id);
                if (l->reading)
                        kstr(s, "reading", l->reading);
                fields(s, "fields", l, r->rec);
        }
        if (ai)
                appl(s, ai);
        if (e->hex)
                khex(s, "hex", r->rec, r->rec.n);
        s->map_close(s->ctx);
        s->end(s->ctx);
}

void zmon_emit_error(struct zmon_emit *e, const struct zd_error *err)
{
        struct zmon_sink *s = &e->s;
        s->begin(s->ctx);
        s->map_open(s->ctx);
        kstr(s, "type", "error");
        kstr(s, "error", zd_err_name(err->kind));
        kstr(s, "message", err->msg);
        pos(s, &err->pos);
        s->map_close(s->ctx);
        s->end(s->ctx);
}
