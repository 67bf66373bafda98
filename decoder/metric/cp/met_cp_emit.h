/* SPDX-License-Identifier: MIT */
/* The CP metrics (met_cp_emit.c), over met_cp_tab.h; they read the law verdicts. */
#ifndef ZD_MET_CP_EMIT_H
#define ZD_MET_CP_EMIT_H

#include "metric/cp/met_cp_tab.h"

/* Emit m unless its check forbids it (then counted in hint_suppressed). */
void cp_emit(struct zm_engine *e, struct cp_state *s, struct zm_metric *m);
/* Every metric of the interval being closed. */
void cp_emit_all(struct zm_engine *e, struct cp_state *s);
#endif
