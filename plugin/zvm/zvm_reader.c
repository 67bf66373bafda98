/* SPDX-License-Identifier: MIT */
/*
 * The device thread's work: /dev/monreader delivers one data set per IUCV
 * message as a run of reads closed by a 0-byte read
 * (doc/facts/kernel-drivers.md 1.3).  Bytes are gathered until that 0-byte read
 * and only then decoded; EIO and EFAULT invalidate the set in progress,
 * EOVERFLOW only says later records may be missing (1.4).  The device is
 * opened non-blocking and polled with a timeout, so a stop request is seen
 * within one poll period and shutdown never waits on a read.
 */
#include "zvm_collectd.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "complaint.h"
#include "zvm.h"

/* Reads per turn before the caller gets to look at its stop flag again. */
#define READS_PER_STEP 4096
#define READ_CHUNK     (256u * 1024)
/*
 * The longest a data set's values wait for collectd's write threads
 * (LiveQueue), and at most a quarter of the sample interval: CP's next
 * messages queue in monreader meanwhile (one an interval, 255 at most).
 */
#define LIVE_WAIT_MAX_S 10.0

static const atomic_bool never = false;

static int sys_open(const char *path, int flags)
{
        return open(path, flags);
}

/*
 * monreader is a character device (doc/facts/kernel-drivers.md 1.1); a
 * regular file on a FUSE file system is taken for one too, as zvmsim's
 * monreader is such a file with the driver's semantics (doc/zvmsim.md).
 * Anything else read as the device would read once and then look like a
 * stream of empty data sets, or fail every read (a directory).
 */
static const char *sys_not_device(int fd)
{
        struct stat st;
        struct statfs fs;
        if (fstat(fd, &st) != 0 || S_ISCHR(st.st_mode))
                return NULL;
        if (S_ISREG(st.st_mode))
                return fstatfs(fd, &fs) == 0 && fs.f_type == FUSE_SUPER_MAGIC ? NULL
                                                                              : "a regular file";
        if (S_ISDIR(st.st_mode))
                return "a directory";
        return S_ISFIFO(st.st_mode)   ? "a FIFO"
               : S_ISSOCK(st.st_mode) ? "a socket"
                                      : "a block device";
}

const struct zvm_sys zvm_sys_real = {sys_open, read, poll, close, sys_not_device};

