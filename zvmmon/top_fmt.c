/* SPDX-License-Identifier: MIT */
/*
 * The text of a table: one layout for the screen and for batch mode, so that
 * what a script reads is what a person sees.  Nothing is cut silently: a
 * number that does not fit its column loses decimals, then takes a k/M/G/T
 * suffix, and else shows '>'; a key too long for its column ends in '>'; the
 * system line leaves out whole fields, marked '>', for a second line.
 */
#include <stdarg.h>
#include <string.h>

#include "zvmdec.h"
#include "top.h"

#define SEP " |"

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

void top_fmt_num(char *buf, size_t n, double v, int width, int decimals)
{
        static const char suffix[] = " kMGTP";
        char s[64];
        double x = v;
        for (int u = 0; u < (int)sizeof(suffix) - 1; u++, x /= 1000) {
                /* With a suffix, at most one decimal: 1.5M, not 1.523M. */
                for (int d = u && decimals > 1 ? 1 : decimals; d >= 0; d--) {
                        snprintf(s, sizeof(s), "%.*f%.*s", d, x, u ? 1 : 0, suffix + u);
                        if (!width || (int)strlen(s) <= width) {
                                snprintf(buf, n, "%s", s);
                                return;
                        }
                }
        }
        snprintf(buf, n, ">");
}

static void cell(char *buf, size_t n, const struct top_cell *c, int width, int decimals)
{
        char s[64];
        if (c->mark == TOP_NUM)
                top_fmt_num(s, sizeof(s), c->v, width > 1 ? width - 1 : 0,
                            c->dec ? c->dec - 1 : decimals);
        else
                snprintf(s, sizeof(s), "%s", c->mark == TOP_UNPROVEN ? "?" : "-");
        add(buf, n, "%*s", width, s);
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

/* The system line's field k, whole. */
static void sys_field(char *buf, size_t n, const struct top_frame *f, int k)
{
        static const char *const pre[TOP_NSYS] = {"busy ", "used ", "free ", "paging ", "users "};
        static const char *const post[TOP_NSYS] = {"%", " GiB", " GiB", "/s", ""};
        buf[0] = 0;
        /* No CPU has a busy figure before its second interval (busy is a rate). */
        if (k == TOP_S_BUSY && f->ncpu)
                snprintf(buf, n, "cpus %u ", f->ncpu);
        else if (k == TOP_S_BUSY)
                snprintf(buf, n, "cpus - ");
        add(buf, n, "%s", pre[k]);
        cell(buf, n, &f->sys[k], 0, top_syscols[k].decimals);
        if (f->sys[k].mark == TOP_NUM)
                add(buf, n, "%s", post[k]);
}

int top_fmt_sys(char *buf, size_t n, const struct top_frame *f, int width, int first)
{
        char field[TOP_NSYS][64];
        size_t len[TOP_NSYS], total = 0;
        for (int k = first; k < TOP_NSYS; k++) {
                sys_field(field[k], sizeof(field[k]), f, k);
                len[k] = strlen(field[k]);
                total += (k > first ? 2 : 0) + len[k];
        }
        buf[0] = 0;
        int k = first;
        for (size_t used = 0; k < TOP_NSYS; k++) {
                size_t sep = k > first ? 2 : 0;
                /* Room for the field, and for " >" unless it is the last and all fit. */
                if (width && (int)(used + sep + len[k]) > width - (total <= (size_t)width ? 0 : 2))
                        break;
                add(buf, n, "%s%s", sep ? "  " : "", field[k]);
                used += sep + len[k];
        }
        if (k < TOP_NSYS)
                add(buf, n, " >");
        return k;
}

/* The key, left-aligned in its column; one too long ends in '>'. */
static void key(char *buf, size_t n, const char *k, int width)
{
        if ((int)strlen(k) > width)
                add(buf, n, "%.*s>", width - 1, k);
        else
                add(buf, n, "%-*s", width, k);
}

void top_fmt_head(char *buf, size_t n, int scr)
{
        const struct top_scrdef *d = &top_screens[scr];
        buf[0] = 0;
        key(buf, n, d->keyhead, d->keywidth);
        for (int k = 0; k < d->ncol; k++)
                add(buf, n, "%s%*s", d->cols[k].sep ? SEP : "", d->cols[k].width, d->cols[k].head);
}

void top_fmt_row(char *buf, size_t n, int scr, const struct top_row *r)
{
        const struct top_scrdef *d = &top_screens[scr];
        buf[0] = 0;
        key(buf, n, r->key, d->keywidth);
        for (int k = 0; k < d->ncol; k++) {
                if (d->cols[k].sep)
                        add(buf, n, SEP);
                cell(buf, n, &r->c[k], d->cols[k].width, d->cols[k].decimals);
        }
}

void top_fmt_screens(char *buf, size_t n, int scr)
{
        buf[0] = 0;
        for (int k = 0; k < TOP_NSCR; k++)
                add(buf, n, k == scr ? "%s[%c %s]" : "%s%c %s", k ? " " : "", top_screens[k].key,
                    top_screens[k].title);
}

int top_fmt_col_x(int scr, int col, int *width)
{
        const struct top_scrdef *d = &top_screens[scr];
        if (col == TOP_BY_KEY || col < 0 || col >= d->ncol) {
                *width = d->keywidth;
                return 0;
        }
        int x = d->keywidth;
        for (int k = 0; k <= col; k++)
                x += (d->cols[k].sep ? (int)strlen(SEP) : 0) + (k < col ? d->cols[k].width : 0);
        *width = d->cols[col].width;
        return x;
}
