/* SPDX-License-Identifier: MIT */
/*
 * The CP metric module on hostile records: the input is cut into records by
 * their own MRHDRLEN (as the walker would deliver them) and fed to a metric
 * engine in each UnverifiedFields mode, with an Interval End after every
 * D1R11 and at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "metric/met_verify.h"
#include "metric/metric.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void emit(void *ctx, const struct zm_metric *m)
{
        (void)ctx;
        /* Metrics refer to their names: each one must be there and fit collectd's 127 bytes. */
        const char *names[] = {m->host, m->plugin, m->plugin_instance, m->type, m->type_instance};
        for (int i = 0; i < 5; i++)
                if (!names[i] || strnlen(names[i], ZM_NAME_LEN) == ZM_NAME_LEN)
                        abort();
        fuzz_sink += m->nvalues + strlen(m->plugin_instance);
}

static void logmsg(void *ctx, int level, const char *msg)
{
        (void)ctx;
        fuzz_sink += (uint64_t)level + strlen(msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        for (int mode = -1; mode <= 1; mode++) {
                struct zm_options o = {.unverified = mode, .verify_intervals = 2};
                struct zm_engine *e = zm_engine_new(&o, emit, logmsg, NULL);
                if (!e)
                        return 0;
                size_t off = 0;
                struct zd_record r;
                while (size - off >= 20) {
                        size_t len = ((size_t)data[off] << 8) | data[off + 1];
                        if (len < 20 || len > size - off)
                                break;
                        memset(&r, 0, sizeof(r));
                        r.rec = zd_view_make(data + off, len);
                        r.body = zd_view_tail(r.rec, 20);
                        r.domain = data[off + 4];
                        r.number = (uint16_t)((data[off + 6] << 8) | data[off + 7]);
                        for (int i = 0; i < 8; i++)
                                r.tod = (r.tod << 8) | data[off + 8 + i];
                        r.kind = 'S';
                        zm_engine_record(e, &r);
                        if (r.domain == 1 && r.number == 11)
                                zm_engine_interval_end(e, &r);
                        off += len;
                }
                static const uint8_t end_rec[20] = {0, 20, 0, 0, 1, 0, 0, 11};
                memset(&r, 0, sizeof(r));
                r.rec = zd_view_make(end_rec, sizeof(end_rec));
                r.domain = 1;
                r.number = 11;
                zm_engine_interval_end(e, &r);
                const struct zv_law_status *st;
                for (size_t i = 0; (st = zm_law_at(e, i)) != NULL; i++)
                        fuzz_sink += st->on + st->streak;
                zm_engine_free(e);
        }
        return 0;
}
