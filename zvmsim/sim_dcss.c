/* SPDX-License-Identifier: MIT */
/*
 * The monitor DCSS and the data sets built in it.  CP places records into
 * 4 KB frames and never lets one cross a frame boundary: when the next record
 * does not fit, an End-of-Frame record (D1R13) closes the frame; a sample
 * set's last frame ends with Interval End (D1R11), an event set's with
 * neither (doc/facts/monitor-stream.md 3.1).  Room for the closing 20-byte record
 * is always kept.  Frame boundaries are DCSS address boundaries: every range
 * starts on a page, and a range that reaches the end of its area goes on at
 * the area's start under a new MCE.
 *
 * A set takes at most as many frames as its area has.  Going on past that
 * would put its last records over its first ones, in DCSS pages the reader
 * has not read yet (a MONWRITE file holds each page once: the first records
 * would be gone and the last ones read twice).  So once the set fills its
 * area the rest of its records are not placed: they are counted as lost,
 * and the Interval End still closes the set, in the room always kept for
 * it.  What real CP does when its sample area is too small is not in any
 * source found (doc/facts/monitor-stream.md 5.4); this is zvmsim's model
 * (doc/zvmsim.md, DCSS size).
 */
#include <stdlib.h>
#include <string.h>

#include "sim.h"

#define PAGE   4096u
#define CLOSER 20u /* End-of-Frame / Interval End */

static void die_oom(void)
{
        fputs("zvmsim: out of memory\n", stderr);
        abort();
}

void sim_set_free(struct sim_set *s)
{
        if (!s)
                return;
        free(s->buf);
        free(s->ends);
        free(s->mce_off);
        free(s);
}

size_t sim_set_mces(const struct sim_set *s, struct zd_mce *out, size_t max)
{
        size_t n = 0;
        for (size_t i = 0; i < s->nmce && n < max; i++)
                if (zd_mce_parse(zd_view_make(s->buf + s->mce_off[i], ZD_MCE_LEN), &out[n]) ==
                    ZD_E_NONE)
                        n++;
        return n;
}

void sim_dcss_init(struct sim_dcss *d, uint32_t base, uint32_t npages)
{
        memset(d, 0, sizeof(*d));
        if (npages < 64)
                npages = 64;
        d->base = base & ~(PAGE - 1);
        d->npages = npages;
        /* MCA area, then configuration 1/8, sample 5/8, event the rest. */
        d->mca_page = 0;
        d->mca_pages = 4;
        uint32_t rest = npages - d->mca_pages;
        d->area_first[SIM_AREA_CONFIG] = d->mca_pages;
        d->area_pages[SIM_AREA_CONFIG] = rest / 8;
        d->area_first[SIM_AREA_SAMPLE] = d->mca_pages + rest / 8;
        d->area_pages[SIM_AREA_SAMPLE] = rest / 8 * 5;
        d->area_first[SIM_AREA_EVENT] = d->area_first[SIM_AREA_SAMPLE] + rest / 8 * 5;
        d->area_pages[SIM_AREA_EVENT] = npages - d->area_first[SIM_AREA_EVENT];
}

static void reserve(struct sim_set *s, size_t need)
{
        if (need <= s->cap)
                return;
        size_t cap = s->cap ? s->cap : 65536;
        while (cap < need)
                cap *= 2;
        uint8_t *p = realloc(s->buf, cap);
        if (!p)
                die_oom();
        memset(p + s->cap, 0, cap - s->cap);
        s->buf = p;
        s->cap = cap;
}

static void push(size_t **a, size_t *n, size_t *cap, size_t v)
{
        if (*n == *cap) {
                size_t c = *cap ? *cap * 2 : 16;
                size_t *p = realloc(*a, c * sizeof(*p));
                if (!p)
                        die_oom();
                *a = p;
                *cap = c;
        }
        (*a)[(*n)++] = v;
}

static void start_frame(struct sim_sb *b)
{
        struct sim_set *s = b->set;
        struct sim_dcss *d = b->d;
        b->frame_at = s->len;
        reserve(s, s->len + PAGE);
        memset(s->buf + b->frame_at, 0, PAGE);
        b->frame_addr = d->base + (d->area_first[b->area] + d->area_next[b->area]) * PAGE;
        d->area_next[b->area]++;
        b->frames++;
        b->set_frames++;
        b->foff = 0;
}

static void begin_range(struct sim_sb *b)
{
        struct sim_set *s = b->set;
        struct sim_dcss *d = b->d;
        if (d->area_next[b->area] >= d->area_pages[b->area])
                d->area_next[b->area] = 0;
        b->mce_at = s->len;
        push(&s->mce_off, &s->nmce, &s->capmce, s->len);
        reserve(s, s->len + ZD_MCE_LEN);
        s->len += ZD_MCE_LEN;
        push(&s->ends, &s->nends, &s->capends, s->len);
        b->frames = 0;
        b->dom0 = b->dom1 = 0;
        b->range_start = d->base + (d->area_first[b->area] + d->area_next[b->area]) * PAGE;
        start_frame(b);
        b->open = true;
}

static void end_range(struct sim_sb *b)
{
        struct sim_set *s = b->set;
        s->len = b->frame_at + b->foff;
        push(&s->ends, &s->nends, &s->capends, s->len);
        size_t n = s->len - (b->mce_at + ZD_MCE_LEN);
        zd_wbuf w = {s->buf + b->mce_at, ZD_MCE_LEN};
        (void)zd_put8(w, 0, s->type == 'S' ? ZD_MCE_SAMPLE : ZD_MCE_EVENT);
        (void)zd_put8(w, 1, b->dom0);
        (void)zd_put8(w, 2, b->dom1);
        (void)zd_put8(w, 3, 0);
        (void)zd_put32(w, 4, b->range_start);
        (void)zd_put32(w, 8, b->range_start + (uint32_t)n - 1);
        b->open = false;
}

