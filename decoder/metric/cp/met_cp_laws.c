/* SPDX-License-Identifier: MIT */
/*
 * The conservation laws, evaluated once per interval over the deltas that
 * closing the interval left in each entry (cp_ent.d).  Each law sets one
 * verdict (met_verify.h); the rule in words is in met_verify.c and
 * doc/metrics-cp.md.
 *
 * Tolerances: sums must agree within CP_TOL_REL of the verified side plus
 * a small absolute slack, because the records of one interval are built at
 * slightly different instants.
 *
 * A law holds only when every part of its rule was checked: when the
 * verified side is missing (records lost from the interval) there is nothing
 * to prove the hint fields against, and the verdict is "no data", never
 * "held" (a law once held "4000 devices, 991215 SSCH/RSCH of 0 executed").
 */
#include <stdio.h>
#include <string.h>

#include "metric/cp/met_cp_laws.h"

/*
 * A sum of counters for a held law's reason, shown as "%llu": every law's
 * reason is made every interval, and vsnprintf makes "%.0f" of a double
 * the long way.  The sums are of unsigned deltas, never negative; one past
 * 2^64 (hostile counters) is shown as its limit, not converted out of
 * range.
 */
static unsigned long long whole(double x)
{
        if (!(x > 0))
                return 0;
        return x < 18446744073709549568.0 ? (unsigned long long)(x + 0.5) : ~0ULL;
}

static bool near(double a, double b, double slack)
{
        double diff = a > b ? a - b : b - a;
        return diff <= CP_TOL_REL * (b > a ? b : a) + slack;
}

struct sums {
        size_t nsim; /* CPUs with simulation and diagnose deltas */
        double sim;
        size_t ncpu; /* CPUs with user and system deltas */
        double ut, sys, prb;
        size_t nprb;
        size_t nsyp; /* CPUs with SSCH deltas */
        double ssch;
        size_t npio;
        double pior, piow;
};

static void cpu_sums(const struct cp_state *s, struct sums *t)
{
        for (size_t i = 0; i < s->prp.n; i++) {
                const struct cp_ent *x = &s->prp.e[i];
                if (!HAS(x, P_UT) || !HAS(x, P_SYS))
                        continue;
                t->ncpu++;
                t->ut += (double)x->d[P_UT];
                t->sys += (double)x->d[P_SYS];
                if (HAS(x, P_PRB)) {
                        t->nprb++;
                        t->prb += (double)x->d[P_PRB];
                }
        }
        for (size_t i = 0; i < s->syp.n; i++) {
                const struct cp_ent *x = &s->syp.e[i];
                if (HAS(x, Y_SS) && HAS(x, Y_RS)) {
                        t->nsyp++;
                        t->ssch += (double)(x->d[Y_SS] + x->d[Y_RS]);
                }
                if (HAS(x, Y_PRVIS) && HAS(x, Y_DIAG)) {
                        t->nsim++;
                        t->sim += (double)(x->d[Y_PRVIS] + x->d[Y_DIAG]);
                }
                if (HAS(x, Y_PIOPR) && HAS(x, Y_PIOPW)) {
                        t->npio++;
                        t->pior += (double)x->d[Y_PIOPR];
                        t->piow += (double)x->d[Y_PIOPW];
                }
        }
}

static void law_cpu_wait(struct zm_engine *e, struct cp_state *s)
{
        size_t n = 0;
        for (size_t i = 0; i < s->prp.n; i++) {
                const struct cp_ent *x = &s->prp.e[i];
                if (!HAS(x, P_UT) || !HAS(x, P_SYS) || !HAS(x, P_WT))
                        continue;
                double el = (double)cp_elapsed_us(x);
                double sum = (double)(x->d[P_UT] + x->d[P_SYS] + x->d[P_WT]);
                if (!near(sum, el, CP_SLACK_US)) {
                        zv_verdict(s->v, e, ZV_CPU_WAIT, ZV_FAIL,
                                   "CPU %u: user %llu + system %llu + wait %llu us = %.0f us, but "
                                   "%.0f us elapsed",
                                   x->id, (unsigned long long)x->d[P_UT],
                                   (unsigned long long)x->d[P_SYS], (unsigned long long)x->d[P_WT],
                                   sum, el);
                        return;
                }
                n++;
        }
        if (!n)
                zv_verdict(s->v, e, ZV_CPU_WAIT, ZV_NODATA, "no CPU with two SYTPRP readings");
        else
                zv_verdict(s->v, e, ZV_CPU_WAIT, ZV_HOLD, "%zu CPUs account for their elapsed time",
                           n);
}

