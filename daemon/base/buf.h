/*
 * buf.h — a growing text buffer, the one the daemon's text builders (SVG, the game page, webhook texts,
 * SSE frames) write into. The text is always NUL-terminated; p is the caller's to free. Out of memory
 * aborts (docs/STYLE.md).
 */
#ifndef CD_BUF_H
#define CD_BUF_H

#include <stddef.h>

typedef struct {
    char *p;
    size_t len, cap;
} cd_buf;

void cd_buf_add(cd_buf *b, const char *s, size_t n);
void cd_buf_str(cd_buf *b, const char *s);
void cd_buf_printf(cd_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as HTML or XML character data, or a quoted attribute's value: & < > " ' escaped, and the C0 control
 * characters other than tab and newline dropped (XML 1.0 allows no others; HTML calls them parse errors).
 * The one escaper of the pages, the mails' HTML and the SVG board. NULL writes nothing. */
void cd_buf_html(cd_buf *b, const char *s);

#endif
