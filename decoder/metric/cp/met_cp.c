/* SPDX-License-Identifier: MIT */
/*
 * The CP metric module: takes CP sample records (SYTPRP, SYTSYP, SYTRSG,
 * SYTUSR, SYTCUP, STORSG, USEACT, IODDEV, VNDSES) into snapshot tables
 * (met_cp_tab.h) and closes an interval on Interval End.  Fields are read by
 * name through the layout chosen by record length, so a LayoutFile can
 * correct an offset without touching this code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"
#include "metric/cp/met_cp_close.h"
#include "metric/met_module.h"
#include "base/tod.h"

/* Read a numeric field by name; false if the layout lacks it or the record is too short. */
static bool read_field(const struct zl_layout *l, zd_view rec, const char *name, uint64_t *out,
                       const struct zl_field **fp)
{
        struct zl_value v;
        if (!l || !zl_get(l, rec, name, &v) || !v.present)
                return false;
        *out = v.u;
        if (fp)
                *fp = v.f;
        return true;
}

/*
 * A name for an identifier (userid, NIC owner, partition): CP names are
 * A-Z 0-9 @ # $ and a few more; anything else (a misplaced field, hostile
 * bytes) becomes '_' so that it can never inject '/' or blanks into a
 * collectd identifier.
 */
static void read_name(const struct zl_layout *l, zd_view rec, const char *name, char *out,
                      size_t outsz)
{
        struct zl_value v;
        out[0] = '\0';
        if (!l || !zl_get(l, rec, name, &v) || !v.present)
                return;
        zl_text(&v, out, outsz);
        for (char *p = out; *p; p++) {
                unsigned char c = (unsigned char)*p;
                if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                      c == '@' || c == '#' || c == '$' || c == '_' || c == '-' || c == '.'))
                        *p = '_';
        }
}

/* Take one field into slot i.  UNCERTAIN fields never feed a metric. */
static void take_slot(struct cp_ent *x, int i, const struct zl_layout *l, zd_view rec,
                      const char *name)
{
        const struct zl_field *f = NULL;
        uint64_t u;
        uint32_t bit = 1u << i;
        if (!read_field(l, rec, name, &u, &f) || f->prov == ZL_UNCERTAIN)
                return;
        x->v[i] = u;
        x->have |= bit;
        x->down = f->type == ZL_TIMERD ? x->down | bit : x->down & ~bit;
        x->hint = f->prov == ZL_HINT ? x->hint | bit : x->hint & ~bit;
}

/*
 * The entry for key in t, ready for this interval's readings.  A second
 * record for an entry already filled means the Interval End was lost (or
 * the source has none): close the interval first.
 */
static struct cp_ent *interval_entry(struct zm_engine *e, struct cp_state *s, struct cp_tab *t,
                                     const char *key, uint64_t tod)
{
        struct cp_ent *x = cp_tab_get(t, key);
        if (x && x->cur) {
                cp_close(e, s);
                x = cp_tab_get(t, key);
        }
        if (!x)
                return NULL;
        x->cur = true;
        x->tod = tod;
        x->have = 0;
        return x;
}

static struct cp_ent *single_entry(struct zm_engine *e, struct cp_state *s, struct cp_ent *x,
                                   uint64_t tod)
{
        if (x->cur)
                cp_close(e, s);
        x->cur = true;
        x->tod = tod;
        x->have = 0;
        return x;
}

static void on_sytprp(struct zm_engine *e, struct cp_state *s, const struct zd_record *r,
                      const struct zl_layout *l)
{
        uint64_t cpu;
        char key[16];
        if (!read_field(l, r->rec, "SYTPRP_PFXCPUAD", &cpu, NULL))
                return;
        snprintf(key, sizeof(key), "cpu%u", (unsigned)cpu);
        struct cp_ent *x = interval_entry(e, s, &s->prp, key, r->tod);
        if (!x)
                return;
        x->id = (uint32_t)cpu;
        take_slot(x, P_UT, l, r->rec, "SYTPRP_PFXUTIME");
        take_slot(x, P_SYS, l, r->rec, "SYTPRP_PFXTMSYS");
        take_slot(x, P_PRB, l, r->rec, "SYTPRP_PFXPRBTM");
        take_slot(x, P_WT, l, r->rec, "SYTPRP_PFXTOTWT");
}

