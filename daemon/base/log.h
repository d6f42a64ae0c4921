/*
 * log.h — carcd's log: one JSON object per line on stderr, each starting with "ts" (UTC, ISO 8601, ms).
 *
 * Every line goes out in one write(2), so lines from different threads never interleave. What is logged is
 * the caller's choice and responsibility: never a bearer token, a request body, a seed or a hidden order.
 * The HTTP layer writes one line per request (http.c); everything else uses cd_log.
 */
#ifndef CD_LOG_H
#define CD_LOG_H

#include <jansson.h>
#include <stddef.h>

/* Writes {"ts":..., <fields>...} as one line. Steals `fields` (a JSON object). */
void cd_log_json(json_t *fields);
/* Writes {"ts":..., "level":level, "msg":<formatted>}. level: "info", "warn", "error". */
void cd_log(const char *level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The current UTC time as "2024-05-01T12:34:56.789Z" into buf (at least 32 bytes). */
void cd_log_timestamp(char *buf, size_t len);

#endif
