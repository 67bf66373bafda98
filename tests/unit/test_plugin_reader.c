/* SPDX-License-Identifier: MIT */
/*
 * The device reader against a scripted /dev/monreader with the driver's
 * semantics (doc/facts/kernel-drivers.md 1.3-1.6): reads never cross an MCE or
 * record-set boundary, a 0-byte read closes a data set, errors as errno.
 */
#include <errno.h>
#include <fcntl.h>

#include "vec_appl.h"

#include "cd_stubs.h"

#include "source/source.h"
#include "zvm.h"

enum ev_kind { EV_DATA, EV_ZERO, EV_ERR, EV_SEVER, EV_POLL_ERR };
struct ev {
        enum ev_kind k;
        const uint8_t *p;
        size_t n;
        int err;
};
#define MAXEV 64
static struct ev script[MAXEV];
static size_t nev, pos;
static int open_errs[16];
static size_t nopen_errs, open_calls, close_calls;
static bool is_open;

/* What the scripted device is, NULL: the monitor device (not_a_device_said_so sets it). */
static const char *kind;

static void script_reset(void)
{
        nev = pos = 0;
        nopen_errs = open_calls = close_calls = 0;
        is_open = false;
        kind = NULL;
}
static void ev(enum ev_kind k, const uint8_t *p, size_t n, int err)
{
        script[nev++] = (struct ev){k, p, n, err};
}

static int f_open(const char *path, int flags)
{
        (void)path;
        assert_true(flags & O_NONBLOCK);
        assert_int_equal(flags & O_ACCMODE, O_RDONLY);
        if (open_calls < nopen_errs && open_errs[open_calls]) {
                errno = open_errs[open_calls++];
                return -1;
        }
        open_calls++;
        is_open = true;
        return 42;
}
static int f_close(int fd)
{
        assert_int_equal(fd, 42);
        close_calls++;
        is_open = false;
        return 0;
}
static int f_poll(struct pollfd *p, nfds_t n, int ms)
{
        (void)n;
        (void)ms;
        assert_true(is_open);
        p->revents = 0;
        if (pos < nev && script[pos].k == EV_POLL_ERR) {
                errno = script[pos++].err;
                return -1;
        }
        if (pos < nev)
                p->revents = script[pos].k == EV_SEVER ? POLLERR : POLLIN;
        return p->revents ? 1 : 0;
}
static ssize_t f_read(int fd, void *buf, size_t want)
{
        assert_int_equal(fd, 42);
        if (pos >= nev || script[pos].k == EV_SEVER || script[pos].k == EV_POLL_ERR) {
                errno = EAGAIN;
                return -1;
        }
        struct ev *e = &script[pos];
        if (e->k == EV_ZERO) {
                pos++;
                return 0;
        }
        if (e->k == EV_ERR) {
                pos++;
                errno = e->err;
                return -1;
        }
        size_t k = e->n < want ? e->n : want;
        memcpy(buf, e->p, k);
        e->p += k;
        e->n -= k;
        if (!e->n)
                pos++;
        return (ssize_t)k;
}
static const char *f_not_device(int fd)
{
        assert_int_equal(fd, 42);
        return kind;
}
static const struct zvm_sys fake = {f_open, f_read, f_poll, f_close, f_not_device};

/* Linked with --wrap=realloc: a growth to fail_realloc_from bytes or more fails (0: none). */
static size_t fail_realloc_from;
void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n)
{
        return fail_realloc_from && n >= fail_realloc_from ? NULL : __real_realloc(p, n);
}

/*
 * A sample set with one NET_SUM record of guest LINUX01 stamped +sec seconds,
 * closed by Interval End as CP closes every sample set (the reader drops one
 * without it).
 */
