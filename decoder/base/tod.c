/* SPDX-License-Identifier: MIT */
#include "base/tod.h"

#include <stdio.h>
#include <time.h>

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

bool zd_tod_to_iso8601(uint64_t tod, char *buf, size_t bufsz)
{
        int64_t us = zd_tod_to_unix_us(tod);
        int64_t secs = us >= 0 ? us / 1000000 : -((-us + 999999) / 1000000);
        int64_t frac = us - secs * 1000000;
        time_t t = (time_t)secs;
        struct tm tm;
        if (!gmtime_r(&t, &tm))
                return false;
        int n = snprintf(buf, bufsz, "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ", tm.tm_year + 1900,
                         tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (long)frac);
        return n > 0 && (size_t)n < bufsz;
}
