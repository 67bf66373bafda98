/* SPDX-License-Identifier: MIT */
/*
 * The synthetic system: processors, guests (some of them Linux guests running
 * APPLDATA and the s390-tools writers), devices, virtual NICs, LPARs.  Each
 * interval the model advances by the nominal interval, so values depend only
 * on the seed and the interval number, never on wall-clock jitter.
 *
 * CPU accounting is consistent by construction: the user time each processor
 * accumulated in an interval (SYTPRP_PFXUTIME) is handed out, to the TOD
 * unit, to the guests' virtual CPUs (USEACT_VMDTTIME); the emulation part
 * (PFXPRBTM, counting down) equals the sum of the virtual times (VMDVTIME).
 *
 * So is it at any size: real storage never exceeds what z/VM supports (and
 * what SYTRSG's fullword frame counts can say), however many guests share
 * it, and the DCSS is sized so that every sample set fits its area.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_model.h"

/* The conservation laws of decoder/metric/met_verify.c, by the same names. */
static const char *const laws[] = {"cpu-wait", "guest-cpu",      "guest-vcpu",  "paging",
                                   "storage",  "guest-resident", "lpar",        "device-ssch",
                                   "vnic",     "guest-vio",      "device-time", NULL};
/* Every --break-law value: a law's name, or LAW:HOW for a second way to break it. */
static const char *const breaks[] = {"cpu-wait", "guest-cpu",      "guest-vcpu",  "paging",
                                     "storage",  "guest-resident", "lpar",        "device-ssch",
                                     "vnic",     "guest-vio",      "device-time", "lpar:management",
                                     NULL};

const char *const *sim_law_names(void)
{
        return laws;
}

const char *const *sim_break_names(void)
{
        return breaks;
}

void sim_cfg_default(struct sim_cfg *c)
{
        memset(c, 0, sizeof(*c));
        c->seed = 1;
        c->cpus = 4;
        c->guests = 20;
        c->linux_guests = 4;
        c->devices = 10;
        c->vnics = 4;
        c->lpars = 2;
        c->fsstatd = 1;
        c->procd = 1;
        c->interval_ms = 60000;
        c->domains = 0xFFF;
        c->dcss_base = 0x09000000;
        c->dcss_pages = 0; /* sized for the configuration, at least 4096 */
        strcpy(c->writer_userid, "LINUX001");
        strcpy(c->system_id, "ZVMSIM");
        /* 2026-11-22T00:00:00Z */
        c->start_tod = zd_unix_us_to_tod(INT64_C(1795305600) * 1000000);
        c->torn_permille = 5;
}

bool sim_parse_domains(const char *list, uint32_t *mask)
{
        static const char *const names[] = {"system",  "monitor",   "scheduler", "storage",
                                            "user",    "processor", "i/o",       "seek",
                                            "network", "isfc",      "appldata",  "ssi"};
        char buf[256];
        uint32_t m = 0;
        snprintf(buf, sizeof(buf), "%s", list);
        for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                if (strcmp(t, "all") == 0) {
                        m |= 0xFFF;
                        continue;
                }
                if (strcmp(t, "io") == 0)
                        t = "i/o";
                char *end;
                long d = strtol(t, &end, 10);
                if (*end == '\0' && end != t && d >= 0 && d <= 11) {
                        m |= 1u << d;
                        continue;
                }
                size_t i;
                for (i = 0; i < 12; i++)
                        if (strcasecmp(t, names[i]) == 0)
                                break;
                if (i == 12)
                        return false;
                m |= 1u << i;
        }
        *mask = m | 2; /* the monitor domain is always on */
        return true;
}

static void *xcalloc(size_t n, size_t sz)
{
        void *p = calloc(n ? n : 1, sz);
        if (!p) {
                fputs("zvmsim: out of memory\n", stderr);
                abort();
        }
        return p;
}

/* An 8-character name: PREFIX and a number, as many digits as fit (LINUX001, USER0042). */
static void name8(char out[9], const char *prefix, unsigned n)
{
        char tmp[32];
        size_t p = strlen(prefix), digits = 8 - p;
        snprintf(tmp, sizeof(tmp), "%s%0*u", prefix, (int)(digits < 3 ? digits : 3), n);
        if (strlen(tmp) > 8)
                snprintf(tmp, sizeof(tmp), "%c%07u", prefix[0], n % 10000000);
        memcpy(out, tmp, 8);
        out[8] = '\0';
}

/*
 * Real storage.  Each guest draws 40 MB to 2 GB resident, and half of the
 * pageable frames are in use.  That does not scale: 10,000 such guests would
 * want 20 TB, more than the 4 TB of central storage z/VM 7.3 and 7.4 support
 * (IBM, "Control program support", LinuxONE/IBM Z documentation) and more
 * frames than SYTRSG_RSAPGABL, a fullword, can count (doc/facts/cp-records.md 6):
 * written as 32 bits the count wrapped below RSAAVAIL and the storage law
 * failed.  A big system overcommits instead: when the guests would need more,
 * their resident pages are scaled down to share 4 TB, each keeping at least
 * SIM_MIN_RESIDENT.  Systems that fit draw exactly as before.
 */
