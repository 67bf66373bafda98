/* SPDX-License-Identifier: MIT */
/* The conservation laws of the CP module (met_cp_laws.c), over met_cp_tab.h. */
#ifndef ZD_MET_CP_LAWS_H
#define ZD_MET_CP_LAWS_H

#include "metric/cp/met_cp_tab.h"

#define CP_TOL_REL  0.10
#define CP_SLACK_US 2000.0 /* per CPU */
#define CP_SLACK_PG 2.0

/*
 * What three laws (guest-cpu, guest-vcpu, paging, and guest-resident's
 * sum) need of the virtual CPUs.  The close gathers it in the pass that
 * takes their deltas (cp_vsum_add), in table order: with many guests the
 * table is far larger than any cache, and a pass of its own reads it again.
 */
struct cp_vsums {
        double tt, vt; /* CPU time, virtual CPU time */
        size_t ntt, nvt;
        const struct cp_ent *over, *longer; /* the first vCPU past its total, its elapsed time */
        double pgr, pgw;                    /* page reads, writes */
        size_t npg;
        double res; /* resident pages */
        size_t nres;
};

/* Virtual CPU x, with readings this interval and elapsed time el (cp_elapsed_us), into u:
 * after its deltas are taken. */
static inline __attribute__((always_inline)) void cp_vsum_add(struct cp_vsums *u,
                                                              const struct cp_ent *x, uint64_t el)
{
        if (HAS(x, A_TT)) {
                u->ntt++;
                u->tt += (double)x->d[A_TT];
                if (!u->longer && (double)x->d[A_TT] > (double)el * (1 + CP_TOL_REL) + CP_SLACK_US)
                        u->longer = x;
        }
        if (HAS(x, A_VT)) {
                u->nvt++;
                u->vt += (double)x->d[A_VT];
        }
        if (!u->over && HAS(x, A_TT) && HAS(x, A_VT) && x->d[A_VT] > x->d[A_TT] + 1000)
                u->over = x;
        if (HAS(x, A_PGR) && HAS(x, A_PGW)) {
                u->npg++;
                u->pgr += (double)x->d[A_PGR];
                u->pgw += (double)x->d[A_PGW];
        }
        if (x->have & (1u << A_RES)) {
                u->res += (double)CP_V(x)[A_RES];
                u->nres++;
        }
}

/* Evaluate every law over the deltas of the interval being closed; u: the virtual CPUs' part. */
void cp_laws(struct zm_engine *e, struct cp_state *s, const struct cp_vsums *u);
#endif
