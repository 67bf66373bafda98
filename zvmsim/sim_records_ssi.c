/* SPDX-License-Identifier: MIT */
/*
 * The records of an SSI member (--ssi NAME): D1R25 MTRSSI in the
 * configuration set, D11R1 SSISCS and D11R2 SSISMI in each sample while
 * domain 11 is enabled.  Without --ssi the system is no member and none of
 * them is written.  The member joined the SSI at IPL and has stayed joined
 * (sim_activity.c keeps its times and synchronizations); the cluster has
 * two of its four slots in use, this member and one other that answers
 * each synchronization.  Fields IBM's pages show are filled; SSISCS_PLMSYPRP,
 * whose meaning the page leaves blank, keeps a generic counter.
 */
#include <stdio.h>

#include "sim_model.h"

#define BEGIN(dom, rec, name)                                                                      \
        const char *key = name;                                                                    \
        struct sim_rec R_, *r = sim_emit_begin(s, &R_, dom, rec, key);                             \
        if (r)
#define END(dom, rec, kind) sim_emit_end(s, r, dom, rec, key, kind)

#define SSI_SLOTS   4u /* an SSI has at most four members */
#define SSI_MEMBERS 2u
#define SSI_LEVEL   1u /* the model's choice: the cluster runs at its only level */

static bool member(const struct sim_sys *s)
{
        return s->cfg.ssi_name[0] != '\0';
}

/* MTRSSI: no member entries follow (CALENTSZ 0): their layout is past what the page let read. */
static void mtrssi(struct sim_sys *s)
{
        BEGIN(1, 25, "ssi")
        {
                sim_set_t(r, "MTRSSI_SYSPLXNM", s->cfg.ssi_name);
                sim_set_u(r, "MTRSSI_SYSPLXLV", SSI_LEVEL);
                sim_set_u(r, "MTRSSI_SYSPLXML", SSI_LEVEL);
                sim_set_u(r, "MTRSSI_SYSPLXNS", SSI_SLOTS);
                sim_set_u(r, "MTRSSI_SYSPLXNR", SSI_MEMBERS);
                sim_set_u(r, "MTRSSI_CALENTSZ", 0);
                END(1, 25, 'S');
        }
}

void sim_ssi_config(struct sim_sys *s)
{
        if (member(s))
                mtrssi(s);
}

static void ssiscs(struct sim_sys *s)
{
        BEGIN(11, 1, "ssi")
        {
                sim_set_u(r, "SSISCS_PLMSYCNT", (uint32_t)s->act.sync);
                sim_set_u(r, "SSISCS_PLMSYPRO", (uint32_t)s->act.proceed);
                END(11, 1, 'S');
        }
}

/* Joining once, then joined: the other states never entered, their times 0 (microseconds). */
static void ssismi(struct sim_sys *s)
{
        static const char *const never[] = {"SSISMI_PLMNLEAV", "SSISMI_PLMNISOL",
                                            "SSISMI_PLMNSUSP", "SSISMI_PLMTLEAV",
                                            "SSISMI_PLMTISOL", "SSISMI_PLMTSUSP"};
        BEGIN(11, 2, "ssi")
        {
                sim_set_u(r, "SSISMI_PLMNJONG", 1);
                sim_set_u(r, "SSISMI_PLMNJOND", 1);
                sim_set_u(r, "SSISMI_PLMTJONG", s->act.joining_us);
                sim_set_u(r, "SSISMI_PLMTJOND", s->act.joined_us);
                for (size_t i = 0; i < sizeof(never) / sizeof(never[0]); i++)
                        sim_set_u(r, never[i], 0);
                /* Stable since the join, reached through in-flux once. */
                sim_set_u(r, "SSISMI_PLMNSTAB", 1);
                sim_set_u(r, "SSISMI_PLMNINFL", 1);
                END(11, 2, 'S');
        }
}

void sim_ssi_sample(struct sim_sys *s)
{
        if (!member(s))
                return;
        ssiscs(s);
        ssismi(s);
}

void sim_ssi_fit(const struct sim_sys *s, struct sim_fit *config, struct sim_fit *sample)
{
        if (!member(s))
                return;
        sim_fit_add(config, sim_cp_rec_len(1, 25, 0), 1);
        sim_fit_add(sample, sim_cp_rec_len(11, 1, 0), 1);
        sim_fit_add(sample, sim_cp_rec_len(11, 2, 0), 1);
}
