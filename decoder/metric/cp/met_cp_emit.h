/* SPDX-License-Identifier: MIT */
/* The CP metrics (met_cp_emit.c): the table of met_cp_metrics.h, emitted as the laws allow. */
#ifndef ZD_MET_CP_EMIT_H
#define ZD_MET_CP_EMIT_H

#include "metric/cp/met_cp_tab.h"

/* Every metric of the interval being closed. */
void cp_emit_all(struct zm_engine *e, struct cp_state *s);
#endif
