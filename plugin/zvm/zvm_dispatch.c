/* SPDX-License-Identifier: MIT */
/*
 * zm_metric -> value_list_t.  The host is the guest for a guest's own data
 * (GuestHostFormat, GuestHost of its CP userid; a host the guest wrote only
 * through TrustedGuestHost, see the threat model in doc/plugin.md) and the
 * z/VM system for CP data (Host, else the system id from D1R4); the time is
 * the record's TOD; the interval is the monitor's sample interval (D1R9) when
 * known.  collectd's value cache refuses a time that is not newer than the
 * last for the same identifier, so each (identifier, time) is dispatched once
 * and repeats are counted.
 *
 * Everything derived from a series (names, host, filter and type verdicts) is
 * kept per series and found again by the order values came in last interval,
 * so a value's cost does not grow with the number of guests.
 */
#include "zvm_collectd.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "zvmdec.h"
#include "zvm.h"
#include "zvm_dispatch.h"

struct zvm_dispatch *zvm_dispatch_new(const struct zvm_config *c)
{
        struct zvm_dispatch *d = calloc(1, sizeof(*d));
        if (!d)
                return NULL;
        d->cfg = c;
        d->rounds = 2;
        d->eng_epoch = &d->no_engine;
        return d;
}

void zvm_dispatch_free(struct zvm_dispatch *d)
{
        if (!d)
                return;
        for (size_t i = 0; i < d->nblocks; i++)
                free(d->blocks[i]);
        free(d->blocks);
        free(d->s);
        free(d->order.succ);
        zh_free(&d->six);
        free(d->id);
        zh_free(&d->iix);
        free(d->bound);
        zh_free(&d->bix);
        free(d->noted);
        zh_free(&d->nix);
        free(d->stage);
        free(d);
}

void zvm_dispatch_set_engine(struct zvm_dispatch *d, const struct zm_engine *e)
{
        d->eng = e;
        d->eng_epoch = e ? zm_engine_epoch_at(e) : &d->no_engine;
        d->epoch_known = false;
}

/*
 * Metric modules may say the same thing every interval (a record that never
 * fits its layout): each of the last LOG_MEMORY messages is one of collectd's
 * complaints, logged again only after the complaint's doubling wait, with
 * the count, so the log stays readable.
 */
#define LOG_MEMORY 16
static struct {
        uint64_t hash;
        uint64_t count;
        c_complain_t c;
} log_seen[LOG_MEMORY];
static size_t log_next;

void zvm_engine_log(void *ctx, int level, const char *msg)
{
        (void)ctx;
        uint64_t h = zh_str(ZH_SEED, msg);
        size_t i = 0;
        while (i < LOG_MEMORY && (log_seen[i].hash != h || !log_seen[i].count))
                i++;
        if (i == LOG_MEMORY) {
                i = log_next;
                log_next = (log_next + 1) % LOG_MEMORY;
                log_seen[i].hash = h;
                log_seen[i].count = 0;
                C_COMPLAIN_INIT(&log_seen[i].c);
        }
        uint64_t n = ++log_seen[i].count;
        if (n == 1)
                c_complain(level, &log_seen[i].c, ZVM_PLUGIN " plugin: %s", msg);
        else
                c_complain(level, &log_seen[i].c, ZVM_PLUGIN " plugin: %s (seen %llu times)", msg,
                           (unsigned long long)n);
}

/* Every rounds x ns values: lay the series out again if fewer than half came in order. */
static void keep_order(struct zvm_dispatch *d)
{
        d->ival_values++;
        if (++d->since < d->rounds * d->ns || d->ns < 64)
                return;
        bool scattered = 2 * d->in_seq < d->since;
        if (scattered) {
                zvm_dispatch_flush(d); /* staged values name their series by position */
                (void)dsp_relayout(d);
        }
        d->rounds = scattered && d->rounds < 64 ? d->rounds * 2 : 2;
        d->since = d->in_seq = 0;
}

/*
 * An interval's values are all in (CP's too: they come when it closes).  The
 * first interval whose series were nearly all known already gives the order
 * to lay them out in.  keep_order's count (two rounds of all series) came in
 * the middle of a later interval, or, early in the warm-up, laid out an
 * order that was still growing and then held back the next layout.  The
 * first interval with hardly any new series can still have a good part of
 * its values out of array order, and laid out at its end the next interval
 * comes nearly all in order: hence the stricter test here (7/8 in order)
 * than keep_order's (half).  An
 * order that changes every interval would be laid out at every end: while
 * the intervals after a layout are scattered too, 1, 2, 4 ... 64 of them are
 * passed over before the next one, as keep_order backs off.
 */
