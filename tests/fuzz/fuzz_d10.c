/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: domain 10 records.  The input is one D10 record; its
 * MRHDR length and domain are forced to match the input so the fuzzer spends
 * its time on CALDATOF/CALDATLN, product ids and the Linux payloads.  Every
 * record goes through zd_appl_examine (header, sync, per-CPU area, LNXAPPL
 * strings, staleness) and both emitters.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "payload/appldata/appl.h"
#include "emit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;
static struct zmon_emit *ej, *et;
static struct zd_appl_tracker *tr;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        if (size < 20 || size > 65535)
                return 0;
        if (!sink) {
                sink = fopen("/dev/null", "w");
                ej = zmon_emit_new(ZMON_EMIT_JSON, sink);
                et = zmon_emit_new(ZMON_EMIT_TEXT, sink);
                tr = zd_appl_tracker_new();
                if (!sink || !ej || !et || !tr)
                        abort();
        }
        uint8_t *rec = malloc(size); /* exact size: ASan sees any over-read */
        if (!rec)
                return 0;
        memcpy(rec, data, size);
        rec[0] = (uint8_t)(size >> 8);
        rec[1] = (uint8_t)size;
        rec[2] = rec[3] = 0;
        rec[4] = 10;
        rec[6] = 0;
        rec[7] = (rec[7] & 1) ? 1 : 2;
        /* Most of the corpus has the fuzzer's bytes for a userid, which the header
         * check refuses before any payload is read: an even reserved byte 5 puts a
         * userid CP stamps there ("LINUX01"), an odd one keeps the input's. */
        if (!(rec[5] & 1) && size >= 32)
                memcpy(rec + 24, "\xD3\xC9\xD5\xE4\xE7\xF0\xF1\x40", 8);
        struct zd_record r = {.domain = 10, .number = rec[7], .kind = rec[7] == 2 ? 'S' : 'E'};
        r.rec = zd_view_make(rec, size);
        r.body = zd_view_tail(r.rec, 20);

        struct zd_decoder d;
        zd_decoder_init(&d, NULL);
        struct zd_appl_info ai;
        zd_appl_examine(&d, tr, &r, &ai);
        if (ai.err == ZD_E_NONE) {
                /* The data must lie inside the record whatever the header claimed. */
                if (ai.a.data.n && (ai.a.data.p < rec || ai.a.data.p + ai.a.data.n > rec + size))
                        abort();
                struct zd_lx_cpus c;
                if (ai.a.kind == ZD_APPL_LINUXKRNL && zd_lx_os_cpus(&ai.a, &c) == ZD_E_NONE)
                        for (uint32_t i = 0; i < c.n; i++)
                                if (zd_lx_cpu_entry(&c, ai.a.data, i).n != c.step)
                                        abort();
        }
        zmon_emit_record(ej, &r, &ai);
        zmon_emit_record(et, &r, &ai);
        free(rec);
        return 0;
}
