/* SPDX-License-Identifier: MIT */
/* Any input, format detected: captures, MONWRITE, data sets and whatever else is registered. */
#include "fuzz_common.h"
#include "source/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct zd_stream *s = zd_stream_new(ZD_FMT_UNKNOWN, &fuzz_handler);
        if (!s)
                return 0;
        zd_stream_feed(s, data, size);
        zd_stream_finish(s);
        zd_stream_free(s);
        return 0;
}