static void order_at_interval_end(struct zvm_dispatch *d)
{
        size_t n = d->ival_values, made = d->ns - d->ival_ns;
        bool scattered = 8 * d->ival_in_seq < 7 * n;
        /* The next interval starts as this one did: the first guess, and the chain's start. */
        if (d->order.prev && d->ival_first)
                d->order.succ[d->order.prev - 1] = (uint32_t)d->ival_first;
        d->ival_values = d->ival_in_seq = d->ival_first = 0;
        d->ival_ns = d->ns;
        /* values for at least half the series (a whole interval, not a lone record), few new */
        if (d->ns < 64 || 2 * n < d->ns || 16 * made > n)
                return;
        if (!scattered) {
                /* the order holds (or the last layout helped) */
                d->ival_backoff = d->ival_skip = 0;
                return;
        }
        if (d->ival_skip) {
                d->ival_skip--;
                return;
        }
        zvm_dispatch_flush(d); /* staged values name their series by position */
        (void)dsp_relayout(d);
        d->ival_backoff = d->ival_backoff ? (d->ival_backoff < 64 ? 2 * d->ival_backoff : 64) : 1;
        d->ival_skip = d->ival_backoff;
        d->since = d->in_seq = 0; /* keep_order counts afresh from the new layout */
}

void zvm_dispatch_interval_end(struct zvm_dispatch *d)
{
        order_at_interval_end(d);
        if (!dsp_forget_due(d))
                return;
        zvm_dispatch_flush(d); /* staged values name their series by position */
        if (dsp_forget_idle(d))
                d->ival_ns = d->ns;
}

/*
 * Whether x's values may go to collectd: false for those filtered, refused
 * for their names, or that collectd would refuse for their type or number
 * of values (then counted, and logged once per guest and kind).
 */
static bool admitted(struct zvm_dispatch *d, const struct series *x, const struct zm_metric *m)
{
        const char *who = x->guest[0]            ? x->guest
                          : x->scope == ZM_GUEST ? "a record without a userid"
                                                 : "CP data";
        if (!x->wanted) {
                d->counts.filtered++;
                return false;
        }
        bool bad_type =
            m->nvalues == 0 || x->ds_num < 0 || (x->ds_num > 0 && (size_t)x->ds_num != m->nvalues);
        if (!x->refused && !bad_type)
                return true;
        if (x->refused)
                d->counts.names_refused++;
        else
                d->counts.type_refused++;
        struct noted *n = dsp_noted(d, x->guest[0] ? x->guest : "*");
        if (!n)
                return false;
        if (x->refused)
                c_complain_once(LOG_WARNING, &n->name,
                                ZVM_PLUGIN " plugin: %s%s wrote values as %s/%s/%s/%s: refused "
                                           "(%s); further ones of this guest are only counted "
                                           "(total_values-names_refused)",
                                x->guest[0] ? "guest " : "", who, m->plugin, m->plugin_instance,
                                m->type, m->type_instance, x->refused);
        else /* collectd would refuse it, once per value, in its own log */
                c_complain_once(LOG_WARNING, &n->type,
                                ZVM_PLUGIN " plugin: %s%s: type \"%s\" %s: refused; further ones "
                                           "are only counted (total_values-type_refused)",
                                x->guest[0] ? "guest " : "", who, m->type,
                                x->ds_num < 0 ? "is not in collectd's types.db (TypesDB must "
                                                "list the project's types.db too)"
                                              : "takes another number of values");
        return false;
}

/*
 * A TOD as collectd's time.  The values of one record, and of one CP entry,
 * share theirs: the last one is kept, and the division in the conversion is
 * made once for them all.
 */
static cdtime_t value_time(struct zvm_dispatch *d, uint64_t tod)
{
        if (tod && tod == d->time_tod)
                return d->time_cd;
        /* TODs before 1970 (a zeroed clock field) cannot be collectd times: use now. */
        int64_t us = tod ? zd_tod_to_unix_us(tod) : -1;
        if (us <= 0)
                return cdtime();
        d->time_tod = tod;
        d->time_cd = US_TO_CDTIME_T((uint64_t)us);
        return d->time_cd;
}

/* What of m is kept until the burst: its values and time (the names are the series'). */
static void stage_values(struct zvm_dispatch *d, struct staged *v, const struct zm_metric *m)
{
        v->nvalues = (uint32_t)m->nvalues;
        for (size_t i = 0; i < m->nvalues; i++) {
                if (m->ds[i] == ZM_GAUGE)
                        v->values[i].gauge = m->gauge[i];
                else
                        v->values[i].derive = (derive_t)m->derive[i];
        }
        v->time = value_time(d, m->tod);
}