static void on_sytsyp(struct zm_engine *e, struct cp_state *s, const struct zd_record *r,
                      const struct zl_layout *l)
{
        uint64_t cpu;
        char key[16];
        if (!read_field(l, r->rec, "SYTSYP_PFXCPUAD", &cpu, NULL))
                return;
        snprintf(key, sizeof(key), "cpu%u", (unsigned)cpu);
        struct cp_ent *x = interval_entry(e, s, &s->syp, key, r->tod);
        if (!x)
                return;
        x->id = (uint32_t)cpu;
        take_slot(x, Y_DIAG, l, r->rec, "SYTSYP_PLSDIAGT");
        take_slot(x, Y_PRVIS, l, r->rec, "SYTSYP_PLSPRVIS");
        take_slot(x, Y_SS, l, r->rec, "SYTSYP_PLSCTSS");
        take_slot(x, Y_RS, l, r->rec, "SYTSYP_PLSCTRS");
        take_slot(x, Y_PIOPR, l, r->rec, "SYTSYP_PLSPIOPR");
        take_slot(x, Y_PIOPW, l, r->rec, "SYTSYP_PLSPIOPW");
}

static void on_useact(struct zm_engine *e, struct cp_state *s, const struct zd_record *r,
                      const struct zl_layout *l)
{
        char user[17], key[40];
        uint64_t vcpu;
        read_name(l, r->rec, "USEACT_VMDUSER", user, sizeof(user));
        if (!user[0] || !read_field(l, r->rec, "USEACT_VMDCPUAD", &vcpu, NULL))
                return;
        zm_note_guest(e, user);
        snprintf(key, sizeof(key), "%s/%u", user, (unsigned)vcpu);
        struct cp_ent *x = interval_entry(e, s, &s->vcpu, key, r->tod);
        if (!x)
                return;
        snprintf(x->name, sizeof(x->name), "%s", user);
        x->id = (uint32_t)vcpu;
        take_slot(x, A_TT, l, r->rec, "USEACT_VMDTTIME");
        take_slot(x, A_VT, l, r->rec, "USEACT_VMDVTIME");
        take_slot(x, A_RES, l, r->rec, "USEACT_VMDCTPVR");
        take_slot(x, A_PGR, l, r->rec, "USEACT_CALCPPGR");
        take_slot(x, A_PGW, l, r->rec, "USEACT_CALCPPGW");
        take_slot(x, A_VC, l, r->rec, "USEACT_VMDVCSCT");
        take_slot(x, A_VD, l, r->rec, "USEACT_VMDVDSCT");
        take_slot(x, A_VU, l, r->rec, "USEACT_VMDVUSCT");
        take_slot(x, A_VTP, l, r->rec, "USEACT_VMDVTSCT");
        take_slot(x, A_VO, l, r->rec, "USEACT_VMDVOSCT");
}

static void on_ioddev(struct zm_engine *e, struct cp_state *s, const struct zd_record *r,
                      const struct zl_layout *l)
{
        uint64_t dev;
        char key[16];
        if (!read_field(l, r->rec, "IODDEV_RDEVDEV", &dev, NULL))
                return;
        snprintf(key, sizeof(key), "%04X", (unsigned)dev);
        struct cp_ent *x = interval_entry(e, s, &s->dev, key, r->tod);
        if (!x)
                return;
        x->id = (uint32_t)dev;
        take_slot(x, D_SSCH16, l, r->rec, "IODDEV_SCMSSCH");
        take_slot(x, D_SSCHG, l, r->rec, "IODDEV_SCGSSCH");
        take_slot(x, D_CONN, l, r->rec, "IODDEV_SCMCNTIM");
        take_slot(x, D_PEND, l, r->rec, "IODDEV_SCMFPTIM");
        take_slot(x, D_DISC, l, r->rec, "IODDEV_SCMDDTIM");
        take_slot(x, D_DAO, l, r->rec, "IODDEV_SCMDATIM");
}

