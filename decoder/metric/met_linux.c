/* SPDX-License-Identifier: MIT */
/*
 * Linux guests' own data (domain 10): kernel APPLDATA records (LINUXKRNL
 * MEM, OS, NET_SUM) and the s390-tools monwriter records (mon_fsstatd,
 * mon_procd summary: met_lnxappl.c), turned into the identifiers collectd's own Linux
 * plugins use (memory, swap, vmem, load, cpu, processes, interface, df,
 * uptime, users), so dashboards built for those plugins work unchanged.
 * The host is the guest (scope ZM_GUEST); the time is the guest's own stamp.
 * Every identifier, its source field and unit: doc/plugin.md.
 */
#include <stdlib.h>
#include <string.h>

#include "metric/met_linux.h"

/*
 * A record kind's fields, found by name once per layout (zl_generation tells
 * a layout file loaded since), not again for every record of every guest.
 */
#define LX_MAXF 12

struct lx_fields {
        const struct zl_layout *l;
        size_t gen;
        struct zl_ref f[LX_MAXF]; /* zl_ref: one compare and one load a field */
        /*
         * A record that holds need bytes holds them all: each field is then
         * read without its own compare, its integer (the 8 bytes at base >>
         * shift) & f's mask (a field in the first 8 bytes: the 8 from 0).
         */
        uint32_t need; /* UINT32_MAX when one is missing */
        struct lx_at {
                uint16_t base;
                uint8_t shift;
        } at[LX_MAXF];
};

enum { LX_F_MEM, LX_F_OS, LX_F_CPU, LX_F_NET, LX_F_N };

/* The per-CPU states of an OS record, in the order of its entry's jiffies fields. */
#define LX_NSTATES 8
static const char *const lx_states[LX_NSTATES] = {"user",      "nice",    "system", "idle",
                                                  "interrupt", "softirq", "wait",   "steal"};

/*
 * The kernel records' metrics other than the CPUs', their names as
 * literals in one table and their keys (lit_key) made once from them: a
 * record's values then cost no hashing.
 */
enum {
        LX_MEM_USED,
        LX_MEM_FREE,
        LX_MEM_BUF,
        LX_MEM_CACHED,
        LX_SWAP_USED,
        LX_SWAP_FREE,
        LX_SWAP_IN,
        LX_SWAP_OUT,
        LX_VM_MEM,
        LX_VM_SWAP,
        LX_VM_FLT,
        LX_LOAD,
        LX_RUNNING,
        LX_IF_OCTETS,
        LX_IF_PACKETS,
        LX_IF_ERRORS,
        LX_IF_DROPPED,
        LX_N
};
static const struct lx_name {
        const char *plugin, *pinst, *type, *tinst;
} lx_names[LX_N] = {
    [LX_MEM_USED] = {"memory", "", "memory", "used"},
    [LX_MEM_FREE] = {"memory", "", "memory", "free"},
    [LX_MEM_BUF] = {"memory", "", "memory", "buffered"},
    [LX_MEM_CACHED] = {"memory", "", "memory", "cached"},
    [LX_SWAP_USED] = {"swap", "", "swap", "used"},
    [LX_SWAP_FREE] = {"swap", "", "swap", "free"},
    [LX_SWAP_IN] = {"swap", "", "swap_io", "in"},
    [LX_SWAP_OUT] = {"swap", "", "swap_io", "out"},
    [LX_VM_MEM] = {"vmem", "", "vmpage_io", "memory"},
    [LX_VM_SWAP] = {"vmem", "", "vmpage_io", "swap"},
    /* As collectd's vmem plugin: minflt carries pgfault (all faults), majflt pgmajfault. */
    [LX_VM_FLT] = {"vmem", "", "vmpage_faults", ""},
    [LX_LOAD] = {"load", "", "load", ""},
    [LX_RUNNING] = {"processes", "", "ps_state", "running"},
    [LX_IF_OCTETS] = {"interface", "all", "if_octets", ""},
    [LX_IF_PACKETS] = {"interface", "all", "if_packets", ""},
    [LX_IF_ERRORS] = {"interface", "all", "if_errors", ""},
    [LX_IF_DROPPED] = {"interface", "all", "if_dropped", ""},
};

/*
 * A guest's CPUs times eight states a record, the module's largest part:
 * the names and keys of the first LX_CPUS_NAMED CPU numbers are made once
 * (they are the same for every guest), and the entry's jiffies fields
 * checked against an entry's length once, not a field at a time.
 */
#define LX_CPUS_NAMED 64

