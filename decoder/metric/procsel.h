/* SPDX-License-Identifier: MIT */
/*
 * Which of a guest's processes (mon_procd's per-task records, LNXAPPL
 * applid 2 record 1) are aggregated into collectd's processes-plugin series,
 * and under which names.  The semantics are those of collectd's processes
 * plugin, applied to every guest that runs mon_procd:
 *   Process "NAME"               tasks whose command name (the comm of
 *                                /proc/PID/stat, at most 15 bytes) is NAME
 *   ProcessMatch "NAME" "REGEX"  tasks whose command line matches the POSIX
 *                                extended REGEX (the command name when the
 *                                command line is empty, as for kernel threads)
 * A task is counted under every entry it matches.  An entry may be limited
 * to guests (shell patterns on the upper-case userid, as IncludeGuest);
 * without a guest pattern it applies to every guest.
 *
 * The plugin builds the selection from its configuration and hands it to the
 * engine in zm_options.procs; the engine (met_procd.c) does the matching and
 * the aggregation, so zvmmon and the tests get the same values.
 */
#ifndef ZD_PROCSEL_H
#define ZD_PROCSEL_H

#include <stdbool.h>
#include <stddef.h>

struct zm_procsel;

struct zm_procsel *zm_procsel_new(void);
void zm_procsel_free(struct zm_procsel *s);
/*
 * Add an entry: regex NULL for Process, else ProcessMatch.  false with a
 * sentence in err when the name cannot be a plugin instance (empty, 128
 * bytes or more, '/' or control characters), is already used, or the regex
 * does not compile (regerror's words).
 */
bool zm_procsel_add(struct zm_procsel *s, const char *name, const char *regex, char *err,
                    size_t errsz);
/* Limit the last entry added to guests matching pattern (fnmatch, upper case). */
bool zm_procsel_add_guest(struct zm_procsel *s, const char *pattern);
size_t zm_procsel_count(const struct zm_procsel *s);
const char *zm_procsel_name(const struct zm_procsel *s, size_t i);
/* Does entry i apply to this guest (upper-case userid)? */
bool zm_procsel_guest(const struct zm_procsel *s, size_t i, const char *userid);
/*
 * Does entry i select a task with this command name and command line (not
 * NUL-terminated; trailing blanks are ignored, as collectd trims them)?
 */
bool zm_procsel_match(const struct zm_procsel *s, size_t i, const char *cmd, size_t cmdlen,
                      const char *line, size_t linelen);

#endif
