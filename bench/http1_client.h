/*
 * http1_client.h — the HTTP/1.1 client side carcd-load needs and nothing more: one keep-alive connection (TCP
 * or a unix socket) per client, a request written with one send(), its answer read as it comes and framed by
 * Content-Length. A header of static functions, since every C file in bench/ is a program of its own.
 *
 * Why not libcurl: carcd-load shares two cores with the carcd and the PostgreSQL it measures, and its own CPU a
 * move is taken from them (docs/PERFORMANCE.md §23: 0.10–0.15 ms a move with libcurl, twice what pgbench's
 * client spends on the same moves, so the ratio against pgbench measured the load clients as well). libcurl's
 * multi interface adds, to each request, its liveness check of a reused connection, epoll changes between
 * writing and reading, its timers and its header handling. This speaks only what carcd answers these requests
 * with (a status, headers, a Content-Length body); a chunked answer, an answer without a length or a malformed
 * head is an error, never a guess.
 */
#ifndef CARC_BENCH_HTTP1_CLIENT_H
#define CARC_BENCH_HTTP1_CLIENT_H

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* Where the server is: resolved once, every connection goes there. */
typedef struct {
    struct sockaddr_storage addr;
    socklen_t addr_len;
    char host[256];     /* the Host header */
    char prefix[256];   /* the URL's path before the API's ("" for http://host:port) */
} h1_server;

typedef struct {
    int fd;             /* -1: no connection (the next request opens one) */
    char *out;          /* the request's bytes (owned), written from out_off on */
    size_t out_len, out_off;
    char *in;           /* the answer read so far, NUL-terminated (owned) */
    size_t in_len, in_cap;
    size_t body_off;    /* where the body starts; 0 until the head is complete */
    size_t body_len;    /* its Content-Length */
    int status;         /* the answer's status code, once the head is read */
    bool close_after;   /* the server said Connection: close */
} h1_conn;

typedef enum { H1_AGAIN, H1_DONE, H1_ERROR } h1_result;

/* Beyond these an answer is not one of carcd's to these requests: an error, not memory spent waiting. */
#define H1_MAX_HEAD 65536
#define H1_MAX_BODY (64u << 20)

/* "http://HOST[:PORT][/PREFIX]" (or, with unix_path, the socket there and the URL's host for Host).
 * false, with a line on stderr: a URL this client cannot use. */
static bool h1_server_init(h1_server *s, const char *url, const char *unix_path)
{
    memset(s, 0, sizeof *s);
    if (strncmp(url, "http://", 7) != 0) {
        fprintf(stderr, "http1_client: only http:// URLs: %s\n", url);
        return false;
    }
    const char *h = url + 7, *slash = strchr(h, '/');
    size_t hlen = slash ? (size_t)(slash - h) : strlen(h);
    if (hlen == 0 || hlen >= sizeof s->host || (slash && strlen(slash) >= sizeof s->prefix)) {
        fprintf(stderr, "http1_client: a URL's host or path too long or empty: %s\n", url);
        return false;
    }
    memcpy(s->host, h, hlen);
    snprintf(s->prefix, sizeof s->prefix, "%s", slash ? slash : "");
    if (unix_path) {
        struct sockaddr_un *un = (struct sockaddr_un *)&s->addr;
        if (strlen(unix_path) >= sizeof un->sun_path) {
            fprintf(stderr, "http1_client: unix socket path too long: %s\n", unix_path);
            return false;
        }
        un->sun_family = AF_UNIX;
        strcpy(un->sun_path, unix_path);
        s->addr_len = sizeof *un;
        return true;
    }
    char name[256], port[16] = "80";
    snprintf(name, sizeof name, "%s", s->host);
    char *colon = name[0] == '[' ? strstr(name, "]:") : strrchr(name, ':');
    if (colon) {   /* [v6]:port or name:port */
        char *p = name[0] == '[' ? colon + 2 : colon + 1;
        snprintf(port, sizeof port, "%s", p);
        *colon = 0;
    }
    char *node = name;
    if (node[0] == '[') {
        node++;
        node[strcspn(node, "]")] = 0;
    }
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *ai;
    int rc = getaddrinfo(node, port, &hints, &ai);
    if (rc != 0) {
        fprintf(stderr, "http1_client: %s: %s\n", s->host, gai_strerror(rc));
        return false;
    }
    memcpy(&s->addr, ai->ai_addr, ai->ai_addrlen);
    s->addr_len = ai->ai_addrlen;
    freeaddrinfo(ai);
    return true;
}