struct lx_cpu_name {
        char text[12];            /* up to 4294967295 */
        uint64_t key[LX_NSTATES]; /* lit_pre of cpu/<n>/cpu/<state> with n + 1 (never 0) */
};

struct lx_cpu_plan {
        const struct zl_layout *l; /* made from s->fields[LX_F_CPU] with this layout, generation */
        size_t gen;
        uint32_t need; /* the entry length that holds 8 bytes at every state's base */
        uint8_t n;     /* the states present: */
        struct lx_cpu_read {
                uint8_t j;     /* which (lx_states[]) */
                uint8_t shift; /* its integer is (the 8 bytes at base >> shift) & mask */
                uint16_t base;
                uint64_t mask; /* zl_ref's, and the low 63 bits of a DERIVE */
        } st[LX_NSTATES];
};

struct lx_state {
        struct zd_appl_tracker *fresh;
        struct lx_passes passes; /* this interval's process states (met_lnxappl.c) */
        struct lx_fields fields[LX_F_N];
        uint64_t cpu_key[LX_NSTATES]; /* lit_pre of cpu/<n>/cpu/<state>: a CPU's value adds n */
        struct lx_cpu_name cpu[LX_CPUS_NAMED];
        uint64_t key[LX_N]; /* lx_names[i]'s lit_key */
        struct lx_cpu_plan plan;
};

/* names[0..n) of l, n <= LX_MAXF; an entry reads nothing when l lacks that field. */
static const struct zl_ref *resolve(struct lx_fields *c, const struct zl_layout *l,
                                    const char *const *names, size_t n)
{
        size_t gen = zl_generation();
        if (c->l != l || c->gen != gen) {
                c->l = l;
                c->gen = gen;
                c->need = 0;
                for (size_t i = 0; i < n && i < LX_MAXF; i++) {
                        struct zl_ref r = c->f[i] = zl_ref_make(zl_field(l, names[i]));
                        uint32_t base = r.at >= 8 ? r.at - 8 : 0;
                        c->at[i] = (struct lx_at){(uint16_t)base, (uint8_t)((base + 8 - r.at) * 8)};
                        c->need = r.need > c->need ? r.need : c->need;
                        c->need = base + 8 > c->need ? base + 8 : c->need;
                }
        }
        return c->f;
}

static void lx_destroy(void *state)
{
        struct lx_state *s = state;
        if (!s)
                return;
        zd_appl_tracker_free(s->fresh);
        lx_passes_free(&s->passes);
        free(s);
}

/* CPU id's name (pinst, a buffer: its key has the number it was made of, + 1). */
static void cpu_name(const struct lx_state *s, unsigned id, struct lx_cpu_name *out)
{
        out->text[zm_put_dec(out->text, sizeof(out->text), 0, id)] = '\0';
        for (size_t j = 0; j < LX_NSTATES; j++)
                out->key[j] = zh_step(s->cpu_key[j], (uint64_t)id + 1) | 1;
}

static void *lx_create(struct zm_engine *e)
{
        (void)e;
        struct lx_state *s = calloc(1, sizeof(*s));
        if (s && !(s->fresh = zd_appl_tracker_new())) {
                free(s);
                return NULL;
        }
        for (size_t j = 0; s && j < LX_NSTATES; j++)
                s->cpu_key[j] = lit_pre("cpu", NULL, "cpu", lx_states[j]);
        for (size_t i = 0; s && i < LX_N; i++) {
                const struct lx_name *n = &lx_names[i];
                s->key[i] = lit_key(n->plugin, n->pinst, n->type, n->tinst, 0);
        }
        for (unsigned id = 0; s && id < LX_CPUS_NAMED; id++)
                cpu_name(s, id, &s->cpu[id]);
        return s;
}

/*
 * A DERIVE with one or two data sources (vmpage_io in/out, if_octets rx/tx)
 * and its key: lit_key's, or for a CPU's (pinst a buffer) the key of the
 * literals with the number pinst was made of instead of pinst.
 */
static void derive_keyed(struct lx_out *o, const char *plugin, const char *pinst, const char *type,
                         const char *tinst, uint64_t key, int nv, uint64_t v0, uint64_t v1)
{
        struct zm_metric *m = named(o, plugin, pinst, type, tinst, key);
        /* Kernel counters are u64/u32; DERIVE is int64: keep the low 63 bits, never negative. */
        zm_metric_derive(m, (int64_t)(v0 & INT64_MAX));
        if (nv > 1)
                zm_metric_derive(m, (int64_t)(v1 & INT64_MAX));
        lx_emit(o);
}

