/* SPDX-License-Identifier: MIT */
/*
 * File "PATH": a MONWRITE file or a zvmmon capture, replayed once through
 * the same decoder, engine and dispatch as the device, so the values carry
 * their original record times (backfilling history).  The format is
 * detected from the first bytes (zd_stream).
 */
#include "zvm_collectd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zvmdec.h"
#include "zvm.h"

static const char *format_name(enum zd_format f)
{
        const struct zd_source_ops *ops = zd_source_by_fmt(f);
        return ops ? ops->name : "unknown";
}

/* A replay's end: its counts into the shared stats, and one line in the log. */
static void report(const char *path, const struct zd_stream *s, const struct zvm_pace *pace,
                   bool ok, bool stopped)
{
        const struct zd_stats *st = zd_stream_stats(s);
        zvm_stats_lock();
        struct zvm_stats *z = zvm_stats();
        z->sets += st->sets;
        z->bytes += st->bytes;
        if (!ok)
                z->files_failed++;
        else if (!stopped)
                z->files_done++;
        z->replay_waits += pace->waits;
        if (pace->ahead_max > z->replay_ahead)
                z->replay_ahead = pace->ahead_max;
        zvm_stats_unlock();
        if (!ok)
                ERROR(ZVM_PLUGIN " plugin: File \"%s\": not a readable monitor file after %llu "
                                 "data sets and %llu records",
                      path, (unsigned long long)st->sets, (unsigned long long)st->records);
        else if (stopped)
                WARNING(ZVM_PLUGIN " plugin: File \"%s\" (%s): replay stopped by shutdown after "
                                   "%llu data sets and %llu records; the rest was not replayed",
                        path, format_name(zd_stream_format(s)), (unsigned long long)st->sets,
                        (unsigned long long)st->records);
        else
                INFO(ZVM_PLUGIN " plugin: File \"%s\" (%s) replayed: %llu data sets, %llu records, "
                                "%llu decode errors; waited %llu times for collectd's write "
                                "threads, at most %llu value lists ahead of them",
                     path, format_name(zd_stream_format(s)), (unsigned long long)st->sets,
                     (unsigned long long)st->records, (unsigned long long)zd_stats_errors(st),
                     (unsigned long long)pace->waits, (unsigned long long)pace->ahead_max);
}

struct paced {
        struct zvm_pace pace;
        const atomic_bool *stop;
};

static void pace_burst(void *ctx)
{
        struct paced *x = ctx;
        zvm_pace_step(&x->pace, x->stop);
}

/*
 * The file's bytes through the stream; false if they are no readable monitor
 * data.  *stopped: shutdown ended it before the file's end (the stop flag is
 * looked at between chunks only, so a flag set after the last one is no stop).
 */
static bool feed(struct zd_stream *s, struct zvm_pipe *p, FILE *f, uint8_t *buf, const char *path,
                 const atomic_bool *stop, bool *stopped)
{
        *stopped = false;
        for (;;) {
                if (*stop) {
                        *stopped = true;
                        return true;
                }
                size_t got = fread(buf, 1, 1u << 20, f);
                if (got == 0)
                        break;
                if (zd_stream_feed(s, buf, got) < 0)
                        return false;
                zvm_pipe_publish(p);
        }
        if (ferror(f)) {
                ERROR(ZVM_PLUGIN " plugin: File \"%s\": read error: %s", path, strerror(errno));
                return false;
        }
        return zd_stream_finish(s) >= 0;
}

bool zvm_replay_file(struct zvm_pipe *p, const char *path, const atomic_bool *stop)
{
        FILE *f = fopen(path, "rb");
        if (!f) {
                ERROR(ZVM_PLUGIN " plugin: File \"%s\": %s; nothing replayed", path,
                      strerror(errno));
                zvm_stats_add(&zvm_stats()->files_failed, 1);
                return false;
        }
        struct zd_handler h = zvm_pipe_handler(p);
        struct zd_stream *s = zd_stream_new(ZD_FMT_UNKNOWN, &h);
        uint8_t *buf = malloc(1u << 20);
        if (!s || !buf) {
                ERROR(ZVM_PLUGIN " plugin: File \"%s\": out of memory; nothing replayed", path);
                zvm_stats_add(&zvm_stats()->files_failed, 1);
                zd_stream_free(s);
                free(buf);
                fclose(f);
                return false;
        }
        /*
         * Paced after every burst the dispatcher hands over, not after every
         * chunk: the Interval End that closes a CP interval emits all of its
         * values at once, and paced per chunk a replay could run a whole
         * interval of a large system ahead of the writers (doc/many-systems.md).
         */
        struct paced x = {.stop = stop};
        zvm_pace_init(&x.pace, p->cfg->replay_queue);
        zvm_dispatch_after_burst(p->disp, pace_burst, &x);
        bool stopped;
        bool ok = feed(s, p, f, buf, path, stop, &stopped);
        zvm_pipe_publish(p);
        zvm_dispatch_after_burst(p->disp, NULL, NULL); /* x goes with this frame */

        report(path, s, &x.pace, ok, stopped);
        zd_stream_free(s);
        free(buf);
        fclose(f);
        return ok && !stopped;
}
