/* SPDX-License-Identifier: MIT */
/*
 * /dev/monwriter as the kernel driver behaves (doc/facts/kernel-drivers.md 2.3),
 * written from the documented behaviour, quirks included: STOP takes no data;
 * a failed START DIAG leaves the buffer allocated and never retried.  An
 * update of an existing buffer with another datalen gets EINVAL, as since
 * the change of mid-2026 (2.5); with old_resize, as before it, the update is
 * taken, consuming the stored datalen but placing bytes by the new header's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_monwriter.h"
#include "zvmdec.h"

void sim_mw_hdr_parse(const uint8_t b[SIM_MW_HDR_LEN], struct sim_mw_hdr *h)
{
        zd_view v = zd_view_make(b, SIM_MW_HDR_LEN);
        (void)zd_u8(v, 0, &h->fn);
        (void)zd_u16(v, 1, &h->applid);
        (void)zd_u8(v, 3, &h->record);
        (void)zd_u16(v, 4, &h->version);
        (void)zd_u16(v, 6, &h->release);
        (void)zd_u16(v, 8, &h->mod_level);
        (void)zd_u16(v, 10, &h->datalen);
        (void)zd_u8(v, 12, &h->hdrlen);
}

void sim_mw_prodid(const struct sim_mw_hdr *h, uint8_t out[16])
{
        zd_wbuf b = {out, 16};
        memcpy(out, "LNXAPPL", 7);
        (void)zd_put16(b, 7, h->applid);
        (void)zd_put8(b, 9, h->record);
        (void)zd_put16(b, 10, h->version);
        (void)zd_put16(b, 12, h->release);
        (void)zd_put16(b, 14, h->mod_level);
}

void sim_mw_init(struct sim_mw *mw, const char *userid)
{
        memset(mw, 0, sizeof(*mw));
        mw->max_bufs = SIM_MW_MAX_BUFS;
        snprintf(mw->userid, sizeof(mw->userid), "%s", userid ? userid : "LNXWRITE");
}

struct sim_mw_file *sim_mw_open(struct sim_mw *mw)
{
        struct sim_mw_file *f = calloc(1, sizeof(*f));
        if (!f)
                return NULL;
        f->mw = mw;
        f->id = ++mw->next_id;
        f->hdr_to_read = SIM_MW_HDR_LEN;
        f->next = mw->files;
        mw->files = f;
        return f;
}

static bool same_key(const struct sim_mw_hdr *a, const struct sim_mw_hdr *b)
{
        return a->applid == b->applid && a->record == b->record && a->version == b->version &&
               a->release == b->release && a->mod_level == b->mod_level;
}

/* DIAG X'DC': 0 or -EPERM (rc 5, no OPTION APPLMON). */
static int diag(struct sim_mw_file *f, enum sim_mw_what what, const struct sim_mw_hdr *h,
                const uint8_t *data, size_t len)
{
        struct sim_mw *mw = f->mw;
        if (mw->eperm)
                return -EPERM;
        if (mw->cb)
                mw->cb(mw->cb_ctx, what, mw->userid, h, data, len);
        return 0;
}

static void unlink_buf(struct sim_mw_file *f, struct sim_mw_buf *b)
{
        for (struct sim_mw_buf **pp = &f->bufs; *pp; pp = &(*pp)->next)
                if (*pp == b) {
                        *pp = b->next;
                        break;
                }
        free(b->data);
        free(b);
}

static int new_header(struct sim_mw_file *f)
{
        struct sim_mw_hdr *h = &f->hdr;
        struct sim_mw *mw = f->mw;
        sim_mw_hdr_parse(f->hb, h);
        if (h->datalen > SIM_MW_MAX_DATALEN || h->fn > SIM_MW_START_CONFIG ||
            h->hdrlen != SIM_MW_HDR_LEN)
                return -EINVAL;

        struct sim_mw_buf *b = NULL;
        if (h->fn != SIM_MW_GEN_EVENT)
                for (b = f->bufs; b; b = b->next)
                        if (same_key(&b->hdr, h) && (b->hdr.fn == h->fn || h->fn == SIM_MW_STOP))
                                break;
        int rc = 0;
        if (b && h->fn != SIM_MW_STOP && h->datalen != b->hdr.datalen && !mw->old_resize)
                return -EINVAL; /* the buffer keeps its data and stays active */
        if (b) {
                if (h->fn == SIM_MW_STOP) {
                        struct sim_mw_hdr stop = b->hdr;
                        stop.fn = SIM_MW_STOP;
                        /* CP only ends buffers it accepted. */
                        if (b->active)
                                rc = diag(f, SIM_MW_EV_STOP, &stop, b->data, b->hdr.datalen);
                        else if (mw->eperm)
                                rc = -EPERM;
                        unlink_buf(f, b);
                        mw->count--;
                        b = NULL;
                }
        } else if (h->fn != SIM_MW_STOP) {
                if (mw->count >= mw->max_bufs)
                        return -ENOSPC;
                b = calloc(1, sizeof(*b));
                if (!b)
                        return -ENOMEM;
                b->data = calloc(1, h->datalen ? h->datalen : 1);
                if (!b->data) {
                        free(b);
                        return -ENOMEM;
                }
                b->hdr = *h;
                b->owner = f;
                struct sim_mw_buf **pp = &f->bufs;
                while (*pp)
                        pp = &(*pp)->next;
                *pp = b;
                if (h->fn != SIM_MW_GEN_EVENT)
                        mw->count++;
        }
        f->cur = b;
        return rc;
}

