/* SPDX-License-Identifier: MIT */
/*
 * The FUSE file system: MOUNT/monreader, MOUNT/monwriter, MOUNT/control and
 * MOUNT/status.  Every file uses direct I/O, so each read() and write()
 * reaches zvmsim and gets the byte count or errno the kernel driver would
 * give.  One lock guards the model, the devices and the queues; a timer
 * thread produces a sample interval every --interval seconds (0: only when
 * told through the control file).
 */
/*
 * 3.12: from there on fuse_loop_mt() takes the fuse_loop_cfg_*() object.  Below
 * it, it reads that object as the older public struct: our thread limits were
 * lost and the idle limit came out 0, a worker retired after every request.
 */
#define FUSE_USE_VERSION 312
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <fuse_lowlevel.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "zvmdec.h"
#include "opts.h"
#include "sim_monreader.h"

enum { F_ROOT, F_READER, F_WRITER, F_CONTROL, F_STATUS, F_NONE };
enum { VANISH_READER = 1, VANISH_WRITER = 2 };

static struct {
        pthread_mutex_t lock;
        pthread_cond_t cond;  /* a message arrived, or the reader went away (CLOCK_REALTIME) */
        pthread_cond_t tcond; /* the timer thread's wake-up (CLOCK_MONOTONIC) */
        struct sim_opts *o;
        struct sim_sys *sys;
        struct sim_truth *truth;
        struct sim_mr mr;
        struct sim_mw mw;
        struct fuse_pollhandle *ph;
        unsigned stall;       /* sample intervals still to withhold from the reader */
        unsigned mw_delay_ms; /* every monwriter write() takes this long (control: mwdelay) */
        bool stop;
        unsigned vanished;   /* device nodes gone (control: vanish N): VANISH_READER|_WRITER */
        FILE *delivery;      /* --delivery: what became of each message and command */
        uint64_t reader_gen; /* bumped on every open, so a stale handle cannot read */
        long reader_owner;   /* the process that opened the reader (caller_tgid), or -1 */
} G = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};

static int which(const char *path)
{
        if (strcmp(path, "/") == 0)
                return F_ROOT;
        if (strcmp(path, "/monreader") == 0)
                return F_READER;
        if (strcmp(path, "/monwriter") == 0)
                return F_WRITER;
        if (strcmp(path, "/control") == 0)
                return F_CONTROL;
        if (strcmp(path, "/status") == 0)
                return F_STATUS;
        return F_NONE;
}

