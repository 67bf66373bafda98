/* SPDX-License-Identifier: MIT */
/*
 * The slot <-> field link between the CP metric table (met_cp_metrics.c)
 * and the rows that read records into entries (met_cp_take.c): a metric
 * row names slots and, separately, the fields it rests on; nothing but
 * this test says that the fields it names are the ones that fill those
 * slots.  And every field a take row reads is in its record's layouts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "layout/layout.h"
#include "metric/cp/met_cp_metrics.h"
#include "metric/cp/met_cp_take.h"

static const char *row_name(const struct cp_metric *m)
{
        static char buf[256];
        snprintf(buf, sizeof(buf), "%s/%s-%s", m->pinst, m->type, m->tinst ? m->tinst : "");
        return buf;
}

/*
 * The record slots behind metric slot i: a guest's slot is a sum over its
 * virtual CPUs of USEACT slots (cp_guest_sums); every other kind uses the
 * record's slots as they are (the system's paging sums SYTSYP's paging
 * slots over the CPUs, slot for slot).  Returns how many, into out.
 */
static size_t record_slots(const struct cp_metric *m, int i, int *out)
{
        if (m->kind != CP_GUEST) {
                out[0] = i;
                return 1;
        }
        for (size_t k = 0; k < cp_nguest_sums; k++)
                if (cp_guest_sums[k].g == i) {
                        size_t n = 0;
                        for (int j = cp_guest_sums[k].first; j <= cp_guest_sums[k].last; j++)
                                out[n++] = j;
                        return n;
                }
        fail_msg("%s: guest slot %d is no sum of USEACT slots", row_name(m), i);
        return 0;
}

/* The next field name of a metric's fields text (separators: " + ", " - ", ", "); NULL at the end.
 */
static const char *next_field(const char **p, char *name, size_t namesz)
{
        *p += strcspn(*p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
        size_t n = strspn(*p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
        if (!n)
                return NULL;
        assert_true(n < namesz);
        memcpy(name, *p, n);
        name[n] = '\0';
        *p += n;
        return name;
}

static void metric_fields_are_the_fields_of_its_slots(void **state)
{
        (void)state;
        for (size_t r = 0; r < cp_nmetrics; r++) {
                const struct cp_metric *m = &cp_metrics[r];
                const struct cp_take *t = cp_take_find(m->domain, m->record);
                if (!t)
                        fail_msg("%s: D%uR%u is read by no row of met_cp_take.c", row_name(m),
                                 m->domain, m->record);
                int slots[2 * CP_NV];
                size_t n = record_slots(m, m->a, slots);
                if (m->b >= 0)
                        n += record_slots(m, m->b, slots + n);
                const char *p = m->fields;
                char name[64];
                for (size_t k = 0; k < n; k++) {
                        const char *want = t->field[slots[k]];
                        if (!want)
                                fail_msg("%s: no field of D%uR%u fills slot %d", row_name(m),
                                         m->domain, m->record, slots[k]);
                        if (!next_field(&p, name, sizeof(name)))
                                fail_msg("%s: names no field for slot %d (%s)", row_name(m),
                                         slots[k], want);
                        if (strcmp(name, want))
                                fail_msg("%s: names %s, but slot %d of D%uR%u comes from %s",
                                         row_name(m), name, slots[k], m->domain, m->record, want);
                }
                if (next_field(&p, name, sizeof(name)))
                        fail_msg("%s: names %s, which fills none of its slots", row_name(m), name);
        }
}

/* Is field f in a default-reading layout named id? */
static bool in_layout(const char *id, const char *f)
{
        const struct zl_layout *l;
        for (size_t i = 0; (l = zl_layout_at(i)) != NULL; i++)
                if (!l->reading && !strcmp(l->id, id) && zl_field(l, f))
                        return true;
        return false;
}

static void take_fields_are_in_the_layouts(void **state)
{
        (void)state;
        for (size_t i = 0; i < cp_ntakes; i++) {
                const struct cp_take *t = &cp_takes[i];
                char id[16];
                snprintf(id, sizeof(id), "D%uR%u", t->domain, t->record);
                assert_non_null(zl_find_cp(t->domain, t->record, 4096));
                /* A record of entries reads its name from the record, the rest from an entry. */
                const char *eid = t->entry ? t->entry : id;
                if (t->name && !in_layout(id, t->name))
                        fail_msg("%s: no layout has its name field %s", id, t->name);
                if (t->id && !in_layout(eid, t->id))
                        fail_msg("%s: no layout %s has its id field %s", id, eid, t->id);
                int nfields = 0;
                for (int k = 0; k < CP_NV; k++) {
                        if (!t->field[k])
                                continue;
                        nfields++;
                        if (!in_layout(eid, t->field[k]))
                                fail_msg("%s: no layout %s has %s (slot %d)", id, eid, t->field[k],
                                         k);
                        for (int j = 0; j < k; j++)
                                if (t->field[j] && !strcmp(t->field[j], t->field[k]))
                                        fail_msg("%s: %s fills slots %d and %d", id, t->field[k], j,
                                                 k);
                }
                if (!nfields)
                        fail_msg("%s: fills no slot", id);
        }
}

/* What met_cp.c assumes of a row: a key it can make, one row per record. */
static void take_rows_fit_their_key(void **state)
{
        (void)state;
        for (size_t i = 0; i < cp_ntakes; i++) {
                const struct cp_take *t = &cp_takes[i];
                bool one = t->key == CP_KEY_ONE;
                bool named = t->key == CP_KEY_NAME_NUM || t->key == CP_KEY_NAME_DEV;
                assert_true(t->key <= CP_KEY_NAME_DEV);
                assert_true(t->at < sizeof(struct cp_state));
                if (one ? t->id || t->name || t->entry : !t->id || named != (t->name != NULL))
                        fail_msg("D%uR%u: its id and name fields do not fit its key", t->domain,
                                 t->record);
                assert_true(!t->note_guest || t->name);
                assert_ptr_equal(cp_take_find(t->domain, t->record), t);
        }
        const struct cp_take *useact = cp_take_find(4, 3);
        assert_non_null(useact);
        for (size_t k = 0; k < cp_nguest_sums; k++) {
                const struct cp_sum *m = &cp_guest_sums[k];
                assert_true(m->g >= 0 && m->g < CP_NV && m->first <= m->last && m->last < CP_NV);
                uint32_t bits = 0;
                for (int j = m->first; j <= m->last; j++)
                        bits |= 1u << j;
                assert_int_equal(m->bits, bits);
                for (int j = m->first; j <= m->last; j++)
                        assert_non_null(useact->field[j]);
        }
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(metric_fields_are_the_fields_of_its_slots),
            cmocka_unit_test(take_fields_are_in_the_layouts),
            cmocka_unit_test(take_rows_fit_their_key),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
