/* SPDX-License-Identifier: MIT */
/*
 * CP records whose layouts come from IBM's pages alone (the layout sweep,
 * doc/records.md), written where the synthetic system can fill every field
 * those pages show consistently with the rest of the stream.  Each record
 * has its layout's length; bytes past the declared fields stay zero, as
 * nobody has read what CP puts there.  Records of things the model does not
 * have (CPU pools MTRCPC, PCI functions IODPAC, ISFC end points ISFISA) are
 * not written: a record of a pool or a link that does not exist would be
 * inconsistent with every other record.  doc/zvmsim.md lists which records
 * are written and why the others are not.
 */
#include <stdio.h>

#include "sim_model.h"

#define BEGIN(dom, rec, name)                                                                      \
        const char *key = name;                                                                    \
        struct sim_rec R_, *r = sim_emit_begin(s, &R_, dom, rec, key);                             \
        if (r)
#define END(dom, rec, kind) sim_emit_end(s, r, dom, rec, key, kind)

/*
 * The system execution space (SYTSXG, STOSXG): a synthetic size of 2 GB in
 * 4 KB pages (the model's choice, not a claim about CP's).  The model has
 * no CP address spaces of its own; the pages CP
 * uses there follow from the guests it keeps control blocks for, so the
 * three values stay in step with the configuration and with each other
 * (available plus in use equals the size).
 */
#define SXS_PAGES     (UINT64_C(2) << 30 >> 12)
#define SXS_CP_PAGES  16384u /* CP's own, with no guest logged on */
#define SXS_PER_GUEST 4u

static uint64_t sxs_used(const struct sim_sys *s)
{
        uint64_t used = SXS_CP_PAGES + (uint64_t)s->cfg.guests * SXS_PER_GUEST;
        return used < SXS_PAGES / 2 ? used : SXS_PAGES / 2;
}

/*
 * MTRMEM_RSASTORE: real storage in bytes, a fullword on IBM's page.  The
 * model keeps CP's frames among the pageable ones (sim_sizing.c), so the
 * storage is RSAPGABL's frames.  A system past 4 GB cannot be stated in the
 * fullword and IBM's page does not say what CP writes then: zero, unknown,
 * rather than a value nobody has read.
 */
static uint64_t storage_bytes(const struct sim_sys *s)
{
        uint64_t bytes = s->pgabl * 4096;
        return bytes <= UINT32_MAX ? bytes : 0;
}

static void mtrmem(struct sim_sys *s)
{
        BEGIN(1, 7, "memory")
        {
                sim_set_u(r, "MTRMEM_RSASTORE", storage_bytes(s));
                END(1, 7, 'S');
        }
}

/* The simulated system's interactive bias intensity: a synthetic value, not a claim about CP's
 * default. */
#define SRM_IABIAS_INTENSITY 90

static void mtrsch(struct sim_sys *s)
{
        BEGIN(1, 16, "scheduler")
        {
                sim_set_u(r, "MTRSCH_SRMBIASI", SRM_IABIAS_INTENSITY);
                END(1, 16, 'S');
        }
}

/*
 * MTRSRV: the service structure starts where the record's fixed part ends
 * and is empty: the synthetic CP has no service applied, and what a line
 * of it holds is past what IBM's page shows.  The line length is the one
 * the page gives.
 */
#define SRV_LINE_LEN 20

static void mtrsrv(struct sim_sys *s)
{
        size_t len = 0;
        (void)sim_cp_layout(1, 31, &len);
        BEGIN(1, 31, "service")
        {
                sim_set_u(r, "MTRSRV_SRVOFF", len);
                sim_set_u(r, "MTRSRV_SRVLEN", 0);
                sim_set_u(r, "MTRSRV_LNELEN", SRV_LINE_LEN);
                END(1, 31, 'S');
        }
}

void sim_cp_pages_config(struct sim_sys *s)
{
        mtrmem(s);
        mtrsch(s);
        mtrsrv(s);
}

/* The simulated paging space never fills: no 90 % full condition. */
static void sytasg(struct sim_sys *s)
{
        BEGIN(0, 6, "auxiliary storage")
        {
                sim_set_u(r, "SYTASG_CAL90FUL", 0);
                END(0, 6, 'S');
        }
}

