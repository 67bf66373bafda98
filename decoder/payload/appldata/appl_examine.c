/* SPDX-License-Identifier: MIT */
/*
 * One place that applies every domain 10 check, so that zvmmon's commands
 * and the fuzz targets agree on what is an error, what is dropped and what
 * is stale.
 */
#include <string.h>

#include "payload/appldata/appl.h"

/* zd_report, or nothing when the caller passed no decoder. */
#define report(d, ...)                                                                             \
        do {                                                                                       \
                if (d)                                                                             \
                        zd_report(d, __VA_ARGS__);                                                 \
        } while (0)

static void check_lnxappl(struct zd_decoder *d, const struct zd_record *r, struct zd_appl_info *o)
{
        struct zd_lnx_hdr h;
        enum zd_err_kind e = zd_lnx_hdr_parse(o->a.data, &h);
        if (e) {
                o->truncated = e == ZD_E_APPL_TRUNCATED;
                report(d, e, &r->pos, "%s %s: LNXAPPL header data_offset %u data_len %u, %zu bytes",
                       o->a.userid, o->a.prodid_text, h.data_offset, h.data_len, o->a.data.n);
                return;
        }
        o->timestamp = h.time_stamp;
        if (o->payload == ZD_PAYLOAD_FSSTATD) {
                zd_view rest = h.data;
                struct zd_fs_entry fs;
                int rc;
                while ((rc = zd_fs_next(&rest, &fs, &e)) > 0)
                        ;
                if (rc < 0) {
                        o->truncated = e == ZD_E_APPL_TRUNCATED;
                        report(d, e, &r->pos, "%s %s: mon_fsstatd entry damaged (%zu bytes left)",
                               o->a.userid, o->a.prodid_text, rest.n);
                }
        } else if (o->payload == ZD_PAYLOAD_PROCD_SUM) {
                if (h.data.n < ZD_PROCD_SUM_LEN) {
                        o->truncated = true;
                        report(d, ZD_E_APPL_TRUNCATED, &r->pos,
                               "%s %s: mon_procd summary has %zu of %d bytes", o->a.userid,
                               o->a.prodid_text, h.data.n, ZD_PROCD_SUM_LEN);
                }
        } else {
                struct zd_procd_task task;
                e = zd_procd_task_parse(h.data, &task);
                if (e) {
                        o->truncated = e == ZD_E_APPL_TRUNCATED;
                        report(d, e, &r->pos, "%s %s: mon_procd task record damaged (%zu bytes)",
                               o->a.userid, o->a.prodid_text, h.data.n);
                }
        }
}

static void check_kernel(struct zd_decoder *d, const struct zd_record *r, struct zd_appl_info *o)
{
        const struct zd_appl *a = &o->a;
        if (a->data.n < o->layout->min_len) {
                o->truncated = true;
                report(d, ZD_E_APPL_TRUNCATED, &r->pos, "%s %s: %s has %zu of %u bytes", a->userid,
                       a->prodid_text, o->layout->id, a->data.n, o->layout->min_len);
                return;
        }
        if (!zd_lx_consistent(a->data)) {
                o->sync_bad = true;
                report(d, ZD_E_APPL_SYNC, &r->pos, "%s %s: sync counters differ, sample dropped",
                       a->userid, a->prodid_text);
                return;
        }
        o->timestamp = zd_lx_timestamp(a->data);
        if (a->recnum == ZD_LX_OS) {
                /* The three fields only tell what went wrong: read by name when something did. */
                uint64_t n = 0, size = 0, off = 0;
                struct zd_lx_cpus cpus;
                if (zd_lx_os_cpus(a, &cpus) != ZD_E_NONE) {
                        (void)zl_get_u64(o->layout, a->data, "nr_cpus", &n);
                        (void)zl_get_u64(o->layout, a->data, "per_cpu_size", &size);
                        (void)zl_get_u64(o->layout, a->data, "cpu_offset", &off);
                        report(
                            d, ZD_E_LX_CPUS, &r->pos,
                            "%s %s: %llu CPUs of %llu bytes at %llu do not fit %zu bytes (mod %s)",
                            a->userid, a->prodid_text, (unsigned long long)n,
                            (unsigned long long)size, (unsigned long long)off, a->data.n,
                            a->modlvl_text);
                }
        }
}

void zd_appl_examine(struct zd_decoder *d, struct zd_appl_tracker *t, const struct zd_record *r,
                     struct zd_appl_info *o)
{
        memset(o, 0, sizeof(*o));
        o->err = zd_appl_parse(r, &o->a);
        if (o->err == ZD_E_APPL_USERID) {
                o->opaque = true;
                report(d, o->err, &r->pos, "D10R%u (%s): userid \"%s\" is not one CP stamps",
                       r->number, o->a.prodid_text, o->a.userid);
                return;
        }
        if (o->err) {
                o->opaque = true;
                report(d, o->err, &r->pos,
                       "D10R%u from %s (%s): CALDATOF %d CALDATLN %d in a %zu-byte record",
                       r->number, o->a.userid[0] ? o->a.userid : "?",
                       o->a.prodid_text[0] ? o->a.prodid_text : "?", o->a.dataof, o->a.dataln,
                       r->rec.n);
                return;
        }
        o->payload = zd_appl_payload(&o->a);
        o->layout = zd_appl_layout(&o->a);
        if (!o->layout) {
                o->opaque = true;
                return;
        }
        if (o->a.kind == ZD_APPL_LINUXKRNL)
                check_kernel(d, r, o);
        else
                check_lnxappl(d, r, o);
        if (t && !o->truncated && !o->sync_bad && o->timestamp)
                o->stale = zd_appl_tracker_check(t, &o->a, o->timestamp) == ZD_TRACK_STALE;
}
