/* SPDX-License-Identifier: MIT */
/* Domain 10 header: CALDATOF/CALDATLN checks, product ids, staleness, examine. */
#include "vec_appl.h"

#include <stdio.h>

#include "payload/appldata/appl.h"

static uint8_t buf[8192];

/* New or untracked: reported; stale (same userid, product id and timestamp): not. */
static bool not_stale(struct zd_appl_tracker *t, const struct zd_appl *a, uint64_t timestamp)
{
        return zd_appl_tracker_check(t, a, timestamp) != ZD_TRACK_STALE;
}

static struct zd_record mem_record(uint16_t recnum, const char *userid, uint64_t ts, uint32_t s1,
                                   uint32_t s2)
{
        uint8_t prod[16], data[144];
        memset(data, 0, sizeof(data));
        vec_lx_common(data, ts, s1, s2);
        be64(data + 56, 2097152); /* totalram KB */
        vec_lx_prodid(prod, 1, "00");
        size_t n = vec_d10(buf, recnum, userid, prod, data, sizeof(data));
        return vec_record(buf, n);
}

static void parses_kernel_header(void **state)
{
        (void)state;
        struct zd_record r = mem_record(2, "LINUX01", 42, 1, 1);
        struct zd_appl a;
        assert_int_equal(zd_appl_parse(&r, &a), ZD_E_NONE);
        assert_int_equal(a.dataof, 52);
        assert_int_equal(a.dataln, 144);
        assert_string_equal(a.userid, "LINUX01");
        assert_int_equal(a.kind, ZD_APPL_LINUXKRNL);
        assert_int_equal(a.recnum, ZD_LX_MEM);
        assert_string_equal(a.modlvl_text, "00");
        assert_string_equal(a.prodid_text, "LINUXKRNL.01.2601.00");
        assert_ptr_equal(a.data.p, buf + 52);
        assert_int_equal(a.data.n, 144);
        assert_string_equal(zd_appl_kind_name(&a), "mem");
        assert_int_equal(zd_appl_payload(&a), ZD_PAYLOAD_MEM);
        assert_string_equal(zd_appl_layout(&a)->id, "LINUXKRNL.MEM");
        /* The D10 CP layouts decode the same header. */
        const struct zl_layout *l = zl_find_cp(10, 2, r.rec.n);
        assert_non_null(l);
        assert_string_equal(l->id, "D10R2");
        uint64_t v;
        assert_true(zl_get_u64(l, r.rec, "APLSDT_CALDATLN", &v));
        assert_int_equal(v, 144);
        assert_string_equal(zl_find_cp(10, 1, 52)->dsect, "APLEDT");
        assert_null(zl_find_cp(10, 1, 51));
}

/*
 * zd_appl_layout keeps its answers until the layouts change: a LayoutFile
 * that pins a kernel record's layout must win from the next record on, and
 * the built-in one come back when the file's layouts are dropped.
 */
static void payload_layout_follows_layoutfile(void **state)
{
        (void)state;
        struct zd_record r = mem_record(2, "LINUX01", 42, 1, 1);
        struct zd_appl a;
        assert_int_equal(zd_appl_parse(&r, &a), ZD_E_NONE);
        const struct zl_layout *builtin = zd_appl_layout(&a);
        assert_non_null(builtin);
        assert_string_equal(builtin->id, "LINUXKRNL.MEM");
        static struct zl_layout pinned;
        pinned = *builtin;
        pinned.source = "a LayoutFile of the test";
        assert_true(zl_register(&pinned));
        assert_ptr_equal(zd_appl_layout(&a), &pinned);
        zl_unregister_all();
        assert_ptr_equal(zd_appl_layout(&a), builtin);
}

