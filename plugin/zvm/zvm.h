/* SPDX-License-Identifier: MIT */
/*
 * The zvm collectd read plugin, internal interfaces.
 *
 *   zvm_plugin.c    module_register, init, read (watchdog + self-metrics), shutdown
 *   zvm_config.c    the <Plugin zvm> block
 *   zvm_pipe.c      decoder -> metric engine -> dispatcher, and its counts
 *   zvm_reader.c    the device thread: /dev/monreader data sets, errors, reconnects
 *   zvm_replay.c    File "PATH": MONWRITE files and captures replayed once
 *   zvm_pace.c      a replay (ReplayQueue) or the device (LiveQueue) held to a
 *                   number of value lists ahead of the writers
 *   zvm_share.c     ShareSocket: the device's data sets to local readers
 *   zvm_dispatch.c  zm_metric -> value_list_t (host naming, time, filters, dedup),
 *                   over zvm_series.c, zvm_host.c, zvm_series_text.c (zvm_dispatch.h)
 *   zvm_stats.c     counters shared between the thread and the read callback
 *
 * One worker thread owns the decoder, the metric engine and the device; the
 * read callback only supervises it and reports the counters.
 */
#ifndef ZVM_PLUGIN_H
#define ZVM_PLUGIN_H

#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "zvmdec.h"

#define ZVM_PLUGIN          "zvm"
#define ZVM_DEFAULT_DEVICE  "/dev/monreader"
#define ZVM_DEFAULT_MAX_SET (64u * 1024 * 1024)
/*
 * collectd queues a copy of every value list (five names of 128 bytes and
 * the rest): the limit keeps that copy count bounded, yet high enough that
 * the writers never wait for a backfill.
 */
#define ZVM_DEFAULT_REPLAY_QUEUE 50000 /* and LiveQueue's */
/*
 * SeriesIdleTimeout's default: collectd's Timeout plus this many sample
 * intervals, slack for a guest's stamps that lag CP's interval and for
 * collectd's timeout check, which runs once per its own read interval.
 */
#define ZVM_IDLE_PAST_TIMEOUT    3
#define ZVM_DEFAULT_SHARE_PERMS  0660
#define ZVM_DEFAULT_SHARE_BUFFER (16u * 1024 * 1024)

/* Filters on (domain, record): record -1 = any record of the domain. */
struct zvm_recfilter {
        int domain, record;
};

struct zvm_hostmap {
        char userid[9]; /* upper case */
        char *host;
};

/* TrustedGuestHost: the host names a guest may give its own write_zvm data. */
struct zvm_trust {
        char userid[9]; /* upper case */
        char **hosts;
        size_t nhosts;
};

struct zvm_config {
        char *device; /* NULL: no device (File only) */
        char **files;
        size_t nfiles;
        size_t max_set;     /* largest data set kept, bytes */
        double retry_min;   /* first reopen delay, s */
        double retry_max;   /* backoff cap, s */
        char *host;         /* CP data host; NULL = system id from D1R4, else collectd's */
        char *guest_format; /* "%u": %u lower userid, %U as written, %% */
        struct zvm_hostmap *map;
        size_t nmap;
        struct zvm_trust *trust;
        size_t ntrust;
        struct zvm_recfilter *inc_rec, *exc_rec;
        size_t ninc_rec, nexc_rec;
        char **inc_guest, **exc_guest;
        size_t ninc_guest, nexc_guest;
        bool report_stats;
        uint64_t replay_queue;    /* ReplayQueue: value lists a replay may be ahead; 0 = any */
        uint64_t live_queue;      /* LiveQueue: the same for the device; 0 = any */
        char *share_path;         /* ShareSocket; NULL: no live view for local readers */
        char *share_group;        /* ShareSocketGroup; NULL: collectd's own */
        unsigned share_perms;     /* ShareSocketPerms */
        uint64_t share_buffer;    /* ShareBuffer: bytes a reader may fall behind */
        bool layouts_loaded;      /* LayoutFile registered layouts (freed at shutdown) */
        struct zm_procsel *procs; /* Process, ProcessMatch (engine.procs points here) */
        struct zm_options engine;
        uint64_t given; /* the options of one value seen so far, by their place in the table */
};

void zvm_config_defaults(struct zvm_config *c);
void zvm_config_free(struct zvm_config *c);
/* Parse "D0R2", "0:2", "0" or "D10" into a filter; false if malformed. */
bool zvm_parse_recfilter(const char *s, struct zvm_recfilter *out);
/* Expand GuestHostFormat for userid (CP's upper case); false if it does not fit. */
bool zvm_guest_host(const struct zvm_config *c, const char *userid, char *out, size_t outsz);

