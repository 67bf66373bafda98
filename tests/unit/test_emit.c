/* SPDX-License-Identifier: MIT */
/* Emitters: JSON that parses, exact 64-bit numbers, hostile strings made safe. */
#include "vec_appl.h"

#include <stdio.h>
#include <stdlib.h>

#include <yajl_tree.h>

#include "emit.h"

static uint8_t rec[8192], data[4096];
static char *out;
static size_t outlen;

/* Emit r (with domain 10 examination) as JSON; parse the single line back. */
static yajl_val emit_json(const uint8_t *p, size_t n)
{
        FILE *f = open_memstream(&out, &outlen);
        assert_non_null(f);
        struct zmon_emit *e = zmon_emit_new(ZMON_EMIT_JSON, f);
        assert_non_null(e);
        struct zd_record r = vec_record(p, n);
        r.tod = VEC_TOD_2026;
        struct zd_decoder d;
        zd_decoder_init(&d, NULL);
        struct zd_appl_info ai;
        zd_appl_examine(&d, NULL, &r, &ai);
        zmon_emit_record(e, &r, &ai);
        zmon_emit_free(e);
        fclose(f);
        assert_true(outlen > 0 && out[outlen - 1] == '\n');
        assert_null(memchr(out, '\n', outlen - 1)); /* one line */
        char err[256];
        yajl_val v = yajl_tree_parse(out, err, sizeof(err));
        if (!v)
                fail_msg("JSON did not parse: %s\n%s", err, out);
        return v;
}

static yajl_val at(yajl_val v, const char *a, const char *b, const char *c)
{
        const char *path[] = {a, b, c, NULL};
        return yajl_tree_get(v, path, yajl_t_any);
}

static void kernel_mem_json(void **state)
{
        (void)state;
        uint8_t prod[16];
        memset(data, 0, 144);
        vec_lx_common(data, VEC_TOD_2026, 4, 4);
        be64(data + 56, UINT64_MAX); /* totalram: needs all 64 bits */
        vec_lx_prodid(prod, 1, "00");
        size_t n = vec_d10(rec, 2, "LINUX01", prod, data, 144);
        yajl_val v = emit_json(rec, n);
        assert_string_equal(YAJL_GET_STRING(at(v, "domain_name", NULL, NULL)), "APPLDATA");
        assert_string_equal(YAJL_GET_STRING(at(v, "record_name", NULL, NULL)),
                            "Application data sample record");
        assert_string_equal(YAJL_GET_STRING(at(v, "time", NULL, NULL)),
                            "2026-11-22T00:00:00.000000Z");
        assert_string_equal(YAJL_GET_STRING(at(v, "layout", NULL, NULL)), "D10R2");
        assert_int_equal(YAJL_GET_INTEGER(at(v, "fields", "APLSDT_CALDATLN", NULL)), 144);
        assert_string_equal(YAJL_GET_STRING(at(v, "appl", "userid", NULL)), "LINUX01");
        assert_string_equal(YAJL_GET_STRING(at(v, "appl", "type", NULL)), "mem");
        yajl_val fields = at(v, "appl", "fields", NULL);
        const char *tr[] = {"totalram", NULL};
        yajl_val t = yajl_tree_get(fields, tr, yajl_t_number);
        assert_non_null(t);
        assert_string_equal(YAJL_GET_NUMBER(t), "18446744073709551615");
        const char *ts[] = {"timestamp", "time", NULL};
        assert_string_equal(YAJL_GET_STRING(yajl_tree_get(fields, ts, yajl_t_string)),
                            "2026-11-22T00:00:00.000000Z");
        yajl_tree_free(v);
        free(out);
}

static void hostile_strings_stay_valid(void **state)
{
        (void)state;
        uint8_t prod[16];
        /* mon_fsstatd entry whose strings hold control bytes, invalid and valid UTF-8. */
        static const uint8_t name[] = {'/', 0x01, 0xFF, 0xC3, 0xA9, 0xED, 0xA0, 0x80, '"', '\\'};
        memset(data, 0, 200);
        size_t o = 12;
        be16(data + o, sizeof(name));
        memcpy(data + o + 2, name, sizeof(name));
        o += 2 + sizeof(name);
        be16(data + o, 1);
        data[o + 2] = '/';
        o += 3;
        be16(data + o, 3);
        memcpy(data + o + 2, "xfs", 3);
        o += 5 + 72;
        be64(data, 1795305600);
        be16(data + 8, (uint16_t)(o - 12));
        be16(data + 10, 12);
        vec_lnx_prodid(prod, 1, 0, 0, 0, 0);
        size_t n = vec_d10(rec, 2, "LINUX01", prod, data, 200);
        yajl_val v = emit_json(rec, n);
        yajl_val fs = at(v, "appl", "filesystems", NULL);
        assert_true(YAJL_IS_ARRAY(fs));
        assert_int_equal(YAJL_GET_ARRAY(fs)->len, 1);
        const char *nm[] = {"fs_name", NULL};
        const char *s =
            YAJL_GET_STRING(yajl_tree_get(YAJL_GET_ARRAY(fs)->values[0], nm, yajl_t_string));
        /* control, 0xFF and the surrogate's three bytes become '?'; é survives. */
        assert_string_equal(s, "/??\xC3\xA9???\"\\");
        yajl_tree_free(v);
        free(out);

        /* Text output of the same record does not crash and names the type. */
        FILE *f = open_memstream(&out, &outlen);
        struct zmon_emit *e = zmon_emit_new(ZMON_EMIT_TEXT, f);
        struct zd_record r = vec_record(rec, n);
        struct zd_decoder d;
        zd_decoder_init(&d, NULL);
        struct zd_appl_info ai;
        zd_appl_examine(&d, NULL, &r, &ai);
        zmon_emit_record(e, &r, &ai);
        zmon_emit_free(e);
        fclose(f);
        assert_non_null(strstr(out, "type=fsstatd"));
        assert_non_null(strstr(out, "fs_type=xfs"));
        free(out);
}

