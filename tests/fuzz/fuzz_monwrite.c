/* SPDX-License-Identifier: MIT */
/*
 * MONWRITE files, fed in pieces whose sizes come from the input itself so
 * that block reassembly across feed() calls is exercised too.
 */
#include "fuzz_common.h"
#include "source/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        if (size < 1)
                return 0;
        size_t chunk = (size_t)data[0] * 61 + 1;
        data++;
        size--;
        struct zd_stream *s = zd_stream_new(ZD_FMT_MONWRITE, &fuzz_handler);
        if (!s)
                return 0;
        for (size_t off = 0; off < size; off += chunk)
                zd_stream_feed(s, data + off, size - off < chunk ? size - off : chunk);
        zd_stream_finish(s);
        zd_stream_free(s);
        return 0;
}