static int new_data(struct sim_mw_file *f)
{
        struct sim_mw_buf *b = f->cur;
        int rc = 0;
        switch (f->hdr.fn) {
        case SIM_MW_START_INTERVAL:
        case SIM_MW_START_CONFIG:
                if (!b->diag_done) {
                        rc = diag(f, SIM_MW_EV_START, &b->hdr, b->data, b->hdr.datalen);
                        b->diag_done = true;
                        b->active = rc == 0;
                }
                break;
        case SIM_MW_GEN_EVENT:
                rc = diag(f, SIM_MW_EV_EVENT, &b->hdr, b->data, b->hdr.datalen);
                unlink_buf(f, b);
                f->cur = NULL;
                break;
        default:
                break;
        }
        return rc;
}

ssize_t sim_mw_write(struct sim_mw_file *f, const uint8_t *p, size_t len)
{
        size_t done = 0;
        int rc = 0;
        if (f->gone)
                return -ENODEV;
        while (done < len) {
                if (f->hdr_to_read) {
                        size_t n = len - done < f->hdr_to_read ? len - done : f->hdr_to_read;
                        memcpy(f->hb + SIM_MW_HDR_LEN - f->hdr_to_read, p + done, n);
                        f->hdr_to_read -= n;
                        done += n;
                        if (f->hdr_to_read)
                                continue;
                        rc = new_header(f);
                        if (rc)
                                goto fail;
                        f->data_to_read = f->cur ? f->cur->hdr.datalen : 0;
                }
                if (f->data_to_read) {
                        size_t n = len - done < f->data_to_read ? len - done : f->data_to_read;
                        /*
                         * The driver places bytes at (new datalen - remaining) while
                         * counting down the stored datalen; bytes that would land
                         * outside the stored buffer are dropped here instead of
                         * overrunning it.
                         */
                        for (size_t i = 0; i < n; i++) {
                                long at = (long)f->hdr.datalen - (long)(f->data_to_read - i);
                                if (at >= 0 && at < (long)f->cur->hdr.datalen)
                                        f->cur->data[at] = p[done + i];
                        }
                        f->data_to_read -= n;
                        done += n;
                        if (f->data_to_read)
                                continue;
                        rc = new_data(f);
                        if (rc)
                                goto fail;
                }
                f->hdr_to_read = SIM_MW_HDR_LEN;
        }
        return (ssize_t)done;
fail:
        f->data_to_read = 0;
        f->hdr_to_read = SIM_MW_HDR_LEN;
        return rc;
}

static void release_bufs(struct sim_mw_file *f)
{
        struct sim_mw *mw = f->mw;
        while (f->bufs) {
                struct sim_mw_buf *b = f->bufs;
                if (b->hdr.fn != SIM_MW_GEN_EVENT) {
                        if (b->active) {
                                struct sim_mw_hdr stop = b->hdr;
                                stop.fn = SIM_MW_STOP;
                                (void)diag(f, SIM_MW_EV_STOP, &stop, b->data, b->hdr.datalen);
                        }
                        mw->count--;
                }
                unlink_buf(f, b);
        }
        f->cur = NULL;
        f->data_to_read = 0;
        f->hdr_to_read = SIM_MW_HDR_LEN;
}

void sim_mw_close(struct sim_mw_file *f)
{
        struct sim_mw *mw = f->mw;
        release_bufs(f);
        for (struct sim_mw_file **pp = &mw->files; *pp; pp = &(*pp)->next)
                if (*pp == f) {
                        *pp = f->next;
                        break;
                }
        free(f);
}

void sim_mw_vanish(struct sim_mw *mw)
{
        for (struct sim_mw_file *f = mw->files; f; f = f->next) {
                release_bufs(f);
                f->gone = true;
        }
}

struct sim_mw_file *sim_mw_find(struct sim_mw *mw, uint64_t id)
{
        for (struct sim_mw_file *f = mw->files; f; f = f->next)
                if (f->id == id)
                        return f;
        return NULL;
}

void sim_mw_fini(struct sim_mw *mw)
{
        while (mw->files)
                sim_mw_close(mw->files);
}

void sim_mw_foreach(struct sim_mw *mw, bool config,
                    void (*fn)(void *ctx, const struct sim_mw_buf *b), void *ctx)
{
        uint8_t want = config ? SIM_MW_START_CONFIG : SIM_MW_START_INTERVAL;
        for (struct sim_mw_file *f = mw->files; f; f = f->next)
                for (struct sim_mw_buf *b = f->bufs; b; b = b->next)
                        if (b->active && b->hdr.fn == want)
                                fn(ctx, b);
}