#define SIM_REAL_MAX     (UINT64_C(1) << 30) /* frames: 4 TB */
#define SIM_CP_FRAMES    200000              /* pageable frames beyond twice the guests' */
#define SIM_MIN_RESIDENT 256                 /* frames a logged-on guest keeps (1 MB) */

static void real_storage(struct sim_sys *s)
{
        uint64_t sum = 0;
        unsigned n = s->cfg.guests;
        for (unsigned i = 0; i < n; i++)
                sum += s->guest[i].resident;
        uint64_t budget = (SIM_REAL_MAX - SIM_CP_FRAMES) / 2;
        if (2 * sum + SIM_CP_FRAMES > SIM_REAL_MAX) {
                /* Each keeps the minimum; the rest of the budget goes by the drawn sizes. */
                uint64_t spread = budget - (uint64_t)n * SIM_MIN_RESIDENT;
                uint64_t total = 0;
                for (unsigned i = 0; i < n; i++) {
                        struct m_guest *g = &s->guest[i];
                        g->resident = SIM_MIN_RESIDENT +
                                      (uint64_t)((unsigned __int128)g->resident * spread / sum);
                        g->wss = g->resident * 9 / 10;
                        total += g->resident;
                }
                sum = total;
        }
        s->pgabl = 2 * sum + SIM_CP_FRAMES;
}

/*
 * DCSS size.  The default 4096 pages (16 MB) give a sample area of 2555
 * pages, about 10 MB; a 20,000-guest system's sample set is 3157 pages.
 * Unless --dcss-pages pins the size, the DCSS grows until the configuration
 * and sample areas (1/8 and 5/8 of it, sim_dcss_init) hold their sets, as an
 * installation sizes MONDCSS for its system (the default since z/VM 6.2 is
 * 16384 pages, doc/facts/monitor-stream.md 5.4).  The size comes from the records the
 * configuration implies, not from building a set: an upper bound on the
 * frames (struct sim_fit) so that nothing is lost, plus room for monwriter
 * buffers (255 by default, up to a frame each) and an eighth to spare.
 */
#define FIT_ROOM  (4096u - 20u) /* a frame less the room kept for its closing record */
#define FIT_BIG   (FIT_ROOM / 4)
#define MW_FRAMES 256u

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

uint32_t sim_sys_dcss_need(const struct sim_sys *s)
{
        struct sim_fit config = {0}, sample = {0};
        sim_cp_fit(s, &config, &sample);
        for (unsigned i = 0; i < s->cfg.linux_guests; i++)
                sim_lx_fit(s, &s->linux[i], &sample);
        uint64_t cf = sim_fit_frames(&config) + MW_FRAMES;
        uint64_t sf = sim_fit_frames(&sample) + MW_FRAMES;
        sf += sf / 8;
        /* Configuration area rest / 8, sample area rest / 8 * 5 (sim_dcss_init). */
        uint64_t eighth = cf > (sf + 4) / 5 ? cf : (sf + 4) / 5;
        uint64_t pages = 4 + 8 * eighth;
        pages = (pages + 255) / 256 * 256;
        if (pages < 4096)
                pages = 4096;
        if (pages > SIM_DCSS_MAX_PAGES)
                pages = SIM_DCSS_MAX_PAGES;
        return (uint32_t)pages;
}

static void init_cpus(struct sim_sys *s)
{
        s->cpu = xcalloc(s->cfg.cpus, sizeof(*s->cpu));
        for (unsigned i = 0; i < s->cfg.cpus; i++) {
                struct m_cpu *p = &s->cpu[i];
                p->addr = i;
                p->busy = 0.2 + 0.5 * sim_rng_unit(&s->rng);
                p->prbtm = UINT64_C(0x7FFFFFFF00000000);
                /* The system has been up for a while: timers start mid-way. */
                p->utime = sim_rng_below(&s->rng, UINT64_C(1) << 44);
                p->tmsys = p->utime / 10;
                p->prbtm -= p->utime / 5 * 4;
                p->totwt = p->utime * 2;
        }
}

/* The Linux guests come first, then four service machines, then plain users. */
static void guest_name(char out[9], unsigned i, unsigned linux_guests)
{
        static const char *const service[] = {"TCPIP", "RSCS", "PERFSVM", "OPERATOR"};
        if (i < linux_guests)
                name8(out, "LINUX", i + 1);
        else if (i - linux_guests < 4)
                snprintf(out, 9, "%s", service[i - linux_guests]);
        else
                name8(out, "USER", i - linux_guests - 3);
}

