/* SPDX-License-Identifier: MIT */
/*
 * Stand-ins for every collectd symbol write_zvm.c calls, for the tests that
 * include plugin/write_zvm/write_zvm.c (test_wzvm_glue.c, test_wzvm_heap.c) and for
 * bench_wzvm.c, which links the plugin's sources.  The log keeps the first 16
 * messages in fixed buffers, so that logging allocates nothing the heap test
 * would count; write callbacks on several threads may log at once.  The
 * callbacks the plugin registers are kept (stub_cb), for a caller that
 * drives the plugin as the daemon would.  Include once, after collectd's
 * headers (or write_zvm.c).
 */
#ifndef TEST_WZVM_CD_STUBS_H
#define TEST_WZVM_CD_STUBS_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static char logbuf[16][1024];
static int loglevel[16];
static atomic_size_t nlog;
static size_t stub_log_echo; /* the first this many messages also go to stderr */
static size_t ndispatched;
static void (*stub_on_dispatch)(const value_list_t *vl);
static double rate_stub[2] = {12.5, 0.25};
static bool stub_rate_fails; /* uc_get_rate finds no rate, as for a list not in the cache */

static struct {
        int (*config)(oconfig_item_t *);
        plugin_init_cb init;
        plugin_shutdown_cb shutdown;
        plugin_write_cb write;
        int (*read)(void);
} stub_cb;

void plugin_log(int level, const char *format, ...)
{
        size_t i = nlog++;
        va_list ap;
        if (i < 16) {
                loglevel[i] = level;
                va_start(ap, format);
                vsnprintf(logbuf[i], sizeof(logbuf[0]), format, ap);
                va_end(ap);
        } else {
                nlog = 16; /* what the buffers hold */
        }
        if (i < stub_log_echo)
                fprintf(stderr, "log %d: %s\n", level, i < 16 ? logbuf[i] : "(not kept)");
}

/* The daemon's clock stands still unless a test moves it: a complaint is said once. */
static cdtime_t stub_now = (cdtime_t)1 << 40;
cdtime_t cdtime(void)
{
        return stub_now;
}

#include "cd_complain.h"

int plugin_register_complex_config(const char *type, int (*callback)(oconfig_item_t *))
{
        (void)type;
        stub_cb.config = callback;
        return 0;
}
int plugin_register_init(const char *name, plugin_init_cb callback)
{
        (void)name;
        stub_cb.init = callback;
        return 0;
}
int plugin_register_read(const char *name, int (*callback)(void))
{
        (void)name;
        stub_cb.read = callback;
        return 0;
}
int plugin_register_shutdown(const char *name, plugin_shutdown_cb callback)
{
        (void)name;
        stub_cb.shutdown = callback;
        return 0;
}
int plugin_register_write(const char *name, plugin_write_cb callback, user_data_t const *ud)
{
        (void)name, (void)ud;
        stub_cb.write = callback;
        return 0;
}
int plugin_register_flush(const char *name, plugin_flush_cb callback, user_data_t const *ud)
{
        (void)name, (void)callback, (void)ud;
        return 0;
}
int plugin_dispatch_values(value_list_t const *vl)
{
        ndispatched++;
        if (stub_on_dispatch)
                stub_on_dispatch(vl);
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
        if (stub_rate_fails)
                return NULL;
        gauge_t *r = calloc(ds->ds_num, sizeof(*r));
        for (size_t i = 0; r && i < ds->ds_num && i < 2; i++)
                r[i] = rate_stub[i];
        return r;
}

#endif
