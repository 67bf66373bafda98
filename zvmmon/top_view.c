/* SPDX-License-Identifier: MIT */
/*
 * The full-screen view, drawn with ncurses: title and system line (wrapped
 * to a second line where it does not fit), the screens and their keys, the
 * shown screen's table from its first row shown, with the sort column
 * highlighted, the legend of "?" and "-", and a line of keys.  The text of
 * every line comes from top_fmt.c.
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
        static const int keys[][2] = {
            {KEY_RESIZE, TOP_KEY_RESIZE}, {KEY_UP, TOP_KEY_UP},      {KEY_DOWN, TOP_KEY_DOWN},
            {KEY_PPAGE, TOP_KEY_PGUP},    {KEY_NPAGE, TOP_KEY_PGDN}, {KEY_HOME, TOP_KEY_HOME},
            {KEY_END, TOP_KEY_END},       {KEY_LEFT, TOP_KEY_LEFT},  {KEY_RIGHT, TOP_KEY_RIGHT},
        };
        int k = getch();
        if (k == ERR)
                return -1;
        for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
                if (k == keys[i][0])
                        return keys[i][1];
        return k >= KEY_MIN ? 0 : k; /* a key of curses' own that top has no use for */
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

/* A line at y; one longer than the terminal is wide ends in '>', never cut unseen. */
static void put_line(int y, const char *text)
{
        int len = (int)strlen(text);
        mvaddnstr(y, 0, text, len > COLS ? COLS - 1 : COLS);
        if (len > COLS && COLS > 0)
                mvaddch(y, COLS - 1, '>');
}

/* Rows above the table (title, system line and its second line, screens, sort, heading)
 * and below it (message, legend, keys). */
#define ABOVE 6
#define BELOW 3

int top_view_page(void)
{
        return LINES - ABOVE - BELOW > 1 ? LINES - ABOVE - BELOW : 1;
}

static void help(int scr)
{
        const struct top_scrdef *d = &top_screens[scr];
        int y = 0;
        mvaddstr(y++, 0, "zvmmon top: keys");
        y++;
        mvaddstr(y++, 2, "space  pause / go on          n  next interval (pauses)");
        mvaddstr(y++, 2, "/      filter the rows' keys by a glob (empty: all)");
        mvaddstr(y++, 2, "1-6    screen (left, right: the one before, after)");
        mvaddstr(y++, 2, "up down PgUp PgDn Home End: scroll   R  reverse the order");
        mvaddstr(y++, 2, "h ?    this help              q  quit");
        y++;
        char line[256];
        snprintf(line, sizeof(line), "Screen %c %s: %s", d->key, d->title, d->note);
        put_line(y++, line);
        mvaddstr(y++, 0, "Sort (largest first):");
        snprintf(line, sizeof(line), "  %c  %-13s %s", d->keykey, d->keyhead,
                 d->as_built ? "as made" : "A to Z");
        put_line(y++, line);
        for (int k = 0; k < d->ncol && y < LINES - 3; k++) {
                snprintf(line, sizeof(line), "  %c  %-13s %s", d->cols[k].key, d->cols[k].head,
                         d->cols[k].what);
                put_line(y++, line);
        }
        y++;
        if (y < LINES - 1)
                put_line(y, top_legend);
        mvaddstr(LINES - 1, 0, "any key: back");
}

/* The title, and the status at the right; a title that would run into it ends in '>'. */
static void title(const char *text, const char *status)
{
        char line[320];
        int room = status ? COLS - (int)strlen(status) - 3 : COLS;
        snprintf(line, sizeof(line), "zvmmon top  %s", text);
        if (room > 1 && (int)strlen(line) > room) {
                line[room - 1] = '>';
                line[room] = 0;
        }
        put_line(0, line);
}

/* The heading, the sort column in reverse video. */
static void heading(int y, const struct top_sort *s)
{
        char line[256];
        top_fmt_head(line, sizeof(line), s->scr);
        attron(A_BOLD);
        put_line(y, line);
        attroff(A_BOLD);
        int w, x = top_fmt_col_x(s->scr, s->col, &w);
        if (x < COLS)
                mvchgat(y, x, w, A_REVERSE | A_BOLD, 0, NULL);
}

static const char *sort_name(const struct top_sort *s)
{
        const struct top_scrdef *d = &top_screens[s->scr];
        return s->col == TOP_BY_KEY ? d->keyhead : d->cols[s->col].head;
}

static void table(const struct top_screen *s, int y)
{
        const struct top_frame *f = s->f;
        const struct top_table *t = &f->t[s->sort.scr];
        if (t->nrows > idx_cap) {
                size_t *p = realloc(idx, t->nrows * sizeof(*p));
                if (!p)
                        return;
                idx = p;
                idx_cap = t->nrows;
        }
        size_t n = top_order(f, &s->sort, idx);
        size_t page = (size_t)top_view_page();
        size_t first = *s->first = top_scroll(*s->first, 0, n, page);
        size_t end = first + page < n ? first + page : n;
        char line[256];
        mvprintw(y++, 0, "sort %s%s  filter %s  rows %zu-%zu of %zu", sort_name(&s->sort),
                 s->sort.reverse ? " (reversed)" : "",
                 s->sort.glob && s->sort.glob[0] ? s->sort.glob : "(none)", n ? first + 1 : 0, end,
                 n);
        if (n != t->nrows)
                printw(" (%zu in all)", t->nrows);
        heading(y++, &s->sort);
        for (size_t i = first; i < end; i++) {
                top_fmt_row(line, sizeof(line), s->sort.scr, &t->rows[idx[i]]);
                put_line(y++, line);
        }
}

/* The system line; what does not fit goes to the next line, marked '>' on the first. */
static void sysline(const struct top_frame *f)
{
        char line[256];
        int k = top_fmt_sys(line, sizeof(line), f, COLS, 0);
        put_line(1, line);
        if (k < TOP_NSYS) {
                top_fmt_sys(line, sizeof(line), f, COLS, k);
                put_line(2, line);
        }
}

void top_view_draw(const struct top_screen *s)
{
        erase();
        if (s->help) {
                help(s->sort.scr);
                refresh();
                return;
        }
        char line[256];
        if (s->f) {
                top_fmt_title(line, sizeof(line), s->f);
                title(line, s->status);
                sysline(s->f);
                top_fmt_screens(line, sizeof(line), s->sort.scr);
                put_line(3, line);
                table(s, 4);
        } else
                mvaddstr(0, 0, "zvmmon top  waiting for the first sample interval...");
        if (s->status)
                mvprintw(0, COLS > 20 ? COLS - (int)strlen(s->status) - 2 : 0, "[%s]", s->status);
        if (s->msg && s->msg[0])
                put_line(LINES - 3, s->msg);
        put_line(LINES - 2, top_legend);
        attron(A_REVERSE);
        put_line(LINES - 1, "q quit  space pause  n next  / filter  1-6 screen  R reverse  h help");
        attroff(A_REVERSE);
        refresh();
}
