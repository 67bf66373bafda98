/* SPDX-License-Identifier: MIT */
/*
 * Metrics from VM/370 Monitor tapes (vm370.h): class 0 (PERFORM) code 0
 * interval statistics and code 1 attached-processor statistics, and the
 * class 6 (DASTAP) device I/O counts.  Plugin "vm370", so that a replayed
 * historic tape can never be mistaken for a live z/VM system's "zvm"
 * series.  The host is the CPU serial of the tape header (zm_set_system),
 * unless the zvm plugin's Host option overrides it.
 *
 * Only fields of readable, verified provenance become metrics: the
 * processor times (format footnote unreadable in the manual's scan), the
 * three last counters of code 0 (order uncertain) and the lock spin times
 * of code 1 (unit not stated) are dumped but not reported.
 */
#include "metric/met_module.h"
#include "payload/vm370/vm370.h"

struct vm_metric {
        const char *field;
        const char *type;
        const char *tinst;
};

static const struct vm_metric c0c0[] = {
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

/* The "Total ..." counts of the attached processor (SPG p.360); the spin counts may be per
 * interval. */
static const struct vm_metric c0c1[] = {
    {"MN001NXR", "operations", "ap_external_interrupts"},
    {"MN001CSV", "operations", "ap_svc_reflected"},
    {"MN001PRD", "vmpage_action", "ap_page_reads"},
    {"MN001PWR", "vmpage_action", "ap_page_writes"},
};

static void emit_value(struct zm_engine *e, const struct zd_record *r, const struct zl_value *v,
                       const char *pinst, const char *type, const char *tinst)
{
        struct zm_metric m;
        zm_metric_init(&m, ZM_SYSTEM, r);
        zm_metric_name(&m, "vm370", pinst, type, tinst);
        if (v->f->kind == ZL_K_COUNTER)
                zm_metric_derive(&m, (int64_t)v->u);
        else
                zm_metric_gauge(&m, (double)v->u);
        zm_emit(e, &m);
}

static void emit_fields(struct zm_engine *e, const struct zd_record *r, const struct vm_metric *t,
                        size_t n)
{
        const struct zl_layout *l = zd_vm370_layout(r->domain, r->number, r->rec.n);
        if (!l)
                return;
        for (size_t i = 0; i < n; i++) {
                struct zl_value v;
                if (!zl_get(l, r->rec, t[i].field, &v) || v.f->prov == ZL_UNCERTAIN)
                        continue;
                emit_value(e, r, &v, NULL, t[i].type, t[i].tinst);
        }
}

/* Class 6 codes 0 and 1: each device package's accumulated I/O count, per device address. */
static void emit_devices(struct zm_engine *e, const struct zd_record *r)
{
        struct zd_vm370_entries en;
        if (!zd_vm370_entries(r->domain, r->number, r->rec, &en))
                return;
        for (size_t i = 0; i < en.n; i++) {
                zd_view d;
                struct zl_value a, v;
                uint64_t addr; /* a hex field: its bytes, not its number */
                if (!zd_view_sub(r->rec, en.first + i * en.size, en.size, &d) ||
                    !zl_get(en.l, d, "MN600ADD", &a) || !zd_uN(a.raw, 0, a.raw.n, &addr) ||
                    !zl_get(en.l, d, "MN600CNT", &v) || v.f->prov == ZL_UNCERTAIN)
                        continue;
                char pinst[16] = "device-";
                pinst[zm_put_hex4(pinst, sizeof(pinst) - 1, 7, (unsigned)addr)] = '\0';
                emit_value(e, r, &v, pinst, "operations", "io");
        }
}

static void vm370_record(struct zm_engine *e, void *state, const struct zd_record *r)
{
        (void)state;
        if (r->family != ZD_FAM_VM370)
                return;
        if (r->domain == ZD_VM370_DASTAP && r->number <= 1) {
                emit_devices(e, r);
                return;
        }
        if (r->domain != ZD_VM370_PERFORM)
                return;
        if (r->number == ZD_VM370_TAPE_HEADER) {
                char serial[7];
                if (zd_vm370_cpu_serial(r->rec, serial) && r->rec.n >= 20)
                        zm_set_system(e, serial);
        } else if (r->number == 0) {
                emit_fields(e, r, c0c0, sizeof(c0c0) / sizeof(c0c0[0]));
        } else if (r->number == 1) {
                emit_fields(e, r, c0c1, sizeof(c0c1) / sizeof(c0c1[0]));
        }
}

const struct zm_module zm_mod_vm370 = {
    .name = "vm370",
    .record = vm370_record,
    .families = 1u << ZD_FAM_VM370,
};
