/* SPDX-License-Identifier: MIT */
/* Built without ncurses (CURSES=0, the s390x cross build): batch mode only. */
#include "top.h"

bool top_view_open(void)
{
        fputs("zvmmon top: this zvmmon was built without ncurses: use -b\n", stderr);
        return false;
}

void top_view_close(void) {}

int top_view_page(void)
{
        return 1;
}

void top_view_draw(const struct top_screen *s)
{
        (void)s;
}

int top_view_key(void)
{
        return -1;
}

bool top_view_prompt(const char *prompt, char *buf, size_t n)
{
        (void)prompt;
        (void)buf;
        (void)n;
        return false;
}