static void classifies_product_ids(void **state)
{
        (void)state;
        uint8_t prod[16];
        struct zd_appl a;
        struct zd_record r;

        vec_lnx_prodid(prod, 2, 1, 0, 0, 7);
        r = vec_record(buf, vec_d10(buf, 2, "WEB1", prod, "0123456789ab", 12));
        assert_int_equal(zd_appl_parse(&r, &a), ZD_E_NONE);
        assert_int_equal(a.kind, ZD_APPL_LNXAPPL);
        assert_int_equal(a.applid, 2);
        assert_int_equal(a.recnum, 1);
        assert_int_equal(a.modlvl, 7);
        assert_string_equal(a.prodid_text, "LNXAPPL.2.1.0.0.7");
        assert_string_equal(zd_appl_kind_name(&a), "procd.task");
        assert_int_equal(zd_appl_payload(&a), ZD_PAYLOAD_PROCD_TASK);

        /* Unknown applid: LNXAPPL, but opaque. */
        vec_lnx_prodid(prod, 99, 0, 1, 2, 3);
        r = vec_record(buf, vec_d10(buf, 2, "WEB1", prod, "x", 1));
        assert_int_equal(zd_appl_parse(&r, &a), ZD_E_NONE);
        assert_int_equal(a.kind, ZD_APPL_LNXAPPL);
        assert_null(zd_appl_kind_name(&a));
        assert_int_equal(zd_appl_payload(&a), ZD_PAYLOAD_NONE);
        assert_null(zd_appl_layout(&a));

        /* An IBM EBCDIC id (5684112SF1010100) is shown as text. */
        const char *ibm = "5684112SF1010100";
        for (int i = 0; i < 16; i++)
                prod[i] = vec_e(ibm[i]);
        r = vec_record(buf, vec_d10(buf, 2, "SFSSERV", prod, NULL, 0));
        assert_int_equal(zd_appl_parse(&r, &a), ZD_E_NONE);
        assert_int_equal(a.kind, ZD_APPL_OTHER);
        assert_string_equal(a.prodid_text, ibm);

        /* Binary garbage is shown in hex. */
        for (int i = 0; i < 16; i++)
                prod[i] = (uint8_t)i;
        r = vec_record(buf, vec_d10(buf, 2, "X", prod, NULL, 0));
        assert_int_equal(zd_appl_parse(&r, &a), ZD_E_NONE);
        assert_string_equal(a.prodid_text, "000102030405060708090A0B0C0D0E0F");

        /* LINUXKRNL with another version, or a non-digit mod level, is not the kernel's. */
        vec_lx_prodid(prod, 2, "01");
        prod[11] = 0xF7;
        r = vec_record(buf, vec_d10(buf, 2, "X", prod, NULL, 0));
        assert_int_equal(zd_appl_parse(&r, &a), ZD_E_NONE);
        assert_int_equal(a.kind, ZD_APPL_OTHER);
        vec_lx_prodid(prod, 2, "0A");
        r = vec_record(buf, vec_d10(buf, 2, "X", prod, NULL, 0));
        assert_int_equal(zd_appl_parse(&r, &a), ZD_E_NONE);
        assert_int_equal(a.kind, ZD_APPL_OTHER);

        /* Kernel record 4 (PROC, defined but never shipped): kernel, but opaque. */
        vec_lx_prodid(prod, 4, "00");
        r = vec_record(buf, vec_d10(buf, 2, "X", prod, NULL, 0));
        assert_int_equal(zd_appl_parse(&r, &a), ZD_E_NONE);
        assert_int_equal(a.kind, ZD_APPL_LINUXKRNL);
        assert_null(zd_appl_layout(&a));
}

static void refuses_lying_offsets_and_lengths(void **state)
{
        (void)state;
        struct zd_appl a;
        struct zd_record r = mem_record(2, "LINUX01", 42, 1, 1); /* 196 bytes */
        assert_int_equal(r.rec.n, 196);

        r.rec.n = 51;
        assert_int_equal(zd_appl_parse(&r, &a), ZD_E_APPL_SHORT);
        r.rec.n = 196;

        static const int16_t bad_off[] = {0, 20, 51, 197, 4000, -1, -32768};
        for (size_t i = 0; i < sizeof(bad_off) / sizeof(bad_off[0]); i++) {
                be16(buf + 20, (uint16_t)bad_off[i]);
                assert_int_equal(zd_appl_parse(&r, &a), ZD_E_APPL_OFFSET);
                assert_int_equal(a.data.n, 0);
                assert_string_equal(a.userid, "LINUX01"); /* still says who */
        }
        be16(buf + 20, 52);
        static const int16_t bad_len[] = {145, 200, 32767, -1, -144};
        for (size_t i = 0; i < sizeof(bad_len) / sizeof(bad_len[0]); i++) {
                be16(buf + 22, (uint16_t)bad_len[i]);
                assert_int_equal(zd_appl_parse(&r, &a), ZD_E_APPL_LENGTH);
                assert_null(a.data.p);
        }
        /* CALDATOF may move (IBM): data at 56, 140 bytes, ends exactly at the record end. */
        be16(buf + 20, 56);
        be16(buf + 22, 140);
        assert_int_equal(zd_appl_parse(&r, &a), ZD_E_NONE);
        assert_ptr_equal(a.data.p, buf + 56);
        be16(buf + 22, 141);
        assert_int_equal(zd_appl_parse(&r, &a), ZD_E_APPL_LENGTH);
        /* Empty data at the very end is not a lie. */
        be16(buf + 20, 196);
        be16(buf + 22, 0);
        assert_int_equal(zd_appl_parse(&r, &a), ZD_E_NONE);
        assert_int_equal(a.data.n, 0);
}

