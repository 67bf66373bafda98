/* SPDX-License-Identifier: MIT */
/*
 * The write_zvm record format: the encoder against byte vectors written here
 * from doc/write_zvm.md, and the decoder on the same vectors and on damaged
 * copies of them.
 */
#include "vec.h"

#include "payload/wzvm/wzvm_format.h"
#include "wzvm_vec.h"

static void fill_entries(struct wzvm_entry e[2])
{
        memset(e, 0, 2 * sizeof(*e));
        e[0].ds_type = WZVM_DS_GAUGE;
        e[0].ds_count = 1;
        e[0].time = VEC_TOD_2026 - 4096;
        e[0].value = wzvm_double_bits(0.75);
        strcpy(e[0].plugin, "memory");
        strcpy(e[0].type, "memory");
        strcpy(e[0].type_instance, "used");
        strcpy(e[0].ds_name, "value");
        e[1].ds_type = WZVM_DS_DERIVE;
        e[1].ds_index = 1;
        e[1].ds_count = 2;
        e[1].time = VEC_TOD_2026;
        e[1].value = (uint64_t)(int64_t)-5;
        strcpy(e[1].plugin, "interface");
        strcpy(e[1].plugin_instance, "eth0");
        strcpy(e[1].type, "if_octets");
        strcpy(e[1].ds_name, "tx");
}

static void encoder_matches_vector(void **state)
{
        (void)state;
        uint8_t want[REC_LEN], got[REC_LEN];
        size_t used = vec_record(want);
        struct wzvm_entry e[2];
        fill_entries(e);
        struct wzvm_enc enc;
        assert_true(wzvm_enc_begin(&enc, got, sizeof(got)));
        assert_true(wzvm_enc_add(&enc, &e[0]));
        assert_true(wzvm_enc_add(&enc, &e[1]));
        assert_int_equal(enc.used, used);
        struct wzvm_hdr h = {0};
        h.timestamp = VEC_TOD_2026;
        h.sync_count_1 = h.sync_count_2 = 7;
        h.interval_ms = 10000;
        h.rec_index = 3;
        h.rec_total = 4;
        strcpy(h.host, "lnx01");
        assert_true(wzvm_enc_finish(&enc, &h));
        assert_memory_equal(got, want, REC_LEN);
}

static void decoder_reads_vector(void **state)
{
        (void)state;
        uint8_t r[REC_LEN];
        vec_record(r);
        zd_view v = zd_view_make(r, sizeof(r));
        assert_true(wzvm_is_record(v));
        struct wzvm_hdr h;
        assert_int_equal(wzvm_dec_hdr(v, &h), ZD_E_NONE);
        assert_int_equal(h.nentries, 2);
        assert_int_equal(h.sync_count_1, 7);
        assert_int_equal(h.sync_count_2, 7);
        assert_int_equal(h.interval_ms, 10000);
        assert_int_equal(h.rec_index, 3);
        assert_int_equal(h.rec_total, 4);
        assert_true(h.timestamp == VEC_TOD_2026);
        assert_string_equal(h.host, "lnx01");
        struct wzvm_iter it;
        struct wzvm_entry e;
        enum zd_err_kind err = ZD_E_NONE;
        wzvm_iter_init(&it, v, &h);
        assert_int_equal(wzvm_dec_next(&it, &e, &err), 1);
        assert_string_equal(e.plugin, "memory");
        assert_string_equal(e.plugin_instance, "");
        assert_string_equal(e.type, "memory");
        assert_string_equal(e.type_instance, "used");
        assert_string_equal(e.ds_name, "value");
        assert_int_equal(e.ds_type, WZVM_DS_GAUGE);
        assert_true(wzvm_bits_double(e.value) == 0.75);
        assert_true(e.time == VEC_TOD_2026 - 4096);
        assert_int_equal(wzvm_dec_next(&it, &e, &err), 1);
        assert_string_equal(e.plugin, "interface");
        assert_string_equal(e.plugin_instance, "eth0");
        assert_string_equal(e.type, "if_octets");
        assert_string_equal(e.type_instance, "");
        assert_string_equal(e.ds_name, "tx");
        assert_int_equal(e.ds_type, WZVM_DS_DERIVE);
        assert_int_equal(e.ds_index, 1);
        assert_int_equal(e.ds_count, 2);
        assert_true((int64_t)e.value == -5);
        assert_int_equal(wzvm_dec_next(&it, &e, &err), 0);
}

