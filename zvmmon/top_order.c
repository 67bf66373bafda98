/* SPDX-License-Identifier: MIT */
/*
 * Which rows are shown and in what order: the userid glob (case-insensitive),
 * then the sort column, largest first;
 * a cell without a number ("?", "-") after every number; ties by userid.
 * The userid column sorts A to Z.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "top.h"

struct sorter {
        const struct top_frame *f;
        int col;
};

/* qsort has no context argument; the sort runs on one thread at a time. */
static struct sorter cur;

static int by_col(const void *a, const void *b)
{
        const struct top_row *x = &cur.f->rows[*(const size_t *)a];
        const struct top_row *y = &cur.f->rows[*(const size_t *)b];
        if (cur.col != TOP_BY_USERID) {
                const struct top_cell *cx = &x->c[cur.col], *cy = &y->c[cur.col];
                bool nx = cx->mark == TOP_NUM, ny = cy->mark == TOP_NUM;
                if (nx != ny)
                        return nx ? -1 : 1;
                if (nx && cx->v != cy->v)
                        return cx->v > cy->v ? -1 : 1;
        }
        return strcmp(x->userid, y->userid);
}

size_t top_order(const struct top_frame *f, int sort, const char *glob, size_t *idx)
{
        /* CP writes userids in upper case: an upper-case glob matches either way. */
        char up[64] = "";
        for (size_t i = 0; glob && glob[i] && i + 1 < sizeof(up); i++)
                up[i] = (char)toupper((unsigned char)glob[i]);
        size_t n = 0;
        for (size_t i = 0; i < f->nrows; i++)
                if (!up[0] || fnmatch(up, f->rows[i].userid, 0) == 0)
                        idx[n++] = i;
        cur.f = f;
        cur.col = sort >= 0 && sort <= TOP_BY_USERID ? sort : TOP_CPU;
        qsort(idx, n, sizeof(*idx), by_col);
        return n;
}
