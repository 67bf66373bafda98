/* SPDX-License-Identifier: MIT */
/*
 * The s390-tools monwriter summaries of a Linux guest (LNXAPPL, domain 10):
 * mon_fsstatd's file systems as collectd's df plugin names them, and
 * mon_procd's uptime, users and task states, their fields read through
 * the payload layouts (lay_lnxappl.c).  Part of the Linux module
 * (met_linux.c), which hands these records over; the per-process records
 * are met_procd.c's.  Every identifier, its source field and unit:
 * doc/plugin.md.
 */
#include <stdio.h>
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

/*
 * mon_procd summary (applid 2, record 0; 7.2; LNXAPPL.2.0): uptime, users
 * and the task states the kernel OS record lacks.  Its memory, swap and CPU
 * figures repeat what the kernel records carry exactly, so they are not
 * reported twice.
 */
static void lnx_procd(struct zm_engine *e, const struct zd_record *r, const struct zd_appl *a,
                      zd_view b, uint64_t tod)
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
        gauge(o, "processes", "", "ps_state", "sleeping", (double)v[SLEEPING]);
        gauge(o, "processes", "", "ps_state", "stopped", (double)v[STOPPED]);
        gauge(o, "processes", "", "ps_state", "zombies", (double)v[ZOMBIE]);
}

void lx_lnxappl(struct zm_engine *e, struct zd_appl_tracker *tracker, const struct zd_record *r,
                const struct zd_appl *a)
{
        bool fs = a->applid == 1 && a->recnum == 0, procd = a->applid == 2 && a->recnum == 0;
        if (!fs && !procd)
                return; /* per-process records: met_procd.c; other writers: not mapped */
        struct zd_lnx_hdr h;
        if (zd_lnx_hdr_parse(a->data, &h) != ZD_E_NONE) {
                lx_bad(e, a, "LNXAPPL data header lengths lie");
                return;
        }
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
                lnx_procd(e, r, a, h.data, tod);
}
