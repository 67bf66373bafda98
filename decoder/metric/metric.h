/* SPDX-License-Identifier: MIT */
/*
 * The metric layer: decoded records turned into named values, shaped like
 * collectd identifiers (plugin, plugin_instance, type, type_instance) but
 * with no collectd dependency.  The zvm plugin only adds the host name,
 * applies filters and dispatches; zvmmon can print the same metrics.
 *
 * The engine keeps the state metrics need across records (previous timer
 * readings, per-guest staleness, the sample interval from D1R9, the system
 * name from D1R4) and hands each record to the metric modules (met_*.c),
 * listed in met_engine.c.
 */
#ifndef ZD_METRIC_H
#define ZD_METRIC_H

#include "record/record.h"

#define ZM_NAME_LEN  128 /* collectd's DATA_MAX_NAME_LEN: names up to 127 bytes */
#define ZM_MAXVALUES 4

enum zm_scope {
        ZM_SYSTEM, /* the z/VM system: host = system name */
        ZM_GUEST,  /* a guest's own data (APPLDATA, LNXAPPL): host = guest */
};

enum zm_ds { ZM_GAUGE, ZM_DERIVE };

struct zm_metric {
        enum zm_scope scope;
        char guest[9]; /* ZM_GUEST: the userid, upper case as CP writes it */
        /*
         * The names, by reference: never NULL ("" when empty), at most
         * ZM_NAME_LEN - 1 bytes (the module that names a metric sees to it),
         * valid until the emit callback returns.  Referenced, not copied: a
         * series' names are the same for every value, and a module keeps
         * them (literals, or its own buffers).
         */
        const char *host; /* a host name the guest wrote itself (write_zvm), else "" */
        const char *plugin;
        const char *plugin_instance;
        const char *type;
        const char *type_instance;
        size_t nvalues; /* ds, gauge and derive are set below this (the unused one of a pair 0) */
        enum zm_ds ds[ZM_MAXVALUES];
        double gauge[ZM_MAXVALUES];
        int64_t derive[ZM_MAXVALUES];
        uint64_t tod;   /* when the value was true (record TOD, or the guest's own stamp) */
        uint8_t domain; /* source record, for filters */
        uint16_t record;
        const char *check; /* NULL for verified sources; the name of the law that vouches for it */
        uint64_t id;       /* the series (zm_key_id if key is set, else zm_metric_id) if the engine
                              needed it for the series cap; else 0 */
        /*
         * A module's own name for the names, or 0: a module that sets it vouches
         * that every metric it emits with this key, scope, domain, record and
         * guest has the same five names (host included), and keys of different
         * modules differ.  The engine then makes the id from the key instead of
         * hashing the names (zm_emit) for every value.
         */
        uint64_t key;
};

/* Counters the engine keeps about what it refused, for self-metrics and zvmmon stat. */
struct zm_counters {
        uint64_t metrics;         /* metrics emitted */
        uint64_t appl_sync;       /* kernel APPLDATA samples dropped: sync counters differ */
        uint64_t appl_stale;      /* kernel APPLDATA samples not reported again: stale */
        uint64_t appl_bad;        /* domain 10 records with lying offsets or lengths, or a
                                     userid CP never stamps */
        uint64_t appl_unknown;    /* product ids we do not decode (kept opaque) */
        uint64_t appl_untracked;  /* samples and write_zvm values past a guest's share of the
                                     staleness tables (base/quota.h), reported unchecked */
        uint64_t appl_future;     /* guest values stamped well after CP copied them: given
                                     CP's time (zm_guest_tod) */
        uint64_t series_capped;   /* metrics dropped by the per-guest series cap */
        uint64_t timer_resets;    /* CPU timers that went backwards: interval dropped */
        uint64_t hint_suppressed; /* metrics from unproven fields held back */
        uint64_t procd_torn;      /* mon_procd passes held back: CP copied two passes' buffers */
};

struct zm_procsel;

