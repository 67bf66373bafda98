/* SPDX-License-Identifier: MIT */
/*
 * Event sets, queued until a reader takes them, ahead of the next sample set:
 * the monwriter device's STOP and GEN_EVENT buffers, the APPLDATA buffers a
 * guest stopped, the interval's logons and logoffs (sim_sets.c); and the
 * counts every finished set adds to.  Apart from sim_sets.c because the model
 * makes event sets as it moves (mon_procd stopping buffers, in
 * sim_records_linux.c), and the model is what sim_sets.c calls.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_model.h"

/* A finished set's End-of-Frame records, and the records that did not fit. */
void sim_set_count(struct sim_sys *s, const struct sim_set *set)
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

void sim_event_set_done(struct sim_sys *s, struct sim_set *set)
{
        sim_set_count(s, set);
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
        sim_event_set_done(s, set);
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
        sim_event_set_done(s, sim_sb_end(&sb, false, s->tod));
}

void sim_sys_attach_writer(struct sim_sys *s, struct sim_mw *mw)
{
        s->mw = mw;
        mw->cb = mw_event;
        mw->cb_ctx = s;
        snprintf(mw->userid, sizeof(mw->userid), "%s", s->cfg.writer_userid);
}