static void init_guests(struct sim_sys *s)
{
        const struct sim_cfg *c = &s->cfg;
        s->guest = xcalloc(c->guests, sizeof(*s->guest));
        s->linux = xcalloc(c->linux_guests, sizeof(*s->linux));
        for (unsigned i = 0; i < c->guests; i++) {
                struct m_guest *g = &s->guest[i];
                bool lx = i < c->linux_guests;
                guest_name(g->name, i, c->linux_guests);
                g->vcpus = lx ? 1 + (unsigned)sim_rng_below(&s->rng, 4) : 1;
                g->weight = 1 + (uint32_t)sim_rng_below(&s->rng, lx ? 400 : 60);
                g->ttime = xcalloc(g->vcpus, sizeof(uint64_t));
                g->vtime = xcalloc(g->vcpus, sizeof(uint64_t));
                g->resident = 10000 + sim_rng_below(&s->rng, 500000);
                g->wss = g->resident * 9 / 10;
                g->lx = lx ? (int)i : -1;
                if (lx)
                        sim_lx_init(s, &s->linux[i], i);
        }
}

/* Devices and virtual NICs take nothing from the random sequence. */
static void init_io(struct sim_sys *s)
{
        const struct sim_cfg *c = &s->cfg;
        s->dev = xcalloc(c->devices, sizeof(*s->dev));
        for (unsigned i = 0; i < c->devices; i++) {
                s->dev[i].devno = 0x0100 + i;
                s->dev[i].sch = 0x0001 + i;
        }
        s->vnic = xcalloc(c->vnics, sizeof(*s->vnic));
        for (unsigned i = 0; i < c->vnics; i++) {
                s->vnic[i].guest = c->guests ? i % c->guests : 0;
                s->vnic[i].addr = 0x0600 + 3 * (i / (c->guests ? c->guests : 1));
        }
}

static void init_lpars(struct sim_sys *s)
{
        s->lpar = xcalloc(s->cfg.lpars, sizeof(*s->lpar));
        for (unsigned i = 0; i < s->cfg.lpars; i++) {
                struct m_lpar *l = &s->lpar[i];
                name8(l->name, "LPAR", i + 1);
                l->ncpu = i == 0 ? s->cfg.cpus : 2 + (unsigned)sim_rng_below(&s->rng, 8);
                l->busy = 0.3;
                l->dispatch = xcalloc(l->ncpu, sizeof(uint64_t));
                l->lptime = xcalloc(l->ncpu, sizeof(uint64_t));
        }
}

struct sim_sys *sim_sys_new(const struct sim_cfg *c, struct sim_truth *truth)
{
        struct sim_sys *s = xcalloc(1, sizeof(*s));
        s->cfg = *c;
        if (s->cfg.linux_guests > s->cfg.guests)
                s->cfg.guests = s->cfg.linux_guests;
        if (!s->cfg.interval_ms)
                s->cfg.interval_ms = 1000;
        c = &s->cfg;
        s->truth = truth;
        sim_set_reading(c->reading);
        s->rng.s = c->seed;
        s->dt = (uint64_t)c->interval_ms * 1000 * ZD_TOD_PER_US;
        s->tod = c->start_tod;
        /* In this order: each draws from the random sequence. */
        init_cpus(s);
        init_guests(s);
        real_storage(s);
        s->savfr = 300 + sim_rng_below(&s->rng, 200);
        init_io(s);
        init_lpars(s);
        /* Layout only: the DCSS takes nothing from the random sequence. */
        if (!s->cfg.dcss_pages)
                s->cfg.dcss_pages = sim_sys_dcss_need(s);
        sim_dcss_init(&s->dcss, c->dcss_base, s->cfg.dcss_pages);
        s->dcss.max_frames_per_mce = c->max_frames_per_mce;
        return s;
}

void sim_sys_free(struct sim_sys *s)
{
        if (!s)
                return;
        for (unsigned i = 0; i < s->cfg.guests; i++) {
                free(s->guest[i].ttime);
                free(s->guest[i].vtime);
        }
        for (unsigned i = 0; i < s->cfg.linux_guests; i++)
                sim_lx_free(&s->linux[i]);
        for (unsigned i = 0; i < s->cfg.lpars; i++) {
                free(s->lpar[i].dispatch);
                free(s->lpar[i].lptime);
        }
        for (size_t i = 0; i < s->nevents; i++)
                sim_set_free(s->events[i]);
        free(s->events);
        free(s->cpu);
        free(s->guest);
        free(s->linux);
        free(s->dev);
        free(s->vnic);
        free(s->lpar);
        free(s);
}

const struct sim_counts *sim_sys_counts(const struct sim_sys *s)
{
        return &s->counts;
}
struct sim_dcss *sim_sys_dcss(struct sim_sys *s)
{
        return &s->dcss;
}
void sim_sys_report_lost(struct sim_sys *s, FILE *f)
{
        const struct sim_counts *c = &s->counts;
        if (!c->lost)
                return;
        fprintf(f,
                "zvmsim: %llu records in %llu data sets did not fit their area of the DCSS (%u "
                "pages) and were not placed; --dcss-pages %llu would hold them (without "
                "--dcss-pages zvmsim sizes the DCSS itself)\n",
                (unsigned long long)c->lost, (unsigned long long)c->lost_sets, s->dcss.npages,
                (unsigned long long)c->want_pages);
}
uint64_t sim_sys_tod(const struct sim_sys *s)
{
        return s->tod;
}
uint64_t sim_sys_interval_no(const struct sim_sys *s)
{
        return s->n;
}
void sim_sys_bigset(struct sim_sys *s, unsigned frames)
{
        unsigned max = s->dcss.area_pages[SIM_AREA_SAMPLE] / 2;
        s->bigset_frames = frames < max ? frames : max;
}

