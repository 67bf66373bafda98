/* SPDX-License-Identifier: MIT */
/*
 * CMS MONWRITE files: fixed 4096-byte records.  Each group is a control
 * record (IBM MWTBK: the IUCV message-pending buffer, then the control area)
 * followed by page images of the DCSS ranges it describes; how many images
 * follow and in what order is the assumption kept in zd_mw_pages().
 */
#include <stdlib.h>
#include <string.h>

#include "source/source.h"

/* Control area entries can touch at most this many pages in one group. */
#define MW_MAX_PAGES 65536

struct mw_state {
        struct zd_decoder *d;
        uint8_t blk[ZD_MW_BLOCK];
        size_t have;      /* bytes of blk filled */
        uint64_t blockno; /* index of the block being filled */
        uint64_t group;   /* groups started */
        uint64_t ctl_block;
        struct zd_mce ent[ZD_MW_MAX_ENTRIES];
        size_t nent;
        uint32_t *pages; /* the group's page list, room for pages_cap */
        size_t pages_cap;
        size_t npages, got;
        uint8_t *img;   /* the got page images so far */
        size_t img_cap; /* images img has room for */
        bool in_group, in_garbage;
};

static int cmp_u32(const void *a, const void *b)
{
        uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
        return x < y ? -1 : x > y;
}

/*
 * Ranges in ascending order, each starting at or after the last page of the
 * one before (every group of zvmsim's files): their pages are listed as they
 * come, a page shared by two neighbours once, with one comparison a page.
 */
static size_t pages_in_order(const struct zd_mce *entries, size_t n, uint32_t *pages)
{
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
                if (entries[i].start > entries[i].end)
                        continue;
                uint32_t pg = entries[i].start >> 12, last = entries[i].end >> 12;
                if (k && pages[k - 1] == pg)
                        pg++;
                for (; pg <= last; pg++)
                        pages[k++] = pg;
        }
        return k;
}

static bool ranges_in_order(const struct zd_mce *entries, size_t n)
{
        uint32_t prev = 0;
        for (size_t i = 0; i < n; i++) {
                if (entries[i].start > entries[i].end)
                        continue;
                if (entries[i].start >> 12 < prev)
                        return false;
                prev = entries[i].end >> 12;
        }
        return true;
}

/* Any other order: every page listed, sorted, repeats dropped. */
static size_t pages_sorted(const struct zd_mce *entries, size_t n, uint32_t *pages)
{
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
                if (entries[i].start <= entries[i].end)
                        for (uint32_t pg = entries[i].start >> 12; pg <= entries[i].end >> 12; pg++)
                                pages[k++] = pg;
        qsort(pages, k, sizeof(*pages), cmp_u32);
        size_t u = 0;
        for (size_t i = 0; i < k; i++)
                if (u == 0 || pages[u - 1] != pages[i])
                        pages[u++] = pages[i];
        return u;
}

/* Pages the entries name, a page named twice counted twice. */
static uint64_t pages_claimed(const struct zd_mce *entries, size_t n)
{
        uint64_t claim = 0;
        for (size_t i = 0; i < n; i++)
                if (entries[i].start <= entries[i].end)
                        claim += (entries[i].end >> 12) - (entries[i].start >> 12) + 1;
        return claim;
}

int zd_mw_pages(const struct zd_mce *entries, size_t n, uint32_t *pages, size_t max)
{
        /* The claim is counted before a page is listed: a control record claiming
         * far more than max costs its entries, not max pages. */
        if (pages_claimed(entries, n) > max)
                return -1;
        if (ranges_in_order(entries, n))
                return (int)pages_in_order(entries, n, pages);
        return (int)pages_sorted(entries, n, pages);
}

/*
 * Is this block a control record?  Its message buffer names an MCA of 1..338
 * whole entries and every entry is a well-formed MCE.  A data page starts
 * with a record header whose bytes 2-3 are zero; the message buffer's flag
 * and type bytes there are not (IPFLAGS1, IPTYPE), which keeps the two
 * apart (inferred: doc/facts/monitor-stream.md 5.1-5.2).
 */
