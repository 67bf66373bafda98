/* SPDX-License-Identifier: MIT */
/* The layout engine: selection by record length, field access, encoding, run-time layouts. */
#include <stdlib.h>
#include <string.h>

#include "vec.h"

#include "layout/layout.h"

/* A made-up record D9R99 at two levels: the later one appends a field. */
static const struct zl_field f_old[] = {
    {"T_CPUAD", 20, 2, ZL_UINT, ZL_VERIFIED, ZL_K_NONE, NULL, "test", "cpu"},
    {"T_NAME", 22, 8, ZL_EBCDIC, ZL_VERIFIED, ZL_K_NONE, NULL, "test", "name"},
    {"*", 30, 2, ZL_RSVD, ZL_VERIFIED, ZL_K_NONE, NULL, "test", "reserved"},
    {"T_DELTA", 32, 4, ZL_SINT, ZL_HINT, ZL_K_GAUGE, NULL, "test", "signed"},
};
static const struct zl_field f_new[] = {
    {"T_CPUAD", 20, 2, ZL_UINT, ZL_VERIFIED, ZL_K_NONE, NULL, "test", "cpu"},
    {"T_NAME", 22, 8, ZL_EBCDIC, ZL_VERIFIED, ZL_K_NONE, NULL, "test", "name"},
    {"T_DELTA", 32, 4, ZL_SINT, ZL_HINT, ZL_K_GAUGE, NULL, "test", "signed"},
    {"T_TIME", 36, 8, ZL_TIMER, ZL_VERIFIED, ZL_K_COUNTER, "us", "test", "timer"},
    {"T_FLAGS", 44, 2, ZL_BITS, ZL_VERIFIED, ZL_K_NONE, NULL, "test", "flags"},
    {"T_ASCII", 46, 6, ZL_ASCII, ZL_VERIFIED, ZL_K_NONE, NULL, "test", "text"},
};
static const struct zl_layout l_old = {"D9R99", "TSTREC", 9, 99, 36, "old", "test", f_old, 4};
static const struct zl_layout l_new = {"D9R99", "TSTREC", 9, 99, 52, "new", "test", f_new, 6};
static const struct zl_layout l_fix = {"D9R99", "TSTREC", 9, 99, 52, "fix", "test", f_new, 3};

static int setup(void **state)
{
        (void)state;
        zl_unregister_all();
        assert_true(zl_register(&l_old));
        assert_true(zl_register(&l_new));
        return 0;
}

static int teardown(void **state)
{
        (void)state;
        zl_unregister_all();
        return 0;
}

static void selection_by_length(void **state)
{
        (void)state;
        assert_null(zl_find_cp(9, 99, 35));
        assert_ptr_equal(zl_find_cp(9, 99, 36), &l_old);
        assert_ptr_equal(zl_find_cp(9, 99, 51), &l_old);
        assert_ptr_equal(zl_find_cp(9, 99, 52), &l_new);
        assert_ptr_equal(zl_find_cp(9, 99, 4000), &l_new); /* a later level appended more */
        assert_null(zl_find_cp(9, 98, 100));
        /* a later registration of the same key and min_len corrects the earlier one */
        assert_true(zl_register(&l_fix));
        assert_ptr_equal(zl_find_cp(9, 99, 52), &l_fix);
        assert_ptr_equal(zl_find_cp(9, 99, 40), &l_old);
        /* the built-in header layout is found by id */
        assert_non_null(zl_find("MRHDR", 20));
        assert_null(zl_find("MRHDR", 19));
}

/*
 * A kind of record below domain 16 and record 64 is remembered with the
 * lengths its answer holds for: within them the same answer, outside them
 * (shorter than the layout found, or reaching a longer one) the right
 * layout, and a layout registered since wins at once.
 */
static const struct zl_layout k_old = {"D9R7", "TSTKIND", 9, 7, 36, "old", "test", f_old, 4};
static const struct zl_layout k_new = {"D9R7", "TSTKIND", 9, 7, 52, "new", "test", f_new, 6};
static const struct zl_layout k_mid = {"D9R7", "TSTKIND", 9, 7, 44, "mid", "test", f_new, 3};