/* ---- emitting records ---- */

static bool enabled(const struct sim_sys *s, unsigned domain)
{
        return domain == 1 || (s->cfg.domains >> domain & 1);
}

#define FALLBACK_LEN 64 /* a record whose layout is not in the tables yet */

size_t sim_cp_rec_len(unsigned domain, unsigned number, size_t extra)
{
        size_t len = FALLBACK_LEN;
        (void)sim_cp_layout((int)domain, (int)number, &len);
        len += extra;
        return len > 4076 ? 4076 : len;
}

struct sim_rec *sim_emit_begin(struct sim_sys *s, struct sim_rec *r, unsigned domain,
                               unsigned number, const char *key)
{
        return sim_emit_begin_len(s, r, domain, number, key, 0);
}

struct sim_rec *sim_emit_begin_len(struct sim_sys *s, struct sim_rec *r, unsigned domain,
                                   unsigned number, const char *key, size_t extra)
{
        if (!enabled(s, domain))
                return NULL;
        const struct zl_layout *l = sim_cp_layout((int)domain, (int)number, NULL);
        size_t len = sim_cp_rec_len(domain, number, extra);
        uint8_t *p = sim_sb_add(s->sb, domain, number, len, s->tod);
        if (!p)
                return NULL; /* the set fills its area: lost (sim_dcss.c) */
        memset(r, 0, sizeof(*r));
        r->l = l;
        r->b = (zd_wbuf){p, len};
        r->key = sim_hash_str(key);
        r->n = s->n;
        r->secs = (double)s->n * s->cfg.interval_ms / 1000.0;
        sim_rec_generic(r, s->cfg.seed, ZD_HDR_LEN);
        return r;
}

static void count(struct sim_sys *s, unsigned domain, unsigned number)
{
        s->counts.records++;
        if (domain < ZD_NDOMAINS)
                s->counts.by_rec[domain][number < ZD_NRECSLOTS ? number : ZD_NRECSLOTS - 1]++;
}

void sim_emit_end(struct sim_sys *s, struct sim_rec *r, unsigned domain, unsigned number,
                  const char *key, char kind)
{
        count(s, domain, number);
        if (s->truth)
                sim_truth_record(s->truth, s->n, s->tod, kind, domain, number, key, r->l,
                                 zd_view_make(r->b.p, r->b.cap), NULL, 0, zd_view_make(NULL, 0),
                                 NULL);
}

void sim_emit_appl(struct sim_sys *s, const char *userid, const uint8_t prodid[16],
                   const uint8_t *data, size_t len, char kind, const char *payload_layout,
                   size_t payload_off, const char *key, const char *note)
{
        unsigned number = kind == 'E' ? 1 : 2;
        if (!enabled(s, 10))
                return;
        size_t hl = ZD_APPL_HDR_LEN;
        const struct zl_layout *l = sim_cp_layout(10, (int)number, NULL);
        if (len > SIM_MW_MAX_DATALEN)
                len = SIM_MW_MAX_DATALEN;
        uint8_t *p = sim_sb_add(s->sb, 10, number, hl + len, s->tod);
        if (!p)
                return; /* the set fills its area: lost (sim_dcss.c) */
        struct sim_rec r = {.l = l, .b = {p, hl + len}};
        const char *pre = number == 1 ? "APLEDT_" : "APLSDT_";
        char nm[5][32];
        snprintf(nm[0], 32, "%sCALDATOF", pre);
        snprintf(nm[1], 32, "%sCALDATLN", pre);
        snprintf(nm[2], 32, "%sUSERID", pre);
        snprintf(nm[3], 32, "%sPRODID", pre);
        /* Names built at run time bypass the pointer cache: look them up directly. */
        const struct zl_field *f;
        if ((f = zl_field(l, nm[0])))
                (void)zl_put(f, r.b, hl);
        if ((f = zl_field(l, nm[1])))
                (void)zl_put(f, r.b, len);
        if ((f = zl_field(l, nm[2])))
                (void)zl_put_text(f, r.b, userid);
        if ((f = zl_field(l, nm[3])) && f->len == 16)
                (void)zd_put_bytes(r.b, f->off, prodid, 16);
        if (!l || !zl_field(l, nm[0]) || !zl_field(l, nm[3]))
                sim_set_u(&r, number == 1 ? "APLEDT_CALDATOF" : "APLSDT_CALDATOF", hl);
        memcpy(p + hl, data, len);
        count(s, 10, number);
        if (s->truth) {
                const struct zl_layout *pl =
                    payload_layout ? sim_payload_layout(payload_layout, NULL) : NULL;
                sim_truth_record(s->truth, s->n, s->tod, kind, 10, number, key, l,
                                 zd_view_make(p, hl + len), pl, payload_off,
                                 zd_view_make(p + hl, len), note);
        }
}