static void sytsxg(struct sim_sys *s)
{
        BEGIN(0, 21, "execution space")
        {
                sim_set_u(r, "SYTSXG_SXSSIZE", SXS_PAGES);
                sim_set_u(r, "SYTSXG_RSASXAVL", SXS_PAGES - sxs_used(s));
                END(0, 21, 'S');
        }
}

static void stosxg(struct sim_sys *s)
{
        BEGIN(3, 19, "execution space")
        {
                sim_set_u(r, "STOSXG_RSASXUOT", sxs_used(s));
                END(3, 19, 'S');
        }
}

/*
 * STOAZN, its head only: the zone entries' layout is past what IBM's page
 * let read, so the record says it holds none, at the end of the head, and
 * that storage was never reconfigured (the model has no SET STORAGE).
 */
static void stoazn(struct sim_sys *s)
{
        size_t len = 0;
        (void)sim_cp_layout(3, 25, &len);
        BEGIN(3, 25, "zones")
        {
                sim_set_u(r, "STOAZN_RSAMCHNG", 0);
                sim_set_u(r, "STOAZN_NUMZONES_RECORD", 0);
                sim_set_u(r, "STOAZN_CALENTSZ", 0);
                sim_set_u(r, "STOAZN_CALENTDSP", len);
                END(3, 25, 'S');
        }
}

/*
 * SYTRSP, per processor: free storage is never extended in the model (its
 * frames are all pageable ones, sim_sizing.c), so no frames were taken for
 * that condition.
 */
static void sytrsp(struct sim_sys *s, const struct m_cpu *p)
{
        char id[16];
        snprintf(id, sizeof(id), "cpu %u", p->addr);
        BEGIN(0, 4, id)
        {
                sim_set_u(r, "SYTRSP_PFXCPUAD", p->addr);
                sim_set_u(r, "SYTRSP_PLSSTLFR", 0);
                END(0, 4, 'S');
        }
}

/* SYTCUG: the partitions the model has, whose SYTCUP records follow; none without them. */
static void sytcug(struct sim_sys *s)
{
        if (!s->cfg.lpars)
                return;
        BEGIN(0, 15, "partitions")
        {
                sim_set_u(r, "SYTCUG_LCUTNPAR", s->cfg.lpars);
                END(0, 15, 'S');
        }
}

/* STORSP, per processor: past the address IBM's page shows only reserved words. */
static void storsp(struct sim_sys *s, const struct m_cpu *p)
{
        char id[16];
        snprintf(id, sizeof(id), "cpu %u", p->addr);
        BEGIN(3, 2, id)
        {
                sim_set_u(r, "STORSP_PFXCPUAD", p->addr);
                END(3, 2, 'S');
        }
}

void sim_cp_pages_sample(struct sim_sys *s)
{
        for (unsigned i = 0; i < s->cfg.cpus; i++)
                sytrsp(s, &s->cpu[i]);
        sytasg(s);
        sytcug(s);
        sytsxg(s);
        for (unsigned i = 0; i < s->cfg.cpus; i++)
                storsp(s, &s->cpu[i]);
        stosxg(s);
        stoazn(s);
}

void sim_cp_pages_fit(const struct sim_sys *s, struct sim_fit *config, struct sim_fit *sample)
{
        sim_fit_add(config, sim_cp_rec_len(1, 7, 0), 1);
        sim_fit_add(config, sim_cp_rec_len(1, 16, 0), 1);
        sim_fit_add(config, sim_cp_rec_len(1, 31, 0), 1);
        sim_fit_add(sample, sim_cp_rec_len(0, 4, 0), s->cfg.cpus);
        if (s->cfg.lpars)
                sim_fit_add(sample, sim_cp_rec_len(0, 15, 0), 1);
        sim_fit_add(sample, sim_cp_rec_len(3, 2, 0), s->cfg.cpus);
        sim_fit_add(sample, sim_cp_rec_len(0, 6, 0), 1);
        sim_fit_add(sample, sim_cp_rec_len(0, 21, 0), 1);
        sim_fit_add(sample, sim_cp_rec_len(3, 19, 0), 1);
        sim_fit_add(sample, sim_cp_rec_len(3, 25, 0), 1);
}