struct set {
        uint8_t b[300];
        size_t n;
};
static void make_set(struct set *s, int sec)
{
        uint8_t data[96] = {0}, rec[200], pid[16];
        vec_lx_common(data, VEC_TOD_2026 + ((uint64_t)sec * 1000000 << 12), (uint32_t)sec,
                      (uint32_t)sec);
        be64(data + 40, 1000 + (uint64_t)sec);
        vec_lx_prodid(pid, 3, "00");
        size_t len = vec_d10(rec, 2, "LINUX01", pid, data, 96);
        len += vec_hdr(rec + len, 20, 1, 11, VEC_TOD_2026 + ((uint64_t)sec * 1000000 << 12));
        vec_mce(s->b, 0xE2, 0x40, 0x20, 0x200000, 0x200000 + (uint32_t)len - 1);
        memcpy(s->b + 12, rec, len);
        s->n = 12 + len;
}
/* As the driver hands it out: the MCE, then the records in two pieces, then 0. */
static void deliver(const struct set *s)
{
        ev(EV_DATA, s->b, 12, 0);
        ev(EV_DATA, s->b + 12, 50, 0);
        ev(EV_DATA, s->b + 62, s->n - 62, 0);
        ev(EV_ZERO, NULL, 0, 0);
}

static size_t octets(void)
{
        size_t k = 0;
        for (size_t i = 0; i < cd_nvl; i++)
                k += !strcmp(cd_vls[i].type, "if_octets");
        return k;
}

static derive_t last_rx(void)
{
        for (size_t i = cd_nvl; i-- > 0;)
                if (!strcmp(cd_vls[i].type, "if_octets"))
                        return cd_vls[i].v[0].derive;
        return -1;
}

struct fix {
        struct zvm_config c;
        struct zvm_pipe p;
        struct zvm_reader r;
};
static int setup(void **state)
{
        static struct fix f;
        cd_reset();
        zvm_stats_reset();
        script_reset();
        zvm_config_defaults(&f.c);
        f.c.device = strdup("/dev/monreader");
        f.c.retry_min = 1;
        f.c.retry_max = 8;
        assert_true(zvm_pipe_init(&f.p, &f.c));
        zvm_reader_init(&f.r, &f.c, &fake, &f.p);
        *state = &f;
        return 0;
}
static int teardown(void **state)
{
        struct fix *f = *state;
        zvm_reader_close(&f->r);
        zvm_pipe_destroy(&f->p);
        zvm_config_free(&f->c);
        return 0;
}
static void run(struct fix *f, int steps, double now)
{
        for (int i = 0; i < steps; i++)
                zvm_reader_step(&f->r, 1000, now);
}

static void sets_decoded_after_zero_read(void **state)
{
        struct fix *f = *state;
        struct set a, b;
        make_set(&a, 1);
        make_set(&b, 2);
        ev(EV_DATA, a.b, 12, 0);
        ev(EV_DATA, a.b + 12, a.n - 12, 0);
        run(f, 1, 0);
        assert_int_equal(octets(), 0); /* no 0-byte read yet: nothing decoded */
        ev(EV_ZERO, NULL, 0, 0);
        deliver(&b);
        run(f, 2, 0);
        assert_int_equal(octets(), 2);
        assert_int_equal(zvm_stats()->sets, 2);
        assert_int_equal(zvm_stats()->records, 4); /* each set's NET_SUM and Interval End */
        assert_true(zvm_stats()->connected);
        assert_int_equal(open_calls, 1);
}

static void eio_discards_set_and_reopens(void **state)
{
        struct fix *f = *state;
        struct set a, b;
        make_set(&a, 1);
        make_set(&b, 2);
        ev(EV_DATA, a.b, 12, 0);
        ev(EV_DATA, a.b + 12, a.n - 12, 0);
        ev(EV_ERR, NULL, 0, EIO);
        run(f, 1, 0);
        assert_int_equal(octets(), 0);
        assert_int_equal(zvm_stats()->discarded_eio, 1);
        assert_int_equal(close_calls, 1);
        assert_false(zvm_stats()->connected);
        deliver(&b);
        run(f, 1, 0.5); /* before the retry delay: no open */
        assert_int_equal(open_calls, 1);
        run(f, 1, 1.0);
        run(f, 1, 1.0);
        assert_int_equal(open_calls, 2);
        assert_int_equal(zvm_stats()->reconnects, 1);
        assert_int_equal(octets(), 1);
        assert_int_equal(last_rx(), 1002); /* set b, not a */
}

