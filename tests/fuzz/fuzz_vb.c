/* SPDX-License-Identifier: MIT */
/* Any input as a VB file of CP monitor records, then with the format detected. */
#include "fuzz_hist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        fuzz_hist(data, size, ZD_FMT_VB, ZD_FMT_UNKNOWN);
        return 0;
}
