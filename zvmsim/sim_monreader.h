/* SPDX-License-Identifier: MIT */
/*
 * /dev/monreader semantics (doc/facts/kernel-drivers.md 1.3-1.6), without FUSE:
 * one opener; a queue of at most msglim unreplied IUCV messages; a read
 * returns at most the rest of the current MCE or record range, and a 0-byte
 * read ends each data set; the message that reaches the limit is flagged and
 * the read after its 0-byte read reports EOVERFLOW.  The caller holds any lock.
 */
#ifndef ZVMSIM_MONREADER_H
#define ZVMSIM_MONREADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct sim_set;

#define SIM_MR_MSGLIM 255
#define SIM_MR_WAIT   (-100000) /* nothing queued and the read may block */

/*
 * What became of a message (--delivery): "delivered" at its 0-byte read,
 * "efault" when a read into it failed (it stays queued), "empty" or "cut"
 * when the driver's checks of its control area ended it early (replied, so
 * gone), or why it was dropped ("no-reader", "severed", "queue-full",
 * "close", "sever", "eio").  done: bytes of it the reader had taken.
 */
typedef void sim_mr_fate_fn(void *ctx, const struct sim_set *s, const char *fate, size_t done);

/* An injected read failure: off, armed for the next set, or for the next sample set. */
enum sim_mr_arm { SIM_MR_OFF, SIM_MR_ANY, SIM_MR_SAMPLE };

struct sim_mr {
        bool open, severed;
        enum sim_mr_arm efault;
        enum sim_mr_arm eio; /* sever the path at a read into the middle of a set */
        /*
         * CP's control area for the next set fails the driver's checks
         * (monreader.c mon_check_mca): all of it (an empty set), or only its
         * last MCE (the set ends before that MCE).  Decided at the set's first read.
         */
        enum sim_mr_arm empty, cut;
        bool looked;          /* the set at the head had its first read: stop is known */
        size_t stop;          /* where the driver replies to the set at the head */
        const char *stop_why; /* "empty" or "cut" when stop is before the set's end */
        /* The next open_fails opens get EIO: IUCV CONNECT returned connect_rc, or (0) CP
         * severed the path before it completed. */
        unsigned open_fails, connect_rc;
        unsigned msglim;
        struct sim_set **q; /* ring of queued messages */
        size_t head, nq;
        bool *limflag; /* per slot: this message reached the limit */
        size_t pos;    /* bytes of q[head] already read */
        bool overflow_pending;
        uint64_t delivered, dropped, overflows, reads;
        uint64_t cut_sets;    /* sets replied early (empty or cut), counted apart from delivered */
        uint64_t open_eios;   /* opens failed by open_fails */
        sim_mr_fate_fn *fate; /* NULL: nobody keeps the record */
        void *fate_ctx;
};

void sim_mr_init(struct sim_mr *m, unsigned msglim);
void sim_mr_fini(struct sim_mr *m);
/*
 * open(): -EBUSY if already open, then -EIO while open_fails lasts (as the
 * driver: the busy bit is taken before it connects).  The caller then pushes
 * the configuration set.
 */
int sim_mr_open(struct sim_mr *m);
/* close(): the path is severed and queued messages are dropped unreplied. */
void sim_mr_close(struct sim_mr *m);
/* *MONITOR sends a message: queued (ownership taken) or dropped; false if dropped. */
bool sim_mr_push(struct sim_mr *m, struct sim_set *s);
/* read(): bytes copied, 0 at the end of a data set, -errno, or SIM_MR_WAIT. */
ssize_t sim_mr_read(struct sim_mr *m, uint8_t *buf, size_t size, bool nonblock);
/* poll(): POLLERR, POLLIN|POLLRDNORM (a message queued or an EOVERFLOW to report), or 0. */
unsigned sim_mr_poll(const struct sim_mr *m);
void sim_mr_sever(struct sim_mr *m);

#endif
