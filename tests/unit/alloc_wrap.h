/* SPDX-License-Identifier: MIT */
/*
 * Every heap request of the code under test, seen through the linker: a test
 * built with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc (tests/module.mk,
 * plugin/module.mk) includes this once and defines alloc_seen(), called with
 * the bytes asked for before the request goes on to the C library.  For tests
 * that bound what input can make the code reserve, or that count allocations
 * in a steady state.  A binary linked without the flags does not link at all
 * (__real_malloc is undefined), so the counts cannot quietly stay 0.
 */
#ifndef ZT_ALLOC_WRAP_H
#define ZT_ALLOC_WRAP_H

#include <stddef.h>

static void alloc_seen(size_t bytes);

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);

void *__wrap_malloc(size_t n)
{
        alloc_seen(n);
        return __real_malloc(n);
}

void *__wrap_calloc(size_t k, size_t n)
{
        /* saturated: a request whose product overflows is the largest there is */
        alloc_seen(n && k > (size_t)-1 / n ? (size_t)-1 : k * n);
        return __real_calloc(k, n);
}

void *__wrap_realloc(void *p, size_t n)
{
        alloc_seen(n);
        return __real_realloc(p, n);
}

#endif