static void on_vndses(struct zm_engine *e, struct cp_state *s, const struct zd_record *r,
                      const struct zl_layout *l)
{
        char owner[17], key[40];
        uint64_t dev;
        read_name(l, r->rec, "VNDSES_OWNER", owner, sizeof(owner));
        if (!owner[0] || !read_field(l, r->rec, "VNDSES_VDEVDEV", &dev, NULL))
                return;
        snprintf(key, sizeof(key), "%s-%04X", owner, (unsigned)dev);
        struct cp_ent *x = interval_entry(e, s, &s->nic, key, r->tod);
        if (!x)
                return;
        snprintf(x->name, sizeof(x->name), "%s", owner);
        x->id = (uint32_t)dev;
        static const char *const f[] = {"VNDSES_SESTXBYT", "VNDSES_SESRXBYT", "VNDSES_SESTXPKT",
                                        "VNDSES_SESRXPKT", "VNDSES_SESTXERR", "VNDSES_SESRXERR",
                                        "VNDSES_SESTXDSC", "VNDSES_SESRXDSC"};
        for (int i = 0; i <= N_RXD; i++)
                take_slot(x, i, l, r->rec, f[i]);
}

/*
 * SYTCUP: the per-CPU entries are found through CALCPUOF / CALCPULN, as IBM
 * says they must be.  Both are HINT offsets themselves, so a record whose
 * entries do not fit is counted and breaks the lpar law for the interval.
 */
static void on_sytcup(struct zm_engine *e, struct cp_state *s, const struct zd_record *r,
                      const struct zl_layout *l)
{
        char part[17];
        struct zl_value of, ln;
        uint64_t n;
        read_name(l, r->rec, "SYTCUP_LCUPNAME", part, sizeof(part));
        if (!zl_get(l, r->rec, "SYTCUP_CALCPUOF", &of) || !of.present ||
            !zl_get(l, r->rec, "SYTCUP_CALCPULN", &ln) || !ln.present ||
            !read_field(l, r->rec, "SYTCUP_LCUPCPCT", &n, NULL))
                return;
        if (!part[0] || of.s < 20 || ln.s < 14 || (uint64_t)of.s + n * (uint64_t)ln.s > r->rec.n) {
                s->lpar_bad++;
                s->lpar_badnow = true;
                /* every record of every interval may be bad: log the 1st, 2nd, 4th, 8th ... */
                if ((s->lpar_bad & (s->lpar_bad - 1)) == 0)
                        zm_log(e, ZM_LOG_WARNING,
                               "SYTCUP entries do not fit: CALCPUOF %lld, CALCPULN %lld, "
                               "%llu entries, record length %zu (%llu such records)",
                               (long long)of.s, (long long)ln.s, (unsigned long long)n, r->rec.n,
                               (unsigned long long)s->lpar_bad);
                return;
        }
        for (uint64_t i = 0; i < n; i++) {
                zd_view ent;
                if (!zd_view_sub(r->rec, (size_t)of.s + (size_t)(i * (uint64_t)ln.s), (size_t)ln.s,
                                 &ent))
                        return;
                const struct zl_layout *el = zl_find("D0R16.CPU", ent.n);
                if (!el)
                        el = zl_find("D0R16.CPU",
                                     4096); /* a shorter entry still has its first fields */
                uint64_t id;
                char key[40];
                if (!read_field(el, ent, "SYTCUP_LCUCPUID", &id, NULL))
                        return;
                snprintf(key, sizeof(key), "%s/%u", part, (unsigned)id);
                struct cp_ent *x = interval_entry(e, s, &s->lpar, key, r->tod);
                if (!x)
                        return;
                snprintf(x->name, sizeof(x->name), "%s", part);
                x->id = (uint32_t)id;
                take_slot(x, L_ACT, el, ent, "SYTCUP_LCUCACTM");
                take_slot(x, L_LP, el, ent, "SYTCUP_LCUCLPTM");
        }
}

