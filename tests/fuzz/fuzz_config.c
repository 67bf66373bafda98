/* SPDX-License-Identifier: MIT */
/*
 * The zvm plugin's configuration parser on any tree collectd's parser could
 * hand it: options by name (known ones favoured, so the fuzzer reaches their
 * checks), any number of values of any type, strings of any bytes, numbers
 * of any size and sign.  Whatever the options say, parsing, finishing and
 * freeing must neither crash nor leak, and a configuration that finished
 * must name hosts for guests that fit collectd's identifiers.
 */
#include <math.h>
#include <stdlib.h>

#include "cd_stubs.h"
#include "fuzz_bytes.h"

#include "zvm.h"

/* Every option but LayoutFile, which reads a file (fuzz_layoutfile covers its parser). */
static const char *const keys[] = {
    "Device",
    "File",
    "Host",
    "GuestHostFormat",
    "GuestHost",
    "TrustedGuestHost",
    "MaxSeriesPerGuest",
    "SeriesIdleTimeout",
    "IncludeRecord",
    "ExcludeRecord",
    "IncludeGuest",
    "ExcludeGuest",
    "UnverifiedFields",
    "MaxDataSetSize",
    "MaxRetryInterval",
    "RetryInterval",
    "ReportStats",
    "VerifyIntervals",
    "NoSuchOption",
};

static char *str(struct rd *r)
{
        size_t len = byte(r) % 48;
        char *s = malloc(len + 1);
        size_t i = 0;
        for (; i < len && r->n; i++)
                s[i] = (char)byte(r);
        s[i] = '\0';
        return s;
}

static void value(struct rd *r, oconfig_value_t *v)
{
        uint8_t t = byte(r) % 3;
        if (t == 0) {
                v->type = OCONFIG_TYPE_STRING;
                v->value.string = str(r);
        } else if (t == 1) {
                static const double odd[] = {0, -1, 0.5, 1e300, -1e300, NAN, INFINITY, 4096, 65536};
                uint8_t b = byte(r);
                v->type = OCONFIG_TYPE_NUMBER;
                v->value.number = b < 9 ? odd[b] : (double)(int8_t)b * (1 + byte(r));
        } else {
                v->type = OCONFIG_TYPE_BOOLEAN;
                v->value.boolean = byte(r) & 1;
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct rd r = {data, size};
        struct zvm_config c;
        zvm_config_defaults(&c);
        for (unsigned n = 0; r.n && n < 32; n++) {
                oconfig_item_t ci;
                oconfig_value_t v[4];
                memset(&ci, 0, sizeof(ci));
                uint8_t k = byte(&r);
                char *free_key = NULL;
                if (k < 240)
                        ci.key = (char *)keys[k % (sizeof(keys) / sizeof(keys[0]))];
                else
                        ci.key = free_key = str(&r);
                ci.values_num = byte(&r) % 5;
                ci.values = ci.values_num ? v : NULL;
                for (int i = 0; i < ci.values_num; i++)
                        value(&r, &v[i]);
                (void)zvm_config_item(&c, &ci);
                for (int i = 0; i < ci.values_num; i++)
                        if (v[i].type == OCONFIG_TYPE_STRING)
                                free(v[i].value.string);
                free(free_key);
        }
        if (zvm_config_finish(&c) == 0) {
                char h[DATA_MAX_NAME_LEN];
                if (zvm_guest_host(&c, "LINUX01", h, sizeof(h)) && (!h[0] || strchr(h, '/')))
                        abort();
        }
        zvm_config_free(&c);
        return 0;
}
