/* SPDX-License-Identifier: MIT */
/*
 * ShareSocket (plugin/zvm/zvm_share.c): the socket's mode and what it refuses
 * to replace; the stream readers get, checked byte by byte against the
 * capture format of decoder/source/source.h (written out here, not made by
 * the code under test); the bounded queue: a reader further behind than
 * ShareBuffer dropped and counted while the others go on, a caught-up reader
 * taking a set larger than the bound; the configuration set for readers that
 * come late; and no reader costing a set nothing but a look.  The writer's
 * turns are run here, one at a time, instead of its thread.  The source is
 * included so that the readers' queues can be looked at.
 */
#define _GNU_SOURCE
#include "cd_stubs.h"

#include "../../plugin/zvm/zvm_share.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>

#include "alloc_wrap.h"

static size_t allocs;
static void alloc_seen(size_t bytes)
{
        (void)bytes;
        allocs++;
}

static char dir[64], path[96];
static struct zvm_config cfg;

static int setup(void **state)
{
        (void)state;
        snprintf(dir, sizeof(dir), "/tmp/zvm-share-test.XXXXXX");
        assert_non_null(mkdtemp(dir));
        snprintf(path, sizeof(path), "%s/run/monitor.sock", dir);
        zvm_config_defaults(&cfg);
        cfg.share_path = strdup(path);
        cfg.share_buffer = 65536;
        zvm_stats_reset();
        cd_reset();
        return 0;
}

static int teardown(void **state)
{
        (void)state;
        zvm_config_free(&cfg);
        char cmd[128];
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
        assert_int_equal(system(cmd), 0);
        return 0;
}

static int client(void)
{
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
        struct sockaddr_un a = {.sun_family = AF_UNIX};
        snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
        assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
        return fd;
}

/* n bytes from a reader's socket, with the writer's turns run meanwhile. */
static void pull(struct zvm_share *sh, int fd, uint8_t *buf, size_t n)
{
        size_t got = 0;
        for (int i = 0; i < 2000 && got < n; i++) {
                zvm_share_turn(sh, 1);
                ssize_t k = recv(fd, buf + got, n - got, 0);
                if (k > 0)
                        got += (size_t)k;
        }
        assert_int_equal(got, n);
}

static uint32_t be32(const uint8_t *p)
{
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
        return (uint64_t)be32(p) << 32 | be32(p + 4);
}

/* The capture file header, 16 bytes: "ZVMCAP\r\n", version 1, header length 16, flags 0. */
static void expect_header(struct zvm_share *sh, int fd)
{
        uint8_t h[16];
        pull(sh, fd, h, sizeof(h));
        assert_memory_equal(h, "ZVMCAP\r\n\0\1\0\x10\0\0\0\0", 16);
}

/* A frame: "DSET", u32 length, u64 Unix microseconds, u32 status 0, u32 0, the set. */
static void expect_frame(struct zvm_share *sh, int fd, const uint8_t *set, size_t n, int64_t us)
{
        uint8_t h[24];
        pull(sh, fd, h, sizeof(h));
        assert_memory_equal(h, "DSET", 4);
        assert_int_equal(be32(h + 4), n);
        if (us)
                assert_int_equal(be64(h + 8), (uint64_t)us);
        assert_int_equal(be32(h + 16), 0);
        assert_int_equal(be32(h + 20), 0);
        uint8_t *b = malloc(n);
        pull(sh, fd, b, n);
        assert_memory_equal(b, set, n);
        free(b);
}

static void pattern(uint8_t *b, size_t n, uint8_t seed)
{
        for (size_t i = 0; i < n; i++)
                b[i] = (uint8_t)(seed + i * 7);
}

/* Nothing more is waiting for the reader. */
static void expect_nothing(struct zvm_share *sh, int fd)
{
        uint8_t b;
        zvm_share_turn(sh, 1);
        assert_int_equal(recv(fd, &b, 1, 0), -1);
        assert_true(errno == EAGAIN || errno == EWOULDBLOCK);
}

