/* SPDX-License-Identifier: MIT */
/*
 * Closing a sample interval: deltas against the previous interval, the
 * per-guest sums, then laws (met_cp_laws.c), metrics (met_cp_emit.c), the
 * law self-metrics, and the roll of current readings into previous ones.
 */
#include <string.h>

#include "metric/cp/met_cp_close.h"
#include "metric/cp/met_cp_emit.h"
#include "metric/cp/met_cp_laws.h"
#include "metric/cp/met_cp_rows.h"
#include "metric/cp/met_cp_take.h"
#include "base/tod.h"

/* Largest believable timer delta: twice the elapsed time el, plus a second of skew. */
static uint64_t max_us(uint64_t el)
{
        return el * 2 + 1000000;
}

/* Slot i's timer delta, no larger than max (max_us): inline, with max worked out once per entry,
 * for the two timers of every virtual CPU of every interval. */
static inline __attribute__((always_inline)) void
timer(struct zm_engine *e, struct cp_ent *x, int i, bool either_way, uint64_t max, bool acc)
{
        int64_t d = cp_delta_timer(x, i, max, either_way);
        if (d == -1) {
                zm_counters_mut(e)->timer_resets++;
                return;
        }
        if (d < 0)
                return;
        x->d[i] = (uint64_t)d;
        x->dok |= 1u << i;
        if (acc)
                x->acc[i] += (uint64_t)d;
}

/*
 * Counter deltas of slots first..last of x, each of width bytes, for the
 * slots read in both intervals.  What a slot needs is decided once per
 * entry: this runs for every counter of every entry of every interval.
 */
static inline __attribute__((always_inline)) void ctrs(struct cp_ent *x, int first, int last,
                                                       unsigned width, bool acc)
{
        if (!x->cur || !x->prev)
                return;
        uint32_t slots = ((2u << last) - (1u << first)) & x->have & x->phave;
        uint64_t mask = width >= 8 ? ~(uint64_t)0 : (UINT64_C(1) << (width * 8)) - 1;
        const uint64_t *v = CP_V(x), *pv = CP_PV(x);
        /* Every slot of the range without a branch per slot (the range is a few slots, most
         * of them read): a slot without a delta gets a d that its dok bit, unset, disowns,
         * and adds 0 to its sum.  Inlined with its range a constant: the loop unrolled. */
#pragma GCC unroll 10
        for (int i = first; i <= last; i++) {
                /* a 64-bit counter does not wrap: one that went down was reset */
                if (width >= 8)
                        slots &= ~((uint32_t)(v[i] < pv[i]) << i);
                uint64_t d = (v[i] - pv[i]) & mask;
                x->d[i] = d;
                if (acc)
                        x->acc[i] += d & -(uint64_t)((slots >> i) & 1u);
        }
        x->dok |= slots;
}

/* Guest slot gs of g += virtual CPU x's slots first..last, as cp_guest_sums says (met_cp_take.h):
 * inlined with its slots constants. */
static inline __attribute__((always_inline)) void add_sum(struct cp_ent *g, const struct cp_ent *x,
                                                          int gs, int first, int last, bool reading)
{
        uint32_t bits = (2u << last) - (1u << first);
        uint32_t gbit = 1u << gs;
        if (reading) {
                if ((x->have & bits) != bits)
                        return;
                for (int i = first; i <= last; i++)
                        CP_V(g)[gs] += CP_V(x)[i];
                g->have |= gbit;
        } else {
                if ((x->dok & bits) != bits)
                        return;
                uint64_t sum = 0;
                for (int i = first; i <= last; i++)
                        sum += x->d[i];
                g->d[gs] += sum;
                g->acc[gs] += sum;
                g->dok |= gbit;
        }
        if (x->hint & bits)
                g->hint |= gbit;
}

/* Add virtual CPU x's slots into guest g. */
static void add_vcpu(struct cp_ent *g, const struct cp_ent *x)
{
#define ADD(gs, first, last, reading) add_sum(g, x, gs, first, last, reading);
        CP_GUEST_SUMS(ADD)
#undef ADD
}

