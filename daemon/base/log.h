/*
 * log.h — carcd's log: one JSON object per line on stderr, each starting with "ts" (UTC, ISO 8601, ms).
 *
 * Every line goes out whole in one write(2), so lines from different threads never interleave. The requests'
 * lines (cd_log_line_end) are gathered and written several at a time once cd_log_buffer_start ran: at most
 * flush_ms after they were written here (CARCD_LOG_FLUSH_MS), at once when 64 KiB are waiting, before any
 * cd_log or cd_log_json line (those are never held back), at exit and on a crash (a fatal signal); a SIGKILL
 * loses what waits. What is logged is
 * the caller's choice and responsibility: never a bearer token, a request body, a seed or a hidden order.
 * The HTTP layer writes one line per request (http/server.c); everything else uses cd_log.
 */
#ifndef CD_LOG_H
#define CD_LOG_H

#include <jansson.h>
#include <stddef.h>

/* Writes {"ts":..., <fields>...} as one line. Steals `fields` (a JSON object). */
void cd_log_json(json_t *fields);
/* Writes {"ts":..., "level":level, "msg":<formatted>}. level: "info", "warn", "error". */
void cd_log(const char *level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A line written member by member without a tree, for the line of every request (http/server.c): the same bytes as
 * cd_log_json of an object with those members in that order (strings that are not UTF-8 have every byte past
 * ASCII as '?', as http/reply.c's string_lossy makes them). Members past the buffer are dropped, never half written. */
typedef struct {
    char p[8192];
    size_t len;
} cd_log_line;
void cd_log_line_begin(cd_log_line *l);                               /* {"ts":"..." */
void cd_log_line_str(cd_log_line *l, const char *key, const char *v);  /* ,"key":"v" */
void cd_log_line_int(cd_log_line *l, const char *key, long long v);
/* ,"key":<us / 1000>.<three digits>: a duration in milliseconds to the microsecond, exact at every size */
void cd_log_line_ms(cd_log_line *l, const char *key, long long us);
void cd_log_line_end(cd_log_line *l);                                 /* } and the newline, written */
/* Gathers the requests' lines from now on and starts the thread that writes them flush_ms after the first
 * (flush_ms <= 0: nothing is gathered); installs the exit and fatal-signal flushes once. -1 when the thread
 * cannot start (every line then goes out at once). */
int cd_log_buffer_start(long flush_ms);
/* Writes what was gathered, and every line at once from here; stops the thread. */
void cd_log_buffer_stop(void);
/* Writes what was gathered now. */
void cd_log_flush(void);
/* The current UTC time as "2024-05-01T12:34:56.789Z" into buf (at least 32 bytes). */
void cd_log_timestamp(char *buf, size_t len);

#endif
