/* SPDX-License-Identifier: MIT */
/*
 * CP records of the synthetic system, built by field name through the
 * decoder's layouts (names from IBM's pages, doc/facts/cp-records.md).  Fields
 * the model does not drive get generic plausible values (sim_records.c).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "sim_model.h"

#define BEGIN(dom, rec, keyfmt, ...)                                                               \
        char key[64];                                                                              \
        snprintf(key, sizeof(key), keyfmt, __VA_ARGS__);                                           \
        struct sim_rec R_, *r = sim_emit_begin(s, &R_, dom, rec, key);                             \
        if (r)
#define BEGIN_LEN(dom, rec, extra, keyfmt, ...)                                                    \
        char key[64];                                                                              \
        snprintf(key, sizeof(key), keyfmt, __VA_ARGS__);                                           \
        struct sim_rec R_, *r = sim_emit_begin_len(s, &R_, dom, rec, key, extra);                  \
        if (r)
#define END(dom, rec, kind) sim_emit_end(s, r, dom, rec, key, kind)

static void mtrsys(struct sim_sys *s)
{
        BEGIN(1, 4, "%s", "system")
        {
                sim_set_u(r, "MTRSYS_SYSTODST",
                          s->cfg.start_tod - UINT64_C(86400000000) * 4096 * 3);
                sim_set_t(r, "MTRSYS_SYSTMID", s->cfg.system_id);
                /* The IPL date as CP prints dates, mm/dd/yy. */
                time_t ipl = (time_t)((zd_tod_to_unix_us(s->cfg.start_tod) / 1000000) - 3 * 86400);
                struct tm tm;
                char date[32];
                gmtime_r(&ipl, &tm);
                snprintf(date, sizeof(date), "%02u/%02u/%02u", (unsigned)(tm.tm_mon + 1) % 100,
                         (unsigned)tm.tm_mday % 100, (unsigned)tm.tm_year % 100);
                sim_set_t(r, "MTRSYS_SYSDATE", date);
                sim_set_u(r, "MTRSYS_CPUCFGCT", s->cfg.cpus);
                sim_set_t(r, "MTRSYS_SYSMTYPE", "3931");
                sim_set_t(r, "MTRSYS_LPARNAME", s->cfg.lpars ? s->lpar[0].name : "ZVMSIM");
                sim_set_u(r, "MTRSYS_CPUCOUNT", s->cfg.cpus);
                END(1, 4, 'S');
        }
}

static void mtrspr(struct sim_sys *s)
{
        BEGIN(1, 9, "%s", "sample profile")
        {
                sim_set_u(r, "MTRSPR_INTERVAL", (s->cfg.interval_ms + 999) / 1000);
                sim_set_u(r, "MTRSPR_HFRATE", 100);
                /* The sample domains as a halfword bit vector, X'8000' = domain 0, so that
                 * domains 8-11 (network, ISFC, APPLDATA, SSI) show as the first eight do. */
                uint32_t m = s->cfg.domains;
                uint16_t v = 0;
                for (unsigned d = 0; d < 16; d++)
                        if (m >> d & 1)
                                v |= (uint16_t)(0x8000u >> d);
                sim_set_u(r, "MTRSPR_SDOMAINS", v);
                END(1, 9, 'S');
        }
}

static void mtrprp(struct sim_sys *s, unsigned i)
{
        BEGIN(1, 5, "cpu %u", i)
        {
                sim_set_u(r, "MTRPRP_PFXCPUAD", s->cpu[i].addr);
                END(1, 5, 'S');
        }
}

static void mtrusr(struct sim_sys *s, unsigned i)
{
        BEGIN(1, 15, "user %s", s->guest[i].name)
        {
                sim_set_t(r, "MTRUSR_VMDUSER", s->guest[i].name);
                END(1, 15, 'S');
        }
}

/* sim_cp_fit must know every record written here. */
void sim_cp_config(struct sim_sys *s)
{
        mtrsys(s);
        for (unsigned i = 0; i < s->cfg.cpus; i++)
                mtrprp(s, i);
        mtrspr(s);
        for (unsigned i = 0; i < s->cfg.guests; i++)
                mtrusr(s, i);
        sim_cp_pages_config(s);
        sim_ssi_config(s);
}

