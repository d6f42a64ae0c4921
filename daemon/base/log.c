/*
 * log.c — one JSON object per line on stderr (see log.h).
 */
#include "log.h"

#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "json_out.h"

void cd_log_timestamp(char *buf, size_t len)
{
    /* every request's log line starts with one: the date and time of the second are formatted once a second
     * per thread (gmtime_r and strftime were a fifth of the line's cost), only the milliseconds each time */
    static _Thread_local time_t cached_sec = -1;
    static _Thread_local char cached[32];
    static _Thread_local size_t cached_len;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (ts.tv_sec != cached_sec) {
        struct tm tm;
        gmtime_r(&ts.tv_sec, &tm);
        /* strftime, not "%04d-...": gcc -O3 cannot bound tm's fields and calls the snprintf truncated */
        cached_len = strftime(cached, sizeof cached, "%Y-%m-%dT%H:%M:%S", &tm);
        cached_sec = cached_len > 0 ? ts.tv_sec : -1;
    }
    unsigned ms = (unsigned)(ts.tv_nsec / 1000000) % 1000u;
    char tail[6] = {'.', (char)('0' + ms / 100), (char)('0' + ms / 10 % 10), (char)('0' + ms % 10), 'Z', 0};
    if (cached_len == 0 || cached_len + sizeof tail > len) {
        if (len > 0)
            buf[0] = '\0';
        return;
    }
    memcpy(buf, cached, cached_len);
    memcpy(buf + cached_len, tail, sizeof tail);
}

static void write_all(const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(STDERR_FILENO, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return;   /* nowhere left to report it */
        }
        p += w;
        n -= (size_t)w;
    }
}

void cd_log_json(json_t *fields)
{
    char ts[40];
    cd_log_timestamp(ts, sizeof ts);
    /* {"ts":"<ts>", then the fields' own compact text after its '{': the same bytes as one object with ts
     * first, without copying every field into a second object (this runs once per request); ts itself is
     * digits and "-:.TZ", nothing to escape, and no caller names a field "ts" */
    bool any = json_object_size(fields) > 0;
    char *text = any ? cd_json_dumps(fields, JSON_COMPACT | JSON_REAL_PRECISION(6)) : NULL;
    json_decref(fields);
    if (any && !text)
        abort();
    const char *rest = any ? text + 1 : "}";
    size_t n = 8 + strlen(ts) + any + strlen(rest) + 1;
    char *out = malloc(n + 1);
    if (!out)
        abort();
    snprintf(out, n + 1, "{\"ts\":\"%s\"%s%s\n", ts, any ? "," : "", rest);
    free(text);
    write_all(out, n);
    free(out);
}

/* ---- a line without a tree -------------------------------------------------------------------------- */

void cd_log_line_begin(cd_log_line *l)
{
    static const char open[] = "{\"ts\":\"";
    memcpy(l->p, open, sizeof open - 1);
    cd_log_timestamp(l->p + sizeof open - 1, sizeof l->p - sizeof open);
    l->len = strlen(l->p);
    l->p[l->len++] = '"';
}

/* Whether s is valid UTF-8 (what json_string accepts). */
static bool utf8_ok(const unsigned char *s)
{
    while (*s) {
        int more = *s < 0x80 ? 0 : (*s & 0xe0) == 0xc0 ? 1 : (*s & 0xf0) == 0xe0 ? 2 : (*s & 0xf8) == 0xf0 ? 3 : -1;
        if (more < 0 || (more == 1 && *s < 0xc2) || (more == 3 && *s > 0xf4))
            return false;
        unsigned cp = more == 0 ? *s : *s & (0x3f >> more);
        s++;
        for (int i = 0; i < more; i++, s++) {
            if ((*s & 0xc0) != 0x80)
                return false;
            cp = cp << 6 | (*s & 0x3f);
        }
        if ((more == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (more == 3 && (cp < 0x10000 || cp > 0x10ffff)))
            return false;
    }
    return true;
}

/* ,"key": then v as jansson writes a string (escapes as its dump_string, UTF-8 as it is); the member is
 * dropped when it does not fit */
void cd_log_line_str(cd_log_line *l, const char *key, const char *v)
{
    static const char hex[] = "0123456789ABCDEF";
    bool lossy = !utf8_ok((const unsigned char *)v);
    size_t start = l->len, cap = sizeof l->p - 8;   /* room for the closing brace, newline and NUL */
    size_t o = l->len;
    int k = snprintf(l->p + o, cap - o, ",\"%s\":\"", key);
    if (k < 0 || (size_t)k >= cap - o)
        return;
    o += (size_t)k;
    for (const unsigned char *c = (const unsigned char *)v; *c; c++) {
        if (o + 6 >= cap) {
            l->len = start;
            return;
        }
        unsigned char ch = lossy && *c >= 0x80 ? '?' : *c;
        const char *esc = ch == '"' ? "\\\"" : ch == '\\' ? "\\\\" : ch == '\b' ? "\\b" : ch == '\f' ? "\\f"
                        : ch == '\n' ? "\\n" : ch == '\r' ? "\\r" : ch == '\t' ? "\\t" : NULL;
        if (esc) {
            l->p[o++] = esc[0];
            l->p[o++] = esc[1];
        } else if (ch < 0x20) {
            memcpy(l->p + o, "\\u00", 4);
            l->p[o + 4] = hex[ch >> 4];
            l->p[o + 5] = hex[ch & 15];
            o += 6;
        } else {
            l->p[o++] = (char)ch;
        }
    }
    l->p[o++] = '"';
    l->len = o;
}

void cd_log_line_int(cd_log_line *l, const char *key, long long v)
{
    size_t cap = sizeof l->p - 8;
    int k = snprintf(l->p + l->len, cap - l->len, ",\"%s\":%lld", key, v);
    if (k > 0 && (size_t)k < cap - l->len)
        l->len += (size_t)k;
}

/* jansson's text of a real at precision 6: "%.6g", ".0" added to what looks like an integer, the exponent
 * without its '+' and leading zeros */
void cd_log_line_real(cd_log_line *l, const char *key, double v)
{
    char num[48];
    snprintf(num, sizeof num, "%.6g", v);
    if (!strchr(num, '.') && !strchr(num, 'e') && strlen(num) + 2 < sizeof num)
        strcat(num, ".0");
    char *e = strchr(num, 'e');
    if (e) {
        char *from = e + 1, *to = e + 1;
        if (*from == '+')
            from++;
        else if (*from == '-')
            *to++ = *from++;
        while (*from == '0' && from[1])
            from++;
        memmove(to, from, strlen(from) + 1);
    }
    size_t cap = sizeof l->p - 8;
    int k = snprintf(l->p + l->len, cap - l->len, ",\"%s\":%s", key, num);
    if (k > 0 && (size_t)k < cap - l->len)
        l->len += (size_t)k;
}

void cd_log_line_end(cd_log_line *l)
{
    l->p[l->len++] = '}';
    l->p[l->len++] = '\n';
    write_all(l->p, l->len);
}

void cd_log(const char *level, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_t *o = json_object();
    json_object_set_new(o, "level", json_string(level));
    /* a message can carry bytes from outside (a libpq error quoting input): keep the line valid JSON */
    json_t *m = json_string(msg);
    json_object_set_new(o, "msg", m ? m : json_string("(message not UTF-8)"));
    cd_log_json(o);
}
