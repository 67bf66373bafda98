/* SPDX-License-Identifier: MIT */
/*
 * Stand-ins for the collectd 5.12 daemon symbols the zvm plugin calls
 * (collectd-dev ships no mock library).  plugin_dispatch_values records
 * every value list so tests can compare identifiers, values and times.
 * Include once, in the test file.
 */
#ifndef TEST_CD_STUBS_H
#define TEST_CD_STUBS_H

#include "zvm_collectd.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CD_MAXVL 4096
struct cd_vl {
        char host[DATA_MAX_NAME_LEN], plugin[DATA_MAX_NAME_LEN], pinst[DATA_MAX_NAME_LEN],
            type[DATA_MAX_NAME_LEN], tinst[DATA_MAX_NAME_LEN];
        size_t n;
        value_t v[4];
        cdtime_t time, interval;
};
static struct cd_vl cd_vls[CD_MAXVL];
static size_t cd_nvl;
/* Set by tests that dispatch more than CD_MAXVL value lists: count them, keep none. */
static bool cd_count_only;
static size_t cd_ncounted;
static char cd_lastlog[1024];
static int cd_nlog;
static cdtime_t cd_now = (cdtime_t)1 << 40;
static char cd_hostname[DATA_MAX_NAME_LEN] = "collector";
char *hostname_g = cd_hostname;
int timeout_g = 2; /* collectd's default Timeout */
/* Called first with every value list when set (the fuzz targets check identifiers here). */
static void (*cd_on_dispatch)(value_list_t const *vl);

/*
 * collectd's value cache as its write threads leave it, for a replay's
 * markers (plugin "zvm", instance "replay"; zvm_pace.c): the threads have
 * taken the first cd_written value lists off the queue (SIZE_MAX: all), and
 * move on by cd_write_step at every look into the cache.  cd_drop_marks
 * markers are dropped first (WriteQueueLimitHigh); cd_cache_blind keeps
 * every one out (a PreCacheChain).
 */
#define CD_MAXMARK 100000
struct cd_mark {
        size_t at; /* how many value lists were queued before it */
        value_t v;
};
static struct cd_mark cd_marks[CD_MAXMARK];
static size_t cd_nmarks, cd_ndispatched, cd_written = SIZE_MAX, cd_write_step, cd_drop_marks;
static bool cd_cache_blind;
/* The next this many value lists are refused, as collectd refuses one (its return -1). */
static size_t cd_refuse;

int uc_get_value_by_name(const char *name, value_t **ret_values, size_t *ret_values_num);
int uc_get_value_by_name(const char *name, value_t **ret_values, size_t *ret_values_num)
{
        if (cd_written != SIZE_MAX)
                cd_written = cd_written + cd_write_step < cd_ndispatched
                                 ? cd_written + cd_write_step
                                 : cd_ndispatched;
        char want[5 * DATA_MAX_NAME_LEN];
        snprintf(want, sizeof(want), "%s/zvm-replay/total_values-dispatched", hostname_g);
        size_t i = cd_nmarks;
        while (i > 0 && cd_marks[i - 1].at >= cd_written)
                i--;
        if (cd_cache_blind || strcmp(name, want) != 0 || i == 0)
                return -1;
        *ret_values = malloc(sizeof(value_t));
        if (!*ret_values)
                return -1;
        (*ret_values)[0] = cd_marks[i - 1].v;
        *ret_values_num = 1;
        return 0;
}

int plugin_dispatch_values(value_list_t const *vl)
{
        if (cd_on_dispatch)
                cd_on_dispatch(vl);
        if (strcmp(vl->plugin, "zvm") == 0 && strcmp(vl->plugin_instance, "replay") == 0) {
                if (cd_drop_marks) {
                        cd_drop_marks--;
                        return 0; /* collectd's drop: a success to the caller */
                }
                if (cd_nmarks < CD_MAXMARK)
                        cd_marks[cd_nmarks++] = (struct cd_mark){cd_ndispatched, vl->values[0]};
        }
        if (cd_refuse) {
                cd_refuse--;
                return -1;
        }
        cd_ndispatched++;
        if (cd_count_only) {
                cd_ncounted++;
                return 0;
        }
        if (cd_nvl >= CD_MAXVL)
                return -1;
        struct cd_vl *c = &cd_vls[cd_nvl++];
        snprintf(c->host, sizeof(c->host), "%s", vl->host);
        snprintf(c->plugin, sizeof(c->plugin), "%s", vl->plugin);
        snprintf(c->pinst, sizeof(c->pinst), "%s", vl->plugin_instance);
        snprintf(c->type, sizeof(c->type), "%s", vl->type);
        snprintf(c->tinst, sizeof(c->tinst), "%s", vl->type_instance);
        c->n = vl->values_len;
        for (size_t i = 0; i < vl->values_len && i < 4; i++)
                c->v[i] = vl->values[i];
        c->time = vl->time;
        c->interval = vl->interval;
        return 0;
}

/* Every type is known and takes any number of values, but for "no_such..." ones. */
const data_set_t *plugin_get_ds(const char *name)
{
        static data_set_t any;
        return strncmp(name, "no_such", 7) == 0 ? NULL : &any;
}

void plugin_log(int level, const char *format, ...)
{
        (void)level;
        va_list ap;
        va_start(ap, format);
        vsnprintf(cd_lastlog, sizeof(cd_lastlog), format, ap);
        va_end(ap);
        cd_nlog++;
        if (getenv("CD_STUBS_VERBOSE"))
                fprintf(stderr, "log: %s\n", cd_lastlog);
}

cdtime_t cdtime(void);
#include "cd_cfutil.h"
#include "cd_complain.h"

cdtime_t cdtime(void)
{
        return cd_now;
}

__attribute__((unused)) static void cd_reset(void)
{
        cd_nvl = 0;
        cd_nlog = 0;
        cd_lastlog[0] = 0;
        cd_count_only = false; /* a counting test that failed half way leaves it set */
        cd_ncounted = 0;
        cd_nmarks = cd_ndispatched = cd_write_step = cd_drop_marks = cd_refuse = 0;
        cd_written = SIZE_MAX;
        cd_cache_blind = false;
}

__attribute__((unused)) static const struct cd_vl *cd_find(const char *host, const char *plugin,
                                                           const char *pinst, const char *type,
                                                           const char *tinst)
{
        for (size_t i = 0; i < cd_nvl; i++) {
                const struct cd_vl *c = &cd_vls[i];
                if ((!host || !strcmp(c->host, host)) && !strcmp(c->plugin, plugin) &&
                    !strcmp(c->pinst, pinst) && !strcmp(c->type, type) && !strcmp(c->tinst, tinst))
                        return c;
        }
        return NULL;
}

#endif