static enum zd_err_kind first_error(uint8_t *r, size_t n)
{
        zd_view v = zd_view_make(r, n);
        struct wzvm_hdr h;
        enum zd_err_kind k = wzvm_dec_hdr(v, &h);
        if (k != ZD_E_NONE)
                return k;
        struct wzvm_iter it;
        struct wzvm_entry e;
        wzvm_iter_init(&it, v, &h);
        int rc;
        k = ZD_E_NONE;
        while ((rc = wzvm_dec_next(&it, &e, &k)) == 1)
                ;
        return rc < 0 ? k : ZD_E_NONE;
}

static void decoder_refuses_damage(void **state)
{
        (void)state;
        uint8_t r[REC_LEN];
        size_t used = vec_record(r);
        assert_int_equal(first_error(r, 99), ZD_E_WZVM_SHORT);
        r[0] = 'X';
        assert_int_equal(first_error(r, REC_LEN), ZD_E_WZVM_EYECATCHER);
        vec_record(r);
        r[4] = 2;
        assert_int_equal(first_error(r, REC_LEN), ZD_E_WZVM_VERSION);
        vec_record(r);
        be16(r + 22, REC_LEN - 3); /* used runs into the trailer */
        assert_int_equal(first_error(r, REC_LEN), ZD_E_WZVM_LENGTH);
        vec_record(r);
        be16(r + 6, 100);
        assert_int_equal(first_error(r, REC_LEN), ZD_E_WZVM_LENGTH);
        vec_record(r);
        be16(r + 20, 3); /* one entry more than there is */
        assert_int_equal(first_error(r, REC_LEN), ZD_E_WZVM_COUNT);
        vec_record(r);
        be16(r + 20, 1); /* one entry less */
        assert_int_equal(first_error(r, REC_LEN), ZD_E_WZVM_COUNT);
        vec_record(r);
        be16(r + 96, 10); /* entry shorter than its fixed part */
        assert_int_equal(first_error(r, REC_LEN), ZD_E_WZVM_ENTRY);
        vec_record(r);
        be16(r + 96, (uint16_t)used); /* entry runs past used */
        assert_int_equal(first_error(r, REC_LEN), ZD_E_WZVM_ENTRY);
        vec_record(r);
        r[96 + 2] = 9; /* DS type */
        assert_int_equal(first_error(r, REC_LEN), ZD_E_WZVM_DSTYPE);
        vec_record(r);
        r[96 + 4] = 1; /* ds_index == ds_count */
        assert_int_equal(first_error(r, REC_LEN), ZD_E_WZVM_DSTYPE);
        vec_record(r);
        r[96 + 3] = WZVM_F_RATE; /* rate flag on... a GAUGE is fine */
        assert_int_equal(first_error(r, REC_LEN), ZD_E_NONE);
        vec_record(r);
        r[96 + 25] = '/'; /* "memory" -> "/emory" */
        assert_int_equal(first_error(r, REC_LEN), ZD_E_WZVM_NAME);
        vec_record(r);
        r[96 + 24] = 0; /* empty plugin name */
        assert_int_equal(first_error(r, REC_LEN), ZD_E_WZVM_NAME);
        vec_record(r);
        r[96 + 24] = 200; /* name length past the entry */
        assert_int_equal(first_error(r, REC_LEN), ZD_E_WZVM_NAME);
        vec_record(r);
        r[32 + 6] = 'x'; /* garbage after the host's NUL */
        assert_int_equal(first_error(r, REC_LEN), ZD_E_WZVM_NAME);
        vec_record(r);
        r[33] = 0x07; /* control character in the host name */
        assert_int_equal(first_error(r, REC_LEN), ZD_E_WZVM_NAME);
}

/*
 * zvmmon prints the names as they are (emit_wzvm.c): a byte that is not
 * printable ASCII, in any of them, must make the decoder refuse the record.
 */
