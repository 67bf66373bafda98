/* SPDX-License-Identifier: MIT */
/*
 * The full-screen view, drawn with ncurses: title and system line, the
 * guest table with the sort column highlighted, the legend of "?" and "-",
 * and a line of keys.  The text of every line comes from top_fmt.c.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "top.h"

static size_t *idx;
static size_t idx_cap;

bool top_view_open(void)
{
        if (!initscr())
                return false;
        cbreak();
        noecho();
        nodelay(stdscr, TRUE);
        keypad(stdscr, TRUE);
        curs_set(0);
        return true;
}

void top_view_close(void)
{
        endwin();
        free(idx);
        idx = NULL;
        idx_cap = 0;
}

int top_view_key(void)
{
        int k = getch();
        if (k == ERR)
                return -1;
        return k == KEY_RESIZE ? TOP_KEY_RESIZE : k;
}

bool top_view_prompt(const char *prompt, char *buf, size_t n)
{
        move(LINES - 1, 0);
        clrtoeol();
        addstr(prompt);
        echo();
        curs_set(1);
        nodelay(stdscr, FALSE);
        int rc = getnstr(buf, (int)n - 1);
        nodelay(stdscr, TRUE);
        curs_set(0);
        noecho();
        return rc == OK;
}

static void help(void)
{
        int y = 0;
        mvaddstr(y++, 0, "zvmmon top: keys");
        y++;
        mvaddstr(y++, 2, "space  pause / go on          n  next interval (pauses)");
        mvaddstr(y++, 2, "/      filter by userid glob  (empty: all)");
        mvaddstr(y++, 2, "h ?    this help              q  quit");
        y++;
        mvaddstr(y++, 0, "Sort (largest first):");
        mvprintw(y++, 2, "u  %-9s the guest's userid (A to Z)", "USERID");
        for (int k = 0; k < TOP_NCOL && y < LINES - 3; k++)
                mvprintw(y++, 2, "%c  %-9s %s", top_cols[k].key, top_cols[k].head,
                         top_cols[k].what);
        y++;
        if (y < LINES - 1)
                mvaddnstr(y, 0, top_legend, COLS);
        mvaddstr(LINES - 1, 0, "any key: back");
}

/* The heading, the sort column in reverse video. */
static void heading(int y, int sort)
{
        char line[256];
        top_fmt_head(line, sizeof(line));
        attron(A_BOLD);
        mvaddnstr(y, 0, line, COLS);
        attroff(A_BOLD);
        int w, x = top_fmt_col_x(sort, &w);
        if (x < COLS)
                mvchgat(y, x, w, A_REVERSE | A_BOLD, 0, NULL);
}

static void table(const struct top_screen *s, int y)
{
        const struct top_frame *f = s->f;
        if (f->nrows > idx_cap) {
                size_t *p = realloc(idx, f->nrows * sizeof(*p));
                if (!p)
                        return;
                idx = p;
                idx_cap = f->nrows;
        }
        size_t n = top_order(f, s->sort, s->glob, idx);
        char line[256];
        mvprintw(y++, 0, "sort %s  filter %s  guests %zu of %zu",
                 s->sort == TOP_BY_USERID ? "USERID" : top_cols[s->sort].head,
                 s->glob && s->glob[0] ? s->glob : "(none)", n, f->nrows);
        heading(y++, s->sort);
        for (size_t i = 0; i < n && y < LINES - 3; i++) {
                top_fmt_row(line, sizeof(line), &f->rows[idx[i]]);
                mvaddnstr(y++, 0, line, COLS);
        }
}

void top_view_draw(const struct top_screen *s)
{
        erase();
        if (s->help) {
                help();
                refresh();
                return;
        }
        char line[256];
        if (s->f) {
                top_fmt_title(line, sizeof(line), s->f);
                mvprintw(0, 0, "zvmmon top  %s", line);
                top_fmt_sys(line, sizeof(line), s->f);
                mvaddnstr(1, 0, line, COLS);
                table(s, 3);
        } else
                mvaddstr(0, 0, "zvmmon top  waiting for the first sample interval...");
        if (s->status)
                mvprintw(0, COLS > 20 ? COLS - (int)strlen(s->status) - 2 : 0, "[%s]", s->status);
        if (s->msg && s->msg[0])
                mvaddnstr(LINES - 3, 0, s->msg, COLS);
        mvaddnstr(LINES - 2, 0, top_legend, COLS);
        attron(A_REVERSE);
        mvaddnstr(LINES - 1, 0,
                  "q quit  space pause  n next  / filter  h help  sort: u c v p i r l m", COLS);
        attroff(A_REVERSE);
        refresh();
}