static bool parse_control(const uint8_t *blk, struct zd_mce *ent, size_t *nent)
{
        zd_view v = zd_view_make(blk, ZD_MW_BLOCK);
        uint32_t s = 0, e = 0;
        if (blk[2] == 0 && blk[3] == 0)
                return false;
        (void)zd_u32(v, 12, &s);
        (void)zd_u32(v, 16, &e);
        if (e < s || (e - s + 1) % ZD_MCE_LEN != 0)
                return false;
        size_t n = (e - s + 1) / ZD_MCE_LEN;
        if (n == 0 || n > ZD_MW_MAX_ENTRIES)
                return false;
        for (size_t i = 0; i < n; i++) {
                zd_view ev = zd_view_tail(v, ZD_MW_EXTBF_LEN + i * ZD_MCE_LEN);
                if (zd_mce_parse(ev, &ent[i]) != ZD_E_NONE)
                        return false;
        }
        *nent = n;
        return true;
}

/* Decode the group in hand (complete, or cut short when truncated). */
static void decode_group(struct mw_state *s, bool truncated)
{
        struct zd_decoder *d = s->d;
        struct zd_pos pos = {.set = s->group - 1, .block = s->ctl_block};
        d->st.sets++;
        if (truncated) {
                pos.offset = (s->ctl_block + 1 + s->got) * ZD_MW_BLOCK;
                zd_report(d, ZD_E_MW_TRUNCATED, &pos,
                          "MONWRITE group %llu (control record at block %llu) has %zu of its %zu "
                          "page images; decoding those present",
                          (unsigned long long)pos.set, (unsigned long long)s->ctl_block, s->got,
                          s->npages);
        }
        for (size_t i = 0; i < s->nent; i++) {
                const struct zd_mce *m = &s->ent[i];
                uint64_t len = zd_mce_bytes(m);
                /*
                 * The entry's DCSS range, walked where its page images lie: zd_mw_pages put
                 * every page of every range in the list, so a range's pages are consecutive
                 * there and its images adjacent in img.  A group cut short has the range
                 * only up to its last image.
                 */
                uint32_t pg = m->start >> 12;
                uint32_t *hit = bsearch(&pg, s->pages, s->npages, sizeof(*s->pages), cmp_u32);
                size_t first_idx = hit ? (size_t)(hit - s->pages) : s->npages;
                size_t have = 0;
                if (first_idx < s->got) {
                        size_t avail = (s->got - first_idx) * ZD_MW_BLOCK - (m->start & 0xFFF);
                        have = len < avail ? (size_t)len : avail;
                } else {
                        first_idx = 0;
                }
                const uint8_t *at =
                    have ? s->img + first_idx * ZD_MW_BLOCK + (m->start & 0xFFF) : NULL;
                d->st.mces++;
                d->st.bytes += have;
                struct zd_pos base = {
                    .set = s->group - 1,
                    .mce = (uint32_t)i,
                    .block = s->ctl_block + 1 + first_idx,
                    .offset = (s->ctl_block + 1 + first_idx) * ZD_MW_BLOCK + (m->start & 0xFFF),
                };
                zd_walk_recset(d, zd_view_make(at, have), m->start,
                               m->type == ZD_MCE_SAMPLE ? 'S' : 'E', &base);
        }
        s->in_group = false;
}

/*
 * The group's page list, in room for what its control record claims: a
 * stream holds as much as its largest group needs, not the most any group
 * could (each stream reserved 256 KB before).  -1 beyond MW_MAX_PAGES, -2
 * out of memory.
 */
static int list_pages(struct mw_state *s)
{
        uint64_t claim = pages_claimed(s->ent, s->nent);
        if (claim > MW_MAX_PAGES)
                return -1;
        if (!s->pages || claim > s->pages_cap) {
                size_t cap = claim > 16 ? (size_t)claim : 16;
                uint32_t *p = realloc(s->pages, cap * sizeof(*p));
                if (!p)
                        return -2;
                s->pages = p;
                s->pages_cap = cap;
        }
        return zd_mw_pages(s->ent, s->nent, s->pages, s->pages_cap);
}

