/* SPDX-License-Identifier: MIT */
/*
 * write_zvm: a collectd write plugin that publishes collectd's values to
 * z/VM as LNXAPPL application monitor records through /dev/monwriter
 * (doc/write_zvm.md).
 *
 * collectd's write threads only filter, convert and queue (a bounded queue;
 * drops are counted).  One writer thread owns the device: it keeps the
 * latest value of every identifier and writes each record once per
 * WriteInterval, because z/VM copies the buffers only at its own sample
 * interval and every rewrite opens another window for a torn copy.  The
 * device stays open for the plugin's lifetime: closing it stops every record.
 */
#include <collectd/core/daemon/collectd.h>
#include <collectd/core/daemon/plugin.h>
#include <collectd/core/daemon/utils_cache.h>
#include <collectd/core/daemon/utils_complain.h>
#include <collectd/core/daemon/utils_time.h>
#include <collectd/liboconfig/oconfig.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "complaint.h"
#include "plugin_options.h"
#include "zvmdec.h"
#include "self_metric.h"
#include "write_zvm_core.h"

#define PLUGIN "write_zvm"

static struct wz_config {
        char device[256];
        int applid;
        bool store_rates;
        double write_interval; /* 0: collectd's interval */
        double retry;
        double timeout; /* values older than timeout x their interval are dropped */
        int queue_length;
        int max_records;
        bool report_stats;
        double shutdown_timeout; /* seconds for the last pass when collectd stops */
        struct wz_filter filter;
} cfg = {"/dev/monwriter", WZVM_DEFAULT_APPLID, false, 0, 60, 2, 8192, 32, true, 5, {0}};

static struct wz_queue queue;
static struct wz_writer writer;
static struct wz_table table;
static pthread_t thread;
static bool thread_running;
static int fd = -1;

/* Counters the read callback reports; the writer thread copies its own in after each pass. */
static pthread_mutex_t stats_mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
        uint64_t dropped_name, dropped_invalid, dropped_nomem, dropped_rate, dropped_space,
            dropped_expired, merged, starts, updates, stops, errors, records;
        uint64_t table_nomem; /* the writer thread's part of dropped_nomem */
} stats;
/* c_complain keeps its state unlocked, and collectd may run several write threads */
static pthread_mutex_t complain_mu = PTHREAD_MUTEX_INITIALIZER;

