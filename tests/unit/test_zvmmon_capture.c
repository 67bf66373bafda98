/* SPDX-License-Identifier: MIT */
/*
 * zvmmon capture's loop against a scripted monreader (doc/facts/kernel-drivers.md
 * 1.3, 1.4): data sets end at 0-byte reads, EOVERFLOW flags the set before it,
 * EIO and EFAULT discard the partial set, EAGAIN waits.  The output is checked
 * byte by byte against the capture format of decoder/source/source.h.  And
 * capture --socket against a scripted ShareSocket stream (capture_stream.c):
 * frames copied as they came, whatever the reads cut them into.
 */
#include "vec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../zvmmon/capture.h"

enum { DATA, ZERO, ERR, SEVER };
struct step {
        int what;
        const char *bytes; /* DATA */
        int err;           /* ERR */
};

struct script {
        const struct step *s;
        size_t n, i;
        int reopens, pauses;
        double t;
        volatile sig_atomic_t stop;
};

static ssize_t s_read(void *ctx, void *buf, size_t n)
{
        struct script *sc = ctx;
        if (sc->i >= sc->n) {
                sc->stop = 1; /* script over: behave like SIGTERM */
                errno = EINTR;
                return -1;
        }
        const struct step *st = &sc->s[sc->i++];
        switch (st->what) {
        case DATA: {
                size_t len = strlen(st->bytes);
                assert_true(len <= n);
                memcpy(buf, st->bytes, len);
                return (ssize_t)len;
        }
        case ZERO:
                return 0;
        case SEVER:
                errno = EAGAIN;
                return -1;
        default:
                errno = st->err;
                return -1;
        }
}

static int s_wait(void *ctx, int ms)
{
        struct script *sc = ctx;
        (void)ms;
        /* A SEVER step makes the EAGAIN's poll report POLLERR. */
        return sc->i > 0 && sc->s[sc->i - 1].what == SEVER ? -1 : 1;
}

static int s_reopen(void *ctx)
{
        ((struct script *)ctx)->reopens++;
        return 0;
}

static void s_pause(void *ctx, int ms)
{
        (void)ms;
        ((struct script *)ctx)->pauses++;
}

static double s_mono(void *ctx)
{
        return ((struct script *)ctx)->t += 0.001;
}

static int64_t s_unix_us(void *ctx)
{
        (void)ctx;
        return 1795305600000000;
}

static char *outbuf;
static size_t outlen;

static struct zmon_cap_result run(struct script *sc, unsigned long long max_sets)
{
        FILE *f = open_memstream(&outbuf, &outlen);
        assert_non_null(f);
        struct zmon_cap_io io = {sc, s_read, s_wait, s_reopen, s_pause, s_mono, s_unix_us};
        struct zmon_cap_opts o = {max_sets, 0, &sc->stop, "scripted", "memory"};
        struct zmon_cap_result r;
        zmon_capture_run(&io, f, &o, &r);
        fclose(f);
        return r;
}

