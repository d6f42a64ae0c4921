/*
 * utf8.h — UTF-8 text from outside: decoded a character at a time, judged for what a person's text (a name,
 * a message) may hold, and cut short without splitting a character. Names and messages are shown to the
 * other players in the page, the board pictures (SVG is XML, PNG through cairo), mails and chat webhooks, each
 * of which refuses or garbles malformed UTF-8, controls and noncharacters, and a bidirectional control lets
 * one text reorder the words shown around it.
 */
#ifndef CD_UTF8_H
#define CD_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Whether text (len bytes) is a person's text of 1 to max_chars characters (code points): valid UTF-8 (no
 * overlong form, surrogate or value past U+10FFFF), not only white space, and no control character (C0 but
 * the line feed when newline_ok, DEL, C1), bidirectional control (U+202A-202E, U+2066-2069) or noncharacter
 * (U+FDD0-FDEF, U+nFFFE, U+nFFFF). Otherwise false with why ("<field>: character 3 is a bidirectional control
 * (U+202E)"). */
bool cd_utf8_text_ok(const char *text, size_t len, size_t max_chars, bool newline_ok, const char *field, char *why,
                     size_t whylen);

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