static void efault_discards_set_keeps_device(void **state)
{
        struct fix *f = *state;
        struct set a, b;
        make_set(&a, 1);
        make_set(&b, 2);
        ev(EV_DATA, a.b, 40, 0);
        ev(EV_ERR, NULL, 0, EFAULT);
        ev(EV_DATA, a.b + 40, a.n - 40, 0); /* the driver goes on with the same set */
        ev(EV_ZERO, NULL, 0, 0);
        deliver(&b);
        run(f, 1, 0);
        assert_int_equal(zvm_stats()->discarded_efault, 1);
        assert_int_equal(close_calls, 0);
        assert_int_equal(octets(), 1);
        assert_int_equal(zvm_stats()->sets, 1);
        assert_int_equal(zvm_stats()->decode_errors[0], 0);
}

static void eoverflow_counted_data_kept(void **state)
{
        struct fix *f = *state;
        struct set a, b;
        make_set(&a, 1);
        make_set(&b, 2);
        deliver(&a);
        ev(EV_ERR, NULL, 0, EOVERFLOW); /* reported on the read after the 0-byte read */
        deliver(&b);
        run(f, 1, 0);
        assert_int_equal(zvm_stats()->overflows, 1);
        assert_int_equal(octets(), 2);
        assert_non_null(strstr(cd_lastlog, "EOVERFLOW"));
}

static void oversized_set_dropped(void **state)
{
        struct fix *f = *state;
        f->c.max_set = 4096;
        static uint8_t big[6000];
        struct set a, b;
        make_set(&a, 1);
        make_set(&b, 2);
        memcpy(big, a.b, a.n);
        ev(EV_DATA, big, sizeof(big), 0);
        ev(EV_ZERO, NULL, 0, 0);
        deliver(&b);
        run(f, 1, 0);
        assert_int_equal(zvm_stats()->oversized, 1);
        assert_int_equal(octets(), 1); /* only b */
        assert_int_equal(last_rx(), 1002);
        assert_true(f->r.cap <= 4096);
}

/*
 * A set whose buffer cannot grow is dropped and counted as out of memory
 * (total_events-discarded_nomem), not as oversized: raising MaxDataSetSize,
 * the oversized message's advice, would not help.
 */
static void set_without_memory_dropped_not_oversized(void **state)
{
        struct fix *f = *state;
        struct set a, b;
        make_set(&a, 1);
        make_set(&b, 2);
        fail_realloc_from = 4096; /* the reader's first buffer, 512 KiB, cannot be had */
        deliver(&a);
        run(f, 1, 0);
        fail_realloc_from = 0;
        assert_int_equal(zvm_stats()->discarded_nomem, 1);
        assert_int_equal(zvm_stats()->oversized, 0);
        assert_non_null(strstr(cd_lastlog, "out of memory"));
        assert_null(strstr(cd_lastlog, "MaxDataSetSize"));
        assert_int_equal(octets(), 0);
        deliver(&b);
        run(f, 1, 0);
        assert_int_equal(octets(), 1);
        assert_int_equal(last_rx(), 1002);
        assert_int_equal(zvm_stats()->discarded_nomem, 1);
}

static void set_of_exactly_max_size_kept(void **state)
{
        struct fix *f = *state;
        struct set a;
        make_set(&a, 1);
        f->c.max_set = a.n;
        deliver(&a);
        run(f, 1, 0);
        assert_int_equal(zvm_stats()->oversized, 0);
        assert_int_equal(octets(), 1);
        f->c.max_set = a.n - 1;
        make_set(&a, 2);
        deliver(&a);
        run(f, 1, 0);
        assert_int_equal(zvm_stats()->oversized, 1);
        assert_int_equal(octets(), 1);
}

