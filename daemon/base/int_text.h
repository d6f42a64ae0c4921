/*
 * int_text.h — an integer's decimal text without snprintf. A move formats its seq and seats for its
 * statements' parameters and its answer, and every request its log line's numbers, and snprintf's format
 * parsing cost several times the digits (bench/move-instructions.sh, issue 21).
 */
#ifndef CD_INT_TEXT_H
#define CD_INT_TEXT_H

#include <stddef.h>
#include <string.h>

#define CD_INT_TEXT 21   /* "-9223372036854775808" and its NUL */

/* Writes v's digits and a NUL into out; returns their length (the NUL not counted). */
static inline size_t cd_int_text(long long v, char out[CD_INT_TEXT])
{
    char tmp[CD_INT_TEXT];
    size_t k = sizeof tmp;
    /* from the last digit back; the magnitude as unsigned, which LLONG_MIN has too */
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do
        tmp[--k] = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (v < 0)
        tmp[--k] = '-';
    size_t n = sizeof tmp - k;
    memcpy(out, tmp + k, n);
    out[n] = '\0';
    return n;
}

#endif
