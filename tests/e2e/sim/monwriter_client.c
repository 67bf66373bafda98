/* SPDX-License-Identifier: MIT */
/*
 * A plain monwriter client against zvmsim's FUSE monwriter: the driver's
 * errno for every error case (doc/facts/kernel-drivers.md 2.3), the header
 * parser across write() boundaries, buffer keying, and what CP makes of the
 * buffers: domain 10 record 2 every interval, record 1 on STOP, GEN_EVENT and
 * close.  The records are read back through the FUSE monreader and checked
 * at the documented APPLDATA header offsets (doc/facts/monitor-stream.md 7.1).
 *
 *   monwriter_client ZVMSIM_BINARY
 */
#include <stdbool.h>
#include <stdint.h>

#include "record/record.h"
#include "base/ebcdic.h"
#include "simctl.h"

#define USERID "LNXTEST1"

static void hdr(uint8_t h[13], unsigned fn, unsigned applid, unsigned rec, unsigned mod,
                unsigned datalen, unsigned hdrlen)
{
        memset(h, 0, 13);
        h[0] = (uint8_t)fn;
        h[1] = (uint8_t)(applid >> 8);
        h[2] = (uint8_t)applid;
        h[3] = (uint8_t)rec;
        h[4] = 0, h[5] = 1; /* version 1 */
        h[6] = 0, h[7] = 2; /* release 2 */
        h[8] = (uint8_t)(mod >> 8);
        h[9] = (uint8_t)mod;
        h[10] = (uint8_t)(datalen >> 8);
        h[11] = (uint8_t)datalen;
        h[12] = (uint8_t)hdrlen;
}

static long wr(int fd, const void *p, size_t n)
{
        ssize_t r = write(fd, p, n);
        return r < 0 ? -errno : (long)r;
}

/* Header + data in one write(). */
static long rec(int fd, unsigned fn, unsigned applid, unsigned record, unsigned mod,
                const void *data, unsigned len)
{
        uint8_t b[13 + 4096];
        hdr(b, fn, applid, record, mod, len, 13);
        if (fn != 1 && len)
                memcpy(b + 13, data, len);
        return wr(fd, b, 13 + (fn != 1 ? len : 0));
}

/* ---- what CP emitted, read back through the monreader ---- */
struct d10 {
        unsigned number;
        char kind;
        char userid[9];
        uint8_t prodid[16];
        uint8_t data[4096];
        size_t len;
};
static struct d10 got[512];
static size_t ngot;
static unsigned long dec_errors;

static void on_rec(void *ctx, const struct zd_record *r)
{
        (void)ctx;
        if (r->domain != 10 || ngot == 512)
                return;
        struct d10 *d = &got[ngot++];
        uint16_t off = 0, len = 0;
        d->number = r->number;
        d->kind = r->kind;
        zd_view v = r->rec, u;
        (void)zd_u16(v, 20, &off); /* APLSDT_CALDATOF */
        (void)zd_u16(v, 22, &len); /* APLSDT_CALDATLN */
        if (zd_view_sub(v, 24, 8, &u))
                zd_ebcdic_to_utf8(u, ZD_CP037, d->userid, sizeof(d->userid));
        if (v.n >= 48)
                memcpy(d->prodid, v.p + 32, 16);
        if (off >= 52 && (size_t)off + len <= v.n && len <= sizeof(d->data)) {
                memcpy(d->data, v.p + off, len);
                d->len = len;
        }
}
static void on_err(void *ctx, const struct zd_error *e)
{
        (void)ctx;
        dec_errors++;
        fprintf(stderr, "decode error: %s\n", e->msg);
}

static uint8_t dsbuf[8 << 20];

/* Read every queued data set (non-blocking reader) and collect its D10 records. */
static size_t drain(int rfd)
{
        size_t sets = 0, len = 0;
        ngot = 0;
        for (;;) {
                ssize_t r = read(rfd, dsbuf + len, sizeof(dsbuf) - len);
                if (r > 0) {
                        len += (size_t)r;
                        continue;
                }
                if (r < 0)
                        break;
                struct zd_handler h = {.record = on_rec, .error = on_err};
                struct zd_decoder d;
                zd_decoder_init(&d, &h);
                zd_decode_dataset(&d, zd_view_make(dsbuf, len), sets, 0);
                sets++;
                len = 0;
        }
        return sets;
}

