/* SPDX-License-Identifier: MIT */
/* Command-line handling shared by the zvmsim subcommands (main.c, sim_fuse.c). */
#ifndef ZVMSIM_OPTS_H
#define ZVMSIM_OPTS_H

#include "sim.h"

struct sim_opts {
        struct sim_cfg cfg;
        const char *out, *truth, *mount;
        const char *delivery; /* run: JSON Lines of each message's fate and each control command */
        bool truth_counts;    /* truth without field values */
        bool capture;         /* write a capture instead of MONWRITE */
        bool eperm;
        bool start_given;
        unsigned long intervals;
        unsigned msglim, max_bufs;
        bool max_bufs_given; /* --max-bufs 0 is meaningful: every START gets ENOSPC */
#define SIM_MAX_FAULTS 16
        struct {
                unsigned long at; /* interval number, 0 = at start */
                const char *cmd;  /* a control-file command */
        } faults[SIM_MAX_FAULTS];
        size_t nfaults;
        double interval_s;
};

int sim_run(struct sim_opts *o); /* sim_fuse.c */

#endif