static void sytsyp(struct sim_sys *s, const struct m_cpu *p)
{
        BEGIN(0, 1, "cpu %u", p->addr)
        {
                sim_set_u(r, "SYTSYP_PFXCPUAD", p->addr);
                sim_set_u(r, "SYTSYP_PLSDIAGT", p->diag);
                sim_set_u(r, "SYTSYP_PLSPRVIS", p->simins);
                sim_set_u(r, "SYTSYP_PLSEXTNX", p->extint);
                sim_set_u(r, "SYTSYP_PLSCTSS", p->ctss);
                sim_set_u(r, "SYTSYP_PLSCTRS", p->ctrs);
                sim_set_u(r, "SYTSYP_PLSPIOPR", p->pior);
                sim_set_u(r, "SYTSYP_PLSPIOPW", p->piow);
                END(0, 1, 'S');
        }
}

static void sytprp(struct sim_sys *s, const struct m_cpu *p)
{
        BEGIN(0, 2, "cpu %u", p->addr)
        {
                sim_set_u(r, "SYTPRP_PFXCPUAD", p->addr);
                sim_set_u(r, "SYTPRP_PFXPRBTM", p->prbtm);
                sim_set_u(r, "SYTPRP_PFXUTIME", p->utime);
                sim_set_u(r, "SYTPRP_PFXTMSYS", p->tmsys);
                sim_set_u(r, "SYTPRP_PFXTOTWT", p->totwt);
                sim_set_u(r, "SYTPRP_PFXSPINT", p->spint);
                sim_set_u(r, "SYTPRP_PFXSPINC", p->spinc);
                sim_set_u(r, "SYTPRP_PFXRUNCP", p->sie);
                END(0, 2, 'S');
        }
}

static void prcprp(struct sim_sys *s, const struct m_cpu *p)
{
        BEGIN(5, 3, "cpu %u", p->addr)
        {
                sim_set_u(r, "PRCPRP_PFXCPUAD", p->addr);
                END(5, 3, 'S');
        }
}

/* The length of one SYTCUP logical-CPU entry. */
static size_t sytcup_entry_len(const struct zl_layout **el)
{
        size_t elen = 0;
        *el = sim_payload_layout("D0R16.CPU", &elen);
        return *el ? elen : 40;
}

/* SYTCUP: the fixed part, then one entry per logical CPU (found via CALCPUOF/CALCPULN). */
static void sytcup(struct sim_sys *s, const struct m_lpar *l, unsigned i)
{
        size_t flen = 0;
        const struct zl_layout *el;
        size_t elen = sytcup_entry_len(&el);
        (void)sim_cp_layout(0, 16, &flen);
        BEGIN_LEN(0, 16, elen * l->ncpu, "lpar %s", l->name)
        {
                sim_set_t(r, "SYTCUP_LCUPNAME", l->name);
                sim_set_u(r, "SYTCUP_LCUPPNUM", i + 1);
                sim_set_u(r, "SYTCUP_LCUPCPCT", l->ncpu);
                sim_set_u(r, "SYTCUP_CALCPUOF", flen);
                sim_set_u(r, "SYTCUP_CALCPULN", elen);
                sim_set_u(r, "SYTCUP_LCUTCTOD", s->tod);
                for (unsigned j = 0; j < l->ncpu; j++) {
                        struct sim_rec e = {.l = el, .b = {r->b.p + flen + j * elen, elen}};
                        sim_set_u(&e, "SYTCUP_LCUCPUID", j);
                        sim_set_u(&e, "SYTCUP_LCUCWGHT", 100);
                        sim_set_u(&e, "SYTCUP_LCUCACTM", l->dispatch[j]);
                        sim_set_u(&e, "SYTCUP_LCUCLPTM", l->lptime[j]);
                        sim_set_t(&e, "SYTCUP_LCXCPTYP", "IFL");
                }
                END(0, 16, 'S');
        }
}

static void sytrsg(struct sim_sys *s)
{
        BEGIN(0, 3, "%s", "storage")
        {
                sim_set_u(r, "SYTRSG_RSAPGABL", s->pgabl);
                sim_set_u(r, "SYTRSG_RSAAVAIL", s->avail);
                sim_set_u(r, "SYTRSG_RSASAVFR", s->savfr);
                END(0, 3, 'S');
        }
}

static void storsg(struct sim_sys *s)
{
        BEGIN(3, 1, "%s", "storage")
        {
                sim_set_u(r, "STORSG_RSASAVFR", s->savfr + (sim_broken(s, "storage") ? 1000 : 0));
                END(3, 1, 'S');
        }
}

