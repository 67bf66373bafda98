/* SPDX-License-Identifier: MIT */
/*
 * ShareSocket: a live view beside the collector.  monreader lets one program
 * per guest read *MONITOR (doc/facts/kernel-drivers.md 1.3), and that is the
 * plugin; so the plugin hands every data set it decodes to local readers
 * (zvmmon top, zvmmon capture) over a Unix stream socket, in zvmmon's
 * capture format (decoder/source/source.h): the file header, the last
 * configuration set (a reader that comes late would lack the system's name
 * and shape), then each data set as it comes.
 *
 * The read thread never waits for a reader.  It copies a set once into a
 * block that every reader's queue refers to, and a reader whose queue
 * already holds data and would pass ShareBuffer with it is dropped and
 * counted: its socket is closed, and the plugin goes on as before.  A writer
 * thread of its own accepts, sends without blocking, and closes.  With no
 * reader a set costs one look at the reader count.
 */
#define _GNU_SOURCE /* accept4, pipe2, and struct ucred for SO_PEERCRED: Linux's */
#include "zvm_collectd.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "complaint.h"
#include "zvmdec.h"
#include "zvm.h"

/* Readers at once: each is a descriptor and a queue of references. */
#define SHARE_MAX_READERS 64

/* A frame as readers get it: the capture frame header and the set, or the file header. */
struct share_block {
        atomic_uint refs;
        size_t len;
        uint8_t b[];
};

struct share_reader {
        int fd;     /* -1: the place is free */
        bool drop;  /* fell behind (the read thread's verdict): the writer closes it */
        bool fresh; /* came since the last set: the configuration marked after it is its too */
        struct share_block **q; /* a ring: head, n, cap */
        size_t head, n, cap;
        size_t off;    /* bytes of q[head] sent */
        size_t queued; /* bytes in q not sent */
        uint64_t sent;
        pid_t pid;
};

struct zvm_share {
        char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
        dev_t dev; /* the socket file this share made: removed at close only if still there */
        ino_t ino;
        size_t limit;
        int lfd, wake[2];
        pthread_mutex_t mu; /* the readers' places and queues */
        atomic_uint nreaders;
        atomic_bool stop;
        bool rest; /* accept failed (EMFILE...): the next turn leaves the socket alone */
        struct share_reader r[SHARE_MAX_READERS];
        struct share_block *hdr;        /* the capture file header, every reader's first */
        struct share_block *config;     /* the last configuration set, its second */
        uint64_t drops, refused, bytes; /* under mu, published to the self-metrics by the writer */
};

static c_complain_t drop_complaint = C_COMPLAIN_INIT_STATIC;
static c_complain_t refuse_complaint = C_COMPLAIN_INIT_STATIC;
static c_complain_t accept_complaint = C_COMPLAIN_INIT_STATIC;