/* A finished set's End-of-Frame records, and the records that did not fit. */
static void add_eofs(struct sim_sys *s, const struct sim_set *set)
{
        s->counts.records += set->neof;
        s->counts.by_rec[1][ZD_D1_END_OF_FRAME] += set->neof;
        if (set->lost) {
                s->counts.lost += set->lost;
                s->counts.lost_sets++;
                /* The DCSS whose area for this set has want_frames pages (sim_dcss_init:
                 * configuration 1/8, sample 5/8, event at least 1/4 of what follows the MCA). */
                uint64_t w = set->want_frames, rest;
                if (set->config)
                        rest = 8 * w;
                else if (set->type == 'S')
                        rest = 8 * ((w + 4) / 5);
                else
                        rest = 4 * w;
                uint64_t pages = (4 + rest + 255) / 256 * 256;
                if (pages > s->counts.want_pages)
                        s->counts.want_pages = pages;
        }
}

/* ---- monwriter buffers ---- */

static void queue_event(struct sim_sys *s, struct sim_set *e)
{
        if (s->nevents == s->capevents) {
                size_t c = s->capevents ? s->capevents * 2 : 8;
                struct sim_set **p = realloc(s->events, c * sizeof(*p));
                if (!p)
                        abort();
                s->events = p;
                s->capevents = c;
        }
        s->events[s->nevents++] = e;
}

struct sim_set *sim_sys_next_event(struct sim_sys *s)
{
        if (!s->nevents)
                return NULL;
        struct sim_set *e = s->events[0];
        memmove(s->events, s->events + 1, (s->nevents - 1) * sizeof(*s->events));
        s->nevents--;
        return e;
}

static void mw_event(void *ctx, enum sim_mw_what what, const char *userid,
                     const struct sim_mw_hdr *h, const uint8_t *data, size_t len)
{
        struct sim_sys *s = ctx;
        if (what == SIM_MW_EV_START)
                return; /* sampled from now on */
        struct sim_sb sb, *save = s->sb;
        uint8_t prodid[16];
        char key[64];
        sim_mw_prodid(h, prodid);
        snprintf(key, sizeof(key), "%s LNXAPPL %u.%u.%u.%u.%u", userid, h->applid, h->record,
                 h->version, h->release, h->mod_level);
        sim_sb_begin(&sb, &s->dcss, SIM_AREA_EVENT, 'E');
        s->sb = &sb;
        sim_emit_appl(s, userid, prodid, data, len, 'E', NULL, 0, key,
                      what == SIM_MW_EV_STOP ? "stop" : "event");
        s->sb = save;
        struct sim_set *set = sim_sb_end(&sb, false, s->tod);
        add_eofs(s, set);
        set->interval = s->n;
        s->counts.sets++;
        if (s->truth)
                sim_truth_set(s->truth, set);
        queue_event(s, set);
}

void sim_sys_attach_writer(struct sim_sys *s, struct sim_mw *mw)
{
        s->mw = mw;
        mw->cb = mw_event;
        mw->cb_ctx = s;
        snprintf(mw->userid, sizeof(mw->userid), "%s", s->cfg.writer_userid);
}

static void mw_sample(void *ctx, const struct sim_mw_buf *b)
{
        struct sim_sys *s = ctx;
        uint8_t prodid[16];
        char key[64];
        sim_mw_prodid(&b->hdr, prodid);
        snprintf(key, sizeof(key), "%s LNXAPPL %u.%u.%u.%u.%u", s->mw->userid, b->hdr.applid,
                 b->hdr.record, b->hdr.version, b->hdr.release, b->hdr.mod_level);
        sim_emit_appl(s, s->mw->userid, prodid, b->data, b->hdr.datalen, 'S', NULL, 0, key, NULL);
}

/* ---- sets ---- */

struct sim_set *sim_sys_config(struct sim_sys *s, uint64_t tod)
{
        struct sim_sb sb;
        uint64_t save = s->tod;
        s->tod = tod;
        sim_sb_begin(&sb, &s->dcss, SIM_AREA_CONFIG, 'S');
        s->sb = &sb;
        sim_cp_config(s);
        if (s->mw)
                sim_mw_foreach(s->mw, true, mw_sample, s);
        s->sb = NULL;
        struct sim_set *set = sim_sb_end(&sb, true, tod);
        count(s, 1, ZD_D1_INTERVAL_END);
        add_eofs(s, set);
        s->counts.sets++;
        set->config = true;
        if (s->truth)
                sim_truth_set(s->truth, set);
        s->tod = save;
        return set;
}