static void h1_close(h1_conn *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
}

/* A non-blocking connection to the server, its connect under way or done; false (errno set) when it failed. */
static bool h1_connect(h1_conn *c, const h1_server *s)
{
    c->fd = socket(s->addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c->fd < 0)
        return false;
    if (s->addr.ss_family != AF_UNIX) {   /* a request is one send: nothing to gain from Nagle's wait */
        int one = 1;
        setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    if (connect(c->fd, (const struct sockaddr *)&s->addr, s->addr_len) != 0 && errno != EINPROGRESS) {
        int e = errno;
        h1_close(c);
        errno = e;
        return false;
    }
    return true;
}

/* Appends a NUL-terminated piece to the request being written. */
static void h1_put(h1_conn *c, const char *p, size_t n)
{
    char *q = realloc(c->out, c->out_len + n + 1);
    if (!q) {
        fputs("http1_client: out of memory\n", stderr);
        exit(1);
    }
    c->out = q;
    memcpy(c->out + c->out_len, p, n);
    c->out_len += n;
    c->out[c->out_len] = 0;
}

static void h1_puts(h1_conn *c, const char *s)
{
    h1_put(c, s, strlen(s));
}

/* Starts a request: its head (with the optional bearer token and idempotency key) and body (NULL: a GET).
 * The answer of the last one is dropped. Write it with h1_send. */
static void h1_request(h1_conn *c, const h1_server *s, const char *path, const char *token, const char *body,
                       const char *idem)
{
    c->out_len = c->out_off = 0;
    c->in_len = c->body_off = c->body_len = 0;
    c->status = 0;
    c->close_after = false;
    h1_puts(c, body ? "POST " : "GET ");
    h1_puts(c, s->prefix);
    h1_puts(c, path);
    h1_puts(c, " HTTP/1.1\r\nHost: ");
    h1_puts(c, s->host);
    h1_puts(c, "\r\nAccept: */*\r\n");
    if (token) {
        h1_puts(c, "Authorization: Bearer ");
        h1_puts(c, token);
        h1_puts(c, "\r\n");
    }
    if (idem) {
        h1_puts(c, "Idempotency-Key: ");
        h1_puts(c, idem);
        h1_puts(c, "\r\n");
    }
    if (body) {
        char len[64];
        size_t n = strlen(body);
        snprintf(len, sizeof len, "Content-Length: %zu\r\n", n);
        h1_puts(c, "Content-Type: application/json\r\n");
        h1_puts(c, len);
        h1_puts(c, "\r\n");
        h1_put(c, body, n);
    } else {
        h1_puts(c, "\r\n");
    }
}

/* Writes what is left of the request: H1_DONE when all of it went, H1_AGAIN when the socket is full (or still
 * connecting), H1_ERROR (errno set) when the connection failed. */
static h1_result h1_send(h1_conn *c)
{
    while (c->out_off < c->out_len) {
        ssize_t n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOTCONN ? H1_AGAIN : H1_ERROR;
        }
        c->out_off += (size_t)n;
    }
    return H1_DONE;
}

/* The value of header `name` in the head [p, end), or NULL; *len its length (spaces around it cut). */
static const char *h1_header(const char *p, const char *end, const char *name, size_t *len)
{
    size_t nlen = strlen(name);
    for (const char *line = p; line < end;) {
        const char *eol = memchr(line, '\n', (size_t)(end - line));
        if (!eol)
            eol = end;
        if ((size_t)(eol - line) > nlen && line[nlen] == ':' && strncasecmp(line, name, nlen) == 0) {
            const char *v = line + nlen + 1, *ve = eol;
            while (v < ve && (*v == ' ' || *v == '\t'))
                v++;
            while (ve > v && (ve[-1] == '\r' || ve[-1] == ' ' || ve[-1] == '\t'))
                ve--;
            *len = (size_t)(ve - v);
            return v;
        }
        line = eol + 1;
    }
    return NULL;
}

