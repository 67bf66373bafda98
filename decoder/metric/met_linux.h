/* SPDX-License-Identifier: MIT */
/*
 * What the Linux module's hub (met_linux.c: the module, and the kernel's
 * APPLDATA) and its part (met_lnxappl.c: the monwriter summaries of
 * LNXAPPL) share.  The hub calls the part; the part calls only what is
 * here.  Inline: a guest's record comes through here for every value it
 * carries.
 */
#ifndef ZD_MET_LINUX_H
#define ZD_MET_LINUX_H

#include <string.h>

#include "base/hash.h"
#include "metric/met_module.h"
#include "payload/appldata/appl.h"

/*
 * The module's key for a metric (zm_metric's key): the addresses of its
 * names, which must be string literals (an address then stands for one
 * text for the life of the process), and inst, the number a name was made
 * from when one was (a CPU's), else 0.  The engine then need not hash the
 * names of every value.  Names from buffers (mon_fsstatd's mount points)
 * get no key: a buffer's address says nothing of what it holds.
 */
static inline uint64_t lit_pre(const char *plugin, const char *pinst, const char *type,
                               const char *tinst)
{
        uint64_t h = zh_step(UINT64_C(0x4C494E5558), (uintptr_t)plugin); /* "LINUX" */
        h = zh_step(h, (uintptr_t)pinst);
        h = zh_step(h, (uintptr_t)type);
        return zh_step(h, (uintptr_t)tinst);
}

static inline uint64_t lit_key(const char *plugin, const char *pinst, const char *type,
                               const char *tinst, uint64_t inst)
{
        return zh_step(lit_pre(plugin, pinst, type, tinst), inst) | 1;
}

/*
 * A guest's metrics from one record share their scope, guest, source record
 * and time: those are filled once per record, and a value sets only its
 * names, its key and itself.
 */
struct lx_out {
        struct zm_engine *e;
        struct zm_metric m;
        /*
         * What zm_emit does for a guest's metric when no series cap applies
         * (its id 0, one counted, the callback), done here, without a call
         * for each of a record's values.
         */
        struct zm_sink sink;
        bool capped; /* a series cap is set: zm_emit decides */
};

static inline void out_init(struct lx_out *o, struct zm_engine *e, const struct zd_record *r,
                            const struct zd_appl *a, uint64_t tod)
{
        o->e = e;
        o->sink = zm_engine_sink(e);
        o->capped = zm_engine_options(e)->max_series_per_guest != 0;
        zm_metric_init(&o->m, ZM_GUEST, r);
        memcpy(o->m.guest, a->userid, sizeof(o->m.guest)); /* both 9 bytes, NUL-terminated */
        o->m.tod = zm_guest_tod(e, a->userid, tod, r->tod);
}

/* o's metric as zm_emit would emit it. */
static inline void lx_emit(struct lx_out *o)
{
        if (o->capped) {
                zm_emit(o->e, &o->m);
                return;
        }
        o->m.id = 0;
        ++*o->sink.metrics;
        if (o->sink.emit)
                o->sink.emit(o->sink.ctx, &o->m);
}

/* o's next metric, named (never NULL names: literals or buffers) and keyed as lit_key's, or 0. */
static inline struct zm_metric *named(struct lx_out *o, const char *plugin, const char *pinst,
                                      const char *type, const char *tinst, uint64_t key)
{
        struct zm_metric *m = &o->m;
        m->plugin = plugin;
        m->plugin_instance = pinst;
        m->type = type;
        m->type_instance = tinst;
        m->key = key;
        m->nvalues = 0;
        return m;
}

/* A gauge named by string literals only (lit_key). */
static inline void gauge(struct lx_out *o, const char *plugin, const char *pinst, const char *type,
                         const char *tinst, double v)
{
        struct zm_metric *m =
            named(o, plugin, pinst, type, tinst, lit_key(plugin, pinst, type, tinst, 0));
        zm_metric_gauge(m, v);
        lx_emit(o);
}

/* Counted always; logged once per guest and kind, however many buffers the guest fills. */
static inline void lx_bad(struct zm_engine *e, const struct zd_appl *a, const char *what)
{
        zm_counters_mut(e)->appl_bad++;
        if (zm_say(e, zh_u64(zh_str(ZH_SEED, a->userid), (uint64_t)(uintptr_t)what), 0, 0))
                zm_log(e, ZM_LOG_NOTICE,
                       "guest %s: %s record (%s) unusable: %s; further ones of this guest are "
                       "counted (appl_bad)",
                       a->userid, a->prodid_text,
                       a->kind == ZD_APPL_LINUXKRNL ? "kernel APPLDATA" : "monwriter", what);
}

/* false (counted) if the buffer's stamp has not changed since its last sample. */
static inline bool fresh(struct zm_engine *e, enum zd_track verdict)
{
        switch (verdict) {
        case ZD_TRACK_STALE:
                zm_counters_mut(e)->appl_stale++;
                return false;
        case ZD_TRACK_UNTRACKED:
                zm_counters_mut(e)->appl_untracked++;
                return true;
        default:
                return true;
        }
}

/*
 * A guest's process states of one sample interval, sent when it ends
 * (met_lnxappl.c).  collectd's processes plugin counts a process in
 * uninterruptible sleep (D) as blocked, where mon_procd's summary counts it
 * among the sleeping; only mon_procd's task records (state) of the same
 * pass tell them apart, and CP copies those in the same interval in any
 * order.  And the kernel OS record's nr_iowait, blocked for a guest that
 * runs no mon_procd: one source per guest and interval, never both.
 */
struct lx_pass {
        char userid[9];
        bool procd;   /* a mon_procd summary of the guest came in this interval */
        bool summary; /* ... a fresh one: its states are sent */
        bool os;      /* a fresh kernel OS record: its nr_iowait is sent unless procd */
        uint64_t iowait;
        uint64_t sum_ts;  /* the summary's pass (Unix seconds) */
        uint64_t sum_tod; /* the time its states carry (zm_guest_tod's) */
        uint64_t os_tod;
        uint64_t sleeping, stopped, zombie; /* the summary's */
        uint64_t d_ts[2];                   /* the passes of the task records seen (two: a */
        uint64_t d_n[2];                    /* torn copy), and how many were in state D */
};

struct lx_passes {
        struct lx_pass *p;
        size_t n, cap;
        size_t last; /* the pass found or added last: a guest's records come together */
        struct zh_index ix;
};

/* A kernel OS record's nr_iowait, for the guest's blocked at the interval's end. */
void lx_pass_os(struct lx_passes *ps, const char *userid, uint64_t tod, uint64_t iowait);
/* The interval ended: every guest's process states sent, the passes forgotten. */
void lx_passes_end(struct zm_engine *e, struct lx_passes *ps);
void lx_passes_free(struct lx_passes *ps);

/*
 * A monwriter record (LNXAPPL) of met_lnxappl.c, the module's part: the
 * summaries of mon_fsstatd and mon_procd, and the states of mon_procd's
 * tasks.  tracker: the module's, which the kernel's records share, so that
 * a guest's buffers of both count against one share of it.
 */
void lx_lnxappl(struct zm_engine *e, struct zd_appl_tracker *tracker, struct lx_passes *ps,
                const struct zd_record *r, const struct zd_appl *a);
#endif