/* Split `total` (in quanta) over the weights; the remainder goes to the first ones. */
static void split(uint64_t total, const uint32_t *w, size_t n, uint64_t *out)
{
        uint64_t W = 0, given = 0;
        for (size_t i = 0; i < n; i++)
                W += w[i];
        for (size_t i = 0; i < n; i++) {
                out[i] = W ? (uint64_t)((unsigned __int128)total * w[i] / W) : 0;
                given += out[i];
        }
        for (size_t i = 0; given < total && n; i = (i + 1) % n, given++)
                out[i]++;
}

bool sim_broken(const struct sim_sys *s, const char *law)
{
        return s->cfg.break_law && strcmp(s->cfg.break_law, law) == 0;
}

/* One quantum = 5 us, so the virtual part (4/5) stays exact. */
#define QUANTUM ((uint64_t)5 * ZD_TOD_PER_US)

/* What one interval's pieces add up, for the pieces that must agree with them. */
struct interval_sums {
        uint64_t user_q; /* processors' user time, in quanta: the guests' share */
        uint64_t sim;    /* DIAGNOSE and simulated instructions on the processors */
        uint64_t pr, pw; /* guests' page reads and writes */
        uint64_t vio;    /* guests' virtual I/O */
        uint64_t used;   /* guests' resident frames */
        uint64_t ssch;   /* devices' start subchannels */
};

static void advance_cpu(struct sim_sys *s, unsigned i, struct interval_sums *t)
{
        struct m_cpu *p = &s->cpu[i];
        p->busy += (sim_rng_unit(&s->rng) - 0.5) * 0.1;
        if (p->busy < 0.05)
                p->busy = 0.05;
        if (p->busy > 0.95)
                p->busy = 0.95;
        uint64_t busy = (uint64_t)(p->busy * (double)s->dt);
        uint64_t u = busy * 9 / 10 / QUANTUM * QUANTUM;
        uint64_t sys = busy - u;
        p->d_utime = u;
        p->d_sys = sys;
        p->d_emul = u / 5 * 4;
        p->utime += u;
        p->tmsys += sys;
        p->prbtm -= p->d_emul;
        p->totwt += s->dt - busy;
        if (sim_broken(s, "cpu-wait") && i == 0)
                p->totwt += s->dt / 5;
        p->spint += sys / 50;
        p->spinc += 10 + sim_rng_below(&s->rng, 100);
        uint64_t diag = 100 + sim_rng_below(&s->rng, 1000);
        uint64_t simins = 1000 + sim_rng_below(&s->rng, 10000);
        p->diag += diag;
        p->simins += simins;
        t->sim += diag + simins;
        p->extint += 50 + sim_rng_below(&s->rng, 200);
        p->sie += 5000 + sim_rng_below(&s->rng, 20000);
        t->user_q += u / QUANTUM;
}

/* Each guest's weight drifts by -10..+10; one weight per virtual CPU, in guest order. */
static uint32_t *drift_weights(struct sim_sys *s, size_t *nv)
{
        const struct sim_cfg *c = &s->cfg;
        *nv = 0;
        for (unsigned i = 0; i < c->guests; i++)
                *nv += s->guest[i].vcpus;
        uint32_t *w = xcalloc(*nv, sizeof(*w));
        size_t k = 0;
        for (unsigned i = 0; i < c->guests; i++) {
                struct m_guest *g = &s->guest[i];
                int64_t dw = (int64_t)sim_rng_below(&s->rng, 21) - 10;
                if ((int64_t)g->weight + dw >= 1)
                        g->weight = (uint32_t)((int64_t)g->weight + dw);
                for (unsigned v = 0; v < g->vcpus; v++)
                        w[k++] = g->weight;
        }
        return w;
}

/* The guest's virtual CPUs get their shares (in quanta) of the processors' user time. */
static void give_vcpu_time(struct sim_sys *s, struct m_guest *g, const uint64_t *share)
{
        for (unsigned v = 0; v < g->vcpus; v++) {
                uint64_t t = share[v] * QUANTUM, vt = t / 5 * 4;
                /* Half as much again on every virtual CPU: beyond the laws' 10 %
                 * tolerance on any system size, while no single timer moves by
                 * more than the engine believes (twice the interval: more would
                 * be taken for a reset, and the law would never see it). */
                if (sim_broken(s, "guest-cpu"))
                        t += t / 2;
                if (sim_broken(s, "guest-vcpu"))
                        vt += vt / 2;
                g->ttime[v] += t;
                g->vtime[v] += vt;
                if (g->lx >= 0)
                        s->linux[g->lx].vcpu_acc += vt;
        }
}

