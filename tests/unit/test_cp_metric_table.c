/* SPDX-License-Identifier: MIT */
/*
 * The CP metric table (decoder/metric/cp/met_cp_metrics.c) against what its
 * readers assume: the emitter (rows of one entry kind together, slots that
 * exist, a DS that matches the computation), the laws (a metric on a HINT
 * field names one, as doc/metrics-cp.md promises) and the layouts (every
 * field it names is in one of its record's layouts).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "layout/layout.h"
#include "metric/cp/met_cp_metrics.h"
#include "metric/cp/met_cp_tab.h"

static const char *row_name(const struct cp_metric *m)
{
        static char buf[256];
        snprintf(buf, sizeof(buf), "%s/%s-%s", m->pinst, m->type, m->tinst ? m->tinst : "");
        return buf;
}

static void fifty_one_metrics(void **state)
{
        (void)state;
        /* doc/metrics-cp.md has listed 51 CP metrics since the system's transactions, storage
         * and SSI ones came (issue 53). */
        assert_int_equal(cp_nmetrics, 51);
}

static void ds_and_slots_fit_the_computation(void **state)
{
        (void)state;
        for (size_t i = 0; i < cp_nmetrics; i++) {
                const struct cp_metric *m = &cp_metrics[i];
                if (m->calc >= CP_NCALCS || m->kind >= CP_NKINDS)
                        fail_msg("%s: no such computation or kind", row_name(m));
                if (m->ds != cp_calc_ds((enum cp_calc)m->calc))
                        fail_msg("%s: DS does not match %s", row_name(m),
                                 cp_calc_name((enum cp_calc)m->calc));
                bool two = m->calc == CP_PCT_DIFF || m->calc == CP_SUM2 || m->calc == CP_VAL_DIFF ||
                           m->calc == CP_MEAN;
                if (m->a < 0 || m->a >= CP_NV || m->b >= CP_NV || (two && m->b < 0))
                        fail_msg("%s: slots %d, %d", row_name(m), m->a, m->b);
                if ((m->need | m->vouch) >> CP_NV)
                        fail_msg("%s: a need or vouch slot past %d", row_name(m), CP_NV);
                if (!m->mul || !m->div)
                        fail_msg("%s: unit scale %u / %u", row_name(m), m->mul, m->div);
                if (m->law != CP_NOLAW && (m->law < 0 || m->law >= ZV_NLAWS))
                        fail_msg("%s: law %d", row_name(m), m->law);
                for (size_t j = 0; j < i; j++) {
                        const struct cp_metric *o = &cp_metrics[j];
                        if (!strcmp(o->pinst, m->pinst) && !strcmp(o->type, m->type) &&
                            !strcmp(o->tinst ? o->tinst : "", m->tinst ? m->tinst : ""))
                                fail_msg("%s: listed twice", row_name(m));
                }
        }
}

/* The emitter walks runs of rows with the same kind and record, caching the plugin instance. */
static void rows_of_one_source_are_together(void **state)
{
        (void)state;
        for (size_t i = 1; i < cp_nmetrics; i++) {
                const struct cp_metric *m = &cp_metrics[i], *p = &cp_metrics[i - 1];
                bool same = m->kind == p->kind && m->domain == p->domain && m->record == p->record;
                if (same && strchr(m->pinst, '<') && strcmp(m->pinst, p->pinst))
                        fail_msg("%s: another instance pattern than the row before", row_name(m));
                if (same)
                        continue;
                for (size_t j = 0; j + 1 < i; j++)
                        if (cp_metrics[j].kind == m->kind && cp_metrics[j].domain == m->domain &&
                            cp_metrics[j].record == m->record)
                                fail_msg("%s: apart from the other rows of D%uR%u", row_name(m),
                                         m->domain, m->record);
        }
}

/* The field named f, in a default-reading layout of m's record (or of its entries). */
static const struct zl_field *field_of(const struct cp_metric *m, const char *f)
{
        char id[16], entry[16];
        snprintf(id, sizeof(id), "D%uR%u", m->domain, m->record);
        snprintf(entry, sizeof(entry), "D%uR%u.", m->domain, m->record);
        const struct zl_layout *l;
        const struct zl_field *hint = NULL, *any = NULL;
        for (size_t i = 0; (l = zl_layout_at(i)) != NULL; i++) {
                if (l->reading || (strcmp(l->id, id) && strncmp(l->id, entry, strlen(entry))))
                        continue;
                const struct zl_field *x = zl_field(l, f);
                if (x && x->prov == ZL_HINT)
                        hint = x;
                if (x)
                        any = x;
        }
        return hint ? hint : any;
}

static void fields_exist_and_hints_name_a_law(void **state)
{
        (void)state;
        for (size_t i = 0; i < cp_nmetrics; i++) {
                const struct cp_metric *m = &cp_metrics[i];
                bool hint = false;
                size_t nfields = 0;
                for (const char *p = m->fields; *p;) {
                        size_t n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
                        if (!n) {
                                p++;
                                continue;
                        }
                        char name[64];
                        assert_true(n < sizeof(name));
                        memcpy(name, p, n);
                        name[n] = '\0';
                        p += n;
                        const struct zl_field *f = field_of(m, name);
                        if (!f)
                                fail_msg("%s: no layout of D%uR%u has %s", row_name(m), m->domain,
                                         m->record, name);
                        hint |= f->prov == ZL_HINT;
                        nfields++;
                }
                if (!nfields)
                        fail_msg("%s: names no field", row_name(m));
                if (hint && m->law == CP_NOLAW)
                        fail_msg("%s: rests on a HINT field and names no law", row_name(m));
                if (!hint && m->law != CP_NOLAW)
                        fail_msg("%s: names law %s but rests on no HINT field", row_name(m),
                                 zv_law_name((enum zv_law)m->law));
        }
}

static void patterns_fill_in(void **state)
{
        (void)state;
        char out[ZM_NAME_LEN];
        assert_string_equal(cp_pattern(out, sizeof(out), "vnic-<owner>-<dev>", 0x1A2, "LNX1"),
                            "vnic-LNX1-01A2");
        assert_string_equal(cp_pattern(out, sizeof(out), "cpu<cpu>-management", 7, ""),
                            "cpu7-management");
        assert_string_equal(cp_pattern(out, sizeof(out), "lpar-<partition>", 0, "LPAR1"),
                            "lpar-LPAR1");
        assert_string_equal(cp_pattern(out, sizeof(out), "a<b>c<cpu", 1, "X"), "a<b>c<cpu");
        /* cut, never overrun */
        char small[8];
        assert_string_equal(cp_pattern(small, sizeof(small), "user-<userid>", 0, "LONGUSER"),
                            "user-LO");
        assert_string_equal(cp_pattern(small, sizeof(small), "device-<dev>", 0x200, ""), "device-");
        for (size_t i = 0; i < cp_nmetrics; i++) {
                const struct cp_metric *m = &cp_metrics[i];
                if (strchr(cp_pattern(out, sizeof(out), m->pinst, 1, "U"), '<') ||
                    (m->tinst && strchr(cp_pattern(out, sizeof(out), m->tinst, 1, "U"), '<')))
                        fail_msg("%s: a token the emitter does not know", row_name(m));
        }
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(fifty_one_metrics),
            cmocka_unit_test(ds_and_slots_fit_the_computation),
            cmocka_unit_test(rows_of_one_source_are_together),
            cmocka_unit_test(fields_exist_and_hints_name_a_law),
            cmocka_unit_test(patterns_fill_in),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
