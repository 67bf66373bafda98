/* SPDX-License-Identifier: MIT */
/* VM/370 Monitor record layouts, names, time and metrics (lay_vm370.c, reg_vm370.c, met_vm370.c).
 */
#include <stdio.h>

#include "vec_hist.h"

#include "emit.h"
#include "layout/layout.h"
#include "metric/metric.h"
#include "payload/vm370/vm370.h"

static void text_of(const struct zl_layout *l, zd_view rec, const char *f, char *out, size_t n)
{
        struct zl_value v;
        assert_true(zl_get(l, rec, f, &v));
        zl_text(&v, out, n);
}

static uint64_t u64_of(const struct zl_layout *l, zd_view rec, const char *f)
{
        uint64_t x = UINT64_MAX;
        assert_true(zl_get_u64(l, rec, f, &x));
        return x;
}

static void header_record(void **state)
{
        (void)state;
        uint8_t b[80];
        vm_tape_header(b, T1982);
        zd_view rec = zd_view_make(b, 80);
        struct zd_vm370_hdr h;
        assert_int_equal(zd_vm370_hdr_parse(rec, &h), ZD_E_NONE);
        assert_int_equal(h.len, 80);
        assert_int_equal(h.cls, 0);
        assert_int_equal(h.code, 97);
        assert_true(h.tod40 == UINT64_C(0xE7B3C105A0));
        const struct zl_layout *l = zd_vm370_layout(0, 97, 80);
        assert_non_null(l);
        assert_string_equal(l->id, "VM370.HDR");
        char t[64];
        text_of(l, rec, "MN097LEV", t, sizeof(t));
        assert_string_equal(t, "REL6");
        text_of(l, rec, "MN097DAT", t, sizeof(t));
        assert_string_equal(t, "06/15/82");
        text_of(l, rec, "MN097TIM", t, sizeof(t));
        assert_string_equal(t, "10:30:00");
        text_of(l, rec, "MN097UID", t, sizeof(t));
        assert_string_equal(t, "OPERATOR");
        text_of(l, rec, "MN097CPU", t, sizeof(t));
        assert_string_equal(t, "0002345631680000");
        assert_true(u64_of(l, rec, "MN097CR8") == 0xC100);
        assert_true(u64_of(l, rec, "MN097NUC") == 0x34000);
        assert_true(u64_of(l, rec, "MN097FSS") == 0x10000);
        assert_true(u64_of(l, rec, "MN097DPA") == 0xF00000);
        assert_true(u64_of(l, rec, "MN097TTS") == 0x2000);
        assert_true(u64_of(l, rec, "MN097VR") == 0);
        text_of(l, rec, "MN097APL", t, sizeof(t));
        assert_string_equal(t, "0001");
        char serial[7];
        assert_true(zd_vm370_cpu_serial(rec, serial));
        assert_string_equal(serial, "023456");
        assert_true(zd_vm370_session_tod(rec) == T1982);
        /* A header record shorter than MN097 has no layout: dumped raw. */
        assert_null(zd_vm370_layout(0, 97, 60));
        ebc(b + 28, "13/45/82", 8);
        assert_true(zd_vm370_session_tod(rec) == 0);
}

static void control_records(void **state)
{
        (void)state;
        uint8_t b[32];
        char t[64];
        vm_trailer(b, T1982);
        zd_view rec = zd_view_make(b, 20);
        const struct zl_layout *l = zd_vm370_layout(0, 98, 20);
        assert_non_null(l);
        text_of(l, rec, "MN098UID", t, sizeof(t));
        assert_string_equal(t, "MAINT");
        vm_suspend(b, T1982, T1982 + TSEC, 7);
        rec = zd_view_make(b, 21);
        l = zd_vm370_layout(0, 99, 21);
        assert_non_null(l);
        assert_true(u64_of(l, rec, "MN099CNT") == 7);
        struct zl_value v;
        assert_true(zl_get(l, rec, "MN099TOD", &v));
        assert_int_equal(v.raw.n, 5);
        uint64_t t40 = 0;
        assert_true(zd_uN(v.raw, 0, 5, &t40));
        assert_true(zd_vm370_tod(t40, T1982) == ((T1982 + TSEC) & ~UINT64_C(0xFFFF)));
        /* The MNH layout reads every record's header. */
        l = zl_find("VM370.MNH", 21);
        assert_non_null(l);
        assert_true(u64_of(l, rec, "MNHRECSZ") == 21);
        assert_true(u64_of(l, rec, "MNHCODE") == 99);
}