/* ---- counters (zvm_stats.c) ---- */
struct zvm_stats {
        uint64_t sets, bytes, records;
        uint64_t discarded_eio, discarded_efault, oversized, overflows;
        uint64_t discarded_nomem; /* data sets dropped because their buffer could not grow */
        uint64_t empty_sets;      /* 0-byte reads with nothing before them */
        uint64_t discarded_short; /* sample sets without their Interval End */
        uint64_t opens, reconnects, open_failures;
        uint64_t device_errors; /* read and poll errors not the driver's own: the device reopened */
        uint64_t dispatched, duplicates;
        uint64_t filtered;         /* values the Include and Exclude options left out */
        uint64_t values_nomem;     /* values dropped: no memory for their series */
        uint64_t collectd_refused; /* value lists plugin_dispatch_values refused */
        uint64_t host_refused;     /* values whose guest-written host name was not honoured */
        uint64_t names_refused;    /* values a guest wrote under names it may not use */
        uint64_t type_refused;     /* values whose type collectd does not know or takes otherwise */
        uint64_t files_done;       /* File replays that reached the file's end */
        uint64_t files_failed;     /* Files that could not be opened, read or decoded */
        uint64_t replay_waits;     /* times a replay waited for collectd's write threads */
        uint64_t replay_ahead;     /* the most value lists a replay was ahead of them */
        uint64_t live_waits;       /* times the device's reader waited for them (LiveQueue) */
        uint64_t live_ahead;       /* the most value lists it was ahead of them when it looked */
        uint64_t live_cuts;        /* data sets whose waits reached their time limit */
        bool share_on;             /* ShareSocket is serving: its counters are reported */
        uint64_t share_readers;    /* readers connected now */
        uint64_t share_drops;      /* readers dropped for falling behind by ShareBuffer */
        uint64_t share_refused;    /* readers refused: all places taken */
        uint64_t share_bytes;      /* bytes sent to readers */
        uint64_t decode_errors[ZD_E__COUNT];
        struct zm_counters engine;
        double last_set_time; /* Unix seconds of the last good data set, 0 = none */
        bool connected;
};
void zvm_stats_lock(void);
void zvm_stats_unlock(void);
/* One counter up by n, under the lock (the self-metrics are read by the read callback). */
void zvm_stats_add(uint64_t *field, uint64_t n);
/* The live counters; only touch them between lock and unlock. */
struct zvm_stats *zvm_stats(void);
void zvm_stats_reset(void);
/* Dispatch the self-metrics (plugin "zvm", instance "reader"). */
void zvm_stats_submit(void);

/* ---- dispatch (zvm_dispatch.c) ---- */
struct zvm_dispatch;
struct zvm_dispatch *zvm_dispatch_new(const struct zvm_config *c);
void zvm_dispatch_free(struct zvm_dispatch *d);
/* The engine the metrics come from (system name, interval). */
void zvm_dispatch_set_engine(struct zvm_dispatch *d, const struct zm_engine *e);
/* A zm_emit_fn: filters and names one metric, and stages it for the next burst. */
void zvm_dispatch_metric(void *ctx, const struct zm_metric *m);
/*
 * Hand the staged values to collectd, in the order they came (once per data
 * set), and add what the values came to since the last flush to the counters.
 */
void zvm_dispatch_flush(struct zvm_dispatch *d);
/*
 * fn(ctx) after every burst handed to collectd (NULL: none): a replay's pace,
 * which must hold inside a record too, since one Interval End closes all of
 * a sample interval's CP values.
 */
void zvm_dispatch_after_burst(struct zvm_dispatch *d, void (*fn)(void *), void *ctx);
/* A sample interval's values are all in (after the engine closed it): lays series out. */
void zvm_dispatch_interval_end(struct zvm_dispatch *d);
/* A zm_log_fn that goes to collectd's log. */
void zvm_engine_log(void *ctx, int level, const char *msg);

/* ---- the pipeline: decoder + engine + dispatch (zvm_pipe.c) ---- */
struct zvm_pipe {
        const struct zvm_config *cfg;
        struct zvm_dispatch *disp;
        struct zm_engine *eng;
        struct zd_decoder dec;
        uint64_t set_index;
        uint64_t offset;
        bool watch_config; /* ShareSocket: note configuration records (the handler checks) */
        bool config_seen;  /* a D1R4 or D1R1 record came since the reader cleared it */
};
bool zvm_pipe_init(struct zvm_pipe *p, const struct zvm_config *c);
void zvm_pipe_destroy(struct zvm_pipe *p);
/* The handler that feeds decoded records into the engine. */
struct zd_handler zvm_pipe_handler(struct zvm_pipe *p);
/* Copy engine and decoder counters into the shared stats. */
void zvm_pipe_publish(struct zvm_pipe *p);

