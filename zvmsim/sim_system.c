/* SPDX-License-Identifier: MIT */
/*
 * The synthetic system: processors, guests (some of them Linux guests running
 * APPLDATA and the s390-tools writers), devices, virtual NICs, LPARs, built
 * from the seed, freed, and asked for their state.  How they move from one
 * interval to the next is sim_interval.c; what they must fit (real storage,
 * the DCSS) is sim_sizing.c; the data sets they are written in, sim_sets.c.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_model.h"

/* An 8-character name: PREFIX and a number, as many digits as fit (LINUX001, USER0042). */
void sim_name8(char out[9], const char *prefix, unsigned n)
{
        char tmp[32];
        size_t p = strlen(prefix), digits = 8 - p;
        snprintf(tmp, sizeof(tmp), "%s%0*u", prefix, (int)(digits < 3 ? digits : 3), n);
        if (strlen(tmp) > 8)
                snprintf(tmp, sizeof(tmp), "%c%07u", prefix[0], n % 10000000);
        memcpy(out, tmp, 8);
        out[8] = '\0';
}

/* --condition's names, in SIM_COND_* order. */
static const char *const conditions[] = {
    "cpu-busy", "guest-steal", "guest-iowait", "paging-high", "storage-short", "device-slow", NULL};

const char *const *sim_condition_names(void)
{
        return conditions;
}

bool sim_parse_conditions(const char *list, uint32_t *mask)
{
        char buf[256];
        uint32_t m = 0;
        if (strlen(list) >= sizeof(buf))
                return false;
        snprintf(buf, sizeof(buf), "%s", list);
        for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                unsigned i = 0;
                while (conditions[i] && strcmp(conditions[i], t) != 0)
                        i++;
                if (strcmp(t, "all") == 0)
                        m |= (1u << SIM_NCONDS) - 1;
                else if (!conditions[i])
                        return false;
                else
                        m |= 1u << i;
        }
        *mask |= m;
        return m != 0;
}

static void init_cpus(struct sim_sys *s)
{
        s->cpu = sim_xcalloc(s->cfg.cpus, sizeof(*s->cpu));
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
                sim_name8(out, "LINUX", i + 1);
        else if (i - linux_guests < 4)
                snprintf(out, 9, "%s", service[i - linux_guests]);
        else
                sim_name8(out, "USER", i - linux_guests - 3);
}

static void init_guests(struct sim_sys *s)
{
        const struct sim_cfg *c = &s->cfg;
        s->guest = sim_xcalloc(c->guests, sizeof(*s->guest));
        s->linux = sim_xcalloc(c->linux_guests, sizeof(*s->linux));
        for (unsigned i = 0; i < c->guests; i++) {
                struct m_guest *g = &s->guest[i];
                bool lx = i < c->linux_guests;
                guest_name(g->name, i, c->linux_guests);
                g->vcpus = lx ? 1 + (unsigned)sim_rng_below(&s->rng, 4) : 1;
                g->weight = 1 + (uint32_t)sim_rng_below(&s->rng, lx ? 400 : 60);
                g->ttime = sim_xcalloc(g->vcpus, sizeof(uint64_t));
                g->vtime = sim_xcalloc(g->vcpus, sizeof(uint64_t));
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
        s->dev = sim_xcalloc(c->devices, sizeof(*s->dev));
        for (unsigned i = 0; i < c->devices; i++) {
                s->dev[i].devno = 0x0100 + i;
                s->dev[i].sch = 0x0001 + i;
        }
        s->vnic = sim_xcalloc(c->vnics, sizeof(*s->vnic));
        for (unsigned i = 0; i < c->vnics; i++) {
                s->vnic[i].guest = c->guests ? i % c->guests : 0;
                s->vnic[i].addr = 0x0600 + 3 * (i / (c->guests ? c->guests : 1));
        }
}

static void init_lpars(struct sim_sys *s)
{
        s->lpar = sim_xcalloc(s->cfg.lpars, sizeof(*s->lpar));
        for (unsigned i = 0; i < s->cfg.lpars; i++) {
                struct m_lpar *l = &s->lpar[i];
                sim_name8(l->name, "LPAR", i + 1);
                l->ncpu = i == 0 ? s->cfg.cpus : 2 + (unsigned)sim_rng_below(&s->rng, 8);
                l->busy = 0.3;
                l->dispatch = sim_xcalloc(l->ncpu, sizeof(uint64_t));
                l->lptime = sim_xcalloc(l->ncpu, sizeof(uint64_t));
        }
}

struct sim_sys *sim_sys_new(const struct sim_cfg *c, struct sim_truth *truth)
{
        struct sim_sys *s = sim_xcalloc(1, sizeof(*s));
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
        sim_real_storage(s);
        s->savfr = 300 + sim_rng_below(&s->rng, 200);
        init_io(s);
        init_lpars(s);
        sim_activity_init(s); /* its own sequence (sim_activity.c) */
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