static void class0_code0(void **state)
{
        (void)state;
        uint8_t b[96];
        vm_c0c0(b, T1982, 500);
        zd_view rec = zd_view_make(b, 96);
        const struct zl_layout *l = zd_vm370_layout(0, 0, 96);
        assert_non_null(l);
        static const char *const words[] = {
            "MN000PSI", "MN000CPA", "MN000NFL", "MN000PSN", "MN000PRC", "MN000RPC", "MN000SPC",
            "MN000FLF", "MN000CPT", "MN000SS",  "MN000PRF", "MN000PFF", "MN000PCS"};
        for (uint32_t k = 0; k < 13; k++)
                assert_true(u64_of(l, rec, words[k]) == 500 + k);
        static const char *const times[] = {"MN000WID", "MN000WPG", "MN000WIO", "MN000PRB"};
        for (uint64_t i = 0; i < 4; i++) {
                assert_true(u64_of(l, rec, times[i]) == (1000 + i) << 12);
                /* Their format footnote is unreadable in the seed: never metrics. */
                assert_int_equal(zl_field(l, times[i])->prov, ZL_UNCERTAIN);
        }
        assert_int_equal(zl_field(l, "MN000PFF")->prov, ZL_UNCERTAIN);
        assert_int_equal(zl_field(l, "MN000SS")->prov, ZL_VERIFIED);
        /* A short record: fields past its end are absent, not read. */
        struct zl_value v;
        assert_false(zl_get(l, zd_view_make(b, 50), "MN000NFL", &v));
}

/*
 * A real class 0 code 0 record is longer than 96 bytes (SPG p.360 lists 42
 * more bytes, and p.359 may add more between): the first 96 read as before,
 * no field claims a byte past them, and only the raw dump shows the rest.
 */
static void class0_code0_longer(void **state)
{
        (void)state;
        uint8_t b[200];
        vm_c0c0_long(b, T1982, 700, 180);
        zd_view rec = zd_view_make(b, 180);
        const struct zl_layout *l = zd_vm370_layout(0, 0, 180);
        assert_non_null(l);
        assert_string_equal(l->id, "VM370.C0C0");
        assert_true(u64_of(l, rec, "MN000PSI") == 700);
        assert_true(u64_of(l, rec, "MN000SS") == 709);
        assert_true(u64_of(l, rec, "MN000PCS") == 712);
        for (size_t f = 0; f < l->nfields; f++)
                assert_true(l->fields[f].off + l->fields[f].len <= 96);
}

/* Class 0 code 1 (SPG p.360): the attached processor's statistics, end to end. */
static void class0_code1(void **state)
{
        (void)state;
        uint8_t b[128];
        vm_c0c1(b, T1982, 300);
        zd_view rec = zd_view_make(b, 120);
        const struct zl_layout *l = zd_vm370_layout(0, 1, 120);
        assert_non_null(l);
        assert_string_equal(l->id, "VM370.C0C1");
        assert_true(u64_of(l, rec, "MN001WID") == UINT64_C(2000) << 12);
        assert_true(u64_of(l, rec, "MN001PRB") == UINT64_C(2003) << 12);
        assert_true(u64_of(l, rec, "MN001NXR") == 300);
        assert_true(u64_of(l, rec, "MN001CSV") == 301);
        assert_true(u64_of(l, rec, "MN001PRD") == 302);
        assert_true(u64_of(l, rec, "MN001PWR") == 303);
        assert_true(u64_of(l, rec, "MN001NSY") == 305);
        assert_true(u64_of(l, rec, "MN001SRN") == 308);
        assert_true(u64_of(l, rec, "mn001_trq_spins") == 311);
        assert_true(u64_of(l, rec, "mn001_dspru_entries") == 318);
        assert_int_equal(zl_field(l, "MN001WID")->prov, ZL_UNCERTAIN);
        assert_int_equal(zl_field(l, "MN001SSY")->prov, ZL_UNCERTAIN);
        assert_int_equal(zl_field(l, "MN001NXR")->prov, ZL_VERIFIED);
        /* the names the scan cuts off are the project's, and say so */
        assert_non_null(strstr(zl_field(l, "mn001_trq_spins")->source, "cut off"));
}

