/* SPDX-License-Identifier: MIT */
/*
 * Metrics from write_zvm records: LNXAPPL data in domain 10 that starts
 * with the "WZVM" eyecatcher (any ApplicationID: the records describe
 * themselves).  Every value comes back as the writing collectd had it:
 * identifier as written, GAUGE/DERIVE as written, its own time, and the
 * writer's host name (empty: the zvm plugin names the host after the guest).
 *
 * A copy z/VM took while the guest was rewriting the buffer (sync counters
 * differ) is dropped and counted; a record or a value already reported
 * (same timestamp) is not reported again.
 *
 * What that check remembers of a buffer or a series is let go once it has
 * not been seen for SeriesIdleTimeout sample intervals
 * (zm_options.series_idle, as the series cap): a guest whose identifiers or
 * buffers come and go is remembered for what it writes now, not for
 * everything it ever wrote, and one that comes back is new.
 */
#include <stdlib.h>
#include <string.h>

#include "payload/appldata/appl.h"
#include "base/hash.h"
#include "base/quota.h"
#include "metric/met_module.h"
#include "metric/met_say.h"
#include "payload/wzvm/wzvm_format.h"

/* Last record timestamp per buffer (guest, applid, mod_level). */
struct wz_buf {
        char guest[9];
        uint16_t applid, mod;
        uint32_t seen; /* Interval Ends before its last record, stale or not */
        uint64_t tod;
};

/*
 * Last value time per series, by hash (open addressing).  Guests choose the
 * names, so both tables are bounded: when one is full it starts afresh, and
 * at worst a value is reported twice (the zvm plugin drops same-time repeats).
 * The bounds hold a 50,000-guest system where every guest writes a few
 * buffers and some dozens of series; below that (65,536 buffers and 262,144
 * series before) a big system started over every interval and sent every
 * unchanged value on to be dropped downstream.  Worst case, after a flood:
 * 2^22 series slots of 32 bytes and 2^19 buffers.
 *
 * Each guest has a share of both (base/quota.h): ZD_TRACK_PER_GUEST buffers,
 * as many series as MaxSeriesPerGuest lets it have (the rest would be capped
 * further on anyway).  Past its share a guest's records and values are
 * reported without the check and counted (appl_untracked), so a guest that
 * invents names fills its own share, never the table other guests rely on.
 */
#define WZ_MAX_SEEN (1u << 21)
#define WZ_MAX_BUFS (1u << 19)
struct wz_seen {
        uint64_t id, tod;
        uint64_t user; /* zh_word8 of its guest: the share it counts against */
        uint32_t seen; /* Interval Ends before its last value, stale or not */
};

/*
 * A table of up to this many entries lets go of its idle ones as soon as
 * there are any; a larger one once they are an eighth of it, so that the
 * cost of laying it out again is spread over the entries it frees (the
 * zvm plugin's series table does the same, zvm_series.c).
 */
#define WZ_FORGET_SMALL 512

struct wz_state {
        struct wz_buf *bufs;
        size_t nbufs, capbufs;
        struct zh_index bufix;
        struct zq_table bufs_held;
        struct wz_seen *seen;
        size_t nseen, capseen;
        struct zq_table seen_held;
        uint32_t seen_share;  /* series per guest remembered in seen */
        uint32_t next_forget; /* no entry can be idle too long before this interval */
        struct zm_said said[ZD_E__COUNT + 1]; /* per kind of damage: said once */
        bool logged_wide;
};

static void *wz_create(struct zm_engine *e)
{
        struct wz_state *s = calloc(1, sizeof(*s));
        if (!s)
                return NULL;
        size_t cap = zm_engine_options(e)->max_series_per_guest;
        s->seen_share = cap && cap < WZ_MAX_SEEN ? (uint32_t)cap : WZ_MAX_SEEN;
        return s;
}

static void wz_destroy(void *p)
{
        struct wz_state *s = p;
        if (!s)
                return;
        free(s->bufs);
        zh_free(&s->bufix);
        free(s->seen);
        zq_free(&s->bufs_held);
        zq_free(&s->seen_held);
        free(s);
}

static uint64_t buf_hash(const char *guest, uint16_t applid, uint16_t mod)
{
        return zh_u64(zh_str(ZH_SEED, guest), (uint64_t)applid << 16 | mod);
}

static uint64_t buf_key(const struct zd_appl *a)
{
        return buf_hash(a->userid, a->applid, a->modlvl);
}

static uint64_t buf_key_of(const struct wz_buf *b)
{
        return buf_hash(b->guest, b->applid, b->mod);
}

struct buf_probe {
        const struct wz_state *s;
        const struct zd_appl *a;
};

