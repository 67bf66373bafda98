/* SPDX-License-Identifier: MIT */
/*
 * collectd's complaint rule (utils_complain.c), for the tests and benchmarks
 * that stand in for the daemon: a complaint is not repeated before last +
 * interval; the interval starts at the plugin interval (10 s here) and doubles
 * up to a day; a release logs only what was complained about.  The includer
 * provides cdtime() and plugin_log().
 */
#ifndef TEST_CD_COMPLAIN_H
#define TEST_CD_COMPLAIN_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include <collectd/core/daemon/utils_complain.h>

#define CD_STUB_INTERVAL ((cdtime_t)10 << 30)

void c_complain(int level, c_complain_t *c, const char *format, ...)
{
        cdtime_t now = cdtime();
        if (c->last + c->interval > now)
                return;
        c->last = now;
        c->interval = c->interval < CD_STUB_INTERVAL ? CD_STUB_INTERVAL : c->interval * 2;
        if (c->interval > (cdtime_t)86400 << 30)
                c->interval = (cdtime_t)86400 << 30;
        c->complained_once = true;
        char buf[1024];
        va_list ap;
        va_start(ap, format);
        vsnprintf(buf, sizeof(buf), format, ap);
        va_end(ap);
        plugin_log(level, "%s", buf);
}

void c_do_release(int level, c_complain_t *c, const char *format, ...)
{
        char buf[1024];
        va_list ap;
        va_start(ap, format);
        vsnprintf(buf, sizeof(buf), format, ap);
        va_end(ap);
        c->interval = 0;
        plugin_log(level, "%s", buf);
}

#endif