static void law_guest_cpu(struct zm_engine *e, struct cp_state *s, const struct sums *t,
                          const struct cp_vsums *u)
{
        double tt = u->tt, vt = u->vt;
        size_t ntt = u->ntt, nvt = u->nvt;
        const struct cp_ent *over = u->over, *longer = u->longer;
        double slack = CP_SLACK_US * (double)(t->ncpu ? t->ncpu : 1);
        if (longer)
                zv_verdict(s->v, e, ZV_GUEST_CPU, ZV_FAIL,
                           "%s: %llu us of CPU time in %llu us elapsed", longer->key,
                           (unsigned long long)longer->d[A_TT],
                           (unsigned long long)cp_elapsed_us(longer));
        else if (!ntt || !t->ncpu || t->ut < slack)
                zv_verdict(s->v, e, ZV_GUEST_CPU, ZV_NODATA,
                           "no guest CPU deltas or no user CPU time this interval");
        else if (near(tt, t->ut, slack))
                zv_verdict(s->v, e, ZV_GUEST_CPU, ZV_HOLD,
                           "guests %llu us = users' CPU time %llu us on %zu CPUs", whole(tt),
                           whole(t->ut), t->ncpu);
        else
                zv_verdict(s->v, e, ZV_GUEST_CPU, ZV_FAIL,
                           "sum of guest VMDTTIME deltas %.0f us, but SYTPRP PFXUTIME says %.0f us",
                           tt, t->ut);
        if (over)
                zv_verdict(s->v, e, ZV_GUEST_VCPU, ZV_FAIL,
                           "%s: virtual CPU time %llu us exceeds its total %llu us", over->key,
                           (unsigned long long)over->d[A_VT], (unsigned long long)over->d[A_TT]);
        else if (!nvt || !t->nprb || t->prb < slack)
                zv_verdict(s->v, e, ZV_GUEST_VCPU, ZV_NODATA,
                           "no guest virtual CPU deltas or no emulation time this interval");
        else if (near(vt, t->prb, slack))
                zv_verdict(s->v, e, ZV_GUEST_VCPU, ZV_HOLD,
                           "guests %llu us = emulation time %llu us", whole(vt), whole(t->prb));
        else
                zv_verdict(s->v, e, ZV_GUEST_VCPU, ZV_FAIL,
                           "sum of guest VMDVTIME deltas %.0f us, but SYTPRP PFXPRBTM says %.0f us",
                           vt, t->prb);
}

static void law_paging(struct zm_engine *e, struct cp_state *s, const struct sums *t,
                       const struct cp_vsums *u)
{
        double r = u->pgr, w = u->pgw;
        size_t n = u->npg;
        if (!n || !t->npio || t->pior + t->piow == 0)
                zv_verdict(s->v, e, ZV_PAGING, ZV_NODATA, "no paging this interval");
        else if (near(r, t->pior, CP_SLACK_PG) && near(w, t->piow, CP_SLACK_PG))
                zv_verdict(s->v, e, ZV_PAGING, ZV_HOLD,
                           "guests read %llu / wrote %llu pages, "
                           "system paging %llu / %llu",
                           whole(r), whole(w), whole(t->pior), whole(t->piow));
        else
                zv_verdict(s->v, e, ZV_PAGING, ZV_FAIL,
                           "guest page reads/writes %.0f/%.0f, but SYTSYP paging I/O %.0f/%.0f", r,
                           w, t->pior, t->piow);
}