static void ebusy_retries_with_backoff(void **state)
{
        struct fix *f = *state;
        for (int i = 0; i < 6; i++)
                open_errs[i] = EBUSY;
        nopen_errs = 6;
        double t = 0;
        int attempts = 0;
        double delays[6];
        double last = 0;
        while (open_calls < 7 && t < 100) {
                size_t before = open_calls;
                zvm_reader_step(&f->r, 1000, t);
                if (open_calls != before) {
                        if (attempts)
                                delays[attempts - 1] = t - last;
                        last = t;
                        attempts++;
                }
                t += 0.25;
        }
        assert_int_equal(attempts, 7);
        /* 1, 2, 4, 8, 8, 8 s: doubling, capped by MaxRetryInterval. */
        assert_true(delays[0] >= 1 && delays[0] < 1.3);
        assert_true(delays[1] >= 2 && delays[1] < 2.3);
        assert_true(delays[2] >= 4 && delays[2] < 4.3);
        assert_true(delays[4] >= 8 && delays[4] < 8.3);
        assert_true(delays[5] >= 8 && delays[5] < 8.3);
        assert_true(zvm_stats()->connected);
        assert_int_equal(zvm_stats()->open_failures, 6);
        assert_non_null(strstr(cd_lastlog, "opened")); /* the complaint was released */
}

/*
 * Device naming a directory or a file (not a character device): closed
 * again and said so, as an open that failed, not read as an endless run of
 * empty data sets; once the path is the device, it is read.
 */
static void not_a_device_said_so(void **state)
{
        struct fix *f = *state;
        kind = "a directory";
        zvm_reader_step(&f->r, 1000, 0);
        assert_int_equal(open_calls, 1);
        assert_int_equal(close_calls, 1);
        assert_false(is_open);
        assert_int_equal(zvm_stats()->open_failures, 1);
        assert_false(zvm_stats()->connected);
        assert_non_null(strstr(cd_lastlog, "is a directory, not a character device"));
        assert_non_null(strstr(cd_lastlog, "File \"PATH\""));
        assert_null(strstr(cd_lastlog, "NAMESAVE")); /* not the missing driver's advice */
        kind = NULL;
        zvm_reader_step(&f->r, 1000, 5);
        assert_true(is_open);
        assert_true(zvm_stats()->connected);
}

/* The real check, on what a path can be. */
static void device_kinds_told_apart(void **state)
{
        (void)state;
        char dir[] = "/tmp/zvm-kind.XXXXXX", file[64], fifo[64];
        assert_non_null(mkdtemp(dir));
        snprintf(file, sizeof(file), "%s/file", dir);
        snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
        fclose(fopen(file, "w"));
        assert_int_equal(mkfifo(fifo, 0600), 0);
        struct {
                const char *path, *want;
        } k[] = {
            {"/dev/null", NULL}, {dir, "a directory"}, {file, "a regular file"}, {fifo, "a FIFO"}};
        for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
                int fd = open(k[i].path, O_RDONLY | O_NONBLOCK);
                assert_true(fd >= 0);
                const char *got = zvm_sys_real.not_device(fd);
                if (k[i].want)
                        assert_string_equal(got, k[i].want);
                else
                        assert_null(got);
                close(fd);
        }
        unlink(file);
        unlink(fifo);
        rmdir(dir);
}

