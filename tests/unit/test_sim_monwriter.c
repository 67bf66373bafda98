/* SPDX-License-Identifier: MIT */
/*
 * zvmsim's /dev/monwriter logic (zvmsim/sim_monwriter.c) against the driver
 * behaviour documented in doc/facts/kernel-drivers.md 2.1-2.5.  Headers are
 * written here byte by byte from the documented 13-byte monwrite_hdr.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "sim_monwriter.h"
#include "vec.h"

struct seen {
        int n;
        enum sim_mw_what what[16];
        uint16_t applid[16];
        uint8_t data[16][64];
        size_t len[16];
        char userid[16][9];
};

static void cb(void *ctx, enum sim_mw_what what, const char *userid, const struct sim_mw_hdr *h,
               const uint8_t *data, size_t len)
{
        struct seen *s = ctx;
        if (s->n == 16)
                return;
        s->what[s->n] = what;
        s->applid[s->n] = h->applid;
        memcpy(s->data[s->n], data, len < 64 ? len : 64);
        s->len[s->n] = len;
        strcpy(s->userid[s->n], userid);
        s->n++;
}

/* monwrite_hdr: fn, applid(2), record, version(2), release(2), mod(2), datalen(2), hdrlen. */
static size_t mkhdr(uint8_t *p, uint8_t fn, uint16_t applid, uint8_t rec, uint16_t mod,
                    uint16_t datalen, uint8_t hdrlen)
{
        p[0] = fn;
        be16(p + 1, applid);
        p[3] = rec;
        be16(p + 4, 0);
        be16(p + 6, 0);
        be16(p + 8, mod);
        be16(p + 10, datalen);
        p[12] = hdrlen;
        return 13;
}

static struct sim_mw mw;
static struct seen seen;

static int setup(void **state)
{
        (void)state;
        sim_mw_init(&mw, "LINUX042");
        memset(&seen, 0, sizeof(seen));
        mw.cb = cb;
        mw.cb_ctx = &seen;
        return 0;
}

static int teardown(void **state)
{
        (void)state;
        sim_mw_fini(&mw);
        return 0;
}

static void test_einval(void **state)
{
        (void)state;
        struct sim_mw_file *f = sim_mw_open(&mw);
        uint8_t b[64];
        mkhdr(b, 0, 1, 0, 0, 4011, 13);
        assert_int_equal(sim_mw_write(f, b, 13), -EINVAL);
        mkhdr(b, 4, 1, 0, 0, 10, 13);
        assert_int_equal(sim_mw_write(f, b, 13), -EINVAL);
        mkhdr(b, 0, 1, 0, 0, 10, 12);
        assert_int_equal(sim_mw_write(f, b, 13), -EINVAL);
        /* The parser restarted: a good record goes through. */
        mkhdr(b, 0, 1, 0, 0, 4, 13);
        memcpy(b + 13, "abcd", 4);
        assert_int_equal(sim_mw_write(f, b, 17), 17);
        assert_int_equal(mw.count, 1);
        assert_int_equal(seen.n, 1);
        assert_int_equal(seen.what[0], SIM_MW_EV_START);
        /* 4010 is allowed. */
        static uint8_t big[13 + 4010];
        mkhdr(big, 2, 9, 0, 0, 4010, 13);
        assert_int_equal(sim_mw_write(f, big, sizeof(big)), (ssize_t)sizeof(big));
}

/* Header and data cut at every possible point give the same result. */
static void test_split_everywhere(void **state)
{
        (void)state;
        uint8_t b[13 + 20];
        mkhdr(b, 0, 0x77, 1, 2, 20, 13);
        for (int i = 0; i < 20; i++)
                b[13 + i] = (uint8_t)i;
        for (size_t cut = 1; cut < sizeof(b); cut++) {
                struct sim_mw_file *f = sim_mw_open(&mw);
                assert_int_equal(sim_mw_write(f, b, cut), (ssize_t)cut);
                assert_int_equal(sim_mw_write(f, b + cut, sizeof(b) - cut),
                                 (ssize_t)(sizeof(b) - cut));
                assert_non_null(f->bufs);
                assert_memory_equal(f->bufs->data, b + 13, 20);
                sim_mw_close(f);
        }
        assert_int_equal(mw.count, 0);
}