static void selection_by_length_per_kind(void **state)
{
        (void)state;
        assert_true(zl_register(&k_old));
        assert_true(zl_register(&k_new));
        assert_ptr_equal(zl_find_cp(9, 7, 100), &k_new);
        assert_ptr_equal(zl_find_cp(9, 7, 40), &k_old); /* below the remembered 52 */
        assert_null(zl_find_cp(9, 7, 35));              /* below the remembered 36 */
        assert_ptr_equal(zl_find_cp(9, 7, 36), &k_old);
        for (size_t n = 36; n < 52; n++)
                assert_ptr_equal(zl_find_cp(9, 7, n), &k_old);
        assert_ptr_equal(zl_find_cp(9, 7, 52), &k_new); /* reaches the next layout */
        assert_ptr_equal(zl_find_cp(9, 7, 4000), &k_new);
        /* a layout between the two, registered later (a LayoutFile) */
        assert_true(zl_register(&k_mid));
        assert_ptr_equal(zl_find_cp(9, 7, 45), &k_mid);
        assert_ptr_equal(zl_find_cp(9, 7, 43), &k_old);
        assert_ptr_equal(zl_find_cp(9, 7, 51), &k_mid);
        assert_ptr_equal(zl_find_cp(9, 7, 60), &k_new);
        /* a kind with no layout at all, and the next kind untouched by these */
        assert_null(zl_find_cp(9, 8, 10));
        assert_null(zl_find_cp(9, 8, 100000));
        assert_ptr_equal(zl_find_cp(9, 99, 52), &l_new);
}

/*
 * Two keys asked for in turn, as a module asks for two layouts record after
 * record, get their own answers wherever they fall in the caches (zl_find,
 * zl_find_cp, zl_field): a key that meets another in a set never takes the
 * other's answer.  The keys are drawn at random (lengths, and addresses of
 * the same name in a buffer), since keys in a row spread over a
 * multiplicative hash's sets and never meet.
 */
#define PAIRS 2000
#define NAMES 65536

static uint64_t lcg(uint64_t *x)
{
        *x = *x * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
        return *x >> 33;
}

static void lookups_in_turn_keep_their_answers(void **state)
{
        (void)state;
        static char names[NAMES][8]; /* the same name at NAMES addresses: NAMES keys */
        for (size_t i = 0; i < NAMES; i++)
                memcpy(names[i], "T_CPUAD", 8);
        uint64_t x = 42;
        for (size_t i = 0; i < PAIRS; i++) {
                size_t a = 20 + lcg(&x) % 100000, b = 52 + lcg(&x) % 100000; /* both found */
                const char *n1 = names[lcg(&x) % NAMES], *n2 = names[lcg(&x) % NAMES];
                size_t c = 36 + lcg(&x) % 16; /* D9R99's older level, 36-51 */
                (void)zl_find("MRHDR", a);
                (void)zl_find("D9R99", b);
                (void)zl_find_cp(9, 99, b);
                (void)zl_find_cp(9, 99, c);
                (void)zl_field(&l_old, n1);
                (void)zl_field(&l_new, n2);
                for (int k = 0; k < 3; k++) {
                        assert_non_null(zl_find("MRHDR", a));
                        assert_ptr_equal(zl_find("D9R99", b), &l_new);
                        assert_ptr_equal(zl_find_cp(9, 99, b), &l_new);
                        assert_ptr_equal(zl_find_cp(9, 99, c), &l_old);
                        assert_ptr_equal(zl_field(&l_old, n1), &f_old[0]);
                        assert_ptr_equal(zl_field(&l_new, n2), &f_new[0]);
                }
        }
}

