/* SPDX-License-Identifier: MIT */
/*
 * write_zvm: records and the /dev/monwriter discipline
 * (doc/facts/kernel-drivers.md 2.3).  Record i always has mod_level i and the
 * same 4010-byte size, so its buffer key never changes and an update
 * overwrites it in place; records no longer needed get a STOP (header only).
 */
#include <collectd/core/daemon/plugin.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "write_zvm_core.h"

#define CAPACITY (WZVM_RECORD_LEN - WZVM_HDR_LEN - WZVM_TRAILER)

void wz_writer_init(struct wz_writer *w, uint16_t applid, unsigned max_records,
                    uint32_t interval_ms)
{
        memset(w, 0, sizeof(*w));
        w->applid = applid;
        w->max_records = max_records > WZ_MAX_RECORDS ? WZ_MAX_RECORDS : max_records;
        w->interval_ms = interval_ms;
        w->retry = 60;
}

void wz_writer_closed(struct wz_writer *w)
{
        w->nstarted = 0;
}

static bool same_ident(const struct wz_item *a, const struct wz_item *b)
{
        return strcmp(a->host, b->host) == 0 && strcmp(a->e.plugin, b->e.plugin) == 0 &&
               strcmp(a->e.plugin_instance, b->e.plugin_instance) == 0 &&
               strcmp(a->e.type, b->e.type) == 0 &&
               strcmp(a->e.type_instance, b->e.type_instance) == 0;
}

/* A type's data sources [i, *end) travel together; their encoded size. */
static size_t group(const struct wz_table *t, size_t i, size_t *end)
{
        size_t j = i, bytes = 0;
        while (j < t->n && (j == i || same_ident(&t->v[i], &t->v[j]))) {
                bytes += wzvm_entry_size(&t->v[j].e);
                j++;
        }
        *end = j;
        return bytes;
}

size_t wz_plan(const struct wz_table *t, size_t max_records, size_t *starts, size_t *placed)
{
        size_t nrec = 0, room = 0, i = 0, ok = 0;
        const char *host = NULL;
        while (i < t->n) {
                size_t end, bytes = group(t, i, &end);
                if (bytes > CAPACITY) { /* cannot fit even an empty record */
                        i = end;
                        continue;
                }
                if (nrec == 0 || bytes > room || strcmp(host, t->v[i].host) != 0) {
                        if (nrec == max_records)
                                break;
                        starts[nrec++] = i;
                        room = CAPACITY;
                        host = t->v[i].host;
                }
                room -= bytes;
                ok += end - i;
                i = end;
        }
        if (starts)
                starts[nrec] = i;
        if (placed)
                *placed = ok;
        return nrec;
}

/*
 * The next group of [i, to) that a record holds, ending at *end (to when none):
 * groups larger than an empty record are left out, by wz_plan and here alike.
 */
static size_t next_placed(const struct wz_table *t, size_t i, size_t to, size_t *end)
{
        while (i < to) {
                if (group(t, i, end) <= CAPACITY)
                        return i;
                i = *end;
        }
        *end = to;
        return to;
}

static void encode(struct wz_writer *w, const struct wz_table *t, size_t from, size_t to,
                   unsigned idx, unsigned total, uint64_t tod)
{
        struct wzvm_enc enc;
        wzvm_enc_begin(&enc, w->rec + WZVM_MW_HDR_LEN, WZVM_RECORD_LEN);
        size_t end;
        for (size_t i = next_placed(t, from, to, &end); i < to; i = next_placed(t, end, to, &end))
                for (size_t j = i; j < end; j++)
                        wzvm_enc_add(&enc, &t->v[j].e);
        struct wzvm_hdr h = {0};
        h.timestamp = tod;
        /* one write() copies the record front to back: count 1 first, count 2 last */
        h.sync_count_1 = h.sync_count_2 = w->seq[idx] + 1;
        h.interval_ms = w->interval_ms;
        h.rec_index = (uint16_t)idx;
        h.rec_total = (uint16_t)total;
        snprintf(h.host, sizeof(h.host), "%s", t->v[from].host);
        wzvm_enc_finish(&enc, &h);
}

