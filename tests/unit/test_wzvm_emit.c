/* SPDX-License-Identifier: MIT */
/* zvmmon's JSON of a write_zvm record (zvmmon/emit_wzvm.c), from a hand-written vector. */
#include "wzvm_vec.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "emit.h"

static char *dump_as(const uint8_t *data, size_t n, bool text)
{
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        struct zmon_sink s;
        assert_true(text ? zmon_sink_text(&s, f) : zmon_sink_json(&s, f));
        s.begin(s.ctx);
        s.map_open(s.ctx);
        zmon_emit_wzvm(&s, zd_view_make(data, n));
        s.map_close(s.ctx);
        s.end(s.ctx);
        s.destroy(s.ctx);
        fclose(f);
        return buf;
}

static char *dump(const uint8_t *data, size_t n)
{
        return dump_as(data, n, false);
}

static void record_as_json(void **state)
{
        (void)state;
        uint8_t r[REC_LEN];
        vec_record(r);
        char *j = dump(r, sizeof(r));
        assert_non_null(strstr(j, "\"host\":\"lnx01\""));
        assert_non_null(strstr(j, "\"consistent\":true"));
        assert_non_null(strstr(j, "\"nentries\":2"));
        assert_non_null(strstr(j, "\"plugin\":\"memory\""));
        assert_non_null(strstr(j, "\"type_instance\":\"used\""));
        assert_non_null(strstr(j, "\"ds_type\":\"GAUGE\""));
        assert_non_null(strstr(j, "\"value\":0.75"));
        assert_non_null(strstr(j, "\"plugin_instance\":\"eth0\""));
        assert_non_null(strstr(j, "\"ds_type\":\"DERIVE\""));
        assert_non_null(strstr(j, "\"value\":-5"));
        assert_non_null(strstr(j, "\"time\":\"2026-11-22T00:00:00"));
        /* the header's TOD as every TOD field: hex and time, never a raw integer */
        assert_non_null(strstr(j, "\"timestamp\":{\"tod\":\"0x"));
        char want[80];
        snprintf(want, sizeof(want),
                 "\"timestamp\":{\"tod\":\"0x%016" PRIX64
                 "\",\"time\":\"2026-11-22T00:00:00.000000Z\"}",
                 (uint64_t)VEC_TOD_2026);
        assert_non_null(strstr(j, want));
        assert_null(strstr(j, "error"));
        free(j);
        /* a NaN gauge is a string, not invalid JSON */
        be64(r + 96 + 16, UINT64_C(0x7FF8000000000000));
        j = dump(r, sizeof(r));
        assert_non_null(strstr(j, "\"value\":\"nan\""));
        free(j);
        /* damage is named */
        vec_record(r);
        r[4] = 9;
        j = dump(r, sizeof(r));
        assert_non_null(strstr(j, "\"error\":\"wzvm_version\""));
        free(j);
}

/*
 * The text sink writes strings as they are: an ESC in a name would reach the
 * terminal.  The decoder refuses that entry and those after it: none is printed.
 */
static void unprintable_name_not_printed(void **state)
{
        (void)state;
        uint8_t r[REC_LEN];
        vec_record(r);
        r[96 + 40] = 0x1B; /* type_instance "used" (doc/write_zvm.md offsets) */
        char *t = dump_as(r, sizeof(r), true);
        assert_non_null(strstr(t, "error=wzvm_name"));
        assert_null(strstr(t, "memory"));
        for (const char *p = t; *p; p++)
                assert_true(*p == '\n' || (*p >= 0x20 && *p < 0x7F));
        free(t);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(record_as_json),
            cmocka_unit_test(unprintable_name_not_printed),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
