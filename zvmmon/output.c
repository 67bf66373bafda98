/* SPDX-License-Identifier: MIT */
/*
 * Standard output's health.  Output goes through stdio, whose errors stay
 * silent until someone asks: a full disk or a closed pipe (SIGPIPE ignored)
 * would pass for success.  The commands ask as they write (zmon_stdout_failed,
 * zmon_flush_stdout), and main asks once more at the end (zmon_close_stdout);
 * the first errno seen is the one reported.
 */
#include <errno.h>
#include <string.h>

#include "zvmmon.h"

bool zmon_stdout_reported;
static int stdout_errno; /* why a flush of stdout failed first */

bool zmon_flush_stdout(void)
{
        if (fflush(stdout) == 0)
                return true;
        if (!stdout_errno)
                stdout_errno = errno;
        return false;
}

bool zmon_stdout_failed(void)
{
        if (!ferror(stdout))
                return false;
        if (!stdout_errno)
                stdout_errno = errno; /* asked right after writing: still the write's */
        return true;
}

int zmon_close_stdout(int rc)
{
        errno = 0;
        bool bad = fflush(stdout) != 0 || ferror(stdout);
        int err = stdout_errno ? stdout_errno : errno;
        if (fclose(stdout) != 0 && !bad) {
                bad = true;
                err = errno;
        }
        if (!bad)
                return rc;
        if (!zmon_stdout_reported)
                fprintf(stderr, "zvmmon: write error: %s\n",
                        err ? strerror(err) : "standard output failed");
        return ZMON_UNUSABLE;
}
