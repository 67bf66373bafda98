/* SPDX-License-Identifier: MIT */
/* The LayoutFile loader: a good file, and every error with its line number. */
#include "cp_vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "layout/lay_file.h"

static const char good[] =
    "# corrected SYTPRP for a level we do not know\n"
    "layout D0R2 SYTPRP min_len 400 level \"z/VM 7.9\" source \"site test\"\n"
    "  field SYTPRP_PFXCPUAD 20 2 uint verified none - \"IBM mon640 MRSYTPRP\" \"CPU\"\n"
    "  field SYTPRP_PFXUTIME 32 8 timer verified counter timer \"IBM mon640\" \"user\"\n"
    "  field SYTPRP_PFXTOTWT 0x48 8 timer hint counter timer \"site \\\"fix\\\"\" \"wait\"\n"
    "end\n"
    "\n"
    "layout D0R2 SYTPRP min_len 352 level \"z/VM 6.4\" source \"override\"\r\n"
    "  field SYTPRP_PFXCPUAD 20 2 uint verified none - \"x\" \"\"\n"
    "end\n"
    "layout D99R7 XXXXXX min_len 24 level \"?\" source \"?\"\n"
    "  field XXXXXX_A 20 4 uint uncertain gauge count \"?\" \"new record\"\n"
    "end\n"
    "layout D0R16.CPU SYTCUP min_len 4 level \"1\" source \"me\"\n"
    "  field SYTCUP_A 0 4 uint verified gauge - \"me\" \"entry field\"\n"
    "end\n";

static void loads_good_file(void **state)
{
        (void)state;
        char err[256];
        assert_true(zl_load_text(good, strlen(good), "good", err, sizeof(err)));
        assert_string_equal(err, "");
        const struct zl_layout *l = zl_find_cp(0, 2, 400);
        assert_non_null(l);
        assert_string_equal(l->level, "z/VM 7.9");
        const struct zl_field *f = zl_field(l, "SYTPRP_PFXTOTWT");
        assert_int_equal(f->off, 0x48);
        assert_int_equal(f->type, ZL_TIMER);
        assert_int_equal(f->prov, ZL_HINT);
        assert_string_equal(f->source, "site \"fix\"");
        /* same key and min_len as a built-in: the loaded one wins */
        l = zl_find_cp(0, 2, 352);
        assert_string_equal(l->source, "override");
        /* records shorter than the new layouts still get the built-ins */
        assert_int_equal(zl_find_cp(0, 2, 124)->min_len, 124);
        /* a record number nobody knew */
        assert_non_null(zl_find_cp(99, 7, 24));
        assert_string_equal(zl_find("D0R16.CPU", 4)->source, "me");
        assert_null(zl_field(zl_find("D0R16.CPU", 4), "SYTCUP_A")->unit);
        zl_file_unload_all();
        assert_null(zl_find_cp(99, 7, 24));
        assert_int_equal(zl_find_cp(0, 2, 400)->min_len, 352);
        assert_string_equal(zl_find_cp(0, 2, 352)->source, "IBM mon640 MRSYTPRP + zpmd");
}

static void loads_from_a_file(void **state)
{
        (void)state;
        char path[] = "/tmp/zvm-layouts-XXXXXX", err[256];
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        FILE *fp = fdopen(fd, "w");
        fputs(good, fp);
        fclose(fp);
        assert_true(zl_load_file(path, err, sizeof(err)));
        assert_non_null(zl_find_cp(99, 7, 24));
        zl_file_unload_all();
        remove(path);
        /* what is wrong with the file as a whole has no line to name */
        assert_false(zl_load_file("/nonexistent/layouts", err, sizeof(err)));
        assert_string_equal(err, "/nonexistent/layouts: cannot open: No such file or directory");
        char dir[] = "/tmp/zvm-layouts-XXXXXX";
        assert_non_null(mkdtemp(dir));
        assert_false(zl_load_file(dir, err, sizeof(err)));
        char want[256];
        snprintf(want, sizeof(want), "%s: read error: Is a directory", dir);
        assert_string_equal(err, want);
        rmdir(dir);
        assert_false(zl_load_text("", 0, "empty", err, sizeof(err)));
        assert_string_equal(err, "empty: no layout in the file");
}