static void missing_device_message_names_prerequisites(void **state)
{
        struct fix *f = *state;
        open_errs[0] = ENOENT;
        nopen_errs = 1;
        zvm_reader_step(&f->r, 1000, 0);
        assert_non_null(strstr(cd_lastlog, "monreader"));
        assert_non_null(strstr(cd_lastlog, "mondcss"));
        assert_non_null(strstr(cd_lastlog, "IUCV *MONITOR"));
        assert_non_null(strstr(cd_lastlog, "NAMESAVE"));
        assert_non_null(strstr(cd_lastlog, "DCSS"));
        open_errs[1] = EBUSY;
        nopen_errs = 2;
        zvm_reader_step(&f->r, 1000, 5);
        assert_non_null(strstr(cd_lastlog, "busy"));
        assert_non_null(strstr(cd_lastlog, "one reader per guest"));
}

static void sever_mid_set_discards_and_reopens(void **state)
{
        struct fix *f = *state;
        struct set a, b;
        make_set(&a, 1);
        make_set(&b, 2);
        ev(EV_DATA, a.b, 12, 0);
        ev(EV_DATA, a.b + 12, 30, 0);
        ev(EV_SEVER, NULL, 0, 0);
        run(f, 2, 0);
        assert_int_equal(close_calls, 1);
        assert_int_equal(zvm_stats()->discarded_eio, 1);
        pos = nev; /* the severed path's queue is gone */
        deliver(&b);
        run(f, 2, 2);
        assert_int_equal(open_calls, 2);
        assert_int_equal(octets(), 1);
        assert_int_equal(last_rx(), 1002);
}

/*
 * A read or poll error none of the driver's own (ENODEV): the device is
 * reopened, the error counted (total_events-device_errors), and the message
 * says a data set was discarded when one was in progress, and only then.
 */
static void unexpected_errors_counted_and_discard_said(void **state)
{
        struct fix *f = *state;
        struct set a, b;
        make_set(&a, 1);
        make_set(&b, 2);
        ev(EV_DATA, a.b, 12, 0);
        ev(EV_ERR, NULL, 0, ENODEV);
        run(f, 1, 0);
        assert_int_equal(close_calls, 1);
        assert_int_equal(zvm_stats()->device_errors, 1);
        assert_non_null(strstr(cd_lastlog, "read from /dev/monreader"));
        assert_non_null(strstr(cd_lastlog, "discarded"));
        ev(EV_DATA, a.b, 12, 0);
        ev(EV_POLL_ERR, NULL, 0, ENODEV); /* the next step's poll, with the set half read */
        run(f, 2, 1.0);
        assert_int_equal(close_calls, 2);
        assert_int_equal(zvm_stats()->device_errors, 2);
        assert_non_null(strstr(cd_lastlog, "poll on /dev/monreader"));
        assert_non_null(strstr(cd_lastlog, "discarded"));
        ev(EV_POLL_ERR, NULL, 0, ENODEV); /* between sets: nothing lost */
        run(f, 1, 3.0);
        assert_int_equal(zvm_stats()->device_errors, 3);
        assert_non_null(strstr(cd_lastlog, "poll on /dev/monreader"));
        assert_null(strstr(cd_lastlog, "discarded"));
        deliver(&b);
        run(f, 1, 7.0);
        assert_int_equal(octets(), 1);
        assert_int_equal(last_rx(), 1002); /* set b only: nothing of a */
        assert_int_equal(zvm_stats()->discarded_eio, 0);
}

static void empty_set_is_harmless(void **state)
{
        struct fix *f = *state;
        ev(EV_ZERO, NULL, 0, 0); /* invalid MCA: the driver replies and returns 0 */
        run(f, 1, 0);
        assert_int_equal(cd_nvl, 0);
        assert_int_equal(zvm_stats()->sets, 0);
        assert_int_equal(zvm_stats()->empty_sets, 1);
        assert_non_null(strstr(cd_lastlog, "empty data set"));
        assert_int_equal(close_calls, 0);
}

/*
 * A sample set without Interval End was cut short by the driver: dropped,
 * counted, said.  An event set has no closing record and is decoded as it is.
 */
