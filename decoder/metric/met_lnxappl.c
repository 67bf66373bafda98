/* SPDX-License-Identifier: MIT */
/*
 * The s390-tools monwriter summaries of a Linux guest (LNXAPPL, domain 10):
 * mon_fsstatd's file systems as collectd's df plugin names them, and
 * mon_procd's uptime, users and task states, their fields read through
 * the payload layouts (lay_lnxappl.c); and a guest's process states of
 * each interval, sent at its end.  Part of the Linux module (met_linux.c),
 * which hands these records over; the per-process aggregation is
 * met_procd.c's.  Every identifier, its source field and unit:
 * doc/plugin.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/tod.h"
#include "metric/met_linux.h"

/* A gauge with a name from a buffer: no key, the engine hashes the names. */
static void gauge_named(struct lx_out *o, const char *plugin, const char *pinst, const char *type,
                        const char *tinst, double v)
{
        struct zm_metric *m = named(o, plugin, pinst, type, tinst, 0);
        zm_metric_gauge(m, v);
        lx_emit(o);
}

/* collectd's df plugin names a mount point: "/" is "root", else slashes become dashes. */
static void df_instance(const uint8_t *dir, size_t n, char *out, size_t outsz)
{
        if (n == 1 && dir[0] == '/') {
                snprintf(out, outsz, "root");
                return;
        }
        size_t o = 0;
        for (size_t i = dir[0] == '/' ? 1 : 0; i < n && o + 1 < outsz; i++) {
                uint8_t c = dir[i];
                out[o++] = c == '/' ? '-' : (c > 0x20 && c < 0x7F ? (char)c : '_');
        }
        out[o] = 0;
}

/*
 * The integers of fields names[0..n) of the layout id chooses for data (or,
 * for data shorter than any of its levels, of its newest: the fields that
 * lie inside still read); false if one is missing or outside.  By name, so
 * that a LayoutFile that moves a field moves what the metric reads.
 */
static bool lnx_fields(const char *id, zd_view data, const char *const *names, uint64_t *v,
                       size_t n)
{
        const struct zl_layout *l = zl_find(id, data.n);
        if (!l && !(l = zl_find(id, SIZE_MAX)))
                return false;
        for (size_t i = 0; i < n; i++)
                if (!zl_get_u64(l, data, names[i], &v[i]))
                        return false;
        return true;
}

/*
 * mon_fsstatd (applid 1, record 0; doc/facts/s390-tools.md 2): three
 * length-prefixed strings (device, mount point, type), then statvfs
 * (LNXAPPL.1.0.FS).  Same arithmetic as collectd's df plugin: used =
 * (blocks - bfree) * frsize, free = bavail * frsize, reserved = (bfree -
 * bavail) * frsize.
 */
static void lnx_fs(struct zm_engine *e, const struct zd_record *r, const struct zd_appl *a,
                   zd_view b, uint64_t tod)
{
        enum { BSIZE, FRSIZE, BLOCKS, BFREE, BAVAIL, N };
        static const char *const names[N] = {"fs_bsize", "fs_frsize", "fs_blocks", "fs_bfree",
                                             "fs_bavail"};
        static const char *const cut = "mon_fsstatd statvfs block cut short";
        struct zd_fs_entry fs;
        enum zd_err_kind k;
        uint64_t sv[N];
        if (zd_fs_next(&b, &fs, &k) <= 0) {
                lx_bad(e, a,
                       k == ZD_E_APPL_TRUNCATED ? cut
                                                : "mon_fsstatd name lengths run past the record");
                return;
        }
        if (!lnx_fields("LNXAPPL.1.0.FS", fs.statvfs, names, sv, N)) {
                lx_bad(e, a, cut);
                return;
        }
        uint64_t frsize = sv[FRSIZE] ? sv[FRSIZE] : sv[BSIZE];
        if (fs.dir.n == 0 || sv[BFREE] > sv[BLOCKS] || sv[BAVAIL] > sv[BFREE]) {
                lx_bad(e, a, "mon_fsstatd: no mount point, or free blocks above the total");
                return;
        }
        struct lx_out out, *o = &out;
        out_init(o, e, r, a, tod);
        char full[UINT16_MAX + 2], pinst[ZM_NAME_LEN];
        df_instance(fs.dir.p, fs.dir.n, full, sizeof(full));
        zm_name_fit(pinst, sizeof(pinst), full, strlen(full));
        gauge_named(o, "df", pinst, "df_complex", "used",
                    (double)(sv[BLOCKS] - sv[BFREE]) * frsize);
        gauge_named(o, "df", pinst, "df_complex", "free", (double)sv[BAVAIL] * frsize);
        gauge_named(o, "df", pinst, "df_complex", "reserved",
                    (double)(sv[BFREE] - sv[BAVAIL]) * frsize);
}