/* Virtual CPU x (elapsed time el) into its guest's sums; false when the guest table cannot grow. */
static bool to_guest(struct cp_state *s, struct cp_ent *x, uint64_t el)
{
        /* The guest's position, kept from the interval before, spares a lookup of the table
         * for every virtual CPU.  Entries are only appended between two changes of gen, and
         * x's name is part of its key, so the position still holds x's guest. */
        struct cp_tab *t = &s->guest;
        struct cp_ent *g;
        if (x->gpos && x->ggen == t->gen && x->gpos <= t->n) {
                g = &t->e[x->gpos - 1];
        } else {
                g = cp_tab_get(t, x->name);
                if (!g)
                        return false;
                x->gpos = (uint32_t)(g - t->e) + 1;
                x->ggen = t->gen;
        }
        if (!g->cur) {
                /* The guest's sums start over each interval, here rather than at the
                 * roll: the entry is at hand now, and the roll writes no more than
                 * an entry's flags. */
                memset(CP_V(g), 0, sizeof(g->val[0]));
                memset(g->d, 0, sizeof(g->d));
                g->have = g->hint = g->id = 0;
                g->cur = true;
                g->prev = true; /* until a virtual CPU lacks a delta */
                g->tod = x->tod;
                g->ptod = x->ptod;
                memcpy(g->name, x->name, sizeof(g->name)); /* the same array */
        }
        g->id++; /* virtual CPUs seen */
        add_vcpu(g, x);
        /* Percentages only when every virtual CPU of the guest has a delta. */
        if (!(x->dok & (1u << A_TT)) || !el)
                g->prev = false;
        return true;
}

/*
 * The virtual CPUs, each once: its deltas, its guest's sums and what the laws
 * need of it (u), while the entry is at hand.  An entry without readings this
 * interval has nothing to give (no delta, no reading to sum).  A virtual CPU
 * has no metrics of its own, so no running sums (acc): its guest keeps them.
 */
static void vcpus(struct zm_engine *e, struct cp_state *s, struct cp_vsums *u)
{
        bool guests = true;
        for (size_t i = 0; i < s->vcpu.n; i++) {
                struct cp_ent *x = &s->vcpu.e[i];
                if (!x->cur)
                        continue;
                uint64_t el = cp_elapsed_us(x);
                if (el) {
                        timer(e, x, A_TT, false, max_us(el), false);
                        timer(e, x, A_VT, false, max_us(el), false);
                }
                ctrs(x, A_PGR, A_VO, 4, false);
                if (guests)
                        guests = to_guest(s, x, el);
                cp_vsum_add(u, x, el);
        }
}

/* The records of one entry per system (cp_state.usr and the like): their counters' deltas,
 * 4-byte counts, which wrap, apart from 8-byte time sums, which do not. */
static void singles(struct cp_state *s)
{
        ctrs(&s->usr, U_MPTCT, U_MPNCT, 4, true);
        ctrs(&s->usr, U_MPTRV, U_MPNTR, 8, true);
        ctrs(&s->sysg, F_FTRDONE, F_FTRDONE, 4, true);
        ctrs(&s->asg, Q_90FUL, Q_90FUL, 4, true);
        ctrs(&s->ssiscs, C_SYCNT, C_SYPRO, 4, true);
        ctrs(&s->ssismi, M_NJONG, M_NSUSP, 4, true);
        ctrs(&s->ssismi, M_TJONG, M_TSUSP, 8, true);
}