static const struct d10 *find(unsigned number, unsigned applid, unsigned record, unsigned mod)
{
        for (size_t i = 0; i < ngot; i++) {
                const uint8_t *p = got[i].prodid;
                if (got[i].number == number && memcmp(p, "LNXAPPL", 7) == 0 &&
                    (unsigned)(p[7] << 8 | p[8]) == applid && p[9] == record &&
                    (unsigned)(p[14] << 8 | p[15]) == mod)
                        return &got[i];
        }
        return NULL;
}

static void t_errors(struct sim *s, int fd)
{
        uint8_t h[13];
        hdr(h, 0, 7, 0, 0, 4011, 13);
        CHECK(wr(fd, h, 13) == -EINVAL, "datalen 4011: want EINVAL");
        hdr(h, 4, 7, 0, 0, 10, 13);
        CHECK(wr(fd, h, 13) == -EINVAL, "function 4: want EINVAL");
        hdr(h, 0, 7, 0, 0, 10, 12);
        CHECK(wr(fd, h, 13) == -EINVAL, "hdrlen 12: want EINVAL");
        hdr(h, 0, 7, 0, 0, 10, 14);
        CHECK(wr(fd, h, 13) == -EINVAL, "hdrlen 14: want EINVAL");
        /* After an error the parser expects a header again. */
        CHECK(rec(fd, 0, 7, 0, 0, "0123456789", 10) == 23, "valid record after errors");
        CHECK(status(s, "writer_buffers") == 1, "one buffer after the valid record");
        CHECK(rec(fd, 1, 7, 0, 0, NULL, 0) == 13, "STOP it");
        CHECK(status(s, "writer_buffers") == 0, "no buffer after STOP");
        /* STOP of a buffer that does not exist: success, nothing happens. */
        CHECK(rec(fd, 1, 99, 9, 9, NULL, 0) == 13, "STOP of an unknown buffer succeeds");
        /* datalen 4010 is the maximum and accepted. */
        static uint8_t big[4010];
        CHECK(rec(fd, 2, 7, 1, 0, big, 4010) == 13 + 4010, "GEN_EVENT with 4010 bytes");
}