static void short_sample_set_dropped_event_set_kept(void **state)
{
        struct fix *f = *state;
        struct set a, b;
        make_set(&a, 1);
        make_set(&b, 2);
        a.n -= 20; /* without its Interval End */
        be32(a.b + 8, 0x200000 + (uint32_t)(a.n - 12) - 1);
        deliver(&a);
        run(f, 1, 0);
        assert_int_equal(octets(), 0);
        assert_int_equal(zvm_stats()->discarded_short, 1);
        assert_int_equal(zvm_stats()->sets, 0);
        assert_non_null(strstr(cd_lastlog, "without its Interval End"));
        a.b[0] = 0xC5; /* the same records as an event set */
        deliver(&a);
        deliver(&b);
        run(f, 1, 0);
        assert_int_equal(zvm_stats()->discarded_short, 1);
        assert_int_equal(zvm_stats()->sets, 2);
        assert_int_equal(close_calls, 0);
}

/*
 * LiveQueue: a data set's values are paced burst by burst, as a replay's:
 * with a limit below one set's values the reader marks the queue and waits
 * for the writers (here at once up to date), and counts it; with
 * LiveQueue 0 it never marks.  The hook is the set's only: a flush after it
 * marks nothing.
 */
static void live_sets_paced(void **state)
{
        struct fix *f = *state;
        f->c.live_queue = 2;
        zvm_reader_init(&f->r, &f->c, &fake, &f->p);
        struct set a;
        make_set(&a, 1);
        deliver(&a);
        run(f, 1, 0);
        size_t vls = (size_t)zvm_stats()->dispatched;
        assert_true(vls > 2);
        assert_true(cd_nmarks >= 1);
        assert_int_equal(zvm_stats()->live_waits, 1);
        assert_int_equal(zvm_stats()->live_ahead, vls);
        assert_int_equal(zvm_stats()->live_cuts, 0);
        size_t marks = cd_nmarks;
        zvm_dispatch_flush(f->p.disp);
        assert_int_equal(cd_nmarks, marks);

        f->c.live_queue = 0;
        zvm_reader_close(&f->r);
        zvm_reader_init(&f->r, &f->c, &fake, &f->p);
        struct set b;
        make_set(&b, 2);
        deliver(&b);
        run(f, 1, 0);
        assert_true(zvm_stats()->dispatched > vls);
        assert_int_equal(cd_nmarks, marks);
        assert_int_equal(zvm_stats()->live_waits, 1);
}

/* A capture file (zvmmon's format) of n of these sets, at a fresh path; or junk. */
static void write_file(char *path, const struct set *sets, size_t n, bool junk)
{
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        FILE *fp = fdopen(fd, "wb");
        assert_non_null(fp);
        uint8_t hdr[ZD_CAP_HDR_LEN], fh[ZD_CAP_FRAME_LEN];
        if (junk) {
                memset(hdr, 0x5a, sizeof(hdr));
                for (int i = 0; i < 300; i++)
                        fwrite(hdr, 1, sizeof(hdr), fp);
        } else {
                zd_capture_file_header(hdr);
                fwrite(hdr, 1, sizeof(hdr), fp);
        }
        for (size_t i = 0; i < n; i++) {
                zd_capture_frame_header(fh, (uint32_t)sets[i].n, 1795305600000000 + (int64_t)i, 0);
                fwrite(fh, 1, sizeof(fh), fp);
                fwrite(sets[i].b, 1, sets[i].n, fp);
        }
        fclose(fp);
}

/* The self-metric zvm-reader/TYPE-TINST of the last report, or -1. */
static derive_t reported(const char *type, const char *tinst)
{
        for (size_t i = cd_nvl; i-- > 0;)
                if (!strcmp(cd_vls[i].pinst, "reader") && !strcmp(cd_vls[i].type, type) &&
                    !strcmp(cd_vls[i].tinst, tinst))
                        return cd_vls[i].v[0].derive;
        return -1;
}