static void test_keying(void **state)
{
        (void)state;
        struct sim_mw_file *f = sim_mw_open(&mw);
        uint8_t b[13 + 4];
        memcpy(b + 13, "1111", 4);
        mkhdr(b, 0, 5, 0, 0, 4, 13);
        assert_int_equal(sim_mw_write(f, b, 17), 17);
        /* Same key, same function: an update, no DIAG. */
        memcpy(b + 13, "2222", 4);
        assert_int_equal(sim_mw_write(f, b, 17), 17);
        assert_int_equal(mw.count, 1);
        assert_memory_equal(f->bufs->data, "2222", 4);
        assert_int_equal(seen.n, 1);
        /* START_CONFIG with the same product id is a buffer of its own. */
        mkhdr(b, 3, 5, 0, 0, 4, 13);
        assert_int_equal(sim_mw_write(f, b, 17), 17);
        assert_int_equal(mw.count, 2);
        /* A different mod level is another buffer. */
        mkhdr(b, 0, 5, 0, 1, 4, 13);
        assert_int_equal(sim_mw_write(f, b, 17), 17);
        assert_int_equal(mw.count, 3);
        /* STOP takes no data, ignores its datalen, and stops the first match. */
        mkhdr(b, 1, 5, 0, 0, 4, 13);
        assert_int_equal(sim_mw_write(f, b, 13), 13);
        assert_int_equal(mw.count, 2);
        assert_int_equal(seen.what[seen.n - 1], SIM_MW_EV_STOP);
        assert_memory_equal(seen.data[seen.n - 1], "2222", 4);
        assert_string_equal(seen.userid[seen.n - 1], "LINUX042");
        /* A second STOP of the same key stops the START_CONFIG one. */
        assert_int_equal(sim_mw_write(f, b, 13), 13);
        assert_int_equal(mw.count, 1);
        /* A third: nothing left with that key, still success. */
        int before = seen.n;
        assert_int_equal(sim_mw_write(f, b, 13), 13);
        assert_int_equal(seen.n, before);
        /* Keys are per open file. */
        struct sim_mw_file *g = sim_mw_open(&mw);
        mkhdr(b, 0, 5, 0, 1, 4, 13);
        assert_int_equal(sim_mw_write(g, b, 17), 17);
        assert_int_equal(mw.count, 2);
        sim_mw_close(g);
        assert_int_equal(mw.count, 1);
}

static void test_enospc_and_event(void **state)
{
        (void)state;
        mw.max_bufs = 2;
        struct sim_mw_file *f = sim_mw_open(&mw);
        uint8_t b[13 + 1] = {0};
        for (uint16_t i = 0; i < 2; i++) {
                mkhdr(b, 0, i, 0, 0, 1, 13);
                assert_int_equal(sim_mw_write(f, b, 14), 14);
        }
        mkhdr(b, 0, 9, 0, 0, 1, 13);
        assert_int_equal(sim_mw_write(f, b, 14), -ENOSPC);
        mkhdr(b, 2, 9, 0, 0, 1, 13);
        assert_int_equal(sim_mw_write(f, b, 14), -ENOSPC);
        /* Updating an existing buffer needs no room. */
        mkhdr(b, 0, 1, 0, 0, 1, 13);
        assert_int_equal(sim_mw_write(f, b, 14), 14);
        mw.max_bufs = 255;
        /* GEN_EVENT: DIAG with its data, nothing kept, not counted. */
        int before = seen.n;
        mkhdr(b, 2, 9, 0, 0, 1, 13);
        b[13] = 'E';
        assert_int_equal(sim_mw_write(f, b, 14), 14);
        assert_int_equal(mw.count, 2);
        assert_int_equal(seen.n, before + 1);
        assert_int_equal(seen.what[before], SIM_MW_EV_EVENT);
        assert_int_equal(seen.data[before][0], 'E');
        /* close(): a STOP for every remaining buffer. */
        before = seen.n;
        sim_mw_close(f);
        assert_int_equal(mw.count, 0);
        assert_int_equal(seen.n, before + 2);
        assert_int_equal(seen.what[before], SIM_MW_EV_STOP);
}

static void count_buf(void *c, const struct sim_mw_buf *x)
{
        (void)x;
        ++*(int *)c;
}

static void test_eperm(void **state)
{
        (void)state;
        mw.eperm = true;
        struct sim_mw_file *f = sim_mw_open(&mw);
        uint8_t b[14] = {0};
        mkhdr(b, 0, 3, 0, 0, 1, 13);
        assert_int_equal(sim_mw_write(f, b, 14), -EPERM);
        /* The buffer stays allocated, the DIAG is not retried. */
        assert_int_equal(mw.count, 1);
        mw.eperm = false;
        assert_int_equal(sim_mw_write(f, b, 14), 14);
        assert_false(f->bufs->active);
        assert_int_equal(seen.n, 0);
        /* Only accepted buffers are sampled. */
        int n = 0;
        sim_mw_foreach(&mw, false, count_buf, &n);
        assert_int_equal(n, 0);
        mw.eperm = false;
        uint8_t c[14] = {0};
        mkhdr(c, 0, 4, 0, 0, 1, 13);
        assert_int_equal(sim_mw_write(f, c, 14), 14);
        sim_mw_foreach(&mw, false, count_buf, &n);
        assert_int_equal(n, 1);
}

