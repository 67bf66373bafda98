/* SPDX-License-Identifier: MIT */
/*
 * bench_replay: the null read plugin of make bench-plugin.  It dispatches,
 * once, from its own thread (as the zvm plugin replays a File), exactly the
 * value lists bench_sink recorded from a zvm run, in the same order and as
 * fast as collectd takes them: the cost of collectd itself carrying the
 * values, against which the zvm plugin's cost is read.
 *
 *   <Plugin bench_replay>
 *     File "PATH"          a file bench_sink wrote with Record
 *     MaxInFlight N        default 1000; 0 = no limit
 *     Burst B              value lists between looks at the queue; default 4096
 *     ResumeAt M           a wait ends at M queued or fewer; default N / 2
 *     NapMicroseconds U    one nap of a wait; default 1000
 *   </Plugin>
 *
 * Nothing here decodes more than a memcpy per name, so the run measures
 * collectd.  Without a limit the write queue would hold nearly the whole
 * file (about 700 bytes per value list) because dispatching is much faster
 * than writing; the limit waits (sleeping, not spinning, so it costs no CPU)
 * while more than N value lists are queued, using bench_sink's count.  A
 * short queue also keeps bench_sink's interval marks where the work is.
 * When done it logs "bench_replay plugin: replayed: N value lists", the line
 * bench_sink's EndAfterLog waits for.
 *
 * The defaults pace as the zvm plugin's ReplayQueue does (plugin/zvm/zvm_pace.c:
 * a look after each burst of at most STAGE_MAX, a wait down to half the
 * limit, 1 ms naps), so that the two runs differ in what they dispatch
 * from, not in how often the write thread is woken.  Burst 64, ResumeAt N
 * and NapMicroseconds 100 are the finer pacing this plugin had before
 * (BENCH_NULL_PACE=fine in run.py).
 */
#include <collectd/core/daemon/collectd.h>
#include <collectd/core/daemon/plugin.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench_rec.h"

#define REPLAY "bench_replay"

static char *path;
static uint64_t max_inflight = 1000;
static uint64_t burst = 4096;
static uint64_t resume_at = UINT64_MAX; /* UINT64_MAX: max_inflight / 2 */
static uint64_t nap_us = 1000;
static uint64_t (*sink_count)(void);
static pthread_t tid;
static bool running;
static atomic_bool stop;

/* The recorded file, mapped: its pages are file cache, not the daemon's heap. */
static const uint8_t *map_file(size_t *size)
{
        int fd = open(path, O_RDONLY);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < BENCH_REC_MAGIC_LEN) {
                if (fd >= 0)
                        close(fd);
                return NULL;
        }
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        close(fd);
        if (p == MAP_FAILED)
                return NULL;
        madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
        *size = (size_t)st.st_size;
        if (memcmp(p, BENCH_REC_MAGIC, BENCH_REC_MAGIC_LEN) != 0) {
                munmap(p, *size);
                return NULL;
        }
        return p;
}

static void wait_for_sink(uint64_t dispatched)
{
        if (dispatched - sink_count() <= max_inflight)
                return;
        uint64_t resume = resume_at == UINT64_MAX ? max_inflight / 2 : resume_at;
        struct timespec nap = {(time_t)(nap_us / 1000000), (long)(nap_us % 1000000) * 1000};
        while (!atomic_load(&stop) && dispatched - sink_count() > resume)
                nanosleep(&nap, NULL);
}

static void *replay(void *arg)
{
        (void)arg;
        size_t size = 0;
        const uint8_t *p = map_file(&size);
        if (!p) {
                ERROR(REPLAY " plugin: replay failed: %s is not a readable record file", path);
                return NULL;
        }
        static value_t values[BENCH_REC_MAXVALUES];
        value_list_t vl = VALUE_LIST_INIT;
        vl.values = values;
        uint64_t n = 0, refused = 0;
        size_t off = BENCH_REC_MAGIC_LEN;
        bool limit = max_inflight && sink_count;
        while (off < size && !atomic_load(&stop)) {
                size_t len = bench_rec_decode(p + off, size - off, &vl);
                if (!len)
                        break;
                off += len;
                if (plugin_dispatch_values(&vl) != 0)
                        refused++;
                if (++n % burst == 0 && limit)
                        wait_for_sink(n);
        }
        munmap((void *)p, size);
        if (off < size && !atomic_load(&stop))
                ERROR(REPLAY " plugin: replay failed: %s is cut short after %llu value lists", path,
                      (unsigned long long)n);
        else
                INFO(REPLAY " plugin: replayed: %llu value lists (%llu not queued) from %s",
                     (unsigned long long)n, (unsigned long long)refused, path);
        return NULL;
}

/* c is option key with one number of at least min: into *out, true. */
static bool number(const oconfig_item_t *c, const char *key, double min, uint64_t *out)
{
        if (strcasecmp(c->key, key) != 0 || c->values_num != 1 ||
            c->values[0].type != OCONFIG_TYPE_NUMBER || c->values[0].value.number < min)
                return false;
        *out = (uint64_t)c->values[0].value.number;
        return true;
}

static int replay_config(oconfig_item_t *ci)
{
        for (int i = 0; i < ci->children_num; i++) {
                const oconfig_item_t *c = &ci->children[i];
                if (strcasecmp(c->key, "File") == 0 && c->values_num == 1 &&
                    c->values[0].type == OCONFIG_TYPE_STRING) {
                        free(path);
                        if (!(path = strdup(c->values[0].value.string)))
                                return -1;
                } else if (number(c, "MaxInFlight", 0, &max_inflight) ||
                           number(c, "Burst", 1, &burst) || number(c, "ResumeAt", 0, &resume_at) ||
                           number(c, "NapMicroseconds", 1, &nap_us)) {
                        continue;
                } else {
                        ERROR(REPLAY " plugin: unknown or malformed option %s", c->key);
                        return -1;
                }
        }
        return 0;
}

static int replay_init(void)
{
        if (!path) {
                ERROR(REPLAY " plugin: File is required");
                return -1;
        }
        /* bench_sink is loaded with Globals true, so the global scope has it. */
        void *self = dlopen(NULL, RTLD_NOW);
        void *sym = self ? dlsym(self, "bench_sink_count") : NULL;
        memcpy(&sink_count, &sym, sizeof(sym)); /* ISO C has no data-to-function cast */
        if (!sink_count && max_inflight)
                WARNING(REPLAY " plugin: bench_sink_count not found (LoadPlugin bench_sink with "
                               "Globals true); the write queue is unbounded");
        int rc = plugin_thread_create(&tid, replay, NULL, "bench replay");
        if (rc != 0) {
                ERROR(REPLAY " plugin: cannot start the replay thread: %s", strerror(rc));
                return -1;
        }
        running = true;
        return 0;
}

static int replay_shutdown(void)
{
        atomic_store(&stop, true);
        if (running) {
                pthread_join(tid, NULL);
                running = false;
        }
        free(path);
        path = NULL;
        return 0;
}

__attribute__((visibility("default"))) void module_register(void)
{
        plugin_register_complex_config(REPLAY, replay_config);
        plugin_register_init(REPLAY, replay_init);
        plugin_register_shutdown(REPLAY, replay_shutdown);
}