static uint64_t now_tod(void)
{
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        return zd_unix_us_to_tod((int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000);
}

/*
 * --delivery, under the lock: one JSON line per message fate (sim_mr_fate_fn),
 * control command and open of the reader, each stamped with the interval
 * number the system had reached, so that a test can tell which data sets a
 * reader got whole.  Flushed per line: the file is read while zvmsim runs.
 */
static void log_fate(void *ctx, const struct sim_set *s, const char *fate, size_t done)
{
        (void)ctx;
        if (!G.delivery)
                return;
        fprintf(G.delivery,
                "{\"set\":%llu,\"interval\":%llu,\"type\":\"%c\",\"config\":%s,\"fate\":\"%s\","
                "\"done\":%zu,\"bytes\":%zu}\n",
                (unsigned long long)s->seq, (unsigned long long)s->interval, s->type,
                s->config ? "true" : "false", fate, done, s->len);
        fflush(G.delivery);
}

static void log_event(const char *ev, const char *detail)
{
        if (!G.delivery)
                return;
        fprintf(G.delivery, "{\"event\":\"%s\",\"detail\":\"", ev);
        for (const char *c = detail; *c; c++)
                if (*c >= ' ' && *c != '"' && *c != '\\')
                        fputc(*c, G.delivery);
        fprintf(G.delivery, "\",\"at\":%llu}\n", (unsigned long long)sim_sys_interval_no(G.sys));
        fflush(G.delivery);
}

/* Under the lock: wake readers and pollers after the queue changed. */
static void notify(void)
{
        pthread_cond_broadcast(&G.cond);
        if (G.ph) {
                fuse_notify_poll(G.ph);
                fuse_pollhandle_destroy(G.ph);
                G.ph = NULL;
        }
}

/* Under the lock: event sets the model queued go to the reader as they happen. */
static void flush_events(void)
{
        struct sim_set *e;
        bool any = false;
        while ((e = sim_sys_next_event(G.sys))) {
                sim_mr_push(&G.mr, e);
                any = true;
        }
        if (any)
                notify();
}

/* Under the lock: one sample interval. */
static int control(const char *cmd);

/*
 * --fault @N:COMMAND: run the command just before interval N is made, once.
 * The command may itself make intervals ("interval" at @1): marked first,
 * so that it does not run again for the interval it is making (that was an
 * endless recursion: control -> interval -> scheduled_faults -> control).
 */
static bool fault_done[SIM_MAX_FAULTS];

static void scheduled_faults(unsigned long next)
{
        for (size_t i = 0; i < G.o->nfaults; i++) {
                if (G.o->faults[i].at != next || fault_done[i])
                        continue;
                fault_done[i] = true;
                if (control(G.o->faults[i].cmd) != 0)
                        fprintf(stderr, "zvmsim: --fault %s: unknown command\n",
                                G.o->faults[i].cmd);
        }
}

static void interval(void)
{
        scheduled_faults(sim_sys_interval_no(G.sys) + 1);
        struct sim_set *s = sim_sys_interval(G.sys);
        if (G.stall) { /* CP sends nothing: the interval's events go too */
                G.stall--;
                struct sim_set *e;
                while ((e = sim_sys_next_event(G.sys))) {
                        log_fate(NULL, e, "stall", 0);
                        sim_set_free(e);
                }
                log_fate(NULL, s, "stall", 0);
                sim_set_free(s);
        } else {
                flush_events(); /* events of the interval come before its samples */
                sim_mr_push(&G.mr, s);
        }
        notify();
}

static void *timer_main(void *arg)
{
        (void)arg;
        struct timespec next;
        clock_gettime(CLOCK_MONOTONIC, &next);
        uint64_t step_ns = (uint64_t)G.o->cfg.interval_ms * 1000000;
        for (;;) {
                zd_timespec_add_ns(&next, step_ns);
                pthread_mutex_lock(&G.lock);
                while (!G.stop && pthread_cond_timedwait(&G.tcond, &G.lock, &next) != ETIMEDOUT) {
                        struct timespec t;
                        clock_gettime(CLOCK_MONOTONIC, &t);
                        if (t.tv_sec > next.tv_sec ||
                            (t.tv_sec == next.tv_sec && t.tv_nsec >= next.tv_nsec))
                                break;
                }
                if (G.stop) {
                        pthread_mutex_unlock(&G.lock);
                        return NULL;
                }
                interval();
                pthread_mutex_unlock(&G.lock);
        }
}

static void *fs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
        (void)conn;
        cfg->direct_io = 1;
        cfg->intr = 1;
        cfg->entry_timeout = cfg->attr_timeout = cfg->negative_timeout = 0;
        return NULL;
}

static int fs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
        (void)fi;
        memset(st, 0, sizeof(*st));
        st->st_uid = getuid();
        st->st_gid = getgid();
        st->st_nlink = 1;
        switch (which(path)) {
        case F_ROOT:
                st->st_mode = S_IFDIR | 0755;
                st->st_nlink = 2;
                return 0;
        case F_READER:
                if (G.vanished & VANISH_READER)
                        return -ENOENT;
                st->st_mode = S_IFREG | 0444;
                return 0;
        case F_WRITER:
                if (G.vanished & VANISH_WRITER)
                        return -ENOENT;
                st->st_mode = S_IFREG | 0666;
                return 0;
        case F_CONTROL:
                st->st_mode = S_IFREG | 0666;
                return 0;
        case F_STATUS:
                st->st_mode = S_IFREG | 0444;
                return 0;
        default:
                return -ENOENT;
        }
}

static int fs_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
                      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
        (void)off;
        (void)fi;
        (void)flags;
        if (which(path) != F_ROOT)
                return -ENOENT;
        static const char *const names[] = {".",         "..",      "monreader",
                                            "monwriter", "control", "status"};
        for (size_t i = 0; i < 6; i++)
                if (!(i == 2 && (G.vanished & VANISH_READER)) &&
                    !(i == 3 && (G.vanished & VANISH_WRITER)))
                        fill(buf, names[i], NULL, 0, 0);
        return 0;
}

