/* SPDX-License-Identifier: MIT */
/*
 * Law bookkeeping: verdicts in, on/off state and log lines out.  The laws
 * themselves are evaluated where the data is (met_cp_laws.c); this file
 * only decides what a run of verdicts means under UnverifiedFields.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric/met_verify.h"

static const struct {
        const char *name, *fields, *rule;
} law_def[ZV_NLAWS] = {
    [ZV_CPU_WAIT] = {"cpu-wait", "SYTPRP_PFXTOTWT",
                     "per CPU: d(PFXUTIME + PFXTMSYS + PFXTOTWT) = elapsed time between its "
                     "records (MRHDRTOD)"},
    [ZV_GUEST_CPU] = {"guest-cpu", "USEACT_VMDTTIME",
                      "sum over guests of d(VMDTTIME) = sum over CPUs of d(SYTPRP_PFXUTIME); "
                      "d(VMDTTIME) <= elapsed for every virtual CPU"},
    [ZV_GUEST_VCPU] = {"guest-vcpu", "USEACT_VMDVTIME",
                       "sum over guests of d(VMDVTIME) = sum over CPUs of d(SYTPRP_PFXPRBTM); "
                       "d(VMDVTIME) <= d(VMDTTIME) for every virtual CPU"},
    [ZV_PAGING] = {"paging", "USEACT_CALCPPGR, USEACT_CALCPPGW, SYTSYP_PLSPIOPR, SYTSYP_PLSPIOPW",
                   "sum over guests of d(CALCPPGR) = sum over CPUs of d(PLSPIOPR), and the same "
                   "for CALCPPGW and PLSPIOPW"},
    [ZV_STORAGE] = {"storage", "SYTRSG_RSAAVAIL, SYTRSG_RSAPGABL",
                    "SYTRSG_RSASAVFR = STORSG_RSASAVFR (verified) and RSAAVAIL <= RSAPGABL"},
    [ZV_GUEST_RESIDENT] = {"guest-resident", "USEACT_VMDCTPVR",
                           "sum over guests of VMDCTPVR <= RSAPGABL - RSAAVAIL, with the "
                           "storage law kept in the same interval"},
    [ZV_LPAR] = {"lpar", "SYTCUP_* (fixed part and CPU entries)",
                 "every logical CPU: 0 <= d(LCUCACTM) <= elapsed and 0 <= d(LCUCACTM - "
                 "LCUCLPTM) <= d(LCUCACTM); one partition: sum of d(LCUCACTM) >= sum over CPUs "
                 "of d(PFXUTIME + PFXTMSYS)"},
    [ZV_DEVICE_SSCH] = {"device-ssch", "IODDEV_SCMSSCH, IODDEV_SCGSSCH, IODDEV_RDEVDEV",
                        "per device d(SCMSSCH) = d(SCGSSCH) mod 2^16; sum of d(SCGSSCH) <= sum "
                        "over CPUs of d(SYTSYP_PLSCTSS + PLSCTRS)"},
    [ZV_GUEST_VIO] = {"guest-vio", "USEACT_VMDVCSCT, VMDVDSCT, VMDVUSCT, VMDVTSCT, VMDVOSCT",
                      "sum over guests of d(virtual I/O) <= sum over CPUs of d(SYTSYP_PLSPRVIS + "
                      "PLSDIAGT): every virtual I/O is simulated by CP (a bound, not an equality)"},
    [ZV_DEVICE_TIME] = {"device-time",
                        "IODDEV_SCMCNTIM, SCMFPTIM, SCMDDTIM, SCMDATIM (128 us units)",
                        "per device: 128 us * d(connect + pending + disconnect + "
                        "device-active-only) <= elapsed * exposures (1); with >= 10 SSCH, "
                        "connect + pending + disconnect per d(SCGSSCH) <= 1 s"},
    [ZV_VNIC] = {"vnic", "VNDSES_SES*",
                 "per NIC and direction: 14 * d(packets) <= d(bytes) <= 65535 * d(packets); "
                 "errors and discards <= packets"},
};

/*
 * A verdict's reason as its format and numbers, made into text only when read:
 * a log line, or zv_status.  Every law gives a verdict every interval and
 * mostly nobody reads its reason; formatting each was a tenth of the close.
 * The numbers are taken by value, so the text is the one the verdict's moment
 * would have made; a format with anything else (a string, which may point
 * into an entry the roll moves) is made at once.
 */
#define ZV_MAXARGS 8
enum { ARG_INT, ARG_UINT, ARG_LONG, ARG_ULONG, ARG_LLONG, ARG_ULLONG, ARG_SIZE, ARG_DOUBLE };

struct zv_reason {
        const char *fmt; /* NULL: law[].reason is up to date */
        /* What fmt's conversions take, worked out once for the format last seen (cfmt): a
         * law's verdicts repeat the same few formats. */
        const char *cfmt;
        int nargs; /* -1: cfmt cannot be kept as numbers */
        uint8_t kind[ZV_MAXARGS];
        union {
                long long i;
                unsigned long long u;
                double f;
        } arg[ZV_MAXARGS];
};

