/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the zvmsim end-to-end clients: start zvmsim on a fresh mount
 * point, drive it through MOUNT/control, stop it with SIGTERM and check that
 * it unmounted.  Plain C and POSIX; every failed check prints and counts.
 */
#ifndef SIMCTL_H
#define SIMCTL_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int failures, checks;

#define CHECK(cond, ...)                                                                           \
        do {                                                                                       \
                checks++;                                                                          \
                if (!(cond)) {                                                                     \
                        failures++;                                                                \
                        fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                       \
                        fprintf(stderr, __VA_ARGS__);                                              \
                        fputc('\n', stderr);                                                       \
                }                                                                                  \
        } while (0)

struct sim {
        pid_t pid;
        char mnt[256];
        char path[320];
};

static const char *simpath(struct sim *s, const char *file)
{
        snprintf(s->path, sizeof(s->path), "%s/%s", s->mnt, file);
        return s->path;
}

static bool is_mounted(const char *mnt)
{
        FILE *f = fopen("/proc/mounts", "r");
        char line[1024];
        bool found = false;
        if (!f)
                return false;
        while (fgets(line, sizeof(line), f)) {
                char dev[256], dir[512];
                if (sscanf(line, "%255s %511s", dev, dir) == 2 && strcmp(dir, mnt) == 0)
                        found = true;
        }
        fclose(f);
        return found;
}

static void msleep(long ms)
{
        struct timespec t = {ms / 1000, (ms % 1000) * 1000000};
        nanosleep(&t, NULL);
}

/* Whatever happens to the client, leave no zvmsim and no mount behind. */
static struct sim *live_sim;
static void sim_cleanup(void)
{
        if (!live_sim || live_sim->pid <= 0)
                return;
        kill(live_sim->pid, SIGKILL);
        waitpid(live_sim->pid, NULL, 0);
        if (is_mounted(live_sim->mnt)) {
                char cmd[400];
                snprintf(cmd, sizeof(cmd), "fusermount3 -u -z '%s' 2>/dev/null", live_sim->mnt);
                if (system(cmd) != 0)
                        fprintf(stderr, "could not unmount %s\n", live_sim->mnt);
        }
        rmdir(live_sim->mnt);
        live_sim->pid = 0;
}

/* Start `zvmsim run -m MNT ARGS...` (NULL-terminated); exit(1) if it does not come up. */
static void sim_start(struct sim *s, const char *bin, ...)
{
        snprintf(s->mnt, sizeof(s->mnt), "/tmp/zvmsim-e2e.%d.XXXXXX", (int)getpid());
        if (!mkdtemp(s->mnt)) {
                perror("mkdtemp");
                exit(1);
        }
        const char *argv[64] = {bin, "run", "-m", s->mnt};
        int n = 4;
        va_list ap;
        va_start(ap, bin);
        const char *a;
        while ((a = va_arg(ap, const char *)) && n < 62)
                argv[n++] = a;
        va_end(ap);
        argv[n] = NULL;
        static bool registered;
        if (!registered) {
                atexit(sim_cleanup);
                registered = true;
        }
        live_sim = s;
        s->pid = fork();
        if (s->pid == 0) {
                execv(bin, (char *const *)argv);
                perror(bin);
                _exit(127);
        }
        for (int i = 0; i < 100; i++) {
                struct stat st;
                if (is_mounted(s->mnt) && stat(simpath(s, "monreader"), &st) == 0)
                        return;
                int status;
                if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
                        fprintf(stderr,
                                "FAIL: zvmsim exited before mounting (status %d); is /dev/fuse "
                                "usable?\n",
                                status);
                        exit(1);
                }
                msleep(50);
        }
        fprintf(stderr, "FAIL: zvmsim did not mount %s within 5 s\n", s->mnt);
        kill(s->pid, SIGKILL);
        exit(1);
}

static int ctl(struct sim *s, const char *fmt, ...)
{
        char cmd[128];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(cmd, sizeof(cmd), fmt, ap);
        va_end(ap);
        int fd = open(simpath(s, "control"), O_WRONLY);
        if (fd < 0)
                return -errno;
        ssize_t r = write(fd, cmd, strlen(cmd));
        int e = r < 0 ? -errno : 0;
        close(fd);
        return e;
}

/* A number from MOUNT/status ("name value" lines), or -1. */
static long status(struct sim *s, const char *name)
{
        char buf[2048];
        int fd = open(simpath(s, "status"), O_RDONLY);
        if (fd < 0)
                return -1;
        ssize_t n = read(fd, buf, sizeof(buf) - 1);
        close(fd);
        if (n <= 0)
                return -1;
        buf[n] = '\0';
        size_t l = strlen(name);
        for (char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
                if (strncmp(p, name, l) == 0 && p[l] == ' ')
                        return strtol(p + l + 1, NULL, 10);
        return -1;
}

/* SIGTERM; zvmsim must exit 0 and leave nothing mounted. */
static void sim_stop(struct sim *s)
{
        int status = 0;
        kill(s->pid, SIGTERM);
        for (int i = 0; i < 100; i++) {
                if (waitpid(s->pid, &status, WNOHANG) == s->pid)
                        break;
                msleep(50);
                if (i == 99) {
                        kill(s->pid, SIGKILL);
                        waitpid(s->pid, &status, 0);
                        CHECK(0, "zvmsim did not exit within 5 s of SIGTERM");
                }
        }
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "zvmsim exit status %d", status);
        CHECK(!is_mounted(s->mnt), "%s still mounted after SIGTERM", s->mnt);
        rmdir(s->mnt);
        s->pid = 0;
}

/*
 * Children that drop their copy of fd, as a collectd plugin's children do:
 * one closes it and exits (collectd's exec plugin closes every descriptor in
 * the child), one just exits, one execs with the descriptor close-on-exec.
 * Each close(2) sends FUSE a FLUSH; none is the last reference.
 */
static void children_drop(int fd)
{
        int fl = fcntl(fd, F_GETFD);
        for (int how = 0; how < 3; how++) {
                if (how == 2)
                        fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
                pid_t pid = fork();
                if (pid == 0) {
                        if (how == 0)
                                close(fd);
                        if (how == 2)
                                execl("/bin/true", "true", (char *)NULL);
                        _exit(0);
                }
                if (pid > 0)
                        waitpid(pid, NULL, 0);
        }
        fcntl(fd, F_SETFD, fl);
}

static int finish(const char *name)
{
        printf("%s: %d checks, %d failures\n", name, checks, failures);
        return failures ? 1 : 0;
}

#endif
