/* SPDX-License-Identifier: MIT */
/*
 * zvmmon top: a table per sample interval, built from the metric engine's
 * values (top_model.c), read from a device or a file (top_source.c), put
 * in order (top_order.c), formatted (top_fmt.c) and shown full screen
 * (top_view.c, top_loop.c) or printed (top_batch.c).
 */
#ifndef ZVMMON_TOP_H
#define ZVMMON_TOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "zvmdec.h"

/* The guest table's columns (after the userid), in screen order. */
enum top_col { TOP_CPU, TOP_VCPU, TOP_PAGE, TOP_VIO, TOP_RES, TOP_LOAD, TOP_LMEM, TOP_NCOL };
#define TOP_BY_USERID TOP_NCOL /* sort key: the userid column */

/* The system line's figures. */
enum top_sys { TOP_S_BUSY, TOP_S_USED, TOP_S_FREE, TOP_S_PAGE, TOP_S_USERS, TOP_NSYS };

/* Why a cell holds no number: shown as "-" or "?" (the legend says which is which). */
enum top_mark {
        TOP_NUM,      /* a value from a verified field, or one whose law holds */
        TOP_NODATA,   /* "-": nothing yet (a rate needs two intervals), or not a Linux guest */
        TOP_UNPROVEN, /* "?": from a hint field whose law is not on (met_verify.h) */
};

struct top_cell {
        double v;
        uint8_t mark; /* enum top_mark */
};

struct top_row {
        char userid[9];
        struct top_cell c[TOP_NCOL];
};

struct top_frame {
        uint64_t seq; /* sample intervals shown so far, from 1 */
        uint64_t tod; /* the Interval End record's TOD; 0: the input has no time */
        double interval;
        char system[16];
        unsigned ncpu; /* CPUs with a busy figure; 0 in the first interval: shown "-" */
        struct top_cell sys[TOP_NSYS];
        struct top_row *rows;
        size_t nrows;
};

struct top_coldef {
        char key;         /* the sort key on screen */
        const char *name; /* JSON member and --sort name */
        const char *head; /* column heading */
        int width, decimals;
        const char *law;  /* law that vouches for it (met_verify.h), or NULL */
        const char *what; /* for help and the man page */
};
extern const struct top_coldef top_cols[TOP_NCOL];
extern const struct top_coldef top_syscols[TOP_NSYS];
/* The column whose key or name is s ("c", "cpu", "userid"...), or -1. */
int top_col_by_name(const char *s);
int top_col_by_key(int key);

/* The model: a zd_handler that feeds the engine and yields one frame per interval. */
struct top_model;
struct top_model *top_model_new(void);
void top_model_free(struct top_model *t);
struct zd_handler top_model_handler(struct top_model *t);
/* The oldest frame not yet taken, or NULL; the caller frees it. */
struct top_frame *top_model_pop(struct top_model *t);
size_t top_model_pending(const struct top_model *t);
/* Why the input gave no table: no records, no CP samples, or no interval completed. */
const char *top_model_why_none(const struct top_model *t);
/*
 * A message for the user: the engine's (a law turned on or broke, a guest's
 * unusable APPLDATA) or the input's (a device error), with the interval being
 * read when it came, which is the table it belongs with: a law's verdict
 * comes at the Interval End of the table that first shows it.
 */
struct top_note {
        uint64_t interval;
        int level; /* syslog's, as the engine's (zm_level) */
        char text[512];
};
/* Queue a message; the engine's log callback has this shape (ctx: the model). */
void top_model_note(void *t, int level, const char *msg);
/* Take the oldest message queued for an interval up to upto; false if none. */
bool top_model_take_note(struct top_model *t, uint64_t upto, struct top_note *n);
/* Messages lost because too many were queued at once. */
uint64_t top_model_notes_dropped(const struct top_model *t);
void top_frame_free(struct top_frame *f);
/*
 * Seconds from the interval that ended at TOD prev to f, for pacing a replay:
 * by the TODs, or where they tell nothing (0: no time, as monwriter output
 * read back; or a step back, two files one after the other) by f's own length.
 */
double top_gap(uint64_t prev, const struct top_frame *f);

/*
 * Input: a monreader device (data sets between 0-byte reads), a zvm plugin's
 * ShareSocket (live as the device), or a file of any format.
 */
enum top_in { TOP_IN_FILE, TOP_IN_DEVICE, TOP_IN_SOCKET };
enum top_pump { TOP_SRC_MORE, TOP_SRC_WAIT, TOP_SRC_END, TOP_SRC_FAIL };
struct top_src;
/* Where the input's messages go (the model's queue: top_model_note); NULL: stderr. */
typedef void (*top_note_fn)(void *ctx, int level, const char *msg);
struct top_src *top_src_open(const char *path, enum top_in in, enum zd_format fmt,
                             const struct zd_handler *h, top_note_fn note, void *note_ctx);
/* Read and decode one piece; TOP_SRC_WAIT: nothing to read now (poll top_src_fd). */
enum top_pump top_src_pump(struct top_src *s);
/* Device errors and decode errors so far: the screen's count. */
uint64_t top_src_errors(const struct top_src *s);
/* The device errors on stderr, if any: 1 (data was lost), else 0. */
int top_src_report(const struct top_src *s);
int top_src_fd(const struct top_src *s);         /* -1 for files: never wait */
bool top_src_is_device(const struct top_src *s); /* live: the device or a ShareSocket */
const struct zd_stats *top_src_stats(const struct top_src *s);
void top_src_close(struct top_src *s);

/* Visible rows (userid glob, case-insensitive; NULL: all) in sort order; idx gets nrows. */
size_t top_order(const struct top_frame *f, int sort, const char *glob, size_t *idx);

/* Text shared by the screen and batch mode; each writes at most n bytes. */
void top_fmt_title(char *buf, size_t n, const struct top_frame *f);
void top_fmt_sys(char *buf, size_t n, const struct top_frame *f);
void top_fmt_head(char *buf, size_t n);
void top_fmt_row(char *buf, size_t n, const struct top_row *r);
/* Where column col starts in top_fmt_head's line, and its width. */
int top_fmt_col_x(int col, int *width);
extern const char top_legend[];

/* Batch mode: one table (text) or one JSON line per frame. */
struct top_batch;
struct top_batch *top_batch_new(FILE *out, bool json, int sort, const char *glob);
void top_batch_frame(struct top_batch *b, const struct top_frame *f);
void top_batch_free(struct top_batch *b);

/* The full screen (top_view.c, ncurses; top_noview.c where it is built without). */
struct top_screen {
        const struct top_frame *f; /* NULL: nothing to show yet */
        int sort;
        const char *glob;
        const char *status; /* "paused", "replay x30", "live", "end of input" */
        const char *msg;    /* bottom line: the engine's last word, or a hint */
        bool help;
};
bool top_view_open(void);
void top_view_close(void);
void top_view_draw(const struct top_screen *s);
/* The next key pressed, or -1 if none is waiting; TOP_KEY_RESIZE after a resize. */
int top_view_key(void);
#define TOP_KEY_RESIZE 0x1000
/* Read a line at the bottom (the userid filter); false if cancelled. */
bool top_view_prompt(const char *prompt, char *buf, size_t n);

/* Options of the full-screen loop (top_loop.c). */
struct top_opts {
        double speed; /* replay: times real time; 0: as fast as read */
        bool step;    /* replay: start paused, n steps */
        unsigned long max_frames;
        int sort;
        char glob[32];
};
/* Full screen until q (or the input ends and the last frame is left); exit status. */
int top_loop(struct top_src *src, struct top_model *t, struct top_opts *o);

#endif
