/* SPDX-License-Identifier: MIT */
#ifndef ZD_ERR_H
#define ZD_ERR_H

enum zd_err_kind {
        ZD_E_NONE = 0,
#define X(sym, name, desc) sym,
#include "base/err_kinds.def"
#undef X
        ZD_E__COUNT
};

const char *zd_err_name(enum zd_err_kind k);
const char *zd_err_desc(enum zd_err_kind k);

#endif