/* Each malformed file is refused with its line number, and registers nothing. */
static void refuses_each_error(void **state)
{
        (void)state;
        static const struct {
                const char *text, *msg;
        } bad[] = {
            {"bogus\n", ":1: unknown keyword \"bogus\""},
            {"field SYTPRP_A 20 2 uint verified none - \"s\" \"d\"\n",
             ":1: field outside a layout"},
            {"layout D0R2 SYTPRP min_len 100\n", ":1: expected: layout ID"},
            {"layout D0R2 SYTPRP min_len abc level \"l\" source \"s\"\n", "min_len \"abc\""},
            {"layout D0R2 SYTPRP min_len 5000 level \"l\" source \"s\"\n", "above 4096"},
            {"layout D0R2 SYTPRP min_len 99999999999999999999999 level \"l\" source \"s\"\n",
             "min_len 99999999999999999999999 is above 4096"},
            {"layout D0R2 SYTPRP min_len 10 level \"l\" source \"s\"\n", "below the 20-byte"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\nend\n",
             ":2: layout D0R2 has no fields"},
            /* a missing "end" is found lines later: the message names where it belongs */
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 20 2 uint verified none - \"s\" \"d\"\n\n",
             ":3: file ends inside layout D0R2 of line 1 (missing \"end\")"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 20 2 uint verified none - \"s\" \"d\"\n"
             "layout D0R3 SYTRSG min_len 100 level \"l\" source \"s\"\n",
             ":3: layout D0R3 inside layout D0R2 of line 1 (missing \"end\")"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 20 2 uint verified none -\n",
             ":2: expected: field NAME"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 20 2 float verified none - \"s\" \"d\"\n",
             ":2: unknown type \"float\""},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 20 2 uint trusted none - \"s\" \"d\"\n",
             ":2: unknown provenance"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 20 2 uint verified rate - \"s\" \"d\"\n",
             ":2: unknown kind"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 10 2 uint verified none - \"s\" \"d\"\n",
             ":2: field SYTPRP_A at 10 lies in the record header"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 96 8 uint verified none - \"s\" \"d\"\n",
             ":2: field SYTPRP_A ends at 104, past min_len 100"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 20 12 uint verified none - \"s\" \"d\"\n",
             "longer than 8 bytes"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 20 4 timer verified none - \"s\" \"d\"\n",
             "must be 8 bytes"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 20 0 hex verified none - \"s\" \"d\"\n",
             "length 0"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 20 4 uint verified none - \"s\" \"d\"\n"
             "field SYTPRP_B 22 4 uint verified none - \"s\" \"d\"\n",
             ":3: field SYTPRP_B overlaps SYTPRP_A"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 20 4 uint verified none - \"s\" \"d\"\n"
             "field SYTPRP_A 30 4 uint verified none - \"s\" \"d\"\n",
             ":3: field SYTPRP_A defined twice"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 20 4 uint verified none - \"\" \"d\"\n",
             "has no source"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 20 4 uint verified none - \"s \"d\"\n",
             ":2: text after a closing quote"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 20 4 uint verified none - \"s\" \"d\n",
             ":2: unterminated quoted string"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A -20 4 uint verified none - \"s\" \"d\"\n",
             "offset \"-20\" is not a number"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 0x0x20 4 uint verified none - \"s\" \"d\"\n",
             "offset \"0x0x20\" is not a number"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A;x 20 4 uint verified none - \"s\" \"d\"\n",
             "bad field name"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 20 4 uint verified none - \"s\" \"d\"\nend extra\n",
             ":3: text after \"end\""},
            {"end\n", ":1: \"end\" without layout"},
            /* ids nothing would look up, and a record under another's DSECT */
            {"layout d0r2 SYTPRP min_len 100 level \"l\" source \"s\"\n",
             ":1: layout id \"d0r2\": a CP record is D<domain>R<record>"},
            {"layout D00R2 SYTPRP min_len 100 level \"l\" source \"s\"\n",
             ":1: layout id \"D00R2\": a CP record is D<domain>R<record>"},
            {"layout D256R2 SYTPRP min_len 100 level \"l\" source \"s\"\n",
             ":1: layout id \"D256R2\": a CP record is D<domain>R<record>"},
            {"layout D0R16.CPUS SYTCUP min_len 4 level \"l\" source \"s\"\n",
             ":1: layout id \"D0R16.CPUS\" is neither a CP record"},
            {"layout D0R3 SYTPRP min_len 100 level \"l\" source \"s\"\n",
             ":1: layout D0R3 is SYTRSG's record, not SYTPRP"},
            {"layout D0R9 SYTPRP min_len 100 level \"l\" source \"s\"\n",
             ":1: layout D0R9 is SYTCPC's record, not SYTPRP"},
            /* a reading the engine never asks for: the layout would never be used */
            {"layout D0R2 SYTPRP min_len 352 level \"l\" source \"s\" reading aligend\n",
             ":1: unknown reading \"aligend\" (aligned)"},
            {"layout D0R2 SYTPRP min_len 352 level \"l\" source \"s\" reading packed\n",
             ":1: packed is the default reading: leave out \"reading packed\""},
            {"# only a comment\n", "t: no layout in the file"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 20 4 uint verified none - \"s\" \"d\"\nend\n"
             "layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n",
             ":4: layout D0R2 min_len 100 defined twice"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\x01\" source \"s\"\n",
             ":1: control character"},
            {"a b c d e f g h i j k l m n o p q r\n", ":1: too many words"},
            /* a kind that makes a metric of text, a clock or flags */
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 20 8 ebcdic verified counter - \"s\" \"d\"\n",
             ":2: field SYTPRP_A: kind counter is for a number (uint sint timer timer-down, "
             "ascii digits); ebcdic is none"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 20 8 tod verified gauge - \"s\" \"d\"\n",
             ":2: field SYTPRP_A: kind gauge is for a number"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP_A 20 1 bits verified gauge - \"s\" \"d\"\n",
             "bits is none"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field * 20 4 reserved verified counter - \"s\" \"d\"\n",
             "reserved is none"},
            /* a CP record's field is named <DSECT>_<FIELD>, as on IBM's page */
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTRSG_A 20 4 uint verified none - \"s\" \"d\"\n",
             ":2: field SYTRSG_A of SYTPRP: a CP record's field is named SYTPRP_<FIELD>"},
            {"layout D0R2 SYTPRP min_len 100 level \"l\" source \"s\"\n"
             "field SYTPRP 20 4 uint verified none - \"s\" \"d\"\n",
             "is named SYTPRP_<FIELD>"},
        };
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                char err[256] = "";
                if (zl_load_text(bad[i].text, strlen(bad[i].text), "t", err, sizeof(err)))
                        fail_msg("case %zu accepted", i);
                if (!strstr(err, bad[i].msg))
                        fail_msg("case %zu: \"%s\" lacks \"%s\"", i, err, bad[i].msg);
                assert_memory_equal(err, "t:", 2);
        }
        /* nothing from the bad files was registered */
        assert_int_equal(zl_find_cp(0, 2, 352)->fields[0].off, 20);
        assert_string_equal(zl_find_cp(0, 2, 352)->source, "IBM mon640 MRSYTPRP + zpmd");
        /* a NUL byte and an overlong line */
        char nul[] = "layout D0R2\0x";
        char err[256];
        assert_false(zl_load_text(nul, sizeof(nul) - 1, "t", err, sizeof(err)));
        assert_non_null(strstr(err, "control character 0x00"));
        char *big = malloc(3000);
        memset(big, 'x', 2999);
        big[2999] = '\0';
        assert_false(zl_load_text(big, 2999, "t", err, sizeof(err)));
        assert_non_null(strstr(err, ":1: line longer than"));
        free(big);
}

