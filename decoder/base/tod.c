/* SPDX-License-Identifier: MIT */
#include "base/tod.h"

#include <time.h>

#include "base/numtext.h"

int64_t zd_tod_to_unix_us(uint64_t tod)
{
        if (tod >= ZD_TOD_UNIX_EPOCH)
                return (int64_t)((tod - ZD_TOD_UNIX_EPOCH) >> 12);
        return -(int64_t)((ZD_TOD_UNIX_EPOCH - tod + 4095) >> 12);
}

uint64_t zd_unix_us_to_tod(int64_t us)
{
        if (us >= 0)
                return ZD_TOD_UNIX_EPOCH + ((uint64_t)us << 12);
        return ZD_TOD_UNIX_EPOCH - ((uint64_t)(-us) << 12);
}

/* v (0 <= v < 10^n) as n decimal digits at p, zero-padded; the NUL it leaves at p + n
 * is overwritten by what follows. */
static char *digits(char *p, long v, size_t n)
{
        return p + zd_u64_text(p, (uint64_t)v, 10, n);
}

bool zd_tod_to_iso8601(uint64_t tod, char *buf, size_t bufsz)
{
        int64_t us = zd_tod_to_unix_us(tod);
        int64_t secs = us >= 0 ? us / 1000000 : -((-us + 999999) / 1000000);
        int64_t frac = us - secs * 1000000;
        time_t t = (time_t)secs;
        struct tm tm;
        /* Not snprintf: zvmmon dump writes a time for every TOD field, and would parse
         * the format each time.  Every field below has its width fixed by its range; the
         * year is checked. */
        if (bufsz < 28 || !gmtime_r(&t, &tm) || tm.tm_year + 1900 < 0 || tm.tm_year + 1900 > 9999)
                return false;
        char *p = digits(buf, tm.tm_year + 1900, 4);
        *p++ = '-';
        p = digits(p, tm.tm_mon + 1, 2);
        *p++ = '-';
        p = digits(p, tm.tm_mday, 2);
        *p++ = 'T';
        p = digits(p, tm.tm_hour, 2);
        *p++ = ':';
        p = digits(p, tm.tm_min, 2);
        *p++ = ':';
        p = digits(p, tm.tm_sec, 2);
        *p++ = '.';
        p = digits(p, (long)frac, 6);
        *p++ = 'Z';
        *p = '\0';
        return true;
}