static void t_split(struct sim *s, int fd, int rfd)
{
        uint8_t b[13 + 40];
        hdr(b, 0, 0x1234, 5, 3, 40, 13);
        for (int i = 0; i < 40; i++)
                b[13 + i] = (uint8_t)('a' + i % 26);
        /* The header a byte at a time, the data in two pieces. */
        for (int i = 0; i < 13; i++)
                CHECK(wr(fd, b + i, 1) == 1, "header byte %d", i);
        CHECK(wr(fd, b + 13, 25) == 25, "data part 1");
        CHECK(wr(fd, b + 38, 15) == 15, "data part 2");
        CHECK(status(s, "writer_buffers") == 1, "buffer from the split write");
        ctl(s, "interval");
        drain(rfd);
        const struct d10 *d = find(2, 0x1234, 5, 3);
        CHECK(d != NULL, "D10R2 for the START_INTERVAL buffer");
        if (d) {
                CHECK(d->kind == 'S', "D10R2 comes in sample data");
                CHECK(strcmp(d->userid, USERID) == 0, "userid %s, want " USERID, d->userid);
                CHECK(d->len == 40 && memcmp(d->data, b + 13, 40) == 0, "D10R2 data (%zu bytes)",
                      d->len);
                CHECK(d->prodid[10] == 0 && d->prodid[11] == 1 && d->prodid[12] == 0 &&
                          d->prodid[13] == 2,
                      "version/release in the product id");
        }
        /* Update: same header, new data; seen at the next interval, no event. */
        b[13] = 'Z';
        CHECK(wr(fd, b, sizeof(b)) == (long)sizeof(b), "update write");
        CHECK(drain(rfd) == 0, "an update makes no event");
        ctl(s, "interval");
        drain(rfd);
        d = find(2, 0x1234, 5, 3);
        CHECK(d && d->data[0] == 'Z', "updated data in the next interval");
        CHECK(status(s, "writer_buffers") == 1, "update did not add a buffer");

        /* Two records in one write(). */
        uint8_t two[2 * (13 + 8)];
        hdr(two, 0, 0x1234, 6, 0, 8, 13);
        memcpy(two + 13, "record-6", 8);
        hdr(two + 21, 0, 0x1234, 7, 0, 8, 13);
        memcpy(two + 34, "record-7", 8);
        CHECK(wr(fd, two, sizeof(two)) == (long)sizeof(two), "two records in one write");
        CHECK(status(s, "writer_buffers") == 3, "three buffers");
        ctl(s, "interval");
        drain(rfd);
        CHECK(find(2, 0x1234, 6, 0) && find(2, 0x1234, 7, 0), "both appear");

        /* STOP: an event record at once, and no more samples. */
        CHECK(rec(fd, 1, 0x1234, 6, 0, NULL, 0) == 13, "STOP record 6");
        size_t sets = drain(rfd);
        const struct d10 *e = find(1, 0x1234, 6, 0);
        CHECK(sets == 1 && e, "STOP made one event set with D10R1 (%zu sets)", sets);
        CHECK(e && e->kind == 'E' && e->len == 8 && memcmp(e->data, "record-6", 8) == 0,
              "D10R1 carries the buffer's last data");
        ctl(s, "interval");
        drain(rfd);
        CHECK(!find(2, 0x1234, 6, 0) && find(2, 0x1234, 7, 0), "record 6 gone, 7 still sampled");

        /* GEN_EVENT: an event record with its own data; no buffer kept. */
        CHECK(rec(fd, 2, 0x1234, 9, 0, "an event", 8) == 21, "GEN_EVENT");
        drain(rfd);
        e = find(1, 0x1234, 9, 0);
        CHECK(e && e->len == 8 && memcmp(e->data, "an event", 8) == 0, "GEN_EVENT made D10R1");
        CHECK(status(s, "writer_buffers") == 2, "GEN_EVENT keeps no buffer");

        /* START_CONFIG: not sampled, but part of the configuration set of a new reader. */
        CHECK(rec(fd, 3, 0x1234, 5, 3, "config!!", 8) == 21,
              "START_CONFIG, same key as an interval buffer");
        CHECK(status(s, "writer_buffers") == 3, "START_CONFIG is a buffer of its own");
        ctl(s, "interval");
        drain(rfd);
        const struct d10 *c = NULL;
        for (size_t i = 0; i < ngot; i++)
                if (got[i].len == 8 && memcmp(got[i].data, "config!!", 8) == 0)
                        c = &got[i];
        CHECK(c == NULL, "START_CONFIG buffer is not in sample intervals");
}

