/* SPDX-License-Identifier: MIT */
/* zvmmon command line: global options, then a command (cmd_*.c, which call nothing here). */
#include <string.h>

#include "zvmdec.h"
#include "zvmmon.h"

static void usage(FILE *f)
{
        fputs("Usage: zvmmon [--layouts FILE] COMMAND [OPTIONS] ...\n"
              "Look into z/VM CP monitor data: monreader captures, MONWRITE files, data sets.\n"
              "\n"
              "Commands:\n"
              "  dump [--format json|text] [--input FMT] [--domain N] [--record N]\n"
              "       [--userid GLOB] [--hex] [--reading packed|aligned] FILE|-\n"
              "                                  every record, decoded (JSON Lines by default)\n"
              "  stat [--format text|json] [--input FMT] FILE|-\n"
              "                                  counts by domain, record and error, time range\n"
              "  capture -o FILE [--device PATH | --socket PATH] [--sets N] [--seconds N]\n"
              "                                  record monreader data sets into a capture file\n"
              "  layouts [--coverage] [--markdown]\n"
              "                                  every record layout with field provenance;\n"
              "                                  --coverage: every record named and how far\n"
              "                                  its layout declares it\n"
              "  metrics [--markdown]            every CP metric: record, fields, law\n"
              "  top [-b [--json]] [-n N] [--sort COL] [--filter GLOB] [--speed X | --step]\n"
              "      [--input FMT] [--device PATH | --socket PATH | FILE|-]\n"
              "                                  a table per interval: system, guests (full\n"
              "                                  screen, or -b for text)\n"
              "\n"
              "Global options:\n"
              "  --layouts FILE   load record layouts from FILE (doc/layoutfile.md); they win\n"
              "                   over built-in layouts with the same id and min_len\n"
              "  -h, --help       this help\n"
              "  -V, --version    version\n"
              "\n"
              "Input formats (--input, detected when omitted): capture, monwrite, dataset,\n"
              "monwriter (what a program wrote to /dev/monwriter, saved in a file), vb, tape,\n"
              "awstape (VB files, VM/370 Monitor tapes, AWSTAPE images: historic-formats.md).\n"
              "Exit status: 0 clean, 1 decoded with errors (counts on stderr), 2 unusable\n"
              "input or output, or usage error.  See zvmmon(1).\n",
              f);
}

/* argv[0] is the command's name. */
static int command(int argc, char **argv)
{
        const char *cmd = argv[0];
        /* getopt names argv[0] in its messages: "zvmmon dump: unrecognized option",
         * as every message of ours begins, not a bare "dump:". */
        char prog[64];
        snprintf(prog, sizeof(prog), "zvmmon %s", cmd);
        argv[0] = prog;
        if (!strcmp(cmd, "dump"))
                return zmon_cmd_dump(argc, argv);
        if (!strcmp(cmd, "stat"))
                return zmon_cmd_stat(argc, argv);
        if (!strcmp(cmd, "capture"))
                return zmon_cmd_capture(argc, argv);
        if (!strcmp(cmd, "top"))
                return zmon_cmd_top(argc, argv);
        if (!strcmp(cmd, "layouts"))
                return zmon_cmd_layouts(argc, argv);
        if (!strcmp(cmd, "metrics"))
                return zmon_cmd_metrics(argc, argv);
        if (!strcmp(cmd, "help")) {
                usage(stdout);
                return ZMON_OK;
        }
        fprintf(stderr, "zvmmon: unknown command '%s' (try --help)\n", cmd);
        return ZMON_UNUSABLE;
}

static int run(int argc, char **argv)
{
        int i = 1;
        for (; i < argc && argv[i][0] == '-'; i++) {
                const char *a = argv[i];
                if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
                        usage(stdout);
                        return ZMON_OK;
                }
                if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
                        printf("zvmmon %s (collectd-zvm)\n", ZVMMON_VERSION);
                        return ZMON_OK;
                }
                if (!strcmp(a, "--layouts") || !strncmp(a, "--layouts=", 10)) {
                        const char *path = a[9] == '=' ? a + 10 : (i + 1 < argc ? argv[++i] : NULL);
                        if (!path) {
                                fputs("zvmmon: --layouts needs a FILE\n", stderr);
                                return ZMON_UNUSABLE;
                        }
                        char err[256];
                        if (!zl_load_file(path, err, sizeof(err))) {
                                fprintf(stderr, "zvmmon: --layouts: %s\n", err);
                                zl_file_unload_all();
                                return ZMON_UNUSABLE;
                        }
                        continue;
                }
                fprintf(stderr, "zvmmon: unknown option %s (try --help)\n", a);
                return ZMON_UNUSABLE;
        }
        if (i >= argc) {
                usage(stderr);
                return ZMON_UNUSABLE;
        }
        int rc = command(argc - i, argv + i);
        zl_file_unload_all();
        return rc;
}

int main(int argc, char **argv)
{
        return zmon_close_stdout(run(argc, argv));
}
