/* SPDX-License-Identifier: MIT */
/*
 * The LayoutFile parser (format: doc/layoutfile.md).  Line based, strict:
 * every error names its line, and a file with any error registers nothing.
 * This file holds the files loaded, their lines and the lines' words, and
 * registers what a file declares; what each keyword may say, and how an
 * error is said, is lay_file_rules.c, which calls nothing here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/lay_file.h"
#include "layout/lay_file_int.h"

static struct blob *blobs; /* every file loaded, newest first */

static void blob_free(struct blob *b)
{
        if (!b)
                return;
        for (size_t i = 0; i < b->nl; i++)
                free((void *)b->l[i].fields);
        free(b->l);
        for (size_t i = 0; i < b->nstr; i++)
                free(b->str[i]);
        free(b->str);
        free(b);
}

/* Split a line into tokens: bare words, or "quoted strings" with \" and \\ escapes. */
#define MAXTOK 16
static int tokenize(struct parser *p, char *s, char *tok[MAXTOK])
{
        int n = 0;
        for (;;) {
                while (*s == ' ' || *s == '\t')
                        s++;
                if (!*s || *s == '#')
                        return n;
                if (n == MAXTOK) {
                        zlf_fail(p, "too many words on the line");
                        return -1;
                }
                if (*s == '"') {
                        char *o = ++s;
                        tok[n++] = o;
                        for (;;) {
                                if (!*s) {
                                        zlf_fail(p, "unterminated quoted string");
                                        return -1;
                                }
                                if (*s == '\\' && (s[1] == '"' || s[1] == '\\')) {
                                        *o++ = s[1];
                                        s += 2;
                                        continue;
                                }
                                if (*s == '"')
                                        break;
                                *o++ = *s++;
                        }
                        s++;
                        if (*s && *s != ' ' && *s != '\t') {
                                zlf_fail(p, "text after a closing quote");
                                return -1;
                        }
                        if (*s)
                                s++;
                        *o = '\0';
                        continue;
                }
                tok[n++] = s;
                while (*s && *s != ' ' && *s != '\t')
                        s++;
                if (*s)
                        *s++ = '\0';
        }
}

static bool parse(struct parser *p, const char *text, size_t len)
{
        char line[ZL_FILE_MAX_LINE + 1];
        size_t pos = 0;
        if (len > ZL_FILE_MAX_BYTES)
                return zlf_fail(p, "file larger than %u bytes", ZL_FILE_MAX_BYTES);
        while (pos < len) {
                p->line++;
                size_t n = 0;
                while (pos < len && text[pos] != '\n') {
                        unsigned char c = (unsigned char)text[pos++];
                        if (c == '\r' && (pos == len || text[pos] == '\n'))
                                continue;
                        if (c == 0 || (c < 0x20 && c != '\t') || c == 0x7F)
                                return zlf_fail(p, "control character 0x%02X", c);
                        if (n == ZL_FILE_MAX_LINE)
                                return zlf_fail(p, "line longer than %u bytes", ZL_FILE_MAX_LINE);
                        line[n++] = (char)c;
                }
                pos++; /* the newline */
                line[n] = '\0';
                char *t[MAXTOK];
                int nt = tokenize(p, line, t);
                if (nt < 0)
                        return false;
                if (nt == 0)
                        continue;
                bool ok;
                if (strcmp(t[0], "layout") == 0)
                        ok = zlf_layout(p, t, nt);
                else if (strcmp(t[0], "field") == 0)
                        ok = zlf_field(p, t, nt);
                else if (strcmp(t[0], "end") == 0)
                        ok = nt == 1
                                 ? (p->open ? zlf_end(p) : zlf_fail(p, "\"end\" without layout"))
                                 : zlf_fail(p, "text after \"end\"");
                else
                        ok = zlf_fail(p, "unknown keyword \"%s\" (layout, field, end)", t[0]);
                if (!ok)
                        return false;
        }
        if (p->open)
                return zlf_fail(p, "file ends inside layout %s of line %u (missing \"end\")",
                                p->b->l[p->b->nl - 1].id, p->open_line);
        if (!p->b->nl) {
                p->line = 0;
                return zlf_fail(p, "no layout in the file");
        }
        return true;
}

bool zl_load_text(const char *text, size_t len, const char *name, char *err, size_t errlen)
{
        struct parser p = {.name = name ? name : "layouts", .err = err, .errlen = errlen};
        if (errlen)
                err[0] = '\0';
        p.b = calloc(1, sizeof(*p.b));
        if (!p.b)
                return zlf_fail(&p, "out of memory");
        if (!parse(&p, text, len)) {
                /* the open layout's fields are not yet owned by the blob */
                if (p.open)
                        p.b->l[p.b->nl - 1].fields = NULL;
                free(p.f);
                blob_free(p.b);
                return false;
        }
        for (size_t i = 0; i < p.b->nl; i++)
                if (!zl_register(&p.b->l[i])) {
                        p.line = 0;
                        zl_file_unload_all();
                        blob_free(p.b);
                        return zlf_fail(&p, "out of memory registering layouts");
                }
        p.b->next = blobs;
        blobs = p.b;
        return true;
}

bool zl_load_file(const char *path, char *err, size_t errlen)
{
        struct parser p = {.name = path, .err = err, .errlen = errlen};
        FILE *fp = fopen(path, "rb");
        if (!fp)
                return zlf_fail(&p, "cannot open: %s", strerror(errno));
        char *buf = malloc(ZL_FILE_MAX_BYTES + 1);
        if (!buf) {
                fclose(fp);
                return zlf_fail(&p, "out of memory");
        }
        errno = 0;
        size_t n = fread(buf, 1, ZL_FILE_MAX_BYTES + 1, fp);
        int rerr = ferror(fp) ? (errno ? errno : EIO) : 0; /* EISDIR: a directory opens */
        fclose(fp);
        if (rerr) {
                free(buf);
                return zlf_fail(&p, "read error: %s", strerror(rerr));
        }
        if (n > ZL_FILE_MAX_BYTES) {
                free(buf);
                return zlf_fail(&p, "file larger than %u bytes", ZL_FILE_MAX_BYTES);
        }
        bool ok = zl_load_text(buf, n, path, err, errlen);
        free(buf);
        return ok;
}

void zl_file_unload_all(void)
{
        zl_unregister_all();
        while (blobs) {
                struct blob *b = blobs;
                blobs = b->next;
                blob_free(b);
        }
}