static void field_access(void **state)
{
        (void)state;
        uint8_t r[52];
        memset(r, 0, sizeof(r));
        vec_hdr(r, 52, 9, 99, 0);
        be16(r + 20, 0x0003);
        /* "CPU1    " in EBCDIC */
        static const uint8_t name[8] = {0xC3, 0xD7, 0xE4, 0xF1, 0x40, 0x40, 0x40, 0x40};
        memcpy(r + 22, name, 8);
        be32(r + 32, (uint32_t)-5);
        be64(r + 36, UINT64_C(4096) * 1000000);
        be16(r + 44, 0x8001);
        memcpy(r + 46, "ab\0\0\0\0", 6);
        zd_view v = zd_view_make(r, sizeof(r));
        const struct zl_layout *l = zl_find_cp(9, 99, v.n);
        struct zl_value x;
        uint64_t u = 0; /* zl_get_u64 leaves it as it is when false */
        assert_true(zl_get_u64(l, v, "T_CPUAD", &u));
        assert_int_equal(u, 3);
        assert_true(zl_get(l, v, "T_DELTA", &x));
        assert_int_equal(x.s, -5);
        char t[64];
        assert_true(zl_get(l, v, "T_NAME", &x));
        zl_text(&x, t, sizeof(t));
        assert_string_equal(t, "CPU1");
        assert_true(zl_get(l, v, "T_FLAGS", &x));
        zl_text(&x, t, sizeof(t));
        assert_string_equal(t, "8001");
        assert_true(zl_get(l, v, "T_ASCII", &x));
        zl_text(&x, t, sizeof(t));
        assert_string_equal(t, "ab");
        assert_true(zl_get(l, v, "T_TIME", &x));
        assert_true(x.u == UINT64_C(4096) * 1000000);
        assert_false(zl_get(l, v, "NO_SUCH", &x));
        /* a field beyond the record is absent, not read */
        assert_false(zl_get(l, zd_view_make(r, 40), "T_TIME", &x));
        assert_false(x.present);
}

struct walk {
        int n, present;
};
static void count_field(void *ctx, const struct zl_value *v)
{
        struct walk *w = ctx;
        w->n++;
        w->present += v->present;
}

static void foreach_skips_reserved(void **state)
{
        (void)state;
        uint8_t r[40] = {0};
        struct walk w = {0, 0};
        zl_foreach(&l_old, zd_view_make(r, 36), count_field, &w);
        assert_int_equal(w.n, 3);
        assert_int_equal(w.present, 3);
        w.n = w.present = 0;
        zl_foreach(&l_new, zd_view_make(r, 40), count_field, &w);
        assert_int_equal(w.n, 6);
        assert_int_equal(w.present, 3);
}

/*
 * A layout may declare no fields at all (a LayoutFile's, or a record known
 * only by its header): nothing to hand over, and no arithmetic on its NULL
 * field table.  Every built-in layout is walked too, over no bytes and over
 * more than any of them spans, with the count of fields each walk must give.
 */
static void foreach_any_layout(void **state)
{
        (void)state;
        static uint8_t r[8192];
        const struct zl_layout none = {"NONE", "NONE", -1, -1, 0, "test", "test", NULL, 0};
        struct walk w = {0, 0};
        zl_foreach(&none, zd_view_make(r, sizeof(r)), count_field, &w);
        zl_foreach(&none, zd_view_make(NULL, 0), count_field, &w);
        assert_int_equal(w.n, 0);
        const struct zl_layout *l;
        for (size_t i = 0; (l = zl_layout_at(i)) != NULL; i++) {
                int fields = 0;
                for (size_t k = 0; k < l->nfields; k++)
                        fields += l->fields[k].type != ZL_RSVD;
                struct walk empty = {0, 0}, full = {0, 0};
                zl_foreach(l, zd_view_make(NULL, 0), count_field, &empty);
                zl_foreach(l, zd_view_make(r, sizeof(r)), count_field, &full);
                assert_int_equal(empty.n, fields);
                assert_int_equal(full.n, fields);
                assert_int_equal(full.present, fields);
        }
}

/*
 * Every member of a value, as zl_foreach hands it over and zl_read returns it:
 * integers in u (and s), wider integers by their first 8 bytes, text and hex
 * with u and s 0, a field past the record's end absent with every member 0.
 */
