/* SPDX-License-Identifier: MIT */
/*
 * The per-guest series cap (zm_options.max_series_per_guest, the plugin's
 * MaxSeriesPerGuest): the series each guest has, and whether it may have
 * another.  A part of the engine (met_engine.c), which asks it for every
 * guest value and sweeps it at every Interval End; it calls nothing of the
 * engine's and logs nothing itself (the verdict says when to).
 *
 * A series counts against its guest while it is in use.  One that had no
 * value for more than `idle` sample intervals is forgotten at an Interval
 * End, so that a guest whose identifiers come and go (containers, mounts,
 * interfaces, CPUs) gets new series again; before, it lost every series
 * past its cap until collectd restarted.  The sweep's cost is paid once
 * per interval, and only when a series can have expired: never per value.
 */
#ifndef ZD_MET_CAP_H
#define ZD_MET_CAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hash.h"
#include "base/order.h"
#include "metric/met_say.h"

/*
 * A refused guest is logged at its first refusal, and again only after
 * this many sample intervals without one (an hour at a 60 s interval): a
 * guest at its cap for good is told about once, one whose churn comes back
 * months later again.
 */
#define ZM_CAP_QUIET 60

struct zm_cap_guest {
        uint64_t userid;     /* zh_word8 of the userid */
        uint32_t nseries;    /* series it has now */
        struct zm_said said; /* its refusals (ZM_SAY_SPELL, in intervals) */
};

struct zm_cap {
        struct zm_cap_guest *guests;
        size_t nguests, capguests;
        struct zh_index guest_ix;
        /* Per series, one index: its id, order.succ and the two below. */
        uint64_t *ids;
        uint32_t *seen;  /* the interval of its last value (Interval Ends before it) */
        uint32_t *owner; /* its guest's place in guests */
        uint32_t *to;    /* the sweep's scratch: new places */
        size_t n, capn, capto;
        struct zh_order order; /* the order of the guests' values, for the first guess */
        struct zh_index ix;
        uint32_t next_sweep; /* no series can have expired before this interval */
};

enum zm_cap_verdict {
        ZM_CAP_OK,      /* the series is the guest's (it had it, or it has room) */
        ZM_CAP_REFUSED, /* a new series past the cap (or no memory for one) */
        ZM_CAP_LOG,     /* refused, and worth a log line (zm_cap_quiet: first, or after quiet) */
};

/*
 * May the guest (a char[9] userid) have series id at interval now?  A series
 * it has, or a new one while it has fewer than max.  Its last value's
 * interval is noted either way.  *g is set to the guest's entry when refused
 * (for the message), else left alone.
 */
enum zm_cap_verdict zm_cap_admit(struct zm_cap *c, uint64_t id, const char *guest, size_t max,
                                 uint32_t now, const struct zm_cap_guest **g);
/*
 * At an Interval End (now: the Interval Ends so far): forget every series
 * with no value for more than idle intervals (idle 0: never), and the guests
 * left with none whose refusals are quiet.  Returns the number forgotten.
 */
size_t zm_cap_sweep(struct zm_cap *c, uint32_t now, unsigned idle);
void zm_cap_free(struct zm_cap *c);

#endif
