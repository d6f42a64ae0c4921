/*
 * utf8_cut.h — UTF-8 text cut short without splitting a character: what PostgreSQL's text columns, XML,
 * cairo and mail programs all refuse or garble is half a character at the end of a cut.
 */
#ifndef CD_UTF8_CUT_H
#define CD_UTF8_CUT_H

#include <stddef.h>

/* The length of s (len bytes) cut to at most max bytes: the cut moves back over continuation bytes
 * (10xxxxxx) to where a character starts. len itself when it is no more than max. */
static inline size_t cd_utf8_cut(const char *s, size_t len, size_t max)
{
    if (len <= max)
        return len;
    while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
        max--;
    return max;
}

#endif