/* Resident storage, paging and virtual I/O of one guest. */
static void advance_guest_io(struct sim_sys *s, struct m_guest *g, struct interval_sums *t)
{
        /* A step of -100..+100 frames, never below what a guest keeps. */
        uint64_t step = sim_rng_below(&s->rng, 201);
        if (g->resident + step >= 100 + SIM_MIN_RESIDENT)
                g->resident = g->resident + step - 100;
        g->wss = g->resident * 9 / 10;
        uint64_t pr = sim_rng_below(&s->rng, 20), pw = sim_rng_below(&s->rng, 20);
        g->pgread += pr;
        g->pgwrite += pw;
        t->pr += pr;
        t->pw += pw;
        for (unsigned q = 0; q < 5; q++) {
                uint64_t n = q == 1 ? sim_rng_below(&s->rng, 200) : sim_rng_below(&s->rng, 4);
                g->vio[q] += n;
                t->vio += n;
        }
        t->used += g->resident;
}

static void advance_guests(struct sim_sys *s, struct interval_sums *t)
{
        size_t nv;
        uint32_t *w = drift_weights(s, &nv);
        uint64_t *share = xcalloc(nv, sizeof(*share));
        /* Hand the user time to the guests' virtual CPUs. */
        split(t->user_q, w, nv, share);
        size_t k = 0;
        for (unsigned i = 0; i < s->cfg.guests; i++) {
                struct m_guest *g = &s->guest[i];
                give_vcpu_time(s, g, share + k);
                k += g->vcpus;
                advance_guest_io(s, g, t);
        }
        free(w);
        free(share);
        /*
         * Broken laws stay broken at any size: a fixed excess drowns in the
         * law's 10 % tolerance once 50,000 guests add up, so guest 0 gets more
         * than all the guests together (and, for virtual I/O, CP) did.
         */
        if (sim_broken(s, "paging") && s->cfg.guests)
                s->guest[0].pgread += t->pr + 1000;
        if (sim_broken(s, "guest-vio") && s->cfg.guests)
                s->guest[0].vio[1] += 2 * (t->vio + t->sim) + 100;
}

/* CP did the guests' paging I/O on its processors, and simulated their virtual I/O. */
static void charge_guest_io(struct sim_sys *s, const struct interval_sums *t)
{
        const unsigned n = s->cfg.cpus;
        for (unsigned i = 0; i < n; i++) {
                s->cpu[i].simins += t->vio / n + (i < t->vio % n);
                s->cpu[i].pior += t->pr / n + (i < t->pr % n);
                s->cpu[i].piow += t->pw / n + (i < t->pw % n);
        }
}

/* Real storage: the guests' resident pages plus CP's own are in use. */
static void account_storage(struct sim_sys *s, uint64_t used)
{
        used += 50000;
        if (s->pgabl < used + 10000)
                s->pgabl = used + 10000;
        s->avail = s->pgabl - used;
}

static void advance_device(struct sim_sys *s, unsigned i, struct interval_sums *t)
{
        struct m_dev *d = &s->dev[i];
        uint64_t n = sim_rng_below(&s->rng, 500);
        t->ssch += n;
        d->ssch += n;
        /*
         * Channel measurement times in 128 us units: the device busy
         * for 5-50 % of the interval (one start function at a time),
         * split 60/10/25/5 over connect, pending, disconnect and
         * device-active-only.
         */
        uint64_t units = s->dt / ZD_TOD_PER_US / 128;
        uint64_t busy = n ? units * (5 + sim_rng_below(&s->rng, 46)) / 100 : 0;
        /* At most 50 ms (390 units) of service per SSCH: a device with a few SSCH in a
         * long interval is not busy for seconds per I/O (the device-time law's bound). */
        if (busy > n * 390)
                busy = n * 390;
        uint64_t pend = busy / 10, disc = busy / 4, dao = busy / 20;
        d->connect += busy - pend - disc - dao;
        d->pending += pend;
        d->disconnect += disc;
        d->daonly += dao;
        d->devbusy += n * 3;
        if (i == 0 && sim_broken(s, "device-time"))
                d->connect += 2 * units;
}

/* Every device SSCH was executed by a processor (plus CP's own I/O). */
static void charge_device_io(struct sim_sys *s, const struct interval_sums *t)
{
        const unsigned n = s->cfg.cpus;
        for (unsigned i = 0; i < n; i++) {
                s->cpu[i].ctss += t->ssch / n + (i < t->ssch % n) + sim_rng_below(&s->rng, 50);
                s->cpu[i].ctrs += sim_rng_below(&s->rng, 5);
        }
}

static void advance_vnic(struct sim_sys *s, unsigned i)
{
        struct m_vnic *v = &s->vnic[i];
        uint64_t tp = sim_rng_below(&s->rng, 2000), rp = sim_rng_below(&s->rng, 2000);
        v->txp += tp;
        v->rxp += rp;
        v->txb += tp * (64 + sim_rng_below(&s->rng, 1400));
        v->rxb += rp * (64 + sim_rng_below(&s->rng, 1400));
        v->txd += tp && sim_rng_below(&s->rng, 1000) == 0;
        v->rxd += rp && sim_rng_below(&s->rng, 1000) == 0;
        if (i == 0 && sim_broken(s, "vnic"))
                v->txp += 10000000;
}