static void t_close_and_limits(struct sim *s, int rfd, const char *writer)
{
        int fd = open(writer, O_RDWR);
        int fd2 = open(writer, O_RDWR | O_EXCL);
        CHECK(fd >= 0 && fd2 >= 0, "two opens of monwriter");
        /* The same key in two files: two buffers (keys are per open file). */
        CHECK(rec(fd, 0, 0x42, 0, 0, "AAAA", 4) == 17 && rec(fd2, 0, 0x42, 0, 0, "BBBB", 4) == 17,
              "same key in two files");
        CHECK(status(s, "writer_buffers") == 2, "two buffers for two files");
        close(fd2);
        size_t sets = drain(rfd);
        CHECK(sets == 1 && find(1, 0x42, 0, 0), "close() made a D10R1 (%zu sets)", sets);
        CHECK(status(s, "writer_buffers") == 1, "close() freed that file's buffers only");

        /* max_bufs: ENOSPC for a new START and for GEN_EVENT; STOP makes room. */
        ctl(s, "maxbufs 3");
        CHECK(rec(fd, 0, 0x42, 1, 0, "x", 1) == 14 && rec(fd, 0, 0x42, 2, 0, "x", 1) == 14,
              "up to the limit");
        CHECK(rec(fd, 0, 0x42, 3, 0, "x", 1) == -ENOSPC, "over max_bufs: ENOSPC");
        CHECK(rec(fd, 2, 0x42, 4, 0, "x", 1) == -ENOSPC, "GEN_EVENT at max_bufs: ENOSPC");
        CHECK(rec(fd, 0, 0x42, 1, 0, "y", 1) == 14, "update of an existing buffer at the limit");
        CHECK(rec(fd, 1, 0x42, 2, 0, NULL, 0) == 13, "STOP one");
        CHECK(rec(fd, 0, 0x42, 3, 0, "x", 1) == 14, "room again after STOP");
        ctl(s, "maxbufs 255");

        /* OPTION APPLMON missing: the DIAG fails with EPERM. */
        ctl(s, "eperm 1");
        CHECK(rec(fd, 0, 0x43, 0, 0, "x", 1) == -EPERM, "START without APPLMON: EPERM");
        CHECK(status(s, "writer_buffers") == 4, "a failed START keeps its buffer (driver quirk)");
        ctl(s, "eperm 0");
        CHECK(rec(fd, 0, 0x43, 0, 0, "x", 1) == 14, "START again only updates, no new DIAG");
        ctl(s, "interval");
        drain(rfd);
        CHECK(!find(2, 0x43, 0, 0), "a buffer whose DIAG failed is never sampled");
        CHECK(rec(fd, 1, 0x43, 0, 0, NULL, 0) == 13, "STOP frees it");
        CHECK(status(s, "writer_buffers") == 3, "three buffers left");

        /* close(): every buffer of the file stopped, one D10R1 each. */
        close(fd);
        drain(rfd);
        size_t ends = 0;
        for (size_t i = 0; i < ngot; i++)
                ends += got[i].number == 1;
        CHECK(ends == 3, "close() made %zu D10R1 records, want 3", ends);
        CHECK(status(s, "writer_buffers") == 0, "no buffers after close()");
}

/*
 * Children that drop their copies of the writer's descriptor end none of its
 * buffers: the driver's release (a STOP for each) runs at the last close.
 */
static void t_children(struct sim *s, int rfd, const char *writer)
{
        int fd = open(writer, O_WRONLY);
        CHECK(fd >= 0, "open monwriter (children)");
        if (fd < 0)
                return;
        CHECK(rec(fd, 0, 0x45, 0, 0, "AAAA", 4) == 17, "START before the children");
        drain(rfd);
        children_drop(fd);
        CHECK(drain(rfd) == 0, "children dropping their copies made no event set");
        CHECK(status(s, "writer_buffers") == 1, "the buffer outlives the children's closes");
        long r = rec(fd, 0, 0x45, 0, 0, "BBBB", 4);
        CHECK(r == 17, "update after the children: %ld", r);
        ctl(s, "interval");
        drain(rfd);
        const struct d10 *d = find(2, 0x45, 0, 0);
        CHECK(d && d->len == 4 && memcmp(d->data, "BBBB", 4) == 0, "CP samples the update");
        close(fd);
        drain(rfd);
        CHECK(find(1, 0x45, 0, 0) != NULL, "the writer's own close() makes the D10R1");
}

/* "vanish 2": the monwriter node goes; an open writer loses its buffers (CP
 * ends them) and gets ENODEV; "vanish 0" brings the node back. */
