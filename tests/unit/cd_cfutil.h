/* SPDX-License-Identifier: MIT */
/*
 * collectd 5.12's configuration helpers (configfile.c: cf_util_get_*), for
 * the tests and fuzz targets that stand in for the daemon: one value of the
 * kind asked for, or -1 with a message; a boolean may also be written as a
 * quoted true/yes/on or false/no/off.  The includer provides plugin_log().
 */
#ifndef TEST_CD_CFUTIL_H
#define TEST_CD_CFUTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <collectd/core/daemon/configfile.h>

static int cd_cf_one(const oconfig_item_t *ci, int type, const char *what)
{
        if (ci->values_num == 1 && ci->values[0].type == type)
                return 0;
        plugin_log(LOG_ERR, "cf_util: The \"%s\" option requires exactly one %s argument.", ci->key,
                   what);
        return -1;
}

int cf_util_get_string(const oconfig_item_t *ci, char **ret_string)
{
        if (cd_cf_one(ci, OCONFIG_TYPE_STRING, "string"))
                return -1;
        char *s = strdup(ci->values[0].value.string);
        if (!s)
                return -1;
        free(*ret_string);
        *ret_string = s;
        return 0;
}

int cf_util_get_string_buffer(const oconfig_item_t *ci, char *buffer, size_t buffer_size)
{
        if (cd_cf_one(ci, OCONFIG_TYPE_STRING, "string"))
                return -1;
        snprintf(buffer, buffer_size, "%s", ci->values[0].value.string);
        return 0;
}

int cf_util_get_double(const oconfig_item_t *ci, double *ret_value)
{
        if (cd_cf_one(ci, OCONFIG_TYPE_NUMBER, "numeric"))
                return -1;
        *ret_value = ci->values[0].value.number;
        return 0;
}

int cf_util_get_boolean(const oconfig_item_t *ci, bool *ret_bool)
{
        if (ci->values_num == 1 && ci->values[0].type == OCONFIG_TYPE_STRING) {
                const char *s = ci->values[0].value.string;
                bool t = !strcasecmp(s, "true") || !strcasecmp(s, "yes") || !strcasecmp(s, "on");
                bool f = !strcasecmp(s, "false") || !strcasecmp(s, "no") || !strcasecmp(s, "off");
                if (t || f) {
                        *ret_bool = t;
                        return 0;
                }
        }
        if (cd_cf_one(ci, OCONFIG_TYPE_BOOLEAN, "boolean"))
                return -1;
        *ret_bool = ci->values[0].value.boolean;
        return 0;
}

#endif