static int64_t now_us(void)
{
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static struct share_block *block_new(size_t len)
{
        struct share_block *k = malloc(sizeof(*k) + len);
        if (k) {
                atomic_init(&k->refs, 1);
                k->len = len;
        }
        return k;
}

static struct share_block *frame_new(const uint8_t *set, size_t n, int64_t us)
{
        struct share_block *k = n <= UINT32_MAX ? block_new(ZD_CAP_FRAME_LEN + n) : NULL;
        if (k) {
                zd_capture_frame_header(k->b, (uint32_t)n, us, 0);
                memcpy(k->b + ZD_CAP_FRAME_LEN, set, n);
        }
        return k;
}

static void unref(struct share_block *k)
{
        if (k && atomic_fetch_sub(&k->refs, 1) == 1)
                free(k);
}

/* Under mu.  False: no room for the reference (the reader must go). */
static bool enqueue(struct share_reader *r, struct share_block *k)
{
        if (r->n == r->cap) {
                size_t cap = r->cap ? r->cap * 2 : 16;
                struct share_block **q = malloc(cap * sizeof(*q));
                if (!q)
                        return false;
                for (size_t i = 0; i < r->n; i++)
                        q[i] = r->q[(r->head + i) % r->cap];
                free(r->q);
                r->q = q;
                r->head = 0;
                r->cap = cap;
        }
        atomic_fetch_add(&k->refs, 1);
        r->q[(r->head + r->n++) % r->cap] = k;
        r->queued += k->len;
        return true;
}

/* Under mu: what is queued, let go. */
static void empty(struct share_reader *r)
{
        for (size_t i = 0; i < r->n; i++)
                unref(r->q[(r->head + i) % r->cap]);
        r->head = r->n = r->off = r->queued = 0;
}

/* Under mu: the read thread's verdict; the writer closes the socket at its next turn. */
static void drop(struct zvm_share *sh, struct share_reader *r)
{
        empty(r);
        r->drop = true;
        sh->drops++;
}

/* Under mu: k for r, unless r would fall more than the limit behind with it. */
static void offer(struct zvm_share *sh, struct share_reader *r, struct share_block *k)
{
        if (r->fd < 0 || r->drop)
                return;
        if ((r->queued && r->queued + k->len > sh->limit) || !enqueue(r, k))
                drop(sh, r);
}

static void wake(struct zvm_share *sh)
{
        ssize_t rc = write(sh->wake[1], "", 1); /* full: the writer is awake anyway */
        (void)rc;
}

int64_t zvm_share_put(struct zvm_share *sh, const uint8_t *set, size_t n)
{
        if (!sh || atomic_load_explicit(&sh->nreaders, memory_order_relaxed) == 0)
                return 0;
        int64_t us = now_us();
        struct share_block *k = frame_new(set, n, us);
        pthread_mutex_lock(&sh->mu);
        for (size_t i = 0; i < SHARE_MAX_READERS; i++) {
                struct share_reader *r = &sh->r[i];
                r->fresh = false;
                if (!k && r->fd >= 0 && !r->drop)
                        drop(sh, r); /* a hole in its stream would be worse */
                else if (k)
                        offer(sh, r, k);
        }
        pthread_mutex_unlock(&sh->mu);
        unref(k);
        wake(sh);
        return us;
}

void zvm_share_config(struct zvm_share *sh, const uint8_t *set, size_t n, int64_t us)
{
        if (!sh)
                return;
        struct share_block *k = frame_new(set, n, us ? us : now_us());
        if (!k)
                return; /* the one before stays: older, but better than none */
        pthread_mutex_lock(&sh->mu);
        struct share_block *old = sh->config;
        sh->config = k;
        /* Those that came after it was put got the one before: this one is theirs too. */
        for (size_t i = 0; i < SHARE_MAX_READERS; i++)
                if (sh->r[i].fresh)
                        offer(sh, &sh->r[i], k);
        pthread_mutex_unlock(&sh->mu);
        unref(old);
        wake(sh);
}

/* Under mu: a place given up (the reader left, or was dropped). */
static void vacate(struct zvm_share *sh, struct share_reader *r)
{
        empty(r);
        close(r->fd);
        free(r->q);
        *r = (struct share_reader){.fd = -1};
        atomic_fetch_sub(&sh->nreaders, 1);
}

/* Under mu: a new reader in a free place, with the file header and the configuration. */
static struct share_reader *seat(struct zvm_share *sh, int fd)
{
        for (size_t i = 0; i < SHARE_MAX_READERS; i++) {
                struct share_reader *r = &sh->r[i];
                if (r->fd >= 0)
                        continue;
                *r = (struct share_reader){.fd = fd, .fresh = true};
                if (!enqueue(r, sh->hdr) || (sh->config && !enqueue(r, sh->config))) {
                        empty(r);
                        free(r->q);
                        *r = (struct share_reader){.fd = -1};
                        return NULL;
                }
                atomic_fetch_add(&sh->nreaders, 1);
                return r;
        }
        return NULL;
}

static pid_t peer_pid(int fd)
{
        struct ucred cr;
        socklen_t len = sizeof(cr);
        return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) == 0 ? cr.pid : 0;
}

static void take(struct zvm_share *sh, int fd)
{
        pid_t pid = peer_pid(fd);
        pthread_mutex_lock(&sh->mu);
        struct share_reader *r = seat(sh, fd);
        if (r)
                r->pid = pid;
        else
                sh->refused++;
        unsigned n = atomic_load(&sh->nreaders);
        pthread_mutex_unlock(&sh->mu);
        if (r) {
                INFO(ZVM_PLUGIN " plugin: ShareSocket %s: a reader connected (pid %ld); %u "
                                "reading",
                     sh->path, (long)pid, n);
                return;
        }
        close(fd);
        c_complain(LOG_WARNING, &refuse_complaint,
                   ZVM_PLUGIN " plugin: ShareSocket %s: a reader (pid %ld) refused: %d read "
                              "already, or no memory for one more (total_events-share_refused)",
                   sh->path, (long)pid, SHARE_MAX_READERS);
}

