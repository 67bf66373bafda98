/* SPDX-License-Identifier: MIT */
/* The CP record registry and the built-in CP layout tables, checked as data. */
#include "vec.h"

#include <stdio.h>

#include "layout/layout.h"
#include "layout/registry.h"

static void registry_names_known_records(void **state)
{
        (void)state;
        const struct zr_record *r = zr_lookup(0, 2);
        assert_non_null(r);
        assert_string_equal(r->dsect, "SYTPRP");
        assert_int_equal(r->types, ZR_SAMPLE);
        r = zr_lookup(4, 3);
        assert_non_null(r);
        assert_string_equal(r->dsect, "USEACT");
        r = zr_lookup(1, 1);
        assert_non_null(r);
        assert_int_equal(r->types, ZR_CONFIG);
        r = zr_lookup(1, 11);
        assert_non_null(r);
        assert_int_equal(r->types, ZR_EVENT | ZR_SAMPLE);
        assert_string_equal(zr_lookup(11, 2)->dsect, "SSISMI");
        assert_string_equal(zr_lookup(8, 1)->dsect, "VNDSES");
        assert_string_equal(zr_lookup(6, 3)->dsect, "IODDEV");
        /* unknown numbers stay unknown */
        assert_null(zr_lookup(1, 22));
        assert_null(zr_lookup(0, 26));
        assert_null(zr_lookup(12, 1));
        assert_null(zr_lookup(9, 4));
        assert_null(zr_lookup(6, 32));
        assert_null(zr_lookup(3, 24));
        assert_string_equal(zr_domain_name(11), "SSI");
        assert_null(zr_domain_name(12));
}

/* Sorted and unique: zr_lookup bisects; every domain 0-11 has a record. */
static void registry_sorted_and_complete(void **state)
{
        (void)state;
        bool dom[12] = {false};
        const struct zr_record *prev = NULL, *r;
        for (size_t i = 0; (r = zr_record_at(i)) != NULL; i++) {
                assert_true(r->domain >= 0 && r->domain <= 11);
                dom[r->domain] = true;
                assert_non_null(r->dsect);
                assert_int_equal(strlen(r->dsect), 6);
                assert_non_null(r->name);
                assert_non_null(r->source);
                if (prev)
                        assert_true(prev->domain < r->domain ||
                                    (prev->domain == r->domain && prev->record < r->record));
                assert_ptr_equal(zr_lookup((unsigned)r->domain, (unsigned)r->record), r);
                assert_true(r->basis >= ZR_PAGE && r->basis <= ZR_ZPMD);
                /* IBM only appends: each level's length is above the one before */
                for (size_t k = 1; k < ZR_NLENS && r->lens[k].level; k++)
                        if (r->lens[k].len <= r->lens[k - 1].len)
                                fail_msg("%s: lengths not growing", r->dsect);
                for (size_t k = 0; k < ZR_NLENS && r->lens[k].level; k++)
                        assert_true(r->lens[k].len >= 20);
                /* a page read gives the levels it was read at, and only then */
                assert_int_equal(r->basis == ZR_PAGE, r->levels != NULL);
                assert_int_equal(r->basis == ZR_ZPMD, strncmp(r->source, "zpmd", 4) == 0);
                prev = r;
        }
        for (int d = 0; d < 12; d++)
                assert_true(dom[d]);
}

/*
 * Every CP layout: its fields lie inside min_len (the record length it is
 * chosen for), do not overlap, carry a source, and the record is in the
 * registry with the same DSECT.
 */
static void layouts_are_consistent(void **state)
{
        (void)state;
        const struct zl_layout *l;
        size_t ncp = 0;
        for (size_t i = 0; (l = zl_layout_at(i)) != NULL; i++) {
                if (l->domain < 0 && strncmp(l->id, "D0R16.", 6) != 0)
                        continue;
                for (size_t a = 0; a < l->nfields; a++) {
                        const struct zl_field *f = &l->fields[a];
                        char what[128];
                        snprintf(what, sizeof(what), "%s/%u %s", l->id, l->min_len, f->name);
                        if (f->off + f->len > l->min_len)
                                fail_msg("%s ends past min_len", what);
                        if (!f->source || !*f->source)
                                fail_msg("%s has no source", what);
                        for (size_t b = a + 1; b < l->nfields; b++) {
                                const struct zl_field *g = &l->fields[b];
                                if (f->off < g->off + g->len && g->off < f->off + f->len)
                                        fail_msg("%s overlaps %s", what, g->name);
                        }
                }
                if (l->domain >= 0) {
                        ncp++;
                        const struct zr_record *r =
                            zr_lookup((unsigned)l->domain, (unsigned)l->record);
                        if (!r)
                                fail_msg("%s not in the registry", l->id);
                        assert_string_equal(r->dsect, l->dsect);
                        char id[16];
                        snprintf(id, sizeof(id), "D%dR%d", l->domain, l->record);
                        assert_string_equal(id, l->id);
                }
        }
        assert_true(ncp >= 30);
}

/* The records issue 9 item 3 names all have a layout. */
static void required_records_have_layouts(void **state)
{
        (void)state;
        static const int req[][2] = {{1, 1}, {1, 4}, {1, 5}, {1, 9}, {1, 11}, {1, 12}, {1, 13},
                                     {0, 1}, {0, 2}, {0, 3}, {0, 8}, {0, 16}, {0, 19}, {3, 1},
                                     {3, 2}, {4, 3}, {4, 4}, {5, 3}, {6, 3},  {8, 1},  {11, 2}};
        for (size_t i = 0; i < sizeof(req) / sizeof(req[0]); i++)
                if (!zl_find_cp(req[i][0], req[i][1], 4096))
                        fail_msg("no layout for D%dR%d", req[i][0], req[i][1]);
        assert_non_null(zl_find("D0R16.CPU", 40));
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(registry_names_known_records),
            cmocka_unit_test(registry_sorted_and_complete),
            cmocka_unit_test(layouts_are_consistent),
            cmocka_unit_test(required_records_have_layouts),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