static void socket_made_with_its_mode(void **state)
{
        (void)state;
        struct zvm_share *sh = zvm_share_open(&cfg);
        assert_non_null(sh);
        struct stat st;
        assert_int_equal(lstat(path, &st), 0);
        assert_true(S_ISSOCK(st.st_mode));
        assert_int_equal(st.st_mode & 07777, 0660);
        zvm_share_close(sh);
        assert_int_equal(lstat(path, &st), -1);
        /* another mode, and a socket left behind by a collectd that did not remove it */
        cfg.share_perms = 0600;
        int old = socket(AF_UNIX, SOCK_STREAM, 0);
        struct sockaddr_un a = {.sun_family = AF_UNIX};
        snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
        assert_int_equal(bind(old, (struct sockaddr *)&a, sizeof(a)), 0);
        close(old);
        assert_non_null(sh = zvm_share_open(&cfg));
        assert_int_equal(lstat(path, &st), 0);
        assert_int_equal(st.st_mode & 07777, 0600);
        zvm_share_close(sh);
}

static void other_files_never_replaced(void **state)
{
        (void)state;
        char sub[96];
        snprintf(sub, sizeof(sub), "%s/run", dir);
        assert_int_equal(mkdir(sub, 0755), 0);
        FILE *f = fopen(path, "w");
        fputs("keep", f);
        fclose(f);
        assert_null(zvm_share_open(&cfg));
        assert_non_null(strstr(cd_lastlog, "a regular file is there, not a socket"));
        char b[8] = {0};
        f = fopen(path, "r");
        assert_int_equal(fread(b, 1, sizeof(b), f), 4);
        fclose(f);
        assert_string_equal(b, "keep");
        unlink(path);
        assert_int_equal(mkdir(path, 0755), 0);
        assert_null(zvm_share_open(&cfg));
        assert_non_null(strstr(cd_lastlog, "a directory is there"));
        rmdir(path);
        /* a socket another program serves */
        struct zvm_share *first = zvm_share_open(&cfg);
        assert_non_null(first);
        assert_null(zvm_share_open(&cfg));
        assert_non_null(strstr(cd_lastlog, "another program serves this socket"));
        struct stat st;
        assert_int_equal(lstat(path, &st), 0);
        zvm_share_close(first);
}

static void frames_as_documented(void **state)
{
        (void)state;
        struct zvm_share *sh = zvm_share_open(&cfg);
        int fd = client();
        expect_header(sh, fd);
        assert_int_equal(atomic_load(&sh->nreaders), 1);
        uint8_t a[1000], b[3];
        pattern(a, sizeof(a), 1);
        pattern(b, sizeof(b), 9);
        int64_t ua = zvm_share_put(sh, a, sizeof(a));
        int64_t ub = zvm_share_put(sh, b, sizeof(b));
        assert_true(ua > 0 && ub >= ua);
        expect_frame(sh, fd, a, sizeof(a), ua);
        expect_frame(sh, fd, b, sizeof(b), ub);
        expect_nothing(sh, fd);
        zvm_share_turn(sh, 1);
        assert_true(zvm_stats()->share_on);
        assert_int_equal(zvm_stats()->share_readers, 1);
        assert_int_equal(zvm_stats()->share_bytes, 16 + 24 + 1000 + 24 + 3);
        /* a reader that leaves is gone, and no drop */
        close(fd);
        zvm_share_turn(sh, 1);
        assert_int_equal(atomic_load(&sh->nreaders), 0);
        assert_int_equal(zvm_stats()->share_drops, 0);
        zvm_share_close(sh);
}

static void no_reader_costs_a_look(void **state)
{
        (void)state;
        uint8_t a[4096];
        pattern(a, sizeof(a), 3);
        allocs = 0;
        assert_int_equal(zvm_share_put(NULL, a, sizeof(a)), 0);
        zvm_share_config(NULL, a, sizeof(a), 0);
        struct zvm_share *sh = zvm_share_open(&cfg);
        allocs = 0;
        for (int i = 0; i < 100; i++)
                assert_int_equal(zvm_share_put(sh, a, sizeof(a)), 0);
        assert_int_equal(allocs, 0);
        zvm_share_close(sh);
}

