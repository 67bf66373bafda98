/* SPDX-License-Identifier: MIT */
/*
 * Stand-ins for every collectd symbol write_zvm.c calls, for the tests that
 * include plugin/write_zvm.c (test_wzvm_glue.c, test_wzvm_heap.c).  The log
 * keeps the first 16 messages in fixed buffers, so that logging allocates
 * nothing the heap test would count.  Include once, after write_zvm.c.
 */
#ifndef TEST_WZVM_CD_STUBS_H
#define TEST_WZVM_CD_STUBS_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static char logbuf[16][1024];
static int loglevel[16];
static size_t nlog;
static size_t ndispatched;
static double rate_stub[2] = {12.5, 0.25};

void plugin_log(int level, const char *format, ...)
{
        va_list ap;
        va_start(ap, format);
        if (nlog < 16) {
                loglevel[nlog] = level;
                vsnprintf(logbuf[nlog++], sizeof(logbuf[0]), format, ap);
        }
        va_end(ap);
}

/* The daemon's clock stands still here: a complaint is said once. */
cdtime_t cdtime(void)
{
        return (cdtime_t)1 << 40;
}

#include "cd_complain.h"

int plugin_register_complex_config(const char *type, int (*callback)(oconfig_item_t *))
{
        (void)type, (void)callback;
        return 0;
}
int plugin_register_init(const char *name, plugin_init_cb callback)
{
        (void)name, (void)callback;
        return 0;
}
int plugin_register_read(const char *name, int (*callback)(void))
{
        (void)name, (void)callback;
        return 0;
}
int plugin_register_shutdown(const char *name, plugin_shutdown_cb callback)
{
        (void)name, (void)callback;
        return 0;
}
int plugin_register_write(const char *name, plugin_write_cb callback, user_data_t const *ud)
{
        (void)name, (void)callback, (void)ud;
        return 0;
}
int plugin_register_flush(const char *name, plugin_flush_cb callback, user_data_t const *ud)
{
        (void)name, (void)callback, (void)ud;
        return 0;
}
int plugin_dispatch_values(value_list_t const *vl)
{
        (void)vl;
        ndispatched++;
        return 0;
}
cdtime_t plugin_get_interval(void)
{
        return TIME_T_TO_CDTIME_T(10);
}
int plugin_thread_create(pthread_t *tid, void *(*start_routine)(void *), void *arg,
                         char const *name)
{
        (void)name;
        return pthread_create(tid, NULL, start_routine, arg);
}
#include "cd_cfutil.h"

gauge_t *uc_get_rate(const data_set_t *ds, const value_list_t *vl)
{
        (void)vl;
        gauge_t *r = calloc(ds->ds_num, sizeof(*r));
        for (size_t i = 0; i < ds->ds_num && i < 2; i++)
                r[i] = rate_stub[i];
        return r;
}

#endif
