/* SPDX-License-Identifier: MIT */
/*
 * collectd's complaint rule (utils_complain.c), for the tests and benchmarks
 * that stand in for the daemon: a complaint is not repeated before last +
 * interval; the interval starts at the plugin interval (10 s here) and doubles
 * up to a day; c_complain_once says nothing more until a release; a release
 * logs only what was complained about, and ends the once.  The includer
 * provides cdtime() and plugin_log().
 */
#ifndef TEST_CD_COMPLAIN_H
#define TEST_CD_COMPLAIN_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include <collectd/core/daemon/utils_complain.h>

#define CD_STUB_INTERVAL ((cdtime_t)10 << 30)

/* Whether it was said (collectd's vcomplain); its 512-byte message is collectd's too. */
__attribute__((format(printf, 3, 0))) static bool cd_vcomplain(int level, c_complain_t *c,
                                                               const char *format, va_list ap)
{
        cdtime_t now = cdtime();
        if (c->last + c->interval > now)
                return false;
        c->last = now;
        c->interval = c->interval < CD_STUB_INTERVAL ? CD_STUB_INTERVAL : c->interval * 2;
        if (c->interval > (cdtime_t)86400 << 30)
                c->interval = (cdtime_t)86400 << 30;
        char buf[512];
        vsnprintf(buf, sizeof(buf), format, ap);
        plugin_log(level, "%s", buf);
        return true;
}

void c_complain(int level, c_complain_t *c, const char *format, ...)
{
        va_list ap;
        va_start(ap, format);
        if (cd_vcomplain(level, c, format, ap))
                c->complained_once = true;
        va_end(ap);
}

void c_complain_once(int level, c_complain_t *c, const char *format, ...)
{
        if (c->complained_once)
                return;
        va_list ap;
        va_start(ap, format);
        if (cd_vcomplain(level, c, format, ap))
                c->complained_once = true;
        va_end(ap);
}

void c_do_release(int level, c_complain_t *c, const char *format, ...)
{
        if (c->interval == 0)
                return;
        c->interval = 0;
        c->complained_once = false;
        char buf[512];
        va_list ap;
        va_start(ap, format);
        vsnprintf(buf, sizeof(buf), format, ap);
        va_end(ap);
        plugin_log(level, "%s", buf);
}

#endif