/* lx_names[i], its key kept in s. */
static struct zm_metric *named_id(struct lx_out *o, const struct lx_state *s, size_t i)
{
        const struct lx_name *n = &lx_names[i];
        return named(o, n->plugin, n->pinst, n->type, n->tinst, s->key[i]);
}

static void gauge_id(struct lx_out *o, const struct lx_state *s, size_t i, double v)
{
        zm_metric_gauge(named_id(o, s, i), v);
        lx_emit(o);
}

static void derive_id(struct lx_out *o, const struct lx_state *s, size_t i, int nv, uint64_t v0,
                      uint64_t v1)
{
        const struct lx_name *n = &lx_names[i];
        derive_keyed(o, n->plugin, n->pinst, n->type, n->tinst, s->key[i], nv, v0, v1);
}

/* Read named fields of a payload layout; false if any is missing. */
static bool fields(struct lx_fields *c, const struct zl_layout *l, zd_view v,
                   const char *const *names, uint64_t *out, size_t n)
{
        const struct zl_ref *f = resolve(c, l, names, n);
        if (v.n >= c->need) {
                for (size_t i = 0; i < n; i++)
                        out[i] = zd_uN_load8(v.p + c->at[i].base) >> c->at[i].shift & f[i].mask;
                return true;
        }
        for (size_t i = 0; i < n; i++)
                if (!zl_ref_u64(f[i], v, &out[i]))
                        return false;
        return true;
}

/* Kernel MEM record (doc/facts/kernel-drivers.md 4.4): amounts in KB, counters in pages. */
static void lx_mem(struct zm_engine *e, struct lx_state *s, const struct zd_record *r,
                   const struct zd_appl *a, uint64_t tod)
{
        enum { PGIN, PGOUT, SWIN, SWOUT, TOTAL, FREE, BUF, CACHED, STOT, SFREE, FLT, MAJ, N };
        static const char *const names[N] = {"pgpgin",    "pgpgout",  "pswpin",    "pswpout",
                                             "totalram",  "freeram",  "bufferram", "cached",
                                             "totalswap", "freeswap", "pgfault",   "pgmajfault"};
        const struct zl_layout *l = zl_find("LINUXKRNL.MEM", a->data.n);
        uint64_t v[N];
        if (!l || !fields(&s->fields[LX_F_MEM], l, a->data, names, v, N)) {
                lx_bad(e, a, "MEM record shorter than its 144-byte layout");
                return;
        }
        struct lx_out out, *o = &out;
        out_init(o, e, r, a, tod);
        uint64_t nonfree = v[FREE] + v[BUF] + v[CACHED];
        double used = v[TOTAL] > nonfree ? (double)(v[TOTAL] - nonfree) : 0;
        gauge_id(o, s, LX_MEM_USED, used * 1024);
        gauge_id(o, s, LX_MEM_FREE, (double)v[FREE] * 1024);
        gauge_id(o, s, LX_MEM_BUF, (double)v[BUF] * 1024);
        gauge_id(o, s, LX_MEM_CACHED, (double)v[CACHED] * 1024);
        /*
         * As collectd's swap plugin on the guest, without SwapCached (APPLDATA
         * has none): used = total - free, and nothing at all when free exceeds
         * the total (its swap_read_combined returns EINVAL).  No swap: both 0.
         */
        if (v[STOT] >= v[SFREE]) {
                gauge_id(o, s, LX_SWAP_USED, (double)(v[STOT] - v[SFREE]) * 1024);
                gauge_id(o, s, LX_SWAP_FREE, (double)v[SFREE] * 1024);
        }
        derive_id(o, s, LX_SWAP_IN, 1, v[SWIN], 0);
        derive_id(o, s, LX_SWAP_OUT, 1, v[SWOUT], 0);
        derive_id(o, s, LX_VM_MEM, 2, v[PGIN], v[PGOUT]);
        derive_id(o, s, LX_VM_SWAP, 2, v[SWIN], v[SWOUT]);
        derive_id(o, s, LX_VM_FLT, 2, v[FLT], v[MAJ]);
}

/* cpu_id first, then the states in the order of lx_states[] */
static const char *const lx_cpu_fields[1 + LX_NSTATES] = {
    "cpu_id",      "per_cpu_user",    "per_cpu_nice",   "per_cpu_system", "per_cpu_idle",
    "per_cpu_irq", "per_cpu_softirq", "per_cpu_iowait", "per_cpu_steal"};