struct zv_state {
        struct zv_law_status law[ZV_NLAWS];
        struct zv_reason why[ZV_NLAWS];
        char self[ZV_NLAWS][ZM_NAME_LEN]; /* "law-<name>": the self-metrics' type instance */
};

/* One conversion at c (just past its '%'): its length into *len and its argument's kind,
 * or -1 for one kept as text only (strings, pointers, '*' widths, rare lengths). */
static int conversion(const char *c, size_t *len)
{
        size_t i = strspn(c, "-+ #0");
        i += strspn(c + i, "0123456789");
        if (c[i] == '.') {
                i++;
                i += strspn(c + i, "0123456789");
        }
        int l = 0; /* 1: l, 2: ll, 3: z */
        if (c[i] == 'l') {
                l = c[i + 1] == 'l' ? 2 : 1;
                i += (size_t)l;
        } else if (c[i] == 'z') {
                l = 3;
                i++;
        }
        *len = i + 1;
        switch (c[i]) {
        case 'd':
        case 'i':
                return l == 0 ? ARG_INT : l == 1 ? ARG_LONG : l == 2 ? ARG_LLONG : -1;
        case 'u':
        case 'x':
        case 'X':
        case 'o':
                return l == 0 ? ARG_UINT : l == 1 ? ARG_ULONG : l == 2 ? ARG_ULLONG : ARG_SIZE;
        case 'f':
        case 'e':
        case 'g':
        case 'E':
        case 'G':
                return l == 0 ? ARG_DOUBLE : -1;
        default:
                return -1;
        }
}

/* The kinds of fmt's arguments into w (w->cfmt = fmt). */
static void scan(struct zv_reason *w, const char *fmt)
{
        w->cfmt = fmt;
        w->nargs = 0;
        for (const char *c = strchr(fmt, '%'); c; c = strchr(c, '%')) {
                size_t len;
                if (c[1] == '%') {
                        c += 2;
                        continue;
                }
                int k = conversion(c + 1, &len);
                if (k < 0 || w->nargs == ZV_MAXARGS) {
                        w->nargs = -1;
                        return;
                }
                w->kind[w->nargs++] = (uint8_t)k;
                c += 1 + len;
        }
}

/* Keep the arguments of fmt from ap; false if fmt's must be made into text now. */
static bool keep(struct zv_reason *w, const char *fmt, va_list ap)
{
        if (fmt != w->cfmt)
                scan(w, fmt);
        if (w->nargs < 0)
                return false;
        for (int i = 0; i < w->nargs; i++) {
                switch (w->kind[i]) {
                case ARG_INT:
                        w->arg[i].i = va_arg(ap, int);
                        break;
                case ARG_UINT:
                        w->arg[i].u = va_arg(ap, unsigned);
                        break;
                case ARG_LONG:
                        w->arg[i].i = va_arg(ap, long);
                        break;
                case ARG_ULONG:
                        w->arg[i].u = va_arg(ap, unsigned long);
                        break;
                case ARG_LLONG:
                        w->arg[i].i = va_arg(ap, long long);
                        break;
                case ARG_ULLONG:
                        w->arg[i].u = va_arg(ap, unsigned long long);
                        break;
                case ARG_SIZE:
                        w->arg[i].u = va_arg(ap, size_t);
                        break;
                default:
                        w->arg[i].f = va_arg(ap, double);
                        break;
                }
        }
        w->fmt = fmt;
        return true;
}

/* One kept argument by its conversion spec (a format of its own) at out, as vsnprintf would. */
static int put_arg(char *out, size_t n, const char *spec, int kind, const struct zv_reason *w,
                   int i)
{
        switch (kind) {
        case ARG_INT:
                return snprintf(out, n, spec, (int)w->arg[i].i);
        case ARG_UINT:
                return snprintf(out, n, spec, (unsigned)w->arg[i].u);
        case ARG_LONG:
                return snprintf(out, n, spec, (long)w->arg[i].i);
        case ARG_ULONG:
                return snprintf(out, n, spec, (unsigned long)w->arg[i].u);
        case ARG_LLONG:
                return snprintf(out, n, spec, w->arg[i].i);
        case ARG_ULLONG:
                return snprintf(out, n, spec, w->arg[i].u);
        case ARG_SIZE:
                return snprintf(out, n, spec, (size_t)w->arg[i].u);
        default:
                return snprintf(out, n, spec, w->arg[i].f);
        }
}

/* The kept reason into out (n bytes): the text, cut alike, vsnprintf made of it at once. */
static void make(const struct zv_reason *w, char *out, size_t n)
{
        size_t o = 0;
        int i = 0;
        for (const char *c = w->fmt; *c && o + 1 < n;) {
                if (*c != '%' || c[1] == '%') {
                        out[o++] = *c;
                        c += *c == '%' ? 2 : 1;
                        continue;
                }
                size_t len;
                conversion(c + 1, &len);
                char spec[16];
                if (len + 2 > sizeof(spec)) /* no conversion scan kept is this long */
                        break;
                memcpy(spec, c, len + 1);
                spec[len + 1] = '\0';
                int r = put_arg(out + o, n - o, spec, w->kind[i], w, i);
                i++;
                if (r < 0)
                        break;
                o = o + (size_t)r < n - 1 ? o + (size_t)r : n - 1;
                c += len + 1;
        }
        out[o] = '\0';
}