static void advance_lpar(struct sim_sys *s, unsigned i)
{
        struct m_lpar *l = &s->lpar[i];
        for (unsigned j = 0; j < l->ncpu; j++) {
                /* z/VM's own partition is dispatched at least while its CPUs are busy. */
                uint64_t d = i == 0 && j < s->cfg.cpus
                                 ? s->cpu[j].d_utime + s->cpu[j].d_sys + s->dt / 100
                                 : (uint64_t)(l->busy * (double)s->dt);
                if (d > s->dt)
                        d = s->dt;
                if (i == 0 && j == 0 && sim_broken(s, "lpar"))
                        d = 2 * s->dt;
                /* LCUCACTM includes LPAR management, LCUCLPTM does not. */
                uint64_t lp = d - (s->dt / 200 < d ? s->dt / 200 : d);
                if (i == 0 && j == 0 && sim_broken(s, "lpar:management"))
                        lp = d + s->dt / 10; /* negative management */
                l->dispatch[j] += d;
                l->lptime[j] += lp;
        }
}

/*
 * One interval of the model.  The order of the steps is the order in which
 * they draw from the random sequence: changing it changes every value after.
 */
static void advance(struct sim_sys *s)
{
        const struct sim_cfg *c = &s->cfg;
        struct interval_sums t = {0};
        for (unsigned i = 0; i < c->cpus; i++)
                advance_cpu(s, i, &t);
        advance_guests(s, &t);
        charge_guest_io(s, &t);
        account_storage(s, t.used);
        for (unsigned i = 0; i < c->linux_guests; i++)
                sim_lx_advance(s, &s->linux[i]);
        for (unsigned i = 0; i < c->devices; i++)
                advance_device(s, i, &t);
        charge_device_io(s, &t);
        for (unsigned i = 0; i < c->vnics; i++)
                advance_vnic(s, i);
        for (unsigned i = 0; i < c->lpars; i++)
                advance_lpar(s, i);
}

/*
 * Events of the interval: now and then a short batch guest logs on and off
 * between two samples (D4R1 USELON, D4R2 USELOF), stamped mid-interval and
 * queued ahead of the interval's sample set.
 */
static void guest_events(struct sim_sys *s)
{
        if (s->n % 7 != 0 || !enabled(s, 4))
                return;
        struct sim_sb sb, *save = s->sb;
        uint64_t save_tod = s->tod;
        char name[9];
        name8(name, "BATCH", (unsigned)(s->n / 7 % 1000));
        s->tod -= s->dt / 2;
        sim_sb_begin(&sb, &s->dcss, SIM_AREA_EVENT, 'E');
        s->sb = &sb;
        for (unsigned rec = 1; rec <= 2; rec++) {
                char key[32];
                snprintf(key, sizeof(key), "user %s", name);
                struct sim_rec R, *r = sim_emit_begin(s, &R, 4, rec, key);
                if (!r)
                        continue;
                sim_set_t(r, rec == 1 ? "USELON_VMDUSER" : "USELOF_VMDUSER", name);
                sim_set_u(r, rec == 1 ? "USELON_VMDCPUAD" : "USELOF_VMDCPUAD", 0);
                sim_emit_end(s, r, 4, rec, key, 'E');
                s->tod += s->dt / 10; /* logged off a little later */
        }
        s->sb = save;
        struct sim_set *set = sim_sb_end(&sb, false, s->tod);
        s->tod = save_tod;
        add_eofs(s, set);
        set->interval = s->n;
        s->counts.sets++;
        if (s->truth)
                sim_truth_set(s->truth, set);
        queue_event(s, set);
}

struct sim_set *sim_sys_interval(struct sim_sys *s)
{
        s->n++;
        s->tod += s->dt;
        advance(s);
        guest_events(s);
        struct sim_sb sb;
        sim_sb_begin(&sb, &s->dcss, SIM_AREA_SAMPLE, 'S');
        s->sb = &sb;
        sim_cp_sample(s);
        for (unsigned i = 0; i < s->cfg.linux_guests; i++)
                sim_lx_sample(s, &s->linux[i]);
        if (s->mw)
                sim_mw_foreach(s->mw, false, mw_sample, s);
        /* A deliberately large set: filler APPLDATA records of a pseudo guest. */
        if (s->bigset_frames) {
                static const uint8_t pid[16] = "ZVMSIMBIGSET0000";
                uint8_t data[3900];
                memset(data, 0xA5, sizeof(data));
                for (unsigned i = 0; i < s->bigset_frames; i++) {
                        char key[32];
                        snprintf(key, sizeof(key), "BIGSET %u", i);
                        sim_emit_appl(s, "BIGSET", pid, data, sizeof(data), 'S', NULL, 0, key,
                                      NULL);
                }
                s->bigset_frames = 0;
        }
        s->sb = NULL;
        struct sim_set *set = sim_sb_end(&sb, true, s->tod);
        count(s, 1, ZD_D1_INTERVAL_END);
        add_eofs(s, set);
        set->interval = s->n;
        s->counts.sets++;
        s->counts.intervals++;
        if (s->truth)
                sim_truth_set(s->truth, set);
        return set;
}
