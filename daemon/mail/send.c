/*
 * send.c — the mail sender (send.h): claim one due mail, send it with libcurl's SMTP, record the outcome;
 * look again at once after a mail, else when a NOTIFY carcd_mail arrives (a transaction wrote mail), and at
 * least every POLL_MS (mails due later: retries; a lost LISTEN connection).
 */
#include "send.h"

#include <curl/curl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "db/db.h"
#include "db/listener.h"
#include "db/mail_outbox.h"
#include "db/mail_seats.h"
#include "mail.h"
#include "tag.h"

#define POLL_MS 500
#define SEND_TIMEOUT_S 60
#define LEASE_S (SEND_TIMEOUT_S + 30)

static struct {
    pthread_t thread;
    bool started;
    atomic_bool stop;
    const cd_config *cfg;
} W;

typedef struct {
    const char *p;
    size_t left;
} reader;

static size_t read_body(char *buf, size_t size, size_t n, void *arg)
{
    reader *r = arg;
    size_t k = size * n < r->left ? size * n : r->left;
    memcpy(buf, r->p, k);
    r->p += k;
    r->left -= k;
    return k;
}

/* The envelope address of "Name <a@b>" or "a@b", in angle brackets. */
static void envelope(const char *addr, char *out, size_t n)
{
    const char *lt = strchr(addr, '<');
    if (lt) {
        const char *gt = strchr(lt, '>');
        snprintf(out, n, "%.*s", gt ? (int)(gt - lt + 1) : (int)strlen(lt), lt);
    } else {
        snprintf(out, n, "<%s>", addr);
    }
}

/* Sends one mail: 0 when the server took it, else its SMTP status (0 when none) and the error in err;
 * *rcpt_refused: the refusal was the recipient's (RCPT TO), not carcd's login, sender or message. */
static CURLcode smtp_send(const cd_mail_claimed *m, long *status, bool *rcpt_refused, char *err, size_t errlen)
{
    const cd_config *cfg = W.cfg;
    CURL *h = curl_easy_init();
    if (!h) {
        snprintf(err, errlen, "cannot create a libcurl handle");
        *status = 0;
        return CURLE_FAILED_INIT;
    }
    /* an envelope is its address in angle brackets: two bytes over the longest address it is made from */
    char return_path[300], from[sizeof return_path + 2], to[300], ebuf[CURL_ERROR_SIZE] = "";
    /* with CARCD_MAIL_RETURN_PATH, each mail its own envelope sender: its bounce names it (tag.h) */
    cd_mail_return_path(m->id, return_path, sizeof return_path);
    envelope(return_path[0] ? return_path : cfg->mail_from, from, sizeof from);
    envelope(m->rcpt, to, sizeof to);
    struct curl_slist *rcpt = curl_slist_append(NULL, to);
    reader r = {m->body, m->body_len};
    curl_easy_setopt(h, CURLOPT_URL, cfg->smtp_url);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "smtp,smtps");   /* mail goes by mail, whatever the URL says */
    if (cfg->smtp_user[0]) {
        curl_easy_setopt(h, CURLOPT_USERNAME, cfg->smtp_user);
        curl_easy_setopt(h, CURLOPT_PASSWORD, cfg->smtp_password);
    }
    curl_easy_setopt(h, CURLOPT_USE_SSL, cd_mail_use_ssl(cfg->smtp_url));   /* TLS unless on loopback (mail.h) */
    curl_easy_setopt(h, CURLOPT_MAIL_FROM, from);
    curl_easy_setopt(h, CURLOPT_MAIL_RCPT, rcpt);
    curl_easy_setopt(h, CURLOPT_READFUNCTION, read_body);
    curl_easy_setopt(h, CURLOPT_READDATA, &r);
    curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)m->body_len);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(h, CURLOPT_TIMEOUT, (long)SEND_TIMEOUT_S);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, ebuf);
    CURLcode rc = curl_easy_perform(h);
    *status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
    *rcpt_refused = rc == CURLE_SEND_ERROR && strncmp(ebuf, "RCPT failed", 11) == 0;   /* libcurl's smtp.c words */
    if (rc != CURLE_OK)
        snprintf(err, errlen, "%s%s%ld", ebuf[0] ? ebuf : curl_easy_strerror(rc), *status ? "; SMTP " : "",
                 *status);
    if (rc != CURLE_OK && !*status)
        snprintf(err, errlen, "%s", ebuf[0] ? ebuf : curl_easy_strerror(rc));
    curl_slist_free_all(rcpt);
    curl_easy_cleanup(h);
    return rc;
}

