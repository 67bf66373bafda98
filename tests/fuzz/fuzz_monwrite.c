/* SPDX-License-Identifier: MIT */
/*
 * MONWRITE files, fed in pieces whose sizes come from the input itself so
 * that block reassembly across feed() calls is exercised too.  The first
 * byte picks 62..15556-byte pieces, or 0 the whole input in one piece: a
 * block put together a byte at a time takes the same path as from 62-byte
 * pieces, at 4096 calls a block it made the target many times slower.
 * Five blocks after the first byte hold a control record, three page images
 * and the next control record, every turn the block reader takes; longer
 * inputs repeat them, slower:
 * fuzz-round: -max_len=20481
 */
#include "fuzz_common.h"
#include "source/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        if (size < 1)
                return 0;
        size_t chunk = data[0] ? (size_t)data[0] * 61 + 1 : size;
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
