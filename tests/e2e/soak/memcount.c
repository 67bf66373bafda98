/* SPDX-License-Identifier: MIT */
/*
 * memcount.so: what collectd holds on its heap, for the soaks' memory
 * verdicts (tests/e2e/soak/memory.py).  LD_PRELOADed into the daemon, it hands
 * every allocation call on to glibc's allocator unchanged (its __libc_*
 * entry points: no arena, tcache or trim setting is touched) and counts
 * the blocks in use and their usable bytes on the way.
 *
 * VmRSS, and glibc's own mallinfo2(), also hold what the allocator keeps
 * for itself: freed chunks parked in each thread's tcache count as in use
 * in mallinfo2, and VmRSS follows the heap's top and every arena a burst
 * of threads opened, a band as wide as collectd's memory.  The blocks the
 * program holds have no such band: between two quiet moments of an
 * unchanged workload they come back to the same number unless something
 * leaks, and a leak of one block per data set shows as one block per data
 * set whatever its size.
 *
 * With SOAK_MEM_DIR set, a thread makes the FIFO DIR/mem.PID.fifo and, for
 * every byte written to it, appends one line to DIR/mem.PID.txt:
 *   blocks bytes mallinfo2.uordblks mallinfo2.hblkhd mallinfo2.arena
 * (the thread calls mallinfo2 as any thread may; a signal handler could not).
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* glibc's allocator under its exported internal names: what malloc() would have run. */
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);
extern void *__libc_memalign(size_t align, size_t n);
extern void *__libc_valloc(size_t n);
extern void *__libc_pvalloc(size_t n);

static int64_t blocks, bytes;

static void *took(void *p)
{
        if (p) {
                __atomic_add_fetch(&blocks, 1, __ATOMIC_RELAXED);
                __atomic_add_fetch(&bytes, (int64_t)malloc_usable_size(p), __ATOMIC_RELAXED);
        }
        return p;
}

static void gave(void *p)
{
        if (p) {
                __atomic_sub_fetch(&blocks, 1, __ATOMIC_RELAXED);
                __atomic_sub_fetch(&bytes, (int64_t)malloc_usable_size(p), __ATOMIC_RELAXED);
        }
}

void *malloc(size_t n)
{
        return took(__libc_malloc(n));
}

void *calloc(size_t n, size_t size)
{
        return took(__libc_calloc(n, size));
}

void free(void *p)
{
        gave(p);
        __libc_free(p);
}

/* The old block is counted out only once the new one exists: a failed realloc keeps it. */
void *realloc(void *p, size_t n)
{
        size_t was = p ? malloc_usable_size(p) : 0;
        if (p && n == 0) {
                free(p);
                return NULL;
        }
        void *q = __libc_realloc(p, n);
        if (!q)
                return NULL;
        if (p) {
                __atomic_sub_fetch(&blocks, 1, __ATOMIC_RELAXED);
                __atomic_sub_fetch(&bytes, (int64_t)was, __ATOMIC_RELAXED);
        }
        return took(q);
}

void *reallocarray(void *p, size_t n, size_t size)
{
        size_t total;
        if (__builtin_mul_overflow(n, size, &total)) {
                errno = ENOMEM;
                return NULL;
        }
        return realloc(p, total);
}

void *memalign(size_t align, size_t n)
{
        return took(__libc_memalign(align, n));
}

void *aligned_alloc(size_t align, size_t n)
{
        return took(__libc_memalign(align, n));
}

int posix_memalign(void **out, size_t align, size_t n)
{
        if (align < sizeof(void *) || (align & (align - 1)) != 0)
                return EINVAL;
        void *p = took(__libc_memalign(align, n));
        if (!p)
                return ENOMEM;
        *out = p;
        return 0;
}

void *valloc(size_t n)
{
        return took(__libc_valloc(n));
}

void *pvalloc(size_t n)
{
        return took(__libc_pvalloc(n));
}

static char fifo_path[512], out_path[512];

/* One line per byte read from the FIFO, until the process ends. */
static void *reporter(void *arg)
{
        (void)arg;
        /* read and write: the FIFO never reports end of file between two writers */
        int fd = open(fifo_path, O_RDWR | O_CLOEXEC);
        if (fd < 0)
                return NULL;
        for (;;) {
                char c;
                ssize_t r = read(fd, &c, 1);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r <= 0)
                        break;
                int64_t nb = __atomic_load_n(&blocks, __ATOMIC_RELAXED);
                int64_t nbytes = __atomic_load_n(&bytes, __ATOMIC_RELAXED);
                struct mallinfo2 mi = mallinfo2();
                char line[160];
                int len = snprintf(line, sizeof(line), "%lld %lld %zu %zu %zu\n", (long long)nb,
                                   (long long)nbytes, mi.uordblks, mi.hblkhd, mi.arena);
                int out = open(out_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
                if (out >= 0) {
                        if (write(out, line, (size_t)len) != len)
                                break;
                        close(out);
                }
        }
        close(fd);
        return NULL;
}

__attribute__((constructor)) static void start(void)
{
        const char *dir = getenv("SOAK_MEM_DIR");
        if (!dir || !*dir)
                return;
        long pid = (long)getpid();
        snprintf(fifo_path, sizeof(fifo_path), "%s/mem.%ld.fifo", dir, pid);
        snprintf(out_path, sizeof(out_path), "%s/mem.%ld.txt", dir, pid);
        if (mkfifo(fifo_path, 0600) != 0 && errno != EEXIST)
                return;
        /* every signal blocked in the thread: collectd's signals go to collectd's threads */
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        pthread_t t;
        if (pthread_create(&t, NULL, reporter, NULL) == 0)
                pthread_detach(t);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
}
