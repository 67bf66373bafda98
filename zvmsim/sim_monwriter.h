/* SPDX-License-Identifier: MIT */
/*
 * /dev/monwriter semantics (doc/facts/kernel-drivers.md 2): a stream of 13-byte
 * monwrite_hdr + data, parsed across write() boundaries; buffers keyed by
 * (applid, record, version, release, mod level) and function; a global limit
 * on active buffers.  Pure logic: the caller holds any lock.
 */
#ifndef ZVMSIM_MONWRITER_H
#define ZVMSIM_MONWRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define SIM_MW_HDR_LEN     13
#define SIM_MW_MAX_DATALEN 4010
#define SIM_MW_MAX_BUFS    255

enum {
        SIM_MW_START_INTERVAL = 0,
        SIM_MW_STOP = 1,
        SIM_MW_GEN_EVENT = 2,
        SIM_MW_START_CONFIG = 3,
};

struct sim_mw_hdr {
        uint8_t fn;
        uint16_t applid;
        uint8_t record;
        uint16_t version, release, mod_level;
        uint16_t datalen;
        uint8_t hdrlen;
};
void sim_mw_hdr_parse(const uint8_t b[SIM_MW_HDR_LEN], struct sim_mw_hdr *h);
/* The 16-byte product id the driver builds: ASCII "LNXAPPL" + the key fields. */
void sim_mw_prodid(const struct sim_mw_hdr *h, uint8_t out[16]);

struct sim_mw_file;
struct sim_mw_buf {
        struct sim_mw_hdr hdr; /* as first written: its datalen is the buffer size */
        uint8_t *data;
        bool diag_done; /* the START DIAG was issued (successfully or not) */
        bool active;    /* CP accepted it: sampled every interval */
        struct sim_mw_file *owner;
        struct sim_mw_buf *next;
};

/* What CP sees: a DIAG X'DC' STOP or GEN_EVENT with the buffer's data. */
enum sim_mw_what { SIM_MW_EV_STOP, SIM_MW_EV_EVENT, SIM_MW_EV_START };
typedef void (*sim_mw_cb)(void *ctx, enum sim_mw_what what, const char *userid,
                          const struct sim_mw_hdr *h, const uint8_t *data, size_t len);

struct sim_mw {
        unsigned count;    /* active (non-event) buffers, all files */
        unsigned max_bufs; /* module parameter max_bufs */
        bool eperm;        /* guest without OPTION APPLMON: every DIAG fails rc 5 */
        /* the driver before mid-2026: an update with another datalen is taken, not EINVAL */
        bool old_resize;
        char userid[9];
        sim_mw_cb cb;
        void *cb_ctx;
        struct sim_mw_file *files;
        uint64_t next_id;
};

struct sim_mw_file {
        struct sim_mw *mw;
        uint64_t id; /* never reused: handles refer to files by id */
        uint8_t hb[SIM_MW_HDR_LEN];
        size_t hdr_to_read, data_to_read;
        struct sim_mw_hdr hdr;
        struct sim_mw_buf *cur;
        struct sim_mw_buf *bufs; /* creation order */
        bool gone;               /* the device went away under it: writes get ENODEV */
        long owner;              /* the caller's: the process that opened it (sim_fuse.c) */
        struct sim_mw_file *next;
};

void sim_mw_init(struct sim_mw *mw, const char *userid);
struct sim_mw_file *sim_mw_open(struct sim_mw *mw);
/* Returns bytes consumed (all of len) or -errno; on error the parser restarts at a header. */
ssize_t sim_mw_write(struct sim_mw_file *f, const uint8_t *p, size_t len);
/* close(): STOP every non-event buffer of the file. */
void sim_mw_close(struct sim_mw_file *f);
/* The device goes away: every open file loses its buffers (CP ends them as at
 * close) and gets ENODEV on write until it is closed. */
void sim_mw_vanish(struct sim_mw *mw);
void sim_mw_fini(struct sim_mw *mw);
/* The open file with this id, or NULL once it was closed. */
struct sim_mw_file *sim_mw_find(struct sim_mw *mw, uint64_t id);
/* Every buffer CP samples (active START_INTERVAL ones; START_CONFIG ones if config). */
void sim_mw_foreach(struct sim_mw *mw, bool config,
                    void (*fn)(void *ctx, const struct sim_mw_buf *b), void *ctx);

#endif