/*
 * The userid is the one thing in a domain 10 record a guest cannot choose,
 * and every host name, share and series of a guest hangs on it: a record
 * whose userid CP could not have stamped (blank, control or non-ASCII bytes,
 * '.', lower case: none is in CP's USERID_CHARACTERS, A-Z 0-9 @ # $ _ -) is
 * refused whole, never taken for a guest that is nobody or somebody else.
 */
static void refuses_a_userid_cp_never_stamps(void **state)
{
        (void)state;
        struct zd_appl a;
        static const uint8_t bad[][8] = {
            {0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40}, /* blank: "" */
            {0, 0, 0, 0, 0, 0, 0, 0},                         /* NULs: "" */
            {0xC1, 0x00, 0xC2, 0x40, 0x40, 0x40, 0x40, 0x40}, /* A, NUL, B: "A.B" */
            {0xC1, 0x4B, 0xC2, 0x40, 0x40, 0x40, 0x40, 0x40}, /* "A.B" */
            {0x4B, 0x4B, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40}, /* ".." */
            {0x40, 0xC1, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40}, /* " A" */
            {0xC1, 0x40, 0xC2, 0x40, 0x40, 0x40, 0x40, 0x40}, /* "A B" */
            {0x81, 0x82, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40}, /* "ab" */
            {0xC1, 0x61, 0xC2, 0x40, 0x40, 0x40, 0x40, 0x40}, /* "A/B" */
            {0xC1, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41, 0x41}, /* "A" and 7 NBSPs */
        };
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                struct zd_record r = mem_record(2, "LINUX01", 42, 1, 1);
                memcpy(buf + 24, bad[i], 8);
                assert_int_equal(zd_appl_parse(&r, &a), ZD_E_APPL_USERID);
        }
        /* All of CP's characters: "@#$_-" and the letters and digits. */
        static const uint8_t good[][8] = {
            {0x7C, 0x7B, 0x5B, 0x6D, 0x60, 0xC1, 0xE9, 0xF9}, /* "@#$_-AZ9" */
            {0xD3, 0xC9, 0xD5, 0xE4, 0xE7, 0xF0, 0xF1, 0x40}, /* "LINUX01" */
        };
        for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
                struct zd_record r = mem_record(2, "LINUX01", 42, 1, 1);
                memcpy(buf + 24, good[i], 8);
                assert_int_equal(zd_appl_parse(&r, &a), ZD_E_NONE);
        }
        assert_string_equal(a.userid, "LINUX01");
        struct zd_record r = mem_record(2, "LINUX01", 42, 1, 1);
        memcpy(buf + 24, good[0], 8);
        assert_int_equal(zd_appl_parse(&r, &a), ZD_E_NONE);
        assert_string_equal(a.userid, "@#$_-AZ9");
}

static void tracker_finds_stale_records(void **state)
{
        (void)state;
        struct zd_appl_tracker *t = zd_appl_tracker_new();
        assert_non_null(t);
        struct zd_appl a, b;
        struct zd_record r = mem_record(2, "LINUX01", 42, 1, 1);
        assert_int_equal(zd_appl_parse(&r, &a), ZD_E_NONE);
        r = mem_record(2, "LINUX02", 42, 1, 1);
        assert_int_equal(zd_appl_parse(&r, &b), ZD_E_NONE);

        assert_true(not_stale(t, &a, 100));
        assert_false(not_stale(t, &a, 100)); /* unchanged: stale */
        assert_true(not_stale(t, &b, 100));  /* another guest */
        assert_true(not_stale(t, &a, 200));
        assert_false(not_stale(t, &a, 200));
        assert_false(not_stale(t, &b, 100));
        b.prodid[9] = 2; /* same guest, another record */
        assert_true(not_stale(t, &b, 100));

        /* Many guests: the table grows and still remembers each.  The bytes after
         * the NUL are read (zh_word8) and must be set, whatever they are. */
        char name[9] = "";
        for (int i = 0; i < 3000; i++) {
                snprintf(name, sizeof(name), "G%05d", i);
                memcpy(a.userid, name, sizeof(name));
                assert_true(not_stale(t, &a, 1));
        }
        for (int i = 0; i < 3000; i++) {
                snprintf(name, sizeof(name), "G%05d", i);
                memcpy(a.userid, name, sizeof(name));
                assert_false(not_stale(t, &a, 1));
        }
        zd_appl_tracker_free(t);
        zd_appl_tracker_free(NULL);
}

