/* SPDX-License-Identifier: MIT */
/* The process selection (procsel.h): names, regexes, guest patterns. */
#include <ctype.h>
#include <fnmatch.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric/metric.h"
#include "metric/procsel.h"

struct procsel_entry {
        char *name;
        regex_t re;
        bool has_re;
        char **guests;
        size_t nguests;
};

struct zm_procsel {
        struct procsel_entry *e;
        size_t n;
};

struct zm_procsel *zm_procsel_new(void)
{
        return calloc(1, sizeof(struct zm_procsel));
}

void zm_procsel_free(struct zm_procsel *s)
{
        if (!s)
                return;
        for (size_t i = 0; i < s->n; i++) {
                free(s->e[i].name);
                if (s->e[i].has_re)
                        regfree(&s->e[i].re);
                for (size_t g = 0; g < s->e[i].nguests; g++)
                        free(s->e[i].guests[g]);
                free(s->e[i].guests);
        }
        free(s->e);
        free(s);
}

/* The name becomes a plugin instance: the same rules as a host name in the plugin. */
static bool name_ok(const char *s)
{
        size_t n = strlen(s);
        if (n == 0 || n >= ZM_NAME_LEN)
                return false;
        for (; *s; s++)
                if (*s == '/' || (unsigned char)*s < 0x20 || *s == 0x7f)
                        return false;
        return true;
}

/*
 * Patterns glibc's regcomp would blow up on: it copies the tree of an
 * expression for every repetition, so stacked operators ("a++++++++",
 * "a{9}{9}{9}") and large counts take memory without bound (a fuzzed
 * ProcessMatch took 2 GB).  POSIX leaves adjacent repetition operators
 * undefined anyway; collectd's processes plugin has no use for counts above
 * 255 or patterns above 512 bytes.  NULL, or why the pattern is refused.
 */
static const char *regex_unbounded(const char *re)
{
        if (strlen(re) > 512)
                return "longer than 512 bytes";
        bool after_repeat = false;
        for (const char *p = re; *p; p++) {
                if (*p == '\\' && p[1]) {
                        p++;
                        after_repeat = false;
                        continue;
                }
                if (*p == '[') { /* a bracket expression: its characters are literal */
                        const char *q = p + 1 + (p[1] == '^');
                        q += *q == ']';
                        while (*q && *q != ']')
                                q++;
                        if (!*q)
                                break; /* regcomp says what is wrong */
                        p = q;
                        after_repeat = false;
                        continue;
                }
                bool repeat = *p == '*' || *p == '+' || *p == '?' || *p == '{';
                if (repeat && after_repeat)
                        return "repetition operators one after another (undefined in POSIX)";
                if (*p == '{') {
                        char *end;
                        for (const char *q = p + 1; *q && *q != '}'; q = end) {
                                unsigned long n = strtoul(q, &end, 10);
                                if (end == q)
                                        end = (char *)q + 1;
                                else if (n > 255)
                                        return "a repetition count above 255";
                        }
                        const char *close = strchr(p, '}');
                        if (!close)
                                break; /* regcomp says what is wrong */
                        p = close;
                }
                after_repeat = repeat;
        }
        return NULL;
}

bool zm_procsel_add(struct zm_procsel *s, const char *name, const char *regex, char *err,
                    size_t errsz)
{
        if (!name_ok(name)) {
                snprintf(err, errsz,
                         "\"%s\": a process name needs 1 to %d characters, no '/' and no control "
                         "characters",
                         name, ZM_NAME_LEN - 1);
                return false;
        }
        for (size_t i = 0; i < s->n; i++)
                if (strcmp(s->e[i].name, name) == 0) {
                        snprintf(err, errsz, "\"%s\" is configured twice", name);
                        return false;
                }
        struct procsel_entry *p = realloc(s->e, (s->n + 1) * sizeof(*p));
        if (!p) {
                snprintf(err, errsz, "out of memory");
                return false;
        }
        s->e = p;
        struct procsel_entry *e = &p[s->n];
        memset(e, 0, sizeof(*e));
        const char *unbounded = regex ? regex_unbounded(regex) : NULL;
        if (unbounded) {
                snprintf(err, errsz, "\"%s\": regular expression \"%s\" refused: %s", name, regex,
                         unbounded);
                return false;
        }
        if (regex) {
                /* REG_EXTENDED | REG_NOSUB: what collectd's processes plugin compiles. */
                int rc = regcomp(&e->re, regex, REG_EXTENDED | REG_NOSUB);
                if (rc != 0) {
                        char why[128];
                        regerror(rc, &e->re, why, sizeof(why));
                        snprintf(err, errsz,
                                 "\"%s\": regular expression \"%s\" does not compile: %s", name,
                                 regex, why);
                        return false;
                }
                e->has_re = true;
        }
        if (!(e->name = strdup(name))) {
                if (e->has_re)
                        regfree(&e->re);
                snprintf(err, errsz, "out of memory");
                return false;
        }
        s->n++;
        return true;
}

bool zm_procsel_add_guest(struct zm_procsel *s, const char *pattern)
{
        if (!s->n)
                return false;
        struct procsel_entry *e = &s->e[s->n - 1];
        char **p = realloc(e->guests, (e->nguests + 1) * sizeof(*p));
        if (!p)
                return false;
        e->guests = p;
        char *up = strdup(pattern);
        if (!up)
                return false;
        for (char *c = up; *c; c++)
                *c = (char)toupper((unsigned char)*c);
        p[e->nguests++] = up;
        return true;
}

size_t zm_procsel_count(const struct zm_procsel *s)
{
        return s ? s->n : 0;
}

const char *zm_procsel_name(const struct zm_procsel *s, size_t i)
{
        return s->e[i].name;
}

bool zm_procsel_guest(const struct zm_procsel *s, size_t i, const char *userid)
{
        const struct procsel_entry *e = &s->e[i];
        if (!e->nguests)
                return true;
        for (size_t g = 0; g < e->nguests; g++)
                if (fnmatch(e->guests[g], userid, 0) == 0)
                        return true;
        return false;
}

bool zm_procsel_match(const struct zm_procsel *s, size_t i, const char *cmd, size_t cmdlen,
                      const char *line, size_t linelen)
{
        const struct procsel_entry *e = &s->e[i];
        /* mon_procd turns the NULs between arguments into blanks; collectd trims the last. */
        while (linelen && (line[linelen - 1] == ' ' || line[linelen - 1] == 0))
                linelen--;
        if (!e->has_re)
                return strlen(e->name) == cmdlen && memcmp(e->name, cmd, cmdlen) == 0;
        const char *str = linelen ? line : cmd;
        size_t n = linelen ? linelen : cmdlen;
        char buf[4096];
        if (n >= sizeof(buf))
                n = sizeof(buf) - 1; /* collectd reads at most 4 KB of a command line */
        memcpy(buf, str, n);
        buf[n] = 0;
        return regexec(&e->re, buf, 0, NULL, 0) == 0;
}
