/* SPDX-License-Identifier: MIT */
/*
 * The z/Architecture TOD clock: 64-bit, bit 51 = 1 microsecond, epoch
 * 1900-01-01 00:00:00.  CPU timers use the same unit; some count down.
 */
#ifndef ZD_TOD_H
#define ZD_TOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* TOD value of 1970-01-01 00:00:00: 2208988800 s * 10^6 * 4096. */
#define ZD_TOD_UNIX_EPOCH UINT64_C(0x7D91048BCA000000)
#define ZD_TOD_PER_US     4096u

/* Microseconds since the Unix epoch (negative before 1970). */
int64_t zd_tod_to_unix_us(uint64_t tod);
uint64_t zd_unix_us_to_tod(int64_t us);

/* "2026-11-22T04:15:37.123456Z"; buf needs 28 bytes.  False if out of range. */
bool zd_tod_to_iso8601(uint64_t tod, char *buf, size_t bufsz);

/*
 * Elapsed CPU time in microseconds between two readings of a CPU timer.
 * Timers that count up give cur - prev; timers that count down (SYTPRP's
 * PFXPRBTM starts near X'7FFFFFFF00000000' and decreases) give prev - cur.
 * Both are taken modulo 2^64, so a wrap between readings is still a small
 * positive delta; a timer that was reset (delta larger than max_us) returns
 * -1 so the caller can drop that interval instead of reporting nonsense.
 * Inline: the CP close takes it for every virtual CPU's timers each interval.
 */
static inline int64_t zd_cputimer_delta_us(uint64_t prev, uint64_t cur, bool counts_down,
                                           uint64_t max_us)
{
        uint64_t d = counts_down ? prev - cur : cur - prev; /* modulo 2^64: wraps come out small */
        d >>= 12;
        if (d > max_us || d > (uint64_t)INT64_MAX)
                return -1;
        return (int64_t)d;
}

/* t plus ns nanoseconds, normalised: the deadline of a pthread_cond_timedwait. */
static inline void zd_timespec_add_ns(struct timespec *t, uint64_t ns)
{
        t->tv_sec += (time_t)(ns / 1000000000u);
        t->tv_nsec += (long)(ns % 1000000000u);
        if (t->tv_nsec >= 1000000000L) {
                t->tv_sec++;
                t->tv_nsec -= 1000000000L;
        }
}

#endif
