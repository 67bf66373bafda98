/* SPDX-License-Identifier: MIT */
/*
 * Text sink: the same walk as JSON, laid out for a terminal.  Scalars of a
 * map go on one line as key=value; each nested map or array starts an
 * indented line of its own.
 */
#include <stdlib.h>
#include <string.h>

#include "emit.h"

#define MAXDEPTH 16

struct tsink {
        FILE *out;
        int depth;
        bool is_array[MAXDEPTH];
        unsigned idx[MAXDEPTH];
        char key[64];
        bool reopen; /* a nested map or array just closed: continue on a fresh line */
};

static void indent(struct tsink *t)
{
        fputc('\n', t->out);
        for (int i = 1; i < t->depth; i++)
                fputs("  ", t->out);
}

static void t_begin(void *c)
{
        struct tsink *t = c;
        t->depth = 0;
        t->key[0] = '\0';
        t->reopen = false;
}

static void t_end(void *c)
{
        fputc('\n', ((struct tsink *)c)->out);
}

static void t_key(void *c, const char *k)
{
        struct tsink *t = c;
        snprintf(t->key, sizeof(t->key), "%s", k);
}

static void open(struct tsink *t, bool array)
{
        t->reopen = false;
        if (t->depth > 0 && t->depth < MAXDEPTH) {
                indent(t);
                if (t->is_array[t->depth - 1])
                        fprintf(t->out, "  [%u]", t->idx[t->depth - 1]++);
                else
                        fprintf(t->out, "  %s:", t->key);
        }
        if (t->depth < MAXDEPTH) {
                t->is_array[t->depth] = array;
                t->idx[t->depth] = 0;
        }
        t->depth++;
}

static void t_map_open(void *c)
{
        open(c, false);
}
static void t_array_open(void *c)
{
        open(c, true);
}
static void t_close(void *c)
{
        struct tsink *t = c;
        t->depth--;
        t->reopen = true;
}

static void scalar_prefix(struct tsink *t)
{
        bool first = t->depth == 1 && t->idx[0]++ == 0;
        if (t->reopen) {
                fputc('\n', t->out);
                for (int i = 0; i < t->depth; i++)
                        fputs("  ", t->out);
                t->reopen = false;
        } else if (!first) {
                fputc(' ', t->out);
        }
        if (t->depth > 0 && t->depth <= MAXDEPTH && !t->is_array[t->depth - 1])
                fprintf(t->out, "%s=", t->key);
}

static void t_num(void *c, const char *lit)
{
        scalar_prefix(c);
        fputs(lit, ((struct tsink *)c)->out);
}

static void t_str(void *c, const char *s, size_t n)
{
        struct tsink *t = c;
        scalar_prefix(t);
        bool plain = n > 0;
        for (size_t i = 0; i < n; i++)
                if (s[i] == ' ' || s[i] == '"' || s[i] == '\\' || s[i] == '=')
                        plain = false;
        if (plain) {
                fwrite(s, 1, n, t->out);
                return;
        }
        fputc('"', t->out);
        for (size_t i = 0; i < n; i++) {
                if (s[i] == '"' || s[i] == '\\')
                        fputc('\\', t->out);
                fputc(s[i], t->out);
        }
        fputc('"', t->out);
}

static void t_bool(void *c, bool b)
{
        scalar_prefix(c);
        fputs(b ? "true" : "false", ((struct tsink *)c)->out);
}

static void t_null(void *c)
{
        scalar_prefix(c);
        fputs("-", ((struct tsink *)c)->out);
}

static void t_destroy(void *c)
{
        free(c);
}

/* Text writes what it is given: there is no structure to get out of step. */
static bool t_ok(void *c)
{
        (void)c;
        return true;
}

bool zmon_sink_text(struct zmon_sink *s, FILE *out)
{
        *s = (struct zmon_sink){0}; /* defined when false too */
        struct tsink *t = calloc(1, sizeof(*t));
        if (!t)
                return false;
        t->out = out;
        *s =
            (struct zmon_sink){t,       t_begin, t_end, t_key,  t_map_open, t_close,   t_array_open,
                               t_close, t_num,   t_str, t_bool, t_null,     t_destroy, t_ok};
        return true;
}