/* The per-CPU entry's fields (f, from s->fields[LX_F_CPU]) as lx_cpu_plan says. */
static const struct lx_cpu_plan *cpu_plan(struct lx_state *s, const struct zl_layout *entry,
                                          const struct zl_ref **f)
{
        const struct lx_fields *c = &s->fields[LX_F_CPU];
        *f = resolve(&s->fields[LX_F_CPU], entry, lx_cpu_fields, 1 + LX_NSTATES);
        struct lx_cpu_plan *p = &s->plan;
        if (p->l == c->l && p->gen == c->gen)
                return p;
        *p = (struct lx_cpu_plan){.l = c->l, .gen = c->gen};
        for (uint8_t j = 0; j < LX_NSTATES; j++) {
                struct zl_ref r = (*f)[1 + j];
                if (r.need == UINT32_MAX)
                        continue; /* no such field: never read */
                /* a field in the entry's first 8 bytes (per_cpu_user): the 8 from its start */
                uint32_t base = r.at >= 8 ? r.at - 8 : 0;
                p->st[p->n++] = (struct lx_cpu_read){j, (uint8_t)((base + 8 - r.at) * 8),
                                                     (uint16_t)base, r.mask & INT64_MAX};
                p->need = r.need > p->need ? r.need : p->need;
                p->need = base + 8 > p->need ? base + 8 : p->need;
        }
        return p;
}

/* One CPU's states: a DERIVE each, keyed as cpu_name's. */
static void cpu_states(struct lx_out *o, const struct lx_cpu_plan *p, const struct zl_ref *f,
                       zd_view ent, const struct lx_cpu_name *name)
{
        struct zm_metric *m = &o->m;
        m->plugin_instance = name->text;
        if (ent.n >= p->need) {
                for (const struct lx_cpu_read *t = p->st; t < p->st + p->n; t++) {
                        m->type_instance = lx_states[t->j];
                        m->key = name->key[t->j];
                        m->derive[0] =
                            (int64_t)(zd_uN_load8(ent.p + t->base) >> t->shift & t->mask);
                        lx_emit(o);
                }
                return;
        }
        for (size_t j = 0; j < LX_NSTATES; j++) {
                uint64_t jf;
                if (!zl_ref_u64(f[1 + j], ent, &jf))
                        continue;
                m->type_instance = lx_states[j];
                m->key = name->key[j];
                m->derive[0] = (int64_t)(jf & INT64_MAX);
                lx_emit(o);
        }
}

/* The OS record's per-CPU entries: one metric, its names, key and value changed per state. */
static void lx_cpus(struct lx_out *o, struct lx_state *s, zd_view data,
                    const struct zd_lx_cpus *cpus)
{
        const struct zl_ref *f;
        const struct lx_cpu_plan *p = cpu_plan(s, cpus->entry, &f);
        struct zm_metric *m = named(o, "cpu", NULL, "cpu", NULL, 0);
        zm_metric_derive(m, 0);
        for (uint32_t i = 0; i < cpus->n; i++) {
                zd_view ent;
                if (!zd_view_sub(data, cpus->off + i * cpus->step, cpus->step, &ent))
                        break;
                uint64_t id = i;
                (void)zl_ref_u64(f[0], ent, &id); /* mod level 00 has none */
                struct lx_cpu_name made;
                const struct lx_cpu_name *name = &made;
                if ((unsigned)id < LX_CPUS_NAMED)
                        name = &s->cpu[(unsigned)id];
                else
                        cpu_name(s, (unsigned)id, &made);
                cpu_states(o, p, f, ent, name);
        }
}

/*
 * A load average as the guest's /proc/loadavg prints it, and so as
 * collectd's load plugin there has it (getloadavg parses that file):
 * LOAD_INT and LOAD_FRAC, two decimals, of avenrun + FIXED_1/200.  The
 * record carries avenrun with FIXED_1/200 already added (appldata_os.c),
 * so the value is cut to hundredths here, not rounded again.  Divided
 * once, as strtod reads "1.50": the nearest double to the decimal.
 */
static double proc_loadavg(uint32_t v)
{
        uint64_t whole = v >> 11, hundredths = ((uint64_t)(v & 2047) * 100) >> 11;
        return (double)(whole * 100 + hundredths) / 100.0;
}

