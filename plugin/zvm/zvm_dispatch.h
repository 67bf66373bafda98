/* SPDX-License-Identifier: MIT */
/*
 * Inside the dispatcher (zm_metric -> value_list_t), in one direction:
 *   zvm_series_text.c  where a series' names live (blocks of text)
 *   zvm_host.c         whose host a value goes under: CP's userid decides,
 *                      claims only as the configuration trusts them
 *   zvm_series.c       the series of a metric, found by last interval's order;
 *                      filters; laying the series out again in that order
 *   zvm_dispatch.c     the dispatcher itself: a metric to a value list
 * Each file uses only the ones above it in this list.
 */
#ifndef ZVM_DISPATCH_H
#define ZVM_DISPATCH_H

#include "zvm_collectd.h"

#include <stdbool.h>
#include <stdint.h>

#include "zvmdec.h"
#include "zvm.h"

/* The names of a series, kept one after another in series.text. */
enum { N_CLAIM, N_PLUGIN, N_PINST, N_TYPE, N_TINST, N_HOST, N_NAMES };

/*
 * What the dispatcher derives from a series once and keeps.  The key fields
 * confirm a lookup; the host is derived again when the system name (D1R4),
 * the configured Host or, for a guest's claim, what decides claims changes.
 */
struct series {
        uint64_t id;
        uint64_t key; /* the module's key (zm_metric.key), or 0 */
        const char *cfg_host;
        const char *refused; /* why a guest's names are refused (refused_name), or NULL */
        /*
         * The claim (the host the guest wrote itself, if any), the four names
         * and the host resolved, NUL-terminated one after another: a few cache
         * lines per value instead of a whole value list's 640 bytes of names.
         */
        char *text;
        uint32_t ident; /* the identifier this series is dispatched as */
        unsigned system_gen;
        unsigned trust_gen; /* trust_now() when its host was decided */
        uint32_t seen;      /* the engine's Interval Ends before its last value */
        int16_t ds_num;     /* values its type takes (types.db); -1: no such type */
        uint16_t record;
        uint16_t cap; /* bytes at text */
        uint16_t off[N_NAMES];
        uint8_t len[N_NAMES];
        uint8_t scope; /* enum zm_scope */
        uint8_t domain;
        bool claim_open : 1; /* a claim that a new guest or CP's first interval may decide
                                otherwise: accepted, or refused as too early */
        bool wanted : 1;
        bool claim_refused : 1; /* the guest named a host it may not use: its own host instead */
        char guest[9];
        /* Fields by size, to keep it small: every series is one of these, all
           touched in an interval and copied by a relayout. */
};

static inline const char *nm(const struct series *x, int k)
{
        return x->text + x->off[k];
}

/*
 * collectd identifiers dispatched and the newest time of each: two series can
 * end up as one identifier (GuestHost naming two guests alike), and collectd
 * refuses a time that is not newer, so the check is per identifier.
 */
struct ident {
        uint64_t hash;
        uint32_t series; /* the series that first used it, whose text holds the names */
        cdtime_t last;
};

/* A host name and the guest whose metrics carry it: no other guest may claim it. */
struct bound {
        char host[DATA_MAX_NAME_LEN];
        char userid[9];
};

/*
 * What the log said of a guest: each once (c_complain_once), its host claim,
 * names, types; once for an own host that is the z/VM system's or the
 * collector's (clash), and once for two of its sources writing one
 * identifier (mixed).
 */
struct noted {
        char userid[9];
        c_complain_t host, name, type;
        bool clash, mixed;
};

/*
 * Everything a series' host is decided from besides the series itself: when
 * one of these moves, hosts are decided again (seen() in zvm_series.c), and
 * values staged under the old names must be dispatched first.
 */
struct dsp_epoch {
        unsigned system_gen; /* the engine's system name (D1R4) */
        unsigned trust;      /* dsp_trust_now(): what decides a guest's claim */
        const char *cfg_host;
        uint32_t interval; /* the engine's Interval Ends so far (series.seen) */
};

