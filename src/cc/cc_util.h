/*
 * cc_util.h -- small helpers shared by the librocc algorithms (pure, inline,
 * no state): the "why" message of a parameter check.
 */
#ifndef ROCC_CC_UTIL_H
#define ROCC_CC_UTIL_H

#include <stddef.h>
#include <string.h>

/* Copy msg into why (truncated, NUL-terminated; why may be NULL) and
 * return -1: the failure value of every *_params_check(). */
static inline int cc_fail(char *why, size_t why_len, const char *msg)
{
    if (why && why_len) {
        size_t n = strlen(msg);
        if (n >= why_len)
            n = why_len - 1;
        memcpy(why, msg, n);
        why[n] = '\0';
    }
    return -1;
}

#endif
