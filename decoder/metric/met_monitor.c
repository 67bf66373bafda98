/* SPDX-License-Identifier: MIT */
/*
 * Domain 1 configuration the whole metric layer needs: the sample interval
 * (D1R9 MTRSPR_INTERVAL, VERIFIED).  The system name (MTRSYS_SYSTMID, a
 * HINT whose offset depends on the reading) is met_reading.c's.
 */
#include "layout/layout.h"
#include "metric/met_module.h"

static void mon_record(struct zm_engine *e, void *state, const struct zd_record *r)
{
        (void)state;
        if (r->domain != 1 || r->number != 9)
                return;
        const struct zl_layout *l = zl_find_cp(r->domain, r->number, r->rec.n);
        struct zl_value v;
        if (!l || !zl_get(l, r->rec, "MTRSPR_INTERVAL", &v) || !v.present)
                return;
        if (v.s < 1 || v.s > 86400) {
                zm_log(e, ZM_LOG_WARNING, "MTRSPR sample interval %lld s is implausible; ignored",
                       (long long)v.s);
                return;
        }
        zm_set_interval(e, (double)v.s);
}

const struct zm_module zm_mod_monitor = {
    .name = "monitor", .record = mon_record, .domains = 1u << 1};