static inline void put_name(char *field, const struct series *x, int k)
{
        if (x->len[k] < NAME_COPY)
                memcpy(field, nm(x, k), NAME_COPY);
        else
                memcpy(field, nm(x, k), (size_t)x->len[k] + 1);
}

/* The value list of staged value v: names from its series x. */
static void fill(struct zvm_dispatch *d, const struct series *x, struct staged *v)
{
        value_list_t *vl = &d->vl;
        vl->values = v->values;
        vl->values_len = v->nvalues;
        put_name(vl->plugin, x, N_PLUGIN);
        put_name(vl->plugin_instance, x, N_PINST);
        put_name(vl->type, x, N_TYPE);
        put_name(vl->type_instance, x, N_TINST);
        put_name(vl->host, x, N_HOST);
        vl->time = v->time;
}

/* Once per burst: the engine does not run while its values go out. */
static void set_interval(struct zvm_dispatch *d)
{
        double iv = d->eng ? zm_engine_interval(d->eng) : 0;
        d->vl.interval = iv > 0 ? DOUBLE_TO_CDTIME_T(iv) : 0;
}

/* What the values since the last flush came to, into the shared counters under one lock. */
static void counts_publish(struct zvm_dispatch *d)
{
        struct dsp_counts *k = &d->counts;
        if (!(k->dispatched | k->duplicates | k->filtered | k->nomem | k->collectd_refused |
              k->host_refused | k->names_refused | k->type_refused))
                return;
        struct zvm_stats *st = zvm_stats();
        zvm_stats_lock();
        st->dispatched += k->dispatched;
        st->duplicates += k->duplicates;
        st->filtered += k->filtered;
        st->values_nomem += k->nomem;
        st->collectd_refused += k->collectd_refused;
        st->host_refused += k->host_refused;
        st->names_refused += k->names_refused;
        st->type_refused += k->type_refused;
        zvm_stats_unlock();
        memset(k, 0, sizeof(*k));
}

static void dispatch_one(struct zvm_dispatch *d, struct staged *v)
{
        const struct series *x = &d->s[v->series];
        fill(d, x, v);
        value_list_t *vl = &d->vl;
        struct ident *id = &d->id[x->ident];
        if (id->last && vl->time <= id->last) {
                vl->values = NULL;
                d->counts.duplicates++;
                return;
        }
        id->last = vl->time;
        int rc = plugin_dispatch_values(vl);
        vl->values = NULL; /* the array is the stage's */
        if (rc == 0)
                d->counts.dispatched++;
        else
                d->counts.collectd_refused++;
}

void zvm_dispatch_flush(struct zvm_dispatch *d)
{
        if (!d)
                return;
        bool burst = d->nstage > 0;
        if (burst) {
                set_interval(d);
                for (size_t i = 0; i < d->nstage; i++)
                        dispatch_one(d, &d->stage[i]);
                d->nstage = 0;
        }
        counts_publish(d);
        if (burst && d->after_burst)
                d->after_burst(d->after_ctx); /* nothing staged: it may wait */
}

void zvm_dispatch_after_burst(struct zvm_dispatch *d, void (*fn)(void *), void *ctx)
{
        d->after_burst = fn;
        d->after_ctx = ctx;
}

void zvm_dispatch_metric(void *ctx, const struct zm_metric *m)
{
        struct zvm_dispatch *d = ctx;
        /* Hosts about to be decided again would rewrite the names of series that
         * have values staged: those go out first. */
        const struct dsp_epoch *now = dsp_epoch_now(d);
        const struct dsp_epoch *was = &d->stage_epoch;
        if (d->nstage && (now->system_gen != was->system_gen || now->trust != was->trust ||
                          now->cfg_host != was->cfg_host))
                zvm_dispatch_flush(d);
        keep_order(d);
        struct series *x = dsp_series_of(d, m, now);
        if (!x) {
                d->counts.nomem++;
                return;
        }
        if (!d->ival_first)
                d->ival_first = (size_t)(x - d->s) + 1;
        if (!admitted(d, x, m))
                return;
        if (x->claim_refused)
                d->counts.host_refused++;
        if (!d->stage && !(d->stage = malloc(STAGE_MAX * sizeof(*d->stage)))) {
                struct staged one; /* out of memory: no bursts, every value on its own */
                one.series = (uint32_t)(x - d->s);
                stage_values(d, &one, m);
                set_interval(d);
                dispatch_one(d, &one);
                return;
        }
        if (!d->nstage)
                d->stage_epoch = *now;
        struct staged *v = &d->stage[d->nstage++];
        v->series = (uint32_t)(x - d->s);
        stage_values(d, v, m);
        if (d->nstage == STAGE_MAX)
                zvm_dispatch_flush(d);
}