/* The MCE domain bits: byte 1 X'80' = domain 0 ... byte 2 X'80' = domain 8. */
static void mark(struct sim_sb *b, unsigned domain)
{
        if (domain < 8)
                b->dom0 |= (uint8_t)(0x80u >> domain);
        else if (domain < 16)
                b->dom1 |= (uint8_t)(0x80u >> (domain - 8));
}

static uint8_t *put_hdr(struct sim_sb *b, unsigned domain, unsigned number, size_t len,
                        uint64_t tod)
{
        uint8_t *p = b->set->buf + b->frame_at + b->foff;
        zd_wbuf w = {p, len};
        memset(p, 0, len);
        (void)zd_put16(w, 0, (uint16_t)len);
        (void)zd_put8(w, 4, (uint8_t)domain);
        (void)zd_put16(w, 6, (uint16_t)number);
        (void)zd_put64(w, 8, tod);
        b->foff += len;
        mark(b, domain);
        return p;
}

void sim_sb_begin(struct sim_sb *b, struct sim_dcss *d, int area, char type)
{
        memset(b, 0, sizeof(*b));
        b->d = d;
        b->area = area;
        b->set = calloc(1, sizeof(*b->set));
        if (!b->set)
                die_oom();
        b->set->type = type;
        b->set->config = area == SIM_AREA_CONFIG;
        b->set->seq = d->seq++;
        if (area == SIM_AREA_CONFIG)
                d->area_next[area] = 0;
}

/* A record that does not fit: counted, and where it would have gone, for the report. */
static uint8_t *lose(struct sim_sb *b, size_t len)
{
        if (!b->full) {
                b->full = true;
                b->want_foff = PAGE; /* the record that did not fit starts a frame */
        }
        if (b->want_foff + len + CLOSER > PAGE) {
                b->set->want_frames++;
                b->want_foff = 0;
        }
        b->want_foff += len;
        b->set->lost++;
        return NULL;
}

uint8_t *sim_sb_add(struct sim_sb *b, unsigned domain, unsigned number, size_t len, uint64_t tod)
{
        if (len < ZD_HDR_LEN || len > PAGE - CLOSER)
                return NULL;
        if (b->full)
                return lose(b, len);
        if (!b->open)
                begin_range(b);
        if (b->foff + len + CLOSER > PAGE) {
                struct sim_dcss *d = b->d;
                if (b->set_frames >= d->area_pages[b->area])
                        return lose(b, len);
                (void)put_hdr(b, 1, ZD_D1_END_OF_FRAME, CLOSER, b->eof_tod ? b->eof_tod : tod);
                b->set->neof++;
                bool wrap = d->area_next[b->area] >= d->area_pages[b->area];
                if (wrap || (d->max_frames_per_mce && b->frames >= d->max_frames_per_mce)) {
                        /* The range keeps the whole frame, End-of-Frame and unused tail. */
                        b->foff = PAGE;
                        end_range(b);
                        begin_range(b);
                } else {
                        b->set->len = b->frame_at + PAGE;
                        start_frame(b);
                }
        }
        return put_hdr(b, domain, number, len, tod);
}

struct sim_set *sim_sb_end(struct sim_sb *b, bool interval_end, uint64_t tod)
{
        struct sim_set *s = b->set;
        struct sim_dcss *d = b->d;
        if (interval_end) {
                if (!b->open)
                        begin_range(b);
                (void)put_hdr(b, 1, ZD_D1_INTERVAL_END, CLOSER, tod);
        }
        if (b->open)
                end_range(b);
        s->want_frames += b->set_frames;
        uint32_t size = (uint32_t)s->nmce * ZD_MCE_LEN;
        uint32_t area = d->mca_pages * PAGE;
        if (d->mca_next + size > area)
                d->mca_next = 0;
        s->mca_start = d->base + d->mca_page * PAGE + d->mca_next;
        s->mca_end = s->mca_start + (size ? size - 1 : 0);
        d->mca_next += size;
        b->set = NULL;
        return s;
}

/*
 * What a set's records take, for sizing the DCSS before any set is built
 * (struct sim_fit, sim_sizing.c).  FIT_ROOM: a frame less the room kept for
 * its closing record.
 */
#define FIT_ROOM (PAGE - CLOSER)
#define FIT_BIG  (FIT_ROOM / 4)

void sim_fit_add(struct sim_fit *f, size_t len, uint64_t n)
{
        f->bytes += (uint64_t)len * n;
        if (len > FIT_BIG)
                f->big += n;
        else if (len > f->max_small)
                f->max_small = len;
}

/*
 * A frame is left only when the next record does not fit in it, so a frame
 * left for a small record (at most max_small bytes) holds more than
 * FIT_ROOM - max_small bytes: such frames number fewer than
 * bytes / (FIT_ROOM - max_small).  Frames left for a big record are at most
 * one per big record, and the last frame is left for nothing.
 */
uint64_t sim_fit_frames(const struct sim_fit *f)
{
        uint64_t room = FIT_ROOM - f->max_small;
        return (f->bytes + room - 1) / room + f->big + 1;
}