/*
 * A buffer rewritten with another datalen (doc/facts/kernel-drivers.md 2.5):
 * EINVAL, as the driver has answered since mid-2026; the buffer keeps its data
 * and stays sampled, the parser expects a header next, the same length and a
 * STOP (whose datalen the driver ignores) go through, and STOP then START is
 * the way to another size.  START_CONFIG follows the same rule, GEN_EVENT has
 * no buffer to match.
 */
static void test_resize_einval(void **state)
{
        (void)state;
        struct sim_mw_file *f = sim_mw_open(&mw);
        uint8_t b[13 + 8];
        mkhdr(b, 0, 7, 0, 0, 4, 13);
        memcpy(b + 13, "AAAA", 4);
        assert_int_equal(sim_mw_write(f, b, 17), 17);
        mkhdr(b, 0, 7, 0, 0, 8, 13);
        memcpy(b + 13, "BBBBBBBB", 8);
        assert_int_equal(sim_mw_write(f, b, 21), -EINVAL);
        mkhdr(b, 0, 7, 0, 0, 2, 13);
        assert_int_equal(sim_mw_write(f, b, 15), -EINVAL);
        assert_int_equal(mw.count, 1);
        assert_int_equal(f->bufs->hdr.datalen, 4);
        assert_memory_equal(f->bufs->data, "AAAA", 4);
        assert_true(f->bufs->active);
        int n = 0;
        sim_mw_foreach(&mw, false, count_buf, &n);
        assert_int_equal(n, 1);
        /* the next write starts with a header: the same length is an update */
        mkhdr(b, 0, 7, 0, 0, 4, 13);
        memcpy(b + 13, "CCCC", 4);
        assert_int_equal(sim_mw_write(f, b, 17), 17);
        assert_memory_equal(f->bufs->data, "CCCC", 4);
        /* STOP then START: another size */
        mkhdr(b, 1, 7, 0, 0, 8, 13);
        assert_int_equal(sim_mw_write(f, b, 13), 13);
        assert_int_equal(mw.count, 0);
        mkhdr(b, 0, 7, 0, 0, 8, 13);
        memcpy(b + 13, "DDDDDDDD", 8);
        assert_int_equal(sim_mw_write(f, b, 21), 21);
        assert_int_equal(f->bufs->hdr.datalen, 8);
        /* START_CONFIG alike; GEN_EVENT of any length */
        mkhdr(b, 3, 7, 0, 0, 4, 13);
        assert_int_equal(sim_mw_write(f, b, 17), 17);
        mkhdr(b, 3, 7, 0, 0, 8, 13);
        assert_int_equal(sim_mw_write(f, b, 21), -EINVAL);
        mkhdr(b, 2, 7, 0, 0, 8, 13);
        assert_int_equal(sim_mw_write(f, b, 21), 21);
        mkhdr(b, 2, 7, 0, 0, 4, 13);
        assert_int_equal(sim_mw_write(f, b, 17), 17);
}

/*
 * The driver before that change (old_resize, control "oldresize 1"): the update
 * is taken; it consumes the buffer's own datalen but places the bytes by the
 * new header's (doc/facts/kernel-drivers.md 2.3, quirks): 4 bytes consumed,
 * put at 2 - 4 + i, so only the last two land, at 0 and 1.
 */
static void test_resize_old_quirk(void **state)
{
        (void)state;
        mw.old_resize = true;
        struct sim_mw_file *f = sim_mw_open(&mw);
        uint8_t b[13 + 4];
        mkhdr(b, 0, 7, 0, 0, 4, 13);
        memcpy(b + 13, "AAAA", 4);
        assert_int_equal(sim_mw_write(f, b, 17), 17);
        mkhdr(b, 0, 7, 0, 0, 2, 13);
        memcpy(b + 13, "wxyz", 4);
        assert_int_equal(sim_mw_write(f, b, 17), 17);
        assert_int_equal(f->bufs->hdr.datalen, 4);
        assert_memory_equal(f->bufs->data, "yzAA", 4);
        assert_int_equal(mw.count, 1);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test_setup_teardown(test_einval, setup, teardown),
            cmocka_unit_test_setup_teardown(test_split_everywhere, setup, teardown),
            cmocka_unit_test_setup_teardown(test_keying, setup, teardown),
            cmocka_unit_test_setup_teardown(test_enospc_and_event, setup, teardown),
            cmocka_unit_test_setup_teardown(test_eperm, setup, teardown),
            cmocka_unit_test_setup_teardown(test_resize_einval, setup, teardown),
            cmocka_unit_test_setup_teardown(test_resize_old_quirk, setup, teardown),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