/*
 * File: a replay that reached the file's end is counted in
 * total_objects-files; one that could not be opened, or was no monitor file,
 * in total_events-file_failures, beside its message.
 */
static void replayed_and_failed_files_counted(void **state)
{
        struct fix *f = *state;
        static const atomic_bool going = false;
        struct set sets[2];
        make_set(&sets[0], 1);
        make_set(&sets[1], 2);
        char good[] = "/tmp/zvm-replay-XXXXXX", junk[] = "/tmp/zvm-replay-XXXXXX";
        write_file(good, sets, 2, false);
        write_file(junk, NULL, 0, true);
        assert_true(zvm_replay_file(&f->p, good, &going));
        assert_non_null(strstr(cd_lastlog, "replayed: 2 data sets"));
        assert_false(zvm_replay_file(&f->p, "/nonexistent/zvm.cap", &going));
        assert_non_null(strstr(cd_lastlog, "/nonexistent/zvm.cap"));
        assert_false(zvm_replay_file(&f->p, junk, &going));
        assert_non_null(strstr(cd_lastlog, "not a readable monitor file"));
        remove(good);
        remove(junk);
        assert_int_equal(octets(), 2);
        zvm_stats_submit();
        assert_int_equal(reported("total_objects", "files"), 1);
        assert_int_equal(reported("total_events", "file_failures"), 2);
}

/* A replay that shutdown's stop flag ends is reported as stopped, not as replayed. */
static void replay_stopped_by_shutdown(void **state)
{
        struct fix *f = *state;
        static const atomic_bool stopping = true;
        struct set a;
        make_set(&a, 1);
        char path[] = "/tmp/zvm-replay-XXXXXX";
        write_file(path, &a, 1, false);
        assert_false(zvm_replay_file(&f->p, path, &stopping));
        remove(path);
        assert_non_null(strstr(cd_lastlog, "replay stopped by shutdown"));
        assert_null(strstr(cd_lastlog, "replayed:"));
        zvm_stats_submit();
        assert_int_equal(reported("total_objects", "files"), 0);
        assert_int_equal(reported("total_events", "file_failures"), 0);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test_setup_teardown(sets_decoded_after_zero_read, setup, teardown),
            cmocka_unit_test_setup_teardown(eio_discards_set_and_reopens, setup, teardown),
            cmocka_unit_test_setup_teardown(efault_discards_set_keeps_device, setup, teardown),
            cmocka_unit_test_setup_teardown(eoverflow_counted_data_kept, setup, teardown),
            cmocka_unit_test_setup_teardown(oversized_set_dropped, setup, teardown),
            cmocka_unit_test_setup_teardown(set_without_memory_dropped_not_oversized, setup,
                                            teardown),
            cmocka_unit_test_setup_teardown(set_of_exactly_max_size_kept, setup, teardown),
            cmocka_unit_test_setup_teardown(ebusy_retries_with_backoff, setup, teardown),
            cmocka_unit_test_setup_teardown(missing_device_message_names_prerequisites, setup,
                                            teardown),
            cmocka_unit_test_setup_teardown(not_a_device_said_so, setup, teardown),
            cmocka_unit_test(device_kinds_told_apart),
            cmocka_unit_test_setup_teardown(sever_mid_set_discards_and_reopens, setup, teardown),
            cmocka_unit_test_setup_teardown(unexpected_errors_counted_and_discard_said, setup,
                                            teardown),
            cmocka_unit_test_setup_teardown(empty_set_is_harmless, setup, teardown),
            cmocka_unit_test_setup_teardown(short_sample_set_dropped_event_set_kept, setup,
                                            teardown),
            cmocka_unit_test_setup_teardown(live_sets_paced, setup, teardown),
            cmocka_unit_test_setup_teardown(replayed_and_failed_files_counted, setup, teardown),
            cmocka_unit_test_setup_teardown(replay_stopped_by_shutdown, setup, teardown),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