static void accept_all(struct zvm_share *sh)
{
        for (;;) {
                int fd = accept4(sh->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
                if (fd >= 0) {
                        take(sh, fd);
                        continue;
                }
                /* The connection stays queued, and poll would say so at once: a turn's
                   rest keeps that from spinning. */
                if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
                    errno != ECONNABORTED) {
                        sh->rest = true;
                        c_complain(LOG_ERR, &accept_complaint,
                                   ZVM_PLUGIN " plugin: ShareSocket %s: accept: %s", sh->path,
                                   strerror(errno));
                }
                return;
        }
}

/*
 * Send what r's queue holds until the socket is full.  The block being sent
 * is held by a reference of its own, not by mu, so the read thread never
 * waits for a send; it may drop r meanwhile.  False: the reader is gone.
 */
static bool send_some(struct zvm_share *sh, struct share_reader *r)
{
        for (;;) {
                pthread_mutex_lock(&sh->mu);
                if (r->drop || !r->n) {
                        pthread_mutex_unlock(&sh->mu);
                        return true;
                }
                struct share_block *k = r->q[r->head];
                size_t off = r->off, want = k->len - off;
                atomic_fetch_add(&k->refs, 1);
                pthread_mutex_unlock(&sh->mu);
                ssize_t got = send(r->fd, k->b + off, want, MSG_DONTWAIT | MSG_NOSIGNAL);
                int err = errno;
                pthread_mutex_lock(&sh->mu);
                if (got > 0 && !r->drop) {
                        r->off += (size_t)got;
                        r->queued -= (size_t)got;
                        r->sent += (uint64_t)got;
                        sh->bytes += (uint64_t)got;
                        if (r->off == k->len) {
                                unref(r->q[r->head]);
                                r->head = (r->head + 1) % r->cap;
                                r->n--;
                                r->off = 0;
                        }
                }
                pthread_mutex_unlock(&sh->mu);
                unref(k);
                if (got < 0)
                        return err == EAGAIN || err == EWOULDBLOCK || err == EINTR;
                if ((size_t)got < want)
                        return true; /* the socket is full: POLLOUT says when it is not */
        }
}

/* Readers send nothing: what comes is read and forgotten; false at its end or an error. */
static bool still_there(const struct share_reader *r, short revents)
{
        if (revents & (POLLERR | POLLNVAL))
                return false;
        if (!(revents & (POLLIN | POLLHUP)))
                return true;
        char sink[256];
        ssize_t got = recv(r->fd, sink, sizeof(sink), MSG_DONTWAIT);
        return got > 0 || (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR));
}

/* Under mu: the readers to poll into p, their places into at; dropped ones closed first. */
static nfds_t watch(struct zvm_share *sh, struct pollfd *p, size_t *at, struct share_reader *gone)
{
        nfds_t n = 0;
        for (size_t i = 0; i < SHARE_MAX_READERS; i++) {
                struct share_reader *r = &sh->r[i];
                if (r->fd >= 0 && r->drop) {
                        *gone = *r; /* for the message: the last one dropped */
                        vacate(sh, r);
                }
                if (r->fd < 0)
                        continue;
                p[n] = (struct pollfd){r->fd, (short)(POLLIN | (r->n ? POLLOUT : 0)), 0};
                at[n++] = i;
        }
        return n;
}

static void publish(struct zvm_share *sh)
{
        pthread_mutex_lock(&sh->mu);
        uint64_t drops = sh->drops, refused = sh->refused, bytes = sh->bytes;
        pthread_mutex_unlock(&sh->mu);
        zvm_stats_lock();
        struct zvm_stats *s = zvm_stats();
        s->share_on = true;
        s->share_readers = atomic_load(&sh->nreaders);
        s->share_drops = drops;
        s->share_refused = refused;
        s->share_bytes = bytes;
        zvm_stats_unlock();
}

/* A reader's socket, looked at after poll: sent to, or closed when it left. */
static void serve(struct zvm_share *sh, size_t i, short revents)
{
        struct share_reader *r = &sh->r[i];
        if (still_there(r, revents) && send_some(sh, r))
                return;
        pthread_mutex_lock(&sh->mu);
        pid_t pid = r->pid;
        uint64_t sent = r->sent;
        if (r->fd >= 0)
                vacate(sh, r);
        pthread_mutex_unlock(&sh->mu);
        INFO(ZVM_PLUGIN " plugin: ShareSocket %s: a reader (pid %ld) left after %llu bytes",
             sh->path, (long)pid, (unsigned long long)sent);
}

