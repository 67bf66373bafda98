/* SPDX-License-Identifier: MIT */
/* JSON Lines sink: one object per line, written with libyajl. */
#include <stdlib.h>
#include <string.h>

#include <yajl_gen.h>

#include "emit.h"

struct jsink {
        FILE *out;
        yajl_gen g;
        /* yajl refuses a call (a string that is not UTF-8, a value where a key
         * belongs) and generates nothing for it: every later member would be out of
         * step.  The object is then not written, and ok() says so. */
        bool broken, failed;
};

static void check(struct jsink *j, yajl_gen_status st)
{
        if (st != yajl_gen_status_ok)
                j->broken = true;
}

static void j_begin(void *c)
{
        (void)c;
}

static void j_end(void *c)
{
        struct jsink *j = c;
        const unsigned char *buf;
        size_t len;
        if (j->broken || yajl_gen_get_buf(j->g, &buf, &len) != yajl_gen_status_ok)
                j->failed = true;
        else {
                fwrite(buf, 1, len, j->out);
                fputc('\n', j->out);
        }
        j->broken = false;
        yajl_gen_clear(j->g);
        yajl_gen_reset(j->g, NULL);
}

static void j_key(void *c, const char *k)
{
        struct jsink *j = c;
        check(j, yajl_gen_string(j->g, (const unsigned char *)k, strlen(k)));
}

static void j_map_open(void *c)
{
        check(c, yajl_gen_map_open(((struct jsink *)c)->g));
}
static void j_map_close(void *c)
{
        check(c, yajl_gen_map_close(((struct jsink *)c)->g));
}
static void j_array_open(void *c)
{
        check(c, yajl_gen_array_open(((struct jsink *)c)->g));
}
static void j_array_close(void *c)
{
        check(c, yajl_gen_array_close(((struct jsink *)c)->g));
}
static void j_num(void *c, const char *lit)
{
        check(c, yajl_gen_number(((struct jsink *)c)->g, lit, strlen(lit)));
}
static void j_str(void *c, const char *s, size_t n)
{
        check(c, yajl_gen_string(((struct jsink *)c)->g, (const unsigned char *)s, n));
}
static void j_bool(void *c, bool b)
{
        check(c, yajl_gen_bool(((struct jsink *)c)->g, b));
}

static void j_null(void *c)
{
        check(c, yajl_gen_null(((struct jsink *)c)->g));
}

static bool j_ok(void *c)
{
        return !((struct jsink *)c)->failed;
}

static void j_destroy(void *c)
{
        struct jsink *j = c;
        yajl_gen_free(j->g);
        free(j);
}

bool zmon_sink_json(struct zmon_sink *s, FILE *out)
{
        *s = (struct zmon_sink){0}; /* defined when false too */
        struct jsink *j = calloc(1, sizeof(*j));
        if (!j)
                return false;
        j->out = out;
        j->g = yajl_gen_alloc(NULL);
        if (!j->g) {
                free(j);
                return false;
        }
        /* The walk hands over ASCII or valid UTF-8 only; let yajl check anyway. */
        yajl_gen_config(j->g, yajl_gen_validate_utf8, 1);
        *s = (struct zmon_sink){j,           j_begin,      j_end,         j_key, j_map_open,
                                j_map_close, j_array_open, j_array_close, j_num, j_str,
                                j_bool,      j_null,       j_destroy,     j_ok};
        return true;
}