static double mono_now(void)
{
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * collectd's stop (wz_shutdown) and the writer thread, under queue.mu.  The
 * last pass has ShutdownTimeout seconds.  A write() to the device cannot be
 * cut short (DIAGNOSE X'DC' holds the CPU, and a busy CP may take seconds a
 * record), so a deadline that finds the thread inside one sees collectd go
 * on stopping without it.  From then on the thread may neither log (collectd
 * takes its log callbacks down) nor free anything; it closes the device
 * when its write returns, or the process's end does.  It is left behind only
 * inside a device call, so whatever it logs, it logs before the shutdown
 * returns.
 */
static pthread_cond_t done_cv;
static struct {
        double deadline; /* CLOCK_MONOTONIC seconds; 0 while collectd runs */
        bool in_device;  /* the writer thread is inside open() or write() of the device */
        bool done;       /* the writer thread has finished */
        bool late;       /* the deadline cut its last pass short */
        bool left;       /* the shutdown went on without it */
        size_t owed;     /* values no record the device accepted holds, queued ones too */
} shut;

/* queue.mu held */
static bool past_deadline(void)
{
        return shut.deadline > 0 && mono_now() >= shut.deadline;
}

/* wz_dev.late */
static bool dev_late(void *ctx)
{
        (void)ctx;
        pthread_mutex_lock(&queue.mu);
        bool late = past_deadline();
        pthread_mutex_unlock(&queue.mu);
        return late;
}

/* The writer thread may enter a device call: not once the deadline passed. */
static bool device_enter(void)
{
        pthread_mutex_lock(&queue.mu);
        bool ok = !past_deadline();
        shut.in_device = ok;
        pthread_mutex_unlock(&queue.mu);
        return ok;
}

/* Out of the device call: false when the shutdown went on without the thread meanwhile. */
static bool device_leave(void)
{
        pthread_mutex_lock(&queue.mu);
        shut.in_device = false;
        bool stays = !shut.left;
        pthread_mutex_unlock(&queue.mu);
        return stays;
}

static ssize_t dev_write(void *ctx, const void *p, size_t n)
{
        int *pfd = ctx;
        if (!device_enter()) {
                errno = ETIMEDOUT;
                return -1;
        }
        ssize_t rc;
        do
                rc = write(*pfd, p, n);
        while (rc < 0 && errno == EINTR);
        int err = errno;
        (void)device_leave(); /* the pass asks dev.late before it says anything */
        errno = err;
        return rc;
}

/* ---------------- configuration ---------------- */

/*
 * Seconds are bounded: the writer turns them into nanoseconds (uint64_t) for
 * its waits and WriteInterval into milliseconds (uint32_t) for the records'
 * headers, and an unbounded double (1e999 parses as infinity) overflows both.
 */
#define WZ_MAX_SECONDS 86400.0
#define WZ_MAX_TIMEOUT 1000.0

/* Refused, not cut short: a truncated path would name another file. */
static int cfg_device(void *cfgp, const oconfig_item_t *ci)
{
        struct wz_config *c = cfgp;
        size_t n = 0;
        if (ci->values_num == 1 && ci->values[0].type == OCONFIG_TYPE_STRING)
                n = strlen(ci->values[0].value.string);
        if (n < 1 || n >= sizeof(c->device)) {
                ERROR(PLUGIN " plugin: Device needs one path of 1 to %zu bytes.",
                      sizeof(c->device) - 1);
                return -1;
        }
        memcpy(c->device, ci->values[0].value.string, n + 1);
        return 0;
}

static int cfg_applid(void *cfgp, const oconfig_item_t *ci)
{
        struct wz_config *c = cfgp;
        double d;
        if (popt_number(PLUGIN, ci, 1, 65535, true, &d))
                return -1;
        if (d == 1 || d == 2) {
                ERROR(PLUGIN " plugin: ApplicationID %d belongs to s390-tools' %s; choose another "
                             "(default %d).",
                      (int)d, d == 1 ? "mon_fsstatd" : "mon_procd", WZVM_DEFAULT_APPLID);
                return -1;
        }
        c->applid = (int)d;
        return 0;
}

static int cfg_filter(void *cfgp, const oconfig_item_t *ci)
{
        struct wz_config *c = cfgp;
        bool include = strcasecmp(ci->key, "Include") == 0;
        if (ci->values_num < 1) {
                ERROR(PLUGIN " plugin: %s needs at least one \"plugin\" or \"plugin/type\".",
                      ci->key);
                return -1;
        }
        for (int i = 0; i < ci->values_num; i++) {
                if (ci->values[i].type != OCONFIG_TYPE_STRING ||
                    !wz_filter_add(&c->filter, include, ci->values[i].value.string)) {
                        ERROR(PLUGIN " plugin: %s: argument %d is not \"plugin\" or "
                                     "\"plugin/type\" (names or \"*\", no other '/').",
                              ci->key, i + 1);
                        return -1;
                }
        }
        return 0;
}

#define AT(field) POPT_AT(struct wz_config, field)

/* Every option of the <Plugin write_zvm> block (doc/write_zvm.md). */
static const struct popt options[] = {
    {"Device", POPT_PARSE, .parse = cfg_device},
    {"ApplicationID", POPT_PARSE, .parse = cfg_applid},
    {"Include", POPT_PARSE, .repeats = true, .parse = cfg_filter},
    {"Exclude", POPT_PARSE, .repeats = true, .parse = cfg_filter},
    {"StoreRates", POPT_BOOL, AT(store_rates)},
    {"WriteInterval", POPT_NUMBER, AT(write_interval), 0.001, WZ_MAX_SECONDS},
    {"RetryInterval", POPT_NUMBER, AT(retry), 0.1, WZ_MAX_SECONDS},
    {"Timeout", POPT_NUMBER, AT(timeout), 1, WZ_MAX_TIMEOUT},
    {"QueueLength", POPT_COUNT, AT(queue_length), 16, 1 << 20},
    {"MaxRecords", POPT_COUNT, AT(max_records), 1, WZ_MAX_RECORDS},
    {"ReportStats", POPT_BOOL, AT(report_stats)},
    {"ShutdownTimeout", POPT_NUMBER, AT(shutdown_timeout), 0, WZ_MAX_SECONDS},
};
_Static_assert(sizeof(options) / sizeof(options[0]) <= 64, "given has a bit per option");

static const struct popt_table option_table = {PLUGIN, "doc/write_zvm.md", options,
                                               sizeof(options) / sizeof(options[0])};

/* Every bad option says why; an option of one value may be given once per block. */
static int wz_config(oconfig_item_t *ci)
{
        int bad = 0;
        uint64_t given = 0;
        for (int i = 0; i < ci->children_num; i++)
                if (popt_apply(&option_table, &cfg, &given, &ci->children[i]) != 0)
                        bad = -1;
        return bad;
}

/* ---------------- collectd's write threads ---------------- */

static uint64_t cdtime_to_tod(cdtime_t t)
{
        return zd_unix_us_to_tod((int64_t)CDTIME_T_TO_US(t));
}

static c_complain_t name_complaint = C_COMPLAIN_INIT_STATIC;

/* Names that do not fit a write_zvm record: counted, and said once. */
static void drop_name(const value_list_t *vl)
{
        pthread_mutex_lock(&stats_mu);
        stats.dropped_name++;
        pthread_mutex_unlock(&stats_mu);
        pthread_mutex_lock(&complain_mu);
        c_complain_once(LOG_WARNING, &name_complaint,
                        PLUGIN " plugin: %s/%s-%s/%s-%s not written: write_zvm records hold names "
                               "of 1 to 63 printable ASCII characters (host, plugin, type, data "
                               "source) or 0 to 63 (instances); counted as dropped_name, no "
                               "further messages",
                        vl->host, vl->plugin, vl->plugin_instance, vl->type, vl->type_instance);
        pthread_mutex_unlock(&complain_mu);
}

static c_complain_t invalid_complaint = C_COMPLAIN_INIT_STATIC;
static c_complain_t nomem_complaint = C_COMPLAIN_INIT_STATIC;

/* A value list write_zvm cannot take (err EINVAL or ENOMEM): counted, and said now and then. */
static int drop_list(const data_set_t *ds, const value_list_t *vl, int err)
{
        pthread_mutex_lock(&stats_mu);
        if (err == ENOMEM)
                stats.dropped_nomem++;
        else
                stats.dropped_invalid++;
        pthread_mutex_unlock(&stats_mu);
        pthread_mutex_lock(&complain_mu);
        if (err == ENOMEM)
                c_complain(LOG_ERR, &nomem_complaint,
                           PLUGIN
                           " plugin: %s/%s-%s/%s-%s not written: no memory for its %zu values; "
                           "counted as dropped_nomem",
                           vl->host, vl->plugin, vl->plugin_instance, vl->type, vl->type_instance,
                           ds->ds_num);
        else
                c_complain(LOG_ERR, &invalid_complaint,
                           PLUGIN " plugin: %s/%s-%s/%s-%s not written: %zu values for type %s "
                                  "of %zu data sources, write_zvm writes lists of 1 to %d; "
                                  "counted as dropped_invalid",
                           vl->host, vl->plugin, vl->plugin_instance, vl->type, vl->type_instance,
                           vl->values_len, ds->type, ds->ds_num, WZ_LIST_MAX);
        pthread_mutex_unlock(&complain_mu);
        return err;
}

static c_complain_t queue_complaint = C_COMPLAIN_INIT_STATIC;
/*
 * Set by the first full push since the writer thread last drained: the
 * others go by without complain_mu, which every write thread would
 * otherwise take for every list while the queue stays full (a thread
 * preempted holding it held the others for a time slice).
 */
static atomic_bool queue_full_seen;

/* wz_queue_push counted it: a write thread never waits for the writer thread. */
static void queue_full(const value_list_t *vl, size_t n)
{
        if (atomic_exchange_explicit(&queue_full_seen, true, memory_order_relaxed))
                return;
        pthread_mutex_lock(&complain_mu);
        c_complain(LOG_WARNING, &queue_complaint,
                   PLUGIN
                   " plugin: the queue (QueueLength %d) is full: %s/%s-%s/%s-%s (%zu values) "
                   "not written; counted as dropped_queue, as are the next ones",
                   cfg.queue_length, vl->host, vl->plugin, vl->plugin_instance, vl->type,
                   vl->type_instance, n);
        pthread_mutex_unlock(&complain_mu);
}

/* Value i of vl as an entry: its DS type, and a rate instead of a counter if asked. */
static void set_value(struct wz_item *it, const data_set_t *ds, const value_list_t *vl, size_t i,
                      const gauge_t *rates)
{
        int t = ds->ds[i].type;
        if (t == DS_TYPE_GAUGE) {
                it->e.ds_type = WZVM_DS_GAUGE;
                it->e.value = wzvm_double_bits(vl->values[i].gauge);
        } else if (rates) {
                it->e.ds_type = WZVM_DS_GAUGE;
                it->e.flags = WZVM_F_RATE;
                it->e.value = wzvm_double_bits(rates[i]);
        } else if (t == DS_TYPE_DERIVE) {
                it->e.ds_type = WZVM_DS_DERIVE;
                it->e.value = (uint64_t)vl->values[i].derive;
        } else if (t == DS_TYPE_COUNTER) {
                it->e.ds_type = WZVM_DS_COUNTER;
                it->e.value = (uint64_t)vl->values[i].counter;
        } else {
                it->e.ds_type = WZVM_DS_ABSOLUTE;
                it->e.value = (uint64_t)vl->values[i].absolute;
        }
}

static c_complain_t rate_complaint = C_COMPLAIN_INIT_STATIC;

/* When its cache has no rate for a list, uc_get_rate logs at DEBUG only (doc/facts/collectd.md
 * 2): unless said here, the loss is silent. */
static int drop_rate(const value_list_t *vl)
{
        pthread_mutex_lock(&stats_mu);
        stats.dropped_rate++;
        pthread_mutex_unlock(&stats_mu);
        pthread_mutex_lock(&complain_mu);
        c_complain(LOG_WARNING, &rate_complaint,
                   PLUGIN " plugin: %s/%s-%s/%s-%s not written: collectd's value cache has no "
                          "rate for it (StoreRates true); counted as dropped_rate",
                   vl->host, vl->plugin, vl->plugin_instance, vl->type, vl->type_instance);
        pthread_mutex_unlock(&complain_mu);
        return -1;
}

/* With StoreRates, the rates of a list that has a non-gauge; NULL with *fail when refused. */
static gauge_t *rates_of(const data_set_t *ds, const value_list_t *vl, bool *fail)
{
        *fail = false;
        if (!cfg.store_rates)
                return NULL;
        for (size_t i = 0; i < ds->ds_num; i++)
                if (ds->ds[i].type != DS_TYPE_GAUGE) {
                        gauge_t *r = uc_get_rate(ds, vl);
                        *fail = !r;
                        return r;
                }
        return NULL;
}

static int wz_write(const data_set_t *ds, const value_list_t *vl, user_data_t *ud)
{
        (void)ud;
        if (!wz_filter_pass(&cfg.filter, vl->plugin, vl->type))
                return 0;
        if (ds->ds_num != vl->values_len || ds->ds_num < 1 || ds->ds_num > WZ_LIST_MAX)
                return drop_list(ds, vl, EINVAL);
        size_t n = ds->ds_num;
        struct wz_item *items = calloc(n, sizeof(*items));
        if (!items)
                return drop_list(ds, vl, ENOMEM);
        bool fail;
        gauge_t *rates = rates_of(ds, vl, &fail);
        if (fail) {
                free(items);
                return drop_rate(vl);
        }
        uint64_t tod = cdtime_to_tod(vl->time);
        double now = mono_now(), interval = CDTIME_T_TO_DOUBLE(vl->interval);
        for (size_t i = 0; i < n; i++) {
                struct wz_item *it = &items[i];
                if (!wz_item_set_names(it, vl->host, vl->plugin, vl->plugin_instance, vl->type,
                                       vl->type_instance, ds->ds[i].name)) {
                        drop_name(vl);
                        free(items);
                        free(rates);
                        return 0;
                }
                it->e.ds_index = (uint8_t)i;
                it->e.ds_count = (uint8_t)n;
                it->e.time = tod;
                it->seen = now;
                it->interval = interval > 0 ? interval : 10;
                set_value(it, ds, vl, i, rates);
        }
        free(rates);
        if (!wz_queue_push(&queue, items, n))
                queue_full(vl, n);
        free(items);
        return 0;
}

static int wz_flush(cdtime_t timeout, const char *identifier, user_data_t *ud)
{
        (void)timeout, (void)identifier, (void)ud;
        pthread_mutex_lock(&queue.mu);
        queue.kick = true;
        pthread_cond_signal(&queue.cv);
        pthread_mutex_unlock(&queue.mu);
        return 0;
}

/* ---------------- the writer thread ---------------- */

static struct cause_complaint open_complaint;

static void try_open(void)
{
        if (!device_enter())
                return;
        fd = open(cfg.device, O_WRONLY | O_CLOEXEC);
        int err = errno;
        if (!device_leave())
                return; /* collectd went on stopping without this thread: not a word */
        if (fd >= 0) {
                c_release(LOG_NOTICE, &open_complaint.c, PLUGIN " plugin: %s is open.", cfg.device);
                open_complaint.cause = 0;
                return;
        }
        /* once per episode and cause: the retries go on quietly until the device opens */
        c_complain_t *c = complaint_of(&open_complaint, err);
        if (err == ENOENT || err == ENODEV || err == ENXIO)
                c_complain_once(LOG_ERR, c,
                                PLUGIN " plugin: cannot open %s: %s. The monwriter driver exists "
                                       "only under z/VM: load it with \"modprobe monwriter\"; "
                                       "retrying every %g s.",
                                cfg.device, strerror(err), cfg.retry);
        else
                c_complain_once(LOG_ERR, c,
                                PLUGIN " plugin: cannot open %s: %s; retrying every %g s.",
                                cfg.device, strerror(err), cfg.retry);
}

static c_complain_t table_complaint = C_COMPLAIN_INIT_STATIC;
static c_complain_t table_nomem_complaint = C_COMPLAIN_INIT_STATIC;

/*
 * wz_table_put_list counted it (dropped_full, reported in dropped_space, or
 * dropped_nomem).  Only the writer thread fills the table, so the complaints
 * need no complain_mu and a write thread never meets them.
 */
static void table_refused(const struct wz_item *it, enum wz_put why)
{
        if (why == WZ_PUT_NOMEM)
                c_complain(LOG_ERR, &table_nomem_complaint,
                           PLUGIN " plugin: no memory to grow the table of %zu values for "
                                  "%s/%s-%s/%s-%s (%u values): not written; counted as "
                                  "dropped_nomem, as are the next ones.",
                           table.n, it->host, it->e.plugin, it->e.plugin_instance, it->e.type,
                           it->e.type_instance, (unsigned)it->e.ds_count);
        else
                c_complain(LOG_WARNING, &table_complaint,
                           PLUGIN " plugin: the table of %zu values (MaxRecords %d x 163) has no "
                                  "room for %s/%s-%s/%s-%s (%u values): not written; counted as "
                                  "dropped_space, as are the next ones. Raise MaxRecords, or "
                                  "write fewer values (Include/Exclude).",
                           table.max, cfg.max_records, it->host, it->e.plugin,
                           it->e.plugin_instance, it->e.type, it->e.type_instance,
                           (unsigned)it->e.ds_count);
}

static void drain(void)
{
        /* static: 110 KB is much for a thread's stack, and only the writer thread drains */
        static struct wz_item buf[WZ_LIST_MAX];
        size_t n;
        while ((n = wz_queue_pop_lists(&queue, buf, WZ_LIST_MAX)) > 0) {
                enum wz_put why = WZ_PUT_OK;
                const struct wz_item *refused = wz_table_put_lists(&table, buf, n, &why);
                if (refused)
                        table_refused(refused, why);
        }
        atomic_store_explicit(&queue_full_seen, false, memory_order_relaxed);
}

static void publish_stats(void)
{
        pthread_mutex_lock(&stats_mu);
        stats.dropped_space = table.dropped_space + table.dropped_full;
        stats.table_nomem = table.dropped_nomem;
        stats.dropped_expired = table.dropped_expired;
        stats.merged = table.merged;
        stats.starts = writer.starts;
        stats.updates = writer.updates;
        stats.stops = writer.stops;
        stats.errors = writer.errors;
        stats.records = writer.nstarted;
        pthread_mutex_unlock(&stats_mu);
}

/* A pass is due: expire, open the device when it is time, write the table (or owe it). */
static void tick(double now, double *retry_at)
{
        wz_table_expire(&table, now, cfg.timeout);
        if (fd < 0 && now >= *retry_at) {
                try_open();
                if (fd < 0)
                        *retry_at = now + cfg.retry;
        }
        if (fd >= 0) {
                struct timespec rt;
                clock_gettime(CLOCK_REALTIME, &rt);
                uint64_t tod = zd_unix_us_to_tod((int64_t)rt.tv_sec * 1000000 + rt.tv_nsec / 1000);
                enum wz_result r = wz_writer_pass(&writer, &table, tod, now >= *retry_at);
                if (r == WZ_BACKOFF && now >= *retry_at)
                        *retry_at = now + cfg.retry;
                if (r == WZ_REOPEN) {
                        close(fd);
                        fd = -1;
                        wz_writer_closed(&writer);
                        *retry_at = now + cfg.retry;
                }
        } else {
                /* backing off from the device: as a failed pass, what is due is owed */
                wz_table_missed(&table);
        }
        publish_stats();
}

/* The thread's end: what it could not write, and the device if the shutdown went on. */
static void writer_finished(void)
{
        pthread_mutex_lock(&queue.mu);
        if (!shut.left) {
                shut.owed = queue.n + wz_table_unwritten(&table);
                shut.late = past_deadline();
        } else if (fd >= 0) { /* the close that ends the records is this thread's now */
                close(fd);
                fd = -1;
        }
        shut.done = true;
        pthread_cond_broadcast(&done_cv);
        pthread_mutex_unlock(&queue.mu);
}

static void *wz_thread(void *arg)
{
        (void)arg;
        /*
         * The first pass half a WriteInterval in: collectd's reads began at init too,
         * every Interval, and with passes at the same phase a value read just after a
         * pass waited a whole interval, its successor racing the next pass (merged by
         * a fraction of a millisecond).  Halfway between, jitter decides nothing.
         */
        double now = mono_now(), next = now + cfg.write_interval / 2, retry_at = 0;
        for (;;) {
                pthread_mutex_lock(&queue.mu);
                while (!queue.stop && !queue.kick && queue.n < queue.cap / 2 &&
                       (now = mono_now()) < next) {
                        struct timespec ts;
                        clock_gettime(CLOCK_MONOTONIC, &ts);
                        double wait = next - now;
                        zd_timespec_add_ns(&ts, (uint64_t)(wait * 1e9));
                        pthread_cond_timedwait(&queue.cv, &queue.mu, &ts);
                }
                bool stop = queue.stop, kick = queue.kick;
                queue.kick = false;
                pthread_mutex_unlock(&queue.mu);
                if (stop)
                        break;
                drain();
                now = mono_now();
                if (!kick && now < next)
                        continue; /* woken to empty the queue */
                next = next + cfg.write_interval > now ? next + cfg.write_interval
                                                       : now + cfg.write_interval;
                tick(now, &retry_at);
        }
        /*
         * collectd stops: its write threads have delivered their values, its flush (a
         * kick that this stop may overtake) came before.  What arrived since the last
         * pass is written now, or the values dispatched last would never reach a record;
         * the close that follows stops the records, and z/VM's end records (D10R1) carry
         * these last contents.  It is a pass like any other (the device opened if it is
         * due), but only when there is something new to write, and it stops writing at
         * the shutdown's deadline (shut).
         */
        drain();
        if (wz_table_unwritten(&table) > 0)
                tick(mono_now(), &retry_at);
        writer_finished();
        return NULL;
}

/* ---------------- init, stats, shutdown ---------------- */

static void submit(const char *type, const char *ti, value_t v)
{
        self_metric(PLUGIN, "", type, ti, v);
}

static int wz_read(void)
{
        pthread_mutex_lock(&queue.mu);
        uint64_t queued = queue.queued, dropped = queue.dropped;
        size_t qlen = queue.n;
        pthread_mutex_unlock(&queue.mu);
        pthread_mutex_lock(&stats_mu);
        __typeof__(stats) s = stats;
        pthread_mutex_unlock(&stats_mu);
        submit("total_values", "queued", (value_t){.derive = (derive_t)queued});
        submit("total_values", "dropped_queue", (value_t){.derive = (derive_t)dropped});
        submit("total_values", "dropped_space", (value_t){.derive = (derive_t)s.dropped_space});
        submit("total_values", "dropped_expired", (value_t){.derive = (derive_t)s.dropped_expired});
        submit("total_values", "dropped_name", (value_t){.derive = (derive_t)s.dropped_name});
        submit("total_values", "dropped_invalid", (value_t){.derive = (derive_t)s.dropped_invalid});
        submit("total_values", "dropped_nomem",
               (value_t){.derive = (derive_t)(s.dropped_nomem + s.table_nomem)});
        submit("total_values", "dropped_rate", (value_t){.derive = (derive_t)s.dropped_rate});
        submit("total_values", "merged", (value_t){.derive = (derive_t)s.merged});
        submit("total_operations", "record_start", (value_t){.derive = (derive_t)s.starts});
        submit("total_operations", "record_update", (value_t){.derive = (derive_t)s.updates});
        submit("total_operations", "record_stop", (value_t){.derive = (derive_t)s.stops});
        submit("total_operations", "write_error", (value_t){.derive = (derive_t)s.errors});
        submit("queue_length", "", (value_t){.gauge = (gauge_t)qlen});
        submit("count", "records", (value_t){.gauge = (gauge_t)s.records});
        return 0;
}

static int wz_init(void)
{
        if (thread_running)
                return 0;
        if (cfg.write_interval <= 0)
                cfg.write_interval = CDTIME_T_TO_DOUBLE(plugin_get_interval());
        if (cfg.write_interval <= 0)
                cfg.write_interval = 10;
        if (cfg.write_interval > WZ_MAX_SECONDS) {
                WARNING(PLUGIN " plugin: collectd's Interval (%g s) is longer than WriteInterval "
                               "may be; writing every %g s.",
                        cfg.write_interval, WZ_MAX_SECONDS);
                cfg.write_interval = WZ_MAX_SECONDS;
        }
        if (wz_queue_init(&queue, (size_t)cfg.queue_length) != 0) {
                ERROR(PLUGIN " plugin: out of memory for a queue of %d values.", cfg.queue_length);
                return -1;
        }
        /* a record holds at most 3910 / 24 entries; more values than that cannot be written */
        wz_table_init(&table, (size_t)cfg.max_records * 163);
        wz_writer_init(&writer, (uint16_t)cfg.applid, (unsigned)cfg.max_records,
                       (uint32_t)(cfg.write_interval * 1000));
        writer.retry = cfg.retry;
        writer.dev.write = dev_write;
        writer.dev.late = dev_late;
        writer.dev.ctx = &fd;
        memset(&shut, 0, sizeof(shut));
        pthread_condattr_t ca;
        pthread_condattr_init(&ca);
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* stop_writer's deadline */
        pthread_cond_init(&done_cv, &ca);
        pthread_condattr_destroy(&ca);
        /* no open here: a missing device is retried by the thread, never fails init */
        if (plugin_thread_create(&thread, wz_thread, NULL, PLUGIN) != 0) {
                ERROR(PLUGIN " plugin: cannot start the writer thread.");
                wz_queue_destroy(&queue);
                pthread_cond_destroy(&done_cv);
                return -1;
        }
        thread_running = true;
        plugin_register_write(PLUGIN, wz_write, NULL);
        plugin_register_flush(PLUGIN, wz_flush, NULL);
        if (cfg.report_stats)
                plugin_register_read(PLUGIN, wz_read);
        INFO(PLUGIN " plugin: writing to %s, ApplicationID %d (0x%04X), every %.3g s, at most "
                    "%d records.",
             cfg.device, cfg.applid, cfg.applid, cfg.write_interval, cfg.max_records);
        return 0;
}

/*
 * Stop the writer thread and wait for its last pass until ShutdownTimeout;
 * false when the deadline finds it still inside a device call, and it is
 * left behind (shut).  *owed: the values no record the device accepted holds.
 */
static bool stop_writer(size_t *owed)
{
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        zd_timespec_add_ns(&ts, (uint64_t)(cfg.shutdown_timeout * 1e9));
        pthread_mutex_lock(&queue.mu);
        shut.deadline = mono_now() + cfg.shutdown_timeout;
        queue.stop = true;
        pthread_cond_signal(&queue.cv);
        /* past the deadline, a thread outside the device finishes at once: it may not enter */
        int rc = 0;
        while (!shut.done && !(rc == ETIMEDOUT && shut.in_device)) {
                if (rc == ETIMEDOUT)
                        pthread_cond_wait(&done_cv, &queue.mu);
                else
                        rc = pthread_cond_timedwait(&done_cv, &queue.mu, &ts);
        }
        if (shut.done) {
                *owed = shut.owed;
                pthread_mutex_unlock(&queue.mu);
                pthread_join(thread, NULL);
                return true;
        }
        shut.left = shut.late = true;
        /* the thread is inside the device call: the table stays as it is meanwhile */
        *owed = queue.n + wz_table_unwritten(&table);
        pthread_mutex_unlock(&queue.mu);
        pthread_detach(thread);
        return false;
}

/*
 * Values unwritten at the end are counted and said once, here: collectd
 * stopped its read threads before its shutdown callbacks (doc/facts/collectd.md
 * 2), so no reading of the counters could show them.
 */
static void say_owed(size_t owed)
{
        if (shut.late)
                WARNING(PLUGIN " plugin: collectd stops: %zu values not written to %s within "
                               "ShutdownTimeout %g s: the device did not take them in time (a "
                               "busy CP is slow at DIAGNOSE X'DC'); the records keep what was "
                               "written before.",
                        owed, cfg.device, cfg.shutdown_timeout);
        else
                WARNING(PLUGIN " plugin: collectd stops: %zu values not written to %s: the "
                               "device could not take them (see the messages before).",
                        owed, cfg.device);
}

static int wz_shutdown(void)
{
        if (thread_running) {
                thread_running = false;
                size_t owed = 0;
                bool joined = stop_writer(&owed);
                if (owed > 0)
                        say_owed(owed);
                if (!joined) { /* the thread still has the queue, the table and the device */
                        wz_filter_free(&cfg.filter);
                        return 0;
                }
                wz_queue_destroy(&queue);
                pthread_cond_destroy(&done_cv);
        }
        if (fd >= 0)
                close(fd); /* the driver STOPs every record: z/VM writes their end records */
        fd = -1;
        wz_table_free(&table);
        wz_filter_free(&cfg.filter);
        return 0;
}

/* The only symbol collectd looks up; everything else stays hidden. */
__attribute__((visibility("default"))) void module_register(void)
{
        plugin_register_complex_config(PLUGIN, wz_config);
        plugin_register_init(PLUGIN, wz_init);
        plugin_register_shutdown(PLUGIN, wz_shutdown);
}