static void late_readers_get_the_configuration(void **state)
{
        (void)state;
        struct zvm_share *sh = zvm_share_open(&cfg);
        uint8_t c1[500], x[700], y[300];
        pattern(c1, sizeof(c1), 5);
        pattern(x, sizeof(x), 6);
        pattern(y, sizeof(y), 7);
        /* read before anyone came, and held configuration records: kept */
        assert_int_equal(zvm_share_put(sh, c1, sizeof(c1)), 0);
        zvm_share_config(sh, c1, sizeof(c1), 0);
        int r1 = client();
        expect_header(sh, r1);
        expect_frame(sh, r1, c1, sizeof(c1), 0);
        /* x is put, r2 comes, x turns out to be a configuration set: r2 gets it too */
        int64_t ux = zvm_share_put(sh, x, sizeof(x));
        int r2 = client();
        expect_header(sh, r2);
        expect_frame(sh, r2, c1, sizeof(c1), 0);
        zvm_share_config(sh, x, sizeof(x), ux);
        expect_frame(sh, r2, x, sizeof(x), ux);
        expect_frame(sh, r1, x, sizeof(x), ux);
        int64_t uy = zvm_share_put(sh, y, sizeof(y));
        expect_frame(sh, r1, y, sizeof(y), uy);
        expect_frame(sh, r2, y, sizeof(y), uy);
        expect_nothing(sh, r1); /* x once, not again as the configuration */
        expect_nothing(sh, r2);
        /* and a third gets x as the configuration */
        int r3 = client();
        expect_header(sh, r3);
        expect_frame(sh, r3, x, sizeof(x), ux);
        expect_nothing(sh, r3);
        close(r1), close(r2), close(r3);
        zvm_share_close(sh);
}

/* The place of the reader whose peer is the n-th one seated. */
static struct share_reader *seated(struct zvm_share *sh, size_t nth)
{
        for (size_t i = 0, k = 0; i < SHARE_MAX_READERS; i++)
                if (sh->r[i].fd >= 0 && k++ == nth)
                        return &sh->r[i];
        fail_msg("no reader %zu", nth);
        return NULL;
}

static void slow_reader_dropped_others_go_on(void **state)
{
        (void)state;
        struct zvm_share *sh = zvm_share_open(&cfg);
        int fast = client(), slow = client();
        expect_header(sh, fast);
        struct share_reader *s = seated(sh, 1);
        /* the kernel's buffer as small as it goes, so the queue fills at once */
        int one = 1;
        assert_int_equal(setsockopt(s->fd, SOL_SOCKET, SO_SNDBUF, &one, sizeof(one)), 0);
        enum { N = 20000 };
        static uint8_t set[N];
        int dropped_at = -1;
        for (int i = 0; i < 40 && dropped_at < 0; i++) {
                pattern(set, N, (uint8_t)i);
                size_t before = s->queued;
                int64_t us = zvm_share_put(sh, set, N);
                if (s->drop) {
                        /* behind, and over the bound with this one */
                        assert_true(before > 0 && before + 24 + N > cfg.share_buffer);
                        dropped_at = i;
                } else {
                        assert_true(s->queued <= cfg.share_buffer || before == 0);
                }
                expect_frame(sh, fast, set, N, us);
        }
        assert_true(dropped_at > 0);
        assert_int_equal(sh->drops, 1);
        zvm_share_turn(sh, 1); /* the writer closes it */
        assert_int_equal(atomic_load(&sh->nreaders), 1);
        assert_int_equal(zvm_stats()->share_drops, 1);
        assert_int_equal(zvm_stats()->share_readers, 1);
        assert_non_null(strstr(cd_lastlog, "fell more than ShareBuffer (65536 bytes) behind"));
        /* what the kernel held, then the end */
        ssize_t k;
        uint8_t b[4096];
        while ((k = recv(slow, b, sizeof(b), 0)) > 0)
                ;
        assert_int_equal(k, 0);
        /* the fast one reads on */
        pattern(set, N, 99);
        int64_t us = zvm_share_put(sh, set, N);
        expect_frame(sh, fast, set, N, us);
        close(fast), close(slow);
        zvm_share_close(sh);
}