/*
 * The size the project is built for (issue 12): 50,000 guests, every one a
 * Linux guest with its three kernel records and mon_fsstatd and mon_procd
 * summaries: 250,000 buffers.  Each must be remembered from one interval to
 * the next; a table that starts over sooner reports idle guests' unchanged
 * buffers again every interval.
 */
static void tracker_remembers_fifty_thousand_linux_guests(void **state)
{
        (void)state;
        struct zd_appl_tracker *t = zd_appl_tracker_new();
        assert_non_null(t);
        struct zd_record r = mem_record(2, "LINUX01", 42, 1, 1);
        struct zd_appl a;
        assert_int_equal(zd_appl_parse(&r, &a), ZD_E_NONE);
        enum { GUESTS = 50000, BUFFERS = 5 };
        char name[9] = "";
        for (int pass = 0; pass < 2; pass++) {
                size_t fresh = 0;
                for (int i = 0; i < GUESTS; i++) {
                        snprintf(name, sizeof(name), "L%07d", i);
                        memcpy(a.userid, name, sizeof(name));
                        for (int k = 0; k < BUFFERS; k++) {
                                a.prodid[9] = (uint8_t)k;
                                fresh += not_stale(t, &a, 7);
                        }
                }
                assert_int_equal(fresh, pass == 0 ? (size_t)GUESTS * BUFFERS : 0);
        }
        zd_appl_tracker_free(t);
}

/*
 * A guest chooses its product ids (CP stamps only the userid): one that
 * invents them gets its first 256 remembered, the rest reported every time
 * as untracked, and its flood never makes the tracker forget another
 * guest's buffer.  Before the per-guest bound, 2^19 invented ids made the
 * shared table start over, and LINUX02's unchanged buffer came back fresh.
 */
static void tracker_bounds_each_guest_to_its_own_ids(void **state)
{
        (void)state;
        struct zd_appl_tracker *t = zd_appl_tracker_new();
        assert_non_null(t);
        struct zd_appl evil, good;
        struct zd_record r = mem_record(2, "EVIL", 42, 1, 1);
        assert_int_equal(zd_appl_parse(&r, &evil), ZD_E_NONE);
        r = mem_record(2, "LINUX02", 42, 1, 1);
        assert_int_equal(zd_appl_parse(&r, &good), ZD_E_NONE);
        assert_int_equal(zd_appl_tracker_check(t, &good, 5), ZD_TRACK_FRESH);

        /* Ids 0..255 are remembered: fresh once, then stale. */
        for (uint32_t i = 0; i < 256; i++) {
                be32(evil.prodid + 12, i);
                assert_int_equal(zd_appl_tracker_check(t, &evil, 9), ZD_TRACK_FRESH);
        }
        for (uint32_t i = 0; i < 256; i++) {
                be32(evil.prodid + 12, i);
                assert_int_equal(zd_appl_tracker_check(t, &evil, 9), ZD_TRACK_STALE);
        }
        /* The 257th and every later one: reported each time, never remembered. */
        be32(evil.prodid + 12, 256);
        assert_int_equal(zd_appl_tracker_check(t, &evil, 9), ZD_TRACK_UNTRACKED);
        assert_int_equal(zd_appl_tracker_check(t, &evil, 9), ZD_TRACK_UNTRACKED);
        assert_true(not_stale(t, &evil, 9));

        /* A flood past the whole table's bound (2^19) from the one guest. */
        size_t untracked = 0;
        for (uint32_t i = 256; i < (1u << 19) + 4096; i++) {
                be32(evil.prodid + 12, i);
                untracked += zd_appl_tracker_check(t, &evil, 9) == ZD_TRACK_UNTRACKED;
        }
        assert_int_equal(untracked, (1u << 19) + 4096 - 256);
        assert_int_equal(zd_appl_tracker_check(t, &good, 5), ZD_TRACK_STALE);
        be32(evil.prodid + 12, 7);
        assert_int_equal(zd_appl_tracker_check(t, &evil, 9), ZD_TRACK_STALE);

        /* Another guest still gets ids of its own. */
        good.prodid[9] = 2;
        assert_int_equal(zd_appl_tracker_check(t, &good, 5), ZD_TRACK_FRESH);
        assert_int_equal(zd_appl_tracker_check(t, &good, 5), ZD_TRACK_STALE);
        zd_appl_tracker_free(t);
}

