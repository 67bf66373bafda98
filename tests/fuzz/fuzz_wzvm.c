/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: write_zvm records, which come from any guest with
 * OPTION APPLMON.  The input is the application data; it is wrapped in a
 * D10R2 record with an LNXAPPL product id and goes through the format
 * decoder, the zvmmon emitters and the metric engine (met_wzvm).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "payload/appldata/appl.h"
#include "emit.h"
#include "metric/metric.h"
#include "payload/wzvm/wzvm_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;
static struct zmon_emit *ej;
static struct zm_engine *eng;
static volatile uint64_t seen;

static void emit(void *ctx, const struct zm_metric *m)
{
        (void)ctx;
        /* every name must be a terminated, printable collectd name */
        const char *names[] = {m->host, m->plugin, m->plugin_instance, m->type, m->type_instance};
        for (int i = 0; i < 5; i++) {
                size_t n = strnlen(names[i], ZM_NAME_LEN);
                if (n == ZM_NAME_LEN)
                        abort();
                for (size_t j = 0; j < n; j++)
                        if (names[i][j] == '/' || names[i][j] < 0x20 || names[i][j] > 0x7E)
                                abort();
        }
        if (m->nvalues == 0 || m->nvalues > ZM_MAXVALUES || !m->plugin[0] || !m->type[0])
                abort();
        seen += m->nvalues;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        if (size > 4010)
                return 0;
        if (!sink) {
                sink = fopen("/dev/null", "w");
                ej = zmon_emit_new(ZMON_EMIT_JSON, sink);
                eng = zm_engine_new(NULL, emit, NULL, NULL);
                if (!sink || !ej || !eng)
                        abort();
        }
        /* the format decoder on the exact bytes: ASan sees any over-read */
        uint8_t *d = malloc(size ? size : 1);
        if (!d)
                return 0;
        memcpy(d, data, size);
        zd_view v = zd_view_make(d, size);
        struct wzvm_hdr h;
        if (wzvm_dec_hdr(v, &h) == ZD_E_NONE) {
                struct wzvm_iter it;
                struct wzvm_entry e;
                enum zd_err_kind k;
                wzvm_iter_init(&it, v, &h);
                while (wzvm_dec_next(&it, &e, &k) == 1)
                        seen += e.value;
        }
        free(d);

        /* as a D10R2 record: 20-byte header, 52-byte APPLDATA header, the data */
        size_t len = 52 + size;
        uint8_t *rec = calloc(1, len);
        if (!rec)
                return 0;
        rec[0] = (uint8_t)(len >> 8);
        rec[1] = (uint8_t)len;
        rec[4] = 10;
        rec[7] = 2;
        rec[20] = 0;
        rec[21] = 52;
        rec[22] = (uint8_t)(size >> 8);
        rec[23] = (uint8_t)size;
        memset(rec + 24, 0x40, 8);
        memcpy(rec + 24, "\xD3\xC9\xD5\xE4\xE7\xF0\xF1", 7); /* EBCDIC LINUX01 */
        memcpy(rec + 32, "LNXAPPL\x7A\x76\x01\x00\x01\x00\x00\x00\x00", 16);
        if (size >= 2) /* let the input pick the mod level (buffer key) */
                rec[47] = data[size - 1] & 3;
        memcpy(rec + 52, data, size);
        struct zd_record r = {.domain = 10, .number = 2, .kind = 'S'};
        r.rec = zd_view_make(rec, len);
        r.body = zd_view_tail(r.rec, 20);
        zm_engine_record(eng, &r);
        struct zd_decoder dec;
        zd_decoder_init(&dec, NULL);
        struct zd_appl_info ai;
        struct zd_appl_tracker *tr = zd_appl_tracker_new();
        if (tr) {
                zd_appl_examine(&dec, tr, &r, &ai);
                zmon_emit_record(ej, &r, &ai);
                zd_appl_tracker_free(tr);
        }
        free(rec);
        return 0;
}
