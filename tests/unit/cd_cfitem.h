/* SPDX-License-Identifier: MIT */
/*
 * A configuration item as collectd's parser hands it to a plugin, for the
 * tests that configure the zvm plugin option by option.  The values live in
 * vals, so the item is good until the next call (a test may change them,
 * say to a number, before passing it on).
 */
#ifndef TEST_CD_CFITEM_H
#define TEST_CD_CFITEM_H

#include <string.h>

#include <collectd/core/daemon/configfile.h>

static oconfig_value_t vals[8];

/* An item of n string values (s0, s1). */
static inline oconfig_item_t item(const char *key, int n, const char *s0, const char *s1)
{
        oconfig_item_t ci;
        memset(&ci, 0, sizeof(ci));
        ci.key = (char *)key;
        ci.values = vals;
        ci.values_num = n;
        vals[0].type = vals[1].type = OCONFIG_TYPE_STRING;
        vals[0].value.string = (char *)s0;
        vals[1].value.string = (char *)s1;
        return ci;
}

#endif
