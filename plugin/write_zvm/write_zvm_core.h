/* SPDX-License-Identifier: MIT */
/*
 * write_zvm below its collectd glue (write_zvm.c): the bounded queue between
 * collectd's write threads and the plugin's writer thread, the table of
 * latest values, the packing of values into fixed-size records with stable
 * buffer keys, and the /dev/monwriter discipline (START/update/STOP, errno
 * handling).  None of it takes a collectd type; the device's messages go
 * to collectd's log as its complaints (complaint.h).  Unit tests drive
 * these files directly.
 */
#ifndef WRITE_ZVM_CORE_H
#define WRITE_ZVM_CORE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "complaint.h"
#include "zvmdec.h"

#define WZ_MAX_RECORDS 1024 /* hard ceiling for MaxRecords */
#define WZ_LIST_MAX    255  /* values in a list: an entry's ds_count is one byte */

/* One data source value as queued and tabled. */
struct wz_item {
        char host[WZVM_HOST_MAX + 1];
        struct wzvm_entry e;
        double seen;     /* when it arrived (seconds, CLOCK_MONOTONIC) */
        double interval; /* collectd's interval for the value list (seconds) */
        /* In the table only (entering the table clears both): a value is lost when it leaves
         * the table never written, but only if a pass owed it, because values replaced
         * between two passes are the once-per-WriteInterval design, not a loss. */
        bool written; /* in a record the device accepted */
        bool missed;  /* a pass (or a tick without a device) left it out */
};

/* Fill the identifier of an item; false if a name breaks the format's rules. */
bool wz_item_set_names(struct wz_item *it, const char *host, const char *plugin,
                       const char *plugin_instance, const char *type, const char *type_instance,
                       const char *ds_name);

/* ---- bounded queue: many producers (write threads), one consumer ---- */
struct wz_queue {
        pthread_mutex_t mu;
        pthread_cond_t cv;
        struct wz_item *ring;
        size_t cap, head, n;
        uint64_t queued, dropped; /* values */
        bool kick;                /* flush requested */
        bool stop;
};
int wz_queue_init(struct wz_queue *q, size_t cap);
void wz_queue_destroy(struct wz_queue *q);
/* All n items or none (a value list is never split); returns whether they went in. */
bool wz_queue_push(struct wz_queue *q, const struct wz_item *items, size_t n);
/* Whole value lists only, up to max items: max >= WZ_LIST_MAX holds any list. */
size_t wz_queue_pop_lists(struct wz_queue *q, struct wz_item *out, size_t max);

/* ---- table of latest values, sorted by (host, plugin, pinst, type, tinst, ds_index) ---- */
struct wz_table {
        struct wz_item *v;
        size_t n, cap, max;
        /* values, each counted once, when it leaves the table never written */
        uint64_t dropped_full; /* values of lists refused: no room for all of a list */
        /* value lists (not values, as write_zvm's dropped_nomem counts them) refused: the
         * table could not grow */
        uint64_t dropped_nomem;
        uint64_t dropped_space;   /* missed by a pass, then replaced or expired */
        uint64_t dropped_expired; /* expired before any pass could write it */
        /* not a loss: replaced by a newer value of its identifier before any pass came */
        uint64_t merged;
};
void wz_table_init(struct wz_table *t, size_t max);
void wz_table_free(struct wz_table *t);
/* Why a list did not enter: the table is at its max, or it could not grow to hold the list. */
enum wz_put { WZ_PUT_OK, WZ_PUT_FULL, WZ_PUT_NOMEM };
/* A value list (n items, one identifier) enters whole or not at all (dropped_full += n, or
 * dropped_nomem += 1). */
enum wz_put wz_table_put_list(struct wz_table *t, const struct wz_item *items, size_t n);
/* What wz_queue_pop_lists gave, list by list; the first list refused (in v) and why, or NULL. */
const struct wz_item *wz_table_put_lists(struct wz_table *t, const struct wz_item *v, size_t n,
                                         enum wz_put *why);
/* Forget values not refreshed within factor x their interval; returns how many. */
size_t wz_table_expire(struct wz_table *t, double now, double factor);
/* A pass is over (or a WriteInterval passed without a device): what it did not write is owed. */
void wz_table_missed(struct wz_table *t);

/* ---- the device ---- */
struct wz_dev {
        /* write(2) or a test double: bytes written, or -1 with errno set */
        ssize_t (*write)(void *ctx, const void *p, size_t n);
        /*
         * collectd is stopping and its deadline for write_zvm has passed (NULL:
         * never): a pass writes nothing more and says nothing more, for the
         * shutdown may have gone on without the writer thread (write_zvm.c).
         */
        bool (*late)(void *ctx);
        void *ctx;
};

enum wz_result {
        WZ_OK,
        WZ_BACKOFF, /* EPERM, ENOSPC, EINVAL: start no new records until the retry time */
        WZ_REOPEN,  /* the device failed: close it, reopen after the retry time */
        WZ_LATE,    /* the shutdown's deadline passed: the pass stopped short, silently */
};

struct wz_writer {
        /* configuration */
        uint16_t applid;
        unsigned max_records;
        uint32_t interval_ms;
        double retry; /* seconds, only for messages */
        struct wz_dev dev;
        /* driver state: records 0..nstarted-1 are STARTed buffers (mod_level = index) */
        unsigned nstarted;
        uint32_t seq[WZ_MAX_RECORDS];
        /* the device's failure, by its errno, said once until writing works again */
        struct cause_complaint complaint;
        /* statistics (values lost are the table's) */
        uint64_t updates, starts, stops, errors;
        uint8_t rec[WZVM_MW_HDR_LEN + WZVM_RECORD_LEN];
        size_t starts_at[WZ_MAX_RECORDS + 1];
};

void wz_writer_init(struct wz_writer *w, uint16_t applid, unsigned max_records,
                    uint32_t interval_ms);
/*
 * One pass: pack the table into records and write every one (START or
 * update), then STOP records no longer needed.  new_ok = false (while backing
 * off) updates only records already started.  tod stamps the headers.  Marks
 * the values of accepted records written, and the others missed.  Once the
 * device is late (dev.late), it writes and logs nothing more: WZ_LATE.
 */
enum wz_result wz_writer_pass(struct wz_writer *w, struct wz_table *t, uint64_t tod, bool new_ok);
/* The device was closed: the driver stopped every buffer. */
void wz_writer_closed(struct wz_writer *w);

/* Values in the table that no record the device accepted holds. */
size_t wz_table_unwritten(const struct wz_table *t);

/* How many records the table needs (and where each starts), for tests and stats. */
size_t wz_plan(const struct wz_table *t, size_t max_records, size_t *starts, size_t *placed);

/* ---- Include / Exclude: "plugin" or "plugin/type", "*" matches any one name ---- */
struct wz_rule {
        char plugin[WZVM_NAME_MAX + 1];
        char type[WZVM_NAME_MAX + 1]; /* "" = any type */
};
struct wz_filter {
        struct wz_rule *inc, *exc;
        size_t ninc, nexc;
};
/* Parse and add a rule; false (nothing added) if the pattern is malformed. */
bool wz_filter_add(struct wz_filter *f, bool include, const char *pattern);
/* Included (by any Include, or no Include given) and not excluded. */
bool wz_filter_pass(const struct wz_filter *f, const char *plugin, const char *type);
void wz_filter_free(struct wz_filter *f);

#endif
