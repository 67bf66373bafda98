/* SPDX-License-Identifier: MIT */
/*
 * Inside the LayoutFile parser: the parser's state, and what the grammar of
 * its keywords (lay_file_rules.c) gives the line loop (lay_file.c).  The
 * calls run one way, from lay_file.c to lay_file_rules.c.  Not for other
 * callers.
 */
#ifndef ZD_LAY_FILE_INT_H
#define ZD_LAY_FILE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "layout/layout.h"

/* Everything one loaded file owns: layouts, their fields, their strings. */
struct blob {
        struct zl_layout *l;
        size_t nl;
        char **str;
        size_t nstr, capstr;
        struct blob *next;
};

struct parser {
        const char *name;
        unsigned line;
        char *err;
        size_t errlen;
        struct blob *b;
        struct zl_field *f; /* fields of the open layout */
        size_t nf, capf;
        bool open;
        unsigned open_line; /* where the open layout began: its missing "end" is found later */
};

/* Say what is wrong at the current line (the file as a whole when line is 0): always false. */
bool zlf_fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The keywords: true, or false with the error said. */
bool zlf_layout(struct parser *p, char **t, int n);
bool zlf_field(struct parser *p, char **t, int n);
bool zlf_end(struct parser *p);

#endif