static const struct zl_field f_wide[] = {
    {"W_BYTE", 0, 1, ZL_UINT, ZL_VERIFIED, ZL_K_NONE, NULL, "test", "first byte"},
    {"W_S3", 1, 3, ZL_SINT, ZL_VERIFIED, ZL_K_NONE, NULL, "test", "3-byte signed"},
    {"W_U10", 4, 10, ZL_UINT, ZL_VERIFIED, ZL_K_NONE, NULL, "test", "wider than 8"},
    {"W_HEX", 14, 4, ZL_HEX, ZL_VERIFIED, ZL_K_NONE, NULL, "test", "opaque"},
    {"W_TOD", 18, 5, ZL_TOD, ZL_VERIFIED, ZL_K_NONE, NULL, "test", "5-byte clock"},
    {"W_EMPTY", 23, 0, ZL_UINT, ZL_VERIFIED, ZL_K_NONE, NULL, "test", "no bytes"},
    {"W_LAST", 23, 2, ZL_BITS, ZL_VERIFIED, ZL_K_NONE, NULL, "test", "at the end"},
};
static const struct zl_layout l_wide = {"WIDE", "WIDE", -1, -1, 0, "test", "test", f_wide, 7};

struct seen {
        struct zl_value v[8];
        int n;
};
static void keep_value(void *ctx, const struct zl_value *v)
{
        struct seen *s = ctx;
        s->v[s->n++] = *v;
}

static void value_members(void **state)
{
        (void)state;
        uint8_t r[25];
        for (size_t i = 0; i < sizeof(r); i++)
                r[i] = (uint8_t)(0xF1 - 3 * i);
        static const uint64_t u[] = {0xF1, 0xEEEBE8, UINT64_C(0xE5E2DFDCD9D6D3D0), 0, 0xBBB8B5B2AF,
                                     0,    0xACA9};
        for (size_t n = 0; n <= sizeof(r); n++) {
                struct seen s = {.n = 0};
                zd_view rec = zd_view_make(r, n);
                zl_foreach(&l_wide, rec, keep_value, &s);
                assert_int_equal(s.n, 7);
                for (int i = 0; i < 7; i++) {
                        const struct zl_field *f = &f_wide[i];
                        struct zl_value x;
                        memset(&x, 0x5A, sizeof(x));
                        bool in = (size_t)f->off + f->len <= n;
                        assert_int_equal(zl_read(f, rec, &x), in);
                        for (const struct zl_value *v = &x; v; v = v == &x ? &s.v[i] : NULL) {
                                assert_ptr_equal(v->f, f);
                                assert_int_equal(v->present, in);
                                assert_true(v->u == (in ? u[i] : 0));
                                assert_true(v->s == (in && i == 1 ? -0x111418 : 0));
                                assert_ptr_equal(v->raw.p, in ? r + f->off : NULL);
                                assert_int_equal(v->raw.n, in ? f->len : 0);
                        }
                }
        }
}

/*
 * Every field shape against a reading written from the definitions: the
 * first min(len, 8) bytes big-endian for the integer types, two's complement
 * of those bits for sint, nothing for the others.  Offsets 0..13 and lengths
 * 0..10 take both the one-load path (fields ending 8 or more bytes in) and the
 * others; each record is its own allocation of exactly its length, so a read
 * past it shows under ASan and valgrind.
 */
static bool is_int_type(unsigned t)
{
        return t == ZL_UINT || t == ZL_SINT || t == ZL_TOD || t == ZL_TIMER || t == ZL_TIMERD ||
               t == ZL_BITS;
}

static void check_value(const struct zl_field *f, const uint8_t *r, size_t n,
                        const struct zl_value *v)
{
        bool in = (size_t)f->off + f->len <= n;
        uint64_t u = 0;
        int64_t s = 0;
        size_t k = f->len < 8 ? f->len : 8;
        if (in && is_int_type(f->type))
                for (size_t i = 0; i < k; i++)
                        u = u << 8 | r[f->off + i];
        if (in && f->type == ZL_SINT && k > 0) {
                if (r[f->off] & 0x80) {
                        /* negative: -(2^bits - u), counted without overflow */
                        uint64_t mag = k == 8 ? ~u + 1 : ((uint64_t)1 << (8 * k)) - u;
                        s = mag == (uint64_t)1 << 63 ? INT64_MIN : -(int64_t)mag;
                } else {
                        s = (int64_t)u;
                }
        }
        assert_ptr_equal(v->f, f);
        assert_int_equal(v->present, in);
        assert_true(v->u == u);
        assert_true(v->s == s);
        assert_ptr_equal(v->raw.p, in ? r + f->off : NULL);
        assert_int_equal(v->raw.n, in ? f->len : 0);
}

