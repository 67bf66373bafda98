/* SPDX-License-Identifier: MIT */
/*
 * The options of both plugins' blocks, each plugin's as one table: a row per
 * option with its name, its kind, where its value goes and its bounds.
 * collectd's cf_util_get_* read a value and say what is wrong with its kind,
 * and the bounds are checked after, as collectd's own plugins do; an option
 * with more to it than one value of one kind (a list, a pair, a value with a
 * rule of its own) is a row with a function of its own.
 *
 * Names match in any case.  An option of one value given twice is refused:
 * the second would silently replace the first (a Device left over in a
 * copied block).  Options that add (lists, mappings) may repeat.
 */
#ifndef ZVM_PLUGIN_OPTIONS_H
#define ZVM_PLUGIN_OPTIONS_H

#include <collectd/core/daemon/collectd.h>
#include <collectd/liboconfig/oconfig.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum popt_kind {
        POPT_BOOL,   /* a bool */
        POPT_STRING, /* a char *, a copy; the one before is freed */
        POPT_NUMBER, /* a double from min to max */
        POPT_COUNT,  /* a whole number from min to max, into an unsigned field of 4 or 8 bytes */
        POPT_PARSE,  /* parse() reads and keeps it */
};

struct popt {
        const char *name;
        enum popt_kind kind;
        size_t at, size; /* the field in the plugin's configuration (POPT_AT), but for POPT_PARSE */
        double min, max; /* POPT_NUMBER, POPT_COUNT */
        bool repeats;    /* each one adds: may be given more than once */
        int (*parse)(void *cfg, const oconfig_item_t *ci); /* POPT_PARSE: 0, or -1 said */
};

/* Where a field is: a row's at and size. */
#define POPT_AT(type, field) offsetof(type, field), sizeof(((type *)0)->field)

struct popt_table {
        const char *plugin; /* the messages' "<plugin> plugin: " */
        const char *doc;    /* where the options are described, named for an unknown one */
        const struct popt *rows;
        size_t n; /* at most 64: given has a bit per row */
};

/*
 * One option of the block into cfg; 0, or -1 with a message naming it.
 * given: the rows of one value seen so far, one bit each by place in the
 * table (a value refused does not count as given).
 */
int popt_apply(const struct popt_table *t, void *cfg, uint64_t *given, const oconfig_item_t *ci);

/* One number from min to max (whole: and no fraction), for a POPT_PARSE row; messages as above. */
int popt_number(const char *plugin, const oconfig_item_t *ci, double min, double max, bool whole,
                double *out);

#endif
