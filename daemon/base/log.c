/*
 * log.c — one JSON object per line on stderr (see log.h).
 */
#include "log.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "int_text.h"
#include "json_out.h"
#include "periodic.h"

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

/* ---- the requests' lines, gathered ----------------------------------------------------------------------
 * A write(2) per request was one of a request's seven system calls and some 5 % of carcd's CPU under
 * bench/run-http-bench.sh (and a wake-up of whoever reads a pipe on stderr). With cd_log_buffer_start the
 * requests' lines are gathered in LOG_BUF_CAP bytes and written together: when the buffer is full, by the
 * flusher thread flush_ms after the first line into an empty buffer, before any other line (cd_log,
 * cd_log_json: warnings and errors go out at once, after what was gathered, so the order stays), at exit and
 * on a fatal signal. mu is held across the write, so lines leave in the order they were gathered. */
#define LOG_BUF_CAP 65536

static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;   /* the flusher waits for a first line, then flush_ms, and for the stop */
    char buf[LOG_BUF_CAP];
    volatile size_t len;   /* volatile: the fatal-signal handler reads it without mu */
    long flush_ms;   /* 0: every line is written at once (also before start and after stop) */
    bool stop;
    pthread_t thread;   /* the flusher, running while flush_ms > 0 */
} B = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

/* mu held */
static void flush_locked(void)
{
    if (B.len > 0) {
        write_all(B.buf, B.len);
        B.len = 0;
    }
}

void cd_log_flush(void)
{
    pthread_mutex_lock(&B.mu);
    flush_locked();
    pthread_mutex_unlock(&B.mu);
}

/* A line: gathered, or written at once when nothing gathers (flush_ms 0) or it is larger than the buffer. */
static void put_line(const char *p, size_t n, bool gather)
{
    pthread_mutex_lock(&B.mu);
    if (!gather || B.flush_ms == 0 || n > LOG_BUF_CAP) {
        flush_locked();
        write_all(p, n);
    } else {
        if (B.len + n > LOG_BUF_CAP)
            flush_locked();
        bool first = B.len == 0;
        memcpy(B.buf + B.len, p, n);
        B.len += n;
        if (first)
            pthread_cond_signal(&B.cv);   /* once per flush: the flusher's clock starts */
    }
    pthread_mutex_unlock(&B.mu);
}

static void *flusher_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&B.mu);
    while (!B.stop) {
        while (!B.stop && B.len == 0)
            pthread_cond_wait(&B.cv, &B.mu);
        /* the first line waits at most flush_ms; the ones after it less */
        struct timespec until = cd_deadline_after_ms(B.flush_ms);
        while (!B.stop && pthread_cond_timedwait(&B.cv, &B.mu, &until) != ETIMEDOUT) {
        }
        flush_locked();
    }
    flush_locked();
    pthread_mutex_unlock(&B.mu);
    return NULL;
}

/* A fatal signal (a crash, abort()) writes what was gathered, without mu (which the crashing thread may
 * hold: at worst a line is cut), then puts the previous action back and raises the signal again, which is
 * delivered to that action (the default, or a sanitizer's report) when the handler returns. */
static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
static struct sigaction fatal_prev[sizeof fatal_signals / sizeof fatal_signals[0]];

static void on_fatal_signal(int sig)
{
    size_t n = B.len;
    if (n > LOG_BUF_CAP)
        n = LOG_BUF_CAP;
    write_all(B.buf, n);
    B.len = 0;
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
        if (fatal_signals[i] == sig)
            sigaction(sig, &fatal_prev[i], NULL);
    raise(sig);   /* blocked while this runs: delivered to the previous action on return (also a kill -SEGV) */
}

static void flush_at_exit(void)
{
    cd_log_flush();
}

