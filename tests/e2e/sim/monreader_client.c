/* SPDX-License-Identifier: MIT */
/*
 * A plain monreader client against zvmsim's FUSE monreader: every behaviour
 * of the kernel driver (doc/facts/kernel-drivers.md 1.3-1.6) checked through the
 * exact sequence of read() results.
 *
 *   monreader_client ZVMSIM_BINARY
 */
#include <dirent.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "record/record.h"
#include "simctl.h"

#define FUSE_SPLIT_MIN (128 * 1024)

static uint8_t buf[4 << 20];
static uint8_t set[64 << 20];

static long rd(int fd, size_t size)
{
        ssize_t r = read(fd, buf, size);
        return r < 0 ? -errno : (long)r;
}

static uint32_t be32at(const uint8_t *p)
{
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/*
 * What the driver returns: min(buffer, rest of the current unit).  zvmsim
 * keeps one byte back when a read of 128 KB or more would end exactly on a
 * unit boundary (the kernel splits such reads into FUSE requests).
 */
static long expect(size_t bs, size_t left)
{
        if (bs >= FUSE_SPLIT_MIN && left == bs)
                return (long)bs - 1;
        return (long)(left < bs ? left : bs);
}

struct setinfo {
        size_t len, nmce, reads;
        long first_err; /* an errno seen instead of data (negative), or 0 */
        size_t eofs, ends;
};

static unsigned long dec_errors;
static void on_err(void *ctx, const struct zd_error *e)
{
        (void)ctx;
        dec_errors++;
        fprintf(stderr, "decode error: %s\n", e->msg);
}

/*
 * Read one data set with buffer size bs, checking every read() against the
 * driver's rule, up to and including its 0-byte read.  The set is decoded.
 */
static bool read_set(int fd, size_t bs, struct setinfo *si)
{
        memset(si, 0, sizeof(*si));
        size_t unit_left = ZD_MCE_LEN;
        bool in_mce = true;
        uint8_t mce[ZD_MCE_LEN];
        size_t mce_got = 0;
        for (;;) {
                long r = rd(fd, bs);
                si->reads++;
                if (r < 0) {
                        si->first_err = r;
                        return false;
                }
                if (r == 0) {
                        CHECK(in_mce && mce_got == 0, "0-byte read inside a unit (%zu left)",
                              unit_left);
                        break;
                }
                long want = expect(bs, unit_left);
                CHECK(r == want, "read(%zu) returned %ld, driver rule says %ld (unit %s, %zu left)",
                      bs, r, want, in_mce ? "MCE" : "records", unit_left);
                if (r > (long)unit_left) /* crossed a boundary: nothing more to check */
                        return false;
                memcpy(set + si->len, buf, (size_t)r);
                si->len += (size_t)r;
                if (in_mce) {
                        memcpy(mce + mce_got, buf, (size_t)r);
                        mce_got += (size_t)r;
                }
                unit_left -= (size_t)r;
                if (unit_left == 0) {
                        if (in_mce) {
                                uint32_t s = be32at(mce + 4), e = be32at(mce + 8);
                                CHECK(e > s, "MCE range %08X-%08X", s, e);
                                CHECK(mce[0] == 0xE2 || mce[0] == 0xC5, "MCE type %02X", mce[0]);
                                unit_left = (size_t)(e - s) + 1;
                                in_mce = false;
                                si->nmce++;
                        } else {
                                unit_left = ZD_MCE_LEN;
                                in_mce = true;
                                mce_got = 0;
                        }
                }
        }
        struct zd_handler h = {.error = on_err};
        struct zd_decoder d;
        zd_decoder_init(&d, &h);
        unsigned long before = dec_errors;
        zd_decode_dataset(&d, zd_view_make(set, si->len), 0, 0);
        CHECK(dec_errors == before, "decoder reported errors on the set");
        si->eofs = d.st.frames;
        si->ends = d.st.intervals;
        return true;
}

/* The next sample set (Interval End), skipping event sets (guest logon/logoff) before it. */
static bool read_sample(int fd, size_t bs, struct setinfo *si)
{
        for (int i = 0; i < 8; i++) {
                if (!read_set(fd, bs, si))
                        return false;
                if (si->ends)
                        return si->ends == 1;
        }
        return false;
}

static int open_reader(struct sim *s, int flags)
{
        int fd = open(simpath(s, "monreader"), O_RDONLY | flags);
        return fd < 0 ? -errno : fd;
}

static void t_basic(struct sim *s)
{
        int fd = open_reader(s, O_NONBLOCK);
        CHECK(fd >= 0, "open monreader: %s", strerror(-fd));
        if (fd < 0)
                return;
        int fd2 = open_reader(s, 0);
        CHECK(fd2 == -EBUSY, "second open gave %d, want -EBUSY", fd2);
        if (fd2 >= 0)
                close(fd2);

        /* On connect: the configuration set, ended by Interval End. */
        struct setinfo si;
        CHECK(read_set(fd, 65536, &si), "configuration set");
        CHECK(si.reads == 3 && si.nmce == 1, "config set: %zu reads, %zu MCEs; want 12, N, 0",
              si.reads, si.nmce);
        CHECK(si.ends == 1, "config set has %zu Interval End records", si.ends);
        CHECK(si.len >= 32 && set[si.len - 20 + 4] == 1 && set[si.len - 20 + 7] == 11,
              "config set does not end with D1R11");

        /* Nothing queued: O_NONBLOCK gives EAGAIN, poll gives nothing. */
        CHECK(rd(fd, 4096) == -EAGAIN, "empty queue: want EAGAIN");
        struct pollfd p = {.fd = fd, .events = POLLIN};
        CHECK(poll(&p, 1, 0) == 0, "poll on an empty queue reported %x", p.revents);

        /* One interval: poll reports it; a 12-byte buffer reads exactly the MCE. */
        CHECK(ctl(s, "interval") == 0, "control interval");
        p.revents = 0;
        CHECK(poll(&p, 1, 2000) == 1 && (p.revents & POLLIN), "poll after an interval: %x",
              p.revents);
        CHECK(rd(fd, 12) == 12, "MCE read with a 12-byte buffer");
        long r = rd(fd, 64);
        CHECK(r == 64, "first record bytes: %ld", r);
        /* poll still reports the partly read message. */
        p.revents = 0;
        CHECK(poll(&p, 1, 0) == 1 && (p.revents & POLLIN), "poll on a partly read set: %x",
              p.revents);
        /* Finish it with odd buffer sizes, checked against the rule. */
        while ((r = rd(fd, 999)) > 0)
                ;
        CHECK(r == 0, "end of set: %ld", r);
        CHECK(rd(fd, 10) == -EAGAIN, "after the set: EAGAIN");

        /* Tiny buffers split the MCE itself: 5, 5, 2. */
        ctl(s, "interval");
        CHECK(rd(fd, 5) == 5 && rd(fd, 5) == 5 && rd(fd, 5) == 2, "MCE in 5-byte reads: 5 5 2");
        while ((r = rd(fd, 4096)) > 0)
                ;
        CHECK(r == 0, "end of set after tiny reads: %ld", r);

        /* Several intervals queued: each is its own set with its own 0-byte read. */
        ctl(s, "interval 3");
        for (int i = 0; i < 3; i++) {
                CHECK(read_sample(fd, 100, &si), "queued set %d", i);
                CHECK(si.ends == 1, "queued set %d: %zu Interval Ends", i, si.ends);
        }
        CHECK(rd(fd, 10) == -EAGAIN, "three sets read: EAGAIN");

        /* close() then an immediate reopen: not busy, configuration set again. */
        close(fd);
        fd = open_reader(s, O_NONBLOCK);
        CHECK(fd >= 0, "reopen right after close: %s", fd < 0 ? strerror(-fd) : "ok");
        if (fd >= 0) {
                CHECK(read_set(fd, 65536, &si) && si.ends == 1, "config set after reopen");
                close(fd);
        }
}

/* Open without blocking and read the configuration set every connection starts with. */
static int open_past_config(struct sim *s, struct setinfo *si)
{
        int fd = open_reader(s, O_NONBLOCK);
        CHECK(fd >= 0, "open");
        if (fd >= 0)
                read_set(fd, 65536, si);
        return fd;
}

static void t_multi_mce(struct sim *s)
{
        struct setinfo si;
        int fd = open_past_config(s, &si);
        if (fd < 0)
                return;
        ctl(s, "bigset 12");
        ctl(s, "interval");
        CHECK(read_set(fd, 8192, &si), "set with several MCEs");
        CHECK(si.nmce >= 3, "bigset with --frames-per-mce 4 gave %zu MCEs", si.nmce);
        CHECK(si.eofs >= 10, "bigset: %zu End-of-Frame records", si.eofs);
        CHECK(si.ends == 1, "bigset: %zu Interval Ends", si.ends);
        close(fd);
}

/*
 * The driver's release runs at the last close of the open file: children that
 * drop their copies of the descriptor neither close the device under the
 * reader nor make it free for a second opener.
 */
static void t_children(struct sim *s)
{
        struct setinfo si;
        int fd = open_past_config(s, &si);
        if (fd < 0)
                return;
        children_drop(fd);
        ctl(s, "interval");
        CHECK(read_sample(fd, 65536, &si) && si.ends == 1,
              "the reader reads on after children dropped their copies (%ld)", si.first_err);
        int fd2 = open_reader(s, O_NONBLOCK);
        CHECK(fd2 == -EBUSY, "open while the reader has it open: %d, want -EBUSY", fd2);
        if (fd2 >= 0)
                close(fd2);
        close(fd);
        fd = open_reader(s, O_NONBLOCK);
        CHECK(fd >= 0, "reopen after the reader's own close: %s", fd < 0 ? strerror(-fd) : "ok");
        if (fd >= 0)
                close(fd);
}

struct later {
        struct sim *s;
        long ms;
        const char *cmd;
};
static void *do_later(void *arg)
{
        struct later *l = arg;
        msleep(l->ms);
        ctl(l->s, "%s", l->cmd);
        return NULL;
}

static double now_s(void)
{
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void t_blocking(struct sim *s)
{
        int fd = open_reader(s, 0);
        CHECK(fd >= 0, "open blocking");
        if (fd < 0)
                return;
        struct setinfo si;
        read_set(fd, 65536, &si);
        pthread_t t;
        struct later l = {s, 300, "interval"};
        pthread_create(&t, NULL, do_later, &l);
        double t0 = now_s();
        long r = rd(fd, 65536);
        double dt = now_s() - t0;
        pthread_join(t, NULL);
        CHECK(r == 12, "blocking read returned %ld", r);
        CHECK(dt > 0.2, "blocking read returned after %.3f s, before the interval", dt);
        while ((r = rd(fd, 65536)) > 0)
                ;
        CHECK(r == 0, "end of set: %ld", r);
        close(fd);
}

static void on_usr1(int sig)
{
        (void)sig;
}

struct killer {
        pthread_t target;
        long ms;
};
static void *do_kill(void *arg)
{
        struct killer *k = arg;
        msleep(k->ms);
        pthread_kill(k->target, SIGUSR1);
        return NULL;
}

/* A signal interrupts a blocked read: EINTR, and the device stays usable. */
static void t_eintr(struct sim *s)
{
        int fd = open_reader(s, 0);
        CHECK(fd >= 0, "open blocking");
        if (fd < 0)
                return;
        struct setinfo si;
        read_set(fd, 65536, &si);
        struct sigaction sa = {.sa_handler = on_usr1}; /* no SA_RESTART */
        sigaction(SIGUSR1, &sa, NULL);
        pthread_t t;
        struct killer k = {pthread_self(), 300};
        pthread_create(&t, NULL, do_kill, &k);
        long r = rd(fd, 65536);
        pthread_join(t, NULL);
        CHECK(r == -EINTR, "blocked read hit by a signal returned %ld, want -EINTR", r);
        ctl(s, "interval");
        CHECK(read_sample(fd, 65536, &si) && si.ends == 1, "a set after EINTR");
        close(fd);
}

static void t_overflow(struct sim *s)
{
        int fd = open_reader(s, O_NONBLOCK);
        CHECK(fd >= 0, "open");
        if (fd < 0)
                return;
        /* The configuration set is message 1; 300 more intervals while nobody reads. */
        ctl(s, "burst 300");
        long zeros = 0, r = 0;
        for (;;) {
                r = rd(fd, 65536);
                if (r == 0 && ++zeros == 255) {
                        /* The driver counts the message that reached the limit as ready
                         * until the read that reports EOVERFLOW. */
                        struct pollfd p = {.fd = fd, .events = POLLIN};
                        CHECK(poll(&p, 1, 0) == 1 && (p.revents & POLLIN),
                              "poll with EOVERFLOW to report: %x", p.revents);
                } else if (r < 0)
                        break;
        }
        CHECK(zeros == 255, "%ld data sets before the error; want 255 (the message limit)", zeros);
        CHECK(r == -EOVERFLOW, "after the 255th set: %ld, want -EOVERFLOW", r);
        CHECK(rd(fd, 65536) == -EAGAIN, "after EOVERFLOW: EAGAIN (later messages were lost)");
        /* Reading continues normally. */
        ctl(s, "interval");
        struct setinfo si;
        CHECK(read_sample(fd, 65536, &si) && si.ends == 1, "a set after EOVERFLOW");
        CHECK(status(s, "dropped") >= 46, "status dropped = %ld", status(s, "dropped"));
        close(fd);
}

static void t_sever_efault(struct sim *s)
{
        struct setinfo si;
        int fd = open_past_config(s, &si);
        if (fd < 0)
                return;

        /* EFAULT: reported once, nothing advances. */
        ctl(s, "interval");
        CHECK(rd(fd, 12) == 12, "MCE before EFAULT");
        ctl(s, "efault");
        CHECK(rd(fd, 100) == -EFAULT, "EFAULT injected");
        long r = rd(fd, 100);
        CHECK(r == 100, "read after EFAULT continues where it was: %ld", r);
        while ((r = rd(fd, 65536)) > 0)
                ;
        CHECK(r == 0, "end of set after EFAULT");

        /* Sever: EIO on every read and POLLERR until reopened. */
        ctl(s, "interval");
        CHECK(rd(fd, 12) == 12, "MCE before sever");
        ctl(s, "sever");
        CHECK(rd(fd, 100) == -EIO, "read after sever: EIO");
        CHECK(rd(fd, 100) == -EIO, "read after sever, again: EIO");
        ctl(s, "interval");
        CHECK(rd(fd, 100) == -EIO, "severed path gets no new data");
        struct pollfd p = {.fd = fd, .events = POLLIN};
        CHECK(poll(&p, 1, 0) == 1 && (p.revents & POLLERR), "poll after sever: %x", p.revents);
        int fd2 = open_reader(s, O_NONBLOCK);
        CHECK(fd2 == -EBUSY, "severed but still open: EBUSY for another opener");
        if (fd2 >= 0)
                close(fd2);
        close(fd);
        fd = open_reader(s, O_NONBLOCK);
        CHECK(fd >= 0, "reopen after sever");
        if (fd >= 0) {
                CHECK(read_set(fd, 65536, &si) && si.ends == 1, "config set after reopen");
                ctl(s, "interval");
                CHECK(read_sample(fd, 65536, &si) && si.ends == 1, "sample set after reopen");
                close(fd);
        }
}

/* stall N: N intervals generated but never sent; the reader sees a gap. */
static void t_stall(struct sim *s)
{
        struct setinfo si;
        int fd = open_past_config(s, &si);
        if (fd < 0)
                return;
        long before = status(s, "interval");
        ctl(s, "stall 2");
        ctl(s, "interval 3");
        size_t samples = 0, sets = 0;
        while (read_set(fd, 65536, &si)) {
                sets++;
                samples += si.ends;
        }
        CHECK(si.first_err == -EAGAIN, "queue drained: %ld", si.first_err);
        CHECK(samples == 1, "stall 2 + 3 intervals: %zu sample sets arrived, want 1", samples);
        CHECK(status(s, "interval") == before + 3, "the model still advanced 3 intervals");
        close(fd);
}

static void t_bigread(struct sim *s)
{
        struct setinfo si;
        int fd = open_past_config(s, &si);
        if (fd < 0)
                return;
        /* A record range over 1 MB read with a 4 MB buffer. */
        ctl(s, "bigset 400");
        ctl(s, "interval");
        CHECK(read_set(fd, 4 << 20, &si), "big set with a 4 MB buffer");
        CHECK(si.len > (1u << 20), "big set is %zu bytes", si.len);
        CHECK(si.ends == 1 && si.eofs >= 399, "big set: %zu EOF, %zu Interval End", si.eofs,
              si.ends);
        close(fd);
}

/*
 * The driver's checks of a message's control area (empty, cut) and a failed
 * connect (connect RC, openeio), through the FUSE file.
 */
static void t_cut_empty(struct sim *s)
{
        struct setinfo si;
        int fd = open_past_config(s, &si);
        if (fd < 0)
                return;
        long cut0 = status(s, "cut");
        /* empty: the first read is the 0-byte read, nothing before it. */
        ctl(s, "empty sample");
        ctl(s, "interval");
        long first = -1, r;
        for (int i = 0; i < 8 && (first = rd(fd, 65536)) > 0; i++)
                while ((r = rd(fd, 65536)) > 0) /* an event set ahead of it passes whole */
                        ;
        CHECK(first == 0, "empty set: first read %ld, want 0", first);
        CHECK(rd(fd, 100) == -EAGAIN, "after the empty set: EAGAIN (its data is gone)");
        /* cut: the MCEs before the last, then 0: a sample set without Interval End. */
        ctl(s, "bigset 12");
        ctl(s, "cut sample");
        ctl(s, "interval");
        bool sample = false;
        for (int i = 0; i < 8 && !sample && read_set(fd, 8192, &si); i++)
                sample = set[0] == 0xE2;
        CHECK(sample && si.ends == 0 && si.nmce >= 2,
              "cut sample set: %zu MCEs, %zu Interval Ends; want several and none", si.nmce,
              si.ends);
        CHECK(status(s, "cut") == cut0 + 2, "status cut %ld, want %ld", status(s, "cut"), cut0 + 2);
        /* The next set is whole again. */
        ctl(s, "interval");
        CHECK(read_sample(fd, 65536, &si) && si.ends == 1, "a whole set after cut");
        close(fd);

        /* EIO at open, twice; the device stays free, the third open connects. */
        long eio0 = status(s, "open_eio");
        CHECK(ctl(s, "connect") == -EINVAL, "connect without a return code refused");
        CHECK(ctl(s, "connect 0") == -EINVAL, "connect rc 0 refused");
        CHECK(ctl(s, "connect 11 2") == 0, "control connect 11 2");
        CHECK(open_reader(s, O_NONBLOCK) == -EIO, "open with IUCV CONNECT rc 11: EIO");
        CHECK(open_reader(s, O_NONBLOCK) == -EIO, "second open with rc 11: EIO");
        fd = open_reader(s, O_NONBLOCK);
        CHECK(fd >= 0, "third open: %s", fd < 0 ? strerror(-fd) : "ok");
        if (fd >= 0) {
                CHECK(read_set(fd, 65536, &si) && si.ends == 1, "config set after failed opens");
                close(fd);
        }
        ctl(s, "openeio");
        CHECK(open_reader(s, O_NONBLOCK) == -EIO, "open severed while connecting: EIO");
        CHECK(status(s, "reader_open") == 0, "a failed open leaves no reader");
        fd = open_reader(s, O_NONBLOCK);
        CHECK(fd >= 0, "open after openeio: %s", fd < 0 ? strerror(-fd) : "ok");
        if (fd >= 0)
                close(fd);
        CHECK(status(s, "open_eio") == eio0 + 3, "status open_eio %ld, want %ld",
              status(s, "open_eio"), eio0 + 3);
}

/* The thread ids of zvmsim's tasks, in directory order; how many. */
static size_t task_ids(pid_t pid, long *ids, size_t max)
{
        char dir[64];
        snprintf(dir, sizeof(dir), "/proc/%ld/task", (long)pid);
        DIR *d = opendir(dir);
        size_t n = 0;
        if (!d)
                return 0;
        for (struct dirent *e; (e = readdir(d)) != NULL && n < max;)
                if (e->d_name[0] != '.')
                        ids[n++] = strtol(e->d_name, NULL, 10);
        closedir(d);
        return n;
}

/*
 * FUSE workers stay: a pool that retires a worker after each request (what
 * an idle limit of 0 does) churns threads and leaves detached ones exiting
 * as the process does.  Every task present before forty requests is still
 * there after them.
 */
static void t_workers_kept(struct sim *s)
{
        long before[64], after[64];
        status(s, "interval");
        size_t nb = task_ids(s->pid, before, 64), na;
        CHECK(nb >= 2, "zvmsim has %zu tasks, want the main thread and a worker", nb);
        for (int i = 0; i < 40; i++)
                status(s, "interval");
        na = task_ids(s->pid, after, 64);
        size_t gone = 0;
        for (size_t i = 0; i < nb; i++) {
                bool found = false;
                for (size_t j = 0; j < na && !found; j++)
                        found = after[j] == before[i];
                gone += !found;
        }
        CHECK(gone == 0, "%zu of %zu zvmsim tasks ended during 40 status reads", gone, nb);
}

struct blocked {
        struct sim *s;
        volatile int ready;
        int fd;
        long r;
};
static void *blocked_reader(void *arg)
{
        struct blocked *b = arg;
        struct setinfo si;
        b->fd = open_reader(b->s, 0);
        if (b->fd < 0)
                return NULL;
        while (read_set(b->fd, 65536, &si)) /* drain what is queued, then block */
                if (status(b->s, "queued") == 0)
                        break;
        b->ready = 1;
        b->r = rd(b->fd, 65536);
        return NULL;
}

int main(int argc, char **argv)
{
        if (argc != 2) {
                fputs("usage: monreader_client ZVMSIM_BINARY\n", stderr);
                return 2;
        }
        struct sim s;
        sim_start(&s, argv[1], "--interval", "0", "--frames-per-mce", "4", NULL);
        t_basic(&s);
        t_multi_mce(&s);
        t_children(&s);
        t_blocking(&s);
        t_eintr(&s);
        t_overflow(&s);
        t_sever_efault(&s);
        t_stall(&s);
        t_bigread(&s);
        t_cut_empty(&s);
        t_workers_kept(&s);
        sim_stop(&s);

        /* --fault @N:COMMAND runs a control command when interval N is made. */
        sim_start(&s, argv[1], "--interval", "0", "--fault", "@3:sever", "--fault", "stall 1",
                  NULL);
        {
                int fd = open_reader(&s, O_NONBLOCK);
                struct setinfo si;
                CHECK(fd >= 0 && read_set(fd, 65536, &si), "config set (faults)");
                ctl(&s, "interval 2"); /* interval 1 withheld by "stall 1" at start */
                CHECK(read_sample(fd, 65536, &si), "interval 2 arrives");
                CHECK(rd(fd, 100) == -EAGAIN, "interval 1 was stalled");
                ctl(&s, "interval");
                CHECK(rd(fd, 100) == -EIO, "--fault @3:sever severed before interval 3");
                if (fd >= 0)
                        close(fd);
        }
        sim_stop(&s);

        /* A fault that makes intervals itself runs once, not for every interval it makes
         * (it recursed until zvmsim died of SIGSEGV). */
        sim_start(&s, argv[1], "--interval", "0", "--fault", "@1:interval", NULL);
        {
                CHECK(ctl(&s, "interval") == 0, "control interval with --fault @1:interval");
                CHECK(status(&s, "interval") == 2,
                      "--fault @1:interval made one more interval "
                      "(status interval %ld)",
                      status(&s, "interval"));
                CHECK(ctl(&s, "interval") == 0, "zvmsim still answers");
        }
        sim_stop(&s);

        /* Timed intervals come at the configured pace (a loose bound, not a timing test). */
        sim_start(&s, argv[1], "--interval", "0.2", NULL);
        msleep(1000);
        long n = status(&s, "interval");
        CHECK(n >= 2 && n <= 20, "%ld intervals of 0.2 s in about 1 s", n);
        int fd = open_reader(&s, 0);
        struct setinfo si;
        CHECK(fd >= 0 && read_set(fd, 65536, &si) && si.ends == 1, "config set, timed mode");
        CHECK(fd >= 0 && read_sample(fd, 65536, &si) && si.ends == 1, "a timed interval arrives");
        if (fd >= 0)
                close(fd);
        sim_stop(&s);

        /* SIGTERM while a reader is blocked: the read fails, zvmsim exits 0 and unmounts. */
        sim_start(&s, argv[1], "--interval", "0", NULL);
        pthread_t t;
        struct blocked b = {.s = &s};
        pthread_create(&t, NULL, blocked_reader, &b);
        for (int i = 0; i < 50 && !b.ready; i++)
                msleep(20);
        msleep(300);
        sim_stop(&s);
        pthread_join(t, NULL);
        CHECK(b.ready && b.r < 0, "blocked read at shutdown returned %ld", b.r);
        if (b.fd >= 0)
                close(b.fd);
        return finish("monreader_client");
}