static bool law_storage(struct zm_engine *e, struct cp_state *s)
{
        const struct cp_ent *g = &s->rsg, *o = &s->storsg;
        uint32_t need = (1u << R_AVAIL) | (1u << R_PGABL) | (1u << R_SAVFR);
        if (!g->cur || !o->cur || (g->have & need) != need || !(o->have & (1u << S_SAVFR))) {
                zv_verdict(s->v, e, ZV_STORAGE, ZV_NODATA,
                           "SYTRSG or STORSG missing this interval");
                return false;
        }
        double a = (double)CP_V(g)[R_SAVFR], b = (double)CP_V(o)[S_SAVFR];
        double diff = a > b ? a - b : b - a;
        if (diff > 2 + 0.01 * b) {
                zv_verdict(s->v, e, ZV_STORAGE, ZV_FAIL,
                           "SYTRSG_RSASAVFR %.0f frames, but STORSG_RSASAVFR (verified) %.0f", a,
                           b);
                return false;
        }
        if (CP_V(g)[R_PGABL] == 0 || CP_V(g)[R_AVAIL] > CP_V(g)[R_PGABL]) {
                zv_verdict(s->v, e, ZV_STORAGE, ZV_FAIL,
                           "available frames %llu not within pageable frames %llu",
                           (unsigned long long)CP_V(g)[R_AVAIL],
                           (unsigned long long)CP_V(g)[R_PGABL]);
                return false;
        }
        zv_verdict(s->v, e, ZV_STORAGE, ZV_HOLD, "save-area frames agree (%llu)", whole(b));
        return true;
}

static void law_resident(struct zm_engine *e, struct cp_state *s, bool storage_ok,
                         const struct cp_vsums *u)
{
        double res = u->res;
        size_t n = u->nres;
        double used = (double)CP_V(&s->rsg)[R_PGABL] - (double)CP_V(&s->rsg)[R_AVAIL];
        if (!storage_ok || !n || res == 0)
                zv_verdict(s->v, e, ZV_GUEST_RESIDENT, ZV_NODATA,
                           "storage law not kept or no resident pages this interval");
        else if (res <= used * (1 + CP_TOL_REL) + 16)
                zv_verdict(s->v, e, ZV_GUEST_RESIDENT, ZV_HOLD,
                           "guests' resident %llu pages within %llu frames in use", whole(res),
                           whole(used));
        else
                zv_verdict(s->v, e, ZV_GUEST_RESIDENT, ZV_FAIL,
                           "guests' resident pages %.0f exceed the %.0f frames in use", res, used);
}

static void law_lpar(struct zm_engine *e, struct cp_state *s, const struct sums *t)
{
        if (s->lpar_badnow) {
                zv_verdict(s->v, e, ZV_LPAR, ZV_FAIL, "SYTCUP CPU entries do not fit their record");
                return;
        }
        /* Per partition sums; entries of one partition are adjacent in the table. */
        double best = -1, sum = 0, total = 0;
        size_t n = 0;
        const char *part = NULL;
        for (size_t i = 0; i <= s->lpar.n; i++) {
                const struct cp_ent *x = i < s->lpar.n ? &s->lpar.e[i] : NULL;
                if (!x || !part || strcmp(x->name, part) != 0) {
                        if (part && sum > best)
                                best = sum;
                        sum = 0;
                        part = x ? x->name : NULL;
                }
                if (!x || !HAS(x, L_ACT))
                        continue;
                double el = (double)cp_elapsed_us(x);
                if ((double)x->d[L_ACT] > el * (1 + CP_TOL_REL) + CP_SLACK_US) {
                        zv_verdict(s->v, e, ZV_LPAR, ZV_FAIL,
                                   "%s: logical CPU dispatched %llu us in %.0f us elapsed", x->key,
                                   (unsigned long long)x->d[L_ACT], el);
                        return;
                }
                /* LCUCACTM includes LPAR management, LCUCLPTM excludes it (DIAG
                 * X'204' acc_time / lp_time): 0 <= management <= dispatch. */
                if (HAS(x, L_LP) && x->d[L_LP] > x->d[L_ACT]) {
                        zv_verdict(s->v, e, ZV_LPAR, ZV_FAIL,
                                   "%s: time without LPAR management %llu us exceeds the "
                                   "dispatch time %llu us that includes it",
                                   x->key, (unsigned long long)x->d[L_LP],
                                   (unsigned long long)x->d[L_ACT]);
                        return;
                }
                sum += (double)x->d[L_ACT];
                total += (double)x->d[L_ACT];
                n++;
        }
        double busy = t->ut + t->sys;
        if (!n || total == 0)
                zv_verdict(s->v, e, ZV_LPAR, ZV_NODATA,
                           "no logical CPU dispatch time this interval");
        else if (!t->ncpu)
                zv_verdict(s->v, e, ZV_LPAR, ZV_NODATA,
                           "%zu logical CPUs dispatched, but no SYTPRP busy time to compare the "
                           "partitions with",
                           n);
        else if (best < busy * (1 - CP_TOL_REL) - CP_SLACK_US * (double)t->ncpu)
                zv_verdict(s->v, e, ZV_LPAR, ZV_FAIL,
                           "no partition was dispatched as long as z/VM's CPUs were busy "
                           "(%.0f us < %.0f us)",
                           best, busy);
        else
                zv_verdict(s->v, e, ZV_LPAR, ZV_HOLD,
                           "%zu logical CPUs within elapsed time, busiest partition %llu us", n,
                           whole(best));
}