static int on_block(struct mw_state *s, const uint8_t *blk)
{
        struct zd_mce ent[ZD_MW_MAX_ENTRIES];
        size_t n;
        bool is_ctl = parse_control(blk, ent, &n);

        if (s->in_group && is_ctl) /* a new group before this one was complete */
                decode_group(s, true);
        if (s->in_group) {
                memcpy(s->img + s->got * ZD_MW_BLOCK, blk, ZD_MW_BLOCK);
                if (++s->got == s->npages)
                        decode_group(s, false);
                return 0;
        }
        if (!is_ctl) {
                if (!s->in_garbage) {
                        struct zd_pos pos = {.offset = s->blockno * ZD_MW_BLOCK,
                                             .block = s->blockno};
                        zd_report(s->d, ZD_E_MW_GARBAGE, &pos,
                                  "block %llu is not a MONWRITE control record where one was "
                                  "expected; skipping to the next control record",
                                  (unsigned long long)s->blockno);
                }
                s->in_garbage = true;
                return 0;
        }
        s->in_garbage = false;
        memcpy(s->ent, ent, n * sizeof(*ent));
        s->nent = n;
        s->ctl_block = s->blockno;
        s->group++;
        int np = list_pages(s);
        if (np == -2)
                return -1;
        if (np < 0) {
                struct zd_pos pos = {.offset = s->blockno * ZD_MW_BLOCK, .block = s->blockno};
                zd_report(s->d, ZD_E_MW_CONTROL, &pos,
                          "control record at block %llu describes more than %d pages",
                          (unsigned long long)s->blockno, MW_MAX_PAGES);
                return 0;
        }
        s->npages = (size_t)np;
        s->got = 0;
        s->in_group = true;
        if (s->npages == 0)
                decode_group(s, false);
        return 0;
}

static int mw_detect(zd_view head)
{
        struct zd_mce ent[ZD_MW_MAX_ENTRIES];
        size_t n;
        if (head.n < ZD_MW_BLOCK)
                return 0;
        return parse_control(head.p, ent, &n) ? 90 : 0;
}

static void *mw_create(struct zd_decoder *d)
{
        struct mw_state *s = calloc(1, sizeof(*s));
        if (!s)
                return NULL;
        s->d = d;
        return s;
}

/*
 * Room for one more page image.  The control record's page count is only a
 * claim (a damaged or hostile file can claim 256 MB in a few bytes): room
 * grows by doubling as images arrive, never beyond the claim.
 */
static int grow_img(struct mw_state *s)
{
        size_t cap = s->img_cap ? 2 * s->img_cap : 16;
        if (cap > s->npages)
                cap = s->npages;
        uint8_t *img = realloc(s->img, cap * ZD_MW_BLOCK);
        if (!img)
                return -1;
        s->img = img;
        s->img_cap = cap;
        return 0;
}

static int mw_feed(void *st, zd_view b)
{
        struct mw_state *s = st;
        size_t off = 0;
        while (off < b.n) {
                /* A whole block in the input is used where it lies; only one split
                 * between two calls is put together in blk. */
                const uint8_t *blk = b.p + off;
                if (s->have || b.n - off < ZD_MW_BLOCK) {
                        size_t take = ZD_MW_BLOCK - s->have;
                        if (take > b.n - off)
                                take = b.n - off;
                        memcpy(s->blk + s->have, b.p + off, take);
                        s->have += take;
                        off += take;
                        if (s->have < ZD_MW_BLOCK)
                                break;
                        blk = s->blk;
                } else {
                        off += ZD_MW_BLOCK;
                }
                if (s->in_group && s->got == s->img_cap && grow_img(s) != 0)
                        return -1;
                if (on_block(s, blk) != 0)
                        return -1;
                s->have = 0;
                s->blockno++;
        }
        return 0;
}

static int mw_finish(void *st)
{
        struct mw_state *s = st;
        if (s->have) {
                struct zd_pos pos = {.offset = s->blockno * ZD_MW_BLOCK, .block = s->blockno};
                zd_report(s->d, ZD_E_MW_SIZE, &pos,
                          "MONWRITE input ends with a partial block of %zu bytes (size is not a "
                          "multiple of 4096; was it transferred in text mode?)",
                          s->have);
                s->have = 0;
        }
        if (s->in_group)
                decode_group(s, true);
        return 0;
}

static void mw_destroy(void *st)
{
        struct mw_state *s = st;
        if (!s)
                return;
        free(s->pages);
        free(s->img);
        free(s);
}

const struct zd_source_ops zd_src_monwrite = {
    .fmt = ZD_FMT_MONWRITE,
    .name = "monwrite",
    .desc = "CMS MONWRITE file (4 KB control records and page images)",
    .detect = mw_detect,
    .create = mw_create,
    .feed = mw_feed,
    .finish = mw_finish,
    .destroy = mw_destroy,
};