/*
 * The process (thread group) a request comes from, from the thread id FUSE
 * gives; -1 when /proc does not tell (a caller in another pid namespace).
 */
static long caller_tgid(void)
{
        pid_t tid = fuse_get_context()->pid;
        char path[64], line[128];
        long tgid = -1;
        if (tid <= 0)
                return -1;
        snprintf(path, sizeof(path), "/proc/%ld/status", (long)tid);
        FILE *f = fopen(path, "r");
        if (!f)
                return -1;
        while (fgets(line, sizeof(line), f))
                if (sscanf(line, "Tgid: %ld", &tgid) == 1)
                        break;
        fclose(f);
        return tgid;
}

/*
 * Under the lock: the driver's open, logged.  An injected connect failure is
 * also said on stderr, which stands for the kernel log, as the driver's
 * pr_err does (monreader.c mon_open, mon_iucv_path_severed).
 */
static int open_reader(void)
{
        unsigned crc = G.mr.connect_rc;
        int rc = sim_mr_open(&G.mr);
        char detail[64];
        if (rc == -EIO && crc) {
                snprintf(detail, sizeof(detail), "EIO: IUCV CONNECT rc=%u", crc);
                fprintf(stderr,
                        "zvmsim: monreader: Connecting to the z/VM *MONITOR system service "
                        "failed with rc=%u\n",
                        crc);
        } else if (rc == -EIO) {
                snprintf(detail, sizeof(detail), "EIO: severed while connecting");
                fputs("zvmsim: monreader: z/VM *MONITOR system service disconnected while "
                      "connecting\n",
                      stderr);
        } else {
                snprintf(detail, sizeof(detail), "%s", rc ? "EBUSY" : "ok");
        }
        log_event("open", detail);
        return rc;
}

/* fh for the reader: the generation of its open, so a closed handle stays closed. */
static int fs_open(const char *path, struct fuse_file_info *fi)
{
        int w = which(path), rc = 0;
        fi->direct_io = 1;
        fi->nonseekable = 1;
        long opener = w == F_READER || w == F_WRITER ? caller_tgid() : -1;
        pthread_mutex_lock(&G.lock);
        switch (w) {
        case F_READER:
                if (G.vanished & VANISH_READER) {
                        rc = -ENOENT;
                        log_event("open", "ENOENT");
                        break;
                }
                if ((fi->flags & O_ACCMODE) != O_RDONLY) {
                        rc = -EACCES;
                        break;
                }
                rc = open_reader();
                if (rc)
                        break;
                fi->fh = ++G.reader_gen;
                G.reader_owner = opener;
                /* Connect: *MONITOR sends the configuration set first. */
                sim_mr_push(&G.mr, sim_sys_config(G.sys, now_tod()));
                notify();
                break;
        case F_WRITER: {
                if (G.vanished & VANISH_WRITER) {
                        rc = -ENOENT;
                        break;
                }
                struct sim_mw_file *f = sim_mw_open(&G.mw);
                if (!f)
                        rc = -ENOMEM;
                else
                        f->owner = opener;
                fi->fh = f ? f->id : 0;
                break;
        }
        case F_CONTROL:
        case F_STATUS:
                fi->fh = 0;
                break;
        default:
                rc = -ENOENT;
        }
        pthread_mutex_unlock(&G.lock);
        return rc;
}

static bool reader_live(struct fuse_file_info *fi)
{
        return G.mr.open && fi->fh == G.reader_gen;
}

/*
 * A read(2) larger than one FUSE request is split by the kernel, which asks
 * for the next piece only when a piece came back full.  A piece that ends
 * exactly at a unit boundary would then let one read(2) cross it; keep one
 * byte back in that case (only reads of 128 KB and more can be split).
 */
#define FUSE_SPLIT_MIN (128 * 1024)