static bool buf_eq(const void *ctx, size_t pos)
{
        const struct buf_probe *p = ctx;
        const struct wz_buf *b = &p->s->bufs[pos];
        return b->applid == p->a->applid && b->mod == p->a->modlvl &&
               strcmp(b->guest, p->a->userid) == 0;
}

/* Is this record newer than the last one of its buffer?  Remembers it if so. */
static bool buf_fresh(struct zm_engine *e, struct wz_state *s, const struct zd_appl *a,
                      uint64_t tod)
{
        uint64_t h = buf_key(a);
        struct buf_probe p = {s, a};
        uint32_t now = (uint32_t)zm_engine_intervals(e);
        size_t i = zh_find(&s->bufix, h, buf_eq, &p);
        if (i != SIZE_MAX) {
                struct wz_buf *b = &s->bufs[i];
                b->seen = now;
                if (b->tod == tod)
                        return false;
                b->tod = tod;
                return true;
        }
        if (s->nbufs >= WZ_MAX_BUFS) {
                s->nbufs = 0;
                zh_clear(&s->bufix);
                zq_clear(&s->bufs_held);
        }
        enum zq_take q = zq_take(&s->bufs_held, zh_word8(a->userid), ZD_TRACK_PER_GUEST);
        if (q != ZQ_TAKEN) {
                if (q == ZQ_FULL)
                        zm_counters_mut(e)->appl_untracked++;
                return true; /* reported: hiding data would be worse than a repeat */
        }
        if (!zh_grow((void **)&s->bufs, &s->capbufs, s->nbufs, sizeof(*s->bufs)) ||
            !zh_add(&s->bufix, h, s->nbufs))
                return true; /* out of memory: report rather than hide data */
        struct wz_buf *b = &s->bufs[s->nbufs++];
        memset(b, 0, sizeof(*b));
        memcpy(b->guest, a->userid, sizeof(b->guest));
        b->applid = a->applid;
        b->mod = a->modlvl;
        b->seen = now;
        b->tod = tod;
        return true;
}

/* A series' first slot: ids are hashes with bit 0 forced on, so it is left out. */
static size_t home(uint64_t id, size_t cap)
{
        return (size_t)(id >> 1) & (cap - 1);
}

/* x into the first free slot from its home (t is at most half full). */
static void seen_put(struct wz_seen *t, size_t cap, const struct wz_seen *x)
{
        for (size_t j = home(x->id, cap);; j = (j + 1) & (cap - 1))
                if (!t[j].id) {
                        t[j] = *x;
                        return;
                }
}

/*
 * The series table in cap slots, without those idle for more than idle
 * intervals at now (idle 0: every one kept); false when out of memory
 * (the table unchanged).
 */
static bool seen_relay(struct wz_state *s, size_t cap, uint32_t now, unsigned idle)
{
        struct wz_seen *t = calloc(cap, sizeof(*t));
        if (!t)
                return false;
        size_t n = 0;
        zq_clear(&s->seen_held);
        for (size_t i = 0; i < s->capseen; i++) {
                const struct wz_seen *x = &s->seen[i];
                if (!x->id || (idle && now - x->seen > idle))
                        continue;
                seen_put(t, cap, x);
                (void)zq_take(&s->seen_held, x->user, UINT32_MAX); /* within its share before */
                n++;
        }
        free(s->seen);
        s->seen = t;
        s->capseen = cap;
        s->nseen = n;
        return true;
}

/* Newer than what this series last reported?  Remembers it if so. */
static bool value_fresh(struct zm_engine *e, struct wz_state *s, const struct zm_metric *m)
{
        uint64_t id = zm_metric_id(m) | 1; /* 0 marks a free slot */
        uint32_t now = (uint32_t)zm_engine_intervals(e);
        if (s->nseen >= WZ_MAX_SEEN) {
                memset(s->seen, 0, s->capseen * sizeof(*s->seen));
                s->nseen = 0;
                zq_clear(&s->seen_held);
        }
        if (s->nseen * 2 >= s->capseen && !seen_relay(s, s->capseen ? s->capseen * 2 : 256, now, 0))
                return true;
        for (size_t j = home(id, s->capseen);; j = (j + 1) & (s->capseen - 1)) {
                struct wz_seen *x = &s->seen[j];
                if (x->id == id) {
                        x->seen = now;
                        if (m->tod <= x->tod)
                                return false;
                        x->tod = m->tod;
                        return true;
                }
                if (!x->id) {
                        uint64_t user = zh_word8(m->guest);
                        enum zq_take q = zq_take(&s->seen_held, user, s->seen_share);
                        if (q != ZQ_TAKEN) {
                                if (q == ZQ_FULL)
                                        zm_counters_mut(e)->appl_untracked++;
                                return true;
                        }
                        *x = (struct wz_seen){.id = id, .tod = m->tod, .user = user, .seen = now};
                        s->nseen++;
                        return true;
                }
        }
}