/* A value admitted and waiting for the next burst: its series, values and time. */
struct staged {
        uint32_t series;
        uint32_t nvalues;
        cdtime_t time;
        value_t values[ZM_MAXVALUES];
};
#define STAGE_MAX 4096 /* a burst; flushed when full, and once per data set */

/*
 * What the values came to since the last flush, each counter one cause:
 * kept here by the one thread that dispatches, and added to the shared
 * counters (zvm_stats) under their lock once per flush, not once per value.
 */
struct dsp_counts {
        uint64_t dispatched;       /* handed to collectd */
        uint64_t duplicates;       /* an identifier's time not newer than its last */
        uint64_t filtered;         /* IncludeRecord/ExcludeRecord, IncludeGuest/ExcludeGuest */
        uint64_t nomem;            /* no memory for the series they belong to */
        uint64_t collectd_refused; /* plugin_dispatch_values returned an error */
        uint64_t host_refused;     /* dispatched, under the guest's own host */
        uint64_t names_refused, type_refused;
};

struct zvm_dispatch {
        const struct zvm_config *cfg;
        const struct zm_engine *eng;
        struct bound *bound;
        size_t nbound, capbound;
        size_t bound_last; /* the entry the last dsp_bind_host found or added */
        struct zh_index bix;
        struct noted *noted;
        size_t nnoted, capnoted;
        struct zh_index nix;
        /*
         * Changes when a guest is seen for the first time (its own host is then
         * bound to it) and when CP's first interval ends: a host a guest claimed
         * is decided again, so a claim made before the rightful guest showed up
         * does not outlive it.
         */
        unsigned trust_gen;
        struct series *s;
        size_t ns, caps;
        struct zh_order order; /* the order of the values, for the first guess */
        size_t capsucc;        /* order.succ's room */
        size_t since, in_seq;  /* values since the last check; of those, found right after
                                  the previous one in the array (relayout()) */
        size_t rounds;         /* rounds of values between checks: 2, doubled while a layout
                                  does not help (an order that changes every interval) */
        size_t ival_values, ival_in_seq, ival_ns; /* since the last interval end: values, of
                                                     those in array order; series then */
        size_t ival_first;   /* + 1: the series of this interval's first value */
        size_t ival_backoff; /* intervals to pass over after the next layout at an interval's end */
        size_t ival_skip;    /* intervals still to pass over */
        size_t layouts;      /* series laid out again so far (tests) */
        uint32_t next_forget; /* dsp_forget_idle: no series can be idle too long before this */
        struct zh_index six;
        struct ident *id;
        size_t nid, capid;
        struct zh_index iix;
        value_list_t vl; /* the value list being dispatched, filled from a series */
        /*
         * Values admitted but not yet dispatched (zvm_dispatch_flush): handed
         * to collectd in bursts, not one by one as records are decoded.
         * collectd's write thread sleeps whenever its queue runs empty and a
         * dispatch must then wake it: values trickling out of the decoder
         * would cost that thread a context switch each.  Staged by series
         * index, so nothing that changes a
         * series' names or moves it (a host decided again, a relayout) may
         * happen while values are staged: those paths flush first.
         */
        struct staged *stage;
        size_t nstage;
        struct dsp_epoch stage_epoch; /* what decided hosts when the first was staged */
        /*
         * dsp_epoch_now() as last worked out, and what it came from: asked for
         * every value, it changes only with the engine's epoch, trust_gen or
         * the configured host.
         */
        uint64_t time_tod; /* the last value's TOD and its collectd time (value_time) */
        cdtime_t time_cd;
        struct dsp_epoch epoch;
        const unsigned *eng_epoch; /* zm_engine_epoch_at(eng), or a zero of its own */
        unsigned epoch_engine, epoch_trust_gen, no_engine;
        bool epoch_known;
        char **blocks; /* the series' names (text_alloc) */
        size_t nblocks, capblocks, block_used;
        void (*after_burst)(void *); /* zvm_dispatch_after_burst */
        void *after_ctx;
        struct dsp_counts counts;
};