/* Class 1 (DA p.47): MN10X is 22 bytes; a longer record is MN10Y with its byte count. */
static void class1_response(void **state)
{
        (void)state;
        uint8_t b[64];
        char t[32];
        size_t n = vm_c1(b, 4, T1982, "JOHN", 0x0061, NULL);
        assert_int_equal(n, 22);
        zd_view rec = zd_view_make(b, n);
        const struct zl_layout *l = zd_vm370_layout(1, 4, n);
        assert_non_null(l);
        assert_string_equal(l->dsect, "MN10X");
        text_of(l, rec, "MN10XUID", t, sizeof(t));
        assert_string_equal(t, "JOHN");
        text_of(l, rec, "MN10XADD", t, sizeof(t));
        assert_string_equal(t, "0061");
        assert_null(zl_field(l, "MN10YCNT"));
        n = vm_c1(b, 1, T1982, "JOHN", 0x0061, "READY");
        assert_int_equal(n, 28);
        rec = zd_view_make(b, n);
        l = zd_vm370_layout(1, 1, n);
        assert_string_equal(l->dsect, "MN10Y");
        assert_true(u64_of(l, rec, "MN10YCNT") == 5);
        assert_string_equal(zd_vm370_code_name(1, 2), "Edited terminal input line");
}

/* Class 4 code 0 (SPG p.363) and class 5 code 0 (SPG p.364). */
static void class4_and_5(void **state)
{
        (void)state;
        uint8_t b[96];
        char t[32];
        vm_hdr(b, 84, 4, 0, T1982);
        ebc(b + 12, "CMSUSER", 8);
        be32(b + 36, 11);  /* page reads */
        be32(b + 56, 66);  /* cards read */
        b[60] = 0x80;      /* running status */
        b[71] = 0x01;      /* interrupt pending summary */
        be16(b + 74, 300); /* pages resident */
        be16(b + 82, 60);  /* interval */
        zd_view rec = zd_view_make(b, 84);
        const struct zl_layout *l = zd_vm370_layout(4, 0, 84);
        assert_non_null(l);
        text_of(l, rec, "MN400UID", t, sizeof(t));
        assert_string_equal(t, "CMSUSER");
        assert_true(u64_of(l, rec, "MN400PGR") == 11);
        assert_true(u64_of(l, rec, "MN400CRD") == 66);
        assert_true(u64_of(l, rec, "MN400RST") == 0x80);
        assert_true(u64_of(l, rec, "MN400PID") == 0x01);
        assert_true(u64_of(l, rec, "MN400RES") == 300);
        assert_true(u64_of(l, rec, "MN400INT") == 60);
        /* past the two unreadable byte counts nothing is proven */
        assert_int_equal(zl_field(l, "MN400RES")->prov, ZL_UNCERTAIN);
        assert_int_equal(zl_field(l, "MN400PID")->prov, ZL_VERIFIED);
        vm_hdr(b, 36, 5, 0, T1982);
        ebc(b + 12, "GUEST1", 8);
        be32(b + 20, 0xB2020000); /* STIDP */
        be32(b + 24, 0x00012340);
        rec = zd_view_make(b, 36);
        l = zd_vm370_layout(5, 0, 36);
        assert_non_null(l);
        text_of(l, rec, "MN500INS", t, sizeof(t));
        assert_string_equal(t, "B2020000");
        text_of(l, rec, "MN500VAD", t, sizeof(t));
        assert_string_equal(t, "00012340");
        assert_null(zd_vm370_layout(5, 0, 35));
}

