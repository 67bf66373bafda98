/* SPDX-License-Identifier: MIT */
/*
 * The data sets the system is written in: the configuration set, each
 * interval's sample set, and the event sets (monwriter STOP and GEN_EVENT
 * buffers, guests logging on and off) queued until a reader takes them.
 * Separate because it is where the model, the records and the DCSS meet.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_model.h"

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

/* An event set (a guest's monwriter record, a logoff) is finished like an interval's. */
static void event_set_done(struct sim_sys *s, struct sim_set *set)
{
        add_eofs(s, set);
        set->interval = s->n;
        s->counts.sets++;
        if (s->truth)
                sim_truth_set(s->truth, set);
        queue_event(s, set);
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
        event_set_done(s, set);
}

void sim_sys_appl_stops(struct sim_sys *s, const char *userid, const struct m_appl *a, size_t n)
{
        if (!n)
                return;
        struct sim_sb sb, *save = s->sb;
        sim_sb_begin(&sb, &s->dcss, SIM_AREA_EVENT, 'E');
        s->sb = &sb;
        for (size_t i = 0; i < n; i++) {
                uint16_t mod = (uint16_t)(a[i].prodid[14] << 8 | a[i].prodid[15]);
                char key[64];
                snprintf(key, sizeof(key), "%s %s %u", userid, a[i].kind, (unsigned)mod);
                sim_emit_appl(s, userid, a[i].prodid, a[i].data, a[i].len, 'E', a[i].layout,
                              a[i].layout_off, key, "stop");
        }
        s->sb = save;
        event_set_done(s, sim_sb_end(&sb, false, s->tod));
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
        sim_count_record(s, 1, ZD_D1_INTERVAL_END);
        add_eofs(s, set);
        s->counts.sets++;
        set->config = true;
        if (s->truth)
                sim_truth_set(s->truth, set);
        s->tod = save;
        return set;
}

/*
 * Events of the interval: now and then a short batch guest logs on and off
 * between two samples (D4R1 USELON, D4R2 USELOF), stamped mid-interval and
 * queued ahead of the interval's sample set.
 */
static void guest_events(struct sim_sys *s)
{
        if (s->n % 7 != 0 || !sim_domain_enabled(s, 4))
                return;
        struct sim_sb sb, *save = s->sb;
        uint64_t save_tod = s->tod;
        char name[9];
        sim_name8(name, "BATCH", (unsigned)(s->n / 7 % 1000));
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
        event_set_done(s, set);
}

struct sim_set *sim_sys_interval(struct sim_sys *s)
{
        s->n++;
        s->tod += s->dt;
        sim_sys_advance(s);
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
        sim_count_record(s, 1, ZD_D1_INTERVAL_END);
        add_eofs(s, set);
        set->interval = s->n;
        s->counts.sets++;
        s->counts.intervals++;
        if (s->truth)
                sim_truth_set(s->truth, set);
        return set;
}