/* The status file: the counters as one text, read in one call (the driver reads it so). */
static int read_status(char *buf, size_t size, off_t off)
{
        char text[1024];
        pthread_mutex_lock(&G.lock);
        const struct sim_counts *c = sim_sys_counts(G.sys);
        int n =
            snprintf(text, sizeof(text),
                     "interval %llu\nsets %llu\nrecords %llu\nreader_open %d\nqueued %zu\n"
                     "delivered %llu\ndropped %llu\noverflows %llu\nwriter_buffers %u\n"
                     "lost %llu\nlost_sets %llu\ndcss_pages %u\ncut %llu\nopen_eio %llu\n",
                     (unsigned long long)sim_sys_interval_no(G.sys), (unsigned long long)c->sets,
                     (unsigned long long)c->records, G.mr.open, G.mr.nq,
                     (unsigned long long)G.mr.delivered, (unsigned long long)G.mr.dropped,
                     (unsigned long long)G.mr.overflows, G.mw.count, (unsigned long long)c->lost,
                     (unsigned long long)c->lost_sets, sim_sys_dcss(G.sys)->npages,
                     (unsigned long long)G.mr.cut_sets, (unsigned long long)G.mr.open_eios);
        pthread_mutex_unlock(&G.lock);
        if (off >= n)
                return 0;
        size_t k = (size_t)n - (size_t)off < size ? (size_t)n - (size_t)off : size;
        memcpy(buf, text + off, k);
        return (int)k;
}

/* How much of a read to serve: one byte less when a split piece would end on a boundary. */
static size_t piece(size_t size)
{
        if (size < FUSE_SPLIT_MIN || !G.mr.nq)
                return size;
        struct sim_set *s = G.mr.q[G.mr.head];
        size_t end = s->len;
        for (size_t i = 0; i < s->nends; i++)
                if (s->ends[i] > G.mr.pos) {
                        end = s->ends[i];
                        break;
                }
        return G.mr.pos < s->len && end - G.mr.pos == size ? size - 1 : size;
}

/* A read of the monreader file, waiting (under G.lock) like the driver's blocking read. */
static ssize_t read_monitor(char *buf, size_t size, struct fuse_file_info *fi,
                            struct fuse_session *se)
{
        bool nonblock = (fi->flags & O_NONBLOCK) != 0;
        for (;;) {
                if (!reader_live(fi))
                        return -EIO;
                ssize_t r = sim_mr_read(&G.mr, (uint8_t *)buf, piece(size), nonblock);
                if (r != SIM_MR_WAIT)
                        return r;
                struct timespec t;
                clock_gettime(CLOCK_REALTIME, &t);
                zd_timespec_add_ns(&t, 100000000);
                pthread_cond_timedwait(&G.cond, &G.lock, &t);
                if (fuse_interrupted())
                        return -EINTR;
                if (G.stop || fuse_session_exited(se))
                        return -EIO; /* the monitor went away */
        }
}

static int fs_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
        int w = which(path);
        if (w == F_STATUS)
                return read_status(buf, size, off);
        if (w != F_READER)
                return -EINVAL;
        /*
         * libfuse cancels its workers when the session ends; a worker
         * cancelled inside the wait below would die holding the lock.  Keep
         * cancellation off and leave the wait when the session has ended.
         */
        int oldcancel;
        pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &oldcancel);
        struct fuse_session *se = fuse_get_session(fuse_get_context()->fuse);
        pthread_mutex_lock(&G.lock);
        ssize_t r = read_monitor(buf, size, fi, se);
        pthread_mutex_unlock(&G.lock);
        pthread_setcancelstate(oldcancel, NULL);
        return (int)r;
}

/* "efault", "eio", "empty", "cut", each with an optional "sample"; false if malformed. */
static bool arm_read_failure(const char *verb, const char *cmd)
{
        char arg[16] = "";
        enum sim_mr_arm a = SIM_MR_ANY;
        if (sscanf(cmd, "%*s %15s", arg) == 1) {
                if (strcmp(arg, "sample") != 0)
                        return false;
                a = SIM_MR_SAMPLE;
        }
        if (strcmp(verb, "efault") == 0)
                G.mr.efault = a;
        else if (strcmp(verb, "eio") == 0)
                G.mr.eio = a;
        else if (strcmp(verb, "empty") == 0)
                G.mr.empty = a;
        else
                G.mr.cut = a;
        return true;
}