void zvm_share_turn(struct zvm_share *sh, int ms)
{
        struct pollfd p[2 + SHARE_MAX_READERS];
        size_t at[SHARE_MAX_READERS];
        struct share_reader gone = {.fd = -1};
        pthread_mutex_lock(&sh->mu);
        nfds_t n = watch(sh, p + 2, at, &gone);
        pthread_mutex_unlock(&sh->mu);
        if (gone.fd >= 0)
                c_complain(LOG_WARNING, &drop_complaint,
                           ZVM_PLUGIN " plugin: ShareSocket %s: a reader (pid %ld) fell more than "
                                      "ShareBuffer (%zu bytes) behind and was dropped after %llu "
                                      "bytes; the plugin reads on (total_events-share_drops)",
                           sh->path, (long)gone.pid, sh->limit, (unsigned long long)gone.sent);
        p[0] = (struct pollfd){sh->wake[0], POLLIN, 0};
        p[1] = (struct pollfd){sh->rest ? -1 : sh->lfd, POLLIN, 0};
        sh->rest = false;
        if (poll(p, n + 2, ms) > 0) {
                char sink[64];
                while (p[0].revents && read(sh->wake[0], sink, sizeof(sink)) > 0)
                        ;
                if (p[1].revents & POLLIN)
                        accept_all(sh);
        }
        /* Every reader, not only those poll named: a wake-up brought new sets. */
        for (nfds_t k = 0; k < n; k++)
                serve(sh, at[k], p[2 + k].revents);
        publish(sh);
}

void *zvm_share_thread(void *arg)
{
        struct zvm_share *sh = arg;
        while (!atomic_load(&sh->stop))
                zvm_share_turn(sh, 1000);
        return NULL;
}

void zvm_share_stop(struct zvm_share *sh)
{
        atomic_store(&sh->stop, true);
        wake(sh);
}

/* A socket file at the path: left by a collectd that ended without removing it (true),
 * or served by a program still running (false, said). */
static bool stale(const char *path)
{
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        struct sockaddr_un a = {.sun_family = AF_UNIX};
        zvm_strlcpy(a.sun_path, path, sizeof(a.sun_path));
        bool live = fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
        if (fd >= 0)
                close(fd);
        if (live)
                ERROR(ZVM_PLUGIN " plugin: ShareSocket %s: another program serves this socket "
                                 "(another collectd?); no live view",
                      path);
        return !live;
}

static const char *kind_of(mode_t m)
{
        if (S_ISDIR(m))
                return "directory";
        if (S_ISREG(m))
                return "regular file";
        if (S_ISLNK(m))
                return "symbolic link";
        return S_ISFIFO(m) ? "FIFO" : S_ISCHR(m) || S_ISBLK(m) ? "device" : "file";
}

/*
 * The path made ready for the socket: an old socket nobody serves removed,
 * anything else refused (a file the plugin did not make is never replaced),
 * the directory made when missing (one level, as /run/collectd-zvm is gone
 * after each boot).
 */
static bool clear_path(const char *path)
{
        struct stat st;
        if (lstat(path, &st) == 0) {
                if (!S_ISSOCK(st.st_mode)) {
                        ERROR(ZVM_PLUGIN " plugin: ShareSocket %s: a %s is there, not a socket; "
                                         "it is not replaced, and there is no live view (remove "
                                         "it, or choose another path)",
                              path, kind_of(st.st_mode));
                        return false;
                }
                return stale(path) && (unlink(path) == 0 || errno == ENOENT);
        }
        char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
        zvm_strlcpy(dir, path, sizeof(dir));
        char *slash = strrchr(dir, '/');
        if (slash && slash != dir) {
                *slash = 0;
                if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
                        ERROR(ZVM_PLUGIN " plugin: ShareSocket %s: cannot make its directory: %s",
                              path, strerror(errno));
                        return false;
                }
        }
        return true;
}

