/* SPDX-License-Identifier: MIT */
/*
 * Readers compiled with their tables (decoder/layout/lay_fast.h): for every
 * built-in layout, over records that reach every field and records that do
 * not, zl_reader_ints gives what zl_read_ints gives, field by field; and the
 * CP layouts a whole table makes are read by their compiled reader.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "layout/layout.h"

/* xorshift: bytes with every bit pattern, the same every run */
static uint64_t next(uint64_t *s)
{
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        return *s;
}

/* l's reader against zl_read_ints on a record of n bytes; whether the compiled reader ran. */
static void agree(const struct zl_reader *r, const struct zl_layout *l, size_t n, uint64_t *seed)
{
        uint8_t *p = malloc(n ? n : 1);
        assert_non_null(p);
        for (size_t i = 0; i < n; i++)
                p[i] = (uint8_t)next(seed);
        zd_view rec = zd_view_make(p, n);
        uint64_t want[ZL_READER_MAX + 1], got[ZL_READER_MAX + 1];
        memset(got, 0x5A, sizeof(got));
        assert_int_equal(zl_read_ints(l, rec, 0, want, l->nfields), l->nfields);
        size_t in = 0;
        for (size_t i = 0; i < l->nfields; i++)
                in += zl_inside(&l->fields[i], rec) && l->fields[i].type != ZL_RSVD;
        assert_int_equal(zl_reader_ints(r, rec, got), in);
        for (size_t i = 0; i < l->nfields; i++)
                if (got[i] != want[i])
                        fail_msg("%s (%s) length %zu: field %zu %s: %llx, want %llx", l->id,
                                 l->level, n, i, l->fields[i].name, (unsigned long long)got[i],
                                 (unsigned long long)want[i]);
        assert_true(got[l->nfields] == UINT64_C(0x5A5A5A5A5A5A5A5A)); /* nothing past them */
        free(p);
}

static void compiled_readers_agree(void **state)
{
        (void)state;
        uint64_t seed = UINT64_C(0x9E3779B97F4A7C15);
        size_t fast = 0;
        const struct zl_layout *l;
        for (size_t i = 0; (l = zl_layout_at(i)) != NULL; i++) {
                struct zl_reader r;
                if (!zl_reader_init(&r, l))
                        continue;
                fast += r.fast != NULL;
                for (int k = 0; k < 8; k++) {
                        agree(&r, l, r.reach, &seed); /* just every field */
                        agree(&r, l, r.reach + 1 + (size_t)k * 7, &seed);
                        agree(&r, l, r.reach > 3 ? r.reach - 3 : 0, &seed); /* one stops short */
                }
        }
        assert_true(fast >= 40); /* 48 when written: every whole CP table */
}

/*
 * The hot CP records have theirs; a layout of part of a table (SYTSYP's
 * first 20 fields, an older level's) has none, since its reader must not
 * read past its own fields.
 */
static void compiled_where_whole(void **state)
{
        (void)state;
        static const struct {
                int d, r;
                size_t len;
                bool fast;
        } cases[] = {{4, 3, 508, true}, {6, 3, 202, true}, {8, 1, 300, true},  {0, 2, 352, true},
                     {0, 1, 116, true}, {0, 1, 96, false}, {0, 2, 104, false}, {5, 3, 200, true}};
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                const struct zl_layout *l = zl_find_cp(cases[i].d, cases[i].r, cases[i].len);
                struct zl_reader r;
                assert_non_null(l);
                assert_true(zl_reader_init(&r, l));
                if ((r.fast != NULL) != cases[i].fast)
                        fail_msg("D%dR%d length %zu: compiled reader %s", cases[i].d, cases[i].r,
                                 cases[i].len, r.fast ? "found" : "missing");
        }
}

/* Every guest's kernel and monwriter records are read whole too: their payloads have theirs. */
static void compiled_linux(void **state)
{
        (void)state;
        static const char *const ids[] = {
            "LINUXKRNL.MEM",      "LINUXKRNL.OS",  "LINUXKRNL.OS.CPU00",
            "LINUXKRNL.OS.CPU01", "LINUXKRNL.NET", "LNXAPPL.HDR",
            "LNXAPPL.1.0.FS",     "LNXAPPL.2.0",   "LNXAPPL.2.1"};
        for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
                const struct zl_layout *l = zl_find(ids[i], SIZE_MAX);
                struct zl_reader r;
                assert_non_null(l);
                assert_true(zl_reader_init(&r, l));
                if (!r.fast)
                        fail_msg("%s: no compiled reader", ids[i]);
        }
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(compiled_readers_agree),
            cmocka_unit_test(compiled_where_whole),
            cmocka_unit_test(compiled_linux),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