/* The device accepted the record of [from, to): the entries encode() put in it. */
static void mark_written(struct wz_table *t, size_t from, size_t to)
{
        size_t end;
        for (size_t i = next_placed(t, from, to, &end); i < to; i = next_placed(t, end, to, &end))
                for (size_t j = i; j < end; j++)
                        t->v[j].written = true;
}

static struct wzvm_mwhdr mwhdr(const struct wz_writer *w, uint8_t fn, unsigned idx,
                               uint16_t datalen)
{
        struct wzvm_mwhdr h = {fn,
                               w->applid,
                               WZVM_RECORD_NUM,
                               WZVM_PID_VERSION,
                               WZVM_PID_RELEASE,
                               (uint16_t)idx,
                               datalen,
                               WZVM_MW_HDR_LEN};
        return h;
}

/* collectd stops and its deadline passed (write_zvm_core.h). */
static bool late(const struct wz_writer *w)
{
        return w->dev.late && w->dev.late(w->dev.ctx);
}

static int dev_write(struct wz_writer *w, const struct wzvm_mwhdr *h, const void *p, size_t n)
{
        const char *bad = wzvm_mwhdr_invalid(h);
        if (bad) { /* never sent: the driver would answer EINVAL */
                ERROR("write_zvm plugin: internal error: monwrite header field %s is invalid "
                      "(mon_function %u, datalen %u, hdrlen %u); record %u not written",
                      bad, h->function, h->datalen, h->hdrlen, h->mod_level);
                return EINVAL;
        }
        ssize_t rc = w->dev.write(w->dev.ctx, p, n);
        if (rc == (ssize_t)n)
                return 0;
        return rc < 0 ? (errno ? errno : EIO) : EIO;
}

/*
 * False when the device must be reopened.  EPERM and EINVAL are the STOP
 * DIAG failing, after which the driver has freed the buffer and awaits the
 * next header; any other error, or a short write that leaves the driver's
 * parser inside a header, would make it misread the next START.
 */
static bool stop(struct wz_writer *w, unsigned idx)
{
        uint8_t b[WZVM_MW_HDR_LEN];
        struct wzvm_mwhdr h = mwhdr(w, WZVM_MW_STOP, idx, 0);
        wzvm_mwhdr_put(b, &h);
        int err = dev_write(w, &h, b, sizeof(b));
        w->stops++;
        if (!err)
                return true;
        w->errors++;
        if (late(w)) /* not a word now (write_zvm_core.h); the close at the end frees it */
                return true;
        bool freed = err == EPERM || err == EINVAL;
        if (!freed)
                c_complain_once(LOG_ERR, complaint_of(&w->complaint, err),
                                "write_zvm plugin: STOP of record %u (applid %u) failed: %s; "
                                "reopening the monwriter device in %g s",
                                idx, w->applid, strerror(err), w->retry);
        else if (w->complaint.cause != err) /* else a START just failed alike, and said so */
                WARNING("write_zvm plugin: STOP of record %u (applid %u) failed: %s", idx,
                        w->applid, strerror(err));
        return freed;
}

/* Said once while the device fails with err; recovered() says it works again. */
static void complain(struct wz_writer *w, int err, unsigned idx, unsigned wanted,
                     const struct wzvm_mwhdr *h)
{
        w->errors++;
        c_complain_t *c = complaint_of(&w->complaint, err);
        switch (err) {
        case EPERM:
                c_complain_once(LOG_ERR, c,
                                "write_zvm plugin: /dev/monwriter refused to start record %u "
                                "(EPERM): CP rejected DIAGNOSE X'DC' with rc 5, this guest lacks "
                                "OPTION APPLMON in its CP directory entry. Ask the z/VM "
                                "administrator to add it and re-IPL; retrying every %g s without "
                                "further messages",
                                idx, w->retry);
                break;
        case ENOSPC:
                c_complain_once(LOG_ERR, c,
                                "write_zvm plugin: /dev/monwriter refused to start record %u of %u "
                                "(ENOSPC): the monwriter module's max_bufs limit "
                                "(/sys/module/monwriter/parameters/max_bufs, default 255, shared "
                                "by every monwriter user of this guest) is reached. Raise max_bufs "
                                "or send fewer values (Include/Exclude, MaxRecords); values that "
                                "do not fit are dropped, retrying every %g s",
                                idx, wanted, w->retry);
                break;
        case EINVAL:
                c_complain_once(LOG_ERR, c,
                                "write_zvm plugin: /dev/monwriter rejected record %u with EINVAL "
                                "although its header is valid (mon_function %u, applid %u, record "
                                "%u, version %u, release %u, mod_level %u, datalen %u <= 4010, "
                                "hdrlen %u = 13): CP's DIAGNOSE X'DC' returned an unexpected code, "
                                "see the kernel log (dmesg); retrying every %g s",
                                idx, h->function, h->applid, h->record_num, h->version, h->release,
                                h->mod_level, h->datalen, h->hdrlen, w->retry);
                break;
        default:
                c_complain_once(LOG_ERR, c,
                                "write_zvm plugin: writing record %u to the monwriter device "
                                "failed: %s; reopening in %g s",
                                idx, strerror(err), w->retry);
        }
}

