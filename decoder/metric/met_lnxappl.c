/* SPDX-License-Identifier: MIT */
/*
 * The s390-tools monwriter summaries of a Linux guest (LNXAPPL, domain 10):
 * mon_fsstatd's file systems as collectd's df plugin names them, and
 * mon_procd's uptime, users and task states.  Part of the Linux module
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

/* The 12-byte LNXAPPL data header (7.1, 7.2): Unix seconds, data_len, data_offset. */
static bool lnx_header(const struct zd_appl *a, uint64_t *secs, zd_view *body)
{
        uint16_t len, off;
        if (!zd_u64(a->data, 0, secs) || !zd_u16(a->data, 8, &len) || !zd_u16(a->data, 10, &off))
                return false;
        return off >= 12 && zd_view_sub(a->data, off, len, body);
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
 * mon_fsstatd (applid 1, record 0; doc/facts/s390-tools.md 2): three
 * length-prefixed strings (device, mount point, type), then statvfs as 9 u64.
 * Same arithmetic as collectd's df plugin: used = (blocks - bfree) * frsize,
 * free = bavail * frsize, reserved = (bfree - bavail) * frsize.
 */
static void lnx_fs(struct zm_engine *e, const struct zd_record *r, const struct zd_appl *a,
                   zd_view b, uint64_t tod)
{
        size_t off = 0, dir_off = 0;
        uint16_t n[3];
        for (int i = 0; i < 3; i++) {
                if (!zd_u16(b, off, &n[i]) || !zd_view_has(b, off + 2, n[i])) {
                        lx_bad(e, a, "mon_fsstatd name lengths run past the record");
                        return;
                }
                if (i == 1)
                        dir_off = off + 2;
                off += 2 + (size_t)n[i];
        }
        uint64_t sv[9]; /* bsize frsize blocks bfree bavail files ffree favail flag */
        for (int i = 0; i < 9; i++)
                if (!zd_u64(b, off + 8 * (size_t)i, &sv[i])) {
                        lx_bad(e, a, "mon_fsstatd statvfs block cut short");
                        return;
                }
        uint64_t frsize = sv[1] ? sv[1] : sv[0];
        if (n[1] == 0 || sv[3] > sv[2] || sv[4] > sv[3]) {
                lx_bad(e, a, "mon_fsstatd: no mount point, or free blocks above the total");
                return;
        }
        struct lx_out out, *o = &out;
        out_init(o, e, r, a, tod);
        char full[UINT16_MAX + 2], pinst[ZM_NAME_LEN];
        df_instance(b.p + dir_off, n[1], full, sizeof(full));
        zm_name_fit(pinst, sizeof(pinst), full, strlen(full));
        gauge_named(o, "df", pinst, "df_complex", "used", (double)(sv[2] - sv[3]) * frsize);
        gauge_named(o, "df", pinst, "df_complex", "free", (double)sv[4] * frsize);
        gauge_named(o, "df", pinst, "df_complex", "reserved", (double)(sv[3] - sv[4]) * frsize);
}

/*
 * mon_procd summary (applid 2, record 0; 7.2): uptime, users and the task
 * states the kernel OS record lacks.  Its memory, swap and CPU figures repeat
 * what the kernel records carry exactly, so they are not reported twice.
 */
static void lnx_procd(struct zm_engine *e, const struct zd_record *r, const struct zd_appl *a,
                      zd_view b, uint64_t tod)
{
        uint64_t uptime;
        uint32_t users, sleeping, stopped, zombie;
        if (!zd_u64(b, 0, &uptime) || !zd_u32(b, 8, &users) || !zd_u32(b, 38, &sleeping) ||
            !zd_u32(b, 42, &stopped) || !zd_u32(b, 46, &zombie)) {
                lx_bad(e, a, "mon_procd summary shorter than 50 bytes");
                return;
        }
        struct lx_out out, *o = &out;
        out_init(o, e, r, a, tod);
        gauge(o, "uptime", "", "uptime", "", (double)uptime);
        gauge(o, "users", "", "users", "", (double)users);
        gauge(o, "processes", "", "ps_state", "sleeping", (double)sleeping);
        gauge(o, "processes", "", "ps_state", "stopped", (double)stopped);
        gauge(o, "processes", "", "ps_state", "zombies", (double)zombie);
}

void lx_lnxappl(struct zm_engine *e, struct zd_appl_tracker *tracker, const struct zd_record *r,
                const struct zd_appl *a)
{
        bool fs = a->applid == 1 && a->recnum == 0, procd = a->applid == 2 && a->recnum == 0;
        if (!fs && !procd)
                return; /* per-process records: met_procd.c; other writers: not mapped */
        uint64_t secs;
        zd_view body;
        if (!lnx_header(a, &secs, &body)) {
                lx_bad(e, a, "LNXAPPL data header lengths lie");
                return;
        }
        if (!fresh(e, zd_appl_tracker_check(tracker, a, secs)))
                return;
        /* Beyond year 9999 the stamp is damage, not a time. */
        if (secs > UINT64_C(253402300799)) {
                lx_bad(e, a, "LNXAPPL time stamp out of range");
                return;
        }
        uint64_t tod = zd_unix_us_to_tod((int64_t)secs * 1000000);
        if (fs)
                lnx_fs(e, r, a, body, tod);
        else
                lnx_procd(e, r, a, body, tod);
}
