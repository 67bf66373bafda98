/* SPDX-License-Identifier: MIT */
/* Closing a CP sample interval (met_cp_close.c): deltas, laws, metrics, roll. */
#ifndef ZD_MET_CP_CLOSE_H
#define ZD_MET_CP_CLOSE_H

#include "metric/cp/met_cp_tab.h"

/* Close the interval: nothing happens when no entry has readings. */
void cp_close(struct zm_engine *e, struct cp_state *s);
/* What the closes keep from one interval to the next besides the tables: when the state goes. */
void cp_close_free(struct cp_state *s);
#endif