/* Claims and sends one mail: true when there was one. */
static bool send_one(cd_db *db)
{
    cd_mail_claimed m = {0};
    bool found = false;
    if (cd_mail_claim(db, LEASE_S, &found, &m) != CD_MQ_OK || !found)
        return false;
    const cd_mail_settings *S = cd_mail_settings_get();
    char err[600] = "";
    const char *state;
    double delay = 0;
    bool stop_seat = false;
    bool ours_to_fix = false;   /* the server refuses carcd's login or sender: its settings, not the seat's */
    if (m.stopped) {
        state = "failed";
        snprintf(err, sizeof err, "not sent: the seat's mail to this address was stopped");
    } else {
        long status = 0;
        bool rcpt_refused = false;
        CURLcode rc = smtp_send(&m, &status, &rcpt_refused, err, sizeof err);
        /* RCPT TO refused with 550, 551 or 553 (no such mailbox, not here, a name not allowed: RFC 5321 §4.2.3)
         * refuses the address. Another refusal there (554: a sender or a relay refused, which servers such as
         * Postfix say only at RCPT), of the sender (MAIL FROM) or of the login refuses carcd's own settings */
        bool address = rcpt_refused && (status == 550 || status == 551 || status == 553);
        bool sender = strncmp(err, "MAIL failed", 11) == 0;
        bool refused = status >= 500 && status < 600;
        ours_to_fix = rc == CURLE_LOGIN_DENIED || (refused && !address && (rcpt_refused || sender));
        if (rc == CURLE_OK) {
            state = "sent";
        } else if (address) {   /* no more mail to it */
            state = "failed";
            stop_seat = true;
        } else if (refused && !ours_to_fix) {   /* this message is refused, not the address */
            state = "failed";
        } else if (m.tries > S->nbackoff) {
            state = "failed";
            size_t n = strlen(err);
            snprintf(err + n, sizeof err - n, " (gave up after %d attempts)", m.tries);
        } else {
            state = "pending";
            delay = S->backoff[m.tries - 1];
        }
    }
    bool ours = false;
    if (cd_mail_done(db, &m, state, delay, state[0] == 's' ? NULL : err, &ours) != CD_MQ_OK)
        cd_log("warn", "mail: the outcome of mail %lld could not be recorded (it is sent again when its lease ends)",
               m.id);
    if (strcmp(state, "sent") != 0)
        cd_log("info", "mail: mail %lld to seat %d of game %s: %s: %s", m.id, m.seat, m.game_id, state, err);
    if (ours_to_fix)
        cd_log("warn", "mail: the mail server refuses carcd itself (%s): check CARCD_SMTP_USER, CARCD_SMTP_PASSWORD "
               "and CARCD_MAIL_FROM; mails wait and are tried again", err);
    if (stop_seat && ours) {
        char reason[700];
        snprintf(reason, sizeof reason, "the mail server refused the address: %s", err);
        cd_mail_seat_stop(db, m.game_id, m.seat, m.rcpt, reason);
    }
    free(m.body);
    return true;
}

static void *sender_main(void *arg)
{
    (void)arg;
    cd_listener *lc = NULL;
    while (!atomic_load(&W.stop)) {
        char err[256];
        cd_db *db = cd_db_thread(W.cfg, err, sizeof err);
        if (!lc)
            lc = cd_listener_open(W.cfg->database_url, "carcd_mail");
        while (db && !atomic_load(&W.stop) && send_one(db))
            ;
        /* wait for a NOTIFY, or POLL_MS; a stop waits at most that long too */
        if (lc) {
            struct pollfd pfd = {.fd = cd_listener_fd(lc), .events = POLLIN};
            poll(&pfd, 1, POLL_MS);
            cd_listener_drain(&lc);
        } else {
            poll(NULL, 0, POLL_MS);
        }
    }
    if (lc)
        cd_listener_close(lc);
    cd_db_thread_close();
    return NULL;
}

int cd_mail_send_start(const cd_config *cfg, char *err, size_t errlen)
{
    if (!cd_mail_settings_get()->enabled || W.started)
        return 0;
    W.cfg = cfg;
    atomic_store(&W.stop, false);
    if (pthread_create(&W.thread, NULL, sender_main, NULL) != 0) {
        snprintf(err, errlen, "mail: cannot start the sender thread");
        return -1;
    }
    W.started = true;
    return 0;
}

void cd_mail_send_stop(void)
{
    if (!W.started)
        return;
    atomic_store(&W.stop, true);
    pthread_join(W.thread, NULL);
    W.started = false;
}