static void t_vanish(struct sim *s, int rfd, const char *writer)
{
        int fd = open(writer, O_WRONLY);
        CHECK(fd >= 0, "open monwriter before vanish");
        CHECK(rec(fd, 0, 0x44, 0, 0, "AAAA", 4) == 17 && rec(fd, 0, 0x44, 0, 1, "BBBB", 4) == 17,
              "two buffers before vanish");
        drain(rfd);
        ctl(s, "vanish 2");
        CHECK(status(s, "writer_buffers") == 0, "vanish 2 freed the writer's buffers");
        drain(rfd);
        size_t ends = 0;
        for (size_t i = 0; i < ngot; i++)
                ends += got[i].number == 1;
        CHECK(ends == 2, "vanish 2 made %zu D10R1 records, want 2", ends);
        CHECK(rec(fd, 0, 0x44, 0, 0, "CCCC", 4) == -ENODEV, "write after vanish 2: ENODEV");
        struct stat st;
        CHECK(stat(writer, &st) < 0 && errno == ENOENT, "monwriter gone after vanish 2");
        CHECK(open(writer, O_WRONLY) < 0 && errno == ENOENT, "open after vanish 2: ENOENT");
        CHECK(access(simpath(s, "monreader"), R_OK) == 0, "vanish 2 leaves monreader alone");
        ctl(s, "vanish 0");
        CHECK(rec(fd, 0, 0x44, 0, 0, "CCCC", 4) == -ENODEV, "the old descriptor stays dead");
        close(fd);
        fd = open(writer, O_WRONLY);
        CHECK(fd >= 0, "open monwriter after vanish 0");
        CHECK(rec(fd, 0, 0x44, 0, 0, "DDDD", 4) == 17, "a new descriptor writes");
        ctl(s, "interval");
        drain(rfd);
        const struct d10 *d = find(2, 0x44, 0, 0);
        CHECK(d && d->len == 4 && memcmp(d->data, "DDDD", 4) == 0, "CP samples the new buffer");
        /* mwdelay: a slow DIAGNOSE X'DC' holds up the write(), nothing else */
        ctl(s, "mwdelay 300");
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        CHECK(rec(fd, 0, 0x44, 0, 0, "EEEE", 4) == 17, "a write under mwdelay");
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        CHECK(took >= 0.3, "mwdelay 300: the write took %.3f s", took);
        ctl(s, "mwdelay 0");
        close(fd);
        drain(rfd);
}

int main(int argc, char **argv)
{
        if (argc != 2) {
                fputs("usage: monwriter_client ZVMSIM_BINARY\n", stderr);
                return 2;
        }
        struct sim s;
        sim_start(&s, argv[1], "--interval", "0", "--writer-userid", USERID, NULL);
        char writer[320];
        snprintf(writer, sizeof(writer), "%s", simpath(&s, "monwriter"));
        int rfd = open(simpath(&s, "monreader"), O_RDONLY | O_NONBLOCK);
        int fd = open(writer, O_RDWR);
        CHECK(rfd >= 0 && fd >= 0, "open monreader and monwriter");
        if (rfd < 0 || fd < 0)
                return 1;
        drain(rfd);
        t_errors(&s, fd);
        t_split(&s, fd, rfd);
        close(fd);
        drain(rfd);
        /* A reader that connects now gets no START_CONFIG buffer: its file was closed. */
        t_close_and_limits(&s, rfd, writer);
        t_children(&s, rfd, writer);
        t_vanish(&s, rfd, writer);
        CHECK(dec_errors == 0, "%lu decode errors", dec_errors);
        close(rfd);
        sim_stop(&s);

        /* --monwriter-eperm: the guest has no OPTION APPLMON. */
        sim_start(&s, argv[1], "--interval", "0", "--monwriter-eperm", NULL);
        fd = open(simpath(&s, "monwriter"), O_WRONLY);
        CHECK(fd >= 0, "open monwriter (eperm)");
        CHECK(rec(fd, 0, 1, 0, 0, "x", 1) == -EPERM, "--monwriter-eperm: START gives EPERM");
        CHECK(rec(fd, 2, 1, 0, 0, "x", 1) == -EPERM, "--monwriter-eperm: GEN_EVENT gives EPERM");
        close(fd);
        sim_stop(&s);

        /* --max-bufs 0: no buffer fits; every START and GEN_EVENT gets ENOSPC. */
        sim_start(&s, argv[1], "--interval", "0", "--max-bufs", "0", NULL);
        fd = open(simpath(&s, "monwriter"), O_WRONLY);
        CHECK(fd >= 0, "open monwriter (max-bufs 0)");
        CHECK(rec(fd, 0, 1, 0, 0, "x", 1) == -ENOSPC, "--max-bufs 0: START gives ENOSPC");
        CHECK(rec(fd, 1, 1, 0, 0, NULL, 0) == 13, "--max-bufs 0: STOP still succeeds");
        close(fd);
        sim_stop(&s);
        return finish("monwriter_client");
}
