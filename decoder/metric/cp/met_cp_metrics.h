/* SPDX-License-Identifier: MIT */
/*
 * The CP metrics as data (met_cp_metrics.c): one row per metric, read by
 * the emitter (met_cp_emit.c) and by `zvmmon metrics`, which writes
 * doc/metrics-cp.md's reference from it.  The header stands alone (slots
 * are plain numbers here) so that zvmmon and tests can read the table
 * without the module's state.
 */
#ifndef ZD_MET_CP_METRICS_H
#define ZD_MET_CP_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "metric/metric.h"

/* Which kind of entry a metric is about: one value per entry of that kind. */
enum cp_kind {
        CP_CPU,       /* a processor: SYTPRP or SYTSYP, by CPU address */
        CP_SYSTEM,    /* the z/VM system: SYTRSG, SYTUSR, SYTSYP summed over CPUs, and the like */
        CP_PARTITION, /* a logical CPU of a partition: SYTCUP entries */
        CP_GUEST,     /* a guest: USEACT summed over its virtual CPUs */
        CP_DEVICE,    /* a real device: IODDEV */
        CP_NIC,       /* a guest's virtual NIC: VNDSES */
        CP_SSI,       /* the system as a member of its SSI cluster: SSISCS, SSISMI */
        CP_NKINDS
};

/*
 * How a metric is computed from an entry's slots a and b (b < 0: none).
 * Each slot must have a value: a delta this interval for the Δ ones, a
 * reading for the others.
 */
enum cp_calc {
        CP_PCT,      /* GAUGE: Δa (+ Δb) as % of the elapsed time, clamped to 0-100 */
        CP_PCT_DIFF, /* GAUGE: Δa − Δb as % of the elapsed time, when Δb <= Δa */
        CP_SUM,      /* DERIVE: running sum of Δa (+ Δb), × mul ÷ div */
        CP_SUM2,     /* DERIVE: running sums of Δa and of Δb, two values */
        CP_VAL,      /* GAUGE: reading of a × mul ÷ div */
        CP_VAL_DIFF, /* GAUGE: (reading of a − reading of b) × mul ÷ div, when b <= a */
        CP_MEAN,     /* GAUGE: Δa ÷ Δb × mul ÷ div, when Δb > 0 (a time per event) */
        CP_NCALCS
};

#define CP_NOLAW (-1)

struct cp_metric {
        uint8_t domain; /* the record the fields come from */
        uint8_t record;
        uint8_t kind; /* enum cp_kind */
        /*
         * Plugin and type instance: text, with <cpu> (the entry's CPU
         * address, decimal), <dev> (device number, 4 hex digits) and
         * <userid>, <owner>, <partition> (the entry's name) filled in.
         */
        const char *pinst;
        const char *type;
        const char *tinst;  /* NULL: none */
        uint8_t ds;         /* enum zm_ds */
        uint8_t calc;       /* enum cp_calc */
        int8_t a, b;        /* slots (met_cp_tab.h) */
        uint16_t need;      /* further slots that must have a value */
        uint16_t vouch;     /* slots whose provenance decides the check; 0: a and b */
        uint32_t mul, div;  /* unit conversion (TOD units to seconds: ÷ 4096 × 10^6) */
        int8_t law;         /* enum zv_law that vouches for HINT fields, or CP_NOLAW */
        const char *fields; /* the fields, as the metric combines them */
        const char *desc;   /* what the value measures, in what unit */
};

extern const struct cp_metric cp_metrics[];
extern const size_t cp_nmetrics;

/* For docs: "Δ as % of elapsed" and the like, the condition it has (or NULL), a kind's name. */
const char *cp_calc_name(enum cp_calc c);
const char *cp_calc_when(enum cp_calc c);
const char *cp_kind_name(enum cp_kind k);
/* The DS type a computation gives. */
enum zm_ds cp_calc_ds(enum cp_calc c);
/*
 * Fill the instance pattern p for an entry (id, name) into out; returns out.
 * Unknown <tokens> stay as they are.
 */
char *cp_pattern(char *out, size_t outsz, const char *p, uint32_t id, const char *name);

#endif