/*
 * Offsets are copied from IBM's pages, in decimal or X'..' hex: a leading
 * zero that lines up a column is still decimal, never C's octal.
 */
static void numbers_are_decimal_or_hex(void **state)
{
        (void)state;
        static const char text[] =
            "layout D0R2 SYTPRP min_len 400 level \"l\" source \"s\"\n"
            "  field SYTPRP_PFXCPUAD 0020 02 uint verified none - \"s\" \"d\"\n"
            "  field SYTPRP_PFXUTIME 032 010 hex verified none - \"s\" \"d\"\n"
            "  field SYTPRP_PFXTOTWT 0X48 0x8 timer verified counter timer \"s\" \"d\"\n"
            "end\n";
        char err[256];
        if (!zl_load_text(text, strlen(text), "t", err, sizeof(err)))
                fail_msg("%s", err);
        const struct zl_layout *l = zl_find_cp(0, 2, 400);
        assert_int_equal(zl_field(l, "SYTPRP_PFXCPUAD")->off, 20);
        assert_int_equal(zl_field(l, "SYTPRP_PFXCPUAD")->len, 2);
        assert_int_equal(zl_field(l, "SYTPRP_PFXUTIME")->off, 32);
        assert_int_equal(zl_field(l, "SYTPRP_PFXUTIME")->len, 10);
        assert_int_equal(zl_field(l, "SYTPRP_PFXTOTWT")->off, 0x48);
        zl_file_unload_all();
}