/* Law l's reason, made now if it was kept. */
static const char *reason(struct zv_state *v, int l)
{
        struct zv_reason *w = &v->why[l];
        if (w->fmt) {
                make(w, v->law[l].reason, sizeof(v->law[l].reason));
                w->fmt = NULL;
        }
        return v->law[l].reason;
}

struct zv_state *zv_new(void)
{
        struct zv_state *v = calloc(1, sizeof(*v));
        if (!v)
                return NULL;
        for (int i = 0; i < ZV_NLAWS; i++) {
                v->law[i].name = law_def[i].name;
                v->law[i].fields = law_def[i].fields;
                v->law[i].rule = law_def[i].rule;
                snprintf(v->self[i], sizeof(v->self[i]), "law-%s", law_def[i].name);
        }
        return v;
}

void zv_free(struct zv_state *v)
{
        free(v);
}

const char *zv_law_name(enum zv_law law)
{
        return (unsigned)law < ZV_NLAWS ? law_def[law].name : NULL;
}

const struct zv_law_status *zv_status(const struct zv_state *v, enum zv_law law)
{
        if (!v || (unsigned)law >= ZV_NLAWS)
                return NULL;
        /* The reader sees the reason: made from what the verdict kept.  The state is the
         * engine's own, allocated writable (zv_new); only the reason's text changes. */
        reason((struct zv_state *)v, law);
        return &v->law[law];
}

void zv_verdict(struct zv_state *v, struct zm_engine *e, enum zv_law law, enum zv_verdict verdict,
                const char *fmt, ...)
{
        if (!v || (unsigned)law >= ZV_NLAWS)
                return;
        struct zv_law_status *s = &v->law[law];
        struct zv_reason *w = &v->why[law];
        va_list ap, text;
        va_start(ap, fmt);
        va_copy(text, ap);
        w->fmt = NULL;
        if (!keep(w, fmt, ap))
                vsnprintf(s->reason, sizeof(s->reason), fmt, text);
        va_end(text);
        va_end(ap);
        const struct zm_options *o = zm_engine_options(e);
        unsigned need = o->verify_intervals ? o->verify_intervals : 1;
        enum zv_verdict before = s->last;
        s->last = verdict;
        switch (verdict) {
        case ZV_NODATA:
                s->nodata++;
                return;
        case ZV_HOLD:
                s->held++;
                s->streak++;
                if (!s->on && s->streak >= need) {
                        s->on = true;
                        /* Say what the verdict changes under the configured mode. */
                        zm_log(e, ZM_LOG_INFO,
                               "law %s held for %u consecutive intervals: %s %s (%s)", s->name,
                               s->streak, s->fields,
                               o->unverified == 0   ? "proven, but UnverifiedFields false keeps "
                                                      "them unpublished"
                               : o->unverified == 1 ? "proven (UnverifiedFields true publishes "
                                                      "them anyway)"
                                                    : "now trusted",
                               reason(v, law));
                }
                return;
        case ZV_FAIL:
                s->failed++;
                s->streak = 0;
                if (s->on) {
                        s->on = false;
                        zm_log(e, ZM_LOG_WARNING, "law %s broken, %s held back again: %s", s->name,
                               s->fields, reason(v, law));
                } else if (before != ZV_FAIL) {
                        zm_log(e, ZM_LOG_WARNING, "law %s broken, %s stay held back: %s", s->name,
                               s->fields, reason(v, law));
                }
                return;
        }
}

bool zv_allowed(const struct zv_state *v, const struct zm_engine *e, const char *check)
{
        if (!check)
                return true;
        int mode = zm_engine_options(e)->unverified;
        if (mode == 1)
                return true;
        if (mode == 0 || !v)
                return false;
        /* Checks are the laws' own name literals: try the address before the text. */
        for (int i = 0; i < ZV_NLAWS; i++)
                if (v->law[i].name == check)
                        return v->law[i].on;
        for (int i = 0; i < ZV_NLAWS; i++)
                if (strcmp(v->law[i].name, check) == 0)
                        return v->law[i].on;
        return false; /* a check nobody evaluates never turns on */
}

bool zv_law_allowed(const struct zv_state *v, const struct zm_engine *e, enum zv_law law)
{
        int mode = zm_engine_options(e)->unverified;
        if (mode == 1)
                return true;
        if (mode == 0 || !v || (unsigned)law >= ZV_NLAWS)
                return false;
        return v->law[law].on;
}

void zv_emit(const struct zv_state *v, struct zm_engine *e, const struct zd_record *r)
{
        if (!v)
                return;
        for (int i = 0; i < ZV_NLAWS; i++) {
                struct zm_metric m;
                zm_metric_init(&m, ZM_SYSTEM, r);
                zm_metric_name(&m, "zvm", "reader", "gauge", v->self[i]);
                zm_metric_gauge(&m, v->law[i].on ? 1.0 : 0.0);
                zm_emit(e, &m);
        }
}