/* Kernel OS record (6.5): load (avenrun: fixed point, FSHIFT 11), run queue, per-CPU jiffies. */
static void lx_os(struct zm_engine *e, struct lx_state *s, const struct zd_record *r,
                  const struct zd_appl *a, uint64_t tod)
{
        enum { RUN, IOWAIT, AVG1, AVG5, AVG15, N };
        static const char *const hdr[N] = {"nr_running", "nr_iowait", "avenrun_1", "avenrun_5",
                                           "avenrun_15"};
        const struct zl_layout *l = zl_find("LINUXKRNL.OS", a->data.n);
        uint64_t v[N];
        if (!l || !fields(&s->fields[LX_F_OS], l, a->data, hdr, v, N)) {
                lx_bad(e, a, "OS record shorter than its 52-byte header");
                return;
        }
        struct zd_lx_cpus cpus;
        if (zd_lx_os_cpus(a, &cpus) != ZD_E_NONE) {
                lx_bad(e, a,
                       "per-CPU area (nr_cpus, per_cpu_size, cpu_offset) lies outside the record");
                return;
        }

        struct lx_out out, *o = &out;
        out_init(o, e, r, a, tod);
        struct zm_metric *m = named_id(o, s, LX_LOAD);
        for (int i = AVG1; i <= AVG15; i++)
                zm_metric_gauge(m, proc_loadavg((uint32_t)v[i]));
        lx_emit(o);
        gauge_id(o, s, LX_RUNNING, (double)v[RUN]);
        lx_pass_os(&s->passes, a->userid, o->m.tod, v[IOWAIT]); /* blocked: at the end */
        lx_cpus(o, s, a->data, &cpus);
}

/*
 * Kernel NET_SUM record (6.6): sums over every interface of the guest, so
 * plugin_instance is "all" (collectd's interface plugin uses the interface
 * name there; no interface is called "all").
 */
static void lx_net(struct zm_engine *e, struct lx_state *s, const struct zd_record *r,
                   const struct zd_appl *a, uint64_t tod)
{
        enum { RXP, TXP, RXB, TXB, RXE, TXE, RXD, TXD, N };
        static const char *const names[N] = {"rx_packets", "tx_packets", "rx_bytes",
                                             "tx_bytes",   "rx_errors",  "tx_errors",
                                             "rx_dropped", "tx_dropped"};
        const struct zl_layout *l = zl_find("LINUXKRNL.NET", a->data.n);
        uint64_t v[N];
        if (!l || !fields(&s->fields[LX_F_NET], l, a->data, names, v, N)) {
                lx_bad(e, a, "NET_SUM record shorter than its 96-byte layout");
                return;
        }
        struct lx_out out, *o = &out;
        out_init(o, e, r, a, tod);
        derive_id(o, s, LX_IF_OCTETS, 2, v[RXB], v[TXB]);
        derive_id(o, s, LX_IF_PACKETS, 2, v[RXP], v[TXP]);
        derive_id(o, s, LX_IF_ERRORS, 2, v[RXE], v[TXE]);
        derive_id(o, s, LX_IF_DROPPED, 2, v[RXD], v[TXD]);
}

/*
 * A record of the kernel's APPLDATA (LINUXKRNL): MEM, OS or NET_SUM, whole,
 * consistent and not seen before.
 */
static void linuxkrnl(struct zm_engine *e, struct lx_state *s, const struct zd_record *r,
                      const struct zd_appl *a)
{
        uint64_t ts;
        if (!zd_u64(a->data, 0, &ts)) {
                lx_bad(e, a, "shorter than its timestamp");
                return;
        }
        /* sync_count_1 != sync_count_2: CP copied the buffer mid-update. */
        if (!zd_lx_consistent(a->data)) {
                zm_counters_mut(e)->appl_sync++;
                return;
        }
        if (!fresh(e, zd_appl_tracker_check(s->fresh, a, ts)))
                return;
        if (a->recnum == ZD_LX_MEM)
                lx_mem(e, s, r, a, ts);
        else if (a->recnum == ZD_LX_OS)
                lx_os(e, s, r, a, ts);
        else if (a->recnum == ZD_LX_NET)
                lx_net(e, s, r, a, ts);
        else
                zm_counters_mut(e)->appl_unknown++;
}

static void lx_appl(struct zm_engine *e, void *state, const struct zd_record *r,
                    const struct zd_appl *a)
{
        struct lx_state *s = state;
        if (!s)
                return;
        if (a->kind == ZD_APPL_LINUXKRNL)
                linuxkrnl(e, s, r, a);
        else if (a->kind == ZD_APPL_LNXAPPL)
                lx_lnxappl(e, s->fresh, &s->passes, r, a);
        else
                zm_counters_mut(e)->appl_unknown++;
}

static void lx_interval_end(struct zm_engine *e, void *state, const struct zd_record *r)
{
        (void)r;
        struct lx_state *s = state;
        if (s)
                lx_passes_end(e, &s->passes);
}

const struct zm_module zm_mod_linux = {
    .name = "linux",
    .create = lx_create,
    .destroy = lx_destroy,
    .interval_end = lx_interval_end,
    .appl = lx_appl,
};
