/* SPDX-License-Identifier: MIT */
/*
 * The decoder as its programs see it: the zvm and write_zvm plugins, zvmmon
 * and zvmsim include this header and no other from decoder/ (make
 * check-layers refuses anything else).  Each header below is public as a
 * whole; the rest of decoder/ (metric modules, compiled readers, sources'
 * internals, LayoutFile's parser) may change without a consumer knowing.
 * Tests may include any header, to test a part on its own.
 */
#ifndef ZVMDEC_H
#define ZVMDEC_H

/* Foundation: byte views over wire data, EBCDIC, the TOD clock, error kinds,
 * integers as text, the hash index the plugin's and top's tables reuse, and
 * the order of arrival the plugin's series guess by. */
#include "base/ebcdic.h"
#include "base/err.h"
#include "base/hash.h"
#include "base/numtext.h"
#include "base/order.h"
#include "base/tod.h"
#include "base/view.h"

/* Records (struct zd_record, the decoder and its handler) and the sources
 * that feed it: monreader data sets, captures, MONWRITE files, tapes. */
#include "record/record.h"
#include "source/source.h"

/* Layouts: fields by name, walked for the dump, written by zvmsim; the
 * names of domains and records; LayoutFile. */
#include "layout/lay_file.h"
#include "layout/layout.h"
#include "layout/registry.h"

/* Payload families: Linux APPLDATA and LNXAPPL, VM/370 tapes, write_zvm. */
#include "payload/appldata/appl.h"
#include "payload/vm370/vm370.h"
#include "payload/wzvm/wzvm_format.h"

/* Metrics: the engine, the plugin's process selection, the conservation
 * laws' verdicts (top and the self-metrics show them) and the CP metric
 * table (zvmmon metrics writes doc/metrics-cp.md from it). */
#include "metric/cp/met_cp_metrics.h"
#include "metric/met_verify.h"
#include "metric/metric.h"
#include "metric/procsel.h"

#endif