/* The built-in layouts written out in the file format load back unchanged. */
static void builtins_round_trip(void **state)
{
        (void)state;
        static const char *const types[] = {"uint",   "sint",  "tod",  "timer", "timer-down",
                                            "ebcdic", "ascii", "bits", "hex",   "reserved"};
        static const char *const kinds[] = {"none", "gauge", "counter"};
        const struct zl_layout *l = zl_find_cp(4, 3, 508);
        char *text = malloc(65536);
        size_t n =
            (size_t)snprintf(text, 65536, "layout %s %s min_len %u level \"%s\" source \"x\"\n",
                             l->id, l->dsect, l->min_len, l->level);
        for (size_t i = 0; i < l->nfields; i++) {
                const struct zl_field *f = &l->fields[i];
                n += (size_t)snprintf(text + n, 65536 - n,
                                      "field %s %u %u %s %s %s %s \"%s\" \"%s\"\n", f->name, f->off,
                                      f->len, types[f->type], zl_prov_name((enum zl_prov)f->prov),
                                      kinds[f->kind], f->unit ? f->unit : "-", f->source, f->desc);
        }
        n += (size_t)snprintf(text + n, 65536 - n, "end\n");
        char err[256];
        if (!zl_load_text(text, n, "rt", err, sizeof(err)))
                fail_msg("%s", err);
        const struct zl_layout *m = zl_find_cp(4, 3, 508);
        assert_ptr_not_equal(m, l);
        assert_int_equal(m->nfields, l->nfields);
        for (size_t i = 0; i < l->nfields; i++) {
                assert_string_equal(m->fields[i].name, l->fields[i].name);
                assert_int_equal(m->fields[i].off, l->fields[i].off);
                assert_int_equal(m->fields[i].prov, l->fields[i].prov);
        }
        zl_file_unload_all();
        free(text);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(loads_good_file),
            cmocka_unit_test(loads_from_a_file),
            cmocka_unit_test(refuses_each_error),
            cmocka_unit_test(builtins_round_trip),
            cmocka_unit_test(numbers_are_decimal_or_hex),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