int cd_log_buffer_start(long flush_ms)
{
    if (flush_ms <= 0)
        return 0;
    static bool hooks;   /* once per process: atexit and the signal actions */
    if (!hooks) {
        hooks = true;
        atexit(flush_at_exit);
        for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
            struct sigaction sa = {0};
            sa.sa_handler = on_fatal_signal;
            sigemptyset(&sa.sa_mask);
            sigaction(fatal_signals[i], &sa, &fatal_prev[i]);
        }
    }
    pthread_mutex_lock(&B.mu);
    B.stop = false;
    B.flush_ms = flush_ms;   /* set under mu before the thread runs: it reads it there */
    pthread_mutex_unlock(&B.mu);
    if (pthread_create(&B.thread, NULL, flusher_main, NULL) != 0) {
        pthread_mutex_lock(&B.mu);
        B.flush_ms = 0;   /* no thread: every line at once, and what came meanwhile now */
        flush_locked();
        pthread_mutex_unlock(&B.mu);
        return -1;
    }
    return 0;
}

void cd_log_buffer_stop(void)
{
    pthread_mutex_lock(&B.mu);
    bool running = B.flush_ms > 0;   /* flush_ms is only above 0 while the thread runs */
    B.flush_ms = 0;   /* from here every line goes out at once */
    B.stop = true;
    pthread_cond_signal(&B.cv);
    pthread_mutex_unlock(&B.mu);
    if (running)
        pthread_join(B.thread, NULL);
    cd_log_flush();
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
    put_line(out, n, false);
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

/* The room a member may take: the closing brace, newline and NUL stay free. */
#define LINE_CAP (sizeof ((cd_log_line *)0)->p - 8)

/* Appends ,"key": followed by the n bytes of text, or nothing when they do not fit. The key is a name in
 * carcd's code (ASCII, nothing to escape). memcpy, not snprintf: this runs four to six times for every
 * request, and a snprintf was most of a member's cost (bench/move-instructions.sh). */
static void put_member(cd_log_line *l, const char *key, const char *text, size_t n)
{
    size_t k = strlen(key);
    if (l->len + k + 4 + n >= LINE_CAP)
        return;
    char *o = l->p + l->len;
    *o++ = ',';
    *o++ = '"';
    memcpy(o, key, k);
    o += k;
    *o++ = '"';
    *o++ = ':';
    memcpy(o, text, n);
    l->len = (size_t)(o + n - l->p);
}

/* ,"key": then v as jansson writes a string (escapes as its dump_string, UTF-8 as it is); the member is
 * dropped when it does not fit */
void cd_log_line_str(cd_log_line *l, const char *key, const char *v)
{
    static const char hex[] = "0123456789ABCDEF";
    bool lossy = !utf8_ok((const unsigned char *)v);
    size_t start = l->len;
    put_member(l, key, "\"", 1);
    if (l->len == start)
        return;
    size_t o = l->len;
    for (const unsigned char *c = (const unsigned char *)v; *c; c++) {
        if (o + 6 >= LINE_CAP) {
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
    char digits[CD_INT_TEXT];
    put_member(l, key, digits, cd_int_text(v, digits));
}

/* Every request's line has one: digits by hand, where a real's "%.6g" (as jansson writes it) took a fifth of the
 * line's instructions (bench/move-instructions.sh) and rounded a request over a second to six digits. */
void cd_log_line_ms(cd_log_line *l, const char *key, long long us)
{
    char num[CD_INT_TEXT + 5];
    unsigned long long mag = us < 0 ? 0ULL - (unsigned long long)us : (unsigned long long)us;
    size_t n = 0;
    if (us < 0)
        num[n++] = '-';
    n += cd_int_text((long long)(mag / 1000), num + n);
    unsigned frac = (unsigned)(mag % 1000);
    num[n++] = '.';
    num[n++] = (char)('0' + frac / 100);
    num[n++] = (char)('0' + frac / 10 % 10);
    num[n++] = (char)('0' + frac % 10);
    put_member(l, key, num, n);
}

void cd_log_line_end(cd_log_line *l)
{
    l->p[l->len++] = '}';
    l->p[l->len++] = '\n';
    put_line(l->p, l->len, true);
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