static void law_devices(struct zm_engine *e, struct cp_state *s, const struct sums *t)
{
        double g = 0;
        size_t n = 0;
        for (size_t i = 0; i < s->dev.n; i++) {
                const struct cp_ent *x = &s->dev.e[i];
                if (!HAS(x, D_SSCH16) || !HAS(x, D_SSCHG))
                        continue;
                if (((x->d[D_SSCHG] - x->d[D_SSCH16]) & 0xFFFF) != 0) {
                        zv_verdict(s->v, e, ZV_DEVICE_SSCH, ZV_FAIL,
                                   "device %04X: 16-bit SSCH count moved %llu, 32-bit count %llu",
                                   x->id, (unsigned long long)x->d[D_SSCH16],
                                   (unsigned long long)x->d[D_SSCHG]);
                        return;
                }
                g += (double)x->d[D_SSCHG];
                n++;
        }
        if (!n || g == 0)
                zv_verdict(s->v, e, ZV_DEVICE_SSCH, ZV_NODATA, "no device I/O this interval");
        else if (!t->nsyp)
                zv_verdict(s->v, e, ZV_DEVICE_SSCH, ZV_NODATA,
                           "%zu devices report %.0f SSCH/RSCH, but no SYTSYP count of executed "
                           "SSCH/RSCH to compare them with",
                           n, g);
        else if (g > t->ssch * (1 + CP_TOL_REL) + 10)
                zv_verdict(s->v, e, ZV_DEVICE_SSCH, ZV_FAIL,
                           "devices report %.0f SSCH/RSCH, but the CPUs executed only %.0f", g,
                           t->ssch);
        else
                zv_verdict(s->v, e, ZV_DEVICE_SSCH, ZV_HOLD,
                           "%zu devices, %llu SSCH/RSCH of %llu executed", n, whole(g),
                           whole(t->ssch));
}

/*
 * The channel measurement block counts times in units of 128 us (Linux
 * cmf.c); that CP hands them on unconverted is the hint this law proves.  A
 * subchannel runs one start function at a time, so its service time
 * (pending + connect + disconnect + device-active-only, IBM mon730
 * MRIODDEV) cannot exceed the elapsed time: read in the wrong unit or from
 * the wrong place, busy devices overrun it.  A device with at least
 * DEV_MIN_SSCH I/Os must also average at most DEV_MAX_PER_SSCH_US of
 * connect + pending + disconnect per SSCH (milliseconds for DASD; a few
 * long tape operations among many short ones average out).
 */
#define DEV_UNIT_US         128.0
#define DEV_MIN_SSCH        10
#define DEV_MAX_PER_SSCH_US 1e6

static void law_device_time(struct zm_engine *e, struct cp_state *s)
{
        size_t n = 0;
        double ios = 0, svc = 0;
        for (size_t i = 0; i < s->dev.n; i++) {
                const struct cp_ent *x = &s->dev.e[i];
                if (!HAS(x, D_SSCHG) || !HAS(x, D_CONN) || !HAS(x, D_PEND) || !HAS(x, D_DISC))
                        continue;
                double cpd = (double)(x->d[D_CONN] + x->d[D_PEND] + x->d[D_DISC]) * DEV_UNIT_US;
                double busy = cpd + (HAS(x, D_DAO) ? (double)x->d[D_DAO] * DEV_UNIT_US : 0);
                double el = (double)cp_elapsed_us(x), ssch = (double)x->d[D_SSCHG];
                const double exposures = 1; /* one start function per subchannel */
                if (busy > el * exposures * (1 + CP_TOL_REL) + CP_SLACK_US) {
                        zv_verdict(s->v, e, ZV_DEVICE_TIME, ZV_FAIL,
                                   "device %04X: service time %.0f us (in 128 us units) in %.0f "
                                   "us elapsed",
                                   x->id, busy, el);
                        return;
                }
                if (ssch >= DEV_MIN_SSCH && cpd / ssch > DEV_MAX_PER_SSCH_US) {
                        zv_verdict(s->v, e, ZV_DEVICE_TIME, ZV_FAIL,
                                   "device %04X: %.0f us connect + pending + disconnect per "
                                   "SSCH over %.0f SSCH",
                                   x->id, cpd / ssch, ssch);
                        return;
                }
                ios += ssch;
                svc += busy;
                n++;
        }
        if (!n || ios == 0 || svc == 0)
                zv_verdict(s->v, e, ZV_DEVICE_TIME, ZV_NODATA, "no timed device I/O this interval");
        else
                zv_verdict(s->v, e, ZV_DEVICE_TIME, ZV_HOLD,
                           "%zu devices within their elapsed time, %llu us service for %llu SSCH",
                           n, whole(svc), whole(ios));
}