/* ---- a guest's process states of one interval (met_linux.h: struct lx_pass) ---- */

struct pass_probe {
        const struct lx_passes *ps;
        const char *userid;
};

static bool pass_eq(const void *ctx, size_t pos)
{
        const struct pass_probe *p = ctx;
        return memcmp(p->ps->p[pos].userid, p->userid, sizeof(p->ps->p[pos].userid)) == 0;
}

/* The guest's pass of this interval (a char[9] userid), added when new; NULL when out of memory. */
static struct lx_pass *pass_of(struct lx_passes *ps, const char *userid)
{
        if (ps->last < ps->n && memcmp(ps->p[ps->last].userid, userid, 9) == 0)
                return &ps->p[ps->last];
        struct pass_probe p = {ps, userid};
        uint64_t h = zh_u64(ZH_SEED, zh_word8(userid));
        size_t i = zh_find(&ps->ix, h, pass_eq, &p);
        if (i == SIZE_MAX) {
                if (!zh_grow((void **)&ps->p, &ps->cap, ps->n, sizeof(*ps->p)) ||
                    !zh_add(&ps->ix, h, ps->n))
                        return NULL;
                i = ps->n++;
                memset(&ps->p[i], 0, sizeof(ps->p[i]));
                memcpy(ps->p[i].userid, userid, sizeof(ps->p[i].userid));
        }
        ps->last = i;
        return &ps->p[i];
}

void lx_pass_os(struct lx_passes *ps, const char *userid, uint64_t tod, uint64_t iowait)
{
        struct lx_pass *p = pass_of(ps, userid);
        if (p) {
                p->os = true;
                p->os_tod = tod;
                p->iowait = iowait;
        }
}

/*
 * One of mon_procd's task records (applid 2, record 1; LNXAPPL.2.1): is
 * the task in state D?  Counted for its pass, whether CP showed the buffer
 * before or not: the summary of the same pass needs every one.  Samples
 * only: the D10R1 CP writes when a buffer starts is copied again in the
 * interval's sample, and would count its task twice.
 */
static void lnx_task(struct lx_passes *ps, const struct zd_record *r, const struct zd_appl *a,
                     const struct zd_lnx_hdr *h)
{
        const struct zl_layout *l = zl_find("LNXAPPL.2.1", h->data.n);
        struct zl_value v;
        uint8_t state;
        if (r->number != 2 || !l || !zl_get(l, h->data, "state", &v) || !v.present ||
            !zd_u8(v.raw, 0, &state))
                return; /* not a task of a pass: met_procd.c counts what it cannot use */
        struct lx_pass *p = pass_of(ps, a->userid);
        if (!p)
                return;
        for (int k = 0; k < 2; k++)
                if (p->d_ts[k] == h->time_stamp || (!p->d_ts[k] && !p->d_n[k])) {
                        p->d_ts[k] = h->time_stamp;
                        p->d_n[k] += state == 'D';
                        return;
                }
}

/* The record and time the states of a pass are sent with: D10R2 at the pass's time. */
static void out_pass(struct lx_out *o, struct zm_engine *e, const struct lx_pass *p, uint64_t tod)
{
        const struct zd_record src = {.domain = 10, .number = 2, .tod = tod};
        o->e = e;
        o->sink = zm_engine_sink(e);
        o->capped = zm_engine_options(e)->max_series_per_guest != 0;
        zm_metric_init(&o->m, ZM_GUEST, &src);
        memcpy(o->m.guest, p->userid, sizeof(o->m.guest));
        o->m.tod = tod; /* zm_guest_tod's already, when the record came */
}

/*
 * A guest's states at the interval's end.  With mon_procd: its summary's,
 * its D tasks taken from the sleeping to blocked as collectd's processes
 * plugin counts them.  The count is exact when the pass's task records
 * list every task (mon_procd writes the top 100 by CPU and memory); past
 * 100 the D tasks outside them stay among the sleeping, and a copy CP took
 * while mon_procd was writing (records of two passes) counts those of the
 * summary's pass only.  Without mon_procd: the kernel's nr_iowait.
 */
