/* SPDX-License-Identifier: MIT */
/* Both plugins' option tables, read one option at a time (plugin_options.h). */
#include "plugin_options.h"

#include <collectd/core/daemon/configfile.h>
#include <collectd/core/daemon/plugin.h>

#include <string.h>
#include <strings.h>

/* Bounds and values are printed in full: %g would print 1048576 as 1.04858e+06. */
int popt_number(const char *plugin, const oconfig_item_t *ci, double min, double max, bool whole,
                double *out)
{
        double d;
        if (cf_util_get_double(ci, &d))
                return -1;
        /* NaN is in no range, and a plain comparison would let it through */
        if (!(d >= min && d <= max)) {
                ERROR("%s plugin: option %s needs a number between %.15g and %.15g, not %.15g",
                      plugin, ci->key, min, max, d);
                return -1;
        }
        /* a fraction is refused rather than cut */
        if (whole && d != (double)(long long)d) {
                ERROR("%s plugin: option %s needs a whole number, not %.15g", plugin, ci->key, d);
                return -1;
        }
        *out = d;
        return 0;
}

static int put_count(const struct popt_table *t, const struct popt *o, void *field,
                     const oconfig_item_t *ci)
{
        double d;
        if (popt_number(t->plugin, ci, o->min, o->max, true, &d))
                return -1;
        if (o->size == sizeof(uint64_t)) {
                uint64_t v = (uint64_t)d;
                memcpy(field, &v, sizeof(v));
        } else {
                uint32_t v = (uint32_t)d;
                memcpy(field, &v, sizeof(v));
        }
        return 0;
}

static int put(const struct popt_table *t, const struct popt *o, void *cfg,
               const oconfig_item_t *ci)
{
        void *field = (char *)cfg + o->at;
        switch (o->kind) {
        case POPT_BOOL:
                return cf_util_get_boolean(ci, (bool *)field);
        case POPT_STRING:
                return cf_util_get_string(ci, (char **)field);
        case POPT_NUMBER:
                return popt_number(t->plugin, ci, o->min, o->max, false, (double *)field);
        case POPT_COUNT:
                return put_count(t, o, field, ci);
        case POPT_PARSE:
                break;
        }
        return o->parse(cfg, ci);
}

int popt_apply(const struct popt_table *t, void *cfg, uint64_t *given, const oconfig_item_t *ci)
{
        for (size_t i = 0; i < t->n; i++) {
                const struct popt *o = &t->rows[i];
                if (strcasecmp(ci->key, o->name) != 0)
                        continue;
                uint64_t bit = UINT64_C(1) << i;
                if (!o->repeats && (*given & bit)) {
                        ERROR("%s plugin: %s given twice; it takes one value, and the second "
                              "would replace the first",
                              t->plugin, o->name);
                        return -1;
                }
                int rc = put(t, o, cfg, ci);
                if (rc == 0 && !o->repeats)
                        *given |= bit;
                return rc ? -1 : 0;
        }
        ERROR("%s plugin: unknown option \"%s\" (see %s)", t->plugin, ci->key, t->doc);
        return -1;
}
