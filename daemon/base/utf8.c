/*
 * utf8.c — see utf8.h.
 */
#include "utf8.h"

#include <stdio.h>

/* The next code point of s[*i..n), advancing *i; -1 for a malformed or overlong sequence, a surrogate or a
 * value past U+10FFFF (*i then unchanged). */
static long next_cp(const unsigned char *s, size_t n, size_t *i)
{
    unsigned char c = s[*i];
    long cp;
    size_t len;
    if (c < 0x80) {
        cp = c;
        len = 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        cp = c & 0x1F;
        len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        cp = c & 0x0F;
        len = 3;
    } else if (c >= 0xF0 && c <= 0xF4) {
        cp = c & 0x07;
        len = 4;
    } else {
        return -1;
    }
    if (*i + len > n)
        return -1;
    for (size_t k = 1; k < len; k++) {
        unsigned char d = s[*i + k];
        if ((d & 0xC0) != 0x80)
            return -1;
        cp = cp << 6 | (d & 0x3F);
    }
    static const long min_of_len[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_of_len[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return -1;
    *i += len;
    return cp;
}

/* What cp is when a person's text may not hold it (utf8.h); NULL when it may. */
static const char *refused(long cp, bool newline_ok)
{
    if ((cp < 0x20 && !(cp == '\n' && newline_ok)) || (cp >= 0x7F && cp <= 0x9F))
        return "control character";
    if ((cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069))
        return "bidirectional control";
    if ((cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE)
        return "noncharacter";
    return NULL;
}

/* White space or an invisible space: what a text may not consist of alone. */
static bool blank(long cp)
{
    return cp == ' ' || cp == '\n' || cp == 0xA0 || cp == 0x3000 || (cp >= 0x2000 && cp <= 0x200B);
}

bool cd_utf8_text_ok(const char *text, size_t len, size_t max_chars, bool newline_ok, const char *field, char *why,
                     size_t whylen)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0, chars = 0;
    bool visible = false;
    while (i < len) {
        size_t at = i;
        long cp = next_cp(s, len, &i);
        if (cp < 0) {
            snprintf(why, whylen, "%s: not valid UTF-8 at byte %zu", field, at);
            return false;
        }
        if (++chars > max_chars) {
            snprintf(why, whylen, "%s: more than %zu characters", field, max_chars);
            return false;
        }
        const char *what = refused(cp, newline_ok);
        if (what) {
            snprintf(why, whylen, "%s: character %zu is a %s (U+%04lX)%s", field, chars, what, cp,
                     newline_ok && cp < 0x20 ? "; only the line feed is allowed" : "");
            return false;
        }
        visible = visible || !blank(cp);
    }
    if (!visible) {
        snprintf(why, whylen, "%s: expected 1 to %zu characters, not only white space", field, max_chars);
        return false;
    }
    return true;
}
