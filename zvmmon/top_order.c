/* SPDX-License-Identifier: MIT */
/*
 * Which rows of a screen are shown and in what order: the key glob
 * (case-insensitive), then the sort column, largest first; a cell without a
 * number ("?", "-") after every number; ties by key.  The key column sorts
 * A to Z, numbers in keys as numbers (cpu2 before cpu10), or on the storage
 * screen as the items were made.  Reverse turns the numbers and the keys
 * round; cells without a number stay last.  And which rows a window of the
 * screen shows after a scroll.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "top.h"

struct sorter {
        const struct top_table *t;
        int col;
        bool reverse, as_built;
};

/* qsort has no context argument; the sort runs on one thread at a time. */
static struct sorter cur;

/* strcmp, but a run of digits against a run of digits by its value: cpu2 before cpu10. */
static int natural(const char *a, const char *b)
{
        while (*a && *a == *b && !isdigit((unsigned char)*a))
                a++, b++;
        if (!isdigit((unsigned char)*a) || !isdigit((unsigned char)*b))
                return strcmp(a, b);
        size_t na = strspn(a, "0123456789"), nb = strspn(b, "0123456789");
        const char *da = a, *db = b;
        while (na > 1 && *da == '0')
                da++, na--;
        while (nb > 1 && *db == '0')
                db++, nb--;
        int c = na != nb ? (na < nb ? -1 : 1) : strncmp(da, db, na);
        if (!c)
                c = natural(da + na, db + nb);
        return c ? c : strcmp(a, b); /* "01" and "1": equal values, a fixed order still */
}

static int by_key(const struct top_row *x, const struct top_row *y)
{
        if (cur.as_built && x->pos != y->pos)
                return x->pos < y->pos ? -1 : 1;
        return natural(x->key, y->key);
}

static void upper(char *dst, size_t n, const char *s)
{
        size_t i = 0;
        for (; s && s[i] && i + 1 < n; i++)
                dst[i] = (char)toupper((unsigned char)s[i]);
        dst[i] = 0;
}

static int by_col(const void *a, const void *b)
{
        const struct top_row *x = &cur.t->rows[*(const size_t *)a];
        const struct top_row *y = &cur.t->rows[*(const size_t *)b];
        int sign = cur.reverse ? -1 : 1;
        if (cur.col != TOP_BY_KEY) {
                const struct top_cell *cx = &x->c[cur.col], *cy = &y->c[cur.col];
                bool nx = cx->mark == TOP_NUM, ny = cy->mark == TOP_NUM;
                if (nx != ny)
                        return nx ? -1 : 1;
                if (nx && cx->v != cy->v)
                        return (cx->v > cy->v ? -1 : 1) * sign;
                return by_key(x, y);
        }
        return by_key(x, y) * sign;
}

size_t top_order(const struct top_frame *f, const struct top_sort *s, size_t *idx)
{
        const struct top_table *t = &f->t[s->scr];
        const struct top_scrdef *d = &top_screens[s->scr];
        char glob[64], key[TOP_KEYLEN];
        upper(glob, sizeof(glob), s->glob);
        size_t n = 0;
        for (size_t i = 0; i < t->nrows; i++) {
                upper(key, sizeof(key), t->rows[i].key);
                if (!glob[0] || fnmatch(glob, key, 0) == 0)
                        idx[n++] = i;
        }
        cur.t = t;
        cur.col = s->col == TOP_BY_KEY || (s->col >= 0 && s->col < d->ncol) ? s->col : d->sort;
        cur.reverse = s->reverse;
        cur.as_built = d->as_built;
        if (n > 1) /* none: idx may be NULL, which qsort may not be given */
                qsort(idx, n, sizeof(*idx), by_col);
        return n;
}

size_t top_scroll(size_t first, long delta, size_t n, size_t rows)
{
        size_t last = n > rows ? n - rows : 0; /* the first row of the last full window */
        if (delta < 0)
                first = (size_t)-delta > first ? 0 : first - (size_t)-delta;
        else
                first = (size_t)delta > last - (first < last ? first : last)
                            ? last
                            : first + (size_t)delta;
        return first < last ? first : last;
}

struct top_sort top_sort_of(const struct top_opts *o, int scr)
{
        struct top_sort s = {scr, o->sort[scr], o->reverse, o->glob[scr]};
        return s;
}