static bool group_of(const char *name, gid_t *gid)
{
        char buf[4096];
        struct group g, *found = NULL;
        if (getgrnam_r(name, &g, buf, sizeof(buf), &found) == 0 && found) {
                *gid = found->gr_gid;
                return true;
        }
        ERROR(ZVM_PLUGIN " plugin: ShareSocketGroup \"%s\": no such group; no live view", name);
        return false;
}

/*
 * The socket bound with its mode already set (fchmod before bind: the file
 * is made with at most that mode, never wider while its group is changed),
 * then given its exact mode and group.
 */
static int listen_at(const struct zvm_config *c, gid_t gid)
{
        struct sockaddr_un a = {.sun_family = AF_UNIX};
        zvm_strlcpy(a.sun_path, c->share_path, sizeof(a.sun_path));
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        const char *what = "socket";
        if (fd < 0)
                goto fail;
        what = "bind";
        if (fchmod(fd, c->share_perms) != 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0)
                goto fail;
        what = "chmod";
        if (chmod(c->share_path, c->share_perms) != 0)
                goto unbind;
        what = "chown";
        if (c->share_group && chown(c->share_path, (uid_t)-1, gid) != 0)
                goto unbind;
        what = "listen";
        if (listen(fd, SHARE_MAX_READERS) == 0)
                return fd;
unbind:
        unlink(c->share_path);
fail:
        ERROR(ZVM_PLUGIN " plugin: ShareSocket %s: %s: %s; no live view", c->share_path, what,
              strerror(errno));
        if (fd >= 0)
                close(fd);
        return -1;
}

static struct zvm_share *share_new(const struct zvm_config *c)
{
        struct zvm_share *sh = calloc(1, sizeof(*sh));
        if (!sh)
                return NULL;
        zvm_strlcpy(sh->path, c->share_path, sizeof(sh->path));
        sh->limit = (size_t)c->share_buffer;
        sh->lfd = sh->wake[0] = sh->wake[1] = -1;
        for (size_t i = 0; i < SHARE_MAX_READERS; i++)
                sh->r[i].fd = -1;
        pthread_mutex_init(&sh->mu, NULL);
        if ((sh->hdr = block_new(ZD_CAP_HDR_LEN)))
                zd_capture_file_header(sh->hdr->b);
        if (!sh->hdr || pipe2(sh->wake, O_NONBLOCK | O_CLOEXEC) != 0) {
                zvm_share_close(sh);
                return NULL;
        }
        return sh;
}

struct zvm_share *zvm_share_open(const struct zvm_config *c)
{
        C_COMPLAIN_INIT(&drop_complaint);
        C_COMPLAIN_INIT(&refuse_complaint);
        C_COMPLAIN_INIT(&accept_complaint);
        gid_t gid = 0;
        if ((c->share_group && !group_of(c->share_group, &gid)) || !clear_path(c->share_path))
                return NULL;
        struct zvm_share *sh = share_new(c);
        if (!sh) {
                ERROR(ZVM_PLUGIN " plugin: ShareSocket %s: out of memory; no live view",
                      c->share_path);
                return NULL;
        }
        struct stat st;
        if ((sh->lfd = listen_at(c, gid)) < 0 || stat(sh->path, &st) != 0) {
                zvm_share_close(sh);
                return NULL;
        }
        sh->dev = st.st_dev;
        sh->ino = st.st_ino;
        INFO(ZVM_PLUGIN " plugin: ShareSocket %s: serving the monitor's data sets to local "
                        "readers (mode %04o)",
             sh->path, c->share_perms);
        publish(sh);
        return sh;
}

void zvm_share_close(struct zvm_share *sh)
{
        if (!sh)
                return;
        for (size_t i = 0; i < SHARE_MAX_READERS; i++)
                if (sh->r[i].fd >= 0)
                        vacate(sh, &sh->r[i]);
        struct stat st;
        if (sh->lfd >= 0) {
                close(sh->lfd);
                /* Only the file this share made: another collectd may have taken the path. */
                if (lstat(sh->path, &st) == 0 && st.st_dev == sh->dev && st.st_ino == sh->ino)
                        unlink(sh->path);
        }
        for (int i = 0; i < 2; i++)
                if (sh->wake[i] >= 0)
                        close(sh->wake[i]);
        unref(sh->hdr);
        unref(sh->config);
        pthread_mutex_destroy(&sh->mu);
        zvm_stats_lock();
        zvm_stats()->share_on = false;
        zvm_stats()->share_readers = 0;
        zvm_stats_unlock();
        free(sh);
}
