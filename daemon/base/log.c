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
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    /* strftime, not "%04d-...": gcc -O3 cannot bound tm's fields and calls the snprintf truncated */
    size_t n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
    if (n > 0 && n < len)
        snprintf(buf + n, len - n, ".%03uZ", (unsigned)(ts.tv_nsec / 1000000) % 1000u);
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
