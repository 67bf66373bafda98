/* SPDX-License-Identifier: MIT */
/*
 * The capture loop, apart from the device so that tests can script every
 * read() outcome (data, 0, EAGAIN, EOVERFLOW, EIO, EFAULT).
 */
#ifndef ZVMMON_CAPTURE_H
#define ZVMMON_CAPTURE_H

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "zvmdec.h"

struct zmon_cap_io {
        void *ctx;
        /* read(2) on the device: bytes, 0, or -1 with errno set. */
        ssize_t (*read)(void *ctx, void *buf, size_t n);
        /* Wait up to ms for input: 1 ready, 0 nothing yet, -1 the path was severed. */
        int (*wait)(void *ctx, int ms);
        /* Close and open the device again (after EIO or a sever): 0, or -1. */
        int (*reopen)(void *ctx);
        void (*pause)(void *ctx, int ms);
        double (*mono)(void *ctx);     /* monotonic seconds */
        int64_t (*unix_us)(void *ctx); /* wall clock for the frame headers */
};

struct zmon_cap_opts {
        unsigned long long max_sets; /* 0: no limit */
        double seconds;              /* 0: no limit */
        volatile sig_atomic_t *stop; /* set by a signal handler; may be NULL */
        const char *dev, *out_name;  /* for messages */
};

struct zmon_cap_result {
        unsigned long long sets, bytes, overflows, discarded, empty, reopens;
        bool write_failed, device_lost, no_memory;
        bool bad_stream;   /* --socket: what came was not a ShareSocket stream */
        bool empty_warned; /* ZMON_EMPTY_RUN_WARN (zvmmon.h) empty reads in a row were said */
};

/*
 * Start a capture file: its header, flushed at once so that a reader of
 * out (a pipe, a file being followed) sees a capture from the start.
 * False, said and marked in res, when out cannot be written.
 */
static inline bool zmon_cap_begin(FILE *out, const struct zmon_cap_opts *o,
                                  struct zmon_cap_result *res)
{
        uint8_t fhdr[ZD_CAP_HDR_LEN];
        zd_capture_file_header(fhdr);
        if (fwrite(fhdr, 1, sizeof(fhdr), out) == sizeof(fhdr) && fflush(out) == 0)
                return true;
        fprintf(stderr, "zvmmon capture: %s: %s\n", o->out_name, strerror(errno));
        res->write_failed = true;
        return false;
}

/* Write the capture file header and every complete data set to out. */
void zmon_capture_run(const struct zmon_cap_io *io, FILE *out, const struct zmon_cap_opts *o,
                      struct zmon_cap_result *res);
/*
 * The same from a zvm plugin's ShareSocket (capture_stream.c): io->read is
 * the socket's (0: the collector closed it), io->wait polls it; reopen,
 * pause and unix_us are not used (the frames carry the plugin's times).
 */
void zmon_capture_stream(const struct zmon_cap_io *io, FILE *out, const struct zmon_cap_opts *o,
                         struct zmon_cap_result *res);

#endif