static double wall_now(void)
{
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct cause_complaint open_complaint; /* by the open's errno */
static c_complain_t overflow_complaint = C_COMPLAIN_INIT_STATIC;
static c_complain_t discard_complaint = C_COMPLAIN_INIT_STATIC;
static c_complain_t nomem_complaint = C_COMPLAIN_INIT_STATIC;
static c_complain_t empty_complaint = C_COMPLAIN_INIT_STATIC;
static c_complain_t short_complaint = C_COMPLAIN_INIT_STATIC;
static c_complain_t slow_complaint = C_COMPLAIN_INIT_STATIC;

void zvm_reader_init(struct zvm_reader *r, const struct zvm_config *c, const struct zvm_sys *sys,
                     struct zvm_pipe *pipe)
{
        memset(r, 0, sizeof(*r));
        r->cfg = c;
        r->sys = sys;
        r->pipe = pipe;
        r->fd = -1;
        r->backoff = c->retry_min;
        r->stop = &never;
        zvm_pace_init(&r->pace, c->live_queue);
        r->pace.quiet = true;
        r->pace.who = "the monitor device";
        r->pace.option = "LiveQueue";
        open_complaint = (struct cause_complaint){.cause = 0};
        C_COMPLAIN_INIT(&overflow_complaint);
        C_COMPLAIN_INIT(&discard_complaint);
        C_COMPLAIN_INIT(&nomem_complaint);
        C_COMPLAIN_INIT(&empty_complaint);
        C_COMPLAIN_INIT(&short_complaint);
        C_COMPLAIN_INIT(&slow_complaint);
}

static void set_connected(bool on)
{
        zvm_stats_lock();
        zvm_stats()->connected = on;
        zvm_stats_unlock();
}

/* The next open in backoff seconds; the wait after that doubles, up to MaxRetryInterval. */
static void back_off(struct zvm_reader *r, double now)
{
        r->next_open = now + r->backoff;
        r->backoff = r->backoff * 2 > r->cfg->retry_max ? r->cfg->retry_max : r->backoff * 2;
}

static void drop_fd(struct zvm_reader *r, double now)
{
        if (r->fd >= 0) {
                r->sys->close(r->fd);
                r->fd = -1;
                set_connected(false);
        }
        r->n = 0;
        r->in_set = false;
        r->oversized = false;
        r->poisoned = false;
        r->nomem = false;
        back_off(r, now);
}

void zvm_reader_close(struct zvm_reader *r)
{
        if (r->fd >= 0) {
                r->sys->close(r->fd);
                r->fd = -1;
                set_connected(false);
        }
        free(r->buf);
        r->buf = NULL;
        r->n = r->cap = 0;
}

static void open_failed(struct zvm_reader *r, int err)
{
        const char *dev = r->cfg->device;
        c_complain_t *c = complaint_of(&open_complaint, err);
        switch (err) {
        case EBUSY:
                c_complain(LOG_ERR, c,
                           ZVM_PLUGIN
                           " plugin: %s is busy: another program has it open (another "
                           "collectd, or zvmmon capture). monreader allows one reader per "
                           "guest; retrying with backoff up to %g s.",
                           dev, r->cfg->retry_max);
                break;
        case ENOENT:
        case ENODEV:
        case ENXIO:
                c_complain(LOG_ERR, c,
                           ZVM_PLUGIN
                           " plugin: cannot open %s: %s. Prerequisites: the monreader "
                           "module loaded (modprobe monreader mondcss=NAME, default "
                           "MONDCSS); IUCV *MONITOR and NAMESAVE <dcss> in this guest's "
                           "directory entry; the DCSS address range addressable by the guest "
                           "(storage hole via DEF STOR CONFIG, or mem=). Retrying with backoff "
                           "up to %g s.",
                           dev, strerror(err), r->cfg->retry_max);
                break;
        case EIO:
                c_complain(LOG_ERR, c,
                           ZVM_PLUGIN
                           " plugin: cannot open %s: the IUCV connection to *MONITOR "
                           "failed or was severed (the kernel log has the IUCV return code or "
                           "the sever code). Check "
                           "IUCV *MONITOR in the directory and that the DCSS named by mondcss "
                           "is the one CP MONITOR uses. Retrying with backoff up to %g s.",
                           dev, r->cfg->retry_max);
                break;
        default:
                c_complain(LOG_ERR, c,
                           ZVM_PLUGIN " plugin: cannot open %s: %s. Retrying with backoff up to "
                                      "%g s.",
                           dev, strerror(err), r->cfg->retry_max);
        }
}

/* Device names something other than a device: said as such, as the open's errors are. */
static void not_device(struct zvm_reader *r, const char *what)
{
        c_complain(LOG_ERR, complaint_of(&open_complaint, -1),
                   ZVM_PLUGIN " plugin: Device \"%s\" is %s, not a character device: Device "
                              "names the monitor device (/dev/monreader, made by the monreader "
                              "module); a MONWRITE file or a zvmmon capture is replayed with "
                              "File \"PATH\". Retrying with backoff up to %g s.",
                   r->cfg->device, what, r->cfg->retry_max);
}

static bool try_open(struct zvm_reader *r, double now)
{
        int fd = r->sys->open(r->cfg->device, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        const char *what = fd >= 0 ? r->sys->not_device(fd) : NULL;
        if (fd < 0 || what) {
                int err = errno;
                zvm_stats_add(&zvm_stats()->open_failures, 1);
                if (what) {
                        r->sys->close(fd);
                        not_device(r, what);
                } else {
                        open_failed(r, err);
                }
                back_off(r, now);
                return false;
        }
        r->fd = fd;
        zvm_stats_lock();
        struct zvm_stats *s = zvm_stats();
        if (s->opens++)
                s->reconnects++;
        s->connected = true;
        zvm_stats_unlock();
        c_release(LOG_NOTICE, &open_complaint.c,
                  ZVM_PLUGIN " plugin: %s opened; reading monitor data", r->cfg->device);
        return true;
}

static void live_burst(void *ctx)
{
        struct zvm_reader *r = ctx;
        zvm_pace_step(&r->pace, r->stop);
}

/* How long a data set's values may wait for the writers in all (zvm_pace_round). */
static double live_wait(const struct zvm_pipe *p)
{
        double iv = zm_engine_interval(p->eng);
        return iv > 0 && iv / 4 < LIVE_WAIT_MAX_S ? iv / 4 : LIVE_WAIT_MAX_S;
}

static void decode_set(struct zvm_reader *r)
{
        struct zvm_pipe *p = r->pipe;
        /* Paced burst by burst, as a replay: one Interval End closes a whole CP interval. */
        uint64_t waits = r->pace.waits, cuts = r->pace.cuts;
        double wait = live_wait(p);
        zvm_pace_round(&r->pace, zvm_monotonic() + wait);
        zvm_dispatch_after_burst(p->disp, live_burst, r);
        /* To the live view first: the set's values may wait for the writers (LiveQueue). */
        int64_t shared = zvm_share_put(r->share, r->buf, r->n);
        p->config_seen = false;
        zd_decode_dataset(&p->dec, zd_view_make(r->buf, r->n), p->set_index++, p->offset);
        if (p->config_seen)
                zvm_share_config(r->share, r->buf, r->n, shared);
        p->offset += r->n;
        zvm_pipe_publish(p); /* the set's last burst */
        zvm_dispatch_after_burst(p->disp, NULL, NULL);
        zvm_stats_lock();
        struct zvm_stats *s = zvm_stats();
        s->sets++;
        s->bytes += r->n;
        s->last_set_time = wall_now();
        s->live_waits += r->pace.waits - waits;
        s->live_cuts += r->pace.cuts - cuts;
        if (r->pace.ahead_max > s->live_ahead)
                s->live_ahead = r->pace.ahead_max;
        zvm_stats_unlock();
        if (r->pace.cuts != cuts)
                c_complain(LOG_WARNING, &slow_complaint,
                           ZVM_PLUGIN " plugin: collectd's write threads did not take a data "
                                      "set's values within %g s; the rest went to their queue "
                                      "at once (LiveQueue %llu, total_events-live_cuts). Slow or "
                                      "stalled writers?",
                           wait, (unsigned long long)r->pace.limit);
        /* A whole good set: the path works, so the next failure starts the backoff afresh. */
        r->backoff = r->cfg->retry_min;
}

static void end_of_set(struct zvm_reader *r)
{
        if (r->poisoned) {
                /* Counted when EFAULT came; the tail that followed is not a set on its own. */
        } else if (r->nomem) {
                /* Apart from an oversized set: raising MaxDataSetSize would only make it worse. */
                zvm_stats_add(&zvm_stats()->discarded_nomem, 1);
                c_complain(LOG_ERR, &nomem_complaint,
                           ZVM_PLUGIN " plugin: out of memory buffering a data set (%zu bytes "
                                      "gathered): the set was dropped. The collector guest is "
                                      "short of memory.",
                           r->n);
        } else if (r->oversized) {
                zvm_stats_add(&zvm_stats()->oversized, 1);
                c_complain(LOG_ERR, &discard_complaint,
                           ZVM_PLUGIN " plugin: a data set larger than MaxDataSetSize (%zu bytes) "
                                      "was dropped; raise MaxDataSetSize to the DCSS size",
                           r->cfg->max_set);
        } else if (!r->in_set && !r->n) {
                zvm_stats_add(&zvm_stats()->empty_sets, 1);
                c_complain(LOG_WARNING, &empty_complaint,
                           ZVM_PLUGIN " plugin: %s returned an empty data set (a 0-byte read "
                                      "with nothing before it): monreader found the control "
                                      "area of a *MONITOR message invalid and replied to it "
                                      "unread, so its records are lost (total_events-empty_sets)",
                           r->cfg->device);
        } else if (zd_dataset_sample_cut(zd_view_make(r->buf, r->n))) {
                /* decoded, its records would be dispatched alone or mixed into the next
                   interval, which would never close as one */
                zvm_stats_add(&zvm_stats()->discarded_short, 1);
                c_complain(LOG_WARNING, &short_complaint,
                           ZVM_PLUGIN " plugin: a sample data set from %s ended without its "
                                      "Interval End record (%zu bytes): monreader stopped at a "
                                      "control element it found invalid, so the rest of the "
                                      "interval is missing. The set was dropped, so that no "
                                      "partial interval is dispatched "
                                      "(total_events-discarded_short)",
                           r->cfg->device, r->n);
        } else {
                decode_set(r);
        }
        r->n = 0;
        r->in_set = false;
        r->oversized = false;
        r->poisoned = false;
        r->nomem = false;
}

static void discard(struct zvm_reader *r, int err)
{
        zvm_stats_lock();
        if (err == EIO)
                zvm_stats()->discarded_eio++;
        else
                zvm_stats()->discarded_efault++;
        zvm_stats_unlock();
        c_complain(LOG_WARNING, &discard_complaint,
                   ZVM_PLUGIN
                   " plugin: read from %s failed with %s: the %zu bytes of the data set in "
                   "progress were discarded%s",
                   r->cfg->device, err == EIO ? "EIO" : "EFAULT", r->n,
                   err == EIO ? "; reopening the device" : "");
        r->n = 0;
        r->in_set = false;
        r->oversized = false;
        r->nomem = false;
        /* The driver goes on with the rest of the same set: skip it up to the 0-byte read. */
        r->poisoned = err == EFAULT;
}

/* Room for the next read, growing up to max_set; false once the set is oversized or the
 * buffer cannot grow (skipped() tells which). */
static bool room(struct zvm_reader *r)
{
        if (r->n >= r->cfg->max_set)
                return false;
        if (r->cap - r->n >= READ_CHUNK || r->cap >= r->cfg->max_set)
                return true;
        size_t cap = r->cap ? r->cap * 2 : 2 * READ_CHUNK;
        if (cap > r->cfg->max_set)
                cap = r->cfg->max_set;
        uint8_t *b = realloc(r->buf, cap);
        if (!b)
                return r->cap > r->n;
        r->buf = b;
        r->cap = cap;
        return true;
}

/*
 * A read or poll error none of the driver's documented ones (ENODEV, say):
 * the device is reopened, and whatever the set in progress had gathered is
 * lost with it, which the message must say, since nothing else tells.
 */
static void device_error(struct zvm_reader *r, const char *op, int err, double now)
{
        zvm_stats_add(&zvm_stats()->device_errors, 1);
        if (r->in_set && !r->poisoned)
                ERROR(ZVM_PLUGIN " plugin: %s %s: %s; the data set in progress was discarded; "
                                 "reopening",
                      op, r->cfg->device, strerror(err));
        else
                ERROR(ZVM_PLUGIN " plugin: %s %s: %s; reopening", op, r->cfg->device,
                      strerror(err));
        drop_fd(r, now);
}

/* Wait for data; false when there is nothing to read now (or the device went away). */
static bool readable(struct zvm_reader *r, int poll_ms, double now)
{
        struct pollfd pfd = {.fd = r->fd, .events = POLLIN};
        int rc = r->sys->poll(&pfd, 1, poll_ms);
        if (rc < 0) {
                if (errno != EINTR)
                        device_error(r, "poll on", errno, now);
                return false;
        }
        if (rc == 0)
                return false;
        if ((pfd.revents & (POLLERR | POLLHUP | POLLNVAL)) && !(pfd.revents & POLLIN)) {
                WARNING(ZVM_PLUGIN " plugin: %s: the IUCV path to *MONITOR was severed%s; "
                                   "reopening in %g s",
                        r->cfg->device, r->n ? " in the middle of a data set (discarded)" : "",
                        r->backoff);
                if (r->n)
                        zvm_stats_add(&zvm_stats()->discarded_eio, 1);
                drop_fd(r, now);
                return false;
        }
        return true;
}

/* A read that failed with err: true to read on, false to end this step. */
static bool read_failed(struct zvm_reader *r, int err, double now)
{
        switch (err) {
        case EAGAIN:
#if EWOULDBLOCK != EAGAIN
        case EWOULDBLOCK:
#endif
                return false;
        case EINTR:
                return true;
        case EOVERFLOW:
                zvm_stats_add(&zvm_stats()->overflows, 1);
                c_complain(LOG_WARNING, &overflow_complaint,
                           ZVM_PLUGIN " plugin: %s reported EOVERFLOW: 255 monitor messages "
                                      "were queued unread, so records after the last complete "
                                      "data set may be missing (the data read is kept). The "
                                      "reader is falling behind: a busy or slow system, or a "
                                      "very short sample interval.",
                           r->cfg->device);
                return true;
        case EFAULT:
                discard(r, err);
                return true;
        case EIO:
                discard(r, err);
                drop_fd(r, now);
                return false;
        default:
                device_error(r, "read from", err, now);
                return false;
        }
}

/*
 * Bytes arrived that room() had no place for: the rest of the set is skipped,
 * as oversized when it passed max_set (a set of exactly max_set bytes is
 * fine), else because the buffer could not grow.  Decided only once bytes
 * come, so that a failed growth between sets spoils no set.
 */
static void skipped(struct zvm_reader *r)
{
        if (r->poisoned || r->oversized || r->nomem)
                return;
        r->oversized = r->n >= r->cfg->max_set;
        r->nomem = !r->oversized;
}

int zvm_reader_step(struct zvm_reader *r, int poll_ms, double now)
{
        if (r->fd < 0) {
                if (now < r->next_open) {
                        double ms = (r->next_open - now) * 1000;
                        return ms > poll_ms ? poll_ms : (int)ms + 1;
                }
                if (!try_open(r, now))
                        return 0;
        }
        if (!readable(r, poll_ms, now))
                return 0;

        static uint8_t sink[READ_CHUNK]; /* where a skipped set's bytes go */
        for (int i = 0; i < READS_PER_STEP; i++) {
                bool ok = !r->oversized && !r->poisoned && !r->nomem && room(r);
                uint8_t *dst = ok ? r->buf + r->n : sink;
                size_t lim = r->cap < r->cfg->max_set ? r->cap : r->cfg->max_set;
                size_t want = ok ? lim - r->n : sizeof(sink);
                ssize_t got = r->sys->read(r->fd, dst, want);
                if (got > 0) {
                        r->in_set = true;
                        if (ok)
                                r->n += (size_t)got;
                        else
                                skipped(r);
                } else if (got == 0)
                        end_of_set(r);
                else if (!read_failed(r, errno, now))
                        return 0;
        }
        return 0;
}