static void pass_end(struct zm_engine *e, const struct lx_pass *p)
{
        struct lx_out out, *o = &out;
        if (p->summary) {
                uint64_t d = p->d_ts[0] == p->sum_ts   ? p->d_n[0]
                             : p->d_ts[1] == p->sum_ts ? p->d_n[1]
                                                       : 0;
                if (d > p->sleeping)
                        d = p->sleeping; /* only a guest that lies has more */
                out_pass(o, e, p, p->sum_tod);
                gauge(o, "processes", "", "ps_state", "sleeping", (double)(p->sleeping - d));
                gauge(o, "processes", "", "ps_state", "blocked", (double)d);
                gauge(o, "processes", "", "ps_state", "stopped", (double)p->stopped);
                gauge(o, "processes", "", "ps_state", "zombies", (double)p->zombie);
        } else if (p->os && !p->procd) {
                out_pass(o, e, p, p->os_tod);
                gauge(o, "processes", "", "ps_state", "blocked", (double)p->iowait);
        }
}

void lx_passes_end(struct zm_engine *e, struct lx_passes *ps)
{
        for (size_t i = 0; i < ps->n; i++)
                pass_end(e, &ps->p[i]);
        ps->n = 0;
        ps->last = 0;
        zh_clear(&ps->ix);
}

void lx_passes_free(struct lx_passes *ps)
{
        free(ps->p);
        zh_free(&ps->ix);
        memset(ps, 0, sizeof(*ps));
}

/*
 * mon_procd summary (applid 2, record 0; 7.2; LNXAPPL.2.0): uptime, users
 * and the task states the kernel OS record lacks, the states at the
 * interval's end (pass_end).  Its memory, swap and CPU figures repeat what
 * the kernel records carry exactly, so they are not reported twice.
 */
static void lnx_procd(struct zm_engine *e, struct lx_passes *ps, const struct zd_record *r,
                      const struct zd_appl *a, zd_view b, uint64_t ts, uint64_t tod)
{
        enum { UPTIME, USERS, SLEEPING, STOPPED, ZOMBIE, N };
        static const char *const names[N] = {"uptime", "users", "task_sleeping", "task_stopped",
                                             "task_zombie"};
        uint64_t v[N];
        if (!lnx_fields("LNXAPPL.2.0", b, names, v, N)) {
                lx_bad(e, a, "mon_procd summary shorter than 50 bytes");
                return;
        }
        struct lx_out out, *o = &out;
        out_init(o, e, r, a, tod);
        gauge(o, "uptime", "", "uptime", "", (double)v[UPTIME]);
        gauge(o, "users", "", "users", "", (double)v[USERS]);
        struct lx_pass *p = pass_of(ps, a->userid);
        if (!p)
                return;
        p->summary = true;
        p->sum_ts = ts;
        p->sum_tod = o->m.tod;
        p->sleeping = v[SLEEPING];
        p->stopped = v[STOPPED];
        p->zombie = v[ZOMBIE];
}

void lx_lnxappl(struct zm_engine *e, struct zd_appl_tracker *tracker, struct lx_passes *ps,
                const struct zd_record *r, const struct zd_appl *a)
{
        bool fs = a->applid == 1 && a->recnum == 0, procd = a->applid == 2 && a->recnum == 0;
        bool task = a->applid == 2 && a->recnum == 1;
        if (!fs && !procd && !task)
                return; /* other writers: not mapped */
        struct zd_lnx_hdr h;
        if (zd_lnx_hdr_parse(a->data, &h) != ZD_E_NONE) {
                if (!task) /* met_procd.c counts a task record's */
                        lx_bad(e, a, "LNXAPPL data header lengths lie");
                return;
        }
        if (task) {
                lnx_task(ps, r, a, &h);
                return;
        }
        struct lx_pass *p = procd ? pass_of(ps, a->userid) : NULL;
        if (p) /* the guest runs mon_procd: its blocked is mon_procd's, fresh or not */
                p->procd = true;
        if (!fresh(e, zd_appl_tracker_check(tracker, a, h.time_stamp)))
                return;
        /* Beyond year 9999 the stamp is damage, not a time. */
        if (h.time_stamp > UINT64_C(253402300799)) {
                lx_bad(e, a, "LNXAPPL time stamp out of range");
                return;
        }
        uint64_t tod = zd_unix_us_to_tod((int64_t)h.time_stamp * 1000000);
        if (fs)
                lnx_fs(e, r, a, h.data, tod);
        else
                lnx_procd(e, ps, r, a, h.data, h.time_stamp, tod);
}