/*
 * "openeio [N]" and "connect RC [N]": the next N opens (1) fail with EIO, as
 * when CP severs the path before it completes or IUCV CONNECT returns RC.
 * The latest command counts; N 0 disarms.
 */
static int arm_open_failure(const char *verb, const char *cmd)
{
        unsigned long rc = 0, n = 1;
        int k = strcmp(verb, "connect") == 0 ? sscanf(cmd, "%*s %lu %lu", &rc, &n)
                                             : sscanf(cmd, "%*s %lu", &n);
        if (strcmp(verb, "connect") == 0 && (k < 1 || rc == 0 || rc > 255))
                return -EINVAL;
        if (n > 1000000)
                return -EINVAL;
        G.mr.open_fails = (unsigned)n;
        G.mr.connect_rc = (unsigned)rc;
        return 0;
}

static int control(const char *cmd)
{
        char verb[32] = "";
        unsigned long n = 0;
        int k = sscanf(cmd, "%31s %lu", verb, &n);
        if (k < 1)
                return -EINVAL;
        log_event("control", cmd);
        if (strcmp(verb, "sever") == 0)
                sim_mr_sever(&G.mr);
        else if (strcmp(verb, "openeio") == 0 || strcmp(verb, "connect") == 0)
                return arm_open_failure(verb, cmd);
        else if (strcmp(verb, "efault") == 0 || strcmp(verb, "eio") == 0 ||
                 strcmp(verb, "empty") == 0 || strcmp(verb, "cut") == 0) {
                if (!arm_read_failure(verb, cmd))
                        return -EINVAL;
        } else if (strcmp(verb, "vanish") == 0) {
                /* Device nodes go (and come back with "vanish 0"); a reader that
                 * has monreader open loses its path, a writer's descriptors of
                 * monwriter lose their buffers and fail from then on. */
                if (n > (VANISH_READER | VANISH_WRITER))
                        return -EINVAL;
                unsigned was = G.vanished;
                G.vanished = (unsigned)n;
                if (n & VANISH_READER)
                        sim_mr_sever(&G.mr);
                if ((n & VANISH_WRITER) && !(was & VANISH_WRITER)) {
                        sim_mw_vanish(&G.mw);
                        flush_events();
                }
        } else if (strcmp(verb, "interval") == 0 || strcmp(verb, "burst") == 0 ||
                   strcmp(verb, "overflow") == 0) {
                if (strcmp(verb, "overflow") == 0)
                        n = G.mr.msglim + 5;
                else if (k < 2)
                        n = 1;
                for (unsigned long i = 0; i < n && i < 100000; i++)
                        interval();
        } else if (strcmp(verb, "stall") == 0)
                G.stall = (unsigned)n;
        else if (strcmp(verb, "bigset") == 0)
                sim_sys_bigset(G.sys, (unsigned)n);
        else if (strcmp(verb, "eperm") == 0)
                G.mw.eperm = n != 0;
        else if (strcmp(verb, "maxbufs") == 0)
                G.mw.max_bufs = (unsigned)n;
        else if (strcmp(verb, "oldresize") == 0)
                G.mw.old_resize = n != 0;
        else if (strcmp(verb, "mwdelay") == 0 && n <= 10000)
                G.mw_delay_ms = (unsigned)n;
        else
                return -EINVAL;
        notify();
        return 0;
}

static int fs_write(const char *path, const char *buf, size_t size, off_t off,
                    struct fuse_file_info *fi)
{
        (void)off;
        int w = which(path);
        int rc;
        if (w == F_WRITER) {
                /* Outside the lock: a slow DIAGNOSE X'DC' holds up its writer, not CP. */
                pthread_mutex_lock(&G.lock);
                unsigned ms = G.mw_delay_ms;
                pthread_mutex_unlock(&G.lock);
                struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
                if (ms)
                        nanosleep(&ts, NULL);
        }
        pthread_mutex_lock(&G.lock);
        if (w == F_WRITER) {
                struct sim_mw_file *f = sim_mw_find(&G.mw, fi->fh);
                ssize_t r = f ? sim_mw_write(f, (const uint8_t *)buf, size) : -EBADF;
                flush_events();
                rc = (int)r;
        } else if (w == F_CONTROL) {
                char cmd[128];
                size_t n = size < sizeof(cmd) - 1 ? size : sizeof(cmd) - 1;
                memcpy(cmd, buf, n);
                cmd[n] = '\0';
                rc = control(cmd);
                if (rc == 0)
                        rc = (int)size;
        } else {
                rc = -EBADF;
        }
        pthread_mutex_unlock(&G.lock);
        return rc;
}