/* One object through a JSON sink: {"input": <the string>, "records": 17}. */
static bool sink_object(const char *v, bool sanitise)
{
        FILE *f = open_memstream(&out, &outlen);
        assert_non_null(f);
        struct zmon_sink s;
        assert_true(zmon_sink_json(&s, f));
        s.begin(s.ctx);
        s.map_open(s.ctx);
        s.key(s.ctx, "input");
        if (sanitise)
                zmon_sink_str(&s, v, strlen(v));
        else
                s.str(s.ctx, v, strlen(v));
        s.key(s.ctx, "records");
        s.num(s.ctx, "17");
        s.map_close(s.ctx);
        s.end(s.ctx);
        bool ok = s.ok(s.ctx);
        s.destroy(s.ctx);
        fclose(f);
        return ok;
}

/* A file name is any bytes.  yajl refuses one that is not UTF-8 and generates
 * nothing for it, so that every later key and value would be out of step. */
static void json_sink_refuses_to_go_out_of_step(void **state)
{
        (void)state;
        assert_false(sink_object("bad\xff.cap", false));
        assert_int_equal(outlen, 0); /* nothing rather than a wrong object */
        free(out);

        assert_true(sink_object("bad\xff.cap", true));
        char err[256];
        yajl_val v = yajl_tree_parse(out, err, sizeof(err));
        if (!v)
                fail_msg("JSON did not parse: %s\n%s", err, out);
        assert_string_equal(YAJL_GET_STRING(at(v, "input", NULL, NULL)), "bad?.cap");
        assert_int_equal(YAJL_GET_INTEGER(at(v, "records", NULL, NULL)), 17);
        yajl_tree_free(v);
        free(out);
}

static void errors_and_unknown_records(void **state)
{
        (void)state;
        /* A record of an unknown domain: names say "unknown", no layout. */
        vec_hdr(rec, 24, 14, 99, VEC_TOD_2026);
        memset(rec + 20, 0xAB, 4);
        FILE *f = open_memstream(&out, &outlen);
        struct zmon_emit *e = zmon_emit_new(ZMON_EMIT_JSON, f);
        struct zd_record r = vec_record(rec, 24);
        zmon_emit_record(e, &r, NULL);
        struct zd_error err = {.kind = ZD_E_APPL_SYNC};
        snprintf(err.msg, sizeof(err.msg), "bad \"quote\" and \x01 control");
        err.pos.offset = 77;
        zmon_emit_error(e, &err);
        zmon_emit_free(e);
        fclose(f);
        char *nl = strchr(out, '\n');
        assert_non_null(nl);
        *nl = '\0';
        char ebuf[128];
        yajl_val v = yajl_tree_parse(out, ebuf, sizeof(ebuf));
        assert_non_null(v);
        assert_string_equal(YAJL_GET_STRING(at(v, "record_name", NULL, NULL)), "unknown");
        assert_string_equal(YAJL_GET_STRING(at(v, "domain_name", NULL, NULL)), "unknown");
        assert_null(at(v, "layout", NULL, NULL));
        yajl_tree_free(v);
        v = yajl_tree_parse(nl + 1, ebuf, sizeof(ebuf));
        assert_non_null(v);
        assert_string_equal(YAJL_GET_STRING(at(v, "error", NULL, NULL)), "appl_sync");
        assert_int_equal(YAJL_GET_INTEGER(at(v, "offset", NULL, NULL)), 77);
        assert_string_equal(YAJL_GET_STRING(at(v, "message", NULL, NULL)),
                            "bad \"quote\" and ? control");
        yajl_tree_free(v);
        free(out);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(kernel_mem_json),
            cmocka_unit_test(hostile_strings_stay_valid),
            cmocka_unit_test(errors_and_unknown_records),
            cmocka_unit_test(json_sink_refuses_to_go_out_of_step),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
