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

struct zv_state {
        struct zv_law_status law[ZV_NLAWS];
        char self[ZV_NLAWS][ZM_NAME_LEN];   /* "law-<name>": the gauge's type instance */
        char failed[ZV_NLAWS][ZM_NAME_LEN]; /* "law-<name>-failed": the counter's */
};

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
                snprintf(v->failed[i], sizeof(v->failed[i]), "law-%s-failed", law_def[i].name);
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
        return &v->law[law];
}

void zv_verdict(struct zv_state *v, struct zm_engine *e, enum zv_law law, enum zv_verdict verdict,
                const char *fmt, ...)
{
        if (!v || (unsigned)law >= ZV_NLAWS)
                return;
        struct zv_law_status *s = &v->law[law];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(s->reason, sizeof(s->reason), fmt, ap);
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
                               s->reason);
                }
                return;
        case ZV_FAIL:
                s->failed++;
                s->streak = 0;
                if (s->on) {
                        s->on = false;
                        zm_log(e, ZM_LOG_WARNING, "law %s broken, %s held back again: %s", s->name,
                               s->fields, s->reason);
                } else if (before != ZV_FAIL) {
                        zm_log(e, ZM_LOG_WARNING, "law %s broken, %s stay held back: %s", s->name,
                               s->fields, s->reason);
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

/*
 * The gauge says whether a law is trusted now; it is 0 alike for a law that
 * fails and for one with nothing to check.  The counter of failed intervals
 * tells them apart: it grows only when the law was checked and broken, so
 * an alert can name the law that breaks (a rate over its window), not every
 * law at 0.  Cumulative from the engine's start, as collectd's DERIVE wants.
 */
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
                zm_metric_init(&m, ZM_SYSTEM, r);
                zm_metric_name(&m, "zvm", "reader", "total_events", v->failed[i]);
                zm_metric_derive(&m, (int64_t)v->law[i].failed);
                zm_emit(e, &m);
        }
}