struct zm_options {
        /* Per-guest cap on distinct series (0 = none). */
        size_t max_series_per_guest;
        /*
         * A series with no value for more than this many sample intervals
         * (Interval End records) no longer counts against its guest's cap
         * (met_cap.h); 0 = never forgotten.
         */
        unsigned series_idle;
        /* UnverifiedFields: -1 auto, 0 never, 1 always. */
        int unverified;
        /* Consecutive good intervals before auto turns a hint field on. */
        unsigned verify_intervals;
        /* mon_procd tasks aggregated per process name (procsel.h); NULL = none. */
        const struct zm_procsel *procs;
        /*
         * CPReading: "packed" or "aligned" pins the reading of the records
         * zpmd's offsets allow two ways (SYTPRP, MTRSYS); NULL or "auto" lets
         * the data decide (met_reading.c).
         */
        const char *cp_reading;
};

struct zm_engine;
typedef void (*zm_emit_fn)(void *ctx, const struct zm_metric *m);
/*
 * Messages worth a log line (law verdicts, oddities), without a prefix: the
 * consumer names itself ("zvm plugin: ", "zvmmon: ").  Levels are syslog's,
 * the numbers collectd's LOG_ERR .. LOG_INFO have too.
 */
enum zm_level { ZM_LOG_ERR = 3, ZM_LOG_WARNING = 4, ZM_LOG_NOTICE = 5, ZM_LOG_INFO = 6 };
typedef void (*zm_log_fn)(void *ctx, int level, const char *msg);

struct zm_engine *zm_engine_new(const struct zm_options *opt, zm_emit_fn emit, zm_log_fn log,
                                void *ctx);
void zm_engine_free(struct zm_engine *e);
/* Feed every record of a data set, in order (the handler's record callback). */
void zm_engine_record(struct zm_engine *e, const struct zd_record *r);
/* Feed Interval End records (the handler's interval_end callback). */
void zm_engine_interval_end(struct zm_engine *e, const struct zd_record *r);
const struct zm_counters *zm_engine_counters(const struct zm_engine *e);
/*
 * A series' identity: a hash of everything that tells one series from another
 * and decides how it is named and filtered (scope, guest, the host a guest
 * wrote, the four names, the source record).  Stable across intervals, so a
 * consumer can keep what it derives from a series (a collectd value list
 * with its host resolved, a filter verdict) under this key.  Keyed with a
 * secret drawn once per process: within one guest, equal ids may be taken as
 * the same series without comparing names (a guest cannot aim at a
 * collision; by chance it is 2^-64 a pair); across guests the CP userid must
 * still be compared, it is the identity.  Not stable across processes.
 */
uint64_t zm_metric_id(const struct zm_metric *m); /* never 0 */
/* The id of a metric whose module set m->key: keyed as zm_metric_id, never 0. */
uint64_t zm_key_id(const struct zm_metric *m);
/* The series' id, whichever kind it has: zm_key_id when m->key is set, else zm_metric_id. */
uint64_t zm_series_id(const struct zm_metric *m);
/*
 * A name that may be longer than ZM_NAME_LEN - 1 bytes (a mount point, say)
 * made to fit, deterministically: a longer one keeps its first 110 bytes and
 * ends in "~" and 16 hex digits of a 64-bit hash of the whole name, so two
 * long names that share their beginning stay apart.
 */
void zm_name_fit(char *out, size_t outsz, const char *name, size_t len);
/* From D1R4 (lower case, trimmed), "" until seen. */
const char *zm_engine_system(const struct zm_engine *e);
/*
 * Has CP named this guest (upper case userid, in a char[9]: its 8 bytes are
 * read whatever follows the NUL), and how many guests has it named?
 */
bool zm_engine_knows_guest(const struct zm_engine *e, const char *userid);
size_t zm_engine_guests_known(const struct zm_engine *e);
/* Interval End records seen: 0 until CP's first sample interval is complete. */
uint64_t zm_engine_intervals(const struct zm_engine *e);
/* Changes whenever zm_engine_system() does: names derived from it are stale. */
unsigned zm_engine_system_gen(const struct zm_engine *e);
/*
 * A count that changes whenever one of the three above may have: a consumer
 * that derives something from them for every metric can keep it while the
 * count stays put.  Its address, so that the check costs a load, not a call.
 */
const unsigned *zm_engine_epoch_at(const struct zm_engine *e);
/* From D1R9, in seconds; 0 until seen. */
double zm_engine_interval(const struct zm_engine *e);
/* The layout reading CP records are read with: NULL = the default (packed), or "aligned". */
const char *zm_engine_reading(const struct zm_engine *e);

#endif