/* Whether a FLUSH from process me closes a device the process owner opened. */
static bool same_process(long owner, long me)
{
        return owner < 0 || me < 0 || owner == me;
}

/*
 * close(2) sends FLUSH, synchronously, for every descriptor it closes, and
 * RELEASE, asynchronously, once the last reference to the open file is gone;
 * the drivers act at that release.  zvmsim acts at the FLUSH of the process
 * that opened the device (a reopen right after close() must not find it
 * busy), else at RELEASE: a FLUSH from another process, a child dropping the
 * copy it inherited (close, exit, exec), closes nothing.
 */
static void close_device(const char *path, struct fuse_file_info *fi, bool release)
{
        int w = which(path);
        if (w != F_READER && w != F_WRITER)
                return;
        long me = release ? -1 : caller_tgid();
        pthread_mutex_lock(&G.lock);
        if (w == F_READER && reader_live(fi) && same_process(G.reader_owner, me)) {
                log_event("close", "");
                sim_mr_close(&G.mr);
                notify();
        } else if (w == F_WRITER) {
                /* The opener's FLUSH and RELEASE both come: the first one closes. */
                struct sim_mw_file *f = sim_mw_find(&G.mw, fi->fh);
                if (f && same_process(f->owner, me)) {
                        sim_mw_close(f);
                        flush_events();
                }
        }
        pthread_mutex_unlock(&G.lock);
}

static int fs_flush(const char *path, struct fuse_file_info *fi)
{
        close_device(path, fi, false);
        return 0;
}

static int fs_release(const char *path, struct fuse_file_info *fi)
{
        close_device(path, fi, true);
        return 0;
}

static int fs_poll(const char *path, struct fuse_file_info *fi, struct fuse_pollhandle *ph,
                   unsigned *reventsp)
{
        if (which(path) != F_READER) {
                if (ph)
                        fuse_pollhandle_destroy(ph);
                *reventsp = POLLOUT;
                return 0;
        }
        pthread_mutex_lock(&G.lock);
        if (ph) {
                if (G.ph)
                        fuse_pollhandle_destroy(G.ph);
                G.ph = ph;
        }
        *reventsp = reader_live(fi) ? sim_mr_poll(&G.mr) : POLLERR;
        pthread_mutex_unlock(&G.lock);
        return 0;
}

static int fs_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
        (void)size;
        (void)fi;
        return which(path) == F_NONE ? -ENOENT : 0;
}

static const struct fuse_operations ops = {
    .init = fs_init,
    .getattr = fs_getattr,
    .readdir = fs_readdir,
    .open = fs_open,
    .read = fs_read,
    .write = fs_write,
    .flush = fs_flush,
    .release = fs_release,
    .poll = fs_poll,
    .truncate = fs_truncate,
};

/*
 * With cfg->intr libfuse signals a worker thread (SIGUSR1) when the kernel
 * interrupts its request; a blocked monreader read then sees
 * fuse_interrupted() and returns EINTR.  This libfuse only installs its own
 * handler when "intr" is given at fuse_new(), which it does not accept.
 */
static void on_intr_signal(int sig)
{
        (void)sig;
}

/* The simulated system and its devices' state, from the options; false when a file fails. */
static bool start_system(struct sim_opts *o)
{
        G.o = o;
        if (o->truth && !(G.truth = sim_truth_open(o->truth, !o->truth_counts))) {
                fprintf(stderr, "zvmsim: cannot write %s\n", o->truth);
                return false;
        }
        if (o->delivery && !(G.delivery = fopen(o->delivery, "w"))) {
                fprintf(stderr, "zvmsim: cannot write %s\n", o->delivery);
                sim_truth_close(G.truth);
                G.truth = NULL;
                return false;
        }
        G.sys = sim_sys_new(&o->cfg, G.truth);
        sim_mr_init(&G.mr, o->msglim);
        G.mr.fate = log_fate;
        sim_mw_init(&G.mw, o->cfg.writer_userid);
        G.mw.eperm = o->eperm;
        if (o->max_bufs_given)
                G.mw.max_bufs = o->max_bufs;
        sim_sys_attach_writer(G.sys, &G.mw);
        return true;
}

