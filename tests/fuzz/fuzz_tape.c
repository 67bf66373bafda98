/* SPDX-License-Identifier: MIT */
/* Any input as a VM/370 monitor tape of plain blocks, then as an AWSTAPE image. */
#include "fuzz_hist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        fuzz_hist(data, size, ZD_FMT_TAPE, ZD_FMT_AWSTAPE);
        return 0;
}
