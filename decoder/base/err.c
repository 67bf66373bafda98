/* SPDX-License-Identifier: MIT */
#include "base/err.h"

static const char *const names[] = {
    "none",
#define X(sym, name, desc) name,
#include "base/err_kinds.def"
#undef X
};

static const char *const descs[] = {
    "no error",
#define X(sym, name, desc) desc,
#include "base/err_kinds.def"
#undef X
};

const char *zd_err_name(enum zd_err_kind k)
{
        return (unsigned)k < ZD_E__COUNT ? names[k] : "invalid";
}

const char *zd_err_desc(enum zd_err_kind k)
{
        return (unsigned)k < ZD_E__COUNT ? descs[k] : "invalid error kind";
}
