/* SPDX-License-Identifier: MIT */
/* The conservation laws of the CP module (met_cp_laws.c), over met_cp_tab.h. */
#ifndef ZD_MET_CP_LAWS_H
#define ZD_MET_CP_LAWS_H

#include "metric/cp/met_cp_tab.h"

/* Evaluate every law over the deltas of the interval being closed. */
void cp_laws(struct zm_engine *e, struct cp_state *s);
#endif