/* Is an entry last seen at seen idle for more than idle intervals at now? */
static bool idle_at(uint32_t seen, uint32_t now, unsigned idle)
{
        return now - seen > idle;
}

/* Forget enough idle ones now?  In a small table any; in a larger one an eighth of it. */
static bool worth_forgetting(size_t nidle, size_t n)
{
        return nidle && (n <= WZ_FORGET_SMALL || nidle * 8 >= n);
}

/*
 * The buffers not idle too long, moved together, their index and shares
 * made again; the least recent last record of those kept in *oldest.
 */
static void forget_bufs(struct wz_state *s, uint32_t now, unsigned idle, uint32_t *oldest)
{
        size_t nidle = 0;
        *oldest = now;
        for (size_t i = 0; i < s->nbufs; i++)
                if (idle_at(s->bufs[i].seen, now, idle))
                        nidle++;
                else if (now - s->bufs[i].seen > now - *oldest)
                        *oldest = s->bufs[i].seen;
        if (!worth_forgetting(nidle, s->nbufs)) {
                if (nidle)
                        *oldest = now - idle; /* look again at the next Interval End */
                return;
        }
        size_t k = 0;
        zh_clear(&s->bufix);
        zq_clear(&s->bufs_held);
        for (size_t i = 0; i < s->nbufs; i++) {
                if (idle_at(s->bufs[i].seen, now, idle))
                        continue;
                s->bufs[k] = s->bufs[i];
                (void)zh_add(&s->bufix, buf_key_of(&s->bufs[k]), k);
                (void)zq_take(&s->bufs_held, zh_word8(s->bufs[k].guest), UINT32_MAX);
                k++;
        }
        s->nbufs = k;
}

/* The same for the series. */
static void forget_seen(struct wz_state *s, uint32_t now, unsigned idle, uint32_t *oldest)
{
        size_t nidle = 0;
        *oldest = now;
        for (size_t i = 0; i < s->capseen; i++) {
                const struct wz_seen *x = &s->seen[i];
                if (!x->id)
                        continue;
                if (idle_at(x->seen, now, idle))
                        nidle++;
                else if (now - x->seen > now - *oldest)
                        *oldest = x->seen;
        }
        if (!worth_forgetting(nidle, s->nseen)) {
                if (nidle)
                        *oldest = now - idle;
                return;
        }
        /* the table shrinks with what it keeps: at most a quarter full afterwards */
        size_t keep = s->nseen - nidle, cap = s->capseen;
        while (cap > 256 && keep * 4 < cap / 2)
                cap /= 2;
        if (!seen_relay(s, cap, now, idle))
                *oldest = now - idle; /* out of memory: tried again at the next Interval End */
}

/*
 * At an Interval End: let go of the buffers and series not seen for
 * SeriesIdleTimeout intervals.  A pass over the tables only when one of
 * them can be (next_forget), as the series cap does (met_cap.c).
 */
static void wz_interval_end(struct zm_engine *e, void *state, const struct zd_record *r)
{
        struct wz_state *s = state;
        unsigned idle = zm_engine_options(e)->series_idle;
        uint32_t now = (uint32_t)zm_engine_intervals(e);
        (void)r;
        if (!s || !idle || (int32_t)(now - s->next_forget) < 0)
                return;
        uint32_t ob, os;
        forget_bufs(s, now, idle, &ob);
        forget_seen(s, now, idle, &os);
        /* the first interval at which the least recent entry kept can be idle too long */
        s->next_forget = (now - ob > now - os ? ob : os) + idle + 1;
}

static void bad(struct zm_engine *e, struct wz_state *s, const struct zd_appl *a,
                enum zd_err_kind k)
{
        zm_counters_mut(e)->appl_bad++;
        if (!zm_said_now(&s->said[k], 0, 0, ZM_SAY_SINCE_SAID))
                return;
        zm_log(e, ZM_LOG_WARNING,
               "write_zvm record of guest %s (%s) dropped: %s (%s); further ones counted",
               a->userid, a->prodid_text, zd_err_desc(k), zd_err_name(k));
}

static bool same_ident(const struct wzvm_entry *x, const struct wzvm_entry *y)
{
        return strcmp(x->plugin, y->plugin) == 0 &&
               strcmp(x->plugin_instance, y->plugin_instance) == 0 &&
               strcmp(x->type, y->type) == 0 && strcmp(x->type_instance, y->type_instance) == 0 &&
               x->ds_count == y->ds_count && x->time == y->time;
}

