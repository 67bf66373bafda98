/* SPDX-License-Identifier: MIT */
/*
 * Ground truth: what zvmsim generated, as JSON Lines (schema in
 * doc/zvmsim.md).  Values are read back from the built records through the
 * same layouts, so the truth is exactly the bytes on the wire.
 */
#include <stdlib.h>
#include <string.h>

#include "sim.h"

struct sim_truth {
        FILE *f;
        bool fields, borrowed;
};

struct sim_truth *sim_truth_open(const char *path, bool fields)
{
        struct sim_truth *t = calloc(1, sizeof(*t));
        if (!t)
                return NULL;
        t->f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
        if (!t->f) {
                free(t);
                return NULL;
        }
        t->fields = fields;
        return t;
}

struct sim_truth *sim_truth_on(FILE *f, bool fields)
{
        struct sim_truth *t = calloc(1, sizeof(*t));
        if (!t)
                return NULL;
        t->f = f;
        t->fields = fields;
        t->borrowed = true;
        return t;
}

void sim_truth_close(struct sim_truth *t)
{
        if (!t)
                return;
        if (t->f == stdout || t->borrowed)
                fflush(t->f);
        else
                fclose(t->f);
        free(t);
}

static void jstr(FILE *f, const char *s)
{
        fputc('"', f);
        for (; *s; s++) {
                unsigned char c = (unsigned char)*s;
                if (c == '"' || c == '\\')
                        fprintf(f, "\\%c", c);
                else if (c < 0x20 || c >= 0x7F)
                        fprintf(f, "\\u%04x", c);
                else
                        fputc(c, f);
        }
        fputc('"', f);
}

static void jhex(FILE *f, zd_view v)
{
        fputc('"', f);
        for (size_t i = 0; i < v.n; i++)
                fprintf(f, "%02X", v.p[i]);
        fputc('"', f);
}

struct fctx {
        FILE *f;
        bool first;
};

static void one_field(void *ctx, const struct zl_value *v)
{
        struct fctx *c = ctx;
        if (!v->present)
                return;
        fputs(c->first ? "" : ",", c->f);
        c->first = false;
        jstr(c->f, v->f->name);
        fputc(':', c->f);
        switch (v->f->type) {
        case ZL_UINT:
        case ZL_TOD:
        case ZL_TIMER:
        case ZL_TIMERD:
                if (v->raw.n <= 8) {
                        fprintf(c->f, "%llu", (unsigned long long)v->u);
                        return;
                }
                break;
        case ZL_SINT:
                if (v->raw.n <= 8) {
                        fprintf(c->f, "%lld", (long long)v->s);
                        return;
                }
                break;
        case ZL_EBCDIC:
        case ZL_ASCII: {
                char buf[512];
                zl_text(v, buf, sizeof(buf));
                jstr(c->f, buf);
                return;
        }
        default:
                break;
        }
        jhex(c->f, v->raw);
}

static void fields(FILE *f, const char *name, const struct zl_layout *l, zd_view v)
{
        struct fctx c = {f, true};
        fprintf(f, ",\"%s\":{", name);
        zl_foreach(l, v, one_field, &c);
        fputc('}', f);
}

void sim_truth_record(struct sim_truth *t, uint64_t interval, uint64_t tod, char kind,
                      unsigned domain, unsigned number, const char *key, const struct zl_layout *l,
                      zd_view rec, const struct zl_layout *pl, size_t pl_off, zd_view payload,
                      const char *note)
{
        FILE *f = t->f;
        fprintf(
            f,
            "{\"interval\":%llu,\"tod\":%llu,\"kind\":\"%c\",\"domain\":%u,\"record\":%u,\"key\":",
            (unsigned long long)interval, (unsigned long long)tod, kind, domain, number);
        jstr(f, key);
        fprintf(f, ",\"length\":%zu,\"layout\":", rec.n);
        if (l)
                jstr(f, l->id);
        else
                fputs("null", f);
        if (note) {
                fputs(",\"note\":", f);
                jstr(f, note);
        }
        if (t->fields && l)
                fields(f, "fields", l, rec);
        if (domain == 10 && payload.p) {
                fputs(",\"payload_layout\":", f);
                if (pl)
                        jstr(f, pl->id);
                else
                        fputs("null", f);
                if (t->fields) {
                        if (pl) {
                                if (pl_off)
                                        fprintf(f, ",\"payload_offset\":%zu", pl_off);
                                fields(f, "payload", pl, zd_view_tail(payload, pl_off));
                        }
                        fputs(",\"data_hex\":", f);
                        jhex(f, payload);
                }
        }
        fputs("}\n", f);
}

void sim_truth_set(struct sim_truth *t, const struct sim_set *s)
{
        FILE *f = t->f;
        fprintf(f,
                "{\"set\":%llu,\"interval\":%llu,\"type\":\"%c\",\"config\":%s,\"bytes\":%zu,"
                "\"eof\":%u,\"lost\":%u,\"mca\":[%u,%u],\"mces\":[",
                (unsigned long long)s->seq, (unsigned long long)s->interval, s->type,
                s->config ? "true" : "false", s->len, (unsigned)s->neof, (unsigned)s->lost,
                (unsigned)s->mca_start, (unsigned)s->mca_end);
        for (size_t i = 0; i < s->nmce; i++) {
                struct zd_mce m;
                (void)zd_mce_parse(zd_view_make(s->buf + s->mce_off[i], ZD_MCE_LEN), &m);
                fprintf(f, "%s{\"start\":%u,\"end\":%u,\"domains\":%u}", i ? "," : "",
                        (unsigned)m.start, (unsigned)m.end, (unsigned)(m.dom0_7 << 8 | m.dom8_15));
        }
        fputs("]}\n", f);
        /* A set's truth is whole on disk before anyone can read the set: a test that stops
         * zvmsim (SIGTERM, no exit handlers) after reading compares with every line of it. */
        fflush(f);
}

static void procs(FILE *f, const char *name, const struct sim_proc *p, size_t n)
{
        fprintf(f, ",\"%s\":[", name);
        for (size_t i = 0; i < n; i++)
                fprintf(f, "%s{\"pid\":%u,\"process\":%llu}", i ? "," : "", (unsigned)p[i].pid,
                        (unsigned long long)p[i].process);
        fputc(']', f);
}

void sim_truth_procd_pass(struct sim_truth *t, uint64_t interval, const char *guest, uint64_t ts,
                          const struct sim_proc *tasks, size_t n, const struct sim_proc *gone,
                          size_t ngone)
{
        FILE *f = t->f;
        fprintf(f, "{\"procd_pass\":{\"interval\":%llu,\"guest\":", (unsigned long long)interval);
        jstr(f, guest);
        fprintf(f, ",\"time_stamp\":%llu", (unsigned long long)ts);
        procs(f, "tasks", tasks, n);
        procs(f, "exited", gone, ngone);
        fputs("}}\n", f);
}