/* zvm_series_text.c */
/*
 * Series names live in blocks of their own, allocated a few at a time and
 * freed with the dispatcher: a series allocated among collectd's value-list
 * copies (made in this thread too) would pin the heap after a burst.  The
 * blocks are large because each malloc among collectd's freed value lists
 * first consolidates them: the names of thousands of series go into one.
 */
#define TEXT_BLOCK (1024 * 1024)
/*
 * A name shorter than this goes into the value list as one copy of this many
 * bytes, NUL and whatever follows it included (fill() in zvm_dispatch.c): a
 * constant size the compiler copies inline, where a copy of the name's own
 * length is a libc call, five per value.  Every block has this much room after its
 * last byte, zeroed, so the copy of the block's last name stays inside it.
 */
#define NAME_COPY 32
/*
 * Room after the host: a host decided again (D1R4 seen after the series was
 * made: a system id is at most 8 characters) stays in place.  A longer one
 * moves the names to new room in the block.
 */
#define HOST_ROOM 16
/* n bytes in the current block (a new one when it is full); NULL when out of memory. */
char *dsp_text_alloc(struct zvm_dispatch *d, size_t n);
/* Lay out x's names, the first N_HOST given, then host. */
bool dsp_set_text(struct zvm_dispatch *d, struct series *x, const char *const name[N_HOST],
                  const char *host);
/* Bytes x's names take, the host's NUL included. */
static inline size_t dsp_text_used(const struct series *x)
{
        return (size_t)x->off[N_HOST] + x->len[N_HOST] + 1;
}
/* Move x's names (laid out elsewhere, e.g. on the stack) into a block; false when out of memory. */
bool dsp_keep_text(struct zvm_dispatch *d, struct series *x);

/* zvm_host.c */
bool dsp_resolve_host(struct zvm_dispatch *d, struct series *x);
unsigned dsp_trust_now(const struct zvm_dispatch *d);
/* The epoch worked out again (dsp_epoch_now's slow way). */
const struct dsp_epoch *dsp_epoch_refresh(struct zvm_dispatch *d);
/* What decides hosts now; asked for every value, so the check that it has not moved is inline. */
static inline const struct dsp_epoch *dsp_epoch_now(struct zvm_dispatch *d)
{
        if (d->epoch_known && *d->eng_epoch == d->epoch_engine &&
            d->trust_gen == d->epoch_trust_gen && d->cfg->host == d->epoch.cfg_host)
                return &d->epoch;
        return dsp_epoch_refresh(d);
}
void dsp_guest_own_host(const struct zvm_dispatch *d, const struct series *x, char *out,
                        size_t outsz);
void dsp_bind_host(struct zvm_dispatch *d, const char *host, const char *userid);
const char *dsp_refused_name(const struct zm_metric *m);
/* The complaints about a guest (found or added); NULL when out of memory. */
struct noted *dsp_noted(struct zvm_dispatch *d, const char *userid);

/* zvm_series.c */
bool dsp_wanted(const struct zvm_config *c, const struct zm_metric *m);
/* now: dsp_epoch_now(d) at this value (the caller has it already). */
struct series *dsp_series_of(struct zvm_dispatch *d, const struct zm_metric *m,
                             const struct dsp_epoch *now);
bool dsp_relayout(struct zvm_dispatch *d);
/*
 * At an interval's end, nothing staged: the series with no value for more
 * than SeriesIdleTimeout intervals, and the identifiers only they used,
 * forgotten (laid out again without them).  collectd's cache has let them
 * go already: a guest whose identifiers churn, or guests and devices that
 * come and go, do not make the tables grow for as long as collectd runs.
 * Their counts are the engine's too (zm_options.series_idle).  False when
 * nothing was forgotten (or out of memory).
 */
bool dsp_forget_idle(struct zvm_dispatch *d);
/* Can a series be idle too long by now (so that dsp_forget_idle would look)? */
bool dsp_forget_due(const struct zvm_dispatch *d);

#endif
