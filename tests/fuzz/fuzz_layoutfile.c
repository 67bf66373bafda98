/* SPDX-License-Identifier: MIT */
/* The LayoutFile parser on any text; what it accepts is then used to decode the input. */
#include "fuzz_common.h"
#include "layout/lay_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        char err[256];
        if (zl_load_text((const char *)data, size, "fuzz", err, sizeof(err))) {
                const struct zl_layout *l;
                for (size_t i = 0; (l = zl_layout_at(i)) != NULL; i++)
                        zl_foreach(l, zd_view_make(data, size), fuzz_field, NULL);
        }
        fuzz_sink += err[0];
        zl_file_unload_all();
        return 0;
}
