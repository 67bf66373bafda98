/* SPDX-License-Identifier: MIT */
/*
 * Conservation laws that prove or disprove HINT fields at run time.
 *
 * A HINT field (layout.h) sits where zpmd's z/VM 5.3 transcription puts it;
 * IBM never confirmed the offset.  Each metric built from such a field
 * names a law (zm_metric.check).  Every sample interval the CP module
 * evaluates each law against fields IBM does confirm (or against a second,
 * independently placed field) and reports a verdict here:
 *
 *   HOLD    the law was checked and kept (within the tolerance);
 *   FAIL    the law was checked and broken: the reason is logged;
 *   NODATA  nothing to check this interval (no traffic, first interval...).
 *
 * UnverifiedFields (zm_options.unverified): 1 publishes hint metrics
 * always, 0 never, -1 (auto, the default) once their law has held for
 * verify_intervals consecutive intervals, and stops again at the first
 * FAIL.  NODATA neither advances nor breaks a streak.  Every change of
 * state is logged and every law is published as two self-metrics:
 * zvm/reader/gauge/law-<name>, 1 once the law has held for verify_intervals
 * consecutive intervals (its fields are trusted), 0 otherwise; and
 * zvm/reader/total_events/law-<name>-failed, the intervals in which it was
 * checked and broken (zv_law_status.failed), which a law with no data never
 * raises.
 */
#ifndef ZD_MET_VERIFY_H
#define ZD_MET_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "metric/met_module.h"

enum zv_verdict { ZV_NODATA, ZV_HOLD, ZV_FAIL };

/* The laws, in the order they are listed, evaluated and published. */
enum zv_law {
        ZV_CPU_WAIT,       /* SYTPRP_PFXTOTWT */
        ZV_GUEST_CPU,      /* USEACT_VMDTTIME */
        ZV_GUEST_VCPU,     /* USEACT_VMDVTIME */
        ZV_PAGING,         /* USEACT_CALCPPGR/W and SYTSYP_PLSPIOPR/W */
        ZV_STORAGE,        /* SYTRSG_RSAAVAIL, RSAPGABL */
        ZV_GUEST_RESIDENT, /* USEACT_VMDCTPVR */
        ZV_LPAR,           /* SYTCUP fixed part and LCUCACTM entries */
        ZV_DEVICE_SSCH,    /* IODDEV_SCMSSCH, SCGSSCH, RDEVDEV */
        ZV_VNIC,           /* VNDSES counters */
        ZV_GUEST_VIO,      /* USEACT_VMDV*SCT */
        ZV_DEVICE_TIME,    /* IODDEV_SCMCNTIM, SCMFPTIM, SCMDDTIM, SCMDATIM and their unit */
        ZV_NLAWS
};

struct zv_law_status {
        const char *name;   /* "guest-cpu": zm_metric.check and the self-metric suffix */
        const char *fields; /* the hint fields it vouches for */
        const char *rule;   /* the law, in words */
        bool on;            /* metrics under this law are published now */
        unsigned streak;    /* consecutive HOLD verdicts */
        enum zv_verdict last;
        uint64_t held, failed, nodata;
        char reason[192]; /* detail of the last verdict (why it failed), cut to fit */
};

struct zv_state;
struct zv_state *zv_new(void);
void zv_free(struct zv_state *v);
/* Report the verdict of one law for the interval that just closed. */
void zv_verdict(struct zv_state *v, struct zm_engine *e, enum zv_law law, enum zv_verdict verdict,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* May a metric with this check be published now?  NULL check: always. */
bool zv_allowed(const struct zv_state *v, const struct zm_engine *e, const char *check);
/* The same for a check that is law's name, by its number (per value: no names compared). */
bool zv_law_allowed(const struct zv_state *v, const struct zm_engine *e, enum zv_law law);
const struct zv_law_status *zv_status(const struct zv_state *v, enum zv_law law);
const char *zv_law_name(enum zv_law law);
/* Emit the self-metrics (gauge law-<name>, total_events law-<name>-failed) stamped with r's TOD. */
void zv_emit(const struct zv_state *v, struct zm_engine *e, const struct zd_record *r);

/* For the plugin, zvmmon and tests: the verdicts of an engine's CP module. */
const struct zv_law_status *zm_law_status(const struct zm_engine *e, const char *name);
const struct zv_law_status *zm_law_at(const struct zm_engine *e, size_t i); /* NULL past end */

#endif