/* The failure complained about is over; the next one is news whatever its errno. */
static void recovered(struct wz_writer *w)
{
        c_release(LOG_NOTICE, &w->complaint.c,
                  "write_zvm plugin: writing to the monwriter device works again");
        w->complaint.cause = 0;
}

/* Record i was accepted: its values are written, its buffer started or updated. */
static void accepted(struct wz_writer *w, struct wz_table *t, size_t i, bool quiet)
{
        mark_written(t, w->starts_at[i], w->starts_at[i + 1]);
        w->seq[i]++;
        if (i < w->nstarted) {
                w->updates++;
                return;
        }
        w->nstarted = (unsigned)i + 1;
        w->starts++;
        if (!quiet)
                recovered(w);
}

/* Write record i of the nrec of this pass (the table needs wanted): how it went. */
static enum wz_result write_record(struct wz_writer *w, struct wz_table *t, size_t i, size_t nrec,
                                   size_t wanted, uint64_t tod)
{
        if (late(w))
                return WZ_LATE;
        encode(w, t, w->starts_at[i], w->starts_at[i + 1], (unsigned)i, (unsigned)nrec, tod);
        struct wzvm_mwhdr h = mwhdr(w, WZVM_MW_START, (unsigned)i, WZVM_RECORD_LEN);
        wzvm_mwhdr_put(w->rec, &h);
        int err = dev_write(w, &h, w->rec, sizeof(w->rec));
        /* a write that outlasted the deadline: booked, but not a word (write_zvm_core.h) */
        bool over = late(w);
        if (!err) {
                accepted(w, t, i, over);
                return over ? WZ_LATE : WZ_OK;
        }
        if (over) {
                w->errors++;
                return WZ_LATE;
        }
        complain(w, err, (unsigned)i, (unsigned)wanted, &h);
        if (err != EPERM && err != EINVAL && err != ENOSPC)
                return WZ_REOPEN;
        /* a failed START DIAG leaves the buffer allocated: free it, START anew later */
        if (i >= w->nstarted && err != ENOSPC && !stop(w, (unsigned)i))
                return WZ_REOPEN;
        return WZ_BACKOFF;
}

enum wz_result wz_writer_pass(struct wz_writer *w, struct wz_table *t, uint64_t tod, bool new_ok)
{
        size_t nrec = wz_plan(t, w->max_records, w->starts_at, NULL);
        size_t wanted = nrec;
        if (!new_ok && nrec > w->nstarted)
                nrec = w->nstarted;
        enum wz_result res = WZ_OK;
        for (size_t i = 0; i < nrec; i++) {
                enum wz_result r = write_record(w, t, i, nrec, wanted, tod);
                if (r == WZ_OK)
                        continue;
                res = r;
                /* records start in order: no holes in the mod_levels */
                if (r != WZ_BACKOFF || i >= w->nstarted)
                        break;
        }
        /* counted when they leave the table, so that K failed passes are not K losses */
        wz_table_missed(t);
        /* records no longer needed: STOP, highest first */
        while (res == WZ_OK && w->nstarted > nrec) {
                if (late(w))
                        res = WZ_LATE;
                else if (!stop(w, --w->nstarted))
                        res = WZ_REOPEN;
        }
        if (res == WZ_OK && nrec == wanted)
                recovered(w);
        return res;
}
