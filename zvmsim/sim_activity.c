/* SPDX-License-Identifier: MIT */
/*
 * System-wide activity the records of CP count besides the guests' own
 * counters: the transactions of virtual-MP users (SYTUSR), the fast CCW
 * translations CP did for DASD I/O (SYTSYG) and, with --ssi, the SSI
 * member's synchronizations and the time it spent in each state (domain
 * 11).  Separate from the interval model (sim_interval.c), which calls it
 * once per interval with the I/O its devices started, because these numbers
 * draw from a sequence of their own: the system a seed gave before they
 * existed stays byte for byte the same in every other field.
 *
 * The choices (rates, response times) are the model's, picked to look like
 * a busy Linux-on-Z system in Performance Toolkit, not claims about CP.
 */
#include "sim_model.h"

/* Transactions per second of one virtual-MP user, at a processor load of one half. */
#define TRIVIAL_PER_S    20.0
#define NONTRIVIAL_PER_S 2.0
/* Mean response times, drawn per interval in [LO, HI] microseconds. */
#define TRIVIAL_US_LO    50000u
#define TRIVIAL_US_HI    300000u
#define NONTRIVIAL_US_LO 500000u
#define NONTRIVIAL_US_HI 3000000u
/* SSI synchronizations per second, and the members that answer each one. */
#define SSI_SYNC_PER_S    0.2
#define SSI_OTHER_MEMBERS 1u
/* The system was IPLed three days before the first data (D1R4 MTRSYS_SYSTODST). */
#define UPTIME_US (UINT64_C(3) * 86400 * 1000000)

/* A count with mean lambda: lambda x [0.5, 1.5), its fraction rounded up at random. */
static uint64_t draw(struct sim_rng *r, double lambda)
{
        double x = lambda * (0.5 + sim_rng_unit(r));
        uint64_t n = (uint64_t)x;
        return n + (sim_rng_unit(r) < x - (double)n);
}

/* lo..hi inclusive. */
static uint64_t between(struct sim_rng *r, uint64_t lo, uint64_t hi)
{
        return lo + sim_rng_below(r, hi - lo + 1);
}

void sim_activity_init(struct sim_sys *s)
{
        struct m_activity *a = &s->act;
        a->rng.s = sim_hash2(s->cfg.seed, UINT64_C(0x6163746976697479)); /* "activity" */
        for (unsigned i = 0; i < s->cfg.guests; i++)
                a->mp_users += s->guest[i].vcpus > 1;
        /* Joined at IPL after a few seconds of joining; joined ever since. */
        a->joining_us = between(&a->rng, 1500000, 4000000);
        a->joined_us = UPTIME_US - a->joining_us;
}

/* The processors' mean busy fraction: the guests' activity. */
static double load(const struct sim_sys *s)
{
        double b = 0;
        for (unsigned i = 0; i < s->cfg.cpus; i++)
                b += s->cpu[i].busy;
        return s->cfg.cpus ? b / s->cfg.cpus : 0;
}

/* n transactions of a mean response time in [lo, hi] us: the count and TOD units (us << 12). */
static void transactions(struct sim_rng *r, double lambda, unsigned lo, unsigned hi,
                         uint64_t *count, uint64_t *tod)
{
        uint64_t n = draw(r, lambda), mean_us = between(r, lo, hi);
        *count += n;
        *tod += n * mean_us * ZD_TOD_PER_US;
}

void sim_activity_advance(struct sim_sys *s, uint64_t ssch)
{
        struct m_activity *a = &s->act;
        double secs = s->cfg.interval_ms / 1000.0;
        double busy = load(s) / 0.5 * secs * a->mp_users;
        transactions(&a->rng, TRIVIAL_PER_S * busy, TRIVIAL_US_LO, TRIVIAL_US_HI, &a->trv_n,
                     &a->trv_tod);
        transactions(&a->rng, NONTRIVIAL_PER_S * busy, NONTRIVIAL_US_LO, NONTRIVIAL_US_HI,
                     &a->ntr_n, &a->ntr_tod);
        /* Most DASD I/O goes through fast CCW translation; never more than was started. */
        a->ftr += (uint64_t)((double)ssch * (0.6 + 0.3 * sim_rng_unit(&a->rng)));
        uint64_t sync = draw(&a->rng, SSI_SYNC_PER_S * secs);
        a->sync += sync;
        a->proceed += sync * SSI_OTHER_MEMBERS;
        a->joined_us += s->dt / ZD_TOD_PER_US;
}
