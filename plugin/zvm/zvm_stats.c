/* SPDX-License-Identifier: MIT */
/*
 * Self-metrics: what the reader saw and refused, as plugin "zvm", instance
 * "reader".  The worker thread updates the counters, the read callback
 * reports them; a mutex keeps each report consistent.
 */
#include "zvm_collectd.h"

#include <stdio.h>
#include <string.h>

#include "zvmdec.h"
#include "zvm.h"
#include "self_metric.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct zvm_stats stats;

void zvm_stats_lock(void)
{
        pthread_mutex_lock(&lock);
}

void zvm_stats_unlock(void)
{
        pthread_mutex_unlock(&lock);
}

void zvm_stats_add(uint64_t *field, uint64_t n)
{
        zvm_stats_lock();
        *field += n;
        zvm_stats_unlock();
}

struct zvm_stats *zvm_stats(void)
{
        return &stats;
}

void zvm_stats_reset(void)
{
        zvm_stats_lock();
        memset(&stats, 0, sizeof(stats));
        zvm_stats_unlock();
}

static void submit(const char *type, const char *tinst, value_t v)
{
        self_metric(ZVM_PLUGIN, "reader", type, tinst, v);
}

static void derive(const char *type, const char *tinst, uint64_t x)
{
        submit(type, tinst, (value_t){.derive = (derive_t)x});
}

static void gauge(const char *type, const char *tinst, double x)
{
        submit(type, tinst, (value_t){.gauge = x});
}

/* ShareSocket's, only while it serves: a collector without it shows no empty series. */
static void submit_share(const struct zvm_stats *s)
{
        if (!s->share_on)
                return;
        gauge("gauge", "share_readers", (double)s->share_readers);
        derive("total_events", "share_drops", s->share_drops);
        derive("total_events", "share_refused", s->share_refused);
        derive("total_bytes", "shared", s->share_bytes);
}

static void submit_errors(const struct zvm_stats *s)
{
        uint64_t all = 0;
        for (int k = 1; k < ZD_E__COUNT; k++) {
                all += s->decode_errors[k];
                /* Every kind once seen stays reported, so graphs have no holes. */
                if (s->decode_errors[k]) {
                        char ti[DATA_MAX_NAME_LEN];
                        snprintf(ti, sizeof(ti), "decode-%s", zd_err_name((enum zd_err_kind)k));
                        derive("errors", ti, s->decode_errors[k]);
                }
        }
        derive("errors", "decode", all);
}

void zvm_stats_submit(void)
{
        struct zvm_stats s;
        zvm_stats_lock();
        s = stats;
        zvm_stats_unlock();

        derive("total_objects", "datasets", s.sets);
        derive("total_objects", "records", s.records);
        derive("total_bytes", "input", s.bytes);
        derive("total_events", "discarded_eio", s.discarded_eio);
        derive("total_events", "discarded_efault", s.discarded_efault);
        derive("total_events", "oversized", s.oversized);
        derive("total_events", "discarded_nomem", s.discarded_nomem);
        derive("total_events", "empty_sets", s.empty_sets);
        derive("total_events", "discarded_short", s.discarded_short);
        derive("total_events", "overflow", s.overflows);
        derive("total_events", "reconnects", s.reconnects);
        derive("total_events", "open_failures", s.open_failures);
        derive("total_events", "device_errors", s.device_errors);
        derive("total_objects", "files", s.files_done);
        derive("total_events", "file_failures", s.files_failed);
        derive("total_events", "replay_waits", s.replay_waits);
        gauge("queue_length", "replay_ahead", (double)s.replay_ahead);
        derive("total_events", "live_waits", s.live_waits);
        derive("total_events", "live_cuts", s.live_cuts);
        gauge("queue_length", "live_ahead", (double)s.live_ahead);
        derive("total_values", "dispatched", s.dispatched);
        derive("total_values", "filtered", s.filtered);
        derive("total_values", "dropped_nomem", s.values_nomem);
        derive("total_values", "collectd_refused", s.collectd_refused);
        derive("total_values", "duplicate", s.duplicates);
        derive("total_values", "host_refused", s.host_refused);
        derive("total_values", "names_refused", s.names_refused);
        derive("total_values", "type_refused", s.type_refused);
        derive("total_values", "series_capped", s.engine.series_capped);
        derive("total_values", "appl_sync", s.engine.appl_sync);
        derive("total_values", "appl_stale", s.engine.appl_stale);
        derive("total_values", "appl_bad", s.engine.appl_bad);
        derive("total_values", "appl_unknown", s.engine.appl_unknown);
        derive("total_values", "appl_untracked", s.engine.appl_untracked);
        derive("total_values", "appl_future", s.engine.appl_future);
        derive("total_values", "timer_resets", s.engine.timer_resets);
        derive("total_values", "hint_suppressed", s.engine.hint_suppressed);
        derive("total_values", "procd_torn", s.engine.procd_torn);
        submit_errors(&s);
        submit_share(&s);
        gauge("gauge", "connected", s.connected ? 1 : 0);
        if (s.last_set_time > 0)
                gauge("timestamp", "last_dataset", s.last_set_time);
}
