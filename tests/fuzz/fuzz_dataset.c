/* SPDX-License-Identifier: MIT */
/* One monreader data set: [MCE][record set]... as read() delivers it. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct zd_decoder d;
        zd_decoder_init(&d, &fuzz_handler);
        zd_decode_dataset(&d, zd_view_make(data, size), 0, 0);
        return 0;
}