static void decoder_refuses_unprintable_names(void **state)
{
        (void)state;
        /* The first byte of each name in vec_record (doc/write_zvm.md: the host at 32;
         * entries from 96, 24 fixed bytes, then each name's length byte and bytes). */
        static const struct {
                size_t at;
                char was;
        } name[] = {
            {32, 'l'},           /* host "lnx01" */
            {96 + 25, 'm'},      /* plugin "memory" */
            {96 + 33, 'm'},      /* type "memory" */
            {96 + 40, 'u'},      /* type_instance "used" */
            {96 + 45, 'v'},      /* ds_name "value" */
            {146 + 25, 'i'},     /* entry 1: plugin "interface" */
            {146 + 35, 'e'},     /* plugin_instance "eth0" */
            {146 + 40, 'i'},     /* type "if_octets" */
            {146 + 50 + 1, 't'}, /* ds_name "tx" (after an empty type_instance) */
        };
        static const uint8_t bad[] = {0x00, 0x07, 0x0A, 0x1B, 0x1F, 0x7F, 0x80, 0xC3, 0xFF};
        uint8_t r[REC_LEN];
        for (size_t i = 0; i < sizeof(name) / sizeof(name[0]); i++) {
                vec_record(r);
                assert_int_equal(r[name[i].at], name[i].was);
                r[name[i].at] = 'X'; /* still printable: decodes */
                assert_int_equal(first_error(r, REC_LEN), ZD_E_NONE);
                for (size_t k = 0; k < sizeof(bad); k++) {
                        r[name[i].at] = bad[k];
                        assert_int_equal(first_error(r, REC_LEN), ZD_E_WZVM_NAME);
                }
        }
}

static void encoder_refuses_what_does_not_fit(void **state)
{
        (void)state;
        uint8_t buf[160];
        struct wzvm_enc enc;
        assert_false(wzvm_enc_begin(&enc, buf, 99));
        assert_true(wzvm_enc_begin(&enc, buf, sizeof(buf)));
        struct wzvm_entry e[2];
        fill_entries(e);
        assert_true(wzvm_enc_add(&enc, &e[0])); /* 96 + 55 = 151 */
        assert_false(wzvm_enc_add(&enc, &e[1]));
        assert_int_equal(enc.n, 1);
        memset(e[1].type_instance, 'a', 64);
        e[1].type_instance[64 - 1] = 0; /* 63: fits the rule */
        assert_true(wzvm_entry_size(&e[1]) > 0);
        memset(e[1].type_instance, 'a', 64);
        e[1].type_instance[63] = 'a'; /* unterminated in 64 bytes: too long */
        assert_int_equal(wzvm_entry_size(&e[1]), 0);
        fill_entries(e);
        e[1].plugin[0] = 0;
        assert_int_equal(wzvm_entry_size(&e[1]), 0);
}

static void monwrite_header_bytes(void **state)
{
        (void)state;
        /* doc/facts/kernel-drivers.md 2.1: function, applid, record, version, release, mod,
         * len, 13 */
        static const uint8_t want[13] = {0x00, 0x7A, 0x76, 0x01, 0x00, 0x01, 0x00,
                                         0x00, 0x00, 0x05, 0x0F, 0xAA, 0x0D};
        struct wzvm_mwhdr h = {WZVM_MW_START, WZVM_DEFAULT_APPLID, 1, 1, 0, 5, 4010, 13};
        uint8_t got[13];
        wzvm_mwhdr_put(got, &h);
        assert_memory_equal(got, want, 13);
        struct wzvm_mwhdr back = h;
        assert_null(wzvm_mwhdr_invalid(&back));
        back.datalen = 4011;
        assert_string_equal(wzvm_mwhdr_invalid(&back), "datalen");
        back.datalen = 0;
        back.function = 4;
        assert_string_equal(wzvm_mwhdr_invalid(&back), "mon_function");
        back.hdrlen = 12;
        assert_string_equal(wzvm_mwhdr_invalid(&back), "hdrlen");
}

int main(void)
{
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(encoder_matches_vector),
            cmocka_unit_test(decoder_reads_vector),
            cmocka_unit_test(decoder_refuses_damage),
            cmocka_unit_test(decoder_refuses_unprintable_names),
            cmocka_unit_test(encoder_refuses_what_does_not_fit),
            cmocka_unit_test(monwrite_header_bytes),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