static void emit_group(struct zm_engine *e, struct wz_state *s, const struct zd_record *r,
                       const struct zd_appl *a, const struct wzvm_hdr *h,
                       const struct wzvm_entry *g, size_t n)
{
        if (n > ZM_MAXVALUES) {
                if (!s->logged_wide)
                        zm_log(e, ZM_LOG_WARNING,
                               "write_zvm: %s/%s has %zu data sources, more than %d; skipped",
                               g[0].plugin, g[0].type, n, ZM_MAXVALUES);
                s->logged_wide = true;
                return;
        }
        struct zm_metric m;
        zm_metric_init(&m, ZM_GUEST, r);
        memcpy(m.guest, a->userid, sizeof(m.guest));
        m.host = h->host; /* NUL-terminated by the parser, WZVM_HOST_MAX bytes at most */
        zm_metric_name(&m, g[0].plugin, g[0].plugin_instance, g[0].type, g[0].type_instance);
        m.tod = zm_guest_tod(e, a->userid, g[0].time, r->tod);
        for (size_t i = 0; i < n; i++) {
                if (g[i].ds_type == WZVM_DS_GAUGE)
                        zm_metric_gauge(&m, wzvm_bits_double(g[i].value));
                else /* DERIVE; COUNTER and ABSOLUTE keep their 64 bits in the same slot */
                        zm_metric_derive(&m, (int64_t)g[i].value);
        }
        if (!value_fresh(e, s, &m)) {
                zm_counters_mut(e)->appl_stale++;
                return;
        }
        zm_emit(e, &m);
}

/*
 * Do the entries form whole value lists?  Each list starts with ds_index 0
 * and goes on with 1, 2, ... up to its ds_count, every entry naming the same
 * identifier.  Checked over the whole record before anything is emitted, so a
 * record with one broken list gives nothing, not its good part.
 */
static bool groups_ok(zd_view data, const struct wzvm_hdr *h)
{
        struct wzvm_iter it;
        struct wzvm_entry ent, first;
        enum zd_err_kind k;
        size_t n = 0, want = 0;
        wzvm_iter_init(&it, data, h);
        while (wzvm_dec_next(&it, &ent, &k) == 1) {
                if (n == want) {
                        if (ent.ds_index != 0 || ent.ds_count == 0)
                                return false;
                        first = ent;
                        n = 0;
                        want = ent.ds_count;
                } else if (ent.ds_index != n || !same_ident(&first, &ent)) {
                        return false;
                }
                n++;
        }
        return n == want;
}

static void wz_appl(struct zm_engine *e, void *state, const struct zd_record *r,
                    const struct zd_appl *a)
{
        struct wz_state *s = state;
        if (!s || a->kind != ZD_APPL_LNXAPPL || !wzvm_is_record(a->data))
                return; /* not ours: other modules count what they cannot use */
        struct wzvm_hdr h;
        enum zd_err_kind k = wzvm_dec_hdr(a->data, &h);
        if (k != ZD_E_NONE) {
                bad(e, s, a, k);
                return;
        }
        if (h.sync_count_1 != h.sync_count_2) {
                zm_counters_mut(e)->appl_sync++;
                return;
        }
        /* check every entry before emitting any: nothing partial leaves a bad record */
        struct wzvm_iter it;
        struct wzvm_entry ent;
        wzvm_iter_init(&it, a->data, &h);
        int rc;
        while ((rc = wzvm_dec_next(&it, &ent, &k)) == 1)
                ;
        if (rc < 0) {
                bad(e, s, a, k);
                return;
        }
        if (!groups_ok(a->data, &h)) {
                bad(e, s, a, ZD_E_WZVM_DSTYPE);
                return;
        }
        if (!buf_fresh(e, s, a, h.timestamp)) {
                zm_counters_mut(e)->appl_stale++;
                return;
        }
        struct wzvm_entry g[ZM_MAXVALUES + 1];
        size_t n = 0, want = 0;
        wzvm_iter_init(&it, a->data, &h);
        while (wzvm_dec_next(&it, &ent, &k) == 1) { /* whole lists only: groups_ok */
                if (ent.ds_index == 0) {
                        n = 0;
                        want = ent.ds_count;
                }
                if (n <= ZM_MAXVALUES)
                        g[n] = ent;
                n++;
                if (n == want)
                        emit_group(e, s, r, a, &h, g, n);
        }
}

const struct zm_module zm_mod_wzvm = {.name = "wzvm",
                                      .create = wz_create,
                                      .destroy = wz_destroy,
                                      .interval_end = wz_interval_end,
                                      .appl = wz_appl};
