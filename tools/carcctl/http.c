/*
 * http.c — carcctl's requests to carcd: one libcurl easy handle a request, the answer read whole and parsed as
 * JSON; must() ends the program with the problem's detail when the status is not the one wanted (exit 3).
 */
#include <curl/curl.h>

#include "carcctl.h"

typedef struct {
    char *p;
    size_t len;
} buf_t;

static size_t on_body(char *data, size_t size, size_t n, void *arg)
{
    buf_t *b = arg;
    char *q = realloc(b->p, b->len + size * n + 1);
    if (!q)
        return 0;
    memcpy(q + b->len, data, size * n);
    b->p = q;
    b->len += size * n;
    b->p[b->len] = 0;
    return size * n;
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
    buf_t b = {calloc(1, 1), 0};
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
    else
        say_failed(method, url, curl_easy_strerror(rc), NULL);
    curl_slist_free_all(hl);
    curl_easy_cleanup(h);
    free(text);
    json_t *j = b.len ? json_loadb(b.p, b.len, 0, NULL) : NULL;
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
