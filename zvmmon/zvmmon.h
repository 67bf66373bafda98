/* SPDX-License-Identifier: MIT */
/* zvmmon: look into z/VM monitor data (dump, stat, capture, layouts, metrics, top). */
#ifndef ZVMMON_H
#define ZVMMON_H

#include <stdbool.h>
#include <stdio.h>

#include "zvmdec.h"

#define ZVMMON_VERSION "0.1.0"

/*
 * monreader answers a control element it cannot read with one empty read;
 * this many in a row, and no byte between, is not a monitor stream (/dev/null,
 * a wrong device): capture and top say so once and go on (about 2 s of reads).
 */
#define ZMON_EMPTY_RUN_WARN 40

/* Exit codes (zvmmon.1 EXIT STATUS). */
enum { ZMON_OK = 0, ZMON_ERRORS = 1, ZMON_UNUSABLE = 2 };

/* Standard output's health (output.c).  Set by a command that has said itself
 * that writing standard output failed (capture -o -): zmon_close_stdout then
 * only sets the exit status. */
extern bool zmon_stdout_reported;
/* fflush(stdout) for output that must go out now.  A failed fflush empties
 * stdio's buffer, so the next one succeeds: the first errno is kept for the
 * "write error" message. */
bool zmon_flush_stdout(void);
/* True once a write to standard output has failed (ferror): nobody takes what a
 * command prints as it decodes, so it stops there.  The first errno is kept for
 * the "write error" message, as zmon_flush_stdout keeps it. */
bool zmon_stdout_failed(void);
/* Flush and close standard output after the command: rc when all of it was
 * written, else ZMON_UNUSABLE with the write error said (unless reported). */
int zmon_close_stdout(int rc);

/* Options shared by the input-reading commands. */
struct zmon_input {
        const char *path;   /* FILE or "-" */
        enum zd_format fmt; /* ZD_FMT_UNKNOWN: detect */
        const char *fmt_name;
};

/* Counters of domain 10 that are not errors. */
struct zmon_appl_counts {
        unsigned long long linuxkrnl[4]; /* [0] unknown record, 1 mem, 2 os, 3 net */
        unsigned long long fsstatd, procd_sum, procd_task, lnxappl_other, other;
        unsigned long long stale, sync_drops, opaque;
};
void zmon_count_appl(struct zmon_appl_counts *c, const struct zd_appl_info *ai);

/*
 * Feed the whole input through a stream with handler h.  Returns ZMON_OK when
 * the input was decoded (errors or not), ZMON_UNUSABLE when it could not be
 * opened or its format was not recognised, or when writing standard output
 * failed (the rest is not read; main says why); *st gets the statistics.
 */
int zmon_run_input(const struct zmon_input *in, const struct zd_handler *h, struct zd_stats *st,
                   enum zd_format *fmt_out);
/* "zvmmon: 3 errors: appl_sync=2 hdr_short=1" on stderr; the exit code for st. */
int zmon_report_errors(const struct zd_stats *st);

/* A zvm plugin's ShareSocket (share_in.c): is path one; connect to it (non-blocking), or
 * -1 with the reason on stderr after "who: ". */
bool zmon_is_socket(const char *path);
int zmon_share_connect(const char *path, const char *who);

/* --markdown and --help of a table command: -1 to go on, else the exit code. */
int zmon_table_opts(int argc, char **argv, const char *cmd, bool *md);
int zmon_cmd_dump(int argc, char **argv);
int zmon_cmd_stat(int argc, char **argv);
int zmon_cmd_capture(int argc, char **argv);
int zmon_cmd_layouts(int argc, char **argv);
int zmon_cmd_metrics(int argc, char **argv);
int zmon_cmd_top(int argc, char **argv);

#endif