static bool frame_ok(uint64_t bytes, uint64_t pkts)
{
        if (pkts == 0)
                return bytes == 0;
        return bytes >= 14 * pkts && bytes <= 65535 * pkts;
}

static void law_vnic(struct zm_engine *e, struct cp_state *s)
{
        uint64_t pk = 0;
        size_t n = 0;
        for (size_t i = 0; i < s->nic.n; i++) {
                const struct cp_ent *x = &s->nic.e[i];
                if ((x->dok & 0xFFu) != 0xFFu)
                        continue;
                if (!frame_ok(x->d[N_TXB], x->d[N_TXP]) || !frame_ok(x->d[N_RXB], x->d[N_RXP])) {
                        zv_verdict(s->v, e, ZV_VNIC, ZV_FAIL,
                                   "NIC %s: %llu bytes in %llu packets out, %llu bytes in %llu "
                                   "packets in",
                                   x->key, (unsigned long long)x->d[N_TXB],
                                   (unsigned long long)x->d[N_TXP], (unsigned long long)x->d[N_RXB],
                                   (unsigned long long)x->d[N_RXP]);
                        return;
                }
                pk += x->d[N_TXP] + x->d[N_RXP];
                n++;
        }
        if (!n || pk == 0)
                zv_verdict(s->v, e, ZV_VNIC, ZV_NODATA, "no NIC traffic this interval");
        else
                zv_verdict(s->v, e, ZV_VNIC, ZV_HOLD, "%zu NICs, %llu packets of plausible size", n,
                           (unsigned long long)pk);
}

/*
 * Without I/O assist (it served V=R/V=F guests, which current z/VM levels
 * no longer support: reasoning, not an IBM page) CP intercepts every virtual
 * I/O as a simulated instruction or a DIAGNOSE, so the guests' virtual I/O
 * cannot exceed those verified counts.  If assist is in use the law fails
 * and the metric stays off.  A bound only: it catches a misplaced field,
 * which reads as wild deltas, not a subtle one.
 */
static void law_guest_vio(struct zm_engine *e, struct cp_state *s, const struct sums *t)
{
        double vio = 0;
        size_t n = 0;
        for (size_t i = 0; i < s->guest.n; i++) {
                const struct cp_ent *g = &s->guest.e[i];
                if (g->cur && HAS(g, G_VIO)) {
                        vio += (double)g->d[G_VIO];
                        n++;
                }
        }
        if (!n || vio == 0 || !t->nsim)
                zv_verdict(s->v, e, ZV_GUEST_VIO, ZV_NODATA, "no virtual I/O this interval");
        else if (vio <= t->sim * (1 + CP_TOL_REL) + 10)
                zv_verdict(s->v, e, ZV_GUEST_VIO, ZV_HOLD,
                           "guests' %llu virtual I/Os within %llu simulated instructions and "
                           "diagnoses",
                           whole(vio), whole(t->sim));
        else
                zv_verdict(s->v, e, ZV_GUEST_VIO, ZV_FAIL,
                           "guests report %.0f virtual I/Os, but CP simulated only %.0f "
                           "instructions and diagnoses",
                           vio, t->sim);
}

void cp_laws(struct zm_engine *e, struct cp_state *s, const struct cp_vsums *u)
{
        struct sums t = {0};
        cpu_sums(s, &t);
        law_cpu_wait(e, s);
        law_guest_cpu(e, s, &t, u);
        law_paging(e, s, &t, u);
        law_resident(e, s, law_storage(e, s), u);
        law_lpar(e, s, &t);
        law_devices(e, s, &t);
        law_device_time(e, s);
        law_vnic(e, s);
        law_guest_vio(e, s, &t);
}