static void on_sytrsg(struct zm_engine *e, struct cp_state *s, const struct zd_record *r,
                      const struct zl_layout *l)
{
        struct cp_ent *x = single_entry(e, s, &s->rsg, r->tod);
        take_slot(x, R_AVAIL, l, r->rec, "SYTRSG_RSAAVAIL");
        take_slot(x, R_PGABL, l, r->rec, "SYTRSG_RSAPGABL");
        take_slot(x, R_SAVFR, l, r->rec, "SYTRSG_RSASAVFR");
}

static void on_storsg(struct zm_engine *e, struct cp_state *s, const struct zd_record *r,
                      const struct zl_layout *l)
{
        struct cp_ent *x = single_entry(e, s, &s->storsg, r->tod);
        take_slot(x, S_SAVFR, l, r->rec, "STORSG_RSASAVFR");
}

static void on_sytusr(struct zm_engine *e, struct cp_state *s, const struct zd_record *r,
                      const struct zl_layout *l)
{
        struct cp_ent *x = single_entry(e, s, &s->usr, r->tod);
        take_slot(x, U_USERS, l, r->rec, "SYTUSR_SYSUSRS");
        take_slot(x, U_DORM, l, r->rec, "SYTUSR_SRMCDORM");
}

static void *cp_create(struct zm_engine *e)
{
        (void)e;
        struct cp_state *s = calloc(1, sizeof(*s));
        if (!s)
                return NULL;
        s->v = zv_new();
        if (!s->v) {
                free(s);
                return NULL;
        }
        return s;
}

static void cp_destroy(void *state)
{
        struct cp_state *s = state;
        if (!s)
                return;
        cp_tab_free(&s->prp);
        cp_tab_free(&s->syp);
        cp_tab_free(&s->vcpu);
        cp_tab_free(&s->guest);
        cp_tab_free(&s->dev);
        cp_tab_free(&s->nic);
        cp_tab_free(&s->lpar);
        zv_free(s->v);
        free(s);
}

/* The sample records this module reads, and the handler that takes each into its table. */
static const struct {
        uint8_t domain;
        uint16_t record;
        void (*take)(struct zm_engine *e, struct cp_state *s, const struct zd_record *r,
                     const struct zl_layout *l);
} handlers[] = {
    {0, 1, on_sytsyp}, {0, 2, on_sytprp}, {0, 3, on_sytrsg}, {0, 8, on_sytusr}, {0, 16, on_sytcup},
    {3, 1, on_storsg}, {4, 3, on_useact}, {6, 3, on_ioddev}, {8, 1, on_vndses},
};

static void cp_record(struct zm_engine *e, void *state, const struct zd_record *r)
{
        struct cp_state *s = state;
        if (!s || r->kind == 'E')
                return;
        const struct zl_layout *l =
            zl_find_cp_reading(r->domain, r->number, r->rec.n, zm_engine_reading(e));
        if (!l)
                return;
        if (r->tod > s->last_tod)
                s->last_tod = r->tod;
        s->taken = true;
        for (size_t i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++)
                if (handlers[i].domain == r->domain && handlers[i].record == r->number) {
                        handlers[i].take(e, s, r, l);
                        return;
                }
}

static void cp_interval_end(struct zm_engine *e, void *state, const struct zd_record *r)
{
        struct cp_state *s = state;
        if (!s)
                return;
        if (r && r->tod > s->last_tod)
                s->last_tod = r->tod;
        cp_close(e, s);
}

const struct zm_module zm_mod_cp = {"cp", cp_create, cp_destroy, cp_record, cp_interval_end};

const struct zv_law_status *zm_law_at(const struct zm_engine *e, size_t i)
{
        const struct cp_state *s = zm_engine_state(e, "cp");
        return s && i < ZV_NLAWS ? zv_status(s->v, (enum zv_law)i) : NULL;
}

const struct zv_law_status *zm_law_status(const struct zm_engine *e, const char *name)
{
        const struct zv_law_status *st;
        for (size_t i = 0; (st = zm_law_at(e, i)) != NULL; i++)
                if (strcmp(st->name, name) == 0)
                        return st;
        return NULL;
}
