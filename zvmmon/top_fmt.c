/* SPDX-License-Identifier: MIT */
/*
 * The columns and the text of a table: one layout for the screen and for
 * batch mode, so that what a script reads is what a person sees.
 */
#include <stdarg.h>
#include <string.h>
#include <strings.h>

#include "zvmdec.h"
#include "top.h"

const struct top_coldef top_cols[TOP_NCOL] = {
    [TOP_CPU] = {'c', "cpu", "CPU%", 7, 1, "guest-cpu",
                 "CPU time of all its virtual CPUs, % of one processor (USEACT_VMDTTIME)"},
    [TOP_VCPU] = {'v', "vcpu", "VCPU%", 7, 1, "guest-vcpu",
                  "virtual CPU time, % of one processor (USEACT_VMDVTIME)"},
    [TOP_PAGE] = {'p', "paging", "PAGE/s", 8, 1, "paging",
                  "pages read and written per second (USEACT_CALCPPGR + CALCPPGW)"},
    [TOP_VIO] = {'i', "vio", "VIO/s", 8, 1, "guest-vio",
                 "virtual I/O requests per second (USEACT_VMDVCSCT ... VMDVOSCT)"},
    [TOP_RES] = {'r', "resident", "RES-MiB", 9, 1, "guest-resident",
                 "resident storage, MiB (USEACT_VMDCTPVR)"},
    [TOP_LOAD] = {'l', "load", "LOAD", 6, 2, NULL,
                  "the Linux guest's own 1-minute load average (APPLDATA OS)"},
    [TOP_LMEM] = {'m', "linux_mem", "USED-MiB", 9, 1, NULL,
                  "memory the Linux guest uses, MiB (APPLDATA MEM: total - free - buffers - "
                  "cached)"},
};

const struct top_coldef top_syscols[TOP_NSYS] = {
    [TOP_S_BUSY] = {0, "cpu_busy", "busy %", 0, 1, NULL, "processors busy, average %"},
    [TOP_S_USED] = {0, "storage_used", "used MiB", 0, 0, "storage", "pageable storage in use"},
    [TOP_S_FREE] = {0, "storage_free", "free MiB", 0, 0, "storage", "storage available"},
    [TOP_S_PAGE] = {0, "paging", "paging/s", 0, 1, "paging", "pages read and written per s"},
    [TOP_S_USERS] = {0, "users", "users", 0, 0, NULL, "users logged on"},
};

const char top_legend[] =
    "? = hint field, its law not proven yet   - = no value yet, or no APPLDATA";

#define USERID_W 8
#define SEP      " |"

int top_col_by_name(const char *s)
{
        if (!strcasecmp(s, "u") || !strcasecmp(s, "userid"))
                return TOP_BY_USERID;
        for (int k = 0; k < TOP_NCOL; k++)
                if ((s[0] == top_cols[k].key && !s[1]) || !strcasecmp(s, top_cols[k].name))
                        return k;
        return -1;
}

int top_col_by_key(int key)
{
        char s[2] = {(char)key, 0};
        return key > 0 && key < 128 ? top_col_by_name(s) : -1;
}

/* Append to buf; never past n, always terminated. */
__attribute__((format(printf, 3, 4))) static void add(char *buf, size_t n, const char *fmt, ...)
{
        size_t len = strnlen(buf, n);
        if (len + 1 >= n)
                return;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf + len, n - len, fmt, ap);
        va_end(ap);
}

static void cell(char *buf, size_t n, const struct top_cell *c, int width, int decimals)
{
        if (c->mark == TOP_NUM)
                add(buf, n, "%*.*f", width, decimals, c->v);
        else
                add(buf, n, "%*s", width, c->mark == TOP_UNPROVEN ? "?" : "-");
}

void top_fmt_title(char *buf, size_t n, const struct top_frame *f)
{
        char when[40];
        /* TOD 0 is no time (monwriter output read back), not 1900-01-01. */
        if (f->tod && zd_tod_to_iso8601(f->tod, when, sizeof(when)) && strlen(when) > 19) {
                when[10] = ' '; /* "2026-11-22 04:15:37 UTC": seconds are enough here */
                snprintf(when + 19, sizeof(when) - 19, " UTC");
        } else {
                snprintf(when, sizeof(when), "time unknown");
        }
        snprintf(buf, n, "%s  %s  interval %llu", f->system[0] ? f->system : "(system?)", when,
                 (unsigned long long)f->seq);
        if (f->interval > 0)
                add(buf, n, " (%g s)", f->interval);
}

void top_fmt_sys(char *buf, size_t n, const struct top_frame *f)
{
        const struct top_cell *s = f->sys;
        /* Narrow: the whole line fits 80 columns with a large system's figures. */
        /* No CPU has a busy figure before its second interval (busy is a rate). */
        if (f->ncpu)
                snprintf(buf, n, "cpus %u busy", f->ncpu);
        else
                snprintf(buf, n, "cpus - busy");
        cell(buf, n, &s[TOP_S_BUSY], 6, 1);
        add(buf, n, "%%  storage MiB used ");
        cell(buf, n, &s[TOP_S_USED], 0, 0);
        add(buf, n, " free ");
        cell(buf, n, &s[TOP_S_FREE], 0, 0);
        add(buf, n, "  paging ");
        cell(buf, n, &s[TOP_S_PAGE], 0, 1);
        add(buf, n, "/s  users ");
        cell(buf, n, &s[TOP_S_USERS], 0, 0);
}

void top_fmt_head(char *buf, size_t n)
{
        snprintf(buf, n, "%-*s", USERID_W, "USERID");
        for (int k = 0; k < TOP_NCOL; k++) {
                if (k == TOP_LOAD)
                        add(buf, n, SEP);
                add(buf, n, "%*s", top_cols[k].width, top_cols[k].head);
        }
}

void top_fmt_row(char *buf, size_t n, const struct top_row *r)
{
        snprintf(buf, n, "%-*s", USERID_W, r->userid);
        for (int k = 0; k < TOP_NCOL; k++) {
                if (k == TOP_LOAD)
                        add(buf, n, SEP);
                cell(buf, n, &r->c[k], top_cols[k].width, top_cols[k].decimals);
        }
}

int top_fmt_col_x(int col, int *width)
{
        *width = col == TOP_BY_USERID ? USERID_W : top_cols[col].width;
        if (col == TOP_BY_USERID)
                return 0;
        int x = USERID_W + (col >= TOP_LOAD ? (int)strlen(SEP) : 0);
        for (int k = 0; k < col; k++)
                x += top_cols[k].width;
        return x;
}
