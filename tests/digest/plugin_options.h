/* SPDX-License-Identifier: MIT */
/*
 * The metric engine's options as the zvm plugin sets them when its <Plugin
 * zvm> block gives none of the engine's options, so that bench_digest and
 * check-digest run the engine the way the plugin does.  Written out here
 * rather than taken from the plugin, which needs collectd's headers;
 * tests/digest/defaults.c fails check-digest when they part.
 */
#ifndef DIGEST_PLUGIN_OPTIONS_H
#define DIGEST_PLUGIN_OPTIONS_H

#include <string.h>

#include "metric/metric.h"

static inline void digest_plugin_options(struct zm_options *o)
{
        memset(o, 0, sizeof(*o));
        /* MaxSeriesPerGuest 1000: zvm_config_defaults, doc/plugin.md. */
        o->max_series_per_guest = 1000;
        /* SeriesIdleTimeout: collectd's default Timeout (2) + 3: zvm_config_defaults. */
        o->series_idle = 5;
        /* UnverifiedFields auto (-1): zvm_config_defaults, doc/plugin.md. */
        o->unverified = -1;
        /* VerifyIntervals 3: zvm_config_defaults, doc/plugin.md. */
        o->verify_intervals = 3;
        /*
         * CPReading auto (NULL): left zero by zvm_config_defaults, and "auto"
         * sets NULL too (get_reading, plugin/zvm/zvm_config.c).
         */
        o->cp_reading = NULL;
        /*
         * No process selection (NULL): only Process and ProcessMatch make
         * one (add_process), so mon_procd's tasks give no metrics by default.
         */
        o->procs = NULL;
}

#endif