/* Class 6 codes 0, 1 (DA p.51: packages after the count) and 2 (placement not stated). */
static void class6_dastap(void **state)
{
        (void)state;
        uint8_t b[128];
        static const uint16_t addr[] = {0x0190, 0x0191, 0x0181};
        static const uint32_t io[] = {1000, 2000, 3000};
        size_t n = vm_c6(b, 1, T1982, 3, 3, addr, io);
        assert_int_equal(n, 56);
        zd_view rec = zd_view_make(b, n);
        const struct zl_layout *l = zd_vm370_layout(6, 1, n);
        assert_true(u64_of(l, rec, "MN600NUM") == 3);
        struct zd_vm370_entries en;
        assert_true(zd_vm370_entries(6, 1, rec, &en));
        assert_string_equal(en.l->id, "VM370.C6C0.DEV");
        assert_int_equal(en.first, 14);
        assert_int_equal(en.size, 14);
        assert_int_equal(en.n, 3);
        zd_view d = zd_view_make(b + 14 + 28, 14);
        char t[16];
        text_of(en.l, d, "MN600ADD", t, sizeof(t));
        assert_string_equal(t, "0181");
        text_of(en.l, d, "MN600SER", t, sizeof(t));
        assert_string_equal(t, "VMSYS");
        assert_true(u64_of(en.l, d, "MN600CNT") == 3000);
        /* a count beyond the record: only the packages it holds */
        n = vm_c6(b, 0, T1982, 5, 2, addr, io);
        assert_true(zd_vm370_entries(6, 0, zd_view_make(b, n), &en));
        assert_int_equal(en.declared, 5);
        assert_int_equal(en.n, 2);
        assert_false(zd_vm370_entries(6, 0, zd_view_make(b, 13), &en));
        /* code 2: the header field is dumped as uncertain, its devices are not walked */
        vm_hdr(b, 27, 6, 2, T1982);
        be16(b + 12, 600);
        l = zd_vm370_layout(6, 2, 27);
        assert_non_null(l);
        assert_int_equal(zl_field(l, "MN602SAM")->prov, ZL_UNCERTAIN);
        assert_false(zd_vm370_entries(6, 2, zd_view_make(b, 27), &en));
        assert_int_equal(zl_find("VM370.C6C2.DEV", 13)->nfields, 7);
}

/* Class 7 code 0 (DA p.53) and class 8 code 2 (DA p.54). */
static void class7_and_8(void **state)
{
        (void)state;
        uint8_t b[64];
        char t[16];
        vm_c7(b, T1982);
        zd_view rec = zd_view_make(b, 30);
        const struct zl_layout *l = zd_vm370_layout(7, 0, 30);
        assert_non_null(l);
        text_of(l, rec, "MN700UID", t, sizeof(t));
        assert_string_equal(t, "CMSUSER");
        assert_true(u64_of(l, rec, "MN700CYL") == 180);
        assert_true(u64_of(l, rec, "MN700CCY") == 40);
        assert_true(u64_of(l, rec, "MN700QDV") == 2);
        assert_true(u64_of(l, rec, "MN700QCU") == 1);
        text_of(l, rec, "MN700DIR", t, sizeof(t));
        assert_string_equal(t, "01");
        assert_null(zd_vm370_layout(7, 0, 29));
        static const uint32_t cnt[] = {77, 88};
        size_t n = vm_c8(b, T1982, 2, cnt);
        rec = zd_view_make(b, n);
        l = zd_vm370_layout(8, 2, n);
        assert_true(u64_of(l, rec, "MN802NUM") == 2);
        struct zd_vm370_entries en;
        assert_true(zd_vm370_entries(8, 2, rec, &en));
        assert_int_equal(en.n, 2);
        assert_true(u64_of(en.l, zd_view_make(b + 18, 4), "MN802CNT") == 88);
        /* the system profile data is mapped, not placed */
        assert_int_equal(zl_find("VM370.C8C2.CTR", 48)->min_len, 48);
}