/* ---- pace (zvm_pace.c): a replay's, and the device's ---- */
struct zvm_pace {
        uint64_t limit;  /* 0: no pacing */
        bool quiet;      /* a marker only when the count could be near the limit (the device) */
        double deadline; /* monotonic s: no wait past it in this round (zvm_pace_round); 0: none */
        const char *who; /* for the log: "File replay", "the monitor device" */
        const char *option; /* the limit's option, for the log: "ReplayQueue", "LiveQueue" */
        uint64_t seen;      /* the newest marker's count in collectd's cache */
        uint64_t marks, waits, ahead_max;
        uint64_t cuts;                /* rounds whose wait reached the deadline */
        double first_mark, last_mark; /* monotonic s */
        bool probed;                  /* a marker reached the cache */
        bool off;                     /* none did in time: pacing given up */
        bool cut;                     /* this round reached its deadline: no more waits in it */
        char name[5 * 128];           /* the marker's identifier, as the cache names it (5 names) */
};
void zvm_pace_init(struct zvm_pace *p, uint64_t limit);
/* A round begins (the device: a data set); its waits end by deadline (monotonic s, 0: none). */
void zvm_pace_round(struct zvm_pace *p, double deadline);
/* After a burst: mark it, and wait while too far ahead of the writers. */
void zvm_pace_step(struct zvm_pace *p, const atomic_bool *stop);

/* ---- ShareSocket (zvm_share.c): the device's data sets to local readers ---- */
struct zvm_share;
/* The socket made and listening (mode, group); NULL, said in the log, when it cannot be. */
struct zvm_share *zvm_share_open(const struct zvm_config *c);
/*
 * A complete data set to every reader (the read thread): copied once, queued
 * for each, a reader further behind than ShareBuffer dropped.  NULL share or
 * no reader: nothing but that check.  Returns the frame's time (Unix us), 0
 * when nobody took it.
 */
int64_t zvm_share_put(struct zvm_share *sh, const uint8_t *set, size_t n);
/* The set put last held configuration records: kept for readers that come later
 * (us: the time zvm_share_put gave it, 0: now). */
void zvm_share_config(struct zvm_share *sh, const uint8_t *set, size_t n, int64_t us);
/* The writer thread's body (zvm_plugin.c starts it): turns until zvm_share_stop. */
void *zvm_share_thread(void *sh);
/* One turn of it: accept, send, close readers that left or fell behind; waits up to ms. */
void zvm_share_turn(struct zvm_share *sh, int ms);
void zvm_share_stop(struct zvm_share *sh);
/* After the thread ended: every reader closed, the socket removed. */
void zvm_share_close(struct zvm_share *sh);

/* ---- the device reader (zvm_reader.c) ---- */
/* System calls, replaceable by the unit tests. */
struct zvm_sys {
        int (*open)(const char *path, int flags);
        ssize_t (*read)(int fd, void *buf, size_t n);
        int (*poll)(struct pollfd *fds, nfds_t n, int timeout_ms);
        int (*close)(int fd);
        /* What an open fd is if not the monitor device ("a directory"), else NULL. */
        const char *(*not_device)(int fd);
};
extern const struct zvm_sys zvm_sys_real;

struct zvm_reader {
        const struct zvm_config *cfg;
        const struct zvm_sys *sys;
        struct zvm_pipe *pipe;
        int fd;
        uint8_t *buf;
        size_t n, cap;
        bool oversized;          /* the current set passed max_set: its bytes are being skipped */
        bool poisoned;           /* EFAULT hit the current set: the rest of it is skipped */
        bool nomem;              /* the buffer could not grow: the rest of the set is skipped */
        bool in_set;             /* bytes were read since the last 0-byte read */
        double backoff;          /* current reopen delay, s */
        double next_open;        /* monotonic time of the next open attempt */
        struct zvm_pace pace;    /* LiveQueue */
        const atomic_bool *stop; /* shutdown: ends a wait of the pace (never NULL) */
        struct zvm_share *share; /* ShareSocket, NULL: none */
};
void zvm_reader_init(struct zvm_reader *r, const struct zvm_config *c, const struct zvm_sys *sys,
                     struct zvm_pipe *pipe);
void zvm_reader_close(struct zvm_reader *r);
/*
 * One turn: open the device if it is time, wait up to poll_ms for data, read
 * what is there.  Returns the number of milliseconds the caller may sleep
 * before the next turn (0 = call again now).
 */
int zvm_reader_step(struct zvm_reader *r, int poll_ms, double now);

/* ---- replay (zvm_replay.c) ---- */
/* Replay one file through the pipe; false (logged) if it could not be read, or shutdown
 * stopped it before its end. */
bool zvm_replay_file(struct zvm_pipe *p, const char *path, const atomic_bool *stop);

/*
 * Seconds on CLOCK_MONOTONIC: the reader's reopen times, the pace's waits.
 * Here rather than in either file, as the reader calls into the pace.
 */
static inline double zvm_monotonic(void)
{
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Copy with truncation, always terminated (no daemon symbol needed). */
static inline void zvm_strlcpy(char *dst, const char *src, size_t n)
{
        size_t i = 0;
        for (; n && i + 1 < n && src[i]; i++)
                dst[i] = src[i];
        if (n)
                dst[i] = 0;
}

#endif
