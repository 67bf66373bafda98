/* SPDX-License-Identifier: MIT */
/*
 * MONWRITE output: per data set a 4 KB control record (MWTBK: the IUCV
 * message-pending buffer with the MCA addresses, then the control area
 * entries) followed by the images of the DCSS pages its entries touch, in
 * the order zd_mw_pages() gives: the page-image assumption lives there only.
 * Also the zvmmon capture format, for the same stream as monreader reads it.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "sim.h"

struct sim_out {
        FILE *f;
        bool capture;
        uint32_t *pages;
        uint8_t page[ZD_MW_BLOCK];
        uint64_t groups;
};

#define MAX_PAGES 65536

struct sim_out *sim_out_open(const char *path, bool capture)
{
        struct sim_out *o = calloc(1, sizeof(*o));
        if (!o)
                return NULL;
        o->f = fopen(path, "wb");
        o->pages = malloc(MAX_PAGES * sizeof(*o->pages));
        if (!o->f || !o->pages) {
                if (o->f)
                        fclose(o->f);
                free(o->pages);
                free(o);
                return NULL;
        }
        o->capture = capture;
        if (capture) {
                uint8_t h[ZD_CAP_HDR_LEN];
                zd_capture_file_header(h);
                fwrite(h, 1, sizeof(h), o->f);
        }
        return o;
}

static int write_capture(struct sim_out *o, const struct sim_set *s)
{
        uint8_t h[ZD_CAP_FRAME_LEN];
        int64_t us = 0;
        struct zd_mce m;
        /* The capture time of a simulated set: its records' TOD, else now. */
        if (s->nmce && s->len > s->mce_off[0] + ZD_MCE_LEN + 16 &&
            zd_mce_parse(zd_view_make(s->buf + s->mce_off[0], ZD_MCE_LEN), &m) == ZD_E_NONE) {
                uint64_t tod;
                if (zd_u64(zd_view_make(s->buf, s->len), s->mce_off[0] + ZD_MCE_LEN + 8, &tod))
                        us = zd_tod_to_unix_us(tod);
        }
        zd_capture_frame_header(h, (uint32_t)s->len, us, 0);
        if (fwrite(h, 1, sizeof(h), o->f) != sizeof(h) || fwrite(s->buf, 1, s->len, o->f) != s->len)
                return -1;
        return 0;
}

int sim_out_set(struct sim_out *o, const struct sim_set *s)
{
        if (o->capture)
                return write_capture(o, s);
        struct zd_mce ent[ZD_MW_MAX_ENTRIES];
        if (s->nmce > ZD_MW_MAX_ENTRIES) {
                fprintf(stderr, "zvmsim: data set %llu has %zu MCEs; MONWRITE holds at most %u\n",
                        (unsigned long long)s->seq, s->nmce, ZD_MW_MAX_ENTRIES);
                return -1;
        }
        size_t n = sim_set_mces(s, ent, ZD_MW_MAX_ENTRIES);
        memset(o->page, 0, sizeof(o->page));
        zd_wbuf w = {o->page, sizeof(o->page)};
        (void)zd_put16(w, 0, 1);                    /* IPPATHID */
        (void)zd_put8(w, 2, 0x80);                  /* IPFLAGS1: IPRMDATA */
        (void)zd_put8(w, 3, 0x09);                  /* IPTYPE: message pending */
        (void)zd_put32(w, 4, (uint32_t)s->seq + 1); /* IPMSGID */
        (void)zd_put32(w, 12, s->mca_start);        /* IPRMMSG1 */
        (void)zd_put32(w, 16, s->mca_start + (uint32_t)n * ZD_MCE_LEN - 1);
        for (size_t i = 0; i < n; i++)
                (void)zd_put_bytes(w, ZD_MW_EXTBF_LEN + i * ZD_MCE_LEN, s->buf + s->mce_off[i],
                                   ZD_MCE_LEN);
        if (fwrite(o->page, 1, ZD_MW_BLOCK, o->f) != ZD_MW_BLOCK)
                return -1;
        int np = zd_mw_pages(ent, n, o->pages, MAX_PAGES);
        if (np < 0)
                return -1;
        for (int p = 0; p < np; p++) {
                uint32_t lo = o->pages[p] << 12, hi = lo + ZD_MW_BLOCK - 1;
                memset(o->page, 0, sizeof(o->page));
                for (size_t i = 0; i < n; i++) {
                        uint32_t a = ent[i].start > lo ? ent[i].start : lo;
                        uint32_t b = ent[i].end < hi ? ent[i].end : hi;
                        if (a > b)
                                continue;
                        const uint8_t *src =
                            s->buf + s->mce_off[i] + ZD_MCE_LEN + (a - ent[i].start);
                        memcpy(o->page + (a - lo), src, (size_t)(b - a) + 1);
                }
                if (fwrite(o->page, 1, ZD_MW_BLOCK, o->f) != ZD_MW_BLOCK)
                        return -1;
        }
        o->groups++;
        return 0;
}

int sim_out_close(struct sim_out *o)
{
        int rc = 0;
        if (!o)
                return 0;
        if (fclose(o->f) != 0)
                rc = -1;
        free(o->pages);
        free(o);
        return rc;
}
