/* SPDX-License-Identifier: MIT */
/*
 * The pace of a replay and of the monitor device.  plugin_dispatch_values
 * only queues a copy of each value list for collectd's write threads, and
 * the plugin decodes far faster than most writers write: a replay of hours
 * of a large system would grow collectd by a copy of every value list, and
 * one Interval End of a live system closes all of a sample interval's CP
 * values at once.  collectd has no call that tells a plugin
 * how long its write queue is, and WriteQueueLimitHigh drops values, which
 * neither a backfill nor a live system should.  So the plugin leaves a
 * marker in the queue: its own counter of values handed over, as a value
 * list of its own (zvm-replay/total_values-dispatched).  The write thread
 * puts it into collectd's value cache when it takes it off the queue, after
 * everything queued before it, and the cache is what uc_get_value_by_name
 * reads.  The plugin is then at most (handed over - marker's count in the
 * cache) ahead, and waits while that is more than its limit (ReplayQueue,
 * LiveQueue).
 *
 * The device's waits are bounded: CP's data must still be read as it comes.
 * A round (one data set) waits until its deadline at most, and what is left
 * of it then goes out unpaced; monreader keeps up to 255 messages queued
 * meanwhile (doc/facts/kernel-drivers.md 1.5).  The device marks only when the
 * queue could be near its limit, so a small system sends a marker only
 * every LiveQueue/2 value lists.
 *
 * A chain that keeps the marker out of the cache (PreCacheChain) would hold
 * the plugin for ever: the first marker is waited for at most PROBE_S, with
 * the queue still short, and pacing is off, with one warning, if it does not
 * arrive.  Markers are sent again while waiting, in case WriteQueueLimitHigh
 * dropped one.
 */
#include "zvm_collectd.h"

#include <collectd/core/daemon/utils_cache.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "zvm.h"

#define PROBE_S   10.0 /* the first marker's longest way to the cache */
#define REMARK_S  1.0  /* a marker again while waiting this long without progress */
#define POLL_NS   1000000L
#define MARK_TYPE "total_values"
#define MARK_TI   "dispatched"

static uint64_t handed_over(void)
{
        zvm_stats_lock();
        uint64_t n = zvm_stats()->dispatched;
        zvm_stats_unlock();
        return n;
}

static void mark(struct zvm_pace *p, double now)
{
        value_t v = {.derive = (derive_t)handed_over()};
        value_list_t vl = VALUE_LIST_INIT;
        vl.values = &v;
        vl.values_len = 1;
        zvm_strlcpy(vl.host, hostname_g ? hostname_g : "", sizeof(vl.host));
        zvm_strlcpy(vl.plugin, ZVM_PLUGIN, sizeof(vl.plugin));
        zvm_strlcpy(vl.plugin_instance, "replay", sizeof(vl.plugin_instance));
        zvm_strlcpy(vl.type, MARK_TYPE, sizeof(vl.type));
        zvm_strlcpy(vl.type_instance, MARK_TI, sizeof(vl.type_instance));
        if (!p->name[0])
                snprintf(p->name, sizeof(p->name), "%s/%s-replay/%s-%s", vl.host, ZVM_PLUGIN,
                         MARK_TYPE, MARK_TI);
        if (plugin_dispatch_values(&vl) != 0)
                return;
        if (!p->marks++)
                p->first_mark = now;
        p->last_mark = now;
}

/* The newest marker's count in collectd's cache into p->seen; true if it moved on. */
static bool refresh(struct zvm_pace *p)
{
        value_t *v = NULL;
        size_t n = 0;
        if (uc_get_value_by_name(p->name, &v, &n) != 0 || n != 1) {
                free(v);
                return false;
        }
        uint64_t seen = (uint64_t)v[0].derive;
        free(v);
        p->probed = true;
        if (seen == p->seen)
                return false;
        p->seen = seen;
        return true;
}

static void nap(void)
{
        struct timespec ts = {0, POLL_NS};
        nanosleep(&ts, NULL);
}

void zvm_pace_init(struct zvm_pace *p, uint64_t limit)
{
        *p = (struct zvm_pace){.limit = limit, .who = "File replay", .option = "ReplayQueue"};
}

void zvm_pace_round(struct zvm_pace *p, double deadline)
{
        p->deadline = deadline;
        p->cut = false;
}

/*
 * After each burst (at most STAGE_MAX value lists, and a data set's last):
 * a marker behind it, and a wait while the plugin is more than limit value
 * lists ahead of the write threads, until it is half that (a wait per burst
 * would poll for each).  Markers go out with every burst so that the count
 * in the cache moves on burst by burst while the queue drains, and the
 * writers never run dry during a wait; a quiet pace (the device) skips them
 * while even the last count seen leaves it within half its limit.
 */
void zvm_pace_step(struct zvm_pace *p, const atomic_bool *stop)
{
        if (!p->limit || p->off || p->cut)
                return;
        if (p->marks)
                (void)refresh(p);
        uint64_t ahead = handed_over() - p->seen;
        if (p->quiet && ahead <= p->limit / 2)
                return;
        double now = zvm_monotonic();
        mark(p, now);
        if (ahead > p->ahead_max)
                p->ahead_max = ahead;
        if (ahead <= p->limit)
                return;
        p->waits++;
        double last_progress = now;
        while (!*stop) {
                nap();
                now = zvm_monotonic();
                if (refresh(p))
                        last_progress = now;
                if (!p->probed && now - p->first_mark > PROBE_S) {
                        p->off = true;
                        WARNING(ZVM_PLUGIN " plugin: %s: its marker (%s) did not reach "
                                           "collectd's value cache in %.0f s (a PreCacheChain that "
                                           "drops it?); it goes on without waiting for the write "
                                           "threads (%s)",
                                p->who, p->name, PROBE_S, p->option);
                        return;
                }
                if (handed_over() - p->seen <= p->limit / 2)
                        return;
                /* while no marker has come through, the probe decides (a chain that drops
                   them is not a slow writer) */
                if (p->deadline > 0 && now >= p->deadline && p->probed) {
                        p->cut = true;
                        p->cuts++;
                        return;
                }
                /* WriteQueueLimitHigh may have dropped the marker the wait is for */
                if (now - last_progress > REMARK_S && now - p->last_mark > REMARK_S)
                        mark(p, now);
        }
}
