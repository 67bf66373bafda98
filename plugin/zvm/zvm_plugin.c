/* SPDX-License-Identifier: MIT */
/*
 * LoadPlugin zvm: collectd registration.  init starts one worker thread
 * (plugin_thread_create, so it inherits the plugin context) that replays the
 * configured files and then owns the device; init never fails because the
 * device is missing or busy, the worker retries.  The read callback is a
 * watchdog that restarts a worker that died (at every read until a restart
 * succeeds), and reports the self-metrics.
 * shutdown sets the stop flag, wakes the worker and joins it: the worker
 * never blocks longer than one poll period (1 s).
 * ShareSocket's writer (zvm_share.c) is a thread of its own, started at
 * init and stopped after the worker: a worker restarted by the watchdog
 * goes on feeding the same readers.
 */
#include "zvmdec.h"
#include "zvm_collectd.h"

#include <errno.h>
#include <string.h>

#include "zvm.h"

#define POLL_MS 1000

static struct zvm_config cfg;
static bool configured;

static pthread_mutex_t wlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wcond = PTHREAD_COND_INITIALIZER;
static pthread_t worker_tid;
static bool worker_running; /* a thread exists that must be joined */
static atomic_bool worker_exited;
static atomic_bool stop_flag;
static bool replayed;           /* files are replayed once per daemon life, not per restart */
static struct zvm_share *share; /* ShareSocket, NULL: none */
static pthread_t share_tid;
static c_complain_t restart_complaint = C_COMPLAIN_INIT_STATIC;

/* The defaults, once: before the first option, or at init when the block has none. */
static void ensure_config(void)
{
        if (!configured) {
                zvm_config_defaults(&cfg);
                configured = true;
        }
}

static int zvm_config_cb(oconfig_item_t *ci)
{
        ensure_config();
        /* Every bad option gets its own message, as write_zvm and collectd's own plugins do. */
        int bad = 0;
        for (int i = 0; i < ci->children_num; i++)
                if (zvm_config_item(&cfg, &ci->children[i]) != 0)
                        bad++;
        if (bad)
                ERROR(ZVM_PLUGIN " plugin: %d option(s) of the <Plugin zvm> block refused", bad);
        return bad ? -1 : 0;
}

/* Sleep up to ms, returning early when shutdown asks. */
static void wait_ms(int ms)
{
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        zd_timespec_add_ns(&ts, (uint64_t)ms * 1000000);
        pthread_mutex_lock(&wlock);
        while (!stop_flag && pthread_cond_timedwait(&wcond, &wlock, &ts) != ETIMEDOUT)
                ;
        pthread_mutex_unlock(&wlock);
}

static void *worker(void *arg)
{
        (void)arg;
        struct zvm_pipe pipe;
        if (!zvm_pipe_init(&pipe, &cfg)) {
                ERROR(ZVM_PLUGIN " plugin: out of memory starting the reader");
                worker_exited = true;
                return NULL;
        }
        if (!replayed) {
                for (size_t i = 0; i < cfg.nfiles && !stop_flag; i++)
                        zvm_replay_file(&pipe, cfg.files[i], &stop_flag);
                replayed = true;
        }
        if (cfg.device) {
                struct zvm_reader r;
                zvm_reader_init(&r, &cfg, &zvm_sys_real, &pipe);
                r.stop = &stop_flag;
                r.share = share;
                while (!stop_flag) {
                        int ms = zvm_reader_step(&r, POLL_MS, zvm_monotonic());
                        zvm_pipe_publish(&pipe);
                        if (ms > 0)
                                wait_ms(ms);
                }
                zvm_reader_close(&r);
        }
        zvm_pipe_destroy(&pipe);
        worker_exited = true;
        return NULL;
}

/* restart: the watchdog's, whose failure is said once while it lasts (it retries each read). */
static int start_worker(bool restart)
{
        worker_exited = false;
        int rc = plugin_thread_create(&worker_tid, worker, NULL, "zvm reader");
        if (rc != 0) {
                if (restart)
                        c_complain(LOG_ERR, &restart_complaint,
                                   ZVM_PLUGIN " plugin: cannot restart the reader thread: %s; "
                                              "trying again at every read",
                                   strerror(rc));
                else
                        ERROR(ZVM_PLUGIN " plugin: cannot start the reader thread: %s",
                              strerror(rc));
                return -1;
        }
        worker_running = true;
        if (restart)
                c_release(LOG_NOTICE, &restart_complaint,
                          ZVM_PLUGIN " plugin: the reader thread restarted");
        return 0;
}

/* ShareSocket: the socket and its writer thread; the plugin reads on without them. */
static void start_share(void)
{
        if (!cfg.share_path)
                return;
        if (!cfg.device) {
                WARNING(ZVM_PLUGIN " plugin: ShareSocket %s: no Device, so nothing to share (File "
                                   "replays are not shared)",
                        cfg.share_path);
                return;
        }
        if (!(share = zvm_share_open(&cfg)))
                return;
        int rc = plugin_thread_create(&share_tid, zvm_share_thread, share, "zvm share");
        if (rc != 0) {
                ERROR(ZVM_PLUGIN " plugin: ShareSocket %s: cannot start its thread: %s; no live "
                                 "view",
                      cfg.share_path, strerror(rc));
                zvm_share_close(share);
                share = NULL;
        }
}

static void stop_share(void)
{
        if (!share)
                return;
        zvm_share_stop(share);
        pthread_join(share_tid, NULL);
        zvm_share_close(share);
        share = NULL;
}

static int zvm_init(void)
{
        ensure_config();
        if (zvm_config_finish(&cfg) != 0)
                return -1;
        zvm_stats_reset();
        C_COMPLAIN_INIT(&restart_complaint);
        stop_flag = false;
        if (cfg.device)
                INFO(ZVM_PLUGIN " plugin: reading %s%s", cfg.device,
                     cfg.nfiles ? " after replaying the configured files" : "");
        start_share();
        return start_worker(false);
}

/* The worker only ends by itself when it has a device and failed. */
static void watchdog(void)
{
        if (!cfg.device || stop_flag)
                return;
        if (worker_running && worker_exited) {
                pthread_join(worker_tid, NULL);
                worker_running = false;
                WARNING(ZVM_PLUGIN " plugin: the reader thread ended unexpectedly; restarting it");
        }
        /* A restart that failed is tried again: nothing else would ever read the device. */
        if (!worker_running)
                start_worker(true);
}

static int zvm_read(void)
{
        watchdog();
        if (cfg.report_stats)
                zvm_stats_submit();
        return 0;
}

static int zvm_shutdown(void)
{
        pthread_mutex_lock(&wlock);
        stop_flag = true;
        pthread_cond_broadcast(&wcond);
        pthread_mutex_unlock(&wlock);
        if (worker_running) {
                pthread_join(worker_tid, NULL);
                worker_running = false;
        }
        stop_share(); /* after the worker: nothing puts a set any more */
        if (configured) {
                if (cfg.layouts_loaded)
                        zl_file_unload_all();
                zvm_config_free(&cfg);
                configured = false;
        }
        return 0;
}

__attribute__((visibility("default"))) void module_register(void)
{
        plugin_register_complex_config(ZVM_PLUGIN, zvm_config_cb);
        plugin_register_init(ZVM_PLUGIN, zvm_init);
        plugin_register_read(ZVM_PLUGIN, zvm_read);
        plugin_register_shutdown(ZVM_PLUGIN, zvm_shutdown);
}