/* The FUSE file system, mounted with its signal handlers; NULL (said why) when it fails. */
static struct fuse *mount_fs(const char *mount)
{
        char *argv[] = {"zvmsim", "-o", "fsname=zvmsim,subtype=zvmsim", NULL};
        struct fuse_args args = FUSE_ARGS_INIT(3, argv);
        struct fuse *f = fuse_new(&args, &ops, sizeof(ops), NULL);
        fuse_opt_free_args(&args);
        if (!f) {
                fputs("zvmsim: fuse_new failed\n", stderr);
                return NULL;
        }
        if (fuse_mount(f, mount) != 0) {
                fprintf(stderr, "zvmsim: cannot mount on %s (is /dev/fuse usable?)\n", mount);
                fuse_destroy(f);
                return NULL;
        }
        pthread_mutex_lock(&G.lock);
        scheduled_faults(0);
        pthread_mutex_unlock(&G.lock);
        if (fuse_set_signal_handlers(fuse_get_session(f)) != 0) {
                fuse_unmount(f);
                fuse_destroy(f);
                return NULL;
        }
        return f;
}

/* Serve until unmounted or signalled, the interval timer beside (timed runs); 0 or 1. */
static int serve(struct fuse *f, const char *mount, bool timed)
{
        pthread_t timer;
        /* The timer sleeps to absolute CLOCK_MONOTONIC deadlines. */
        pthread_condattr_t ca;
        pthread_condattr_init(&ca);
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        pthread_cond_init(&G.tcond, &ca);
        pthread_condattr_destroy(&ca);
        if (timed)
                pthread_create(&timer, NULL, timer_main, NULL);
        fprintf(stderr, "zvmsim: mounted on %s (interval %s)\n", mount, timed ? "timed" : "manual");
        struct fuse_loop_config *lc = fuse_loop_cfg_create();
        fuse_loop_cfg_set_max_threads(lc, 16);
        /*
         * No idle limit (libfuse's default): with one, libfuse detaches the
         * workers it retires, and a detached worker still exiting when the
         * process does leaves its FUSE context behind (LeakSanitizer saw it in
         * check-sim).  Without one, every worker is joined before
         * fuse_loop_mt() returns.
         */
        /* 0, or the number of the signal that ended the loop: both are a clean exit. */
        int lr = fuse_loop_mt(f, lc);
        if (lr < 0)
                fprintf(stderr, "zvmsim: FUSE loop ended with %d\n", lr);
        fuse_loop_cfg_destroy(lc);
        pthread_mutex_lock(&G.lock);
        G.stop = true;
        pthread_cond_broadcast(&G.cond);
        pthread_cond_broadcast(&G.tcond);
        pthread_mutex_unlock(&G.lock);
        if (timed)
                pthread_join(timer, NULL);
        return lr >= 0 ? 0 : 1;
}

int sim_run(struct sim_opts *o)
{
        struct sigaction sa = {.sa_handler = on_intr_signal};
        sigemptyset(&sa.sa_mask);
        sigaction(SIGUSR1, &sa, NULL);
        if (!start_system(o))
                return 1;
        int rc = 1;
        struct fuse *f = mount_fs(o->mount);
        if (f) {
                rc = serve(f, o->mount, o->interval_s > 0);
                fuse_remove_signal_handlers(fuse_get_session(f));
                fuse_unmount(f);
                fuse_destroy(f);
                fprintf(stderr, "zvmsim: unmounted %s\n", o->mount);
        }
        sim_records_report_misses(stderr);
        sim_mw_fini(&G.mw);
        sim_mr_fini(&G.mr);
        sim_sys_free(G.sys);
        sim_truth_close(G.truth);
        if (G.delivery)
                fclose(G.delivery);
        return rc;
}