static void layouts_are_sound(void **state)
{
        (void)state;
        size_t seen = 0;
        /* chosen from the header on, the fields of a short record simply absent */
        static const char *const open_ended[] = {"VM370.C0C0", "VM370.C0C1", "VM370.C4C0"};
        for (size_t i = 0; zl_layout_at(i); i++) {
                const struct zl_layout *l = zl_layout_at(i);
                if (strncmp(l->id, "VM370.", 6) != 0)
                        continue;
                seen++;
                unsigned end = 0;
                for (size_t f = 0; f < l->nfields; f++) {
                        assert_true(l->fields[f].off >= end); /* ordered, no overlap */
                        end = (unsigned)l->fields[f].off + l->fields[f].len;
                        assert_non_null(l->fields[f].source);
                }
                bool open = false;
                for (size_t k = 0; k < 3; k++)
                        open |= strcmp(l->id, open_ended[k]) == 0;
                if (open)
                        assert_int_equal(l->min_len, 12);
                else
                        assert_int_equal(end, l->min_len);
        }
        assert_int_equal(seen, 18);
}

static void names_and_time(void **state)
{
        (void)state;
        assert_string_equal(zd_vm370_class_name(0), "PERFORM");
        assert_string_equal(zd_vm370_class_name(7), "SEEKS");
        assert_null(zd_vm370_class_name(3));
        assert_null(zd_vm370_class_name(200));
        assert_string_equal(zd_vm370_code_name(0, 97), "Tape header record");
        assert_string_equal(zd_vm370_code_name(0, 0), "Interval statistics");
        assert_null(zd_vm370_code_name(0, 50));
        assert_null(zd_vm370_layout(2, 0, 100)); /* SCHEDULE: no record page read */
        assert_null(zd_vm370_code_name(2, 0));
        assert_string_equal(zd_vm370_code_name(8, 2), "Additional data for the system profile");
        /* Across a wrap of the dropped byte: the reference picks the nearer side. */
        uint64_t ref = UINT64_C(0x93FFFFFFFFFF0000);
        assert_true(zd_vm370_tod(0x0000000010, ref) == UINT64_C(0x9400000000100000));
        assert_true(zd_vm370_tod(0xFFFFFFFF00, UINT64_C(0x9400000000100000)) ==
                    UINT64_C(0x93FFFFFFFF000000));
        assert_true(zd_vm370_tod(1, 0) == 0);
}

struct mcol {
        size_t n;
        char tinst[16][ZM_NAME_LEN], type[16][ZM_NAME_LEN], plugin[16][ZM_NAME_LEN],
            pinst[16][ZM_NAME_LEN];
        double gauge[16];
        int64_t derive[16];
        int ds[16];
};

static void mcol_emit(void *ctx, const struct zm_metric *m)
{
        struct mcol *c = ctx;
        if (c->n >= 16)
                return;
        snprintf(c->tinst[c->n], ZM_NAME_LEN, "%s", m->type_instance);
        snprintf(c->type[c->n], ZM_NAME_LEN, "%s", m->type);
        snprintf(c->plugin[c->n], ZM_NAME_LEN, "%s", m->plugin);
        snprintf(c->pinst[c->n], ZM_NAME_LEN, "%s", m->plugin_instance);
        c->ds[c->n] = m->ds[0];
        c->gauge[c->n] = m->gauge[0];
        c->derive[c->n] = m->derive[0];
        c->n++;
}

static void feed_engine(void *ctx, const struct zd_record *r)
{
        zm_engine_record(ctx, r);
}

static void metrics_from_tape(void **state)
{
        (void)state;
        struct mcol c = {0};
        struct zm_engine *e = zm_engine_new(NULL, mcol_emit, NULL, &c);
        assert_non_null(e);
        uint8_t b[512];
        size_t o = 4;
        o += vm_tape_header(b + o, T1982);
        o += vm_c0c0(b + o, T1982 + 60 * TSEC, 1000);
        dw(b, (uint16_t)o);
        struct zd_handler h = {e, feed_engine, NULL, NULL};
        struct zd_stream *z = zd_stream_new(ZD_FMT_UNKNOWN, &h);
        zd_stream_feed(z, b, o);
        zd_stream_finish(z);
        zd_stream_free(z);
        assert_string_equal(zm_engine_system(e), "023456");
        assert_int_equal(c.n, 10);
        for (size_t i = 0; i < c.n; i++)
                assert_string_equal(c.plugin[i], "vm370");
        assert_string_equal(c.tinst[0], "paging_start_io");
        assert_string_equal(c.type[0], "operations");
        assert_int_equal(c.ds[0], ZM_DERIVE);
        assert_int_equal(c.derive[0], 1000);
        assert_string_equal(c.tinst[2], "free_list");
        assert_int_equal(c.ds[2], ZM_GAUGE);
        assert_true(c.gauge[2] == 1002.0);
        assert_string_equal(c.tinst[9], "stolen_in_queue");
        assert_int_equal(c.derive[9], 1009);
        zm_engine_free(e);
}