static uint32_t get32(const uint8_t *p)
{
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Frame i of the output: its status and payload; false if there is none. */
static bool frame(size_t i, uint32_t *status, const char **data, size_t *len)
{
        const uint8_t *p = (const uint8_t *)outbuf;
        assert_true(outlen >= 16);
        assert_memory_equal(p, "ZVMCAP\r\n\0\1\0\x10\0\0\0\0", 16);
        size_t off = 16;
        for (size_t k = 0;; k++) {
                if (off == outlen)
                        return false;
                assert_true(outlen - off >= 24);
                assert_memory_equal(p + off, "DSET", 4);
                uint32_t n = get32(p + off + 4);
                assert_true(outlen - off - 24 >= n);
                assert_int_equal(get32(p + off + 20), 0);
                if (k == i) {
                        *status = get32(p + off + 16);
                        *data = (const char *)p + off + 24;
                        *len = n;
                        return true;
                }
                off += 24 + n;
        }
}

static void expect_frame(size_t i, const char *want, uint32_t want_status)
{
        uint32_t st;
        const char *d;
        size_t n;
        assert_true(frame(i, &st, &d, &n));
        assert_int_equal(n, strlen(want));
        assert_memory_equal(d, want, n);
        assert_int_equal(st, want_status);
}

static void sets_end_at_zero_reads(void **state)
{
        (void)state;
        /* MCE and record set arrive in separate reads; empty sets are not written. */
        static const struct step s[] = {
            {ZERO, NULL, 0},     {DATA, "MCE-MCE-MCE-", 0}, {DATA, "records1", 0}, {ZERO, NULL, 0},
            {ERR, NULL, EAGAIN}, {DATA, "set2", 0},         {ZERO, NULL, 0}};
        struct script sc = {s, sizeof(s) / sizeof(s[0]), 0, 0, 0, 0, 0};
        struct zmon_cap_result r = run(&sc, 0);
        assert_int_equal(r.sets, 2);
        assert_int_equal(r.bytes, 24);
        assert_int_equal(r.empty, 1);
        assert_int_equal(r.overflows + r.discarded, 0);
        expect_frame(0, "MCE-MCE-MCE-records1", 0);
        expect_frame(1, "set2", 0);
        uint32_t st;
        const char *d;
        size_t n;
        assert_false(frame(2, &st, &d, &n));
        free(outbuf);
}

static void overflow_flags_the_set_before(void **state)
{
        (void)state;
        static const struct step s[] = {
            {DATA, "first", 0}, {ZERO, NULL, 0},    {ERR, NULL, EOVERFLOW}, {DATA, "second", 0},
            {ZERO, NULL, 0},    {DATA, "third", 0}, {ZERO, NULL, 0},        {ERR, NULL, EOVERFLOW}};
        struct script sc = {s, sizeof(s) / sizeof(s[0]), 0, 0, 0, 0, 0};
        struct zmon_cap_result r = run(&sc, 0);
        assert_int_equal(r.sets, 3);
        assert_int_equal(r.overflows, 2);
        expect_frame(0, "first", 1);
        expect_frame(1, "second", 0);
        expect_frame(2, "third", 1); /* held until the script ended */
        free(outbuf);
}

static void eio_and_efault_discard_partial_sets(void **state)
{
        (void)state;
        static const struct step s[] = {
            {DATA, "good1", 0}, {ZERO, NULL, 0}, {DATA, "partial-a", 0}, {ERR, NULL, EIO},
            {DATA, "good2", 0}, {ZERO, NULL, 0}, {DATA, "partial-b", 0}, {ERR, NULL, EFAULT},
            {DATA, "good3", 0}, {ZERO, NULL, 0}, {DATA, "cut", 0},       {SEVER, NULL, 0},
            {DATA, "good4", 0}, {ZERO, NULL, 0}, {DATA, "never-ends", 0}};
        struct script sc = {s, sizeof(s) / sizeof(s[0]), 0, 0, 0, 0, 0};
        struct zmon_cap_result r = run(&sc, 0);
        assert_int_equal(r.sets, 4);
        assert_int_equal(r.discarded, 4); /* EIO, EFAULT, sever, and the set cut at the end */
        assert_int_equal(sc.reopens, 2);  /* after EIO and after the sever */
        expect_frame(0, "good1", 0);
        expect_frame(1, "good2", 0);
        expect_frame(2, "good3", 0);
        expect_frame(3, "good4", 0);
        free(outbuf);
}

static void stops_after_n_sets(void **state)
{
        (void)state;
        static const struct step s[] = {{DATA, "a", 0},  {ZERO, NULL, 0}, {DATA, "b", 0},
                                        {ZERO, NULL, 0}, {DATA, "c", 0},  {ZERO, NULL, 0}};
        struct script sc = {s, sizeof(s) / sizeof(s[0]), 0, 0, 0, 0, 0};
        struct zmon_cap_result r = run(&sc, 2);
        assert_int_equal(r.sets, 2);
        assert_int_equal(sc.i, 4); /* the third set was never read */
        expect_frame(1, "b", 0);
        free(outbuf);
}

/* The output fills up (a disk, a file size limit) after the first set: the
 * counts say what is in the file, not what was tried. */
static void counts_only_what_was_written(void **state)
{
        (void)state;
        static const struct step s[] = {{DATA, "first", 0}, {ZERO, NULL, 0},    {DATA, "second", 0},
                                        {ZERO, NULL, 0},    {DATA, "third", 0}, {ZERO, NULL, 0}};
        struct script sc = {s, sizeof(s) / sizeof(s[0]), 0, 0, 0, 0, 0};
        char mem[16 + 24 + 5 + 10]; /* header, frame of "first", not one more frame */
        FILE *f = fmemopen(mem, sizeof(mem), "w");
        assert_non_null(f);
        struct zmon_cap_io io = {&sc, s_read, s_wait, s_reopen, s_pause, s_mono, s_unix_us};
        struct zmon_cap_opts o = {0, 0, &sc.stop, "scripted", "memory"};
        struct zmon_cap_result r;
        zmon_capture_run(&io, f, &o, &r);
        fclose(f);
        assert_true(r.write_failed);
        assert_int_equal(r.sets, 1);
        assert_int_equal(r.bytes, 5);
        assert_memory_equal(mem + 16 + 24, "first", 5);
}

/*
 * Empty reads and nothing else (/dev/null, a wrong device): said once after
 * ZMON_EMPTY_RUN_WARN of them in a row; a byte between starts the count again.
 */
static void endless_empty_reads_are_said_once(void **state)
{
        (void)state;
        struct step s[3 * 40];
        for (size_t i = 0; i < 3 * 40; i++)
                s[i] = (struct step){ZERO, NULL, 0};
        struct script sc = {s, 39, 0, 0, 0, 0, 0};
        struct zmon_cap_result r = run(&sc, 0);
        assert_int_equal(r.empty, 39);
        assert_false(r.empty_warned);
        free(outbuf);

        s[39] = (struct step){DATA, "x", 0}; /* 39 empty, a byte, 39 empty: never 40 in a row */
        sc = (struct script){s, 79, 0, 0, 0, 0, 0};
        r = run(&sc, 0);
        assert_false(r.empty_warned);
        free(outbuf);

        sc = (struct script){s + 40, 80, 0, 0, 0, 0, 0};
        r = run(&sc, 0);
        assert_int_equal(r.empty, 80);
        assert_true(r.empty_warned);
        assert_int_equal(r.sets, 0);
        assert_int_equal(sc.pauses, 80); /* each waited: no spin */
        free(outbuf);
}

/* ---- capture --socket: a ShareSocket's stream in scripted pieces ---- */

struct piece {
        size_t n; /* 0: the collector closed the connection */
        int err;  /* or a read error (EAGAIN: nothing now) */
};

struct stream_script {
        const uint8_t *bytes; /* the stream, handed out piece by piece */
        const struct piece *p;
        size_t np, i, at;
        int waits;
        double t;
        volatile sig_atomic_t stop;
};

static ssize_t p_read(void *ctx, void *buf, size_t n)
{
        struct stream_script *sc = ctx;
        if (sc->i >= sc->np) {
                sc->stop = 1;
                errno = EINTR;
                return -1;
        }
        const struct piece *pc = &sc->p[sc->i++];
        if (pc->err) {
                errno = pc->err;
                return -1;
        }
        assert_true(pc->n <= n);
        memcpy(buf, sc->bytes + sc->at, pc->n);
        sc->at += pc->n;
        return (ssize_t)pc->n;
}

static int p_wait(void *ctx, int ms)
{
        (void)ms;
        ((struct stream_script *)ctx)->waits++;
        return 1;
}

static double p_mono(void *ctx)
{
        return ((struct stream_script *)ctx)->t += 0.001;
}

static struct zmon_cap_result run_stream(struct stream_script *sc, unsigned long long max_sets)
{
        FILE *f = open_memstream(&outbuf, &outlen);
        assert_non_null(f);
        struct zmon_cap_io io = {sc, p_read, p_wait, NULL, NULL, p_mono, NULL};
        struct zmon_cap_opts o = {max_sets, 0, &sc->stop, "socket", "memory"};
        struct zmon_cap_result r;
        zmon_capture_stream(&io, f, &o, &r);
        fclose(f);
        return r;
}

/* The stream as the plugin sends it: the file header, then frames of 24 + n bytes. */
static const uint8_t share_stream[] = {
    'Z', 'V', 'M', 'C', 'A', 'P', '\r', '\n', 0, 1, 0, 16, 0, 0, 0, 0,
    /* "DSET", 5 bytes, time 0x0006600000000001, status 0 */
    'D', 'S', 'E', 'T', 0, 0, 0, 5, 0, 6, 0x60, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 'a', 0, 'l',
    0xE2, 'a',
    /* "DSET", 3 bytes, time 2, status 1 (EOVERFLOW after it) */
    'D', 'S', 'E', 'T', 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 'b', 'c', 'd',
    /* "DSET", 2 bytes, time 3 */
    'D', 'S', 'E', 'T', 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 'e', 'f'};

static void socket_frames_copied_as_they_came(void **state)
{
        (void)state;
        /* Cut anywhere: inside the header, inside a frame header, inside a set. */
        static const struct piece p[] = {{1, 0},  {9, 0}, {0, EAGAIN}, {20, 0},
                                         {30, 0}, {7, 0}, {31, 0},     {0, 0}};
        struct stream_script sc = {share_stream, p, sizeof(p) / sizeof(p[0])};
        struct zmon_cap_result r = run_stream(&sc, 0);
        assert_int_equal(sc.at, sizeof(share_stream));
        assert_int_equal(sc.waits, 1);
        assert_int_equal(r.sets, 3);
        assert_int_equal(r.bytes, 10);
        assert_int_equal(r.overflows, 1);
        assert_true(r.device_lost); /* the collector closed it */
        assert_int_equal(r.discarded, 0);
        assert_false(r.bad_stream);
        /* the file: the same bytes, times and flags as the plugin's */
        assert_int_equal(outlen, sizeof(share_stream));
        assert_memory_equal(outbuf, share_stream, sizeof(share_stream));
        free(outbuf);
}

static void socket_stops_after_n_sets(void **state)
{
        (void)state;
        static const struct piece p[] = {{sizeof(share_stream), 0}};
        struct stream_script sc = {share_stream, p, 1};
        struct zmon_cap_result r = run_stream(&sc, 2);
        assert_int_equal(r.sets, 2);
        assert_false(r.device_lost);
        assert_int_equal(outlen, 16 + 24 + 5 + 24 + 3);
        assert_memory_equal(outbuf, share_stream, outlen);
        free(outbuf);
}

static void socket_closed_inside_a_frame(void **state)
{
        (void)state;
        static const struct piece p[] = {{16 + 24 + 5 + 10, 0}, {0, 0}};
        struct stream_script sc = {share_stream, p, 2};
        struct zmon_cap_result r = run_stream(&sc, 0);
        assert_int_equal(r.sets, 1);
        assert_int_equal(r.discarded, 1);
        assert_true(r.device_lost);
        free(outbuf);
}

static void socket_not_a_share_stream(void **state)
{
        (void)state;
        uint8_t bad[sizeof(share_stream)];
        memcpy(bad, share_stream, sizeof(bad));
        bad[0] = 'X'; /* not the capture header */
        static const struct piece p[] = {{sizeof(share_stream), 0}};
        struct stream_script sc = {bad, p, 1};
        struct zmon_cap_result r = run_stream(&sc, 0);
        assert_true(r.bad_stream);
        assert_int_equal(r.sets, 0);
        free(outbuf);
        memcpy(bad, share_stream, sizeof(bad));
        bad[16 + 24 + 5] = 'X'; /* the second frame's magic */
        sc = (struct stream_script){bad, p, 1};
        r = run_stream(&sc, 0);
        assert_true(r.bad_stream);
        assert_int_equal(r.sets, 1);
        free(outbuf);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(sets_end_at_zero_reads),
            cmocka_unit_test(overflow_flags_the_set_before),
            cmocka_unit_test(eio_and_efault_discard_partial_sets),
            cmocka_unit_test(stops_after_n_sets),
            cmocka_unit_test(counts_only_what_was_written),
            cmocka_unit_test(endless_empty_reads_are_said_once),
            cmocka_unit_test(socket_frames_copied_as_they_came),
            cmocka_unit_test(socket_stops_after_n_sets),
            cmocka_unit_test(socket_closed_inside_a_frame),
            cmocka_unit_test(socket_not_a_share_stream),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