static void every_field_shape(void **state)
{
        (void)state;
        static const uint8_t types[] = {ZL_UINT, ZL_SINT,   ZL_TOD,   ZL_TIMER, ZL_TIMERD, ZL_BITS,
                                        ZL_HEX,  ZL_EBCDIC, ZL_ASCII, ZL_RSVD,  200};
        for (size_t n = 0; n <= 24; n++) {
                uint8_t *r = malloc(n ? n : 1);
                assert_non_null(r);
                for (size_t i = 0; i < n; i++)
                        r[i] = (uint8_t)(0x81 + 0x35 * i + n); /* high bits on and off */
                zd_view rec = zd_view_make(r, n);
                uint64_t none = 7; /* no field: nothing read, whatever the record */
                assert_false(zl_ref_u64(zl_ref_make(NULL), rec, &none));
                assert_true(none == 7);
                for (size_t t = 0; t < sizeof(types); t++)
                        for (uint16_t off = 0; off <= 13; off++)
                                for (uint16_t len = 0; len <= 10; len++) {
                                        struct zl_field f = {"S_F",    off,         len,
                                                             types[t], ZL_VERIFIED, ZL_K_NONE,
                                                             NULL,     "test",      ""};
                                        struct zl_layout l = {"SHAPE", "SHAPE", -1, -1, 0,
                                                              "test",  "test",  &f, 1};
                                        struct zl_value x;
                                        memset(&x, 0x5A, sizeof(x));
                                        bool in = (size_t)off + len <= n;
                                        assert_int_equal(zl_read(&f, rec, &x), in);
                                        check_value(&f, r, n, &x);
                                        /* a field made ready (zl_ref): zl_read_u64's integer */
                                        uint64_t ru = 0x5A5A;
                                        assert_int_equal(zl_ref_u64(zl_ref_make(&f), rec, &ru), in);
                                        assert_true(ru == (!in                     ? 0x5A5A
                                                           : is_int_type(types[t]) ? x.u
                                                                                   : 0));
                                        struct seen sn = {.n = 0};
                                        zl_foreach(&l, rec, keep_value, &sn);
                                        assert_int_equal(sn.n, types[t] == ZL_RSVD ? 0 : 1);
                                        if (sn.n)
                                                check_value(&f, r, n, &sn.v[0]);
                                }
                free(r);
        }
}

static void encoding(void **state)
{
        (void)state;
        uint8_t r[52];
        memset(r, 0xFF, sizeof(r));
        zd_wbuf b = {r, sizeof(r)};
        assert_true(zl_set(&l_new, b, "T_CPUAD", 0x0102));
        assert_int_equal(r[20], 0x01);
        assert_int_equal(r[21], 0x02);
        assert_true(zl_set_text(&l_new, b, "T_NAME", "AB"));
        assert_int_equal(r[22], 0xC1);
        assert_int_equal(r[23], 0xC2);
        assert_int_equal(r[24], 0x40);
        assert_int_equal(r[29], 0x40);
        assert_true(zl_set(&l_new, b, "T_TIME", UINT64_C(0x0102030405060708)));
        assert_int_equal(r[36], 0x01);
        assert_int_equal(r[43], 0x08);
        assert_false(zl_set(&l_new, b, "NO_SUCH", 1));
        zd_wbuf small = {r, 40};
        assert_false(zl_set(&l_new, small, "T_TIME", 1)); /* would run past the buffer */
        assert_string_equal(zl_prov_name(ZL_HINT), "hint");
        assert_string_equal(zl_type_name(ZL_TIMERD), "timer-down");
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test_setup_teardown(selection_by_length, setup, teardown),
            cmocka_unit_test_setup_teardown(selection_by_length_per_kind, setup, teardown),
            cmocka_unit_test_setup_teardown(field_access, setup, teardown),
            cmocka_unit_test_setup_teardown(lookups_in_turn_keep_their_answers, setup, teardown),
            cmocka_unit_test_setup_teardown(foreach_skips_reserved, setup, teardown),
            cmocka_unit_test_setup_teardown(encoding, setup, teardown),
            cmocka_unit_test(foreach_any_layout),
            cmocka_unit_test(value_members),
            cmocka_unit_test(every_field_shape),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