/*
 * The attached processor's "Total" counts (class 0 code 1) and each DASTAP
 * device's accumulated I/O count (class 6 codes 0 and 1, one series per
 * device address); times, spin counts and the uncertain code 2 are not
 * reported.
 */
static void metrics_new_classes(void **state)
{
        (void)state;
        struct mcol c = {0};
        struct zm_engine *e = zm_engine_new(NULL, mcol_emit, NULL, &c);
        assert_non_null(e);
        uint8_t b[1024];
        static const uint16_t addr[] = {0x0190, 0x0231};
        static const uint32_t io[] = {500, 70000};
        size_t o = 4;
        o += vm_tape_header(b + o, T1982);
        o += vm_c6(b + o, 0, T1982 + TSEC, 2, 2, addr, io);
        o += vm_c0c1(b + o, T1982 + 60 * TSEC, 40);
        o += vm_hdr(b + o, 27, 6, 2, T1982 + 60 * TSEC);
        dw(b, (uint16_t)o);
        struct zd_handler h = {e, feed_engine, NULL, NULL};
        struct zd_stream *z = zd_stream_new(ZD_FMT_UNKNOWN, &h);
        zd_stream_feed(z, b, o);
        zd_stream_finish(z);
        zd_stream_free(z);
        assert_int_equal(c.n, 6);
        for (size_t i = 0; i < c.n; i++) {
                assert_string_equal(c.plugin[i], "vm370");
                assert_int_equal(c.ds[i], ZM_DERIVE);
        }
        assert_string_equal(c.pinst[0], "device-0190");
        assert_string_equal(c.type[0], "operations");
        assert_string_equal(c.tinst[0], "io");
        assert_int_equal(c.derive[0], 500);
        assert_string_equal(c.pinst[1], "device-0231");
        assert_int_equal(c.derive[1], 70000);
        static const char *const ap[] = {"ap_external_interrupts", "ap_svc_reflected",
                                         "ap_page_reads", "ap_page_writes"};
        for (size_t i = 0; i < 4; i++) {
                assert_string_equal(c.pinst[2 + i], "");
                assert_string_equal(c.tinst[2 + i], ap[i]);
                assert_int_equal(c.derive[2 + i], 40 + (int64_t)i);
        }
        zm_engine_free(e);
}

/* CP metric modules never see VM/370 records, whatever their class and code. */
static void cp_modules_ignore_vm370(void **state)
{
        (void)state;
        struct mcol c = {0};
        struct zm_engine *e = zm_engine_new(NULL, mcol_emit, NULL, &c);
        uint8_t b[4096];
        /* Class 0 codes 1..13 and class 1 code 11 look like CP D0Rn / D1R11 by number. */
        for (uint16_t code = 1; code <= 13; code++) {
                size_t n = vm_hdr(b, 300, 0, code, T1982);
                memset(b + 12, 0x7F, n - 12);
                struct zd_record r = {.domain = 0,
                                      .number = code,
                                      .tod = T1982,
                                      .rec = zd_view_make(b, n),
                                      .family = ZD_FAM_VM370};
                r.body = zd_view_tail(r.rec, 12);
                zm_engine_record(e, &r);
        }
        /* only the vm370 module's own reading of code 1 (its attached-processor counts) */
        assert_int_equal(c.n, 4);
        for (size_t i = 0; i < c.n; i++) {
                assert_string_equal(c.plugin[i], "vm370");
                assert_int_equal(strncmp(c.tinst[i], "ap_", 3), 0);
        }
        /* Class 1 code 4 shaped like D1R4 with a system id at +88: not taken as one. */
        size_t n = vm_hdr(b, 400, 1, 4, T1982);
        ebc(b + 88, "GARBAGE", 8);
        struct zd_record r = {.domain = 1,
                              .number = 4,
                              .tod = T1982,
                              .rec = zd_view_make(b, n),
                              .family = ZD_FAM_VM370};
        r.body = zd_view_tail(r.rec, 12);
        zm_engine_record(e, &r);
        assert_string_equal(zm_engine_system(e), "");
        /* The same bytes as a CP record do name the system (so the check above can fail). */
        vec_hdr(b, 400, 1, 4, VEC_TOD_2026);
        r.family = ZD_FAM_CP;
        r.kind = 'S';
        zm_engine_record(e, &r);
        assert_string_equal(zm_engine_system(e), "garbage");
        zm_engine_free(e);
}

