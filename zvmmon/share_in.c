/* SPDX-License-Identifier: MIT */
/*
 * The zvm plugin's ShareSocket seen from zvmmon (capture, top): a Unix
 * stream socket that carries the data sets the collector reads, in the
 * capture format (doc/plugin.md, "A live view beside the collector").
 * monreader has one reader per guest, so beside a running collector this is
 * the way in.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "zvmmon.h"

bool zmon_is_socket(const char *path)
{
        struct stat st;
        return stat(path, &st) == 0 && S_ISSOCK(st.st_mode);
}

/* Why a connect failed, in the terms of what the user can do about it. */
static const char *hint(int err)
{
        switch (err) {
        case ENOENT:
                return " (is collectd running with the zvm plugin's ShareSocket option?)";
        case EACCES:
                return " (ShareSocketPerms and ShareSocketGroup say who may read it)";
        case ECONNREFUSED:
                return " (nobody serves it: collectd stopped, or a socket left behind)";
        case ENOTSOCK:
                return " (not a socket: a zvm plugin's ShareSocket is)";
        default:
                return "";
        }
}

int zmon_share_connect(const char *path, const char *who)
{
        struct sockaddr_un a = {.sun_family = AF_UNIX};
        if (strlen(path) >= sizeof(a.sun_path)) {
                fprintf(stderr, "%s: %s: too long for a socket path (at most %zu characters)\n",
                        who, path, sizeof(a.sun_path) - 1);
                return -1;
        }
        memcpy(a.sun_path, path, strlen(path) + 1);
        int fd = socket(AF_UNIX, SOCK_STREAM, 0);
        if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
            fcntl(fd, F_SETFL, O_NONBLOCK) == 0 && fcntl(fd, F_SETFD, FD_CLOEXEC) == 0)
                return fd;
        int err = errno;
        /* A file that is not a socket says ECONNREFUSED: say what it is. */
        if (err == ECONNREFUSED && access(path, F_OK) == 0 && !zmon_is_socket(path))
                err = ENOTSOCK;
        fprintf(stderr, "%s: %s: %s%s\n", who, path, strerror(err), hint(err));
        if (fd >= 0)
                close(fd);
        return -1;
}
