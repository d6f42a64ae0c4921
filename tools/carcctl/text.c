/*
 * text.c — the one way carcctl writes text that came from a server (names, ids, reasons, a problem's detail,
 * the board's cells) to a terminal: printable text as it is, anything that could drive the terminal (C0
 * controls, DEL, C1 controls, bytes that are not UTF-8) escaped so that it is seen, not obeyed. A player's
 * name holding "\x1b]0;...\x07" or a problem holding "\x1b[2J" would otherwise retitle or clear the admin's
 * terminal, or worse. JSON meant for machines (--json, export, import's answer) does not come here: it stays
 * byte-exact.
 */
#include "carcctl.h"

/* The length of the valid UTF-8 sequence of 2 to 4 bytes at s (n bytes left), its code point in *cp; 0 when
 * s[0] does not start one (a continuation byte, an overlong form, a surrogate, beyond U+10FFFF, cut short). */
static size_t utf8_seq(const unsigned char *s, size_t n, unsigned *cp)
{
    size_t len = s[0] >= 0xf8 ? 0 : s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
    if (len == 0 || len > n)
        return 0;
    unsigned c = s[0] & (0x7f >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        c = c << 6 | (s[i] & 0x3f);
    }
    static const unsigned least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < least[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0;
    *cp = c;
    return len;
}

/* Writes the n bytes of server text at s on f (NULL: nowhere, to measure them): printable ASCII and valid
 * UTF-8 as they are; C0 controls (newline and tab too: the output's format places its own) and DEL as \xNN,
 * C1 controls as \u00NN, a byte that is not UTF-8 as \xNN. Returns the columns written, a code point one. */
size_t put_text(FILE *f, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t cols = 0;
    for (size_t i = 0; i < n;) {
        unsigned cp = u[i];
        size_t len = u[i] < 0x80 ? 1 : utf8_seq(u + i, n - i, &cp);
        char esc[8] = "";
        if (len == 0)   /* not UTF-8: this byte alone, then on from the next */
            snprintf(esc, sizeof esc, "\\x%02x", u[i]), len = 1;
        else if (cp < 0x20 || cp == 0x7f)
            snprintf(esc, sizeof esc, "\\x%02x", cp);
        else if (cp >= 0x80 && cp <= 0x9f)
            snprintf(esc, sizeof esc, "\\u%04x", cp);
        if (f && esc[0])
            fputs(esc, f);
        else if (f)
            fwrite(u + i, 1, len, f);
        cols += esc[0] ? strlen(esc) : 1;
        i += len;
    }
    return cols;
}

/* put_text of s (NULL: ""), padded with spaces to |width| columns as printf's %*s pads: on the left when width
 * is positive, on the right when it is negative. */
void put_field(FILE *f, const char *s, int width)
{
    s = s ? s : "";
    size_t n = strlen(s), cols = put_text(NULL, s, n);
    size_t w = width < 0 ? (size_t)-(long)width : (size_t)width;
    size_t pad = cols < w ? w - cols : 0;
    for (size_t i = 0; width > 0 && i < pad; i++)
        fputc(' ', f);
    put_text(f, s, n);
    for (size_t i = 0; width < 0 && i < pad; i++)
        fputc(' ', f);
}
