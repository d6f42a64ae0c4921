/*
 * http.c — carcctl's requests to carcd: one libcurl easy handle a request, the answer read whole (up to
 * MAX_ANSWER) and parsed as JSON; must() ends the program with the problem's detail when the status is not the
 * one wanted (exit 3).
 */
#include <curl/curl.h>

#include "carcctl.h"

typedef struct {
    char *p;
    size_t len, cap;   /* cap: what p holds, its NUL included */
    bool over;         /* the answer is longer than MAX_ANSWER: not read further */
} buf_t;

/* libcurl's write callback: appends the answer's bytes to the buf_t, doubling it as it fills. Beyond MAX_ANSWER it
 * takes nothing, so that curl stops the transfer (CURLE_WRITE_ERROR) and reads no more. */
static size_t on_body(char *data, size_t size, size_t n, void *arg)
{
    buf_t *b = arg;
    size_t k = size * n;
    if (k > MAX_ANSWER - b->len) {
        b->over = true;
        return 0;
    }
    if (b->len + k + 1 > b->cap) {
        size_t cap = b->cap < 1 << 14 ? 1 << 14 : b->cap;
        while (cap < b->len + k + 1)
            cap *= 2;
        cap = cap < MAX_ANSWER + 1 ? cap : MAX_ANSWER + 1;   /* len + k is at most MAX_ANSWER */
        char *q = realloc(b->p, cap);
        if (!q)
            return 0;
        b->p = q, b->cap = cap;
    }
    memcpy(b->p + b->len, data, k);
    b->len += k;
    b->p[b->len] = 0;
    return k;
}

/* "carcctl: METHOD WHERE: WHAT[: DETAIL]" on stderr; WHERE (the path may hold the server's text: a game id, a
 * cursor) and DETAIL (a problem's) through put_text. */
static void say_failed(const char *method, const char *where, const char *what, const char *detail)
{
    fprintf(stderr, "carcctl: %s ", method);
    put_field(stderr, where, 0);
    fprintf(stderr, ": %s", what);
    if (detail) {
        fputs(": ", stderr);
        put_field(stderr, detail, 0);
    }
    fputc('\n', stderr);
}

/* One request to `base` with bearer `tok` (may be NULL); *status gets the HTTP status (0: no answer). The body
 * parsed as JSON, or NULL (then *raw, when given, gets the text). */
json_t *http(const char *base, const char *tok, const char *method, const char *path, const json_t *body,
             long *status, char **raw)
{
    CURL *h = curl_easy_init();
    if (!h) {
        fprintf(stderr, "carcctl: curl_easy_init failed\n");
        exit(EXIT_HTTP);
    }
    char url[2048];
    snprintf(url, sizeof url, "%s%s", base, path);
    buf_t b = {calloc(1, 1), 0, 1, false};
    struct curl_slist *hl = NULL;
    char hdr[600];
    if (tok) {
        snprintf(hdr, sizeof hdr, "Authorization: Bearer %s", tok);
        hl = curl_slist_append(hl, hdr);
    }
    if (ctl_actor) {
        snprintf(hdr, sizeof hdr, "X-Carcd-Actor: %s", ctl_actor);
        hl = curl_slist_append(hl, hdr);
    }
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    if (text)
        hl = curl_slist_append(hl, "Content-Type: application/json");
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hl);
    curl_easy_setopt(h, CURLOPT_USERAGENT, "carcctl/1");
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &b);
    /* an answer whose Content-Length is over the limit is refused before its body is read (on_body: without one) */
    curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)MAX_ANSWER);
    curl_easy_setopt(h, CURLOPT_TIMEOUT, 60L);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    if (strcmp(method, "POST") == 0) {
        curl_easy_setopt(h, CURLOPT_POST, 1L);
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, text ? text : "");
    }
    CURLcode rc = curl_easy_perform(h);
    *status = 0;
    if (rc == CURLE_OK)
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
    else if (b.over || rc == CURLE_FILESIZE_EXCEEDED)
        say_failed(method, url, "the answer is larger than " MAX_ANSWER_SAID ", the most carcctl reads; not read "
                   "further", NULL);
    else
        say_failed(method, url, curl_easy_strerror(rc), NULL);
    curl_slist_free_all(hl);
    curl_easy_cleanup(h);
    free(text);
    json_t *j = b.len && rc == CURLE_OK ? json_loadb(b.p, b.len, 0, NULL) : NULL;   /* not a part of one */
    if (raw)
        *raw = b.p;
    else
        free(b.p);
    return j;
}

/* A request that must answer `want`; otherwise prints the problem and exits. */
json_t *must(const char *base, const char *tok, const char *method, const char *path, const json_t *body,
             long want)
{
    long st;
    json_t *j = http(base, tok, method, path, body, &st, NULL);
    if (st == 0) {   /* no answer: http() said why */
        json_decref(j);
        exit(EXIT_HTTP);
    }
    if (st != want) {
        char what[32];
        snprintf(what, sizeof what, "HTTP %ld", st);
        say_failed(method, path, what, json_string_value(json_object_get(j, "detail")));
        json_decref(j);
        exit(EXIT_HTTP);
    }
    if (!j) {
        say_failed(method, path, "the answer is not JSON", NULL);
        exit(EXIT_HTTP);
    }
    return j;
}