static void sytusr(struct sim_sys *s)
{
        BEGIN(0, 8, "%s", "users")
        {
                sim_set_u(r, "SYTUSR_SYSUSRS", s->cfg.guests);
                sim_set_u(r, "SYTUSR_SRMCDORM", s->cfg.guests / 3);
                /* Virtual-MP users' transactions (sim_activity.c): 32-bit counts that wrap,
                 * times in TOD units. */
                const struct m_activity *a = &s->act;
                sim_set_u(r, "SYTUSR_CALMPTCT", (uint32_t)a->trv_n);
                sim_set_u(r, "SYTUSR_CALMPTRV", a->trv_tod);
                sim_set_u(r, "SYTUSR_CALMPNCT", (uint32_t)a->ntr_n);
                sim_set_u(r, "SYTUSR_CALMPNTR", a->ntr_tod);
                END(0, 8, 'S');
        }
}

/* Zero every field of r that IBM's page does not show: no value nobody has read. */
static void zero_hints(struct sim_rec *r)
{
        for (size_t i = 0; i < r->l->nfields; i++) {
                const struct zl_field *f = &r->l->fields[i];
                if (f->prov != ZL_VERIFIED && (size_t)f->off + f->len <= r->b.cap)
                        memset(r->b.p + f->off, 0, f->len);
        }
}

/* SYTSYG: fast CCW translations (sim_activity.c); the model has no user exits. */
static void sytsyg(struct sim_sys *s)
{
        BEGIN(0, 19, "%s", "system")
        {
                if (r->l)
                        zero_hints(r);
                sim_set_u(r, "SYTSYG_XCTMSACT", 0);
                sim_set_u(r, "SYTSYG_FTRDONE", (uint32_t)s->act.ftr);
                END(0, 19, 'S');
        }
}

static void useact(struct sim_sys *s, const struct m_guest *g, unsigned v)
{
        BEGIN(4, 3, "user %s cpu %u", g->name, v)
        {
                sim_set_t(r, "USEACT_VMDUSER", g->name);
                sim_set_u(r, "USEACT_VMDCPUAD", v);
                sim_set_u(r, "USEACT_VMDSLIST", 0x37);
                sim_set_u(r, "USEACT_VMDTTIME", g->ttime[v]);
                sim_set_u(r, "USEACT_VMDVTIME", g->vtime[v]);
                /* Guest-wide values in the base virtual CPU's record; consumers sum. */
                bool base = v == 0;
                uint64_t res = g->resident;
                if (base && g == s->guest && sim_broken(s, "guest-resident"))
                        res += s->pgabl;
                sim_set_u(r, "USEACT_VMDCTPVR", base ? res : 0);
                sim_set_u(r, "USEACT_VMDWSSPR", base ? g->wss : 0);
                sim_set_u(r, "USEACT_CALCPPGR", base ? g->pgread : 0);
                sim_set_u(r, "USEACT_CALCPPGW", base ? g->pgwrite : 0);
                static const char *const vio[5] = {"USEACT_VMDVCSCT", "USEACT_VMDVDSCT",
                                                   "USEACT_VMDVUSCT", "USEACT_VMDVTSCT",
                                                   "USEACT_VMDVOSCT"};
                for (unsigned k = 0; k < 5; k++)
                        sim_set_u(r, vio[k], base ? g->vio[k] : 0);
                END(4, 3, 'S');
        }
}

static void ioddev(struct sim_sys *s, const struct m_dev *d)
{
        BEGIN(6, 3, "device %04X", d->devno)
        {
                sim_set_u(r, "IODDEV_RDEVDEV", d->devno);
                sim_set_u(r, "IODDEV_RDEVSID", d->sch);
                sim_set_u(r, "IODDEV_SCMSSCH", d->ssch & 0xFFFF);
                sim_set_u(r, "IODDEV_SCGSSCH",
                          d->ssch + (d == s->dev && sim_broken(s, "device-ssch") ? 5 * s->n : 0));
                sim_set_u(r, "IODDEV_SCMCNTIM", d->connect);
                sim_set_u(r, "IODDEV_SCMFPTIM", d->pending);
                sim_set_u(r, "IODDEV_SCMDDTIM", d->disconnect);
                sim_set_u(r, "IODDEV_SCMDATIM", d->daonly);
                END(6, 3, 'S');
        }
}