/* Reads its head once it is all there: status, Content-Length, Connection. false: not an answer this client
 * takes (*why says what). */
static bool h1_parse_head(h1_conn *c, const char *head_end, const char **why)
{
    const char *p = c->in, *end = head_end;
    if (strncmp(p, "HTTP/1.1 ", 9) != 0 && strncmp(p, "HTTP/1.0 ", 9) != 0) {
        *why = "not an HTTP/1.x status line";
        return false;
    }
    char *num_end;
    long status = strtol(p + 9, &num_end, 10);
    if (num_end != p + 12 || status < 100 || status > 599) {
        *why = "a malformed status code";
        return false;
    }
    c->status = (int)status;
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    const char *headers = eol ? eol + 1 : end;   /* the lines after the status line */
    size_t vlen;
    const char *v = h1_header(headers, end, "Transfer-Encoding", &vlen);
    if (v) {
        *why = "a chunked answer (not framed by Content-Length)";
        return false;
    }
    v = h1_header(headers, end, "Content-Length", &vlen);
    if (!v || vlen == 0 || vlen > 12 || strspn(v, "0123456789") < vlen) {
        *why = "an answer without a Content-Length";
        return false;
    }
    c->body_len = (size_t)strtoull(v, NULL, 10);
    if (c->body_len > H1_MAX_BODY) {
        *why = "a Content-Length over 64 MiB";
        return false;
    }
    v = h1_header(headers, end, "Connection", &vlen);
    c->close_after = (v && vlen == 5 && strncasecmp(v, "close", 5) == 0) || strncmp(p, "HTTP/1.0", 8) == 0;
    return true;
}

/* Reads what the socket has of the answer: H1_DONE when the whole answer is in (body at c->in + c->body_off,
 * NUL-terminated), H1_AGAIN when more is to come, H1_ERROR when the connection ended or failed first or the
 * answer is not one this client takes (*why says what). One recv a call: the caller's epoll says when there
 * is more. */
static h1_result h1_recv(h1_conn *c, const char **why)
{
    if (c->in_cap - c->in_len < 16384 + 1) {
        size_t cap = c->in_cap ? c->in_cap * 2 : 65536;
        while (cap - c->in_len < 16384 + 1)
            cap *= 2;
        char *q = realloc(c->in, cap);
        if (!q) {
            fputs("http1_client: out of memory\n", stderr);
            exit(1);
        }
        c->in = q;
        c->in_cap = cap;
    }
    ssize_t n = recv(c->fd, c->in + c->in_len, c->in_cap - c->in_len - 1, 0);
    if (n < 0) {
        if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
            return H1_AGAIN;
        *why = strerror(errno);
        return H1_ERROR;
    }
    if (n == 0) {
        *why = "the server closed the connection before the answer's end";
        return H1_ERROR;
    }
    c->in_len += (size_t)n;
    c->in[c->in_len] = 0;
    if (c->body_off == 0) {
        const char *e = strstr(c->in, "\r\n\r\n");
        if (!e && c->in_len > H1_MAX_HEAD) {
            *why = "a head over 64 KiB";
            return H1_ERROR;
        }
        if (!e)
            return H1_AGAIN;
        if (!h1_parse_head(c, e, why))
            return H1_ERROR;
        c->body_off = (size_t)(e + 4 - c->in);
    }
    if (c->in_len - c->body_off < c->body_len)
        return H1_AGAIN;
    if (c->in_len - c->body_off > c->body_len) {
        *why = "bytes after the answer's end (this client sends one request at a time)";
        return H1_ERROR;
    }
    return H1_DONE;
}

#endif
