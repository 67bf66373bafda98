/* SPDX-License-Identifier: MIT */
/*
 * Metrics from VM/370 Monitor tapes (vm370.h): class 0 (PERFORM) code 0
 * interval statistics.  Plugin "vm370", so that a replayed historic tape can
 * never be mistaken for a live z/VM system's "zvm" series.  The host is the
 * CPU serial of the tape header (zm_set_system), unless the zvm plugin's
 * Host option overrides it.
 *
 * Only fields of readable, verified provenance become metrics: the four
 * processor times (format footnote unreadable in the manual's scan) and the
 * three last counters (order uncertain) are dumped but not reported.
 */
#include "metric/met_module.h"
#include "payload/vm370/vm370.h"

static const struct {
        const char *field;
        const char *type;
        const char *tinst;
} c0c0[] = {
    {"MN000PSI", "operations", "paging_start_io"},
    {"MN000CPA", "operations", "page_io_requests"},
    {"MN000NFL", "vmpage_number", "free_list"},
    {"MN000PSN", "vmpage_number", "due_for_free_list"},
    {"MN000PRC", "vmpage_action", "flushed_reclaimed"},
    {"MN000RPC", "vmpage_number", "reserved"},
    {"MN000SPC", "vmpage_number", "shared_system"},
    {"MN000FLF", "operations", "free_list_empty"},
    {"MN000CPT", "operations", "ptrfr_calls"},
    {"MN000SS", "vmpage_action", "stolen_in_queue"},
};

static void emit_c0c0(struct zm_engine *e, const struct zd_record *r)
{
        const struct zl_layout *l = zd_vm370_layout(r->domain, r->number, r->rec.n);
        if (!l)
                return;
        for (size_t i = 0; i < sizeof(c0c0) / sizeof(c0c0[0]); i++) {
                struct zl_value v;
                if (!zl_get(l, r->rec, c0c0[i].field, &v) || v.f->prov == ZL_UNCERTAIN)
                        continue;
                struct zm_metric m;
                zm_metric_init(&m, ZM_SYSTEM, r);
                zm_metric_name(&m, "vm370", NULL, c0c0[i].type, c0c0[i].tinst);
                if (v.f->kind == ZL_K_COUNTER)
                        zm_metric_derive(&m, (int64_t)v.u);
                else
                        zm_metric_gauge(&m, (double)v.u);
                zm_emit(e, &m);
        }
}

static void vm370_record(struct zm_engine *e, void *state, const struct zd_record *r)
{
        (void)state;
        if (r->family != ZD_FAM_VM370 || r->domain != ZD_VM370_PERFORM)
                return;
        if (r->number == ZD_VM370_TAPE_HEADER) {
                char serial[7];
                if (zd_vm370_cpu_serial(r->rec, serial) && r->rec.n >= 20)
                        zm_set_system(e, serial);
        } else if (r->number == 0) {
                emit_c0c0(e, r);
        }
}

const struct zm_module zm_mod_vm370 = {
    .name = "vm370",
    .record = vm370_record,
    .families = 1u << ZD_FAM_VM370,
};
