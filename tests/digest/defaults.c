/* SPDX-License-Identifier: MIT */
/*
 * check-digest's first step: the engine options the digests are made with
 * (plugin_options.h) are the ones the zvm plugin sets before its <Plugin
 * zvm> block is read (zvm_config_defaults).  Without it a default changed
 * in the plugin would leave check-digest judging an engine no one runs.
 */
#include <stdio.h>
#include <string.h>

#include "cd_stubs.h"

#include "plugin_options.h"
#include "zvm.h"

static void show(const char *who, const struct zm_options *o)
{
        fprintf(stderr,
                "  %s: max_series_per_guest %zu series_idle %u unverified %d verify_intervals %u "
                "cp_reading %s procs %s\n",
                who, o->max_series_per_guest, o->series_idle, o->unverified, o->verify_intervals,
                o->cp_reading ? o->cp_reading : "auto", o->procs ? "set" : "none");
}

int main(void)
{
        struct zvm_config c;
        struct zm_options want;
        zvm_config_defaults(&c);
        digest_plugin_options(&want);
        /* Both were zeroed whole first: a field added to zm_options later is compared too. */
        int differ = memcmp(&c.engine, &want, sizeof(want)) != 0;
        if (differ) {
                fprintf(stderr,
                        "check-digest: the zvm plugin's default engine options "
                        "(zvm_config_defaults) differ from tests/digest/plugin_options.h:\n");
                show("plugin", &c.engine);
                show("digest", &want);
                fprintf(stderr, "Make plugin_options.h say what the plugin does, then run make "
                                "update-digest.\n");
        }
        zvm_config_free(&c);
        return differ;
}
