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

/* The screens, switched by keys 1-6 (top_defs.c: their columns and keys). */
enum top_scr {
        TOP_SCR_GUESTS,
        TOP_SCR_CPUS,
        TOP_SCR_LPAR,
        TOP_SCR_STORAGE,
        TOP_SCR_DEVICES,
        TOP_SCR_VNICS,
        TOP_NSCR
};
#define TOP_MAXCOL 8  /* columns of the widest screen, after its key column */
#define TOP_KEYLEN 64 /* a row's key: a userid, "3", "LPAR1 cpu0", "0200", an item */

/* The guest table's columns (after the userid), in screen order. */
enum top_col { TOP_CPU, TOP_VCPU, TOP_PAGE, TOP_VIO, TOP_RES, TOP_LOAD, TOP_LMEM, TOP_NCOL };
/* Sort key: the key column (the userid); the number columns are 0 ... ncol - 1. */
#define TOP_BY_KEY    TOP_MAXCOL
#define TOP_BY_USERID TOP_BY_KEY

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
        uint8_t dec;  /* 1 + its decimals where the row sets them (storage); 0: the column's */
};

struct top_row {
        char key[TOP_KEYLEN];
        uint32_t pos; /* the order the model made the rows in: the storage screen's */
        struct top_cell c[TOP_MAXCOL];
};

struct top_table {
        struct top_row *rows;
        size_t nrows;
};

struct top_frame {
        uint64_t seq; /* sample intervals shown so far, from 1 */
        uint64_t tod; /* the Interval End record's TOD; 0: the input has no time */
        double interval;
        char system[16];
        unsigned ncpu; /* CPUs with a busy figure; 0 in the first interval: shown "-" */
        struct top_cell sys[TOP_NSYS];
        struct top_table t[TOP_NSCR];
};

struct top_coldef {
        char key;         /* the sort key on screen */
        const char *name; /* JSON member and --sort name */
        const char *head; /* column heading */
        int width, decimals;
        const char *law;  /* law that vouches for it (met_verify.h), or NULL */
        const char *what; /* for help and the man page */
        bool sep;         /* a " |" before it: the guest's own view apart from CP's */
        uint8_t per;      /* 1 + the column it is divided by (ms per SSCH); 0: none */
};
extern const struct top_coldef top_cols[TOP_NCOL];
extern const struct top_coldef top_syscols[TOP_NSYS];

struct top_scrdef {
        char key;            /* switches to it */
        const char *name;    /* --screen NAME, and its JSON member */
        const char *title;   /* in the header and the help */
        const char *keyhead; /* the key column's heading */
        const char *keyname; /* its JSON member and --sort name */
        char keykey;         /* its sort key */
        int keywidth;        /* its width on screen */
        const struct top_coldef *cols;
        int ncol;
        int sort;         /* sort by default */
        bool as_built;    /* the key column sorts as the model made the rows (storage) */
        const char *note; /* for the help: what it shows, what it cannot */
};
extern const struct top_scrdef top_screens[TOP_NSCR];
/* The screen whose key or name is s ("2", "cpus", "all": TOP_NSCR), or -1. */
int top_scr_by_name(const char *s);
/* The column of screen scr whose key or name is s ("c", "cpu", "userid"...), or -1. */
int top_col_by_name(int scr, const char *s);
int top_col_by_key(int scr, int key);

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

/* How a screen's rows are chosen and put in order. */
struct top_sort {
        int scr;
        int col;          /* a column, or TOP_BY_KEY */
        bool reverse;     /* numbers smallest first, keys Z to A; no number still last */
        const char *glob; /* key glob, case-insensitive; NULL or "": all */
};
/* Visible rows of screen s->scr in sort order; idx gets t[scr].nrows. */
size_t top_order(const struct top_frame *f, const struct top_sort *s, size_t *idx);
/* The first row shown of n with rows visible, after a move by delta rows (PgDn: + rows). */
size_t top_scroll(size_t first, long delta, size_t n, size_t rows);

/* Text shared by the screen and batch mode; each writes at most n bytes. */
void top_fmt_title(char *buf, size_t n, const struct top_frame *f);
/*
 * The system line from field first on, in at most width columns (0: no
 * limit): the fields that fit whole, and " >" at the end when any had to go,
 * never a number cut.  Returns the first field left out (TOP_NSYS: none), for
 * a second line.
 */
int top_fmt_sys(char *buf, size_t n, const struct top_frame *f, int width, int first);
void top_fmt_head(char *buf, size_t n, int scr);
void top_fmt_row(char *buf, size_t n, int scr, const struct top_row *r);
/* The screens and their keys, the shown one in [brackets]. */
void top_fmt_screens(char *buf, size_t n, int scr);
/* A number in at most width columns: fewer decimals, then k/M/G/T, then '>'s. */
void top_fmt_num(char *buf, size_t n, double v, int width, int decimals);
/* Where column col (TOP_BY_KEY: the key) starts in top_fmt_head's line, and its width. */
int top_fmt_col_x(int scr, int col, int *width);
extern const char top_legend[];

/* Batch mode: the chosen screen (or all, TOP_NSCR) as text, or one JSON line per frame. */
struct top_opts;
struct top_batch;
struct top_batch *top_batch_new(FILE *out, bool json, const struct top_opts *o);
/* Screen scr's order as o gives it. */
struct top_sort top_sort_of(const struct top_opts *o, int scr);
void top_batch_frame(struct top_batch *b, const struct top_frame *f);
void top_batch_free(struct top_batch *b);

/* The full screen (top_view.c, ncurses; top_noview.c where it is built without). */
struct top_screen {
        const struct top_frame *f; /* NULL: nothing to show yet */
        struct top_sort sort;
        size_t *first;      /* the first row shown; the view keeps it in range */
        const char *status; /* "paused", "replay x30", "live", "end of input" */
        const char *msg;    /* bottom line: the engine's last word, or a hint */
        bool help;
};
bool top_view_open(void);
/* Table rows the screen has room for: a page for PgUp and PgDn. */
int top_view_page(void);
void top_view_close(void);
void top_view_draw(const struct top_screen *s);
/* The next key pressed, or -1 if none is waiting; TOP_KEY_RESIZE after a resize,
 * TOP_KEY_UP ... for the keys that move. */
int top_view_key(void);
#define TOP_KEY_RESIZE 0x1000
enum {
        TOP_KEY_UP = 0x1001,
        TOP_KEY_DOWN,
        TOP_KEY_PGUP,
        TOP_KEY_PGDN,
        TOP_KEY_HOME,
        TOP_KEY_END,
        TOP_KEY_LEFT,
        TOP_KEY_RIGHT
};
/* Read a line at the bottom (the userid filter); false if cancelled. */
bool top_view_prompt(const char *prompt, char *buf, size_t n);

/* Options of the full-screen loop (top_loop.c). */
struct top_opts {
        double speed; /* replay: times real time; 0: as fast as read */
        bool step;    /* replay: start paused, n steps */
        unsigned long max_frames;
        int scr;            /* the screen shown; batch: TOP_NSCR for all */
        int sort[TOP_NSCR]; /* each screen's sort column */
        bool reverse;
        size_t first[TOP_NSCR];  /* each screen's first row shown */
        char glob[TOP_NSCR][32]; /* each screen's key filter */
};
/* Full screen until q (or the input ends and the last frame is left); exit status. */
int top_loop(struct top_src *src, struct top_model *t, struct top_opts *o);

#endif