static void dump_names_vm370(void **state)
{
        (void)state;
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        assert_non_null(f);
        struct zmon_emit *em = zmon_emit_new(ZMON_EMIT_JSON, f);
        assert_non_null(em);
        uint8_t b[96];
        vm_tape_header(b, T1982);
        struct zd_record r = {.domain = 0,
                              .number = 97,
                              .tod = T1982,
                              .rec = zd_view_make(b, 80),
                              .family = ZD_FAM_VM370};
        r.body = zd_view_tail(r.rec, 12);
        zmon_emit_record(em, &r, NULL);
        vm_hdr(b, 16, 2, 0, T1982);
        r = (struct zd_record){
            .domain = 2, .number = 0, .rec = zd_view_make(b, 16), .family = ZD_FAM_VM370};
        r.body = zd_view_tail(r.rec, 12);
        zmon_emit_record(em, &r, NULL);
        /* repeated entries: one object each, with the entry layout's fields */
        static const uint16_t addr[] = {0x0190, 0x0191};
        static const uint32_t io[] = {41, 42};
        size_t n = vm_c6(b, 1, T1982, 2, 2, addr, io);
        r = (struct zd_record){
            .domain = 6, .number = 1, .rec = zd_view_make(b, n), .family = ZD_FAM_VM370};
        r.body = zd_view_tail(r.rec, 12);
        zmon_emit_record(em, &r, NULL);
        /* --hex: the bytes of a long code 0 record that no field declares */
        uint8_t l[140];
        vm_c0c0_long(l, T1982, 1, 138);
        r = (struct zd_record){
            .domain = 0, .number = 0, .rec = zd_view_make(l, 138), .family = ZD_FAM_VM370};
        r.body = zd_view_tail(r.rec, 12);
        zmon_emit_set_hex(em, true);
        zmon_emit_record(em, &r, NULL);
        zmon_emit_free(em);
        fclose(f);
        assert_non_null(strstr(text, "\"class_name\":\"PERFORM\""));
        assert_non_null(strstr(text, "\"code_name\":\"Tape header record\""));
        assert_non_null(strstr(text, "\"layout\":\"VM370.HDR\""));
        assert_non_null(strstr(text, "\"MN097UID\":\"OPERATOR\""));
        assert_non_null(strstr(text, "\"class_name\":\"SCHEDULE\""));
        assert_non_null(strstr(text, "\"data\":\"00000000\""));
        assert_non_null(strstr(text, "\"entry_layout\":\"VM370.C6C0.DEV\""));
        assert_non_null(strstr(text, "\"entries\":[{\"MN600ADD\":\"0190\""));
        assert_non_null(strstr(text, "\"MN600CNT\":42}]"));
        /* the tail's first halfword, X'EE00', at offset 96 */
        assert_non_null(strstr(text, "\"hex\":\"008A0000"));
        assert_non_null(strstr(text, "0000000DEE00EE01"));
        assert_null(strstr(text, "domain_name"));
        free(text);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(header_record),       cmocka_unit_test(control_records),
            cmocka_unit_test(class0_code0),        cmocka_unit_test(class0_code0_longer),
            cmocka_unit_test(class0_code1),        cmocka_unit_test(class1_response),
            cmocka_unit_test(class4_and_5),        cmocka_unit_test(class6_dastap),
            cmocka_unit_test(class7_and_8),        cmocka_unit_test(layouts_are_sound),
            cmocka_unit_test(names_and_time),      cmocka_unit_test(metrics_from_tape),
            cmocka_unit_test(metrics_new_classes), cmocka_unit_test(cp_modules_ignore_vm370),
            cmocka_unit_test(dump_names_vm370),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
