/* SPDX-License-Identifier: MIT */
/*
 * The data sets the system is written in each interval: the configuration
 * set, the interval's sample set, and the event set of guests logging on and
 * off.  Here the model moves (sim_interval.c), the records are written
 * (sim_records_cp.c, sim_records_linux.c) and the sets are finished;
 * queueing event sets is sim_events.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_model.h"

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
        sim_set_count(s, set);
        s->counts.sets++;
        set->config = true;
        if (s->truth)
                sim_truth_set(s->truth, set);
        s->tod = save;
        return set;
}

/*
 * USELOF's mode bits are CP's internal encoding, which no page shows: none
 * set.  The batch guest has finished its work and waits for nothing when it
 * logs off, so it is on the dormant list (X'0B').
 */
#define SLIST_DORMANT 0x0B

static void logoff_state(struct sim_rec *r)
{
        sim_set_u(r, "USELOF_CALMODE", 0);
        sim_set_u(r, "USELOF_VMDSLIST", SLIST_DORMANT);
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
                sim_set_u(r, rec == 1 ? "USELON_VMDMODE" : "USELOF_VMDMODE", 0);
                if (rec == 2)
                        logoff_state(r);
                sim_emit_end(s, r, 4, rec, key, 'E');
                s->tod += s->dt / 10; /* logged off a little later */
        }
        s->sb = save;
        struct sim_set *set = sim_sb_end(&sb, false, s->tod);
        s->tod = save_tod;
        sim_event_set_done(s, set);
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
        sim_set_count(s, set);
        set->interval = s->n;
        s->counts.sets++;
        s->counts.intervals++;
        if (s->truth)
                sim_truth_set(s->truth, set);
        return set;
}
