/* SPDX-License-Identifier: MIT */
/*
 * What a metric module (met_*.c) sees of the engine.  A module gets every
 * record of the families and CP domains it names (or, through appl, every
 * domain 10 record with its APPLDATA header parsed), and every Interval
 * End, and emits zm_metric values through zm_emit.
 * Modules are listed in met_engine.c.
 */
#ifndef ZD_MET_MODULE_H
#define ZD_MET_MODULE_H

#include "metric/metric.h"

struct zd_appl;

struct zm_module {
        const char *name;
        void *(*create)(struct zm_engine *e);
        void (*destroy)(void *state);
        void (*record)(struct zm_engine *e, void *state, const struct zd_record *r);
        void (*interval_end)(struct zm_engine *e, void *state, const struct zd_record *r);
        /*
         * Record families (1 << ZD_FAM_x) the module is given; 0 means CP only, so
         * a VM/370 tape record never reaches a module that reads CP layouts.
         */
        unsigned families;
        /*
         * The CP domains whose records it reads (bit d for domain d; 0: every
         * one): the engine offers it no others, so a record costs the modules
         * that read it, not all of them.
         */
        uint32_t domains;
        /*
         * A D10R1 or D10R2 record whose APPLDATA header (zd_appl_parse) is
         * usable: the engine parses the header once for every module that
         * reads it, counts the records whose header is not (appl_bad) and
         * notes the guest CP stamped on the others.  a->data views r's bytes
         * and a lives for this call.
         */
        void (*appl)(struct zm_engine *e, void *state, const struct zd_record *r,
                     const struct zd_appl *a);
};

/* Emit one metric (the engine names its series, applies the series cap and counts it). */
void zm_emit(struct zm_engine *e, struct zm_metric *m);
/*
 * zm_emit's work for a metric of scope ZM_SYSTEM (no series cap; its id 0),
 * for a module that hands over many at once and does it in its own loop:
 * one added to *metrics, then emit(ctx, m) unless emit is NULL.  What
 * zm_emit asks of every metric the module knows once for all of them.
 */
struct zm_sink {
        zm_emit_fn emit;
        void *ctx;
        uint64_t *metrics;
};
struct zm_sink zm_engine_sink(struct zm_engine *e);
/* Start a metric: scope, source record and time filled in, everything else empty. */
void zm_metric_init(struct zm_metric *m, enum zm_scope scope, const struct zd_record *r);
/* Set plugin / instance / type / type_instance in one call (NULL = ""). */
void zm_metric_name(struct zm_metric *m, const char *plugin, const char *pinst, const char *type,
                    const char *tinst);
/* Add a value (past ZM_MAXVALUES: dropped).  Inline: every value of every metric comes here. */
static inline void zm_metric_gauge(struct zm_metric *m, double v)
{
        if (m->nvalues < ZM_MAXVALUES) {
                m->ds[m->nvalues] = ZM_GAUGE;
                m->derive[m->nvalues] = 0;
                m->gauge[m->nvalues++] = v;
        }
}
static inline void zm_metric_derive(struct zm_metric *m, int64_t v)
{
        if (m->nvalues < ZM_MAXVALUES) {
                m->ds[m->nvalues] = ZM_DERIVE;
                m->gauge[m->nvalues] = 0;
                m->derive[m->nvalues++] = v;
        }
}

struct zm_counters *zm_counters_mut(struct zm_engine *e);
/*
 * The time to stamp a guest's value with, given the stamp the guest wrote
 * (claimed) and CP's TOD of the record that brought it (cp_tod, 0 if
 * unknown): claimed, unless it is more than ZM_GUEST_AHEAD_S seconds after
 * cp_tod; then cp_tod, counted (appl_future) and logged once per guest.
 */
#define ZM_GUEST_AHEAD_S 300
uint64_t zm_guest_tod(struct zm_engine *e, const char *userid, uint64_t claimed, uint64_t cp_tod);
/*
 * Numbers in names, for code that runs per value or per record (snprintf
 * parses its format at every call): v in decimal, or in upper-case hex
 * of at least four digits ("%04X"), written at out[o] of out[outsz], cut
 * like snprintf would; the new end is returned and out is not terminated.
 */
size_t zm_put_dec(char *out, size_t outsz, size_t o, unsigned v);
size_t zm_put_hex4(char *out, size_t outsz, size_t o, unsigned v);
/*
 * The decoder's repeat limit (met_say.h) by key (a guest and a kind of
 * complaint, say): it happened at now, in the caller's clock; 0 to keep
 * quiet, else the times this line stands for.  Said the first time, again
 * only once quiet has passed since the last line (quiet 0: never again).
 * Remembers ZM_SAY_KEYS keys; past that, nothing new is said.
 */
#define ZM_SAY_KEYS 4096
uint64_t zm_say(struct zm_engine *e, uint64_t key, uint64_t now, uint64_t quiet);
/* CP named this guest (a user record, or the userid CP stamps on its APPLDATA); a char[9]. */
void zm_note_guest(struct zm_engine *e, const char *userid);
const struct zm_options *zm_engine_options(const struct zm_engine *e);
void zm_log(struct zm_engine *e, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void zm_set_system(struct zm_engine *e, const char *name);
void zm_set_interval(struct zm_engine *e, double seconds);
/* The reading for zl_find_cp_reading (a string that outlives the engine; NULL = default). */
void zm_set_reading(struct zm_engine *e, const char *reading);
/* The state a module's create() returned, by module name (NULL if none). */
void *zm_engine_state(const struct zm_engine *e, const char *module);

#endif