static void deltas(struct zm_engine *e, struct cp_state *s, struct cp_vsums *u)
{
        singles(s);
        for (size_t i = 0; i < s->prp.n; i++) {
                struct cp_ent *x = &s->prp.e[i];
                uint64_t el = cp_elapsed_us(x);
                if (!el)
                        continue;
                timer(e, x, P_UT, false, max_us(el), true);
                timer(e, x, P_SYS, false, max_us(el), true);
                /* IBM states PFXPRBTM's direction (down) only from 6.4 on. */
                timer(e, x, P_PRB, true, max_us(el), true);
                timer(e, x, P_WT, false, max_us(el), true);
        }
        for (size_t i = 0; i < s->syp.n; i++)
                ctrs(&s->syp.e[i], Y_DIAG, Y_PIOPW, 4, true);
        vcpus(e, s, u);
        for (size_t i = 0; i < s->dev.n; i++) {
                ctrs(&s->dev.e[i], D_SSCH16, D_SSCH16, 2, true);
                ctrs(&s->dev.e[i], D_SSCHG, D_DAO, 4, true);
        }
        for (size_t i = 0; i < s->nic.n; i++)
                ctrs(&s->nic.e[i], N_TXB, N_RXD, 8, true);
        for (size_t i = 0; i < s->lpar.n; i++) {
                uint64_t el = cp_elapsed_us(&s->lpar.e[i]);
                if (el) {
                        timer(e, &s->lpar.e[i], L_ACT, false, max_us(el), true);
                        timer(e, &s->lpar.e[i], L_LP, false, max_us(el), true);
                }
        }
        for (size_t i = 0; i < s->syp.n; i++) {
                struct cp_ent *x = &s->syp.e[i];
                if (x->dok & (1u << Y_PIOPR))
                        s->paging.acc[Y_PIOPR] += x->d[Y_PIOPR];
                if (x->dok & (1u << Y_PIOPW))
                        s->paging.acc[Y_PIOPW] += x->d[Y_PIOPW];
        }
}

/*
 * Only flags: the readings change banks (CP_V), and a delta counts only with
 * its dok bit, which every reader of d[] asks first.  Copying and clearing
 * the arrays made the roll a pass of writes over every entry of every table.
 */
static void roll_ent(struct cp_ent *x)
{
        x->prev = x->cur;
        x->cur = false;
        x->bank ^= 1; /* this interval's readings become the previous ones */
        x->phave = x->have;
        x->ptod = x->tod;
        x->dok = 0;
}

/* roll_ent for an entry seen this interval (cur), as the table's roll finds most. */
static inline __attribute__((always_inline)) void roll_seen(struct cp_ent *x)
{
        x->prev = true;
        x->cur = false;
        x->bank ^= 1;
        x->phave = x->have;
        x->ptod = x->tod;
        x->dok = 0;
}

/* Entries not seen this interval are dropped (a guest logged off, a device went away). */
static void roll(struct cp_tab *t)
{
        /* Most intervals see every entry: those before the first one not seen stay where
         * they are, with nothing to ask but whether it was seen. */
        size_t o = 0;
        while (o < t->n && t->e[o].cur)
                roll_seen(&t->e[o++]);
        t->next = 0;
        if (o == t->n)
                return;
        for (size_t i = o; i < t->n; i++) {
                if (!t->e[i].cur) {
                        cp_ent_drop(&t->e[i]);
                        continue;
                }
                if (o != i)
                        t->e[o] = t->e[i];
                roll_ent(&t->e[o]);
                o++;
        }
        t->n = o; /* entries were dropped and others moved down */
        cp_tab_reindex(t);
}

void cp_close(struct zm_engine *e, struct cp_state *s)
{
        bool any = s->prp.n || s->syp.n || s->vcpu.n || s->dev.n || s->nic.n || s->lpar.n ||
                   s->rsg.cur || s->storsg.cur || s->usr.cur || s->sysg.cur || s->sxg.cur ||
                   s->asg.cur || s->ssiscs.cur || s->ssismi.cur;
        if (!any)
                return;
        struct cp_vsums u = {0};
        deltas(e, s, &u); /* the guests' sums too */
        cp_laws(e, s, &u);
        cp_emit_all(e, s);
        /* An interval can close twice without a newer record (Interval End after a
         * close forced by a repeated key): publish and roll once per interval.  The
         * test was once "newest TOD ever seen changed", which a set stamped later
         * than the samples after it (a configuration set sent at connect time, a
         * replayed file) froze: no roll after it, so every rate became an average
         * since then. */
        if (!s->taken)
                return;
        s->taken = false;
        struct zd_record r;
        memset(&r, 0, sizeof(r));
        r.tod = s->last_tod;
        s->last_tod = 0;
        zv_emit(s->v, e, &r);
        cp_each(s, roll, roll_ent);
        s->lpar_badnow = false;
}

void cp_close_free(struct cp_state *s)
{
        cp_rows_free(s);
}