static void examine_counts_sync_stale_and_lies(void **state)
{
        (void)state;
        struct zd_decoder d;
        zd_decoder_init(&d, NULL);
        struct zd_appl_tracker *t = zd_appl_tracker_new();
        struct zd_appl_info ai;

        struct zd_record r = mem_record(2, "LINUX01", 42, 5, 5);
        zd_appl_examine(&d, t, &r, &ai);
        assert_int_equal(ai.err, ZD_E_NONE);
        assert_false(ai.stale || ai.sync_bad || ai.truncated || ai.opaque);
        assert_true(ai.timestamp == 42);
        assert_int_equal(zd_stats_errors(&d.st), 0);

        zd_appl_examine(&d, t, &r, &ai); /* CP sampled the same buffer again */
        assert_true(ai.stale);
        assert_int_equal(zd_stats_errors(&d.st), 0); /* stale is normal, not an error */

        r = mem_record(2, "LINUX01", 43, 6, 5); /* caught mid-update */
        zd_appl_examine(&d, t, &r, &ai);
        assert_true(ai.sync_bad);
        assert_false(ai.stale);
        assert_int_equal(d.st.errors[ZD_E_APPL_SYNC], 1);

        r = mem_record(2, "LINUX01", 43, 6, 6); /* the next good sample is fresh */
        zd_appl_examine(&d, t, &r, &ai);
        assert_false(ai.stale || ai.sync_bad);

        r = mem_record(2, "LINUX01", 44, 7, 7);
        be16(buf + 22, 100); /* only 100 of 144 bytes */
        zd_appl_examine(&d, t, &r, &ai);
        assert_true(ai.truncated);
        assert_int_equal(d.st.errors[ZD_E_APPL_TRUNCATED], 1);

        be16(buf + 20, 10);
        zd_appl_examine(&d, t, &r, &ai);
        assert_int_equal(ai.err, ZD_E_APPL_OFFSET);
        assert_true(ai.opaque);
        assert_int_equal(d.st.errors[ZD_E_APPL_OFFSET], 1);

        r.rec.n = 30;
        zd_appl_examine(&d, t, &r, &ai);
        assert_int_equal(ai.err, ZD_E_APPL_SHORT);
        assert_int_equal(d.st.errors[ZD_E_APPL_SHORT], 1);

        uint8_t prod[16];
        vec_lnx_prodid(prod, 77, 0, 0, 0, 0);
        r = vec_record(buf, vec_d10(buf, 2, "APP", prod, "abc", 3));
        zd_appl_examine(&d, t, &r, &ai);
        assert_true(ai.opaque);
        assert_int_equal(ai.err, ZD_E_NONE);
        assert_int_equal(zd_stats_errors(&d.st), 4); /* opaque is not an error */

        /* Without a decoder nothing is reported, the verdict is the same. */
        r = mem_record(2, "LINUX09", 50, 1, 2);
        zd_appl_examine(NULL, NULL, &r, &ai);
        assert_true(ai.sync_bad);
        assert_int_equal(zd_stats_errors(&d.st), 4);
        zd_appl_tracker_free(t);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(parses_kernel_header),
            cmocka_unit_test(payload_layout_follows_layoutfile),
            cmocka_unit_test(classifies_product_ids),
            cmocka_unit_test(refuses_lying_offsets_and_lengths),
            cmocka_unit_test(refuses_a_userid_cp_never_stamps),
            cmocka_unit_test(tracker_finds_stale_records),
            cmocka_unit_test(tracker_remembers_fifty_thousand_linux_guests),
            cmocka_unit_test(tracker_bounds_each_guest_to_its_own_ids),
            cmocka_unit_test(examine_counts_sync_stale_and_lies),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