static void caught_up_reader_takes_a_big_set(void **state)
{
        (void)state;
        struct zvm_share *sh = zvm_share_open(&cfg);
        int fd = client();
        expect_header(sh, fd);
        size_t n = 3 * (size_t)cfg.share_buffer;
        uint8_t *big = malloc(n);
        pattern(big, n, 4);
        int64_t us = zvm_share_put(sh, big, n);
        assert_false(seated(sh, 0)->drop);
        expect_frame(sh, fd, big, n, us);
        assert_int_equal(sh->drops, 0);
        free(big);
        close(fd);
        zvm_share_close(sh);
}

static void readers_beyond_the_places_refused(void **state)
{
        (void)state;
        struct zvm_share *sh = zvm_share_open(&cfg);
        int fd[SHARE_MAX_READERS + 1];
        for (int i = 0; i <= SHARE_MAX_READERS; i++) {
                fd[i] = client();
                zvm_share_turn(sh, 1);
        }
        assert_int_equal(atomic_load(&sh->nreaders), SHARE_MAX_READERS);
        assert_int_equal(sh->refused, 1);
        uint8_t b[16];
        assert_int_equal(recv(fd[SHARE_MAX_READERS], b, sizeof(b), 0), 0);
        for (int i = 0; i <= SHARE_MAX_READERS; i++)
                close(fd[i]);
        zvm_share_close(sh);
}

/*
 * accept failing for want of descriptors (EMFILE): the connection stays
 * queued and poll says so at once, so the next turn leaves the socket alone
 * rather than spin; once descriptors are free again readers are taken.
 */
static void accept_failure_rests_a_turn(void **state)
{
        (void)state;
        struct zvm_share *sh = zvm_share_open(&cfg);
        int fd = client();
        struct rlimit was, now;
        assert_int_equal(getrlimit(RLIMIT_NOFILE, &was), 0);
        now = was;
        now.rlim_cur = (rlim_t)fd + 1; /* no descriptor above the client's */
        assert_int_equal(setrlimit(RLIMIT_NOFILE, &now), 0);
        zvm_share_turn(sh, 1);
        bool rested = sh->rest;
        assert_int_equal(setrlimit(RLIMIT_NOFILE, &was), 0);
        assert_true(rested);
        assert_non_null(strstr(cd_lastlog, "accept: Too many open files"));
        assert_int_equal(atomic_load(&sh->nreaders), 0);
        zvm_share_turn(sh, 1); /* the rest */
        assert_false(sh->rest);
        /* fd is taken now, or (under valgrind, whose descriptor check closes what the
           kernel accepted) was lost: a new reader is taken either way */
        int again = client();
        expect_header(sh, again);
        close(fd);
        close(again);
        zvm_share_close(sh);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test_setup_teardown(socket_made_with_its_mode, setup, teardown),
            cmocka_unit_test_setup_teardown(other_files_never_replaced, setup, teardown),
            cmocka_unit_test_setup_teardown(frames_as_documented, setup, teardown),
            cmocka_unit_test_setup_teardown(no_reader_costs_a_look, setup, teardown),
            cmocka_unit_test_setup_teardown(late_readers_get_the_configuration, setup, teardown),
            cmocka_unit_test_setup_teardown(slow_reader_dropped_others_go_on, setup, teardown),
            cmocka_unit_test_setup_teardown(caught_up_reader_takes_a_big_set, setup, teardown),
            cmocka_unit_test_setup_teardown(readers_beyond_the_places_refused, setup, teardown),
            cmocka_unit_test_setup_teardown(accept_failure_rests_a_turn, setup, teardown),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