static void vndses(struct sim_sys *s, const struct m_vnic *v)
{
        const char *owner = s->cfg.guests ? s->guest[v->guest].name : "SYSTEM";
        BEGIN(8, 1, "nic %s %04X", owner, v->addr)
        {
                sim_set_t(r, "VNDSES_OWNER", owner);
                sim_set_u(r, "VNDSES_NICBASE", v->addr);
                sim_set_u(r, "VNDSES_VDEVDEV", v->addr);
                sim_set_u(r, "VNDSES_SESTXERR", v->txd / 2);
                sim_set_u(r, "VNDSES_SESRXERR", v->rxd / 2);
                sim_set_u(r, "VNDSES_SESTXBYT", v->txb);
                sim_set_u(r, "VNDSES_SESRXBYT", v->rxb);
                sim_set_u(r, "VNDSES_SESTXPKT", v->txp);
                sim_set_u(r, "VNDSES_SESRXPKT", v->rxp);
                sim_set_u(r, "VNDSES_SESTXDSC", v->txd);
                sim_set_u(r, "VNDSES_SESRXDSC", v->rxd);
                END(8, 1, 'S');
        }
}

/* sim_cp_fit must know every record written here. */
void sim_cp_sample(struct sim_sys *s)
{
        const struct sim_cfg *c = &s->cfg;
        for (unsigned i = 0; i < c->cpus; i++)
                sytsyp(s, &s->cpu[i]);
        for (unsigned i = 0; i < c->cpus; i++)
                sytprp(s, &s->cpu[i]);
        sytrsg(s);
        sytusr(s);
        storsg(s);
        for (unsigned i = 0; i < c->lpars; i++)
                sytcup(s, &s->lpar[i], i);
        sytsyg(s);
        for (unsigned i = 0; i < c->guests; i++)
                for (unsigned v = 0; v < s->guest[i].vcpus; v++)
                        useact(s, &s->guest[i], v);
        for (unsigned i = 0; i < c->cpus; i++)
                prcprp(s, &s->cpu[i]);
        for (unsigned i = 0; i < c->devices; i++)
                ioddev(s, &s->dev[i]);
        for (unsigned i = 0; i < c->vnics; i++)
                vndses(s, &s->vnic[i]);
        sim_cp_pages_sample(s);
        sim_ssi_sample(s);
}

/* Keep in step with sim_cp_config and sim_cp_sample: a record left out here can overflow the DCSS.
 */
void sim_cp_fit(const struct sim_sys *s, struct sim_fit *config, struct sim_fit *sample)
{
        const struct sim_cfg *c = &s->cfg;
        sim_fit_add(config, sim_cp_rec_len(1, 4, 0), 1);
        sim_fit_add(config, sim_cp_rec_len(1, 5, 0), c->cpus);
        sim_fit_add(config, sim_cp_rec_len(1, 9, 0), 1);
        sim_fit_add(config, sim_cp_rec_len(1, 15, 0), c->guests);
        uint64_t vcpus = 0;
        for (unsigned i = 0; i < c->guests; i++)
                vcpus += s->guest[i].vcpus;
        const struct zl_layout *el;
        size_t elen = sytcup_entry_len(&el);
        sim_fit_add(sample, sim_cp_rec_len(0, 1, 0), c->cpus);
        sim_fit_add(sample, sim_cp_rec_len(0, 2, 0), c->cpus);
        sim_fit_add(sample, sim_cp_rec_len(0, 3, 0), 1);
        sim_fit_add(sample, sim_cp_rec_len(0, 8, 0), 1);
        sim_fit_add(sample, sim_cp_rec_len(3, 1, 0), 1);
        for (unsigned i = 0; i < c->lpars; i++)
                sim_fit_add(sample, sim_cp_rec_len(0, 16, elen * s->lpar[i].ncpu), 1);
        sim_fit_add(sample, sim_cp_rec_len(0, 19, 0), 1);
        sim_fit_add(sample, sim_cp_rec_len(4, 3, 0), vcpus);
        sim_fit_add(sample, sim_cp_rec_len(5, 3, 0), c->cpus);
        sim_fit_add(sample, sim_cp_rec_len(6, 3, 0), c->devices);
        sim_fit_add(sample, sim_cp_rec_len(8, 1, 0), c->vnics);
        sim_cp_pages_fit(s, config, sample);
        sim_ssi_fit(s, config, sample);
}
