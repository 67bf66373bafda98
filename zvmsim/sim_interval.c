/* SPDX-License-Identifier: MIT */
/*
 * The interval model: how one interval's numbers evolve.  Each interval the
 * model advances by the nominal interval, so values depend only on the seed
 * and the interval number, never on wall-clock jitter.  Separate from the
 * records so that the arithmetic the conservation laws check, and the ways
 * --break-law breaks them, are in one place.
 *
 * CPU accounting is consistent by construction: the user time each processor
 * accumulated in an interval (SYTPRP_PFXUTIME) is handed out, to the TOD
 * unit, to the guests' virtual CPUs (USEACT_VMDTTIME); the emulation part
 * (PFXPRBTM, counting down) equals the sum of the virtual times (VMDVTIME).
 */
#include <stdlib.h>
#include <string.h>

#include "sim_model.h"

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
        /* --condition cpu-busy: the same walk, squeezed into 93-98 %. */
        double b = sim_cond(s, SIM_COND_CPU_BUSY) ? 0.93 + 0.05 * p->busy : p->busy;
        uint64_t busy = (uint64_t)(b * (double)s->dt);
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
        uint32_t *w = sim_xcalloc(*nv, sizeof(*w));
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

/* What a virtual CPU of guest g can run in an interval, in quanta: the interval, less the
 * steal and I/O wait its Linux shows by --condition. */
static uint64_t vcpu_cap(const struct sim_sys *s, const struct m_guest *g)
{
        unsigned pct = 100;
        if (g->lx >= 0)
                pct -=
                    sim_lx_steal_pct(s, &s->linux[g->lx]) + sim_lx_iowait_pct(s, &s->linux[g->lx]);
        return s->dt / QUANTUM * pct / 100;
}

/*
 * No virtual CPU runs longer than it can (vcpu_cap): what the weights gave
 * beyond that goes to the others by their weights, so that the guests' sum
 * stays the processors' user time (the guest-cpu law).  Only a system with
 * more user time than its virtual CPUs can take keeps an excess.
 */
static void cap_shares(struct sim_sys *s, const uint32_t *w, uint64_t *share, size_t nv)
{
        uint64_t *cap = sim_xcalloc(nv, sizeof(*cap)), *more = sim_xcalloc(nv, sizeof(*more));
        uint32_t *room = sim_xcalloc(nv, sizeof(*room));
        size_t k = 0;
        for (unsigned i = 0; i < s->cfg.guests; i++)
                for (unsigned v = 0; v < s->guest[i].vcpus; v++)
                        cap[k++] = vcpu_cap(s, &s->guest[i]);
        for (size_t round = 0; round < nv + 2; round++) {
                uint64_t excess = 0, wroom = 0;
                for (size_t j = 0; j < nv; j++) {
                        if (share[j] > cap[j]) {
                                excess += share[j] - cap[j];
                                share[j] = cap[j];
                        }
                        room[j] = share[j] < cap[j] ? w[j] : 0;
                        wroom += room[j];
                }
                if (!excess)
                        break;
                split(excess, wroom ? room : w, nv, more);
                for (size_t j = 0; j < nv; j++)
                        share[j] += more[j];
                if (!wroom)
                        break;
        }
        free(cap);
        free(more);
        free(room);
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
        /* --condition paging-high: the last guest pages 2000 pages/s in, 1000 out. */
        if (sim_cond(s, SIM_COND_PAGING) && g == &s->guest[s->cfg.guests - 1]) {
                pr += (uint64_t)s->cfg.interval_ms * 2;
                pw += s->cfg.interval_ms;
        }
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
        uint64_t *share = sim_xcalloc(nv, sizeof(*share));
        /* Hand the user time to the guests' virtual CPUs. */
        split(t->user_q, w, nv, share);
        cap_shares(s, w, share, nv);
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

/*
 * --condition storage-short: the last guest grows (or shrinks) until 1/32 of
 * the pageable frames (3.1 %) are left available; its resident pages stay
 * among the frames in use, as the guest-resident law wants.
 */
static uint64_t fill_storage(struct sim_sys *s, uint64_t used)
{
        struct m_guest *g = &s->guest[s->cfg.guests - 1];
        uint64_t want = s->pgabl - s->pgabl / 32;
        if (used < want) {
                g->resident += want - used;
                used = want;
        } else {
                uint64_t d = used - want, can = g->resident - SIM_MIN_RESIDENT;
                d = d < can ? d : can;
                g->resident -= d;
                used -= d;
        }
        g->wss = g->resident * 9 / 10;
        return used;
}

/* Real storage: the guests' resident pages plus CP's own are in use. */
static void account_storage(struct sim_sys *s, uint64_t used)
{
        used += 50000;
        if (s->pgabl < used + 10000)
                s->pgabl = used + 10000;
        if (sim_cond(s, SIM_COND_STORAGE) && s->cfg.guests)
                used = fill_storage(s, used);
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
        /* At most 5 ms (39 units) of service per SSCH, as a healthy disk answers: a
         * device with a few SSCH in a long interval is not busy for seconds per I/O
         * (the device-time law's bound), nor, with 50 ms, slow by the shipped
         * ZvmDeviceSlow alert (20 ms) on every device of a 60 s interval. */
        if (busy > n * 39)
                busy = n * 39;
        uint64_t pend = busy / 10, disc = busy / 4, dao = busy / 20;
        /* --condition device-slow: the last device does 20 SSCH/s, each 40 ms of connect,
         * pending and disconnect time (most of it disconnected: the device itself is
         * slow), 82 % busy with device-active-only time. */
        if (sim_cond(s, SIM_COND_DEVICE_SLOW) && i == s->cfg.devices - 1) {
                t->ssch -= n;
                d->ssch -= n;
                n = s->cfg.interval_ms / 50 ? s->cfg.interval_ms / 50 : 1;
                t->ssch += n;
                d->ssch += n;
                busy = n * 320, pend = n * 31, disc = n * 219, dao = n * 8;
        }
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
void sim_sys_advance(struct sim_sys *s)
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
        sim_activity_advance(s, t.ssch); /* a sequence of its own: nothing above moves */
}
