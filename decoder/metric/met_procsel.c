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
