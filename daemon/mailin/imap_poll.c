/*
 * imap_poll.c — the IMAP poller (imap_poll.h).
 */
#include "imap_poll.h"

#include <curl/curl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/log.h"
#include "db/db.h"
#include "mail/mail.h"
#include "mail_in.h"

#define FETCH_MAX (64u << 20)

static struct {
    pthread_t thread;
    bool started;
    atomic_bool stop;
    const cd_config *cfg;
} P;

static size_t collect(char *data, size_t size, size_t n, void *arg)
{
    cd_buf *b = arg;
    if (b->len + size * n > FETCH_MAX)
        return 0;
    cd_buf_add(b, data, size * n);
    return size * n;
}

/* One IMAP request: url, and a custom command (NULL: fetch the URL). The answer's body in out. */
static CURLcode imap(const char *url, const char *command, cd_buf *out)
{
    CURL *h = curl_easy_init();
    if (!h)
        return CURLE_FAILED_INIT;
    curl_easy_setopt(h, CURLOPT_URL, url);
    if (command)
        curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, command);
    curl_easy_setopt(h, CURLOPT_USE_SSL, cd_mail_use_ssl(url));   /* TLS unless on loopback (mail.h) */
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, out);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(h, CURLOPT_TIMEOUT, 120L);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    CURLcode rc = curl_easy_perform(h);
    curl_easy_cleanup(h);
    return rc;
}

/* The mailbox URL without a trailing slash. */
static void mailbox_url(char *out, size_t n)
{
    snprintf(out, n, "%s", P.cfg->imap_url);
    size_t l = strlen(out);
    while (l > 0 && out[l - 1] == '/')
        out[--l] = 0;
}

/* Marks uid unseen again, so that the next look fetches it anew (a fetch marks it seen). */
static void unsee(const char *box, unsigned long uid)
{
    char cmd[80];
    snprintf(cmd, sizeof cmd, "UID STORE %lu -FLAGS (\\Seen)", uid);
    cd_buf ignored = {0};
    CURLcode rc = imap(box, cmd, &ignored);
    free(ignored.p);
    if (rc != CURLE_OK)
        cd_log("warn", "imap: UID %lu could not be marked unseen again: %s", uid, curl_easy_strerror(rc));
}

static void look(void)
{
    char box[600];
    mailbox_url(box, sizeof box);
    cd_buf b = {0};
    CURLcode rc = imap(box, "UID SEARCH UNSEEN", &b);
    if (rc != CURLE_OK) {
        cd_log("warn", "imap: searching the mailbox failed: %s", curl_easy_strerror(rc));
        free(b.p);
        return;
    }
    /* "* SEARCH 3 4 7\r\n" */
    const char *s = b.p ? strstr(b.p, "SEARCH") : NULL;
    if (!s) {
        free(b.p);
        return;
    }
    s += 6;
    while (*s && !atomic_load(&P.stop)) {
        char *end;
        unsigned long uid = strtoul(s, &end, 10);
        if (end == s)
            break;
        s = end;
        char url[700];
        snprintf(url, sizeof url, "%s/;UID=%lu", box, uid);
        cd_buf m = {0};
        CURLcode fr = imap(url, NULL, &m);
        if (fr == CURLE_WRITE_ERROR) {   /* collect() refused it: as `carcd mail-in` ignores such a mail */
            cd_log("warn", "imap: UID %lu is larger than %u bytes: left read, not handled", uid, FETCH_MAX);
        } else if (fr != CURLE_OK) {   /* the fetch may have marked it seen: a failure must not lose it */
            cd_log("warn", "imap: UID %lu could not be fetched (%s): it is fetched again at the next look", uid,
                   curl_easy_strerror(fr));
            unsee(box, uid);
        } else {
            char what[800];
            int r = cd_mail_in_handle(P.cfg, m.p ? m.p : "", m.len, what, sizeof what);
            cd_log(r == 0 ? "info" : "warn", "imap: UID %lu: %s", uid, what);
            if (r != 0)   /* to be fetched again at the next look */
                unsee(box, uid);
        }
        free(m.p);
    }
    free(b.p);
}

static void *poll_main(void *arg)
{
    (void)arg;
    while (!atomic_load(&P.stop)) {
        look();
        for (int waited = 0; waited < P.cfg->imap_interval_ms && !atomic_load(&P.stop); waited += 100)
            poll(NULL, 0, 100);
    }
    cd_db_thread_close();
    return NULL;
}

int cd_imap_poll_start(const cd_config *cfg, char *err, size_t errlen)
{
    if (!cfg->imap_url[0] || P.started)
        return 0;
    P.cfg = cfg;
    atomic_store(&P.stop, false);
    if (pthread_create(&P.thread, NULL, poll_main, NULL) != 0) {
        snprintf(err, errlen, "imap: cannot start the poller thread");
        return -1;
    }
    P.started = true;
    return 0;
}

void cd_imap_poll_stop(void)
{
    if (!P.started)
        return;
    atomic_store(&P.stop, true);
    pthread_join(P.thread, NULL);
    P.started = false;
}
