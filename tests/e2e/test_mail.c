/*
 * test_mail.c — play by e-mail end to end, against the real mail servers of tests/support/mail-temp.sh
 * (Postfix taking SMTP into Maildirs, Dovecot serving them over IMAP; found through CARCD_TEST_SMTP_URL,
 * CARCD_TEST_IMAP_URL, CARCD_TEST_MAIL_PASSWORD and CARCD_TEST_POSTFIX; without them the test is skipped):
 * carcd sends through Postfix, the test reads each seat's mail over IMAP as a mail client would, and
 * answers either through SMTP into the mailbox carcd's IMAP poller reads, or straight into `carcd mail-in`.
 *
 *   - a whole 2-seat Hills & Sheep game played only by mail (the turn mail read, a reply with a listed
 *     number or a notation, the next turn mail awaited), with the time from a reply to the next turn mail;
 *   - a bad tag: nothing changes; a wrong sender: nothing played, the seat's own address told why; the same
 *     mail twice: one move; an illegal move: refused with an answer mail quoting the reason and the legal moves;
 *     an HTML-only reply (base64, Latin-1);
 *     a 10 MB mail with an attachment; the SMTP server down for a while (the mail arrives later, once);
 *     two carcd processes on one database (every mail sent once, every reply applied once);
 *   - mail-in exits 75 when the database cannot be reached; a 5xx refusal stops the seat's mail and shows
 *     in its view and the admin's; the one-click unsubscribe; pause, resume and vacation by mail; the admin's
 *     cancel mails every seat its game-over mail, saying so; a seat left to a bot gets no more turn mail;
 *   - the README's Postfix pipe transport: a reply through Postfix into `carcd mail-in`.
 */
#define _GNU_SOURCE   /* usleep, putenv, fmemopen */
#include <curl/curl.h>
#include <gmime/gmime.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"
#include "openapi.h"

#define SECRET "e2e-mail-secret-0123456789"
#define REPLY_TEMPLATE "play+{tag}@example.org"

static const char *smtp_url, *imap_url, *password, *postfix_cmd;

static void need_mail_servers(void)
{
    smtp_url = getenv("CARCD_TEST_SMTP_URL");
    imap_url = getenv("CARCD_TEST_IMAP_URL");
    password = getenv("CARCD_TEST_MAIL_PASSWORD");
    postfix_cmd = getenv("CARCD_TEST_POSTFIX");
    if (!smtp_url || !imap_url || !password || !postfix_cmd) {
        fprintf(stderr, "test_mail: no mail servers (run tests/support/mail-temp.sh): skipped\n");
        exit(77);
    }
}

/* ---- IMAP, as a mail client reads ------------------------------------------------------------------------- */
typedef struct {
    char *p;
    size_t len;
} blob;

static size_t collect(char *d, size_t s, size_t n, void *arg)
{
    blob *b = arg;
    b->p = realloc(b->p, b->len + s * n + 1);
    memcpy(b->p + b->len, d, s * n);
    b->len += s * n;
    b->p[b->len] = 0;
    return s * n;
}

static CURLcode imap_req(const char *user, const char *path, const char *command, blob *out)
{
    CURL *h = curl_easy_init();
    char url[600], up[200];
    snprintf(url, sizeof url, "%s/%s", imap_url, path);
    snprintf(up, sizeof up, "%s:%s", user, password);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_USERPWD, up);
    if (command)
        curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, command);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, out);
    curl_easy_setopt(h, CURLOPT_TIMEOUT, 30L);
    CURLcode rc = curl_easy_perform(h);
    curl_easy_cleanup(h);
    return rc;
}

/* The UIDs of user's INBOX whose Message-ID contains `needle`: how many, the last in *last. */
static int imap_find(const char *user, const char *needle, unsigned long *last)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "UID SEARCH HEADER Message-ID \"%s\"", needle);
    blob b = {0};
    int n = 0;
    if (imap_req(user, "INBOX", cmd, &b) == CURLE_OK && b.p) {
        const char *s = strstr(b.p, "SEARCH");
        if (s) {
            s += 6;
            char *end;
            unsigned long v;
            while ((v = strtoul(s, &end, 10)), end != s) {
                *last = v;
                n++;
                s = end;
            }
        }
    }
    free(b.p);
    return n;
}

/* Waits up to `seconds` for the k-th mail whose Message-ID contains needle; its bytes (malloc'd) or NULL. */
static char *wait_mail_nth(const char *user, const char *needle, int k, double seconds)
{
    double t0 = e2e_now();
    while (e2e_now() - t0 < seconds) {
        unsigned long uid = 0;
        if (imap_find(user, needle, &uid) >= k) {
            char path[64];
            snprintf(path, sizeof path, "INBOX/;UID=%lu", uid);
            blob b = {0};
            if (imap_req(user, path, NULL, &b) == CURLE_OK && b.p)
                return b.p;
            free(b.p);
        }
        usleep(20 * 1000);
    }
    return NULL;
}

/* Waits up to `seconds` for a mail whose Message-ID contains needle (the newest of them); NULL: none came. */
static char *wait_mail(const char *user, const char *needle, double seconds)
{
    return wait_mail_nth(user, needle, 1, seconds);
}

/* ---- reading our mails with GMime ------------------------------------------------------------------------- */
typedef struct {
    char msg_id[300];
    char reply_to[200];
    char subject[300];
    char *text;         /* the text/plain part, decoded (malloc'd) */
    bool has_png, has_html;
    char unsubscribe[400];
    char thread[300];   /* In-Reply-To, without brackets: the seat's thread root, or the reply a mail answers; "" */
    char refs[700];     /* References as written; "" when none */
} mail;

static void walk(GMimeObject *o, mail *m)
{
    if (GMIME_IS_MULTIPART(o)) {
        for (int i = 0; i < g_mime_multipart_get_count(GMIME_MULTIPART(o)); i++)
            walk(g_mime_multipart_get_part(GMIME_MULTIPART(o), i), m);
        return;
    }
    GMimeContentType *ct = g_mime_object_get_content_type(o);
    if (g_mime_content_type_is_type(ct, "image", "png"))
        m->has_png = true;
    if (g_mime_content_type_is_type(ct, "text", "html"))
        m->has_html = true;
    if (g_mime_content_type_is_type(ct, "text", "plain") && !m->text) {
        char *t = g_mime_text_part_get_text(GMIME_TEXT_PART(o));
        m->text = strdup(t);
        g_free(t);
        size_t k = 0;   /* the lines as a reader sees them: without their CR */
        for (size_t i = 0; m->text[i]; i++)
            if (m->text[i] != '\r')
                m->text[k++] = m->text[i];
        m->text[k] = 0;
    }
}

static void mail_parse(const char *raw, mail *m)
{
    memset(m, 0, sizeof *m);
    GMimeStream *s = g_mime_stream_mem_new_with_buffer(raw, strlen(raw));
    GMimeParser *p = g_mime_parser_new_with_stream(s);
    GMimeMessage *msg = g_mime_parser_construct_message(p, NULL);
    ck_assert_msg(msg != NULL, "a mail GMime can read");
    snprintf(m->msg_id, sizeof m->msg_id, "%s", g_mime_message_get_message_id(msg));
    snprintf(m->subject, sizeof m->subject, "%s", g_mime_message_get_subject(msg));
    InternetAddressList *rt = g_mime_message_get_reply_to(msg);
    if (rt && internet_address_list_length(rt) > 0)
        snprintf(m->reply_to, sizeof m->reply_to, "%s",
                 internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(internet_address_list_get_address(rt, 0))));
    const char *u = g_mime_object_get_header(GMIME_OBJECT(msg), "List-Unsubscribe");
    if (u)
        snprintf(m->unsubscribe, sizeof m->unsubscribe, "%s", u);
    const char *irt = g_mime_object_get_header(GMIME_OBJECT(msg), "In-Reply-To");
    if (irt)
        snprintf(m->thread, sizeof m->thread, "%.*s", (int)strcspn(irt + (irt[0] == '<'), ">"), irt + (irt[0] == '<'));
    const char *refs = g_mime_object_get_header(GMIME_OBJECT(msg), "References");
    if (refs)
        snprintf(m->refs, sizeof m->refs, "%s", refs);
    walk(g_mime_message_get_mime_part(msg), m);
    ck_assert_msg(m->text != NULL, "every mail has a plain-text part");
    g_object_unref(msg);
    g_object_unref(p);
    g_object_unref(s);
}

/* The k-th (1-based) mail of `kind` that carcd sent `user` for `seat` of game `id`, parsed into *m (its text the
 * caller's to free); asserts that it came within 20 s. */
static void seat_mail(const char *user, const char *id, int seat, const char *kind, int k, mail *m)
{
    char needle[200];
    snprintf(needle, sizeof needle, "carcd.%s.%d.%s.", id, seat, kind);
    char *raw = wait_mail_nth(user, needle, k, 20);
    ck_assert_msg(raw, "no %s mail number %d for seat %d reached %s", kind, k, seat, user);
    mail_parse(raw, m);
    free(raw);
}

/* The k-th mail of `kind` that carcd sent `user` as a person with no seat in game `id` (open-seat: an
 * invitation; join-answer: the answer to a reply to one), as seat_mail. */
static void place_mail(const char *user, const char *id, const char *kind, int k, mail *m)
{
    seat_mail(user, id, -1, kind, k, m);
}

/* How many mails of `kind` for `seat` of game `id` are in user's mailbox now. */
static int seat_mails(const char *user, const char *id, int seat, const char *kind)
{
    char needle[200];
    unsigned long last;
    snprintf(needle, sizeof needle, "carcd.%s.%d.%s.", id, seat, kind);
    return imap_find(user, needle, &last);
}

/* The numbered legal moves of a turn mail's text: how many; the k-th (1-based) notation into out. */
static int legal_moves(const char *text, int k, char *out, size_t n)
{
    const char *p = strstr(text, "Your legal moves:\n");
    if (!p)
        return 0;
    p = strchr(p, '\n') + 1;
    int count = 0;
    while (*p) {
        const char *e = strchr(p, '\n');
        if (!e)
            break;
        int num = 0, used = 0;
        if (sscanf(p, " %d. %n", &num, &used) == 1 && used > 0 && num == count + 1) {
            count++;
            if (count == k)
                snprintf(out, n, "%.*s", (int)(e - p - used), p + used);
        } else if (count > 0) {
            break;
        }
        p = e + 1;
    }
    return count;
}

/* ---- sending replies ---------------------------------------------------------------------------------------- */
static int msg_counter;

/* A reply: From `from`, To `to`, In-Reply-To `irt` (NULL: none), Message-ID unique unless `msg_id` is given,
 * the body as given (its own headers included when `raw_body` has them: pass full MIME headers + body). */
static char *reply_text(const char *from, const char *to, const char *irt, const char *msg_id, const char *mime_headers,
                        const char *body)
{
    char id[200];
    if (msg_id)
        snprintf(id, sizeof id, "%s", msg_id);
    else
        snprintf(id, sizeof id, "reply-%d-%d-%ld@client.example.net", (int)getpid(), ++msg_counter, (long)time(NULL));
    size_t n = strlen(body) + 2000;
    char *m = malloc(n);
    snprintf(m, n,
             "From: Player <%s>\r\nTo: %s\r\nSubject: Re: your turn\r\nMessage-ID: <%s>\r\n%s%s%s"
             "MIME-Version: 1.0\r\n%s\r\n%s",
             from, to, id, irt ? "In-Reply-To: <" : "", irt ? irt : "", irt ? ">\r\n" : "",
             mime_headers ? mime_headers : "Content-Type: text/plain; charset=utf-8\r\n", body);
    return m;
}

static void smtp_send(const char *from, const char *to, const char *message)
{
    CURL *h = curl_easy_init();
    char f[200], t[200];
    snprintf(f, sizeof f, "<%s>", from);
    snprintf(t, sizeof t, "<%s>", to);
    struct curl_slist *rcpt = curl_slist_append(NULL, t);
    FILE *in = fmemopen((void *)message, strlen(message), "r");
    curl_easy_setopt(h, CURLOPT_URL, smtp_url);
    curl_easy_setopt(h, CURLOPT_MAIL_FROM, f);
    curl_easy_setopt(h, CURLOPT_MAIL_RCPT, rcpt);
    curl_easy_setopt(h, CURLOPT_READDATA, in);
    curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
    CURLcode rc = curl_easy_perform(h);
    ck_assert_msg(rc == CURLE_OK, "SMTP to %s: %s", to, curl_easy_strerror(rc));
    fclose(in);
    curl_slist_free_all(rcpt);
    curl_easy_cleanup(h);
}

/* ---- carcd with mail ------------------------------------------------------------------------------------ */
static char env_smtp[300], env_imap[400];

static e2e_daemon *mail_daemon_env(bool poll_imap, const char *reply_env, const char *extra_env)
{
    snprintf(env_smtp, sizeof env_smtp, "CARCD_SMTP_URL=%s", smtp_url);
    /* imap://play:secret@127.0.0.1:port/INBOX */
    const char *hostport = strstr(imap_url, "://") + 3;
    snprintf(env_imap, sizeof env_imap, "CARCD_IMAP_URL=imap://play:%s@%s/INBOX", password, hostport);
    static const char *env[12];
    int k = 0;
    env[k++] = env_smtp;
    bool from = extra_env && strncmp(extra_env, "CARCD_MAIL_FROM=", 16) == 0;   /* instead of ours */
    env[k++] = from ? extra_env : "CARCD_MAIL_FROM=carcd@example.org";
    env[k++] = reply_env;
    env[k++] = "CARCD_MAIL_SECRET=" SECRET;
    env[k++] = "CARCD_MAIL_BACKOFF=1,1,1,1,1,1,1,1,1,1";
    env[k++] = "CARCD_PUBLIC_URL=http://carcd.example.org";
    env[k++] = "CARCD_IMAP_INTERVAL_MS=100";
    if (poll_imap)
        env[k++] = env_imap;
    if (extra_env && !from)
        env[k++] = extra_env;
    env[k] = NULL;
    return e2e_daemon_up(env);
}

static e2e_daemon *mail_daemon_with(bool poll_imap, const char *reply_env)
{
    return mail_daemon_env(poll_imap, reply_env, NULL);
}

static e2e_daemon *mail_daemon(bool poll_imap)
{
    return mail_daemon_with(poll_imap, "CARCD_MAIL_REPLY_TO=" REPLY_TEMPLATE);
}

/* `carcd mail-in` with `message` on stdin against d's database (db_url NULL) or another URL: its exit status. */
static int mail_in(const e2e_daemon *d, const char *db_url, const char *message, size_t len)
{
    char url[1300], smtp[300];
    snprintf(url, sizeof url, "CARCD_DATABASE_URL=%s", db_url ? db_url : d->dburl);
    snprintf(smtp, sizeof smtp, "CARCD_SMTP_URL=%s", smtp_url);
    const char *env[] = {url, smtp, "CARCD_MAIL_FROM=carcd@example.org", "CARCD_MAIL_REPLY_TO=" REPLY_TEMPLATE,
                         "CARCD_MAIL_SECRET=" SECRET, "CARCD_PUBLIC_URL=http://carcd.example.org", NULL};
    return e2e_carcd_stdin(d, "mail-in", env, message, len);
}

static char *mail_in_log(const e2e_daemon *d)
{
    char path[400];
    snprintf(path, sizeof path, "%s/mail-in.log", d->dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return strdup("");
    blob b = {0};
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        collect(buf, 1, n, &b);
    fclose(f);
    return b.p ? b.p : strdup("");
}

/* A 2-seat game whose seats get mail at alice@ and bob@ (users given), with a short scripted stack. */
static void mail_game(e2e_client *c, e2e_daemon *d, const char *u0, const char *u1, e2e_game *g)
{
    char extra[600];
    snprintf(extra, sizeof extra,
             "{\"players\":[{\"name\":\"Ann\",\"email\":\"%s@example.org\"},{\"name\":\"Bob\",\"email\":\"%s@example.org\"}],"
             "\"script\":{\"stack\":[\"E\",\"U\",\"B\",\"V\",\"K\",\"U\",\"E\"]}}",
             u0, u1);
    long st = e2e_game_create_raw(c, d, 2, "[\"hills_sheep\"]", extra, true, g);
    ck_assert_msg(st == 201, "create: %ld", st);
}

static int game_seq(e2e_client *c, const e2e_game *g)
{
    char path[100];
    snprintf(path, sizeof path, "/v1/games/%s", g->id);
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    int seq = (int)e2e_jint(v, "seq");
    json_decref(v);
    return seq;
}

static const char *status_of(e2e_client *c, const e2e_game *g, int *pending)
{
    static char status[32];
    char path[100];
    snprintf(path, sizeof path, "/v1/games/%s", g->id);
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    snprintf(status, sizeof status, "%s", e2e_jstr(v, "status"));
    *pending = (int)e2e_jint(v, "pending.seat");
    json_decref(v);
    return status;
}

static void turn_needle(const e2e_game *g, int seat, int seq, char *out, size_t n)
{
    snprintf(out, n, "carcd.%s.%d.turn.%d.", g->id, seat, seq);
}

static const char *user_of(int seat)
{
    return seat == 0 ? "alice" : "bob";
}

/* ---- the tests ------------------------------------------------------------------------------------------ */
START_TEST(whole_game_by_mail)
{
    e2e_daemon *d = mail_daemon(true);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    mail_game(c, d, "alice", "bob", &g);
    /* the invitations */
    for (int s = 0; s < 2; s++) {
        char needle[200];
        snprintf(needle, sizeof needle, "carcd.%s.%d.invitation.0.", g.id, s);
        char *raw = wait_mail(user_of(s), needle, 20);
        ck_assert_msg(raw, "seat %d's invitation arrives", s);
        mail m;
        mail_parse(raw, &m);
        ck_assert_msg(strstr(m.text, g.token[s]) != NULL, "the invitation carries the seat's private link");
        ck_assert_msg(strstr(m.text, g.token[1 - s]) == NULL, "and not the other seat's");
        free(m.text);
        free(raw);
    }
    e2e_rng rng = {0x3a11};
    double sum = 0, worst = 0;   /* seconds from a reply sent to the next mail read */
    int moves = 0, by_number = 0, by_notation = 0, prev_seat = -1;
    for (int guard = 0; guard < 200; guard++) {
        int seat;
        const char *status = status_of(c, &g, &seat);
        if (strcmp(status, "finished") == 0)
            break;
        int seq = game_seq(c, &g);
        char needle[200];
        turn_needle(&g, seat, seq, needle, sizeof needle);
        char *raw = wait_mail(user_of(seat), needle, 30);
        ck_assert_msg(raw, "the turn mail of seq %d for seat %d arrives", seq, seat);
        mail m;
        mail_parse(raw, &m);
        ck_assert_msg(m.has_png && m.has_html, "the turn mail has the board as an inline picture");
        ck_assert_msg(m.unsubscribe[0], "List-Unsubscribe");
        ck_assert_msg(strncmp(m.reply_to, "play+", 5) == 0, "Reply-To is the seat's address: %s", m.reply_to);
        ck_assert_msg(strstr(m.text, "The board:") != NULL, "the plain-text board");
        char other[100];
        snprintf(other, sizeof other, "%s@example.org", user_of(1 - seat));
        ck_assert_msg(strstr(raw, other) == NULL, "a seat's mail never names the other seat's address");
        if (moves > 0 && prev_seat != seat)   /* the other seat has moved since this seat's last turn */
            ck_assert_msg(strstr(m.text, "Since your last turn:\n") != NULL, "others' moves summarised:\n%s", m.text);
        char nt[120] = "";
        int nlegal = legal_moves(m.text, 1, nt, sizeof nt);
        ck_assert_msg(nlegal > 0, "the turn mail lists the legal moves:\n%s", m.text);
        int pick = 1 + (int)e2e_rng_below(&rng, (uint32_t)nlegal);
        legal_moves(m.text, pick, nt, sizeof nt);
        char body[300];
        bool number = moves % 2 == 0;
        if (number)
            snprintf(body, sizeof body, "%d\r\n\r\nOn Tue, carcd wrote:\r\n> %s\r\n", pick, "Your legal moves:");
        else
            snprintf(body, sizeof body, "%s\r\n\r\n-- \r\nsent from my phone\r\n", nt);
        number ? by_number++ : by_notation++;
        prev_seat = seat;
        char from[100];
        snprintf(from, sizeof from, "%s@example.org", user_of(seat));
        char *reply = reply_text(from, m.reply_to, m.msg_id, NULL, NULL, body);
        double sent_at = e2e_now();
        smtp_send(from, m.reply_to, reply);
        free(reply);
        free(m.text);
        free(raw);
        /* the move lands, and the next mail (turn or game over) arrives: the time from reply to that mail */
        double t0 = e2e_now();
        while (game_seq(c, &g) == seq && e2e_now() - t0 < 30)
            usleep(20 * 1000);
        ck_assert_msg(game_seq(c, &g) == seq + 1, "the reply moved the game once (seq %d)", game_seq(c, &g));
        int next;
        status = status_of(c, &g, &next);
        char n2[200];
        if (strcmp(status, "finished") == 0)
            snprintf(n2, sizeof n2, "carcd.%s.%d.finished.", g.id, 0);
        else
            turn_needle(&g, next, seq + 1, n2, sizeof n2);
        char *nextmail = wait_mail(strcmp(status, "finished") == 0 ? "alice" : user_of(next), n2, 30);
        ck_assert_msg(nextmail, "the next mail arrives");
        free(nextmail);
        double dt = e2e_now() - sent_at;
        worst = dt > worst ? dt : worst;
        sum += dt;
        moves++;
        if (strcmp(status, "finished") == 0) {
            printf("test_mail: %d moves by mail (%d by number, %d by notation); reply to next mail: mean %.0f ms, "
                   "worst %.0f ms\n", moves, by_number, by_notation, sum / moves * 1000, worst * 1000);
            break;
        }
    }
    int seat;
    ck_assert_str_eq(status_of(c, &g, &seat), "finished");
    ck_assert_msg(by_number > 0 && by_notation > 0, "replies by number and by notation");
    /* each turn mail went out once */
    for (int q = 0; q < game_seq(c, &g); q++)
        for (int s = 0; s < 2; s++) {
            char needle[200];
            unsigned long uid;
            turn_needle(&g, s, q, needle, sizeof needle);
            ck_assert_int_le(imap_find(user_of(s), needle, &uid), 1);
        }
    e2e_verify_ok(c, d, g.id);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* The seat-0 turn mail of a fresh game, parsed; the game in g. */
static void first_turn(e2e_client *c, e2e_daemon *d, const char *u0, const char *u1, e2e_game *g, mail *m)
{
    mail_game(c, d, u0, u1, g);
    char needle[200];
    turn_needle(g, 0, 0, needle, sizeof needle);
    char *raw = wait_mail(u0, needle, 20);
    ck_assert_msg(raw, "the first turn mail arrives");
    mail_parse(raw, m);
    free(raw);
}

/* Under bot_after_leave a seat that resigns is played by a bot: its address gets no more turn mail (the bot
 * plays), the other seat's turn mail tells the bot's moves "(by a bot)", and both get the game-over mail. */
START_TEST(seat_left_to_bot_gets_no_turn_mail)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    long st = e2e_game_create_raw(c, d, 2, NULL,
                                  "{\"players\":[{\"name\":\"Ann\",\"email\":\"carol@example.org\"},"
                                  "{\"name\":\"Bob\",\"email\":\"dave@example.org\"}],\"bot_after_leave\":true,"
                                  "\"script\":{\"stack\":[\"E\",\"U\",\"B\",\"V\",\"K\",\"U\",\"E\"]}}",
                                  true, &g);
    ck_assert_msg(st == 201, "create: %ld", st);
    char needle[200], path[200];
    turn_needle(&g, 0, 0, needle, sizeof needle);
    char *raw = wait_mail("carol", needle, 20);
    ck_assert_msg(raw, "the first turn mail arrives");
    free(raw);
    snprintf(path, sizeof path, "/v1/games/%s/resign", g.id);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", path, g.token[0], NULL, NULL, &r), 200);
    ck_assert_str_eq(e2e_jstr(r.json, "bot.bot"), "greedy");
    e2e_resp_free(&r);
    /* Bob plays whenever it is his turn; the bot plays Ann's seat; to the end */
    e2e_rng rng = {21};
    bool told_by_bot = false;
    for (double end = e2e_now() + 120;;) {
        int pending = -1;
        const char *status = status_of(c, &g, &pending);
        if (strcmp(status, "finished") == 0)
            break;
        ck_assert_msg(e2e_now() < end, "the game with a bot did not finish");
        if (pending != 1) {
            usleep(20 * 1000);
            continue;
        }
        int seq = game_seq(c, &g);
        turn_needle(&g, 1, seq, needle, sizeof needle);
        raw = wait_mail("dave", needle, 20);   /* his turn mail, as in any game */
        ck_assert_msg(raw, "Bob's turn mail at seq %d", seq);
        mail m = {0};
        mail_parse(raw, &m);
        free(raw);
        told_by_bot |= m.text && strstr(m.text, "(by a bot)") != NULL;
        free(m.text);
        e2e_play p;
        st = e2e_play_random(c, &g, &rng, NULL, &p);
        e2e_play_free(&p);
        ck_assert_msg(st == 200 || st == E2E_FINISHED, "Bob's move: %ld", st);
    }
    ck_assert_msg(told_by_bot, "no turn mail of Bob's told a bot's move");
    for (int seat = 0; seat < 2; seat++) {   /* the game-over mail to both */
        snprintf(needle, sizeof needle, "carcd.%s.%d.finished.", g.id, seat);
        raw = wait_mail(seat ? "dave" : "carol", needle, 20);
        ck_assert_msg(raw, "seat %d: no game-over mail", seat);
        free(raw);
    }
    /* Ann's address got one turn mail only, the first, before she left */
    snprintf(needle, sizeof needle, "carcd.%s.0.turn.", g.id);
    unsigned long uid = 0;
    ck_assert_int_eq(imap_find("carol", needle, &uid), 1);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* The admin's cancel (POST /v1/admin/games/{id}/cancel) sends every seat with mail its game-over mail, which
 * says the game was cancelled and why, names no winner and lists no moves; no turn mail follows, and a status or
 * a move asked by mail afterwards is answered that the game was cancelled. */
START_TEST(admin_cancel_mails_game_over)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    mail first = {0};
    first_turn(c, d, "carol", "dave", &g, &first);
    char path[200];
    snprintf(path, sizeof path, "/v1/admin/games/%s/cancel", g.id);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", path, d->admin, "{\"reason\":\"the server moves\"}", NULL, &r), 200);
    int seq = (int)e2e_jint(r.json, "seq");
    e2e_resp_free(&r);
    for (int seat = 0; seat < 2; seat++) {
        const char *user = seat ? "dave" : "carol";
        char needle[200];
        snprintf(needle, sizeof needle, "carcd.%s.%d.finished.%d.", g.id, seat, seq);
        char *raw = wait_mail(user, needle, 20);
        ck_assert_msg(raw, "%s: no game-over mail after the cancel", user);
        mail m = {0};
        mail_parse(raw, &m);
        free(raw);
        ck_assert_msg(strstr(m.subject, "game cancelled") != NULL, "subject: %s", m.subject);
        ck_assert_msg(m.text && strstr(m.text, "cancelled by the server's administrator: the server moves. Nobody won."),
                      "text: %s", m.text ? m.text : "");
        ck_assert_msg(strstr(m.text, "Won by") == NULL && strstr(m.text, "legal moves") == NULL, "text: %s", m.text);
        ck_assert(m.has_png && m.has_html);
        free(m.text);
    }
    free(first.text);
    /* nothing more: no turn mail after the cancel */
    char needle[200];
    snprintf(needle, sizeof needle, "carcd.%s.0.turn.%d.", g.id, seq);
    char *late = wait_mail("carol", needle, 1.0);
    ck_assert_msg(late == NULL, "a turn mail after the cancel");
    /* a status and a move after it say the game was cancelled, not whom it waits for; the cancel is the
     * administrator's, not a move of seat 0's, and the game's opening is nobody's */
    char *rp = reply_text("carol@example.org", first.reply_to, first.msg_id, "carol-status@client.example.net", NULL,
                          "status\r\n");
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    mail st;
    seat_mail("carol", g.id, 0, "status", 1, &st);
    /* the answer is threaded under Carol's mail, in the game's thread */
    ck_assert_str_eq(st.thread, "carol-status@client.example.net");
    char refs[400];
    snprintf(refs, sizeof refs, "<carcd.%s.0@", g.id);
    ck_assert_msg(strncmp(st.refs, refs, strlen(refs)) == 0 &&
                      strstr(st.refs, "<carol-status@client.example.net>") > strstr(st.refs, ">"),
                  "References: %s", st.refs);
    ck_assert_msg(strstr(st.text, "The game was cancelled by the server's administrator.") &&
                      strstr(st.text, "  1. the server's administrator cancelled the game\n") &&
                      !strstr(st.text, "waits for") && !strstr(st.text, "(a move)") && !strstr(st.text, "  0. "),
                  "%s", st.text);
    free(st.text);
    rp = reply_text("carol@example.org", first.reply_to, first.msg_id, NULL, NULL, "1\r\n");
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    seat_mail("carol", g.id, 0, "refused", 1, &st);
    ck_assert_msg(strstr(st.text, "Your reply was not played: the game was cancelled by the server's administrator") &&
                      !strstr(st.text, "waits for"),
                  "%s", st.text);
    free(st.text);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A game with an open seat (issue 20) mails nobody while it waits; the join that fills it starts it, and
 * the named seat's address gets its turn mail as at any game's start. */
START_TEST(waiting_game_mails_at_its_start)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"players\":[{\"name\":\"Ann\",\"email\":\"alice@example.org\"},{\"invite\":true}]}",
                             NULL, &r),
                     201);
    e2e_game g = {.nplayers = 2};
    snprintf(g.id, sizeof g.id, "%s", e2e_jstr(r.json, "id"));
    char join[200], path[200];
    snprintf(join, sizeof join, "{\"name\":\"Bob\",\"invite\":\"%s\"}", e2e_jstr(r.json, "invites.0.invite"));
    e2e_resp_free(&r);
    char needle[200];
    turn_needle(&g, 0, 0, needle, sizeof needle);
    char *early = wait_mail("alice", needle, 0.5);   /* waiting: no turn yet, so no turn mail */
    ck_assert_msg(early == NULL, "a turn mail before the game started");
    snprintf(path, sizeof path, "/v1/games/%s/join", g.id);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, join, NULL, &r), 201);
    ck_assert_str_eq(e2e_jstr(r.json, "status"), "active");
    e2e_resp_free(&r);
    char *raw = wait_mail("alice", needle, 20);
    ck_assert_msg(raw, "the first turn mail arrives once the game starts");
    mail m = {0};
    mail_parse(raw, &m);
    free(raw);
    ck_assert_msg(m.text && strstr(m.text, "Bob"), "the turn mail names the seats: %s", m.text ? m.text : "");
    free(m.text);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(bad_tag_wrong_sender_duplicate_illegal)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    mail m;
    first_turn(c, d, "carol", "dave", &g, &m);
    /* a tag of nobody's: nothing changes, logged */
    char bad[200];
    snprintf(bad, sizeof bad, "%s", m.reply_to);
    bad[5] = bad[5] == 'a' ? 'b' : 'a';
    char *r1 = reply_text("carol@example.org", bad, m.msg_id, NULL, NULL, "1\r\n");
    ck_assert_int_eq(mail_in(d, NULL, r1, strlen(r1)), 0);
    ck_assert_int_eq(game_seq(c, &g), 0);
    char *log = mail_in_log(d);
    ck_assert_msg(strstr(log, "belongs to no seat") != NULL, "the bad tag is logged: %s", log);
    free(log);
    free(r1);
    /* another sender than the seat's address */
    char *r2 = reply_text("mallory@example.net", m.reply_to, m.msg_id, NULL, NULL, "1\r\n");
    ck_assert_int_eq(mail_in(d, NULL, r2, strlen(r2)), 0);
    ck_assert_int_eq(game_seq(c, &g), 0);
    log = mail_in_log(d);
    ck_assert_msg(strstr(log, "not the seat's address (answered to it)") != NULL, "the wrong sender is logged: %s",
                  log);
    free(log);
    free(r2);
    /* and answered to the seat's own address, never to the sender's: nothing was played, here is why */
    mail wm;
    seat_mail("carol", g.id, 0, "refused", 1, &wm);
    ck_assert_msg(strstr(wm.text, "Your reply was not played: it came from mallory@example.net;"), "%s", wm.text);
    free(wm.text);
    /* an illegal move: refused with a mail quoting the reason and listing the legal moves */
    char *r3 = reply_text("carol@example.org", m.reply_to, m.msg_id, NULL, NULL, "E 40,40 r0\r\n");
    ck_assert_int_eq(mail_in(d, NULL, r3, strlen(r3)), 0);
    ck_assert_int_eq(game_seq(c, &g), 0);
    mail rm;
    seat_mail("carol", g.id, 0, "refused", 2, &rm);   /* the second refusal */
    ck_assert_msg(strstr(rm.text, "Your reply was not played") && strstr(rm.text, "E 40,40 r0"),
                  "it quotes the reason: %s", rm.text);
    char nt[100];
    ck_assert_int_gt(legal_moves(rm.text, 1, nt, sizeof nt), 0);
    free(rm.text);
    free(r3);
    /* a number out of the list */
    char *r4 = reply_text("carol@example.org", m.reply_to, m.msg_id, NULL, NULL, "999\r\n");
    ck_assert_int_eq(mail_in(d, NULL, r4, strlen(r4)), 0);
    ck_assert_int_eq(game_seq(c, &g), 0);
    free(r4);
    /* the same mail twice: one move */
    char *r5 = reply_text("carol@example.org", m.reply_to, m.msg_id, "twice-1@client.example.net", NULL, "1\r\n");
    ck_assert_int_eq(mail_in(d, NULL, r5, strlen(r5)), 0);
    ck_assert_int_eq(game_seq(c, &g), 1);
    ck_assert_int_eq(mail_in(d, NULL, r5, strlen(r5)), 0);
    ck_assert_int_eq(game_seq(c, &g), 1);
    log = mail_in_log(d);
    ck_assert_msg(strstr(log, "handled before") != NULL, "the second delivery is known");
    free(log);
    free(r5);
    /* a stale number: the mail of seq 0 answered again at seq 1 */
    int seat;
    status_of(c, &g, &seat);
    if (seat == 0) {
        char *r6 = reply_text("carol@example.org", m.reply_to, m.msg_id, NULL, NULL, "1\r\n");
        ck_assert_int_eq(mail_in(d, NULL, r6, strlen(r6)), 0);
        ck_assert_int_eq(game_seq(c, &g), 1);
        free(r6);
    }
    /* mail-in with the database out of reach: 75, for the MTA to try again */
    char *r7 = reply_text("carol@example.org", m.reply_to, m.msg_id, NULL, NULL, "1\r\n");
    ck_assert_int_eq(mail_in(d, "postgresql://nobody@127.0.0.1:1/none?connect_timeout=2", r7, strlen(r7)), 75);
    /* and on a database carcd has not migrated (the server's own "postgres"): 75, saying so as serve says it */
    const char *u = getenv("CARCD_TEST_DATABASE_URL"), *q = u ? strchr(u, '?') : NULL;
    char bare[600];
    snprintf(bare, sizeof bare, "postgresql:///postgres%s", q ? q : "");
    ck_assert_int_eq(mail_in(d, bare, r7, strlen(r7)), 75);
    char *ml = mail_in_log(d);
    ck_assert_msg(strstr(ml, "run carcd migrate") != NULL, "%s", ml);
    free(ml);
    free(r7);
    free(m.text);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(html_only_and_large_reply)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    mail m;
    first_turn(c, d, "alice", "bob", &g, &m);
    /* HTML only, base64, Latin-1, the quote in a blockquote */
    const char *html = "<html><body><div>1&nbsp;</div><div>Merci, \xe0 bient\xf4t</div>"
                       "<blockquote><div>Your legal moves: 2. nothing</div></blockquote></body></html>";
    gchar *b64 = g_base64_encode((const guchar *)html, strlen(html));
    char body[2000];
    snprintf(body, sizeof body, "%s\r\n", b64);
    g_free(b64);
    char *r1 = reply_text("alice@example.org", m.reply_to, m.msg_id, NULL,
                          "Content-Type: text/html; charset=iso-8859-1\r\nContent-Transfer-Encoding: base64\r\n", body);
    ck_assert_int_eq(mail_in(d, NULL, r1, strlen(r1)), 0);
    ck_assert_msg(game_seq(c, &g) == 1, "the HTML-only reply moved");
    free(r1);
    free(m.text);
    /* the next decision, answered with a 10 MB mail: text first, then an attachment */
    int seat;
    status_of(c, &g, &seat);
    char needle[200];
    turn_needle(&g, seat, 1, needle, sizeof needle);
    char *raw = wait_mail(user_of(seat), needle, 20);
    ck_assert_msg(raw, "the next turn mail arrives");
    mail_parse(raw, &m);
    free(raw);
    size_t big = 10u << 20;
    char *att = malloc(big + 100000);
    size_t n = (size_t)snprintf(att, 4000,
                                "--b1\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: "
                                "quoted-printable\r\n\r\n1=20\r\n\r\n--b1\r\nContent-Type: application/octet-stream\r\n"
                                "Content-Disposition: attachment; filename=\"holiday.bin\"\r\n"
                                "Content-Transfer-Encoding: base64\r\n\r\n");
    while (n < big) {
        memcpy(att + n, "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0\r\n", 78);
        n += 78;
    }
    n += (size_t)snprintf(att + n, 100, "--b1--\r\n");
    char from[100];
    snprintf(from, sizeof from, "%s@example.org", user_of(seat));
    char *r2 = reply_text(from, m.reply_to, m.msg_id, NULL, "Content-Type: multipart/mixed; boundary=\"b1\"\r\n", att);
    double t0 = e2e_now();
    ck_assert_int_eq(mail_in(d, NULL, r2, strlen(r2)), 0);
    printf("test_mail: a %zu-byte reply handled in %.0f ms\n", strlen(r2), (e2e_now() - t0) * 1000);
    ck_assert_msg(game_seq(c, &g) == 2, "the 10 MB reply moved");
    free(r2);
    free(att);
    free(m.text);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

static void postfix(const char *what)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "script -qec '%s %s' /dev/null >/dev/null 2>&1", postfix_cmd, what);
    ck_assert_msg(system(cmd) == 0, "postfix %s", what);
}

START_TEST(smtp_down_for_a_while)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    mail m;
    first_turn(c, d, "alice", "bob", &g, &m);
    postfix("stop");
    sleep(1);
    char *r1 = reply_text("alice@example.org", m.reply_to, m.msg_id, NULL, NULL, "1\r\n");
    ck_assert_int_eq(mail_in(d, NULL, r1, strlen(r1)), 0);
    free(r1);
    free(m.text);
    ck_assert_int_eq(game_seq(c, &g), 1);
    int seat;
    status_of(c, &g, &seat);
    sleep(3);   /* the sender tries and fails meanwhile */
    postfix("start");
    char needle[200];
    turn_needle(&g, seat, 1, needle, sizeof needle);
    char *raw = wait_mail(user_of(seat), needle, 30);
    ck_assert_msg(raw, "the turn mail arrives once the server is back");
    free(raw);
    sleep(2);
    unsigned long uid;
    ck_assert_int_eq(imap_find(user_of(seat), needle, &uid), 1);
    char *log = e2e_daemon_log(d);
    ck_assert_msg(strstr(log, "pending") != NULL, "the failed attempts are logged");
    free(log);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* The IMAP poller and a mail it cannot take: one over 64 MiB, written straight into the polled Maildir, is
 * logged and left read (as `carcd mail-in` ignores it), where it had vanished without a line; the poller goes
 * on, and a reply after it plays. */
START_TEST(imap_mail_too_large_logged)
{
    e2e_daemon *d = mail_daemon(true);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    mail m;
    first_turn(c, d, "carol", "dave", &g, &m);
    char dir[400], tmp[500], dst[500];
    snprintf(dir, sizeof dir, "%s/play", getenv("CARCD_TEST_MAIL_DIR"));
    double t0 = e2e_now();
    snprintf(tmp, sizeof tmp, "%s/new", dir);
    while (access(tmp, F_OK) != 0 && e2e_now() - t0 < 20)   /* Dovecot makes the Maildir at the poller's login */
        usleep(50 * 1000);
    snprintf(tmp, sizeof tmp, "%s/tmp/big.%d", dir, (int)getpid());
    snprintf(dst, sizeof dst, "%s/new/big.%d", dir, (int)getpid());
    FILE *f = fopen(tmp, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "From: carol@example.org\r\nTo: %s\r\nSubject: holiday pictures\r\nMessage-ID: <big@example.org>\r\n"
               "Content-Type: text/plain\r\n\r\n1\r\n", m.reply_to);
    static char line[1024];
    memset(line, 'x', sizeof line - 2);
    memcpy(line + sizeof line - 2, "\r\n", 2);
    for (int i = 0; i < 65 * 1024; i++)
        ck_assert_int_eq(fwrite(line, sizeof line, 1, f), 1);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(chown(tmp, 65534, 65534), 0);   /* Dovecot's user (mail-temp.sh) */
    ck_assert_int_eq(rename(tmp, dst), 0);
    char *log = NULL;
    for (t0 = e2e_now(); e2e_now() - t0 < 60; usleep(200 * 1000)) {
        free(log);
        log = e2e_daemon_log(d);
        if (strstr(log, "is larger than 67108864 bytes: left read, not handled"))
            break;
    }
    ck_assert_msg(strstr(log, "is larger than 67108864 bytes: left read, not handled"), "%s", log);
    free(log);
    ck_assert_int_eq(game_seq(c, &g), 0);
    char *r = reply_text("carol@example.org", m.reply_to, m.msg_id, NULL, NULL, "1\r\n");
    smtp_send("carol@example.org", m.reply_to, r);
    free(r);
    for (t0 = e2e_now(); game_seq(c, &g) == 0 && e2e_now() - t0 < 30;)
        usleep(50 * 1000);
    ck_assert_int_eq(game_seq(c, &g), 1);
    char rm[1000];   /* Dovecot may have moved it to cur/ under another name */
    snprintf(rm, sizeof rm, "rm -f %s/new/big.%d* %s/cur/big.%d*", dir, (int)getpid(), dir, (int)getpid());
    ck_assert_int_eq(system(rm), 0);
    free(m.text);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(two_processes_one_database)
{
    e2e_daemon *d = mail_daemon(true);
    /* a second carcd on the same database, with the same mail settings: both send, both poll */
    pid_t second = fork();
    ck_assert(second >= 0);
    if (second == 0) {
        setenv("CARCD_DATABASE_URL", d->dburl, 1);
        setenv("CARCD_LISTEN", "127.0.0.1:0", 1);
        for (int i = 0; d->extra_env[i]; i++)
            putenv((char *)d->extra_env[i]);
        char log[400];
        snprintf(log, sizeof log, "%s/second.log", d->dir);
        freopen(log, "a", stderr);
        execl(CARCD_BIN, CARCD_BIN, "serve", (char *)NULL);
        _exit(127);
    }
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    mail m;
    first_turn(c, d, "carol", "dave", &g, &m);
    free(m.text);
    for (int k = 0; k < 6; k++) {
        int seat;
        if (strcmp(status_of(c, &g, &seat), "finished") == 0)
            break;
        int seq = game_seq(c, &g);
        char needle[200];
        turn_needle(&g, seat, seq, needle, sizeof needle);
        const char *u = seat == 0 ? "carol" : "dave";
        char *raw = wait_mail(u, needle, 30);
        ck_assert_msg(raw, "turn mail %d", seq);
        mail_parse(raw, &m);
        free(raw);
        char from[100];
        snprintf(from, sizeof from, "%s@example.org", u);
        char *r = reply_text(from, m.reply_to, m.msg_id, NULL, NULL, "1\r\n");
        smtp_send(from, m.reply_to, r);
        free(r);
        free(m.text);
        double t0 = e2e_now();
        while (game_seq(c, &g) == seq && e2e_now() - t0 < 30)
            usleep(20 * 1000);
        ck_assert_int_eq(game_seq(c, &g), seq + 1);
    }
    sleep(2);   /* a second copy of any mail would have arrived by now */
    int last = game_seq(c, &g);
    for (int q = 0; q < last; q++)
        for (int s = 0; s < 2; s++) {
            char needle[200];
            unsigned long uid;
            turn_needle(&g, s, q, needle, sizeof needle);
            ck_assert_int_le(imap_find(s == 0 ? "carol" : "dave", needle, &uid), 1);
        }
    kill(second, SIGTERM);
    int st;
    waitpid(second, &st, 0);
    e2e_verify_ok(c, d, g.id);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A server that refuses carcd's own sender (554, which Postfix says at RCPT TO; a login refused, 535, alike)
 * refuses carcd's settings, not the seat's address: the seat's mail is not stopped, the mail waits and is tried
 * again, and the log warns. */
START_TEST(refused_sender_stops_no_seat)
{
    e2e_daemon *d = mail_daemon_env(false, "CARCD_MAIL_REPLY_TO=" REPLY_TEMPLATE,
                                    "CARCD_MAIL_FROM=refused-sender@example.org");
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, NULL, NULL, false, &g), 201);
    char path[120];
    snprintf(path, sizeof path, "/v1/games/%s/email", g.id);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "PUT", path, g.token[0], "{\"email\":\"alice@example.org\"}", NULL, &r), 200);
    e2e_resp_free(&r);
    char *log = NULL;
    for (double t0 = e2e_now(); e2e_now() - t0 < 20; usleep(100 * 1000)) {
        free(log);
        log = e2e_daemon_log(d);
        if (strstr(log, "refuses carcd itself"))
            break;
    }
    ck_assert_msg(strstr(log, "refuses carcd itself") && strstr(log, "failed: 554"), "no warning: %.2000s", log);
    free(log);
    json_t *v = e2e_get_ok(c, path, g.token[0], 200);
    ck_assert_msg(json_is_null(json_object_get(v, "stopped_reason")), "the seat's mail stopped: %s",
                  e2e_jstr(v, "stopped_reason"));
    json_decref(v);
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM mail_outbox WHERE game_id = '%s' AND state = 'pending'", g.id);
    ck_assert_int_ge(e2e_db_long(d, sql), 1);   /* it waits to be tried again */
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(refused_address_and_unsubscribe)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    long st = e2e_game_create_raw(c, d, 2, NULL, NULL, false, &g);
    ck_assert_int_eq(st, 201);
    char path[120];
    snprintf(path, sizeof path, "/v1/games/%s/email", g.id);
    e2e_resp r;
    /* nobody@example.org has no mailbox: Postfix refuses it for good (550) */
    ck_assert_int_eq(e2e_req(c, "PUT", path, g.token[0], "{\"email\":\"nobody@example.org\"}", NULL, &r), 200);
    ck_assert_str_eq(e2e_jstr(r.json, "email"), "nobody@example.org");
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "PUT", path, g.token[1], "{\"email\":\"not an address\"}", NULL, &r), 400);
    e2e_resp_free(&r);
    double t0 = e2e_now();
    const char *reason = "";
    json_t *v = NULL;
    while (e2e_now() - t0 < 20) {
        json_decref(v);
        v = e2e_get_ok(c, path, g.token[0], 200);
        reason = e2e_jstr(v, "stopped_reason");
        if (reason[0])
            break;
        usleep(100 * 1000);
    }
    ck_assert_msg(strstr(reason, "refused") != NULL, "the seat's view shows the refusal: %s", reason);
    json_decref(v);
    v = e2e_get_ok(c, path, g.token[1], 200);
    ck_assert_msg(json_is_null(json_object_get(v, "email")), "the other seat sees no address");
    json_decref(v);
    json_t *adm = e2e_admin_view(c, d, g.id);
    ck_assert_msg(strstr(e2e_jstr(adm, "mail.0.stopped_reason"), "refused") != NULL, "the admin's view shows it");
    json_decref(adm);
    /* and the seat's view of the game, whole even to its own ETag (a stop does not change the seq) */
    char game_path[80], tag[40], inm[80];
    snprintf(game_path, sizeof game_path, "/v1/games/%s", g.id);
    ck_assert_int_eq(e2e_req(c, "GET", game_path, g.token[0], NULL, NULL, &r), 200);
    ck_assert_msg(strstr(e2e_jstr(r.json, "mail.stopped_reason"), "refused") != NULL, "the seat's game view shows it");
    ck_assert_str_eq(e2e_jstr(r.json, "mail.email"), "nobody@example.org");
    ck_assert_ptr_nonnull(e2e_header(&r, "ETag", tag, sizeof tag));
    e2e_resp_free(&r);
    snprintf(inm, sizeof inm, "If-None-Match: %s", tag);
    const char *const cond[] = {inm, NULL};
    ck_assert_int_eq(e2e_req(c, "GET", game_path, g.token[0], NULL, cond, &r), 200);
    ck_assert_msg(e2e_jget(r.json, "mail.stopped_at") && !json_is_null(e2e_jget(r.json, "mail.stopped_at")),
                  "a stopped seat's view is answered whole");
    e2e_resp_free(&r);
    /* the other seat has no address: its view's "mail" says so, and nothing of seat 0's */
    ck_assert_int_eq(e2e_req(c, "GET", game_path, g.token[1], NULL, cond, &r), 304);
    e2e_resp_free(&r);
    v = e2e_get_ok(c, game_path, g.token[1], 200);
    ck_assert_msg(json_is_null(e2e_jget(v, "mail.email")), "seat 1 has no address");
    ck_assert_msg(json_is_null(e2e_jget(v, "mail.stopped_at")), "and no stop");
    json_decref(v);
    json_t *pub = e2e_get_ok(c, path + 0, NULL, 401);
    json_decref(pub);
    /* seat 1 gets mail, then unsubscribes with the one-click link of its invitation */
    ck_assert_int_eq(e2e_req(c, "PUT", path, g.token[1], "{\"email\":\"bob@example.org\"}", NULL, &r), 200);
    e2e_resp_free(&r);
    char needle[200];
    snprintf(needle, sizeof needle, "carcd.%s.1.invitation.", g.id);
    char *raw = wait_mail("bob", needle, 20);
    ck_assert_msg(raw, "the invitation after PUT email");
    mail m;
    mail_parse(raw, &m);
    free(raw);
    const char *u = strstr(m.unsubscribe, "/v1/mail/unsubscribe/");
    ck_assert_msg(u, "List-Unsubscribe: %s", m.unsubscribe);
    char upath[200];
    snprintf(upath, sizeof upath, "%.*s", (int)strcspn(u, ">"), u);
    /* the link is in the text too, below the signature line; opened in a browser (or by a mail program
     * without one-click, RFC 2369) it is a page whose button posts it: the GET stops nothing */
    char in_text[300];
    snprintf(in_text, sizeof in_text, "\n-- \nTo stop this game's mails to you: http://carcd.example.org%s\n", upath);
    ck_assert_msg(strstr(m.text, in_text), "%s", m.text);
    static const char *const html[] = {"Accept: text/html,application/xhtml+xml,*/*;q=0.8", NULL};
    ck_assert_int_eq(e2e_req(c, "GET", upath, NULL, NULL, html, &r), 200);
    ck_assert_msg(strstr(r.body, "<form method=\"post\">") && strstr(r.body, "Stop this game&#39;s mails</button>"),
                  "%s", r.body);
    e2e_resp_free(&r);
    v = e2e_get_ok(c, path, g.token[1], 200);
    ck_assert(json_is_null(json_object_get(v, "stopped_reason")));
    json_decref(v);
    const char *form[] = {"Content-Type: application/x-www-form-urlencoded", NULL};
    ck_assert_int_eq(e2e_req(c, "POST", upath, NULL, "List-Unsubscribe=One-Click", form, &r), 200);
    ck_assert(json_is_true(json_object_get(r.json, "unsubscribed")));
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", upath, NULL, NULL, html, &r), 200);   /* a browser's form: a page */
    ck_assert_msg(strstr(r.body, "will not mail you about this game again"), "%s", r.body);
    e2e_resp_free(&r);
    v = e2e_get_ok(c, path, g.token[1], 200);
    ck_assert_str_eq(e2e_jstr(v, "stopped_reason"), "unsubscribed");
    json_decref(v);
    /* the link's token is not the reply address's tag (the tag plays moves by mail; a link is seen by proxies,
     * link scanners and browser histories); a link of a mail sent before the token, the reply tag's, still
     * stops; a token with another MAC, of the right length, stops nothing */
    const char *plus = strchr(m.reply_to, '+');
    ck_assert_msg(plus != NULL, "Reply-To %s", m.reply_to);
    char reply_tag[40], old_link[200], forged[200];
    snprintf(reply_tag, sizeof reply_tag, "%.24s", plus + 1);
    ck_assert_msg(!strstr(upath, reply_tag), "%s has the reply tag %s", upath, reply_tag);
    snprintf(old_link, sizeof old_link, "/v1/mail/unsubscribe/%s", reply_tag);
    ck_assert_int_eq(e2e_req(c, "POST", old_link, NULL, NULL, NULL, &r), 200);
    e2e_resp_free(&r);
    snprintf(forged, sizeof forged, "%s", upath);
    size_t fl = strlen(forged);
    forged[fl - 1] = forged[fl - 1] == '0' ? '1' : '0';
    e2e_req(c, "POST", forged, NULL, NULL, NULL, &r);
    e2e_assert_problem(&r, 404, NULL, forged);
    e2e_resp_free(&r);
    free(m.text);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* The README's wiring: Postfix hands mail for pipe+<tag>@example.org to `carcd mail-in` through its pipe
 * transport (tests/support/mail-temp.sh), as a real domain would. */
START_TEST(postfix_pipe_transport)
{
    const char *envfile = getenv("CARCD_TEST_MAIL_PIPE_ENV");
    ck_assert_msg(envfile != NULL, "mail-temp.sh sets CARCD_TEST_MAIL_PIPE_ENV");
    e2e_daemon *d = mail_daemon_with(false, "CARCD_MAIL_REPLY_TO=pipe+{tag}@example.org");
    FILE *f = fopen(envfile, "w");
    ck_assert(f);
    fprintf(f, "CARCD_BIN='%s'\nCARCD_DATABASE_URL='%s'\nCARCD_SMTP_URL='%s'\nCARCD_MAIL_FROM=carcd@example.org\n"
               "CARCD_MAIL_REPLY_TO='pipe+{tag}@example.org'\nCARCD_MAIL_SECRET='" SECRET "'\n"
               "CARCD_PUBLIC_URL=http://carcd.example.org\n",
            CARCD_BIN, d->dburl, smtp_url);
    fclose(f);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    mail m;
    first_turn(c, d, "alice", "bob", &g, &m);
    ck_assert_msg(strncmp(m.reply_to, "pipe+", 5) == 0, "Reply-To %s", m.reply_to);
    char *r = reply_text("alice@example.org", m.reply_to, m.msg_id, NULL, NULL, "1\r\n");
    double t0 = e2e_now();
    smtp_send("alice@example.org", m.reply_to, r);
    free(r);
    while (game_seq(c, &g) == 0 && e2e_now() - t0 < 30)
        usleep(20 * 1000);
    ck_assert_msg(game_seq(c, &g) == 1, "the reply through Postfix's pipe moved the game");
    printf("test_mail: reply through Postfix's pipe transport to the move: %.0f ms\n", (e2e_now() - t0) * 1000);
    free(m.text);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

START_TEST(clock_commands_by_mail)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    long st = e2e_game_create_raw(c, d, 2, NULL,
                                  "{\"players\":[{\"name\":\"Ann\",\"email\":\"carol@example.org\"},"
                                  "{\"name\":\"Bob\",\"email\":\"dave@example.org\"}],"
                                  "\"clock\":{\"per_move_s\":86400,\"reserve_s\":3600,\"timeout\":\"skip\"}}",
                                  false, &g);
    ck_assert_int_eq(st, 201);
    char needle[200];
    turn_needle(&g, 0, 0, needle, sizeof needle);
    char *raw = wait_mail("carol", needle, 20);
    ck_assert_msg(raw, "the first turn mail");
    mail m;
    mail_parse(raw, &m);
    free(raw);
    ck_assert_msg(strstr(m.text, "Deadline: ") != NULL, "a clocked game's turn mail names the deadline");
    char path[100];
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    /* seat 1 has had no turn mail yet: its invitation's Reply-To is its address */
    snprintf(needle, sizeof needle, "carcd.%s.1.invitation.0.", g.id);
    raw = wait_mail("dave", needle, 20);
    ck_assert_msg(raw, "seat 1's invitation");
    mail inv;
    mail_parse(raw, &inv);
    free(raw);
    char *r1 = reply_text("dave@example.org", inv.reply_to, inv.msg_id, NULL, NULL, "vacation 2\r\n");
    ck_assert_int_eq(mail_in(d, NULL, r1, strlen(r1)), 0);
    free(r1);
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_int_eq(e2e_jint(v, "clock.seats.1.vacation_days_left"), 12);
    json_decref(v);
    char *r2 = reply_text("carol@example.org", m.reply_to, m.msg_id, NULL, NULL, "Pause\r\n");
    ck_assert_int_eq(mail_in(d, NULL, r2, strlen(r2)), 0);
    free(r2);
    v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_int_eq(json_array_size(e2e_jget(v, "clock.pause_requested_by")), 1);
    json_decref(v);
    char *r3 = reply_text("dave@example.org", inv.reply_to, inv.msg_id, NULL, NULL, "vacation 400\r\n");
    ck_assert_int_eq(mail_in(d, NULL, r3, strlen(r3)), 0);
    free(r3);
    snprintf(needle, sizeof needle, "carcd.%s.1.refused.", g.id);
    raw = wait_mail("dave", needle, 20);
    ck_assert_msg(raw, "a refused clock command is answered");
    free(raw);
    ck_assert_int_eq(game_seq(c, &g), 0);
    free(m.text);
    free(inv.text);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST


/* ---- table talk: "say" replies and the turn mail's "Ann wrote: ..." ---------------------------------------- */
static const char *user_of_talk(int seat)
{
    return seat == 0 ? "carol" : "dave";
}

/* Moves for whoever the game waits for (seat tokens, through the API) until it waits for `seat`: the seq. */
static int play_until(e2e_client *c, const e2e_game *g, int seat, e2e_rng *rng)
{
    int pending = -1;
    for (int i = 0; i < 40; i++) {
        status_of(c, g, &pending);
        if (pending == seat && i > 0)
            break;
        e2e_play p;
        ck_assert_int_eq(e2e_play_random(c, g, rng, NULL, &p), 200);
        e2e_play_free(&p);
    }
    ck_assert_int_eq(pending, seat);
    return game_seq(c, g);
}

static long post_msg(e2e_client *c, const e2e_game *g, int seat, const char *json_body)
{
    char path[120];
    snprintf(path, sizeof path, "/v1/games/%s/messages", g->id);
    e2e_resp r;
    long st = e2e_req(c, "POST", path, g->token[seat], json_body, NULL, &r);
    e2e_resp_free(&r);
    return st;
}

START_TEST(table_talk_by_mail)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    long st = e2e_game_create_raw(c, d, 2, NULL,
                                  "{\"players\":[{\"name\":\"Ann\",\"email\":\"carol@example.org\"},"
                                  "{\"name\":\"Bob\",\"email\":\"dave@example.org\"}]}",
                                  false, &g);
    ck_assert_int_eq(st, 201);
    char needle[200];
    snprintf(needle, sizeof needle, "carcd.%s.1.invitation.0.", g.id);
    char *raw = wait_mail("dave", needle, 20);
    ck_assert_msg(raw, "seat 1's invitation");
    mail inv;
    mail_parse(raw, &inv);
    free(raw);
    turn_needle(&g, 0, 0, needle, sizeof needle);
    raw = wait_mail("carol", needle, 20);
    ck_assert_msg(raw, "seat 0's first turn mail");
    mail m0;
    mail_parse(raw, &m0);
    free(raw);
    ck_assert_msg(strstr(m0.text, "\"say <words>\"") != NULL, "the turn mail tells how to write: %s", m0.text);

    /* Bob writes by mail, out of turn: a message, not a move */
    char *r1 = reply_text("dave@example.org", inv.reply_to, inv.msg_id, NULL, NULL,
                          "say nice to meet you, Ann! <b>*hi*</b>\r\n\r\n> quoted: 1\r\n");
    ck_assert_int_eq(mail_in(d, NULL, r1, strlen(r1)), 0);
    free(r1);
    ck_assert_int_eq(game_seq(c, &g), 0);
    char path[120];
    snprintf(path, sizeof path, "/v1/games/%s/messages", g.id);
    json_t *a = e2e_get_ok(c, path, g.token[0], 200);
    ck_assert_int_eq(json_array_size(json_object_get(a, "messages")), 1);
    ck_assert_str_eq(e2e_jstr(a, "messages.0.text"), "nice to meet you, Ann! <b>*hi*</b>");
    ck_assert_int_eq(e2e_jint(a, "messages.0.seat"), 1);
    json_decref(a);
    /* and through the API, two lines */
    ck_assert_int_eq(post_msg(c, &g, 1, "{\"text\":\"first line\\nsecond line\"}"), 201);
    ck_assert_int_eq(post_msg(c, &g, 0, "{\"text\":\"Ann says hi\"}"), 201);

    /* each seat's next turn mail tells it what the other wrote, never its own words, and only once */
    e2e_rng rng = {5};
    bool told[2] = {false, false};
    mail m1 = {0};
    for (int i = 0; i < 40 && !(told[0] && told[1]); i++) {
        e2e_play p;
        ck_assert_int_eq(e2e_play_random(c, &g, &rng, NULL, &p), 200);
        e2e_play_free(&p);
        int seat = -1;
        status_of(c, &g, &seat);
        int seq = game_seq(c, &g);
        turn_needle(&g, seat, seq, needle, sizeof needle);
        raw = wait_mail(user_of_talk(seat), needle, 20);
        ck_assert_msg(raw, "seat %d's turn mail at %d", seat, seq);
        free(m1.text);
        mail_parse(raw, &m1);
        free(raw);
        const char *theirs = seat == 0 ? "Bob wrote: nice to meet you, Ann! <b>*hi*</b>" : "Ann wrote: Ann says hi";
        const char *mine = seat == 0 ? "Ann says hi" : "nice to meet you";
        ck_assert_msg(strstr(m1.text, mine) == NULL, "%s", m1.text);
        if (!told[seat]) {
            ck_assert_msg(strstr(m1.text, "At the table:") != NULL && strstr(m1.text, theirs) != NULL, "%s", m1.text);
            if (seat == 0)
                ck_assert_msg(strstr(m1.text, "Bob wrote: first line") != NULL &&
                                  strstr(m1.text, "      second line") != NULL, "%s", m1.text);
            told[seat] = true;
        } else {
            ck_assert_msg(strstr(m1.text, theirs) == NULL, "told twice: %s", m1.text);
        }
    }
    ck_assert(told[0] && told[1]);

    /* muted: Bob's next words stay out of Ann's mail; a bad "say" is answered with a refusal */
    char mp[160];
    snprintf(mp, sizeof mp, "/v1/games/%s/mutes/1", g.id);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "PUT", mp, g.token[0], NULL, NULL, &r), 204);
    e2e_resp_free(&r);
    ck_assert_int_eq(post_msg(c, &g, 1, "{\"text\":\"muted words\"}"), 201);
    char *r2 = reply_text("dave@example.org", inv.reply_to, inv.msg_id, NULL, NULL, "say\r\n");
    ck_assert_int_eq(mail_in(d, NULL, r2, strlen(r2)), 0);
    free(r2);
    snprintf(needle, sizeof needle, "carcd.%s.1.refused.", g.id);
    raw = wait_mail("dave", needle, 20);
    ck_assert_msg(raw, "an empty say is refused by mail");
    mail rf;
    mail_parse(raw, &rf);
    free(raw);
    ck_assert_msg(strstr(rf.text, "say: text") != NULL, "%s", rf.text);
    int seq = play_until(c, &g, 0, &rng);
    turn_needle(&g, 0, seq, needle, sizeof needle);
    raw = wait_mail("carol", needle, 20);
    ck_assert_msg(raw, "seat 0's turn mail at %d", seq);
    mail m3;
    mail_parse(raw, &m3);
    free(raw);
    ck_assert_msg(strstr(m3.text, "muted words") == NULL, "%s", m3.text);
    free(inv.text);
    free(m0.text);
    free(m1.text);
    free(rf.text);
    free(m3.text);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* An open place's invitation mailed by carcd ({"invite": true, "email": ...}): one mail with the place's page
 * link, nothing a seat's mail has (no reply address, thread or unsubscribe: the person has no seat), and the
 * address becomes the seat's once its code joins. */
START_TEST(invitation_to_an_open_seat_by_mail)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true,\"email\":\"bob@example.org\"},"
                             "{\"invite\":true}],\"expansions\":[\"hills_sheep\"],\"clock\":{\"per_move_s\":86400}}",
                             NULL, &r),
                     201);
    char id[40], code0[64], code1[64], page0[300];
    snprintf(id, sizeof id, "%s", e2e_jstr(r.json, "id"));
    snprintf(code0, sizeof code0, "%s", e2e_jstr(r.json, "invites.0.invite"));
    snprintf(code1, sizeof code1, "%s", e2e_jstr(r.json, "invites.1.invite"));
    snprintf(page0, sizeof page0, "%s", e2e_jstr(r.json, "invites.0.page_url"));
    ck_assert_str_eq(e2e_jstr(r.json, "invites.0.mailed_to"), "bob@example.org");
    ck_assert_str_eq(e2e_jstr(r.json, "invites.1.mailed_to"), "");
    e2e_resp_free(&r);

    char needle[200];
    snprintf(needle, sizeof needle, "carcd.%s.-1.open-seat.", id);
    char *raw = wait_mail("bob", needle, 20);
    ck_assert_msg(raw, "the invitation reaches bob@example.org");
    ck_assert_msg(strstr(raw, "\r\nTo: bob@example.org") || strstr(raw, "\r\nTo: <bob@example.org>"),
                  "addressed to bob: %.400s", raw);
    mail m;
    mail_parse(raw, &m);
    free(raw);
    ck_assert_str_eq(m.subject, "Ann invites you to a game of Carcassonne");
    ck_assert_msg(strstr(m.text, "Ann invites you to a game of Carcassonne: 3 players, Hills & Sheep, a day a move."),
                  "what the game is: %s", m.text);
    char line[320];
    snprintf(line, sizeof line, "\n%s\n", page0);   /* the link alone on its line, as the creation answered it */
    ck_assert_msg(strstr(m.text, line), "the place's page link on its own line (%s): %s", page0, m.text);
    ck_assert_msg(strstr(page0, code0) && strstr(page0, "#invite="), "the code in the link's fragment: %s", page0);
    ck_assert_msg(!strstr(m.text, code1), "the other place's code is in no mail");
    ck_assert_msg(strstr(m.text, "ignore this mail"), "says nothing more comes unless they join: %s", m.text);
    ck_assert_msg(m.has_html && !m.has_png, "an HTML part with the link, no board (there is none yet)");
    /* a reply address of its own (the place's tag, not a seat's): answering "join" takes the seat by mail */
    ck_assert_msg(strncmp(m.reply_to, "play+", 5) == 0 && strlen(m.reply_to) == 5 + 24 + 12, "%s", m.reply_to);
    ck_assert_msg(strstr(m.text, "answer this mail with the word join"), "says how to join by mail: %s", m.text);
    /* its stop link, for mail programs (RFC 8058) and in the text for people */
    ck_assert_msg(strncmp(m.unsubscribe, "<http://carcd.example.org/v1/mail/invitations/stop/st_", 54) == 0, "%s",
                  m.unsubscribe);
    char stop_line[400];
    snprintf(stop_line, sizeof stop_line, "\n%.*s\n", (int)strlen(m.unsubscribe) - 2, m.unsubscribe + 1);
    ck_assert_msg(strstr(m.text, stop_line), "the stop link in the text: %s", m.text);
    free(m.text);
    ck_assert_msg(wait_mail("carol", id, 0.5) == NULL, "the place without an address mailed nobody");

    /* Bob joins with the mailed code: his seat takes the address; Cy's place, not mailed, gives none */
    char path[200], join[300];
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    snprintf(join, sizeof join, "{\"name\":\"Bob\",\"invite\":\"%s\"}", code0);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, join, NULL, &r), 201);
    ck_assert_str_eq(e2e_jstr(r.json, "email"), "bob@example.org");
    ck_assert_str_eq(e2e_jstr(r.json, "status"), "waiting");
    int bob_seat = (int)json_integer_value(json_object_get(r.json, "seat"));
    char bob_token[80];
    snprintf(bob_token, sizeof bob_token, "%s", e2e_jstr(r.json, "token"));
    e2e_resp_free(&r);
    snprintf(join, sizeof join, "{\"name\":\"Cy\",\"invite\":\"%s\"}", code1);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, join, NULL, &r), 201);
    ck_assert_str_eq(e2e_jstr(r.json, "status"), "active");
    ck_assert_str_eq(e2e_jstr(r.json, "email"), "");
    e2e_resp_free(&r);
    /* the game started: Bob's seat has its first mail at the address, and reads it as the seat's own */
    snprintf(needle, sizeof needle, "carcd.%s.%d.invitation.", id, bob_seat);
    raw = wait_mail("bob", needle, 20);
    ck_assert_msg(raw, "the seat's first mail once the game starts");
    free(raw);
    snprintf(path, sizeof path, "/v1/games/%s/email", id);
    json_t *e = e2e_get_ok(c, path, bob_token, 200);
    ck_assert_str_eq(e2e_jstr(e, "email"), "bob@example.org");
    json_decref(e);
    /* the view of the game shows no address */
    snprintf(path, sizeof path, "/v1/games/%s", id);
    ck_assert_int_eq(e2e_req(c, "GET", path, NULL, NULL, NULL, &r), 200);
    ck_assert_msg(!strstr(r.body, "bob@"), "no address in the public view: %s", r.body);
    e2e_resp_free(&r);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* The seat's private link in a mail's text: its token (the part after "#token=") into out. */
static void token_in(const char *text, char *out, size_t n)
{
    const char *t = strstr(text, "#token=");
    ck_assert_msg(t, "a private play link: %s", text);
    t += 7;
    size_t len = strcspn(t, " \r\n");
    ck_assert_uint_lt(len, n);
    snprintf(out, n, "%.*s", (int)len, t);
}

/* POST /v1/games with body, a game with open places: 201, its id and creator token (NULL: not wanted). */
static void create_waiting(e2e_client *c, const char *body, char id[40], char creator[80])
{
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, body, NULL, &r), 201);
    snprintf(id, 40, "%s", e2e_jstr(r.json, "id"));
    if (creator)
        snprintf(creator, 80, "%s", e2e_jstr(r.json, "creator_token"));
    e2e_resp_free(&r);
}

/* GET /v1/games/{id}/invites polled with the creator token until place 0's mail is in `state`; its view. */
static json_t *invites_until(e2e_client *c, const char *id, const char *creator, const char *to, const char *state)
{
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s/invites", id);
    json_t *v = NULL;
    for (double t0 = e2e_now(); e2e_now() - t0 < 20; usleep(100 * 1000)) {
        json_decref(v);
        v = e2e_get_ok(c, path, creator, 200);
        if (strcmp(e2e_jstr(v, "places.0.mailed_to"), to) == 0 && strcmp(e2e_jstr(v, "places.0.mail.state"), state) == 0)
            return v;
    }
    ck_abort_msg("place 0's mail to %s never %s: %s", to, state, json_dumps(v, 0));
    return NULL;
}

/* An invitation the mail server refuses for good (no such mailbox): its creator sees it failed, with the
 * server's words, and mails the link elsewhere; nobody else sees the addresses. */
START_TEST(invitation_refused_by_the_mail_server)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true,\"email\":\"nobody@example.org\"},"
                             "{\"invite\":true}]}",
                             NULL, &r),
                     201);
    char id[40], creator[80], code[80], path[200];
    snprintf(id, sizeof id, "%s", e2e_jstr(r.json, "id"));
    snprintf(creator, sizeof creator, "%s", e2e_jstr(r.json, "creator_token"));
    snprintf(code, sizeof code, "%s", e2e_jstr(r.json, "invites.0.invite"));
    const char *ann = e2e_jstr(r.json, "players.0.token");
    char ann_token[80];
    snprintf(ann_token, sizeof ann_token, "%s", ann);
    e2e_resp_free(&r);
    json_t *v = invites_until(c, id, creator, "nobody@example.org", "failed");
    ck_assert_msg(strstr(e2e_jstr(v, "places.0.mail.error"), "550"), "the server's words: %s",
                  e2e_jstr(v, "places.0.mail.error"));
    ck_assert_int_eq(e2e_jint(v, "places.0.mail.tries"), 1);   /* a 5xx is not tried again */
    ck_assert(json_is_null(json_object_get(json_object_get(json_array_get(json_object_get(v, "places"), 0), "mail"),
                                           "sent_at")));
    ck_assert(json_is_null(json_object_get(json_array_get(json_object_get(v, "places"), 1), "mailed_to")));
    ck_assert(json_is_null(json_object_get(json_array_get(json_object_get(v, "places"), 1), "mail")));
    json_decref(v);
    /* only the creator (or the admin) sees them: not a seat, not anyone */
    snprintf(path, sizeof path, "/v1/games/%s/invites", id);
    ck_assert_int_eq(e2e_req(c, "GET", path, NULL, NULL, NULL, &r), 401);
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "GET", path, ann_token, NULL, NULL, &r), 403);
    e2e_resp_free(&r);
    v = e2e_get_ok(c, path, d->admin, 200);
    json_decref(v);
    /* mailed elsewhere: the newest address, sent */
    snprintf(path, sizeof path, "/v1/games/%s/invites/mail", id);
    char body[200];
    snprintf(body, sizeof body, "{\"invite\":\"%s\",\"email\":\"bob@example.org\"}", code);
    ck_assert_int_eq(e2e_req(c, "POST", path, creator, body, NULL, &r), 202);
    e2e_resp_free(&r);
    v = invites_until(c, id, creator, "bob@example.org", "sent");
    ck_assert(json_is_null(json_object_get(json_object_get(json_array_get(json_object_get(v, "places"), 0), "mail"),
                                           "error")));
    ck_assert_msg(e2e_jstr(v, "places.0.mail.sent_at")[0], "sent_at");
    json_decref(v);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A mail its server took (250) and a remote server refused later: the bounce comes back to the mail's own
 * return path (CARCD_MAIL_RETURN_PATH, here in the mailbox carcd polls), names the mail, and fails it: an
 * open place's invitation shows it to the creator, a seat's address is stopped as a 5xx stops it. */
START_TEST(late_bounce_fails_the_mail)
{
    e2e_daemon *d = mail_daemon_env(true, "CARCD_MAIL_REPLY_TO=" REPLY_TEMPLATE,
                                    "CARCD_MAIL_RETURN_PATH=play+b{tag}@example.org");
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    char id[40], creator[80];
    create_waiting(c, "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true,\"email\":\"yan@bounce.example.net\"},"
                      "{\"invite\":true}]}", id, creator);
    /* sent first (Postfix took it), failed once its bounce is read */
    json_t *v = invites_until(c, id, creator, "yan@bounce.example.net", "failed");
    const char *err = e2e_jstr(v, "places.0.mail.error");
    ck_assert_msg(strncmp(err, "bounced: 5.1.1", 14) == 0 && strstr(err, "user unknown"), "%s", err);
    ck_assert_msg(e2e_jstr(v, "places.0.mail.sent_at")[0], "it had been handed over");
    json_decref(v);
    char *log = NULL;
    for (double t0 = e2e_now(); e2e_now() - t0 < 5; usleep(100 * 1000)) {   /* the poller logs once it commits */
        free(log);
        log = e2e_daemon_log(d);
        if (strstr(log, "bounced: mail "))
            break;
    }
    ck_assert_msg(strstr(log, "bounced: mail "), "the bounce is logged: %s", log);
    free(log);

    /* a seat's address that bounces: its mail stops, and the seat's view says why */
    e2e_game g;
    ck_assert_int_eq(e2e_game_create_raw(c, d, 2, NULL, NULL, false, &g), 201);
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s/email", g.id);
    ck_assert_int_eq(e2e_req(c, "PUT", path, g.token[0], "{\"email\":\"zed@bounce.example.net\"}", NULL, &r), 200);
    e2e_resp_free(&r);
    const char *reason = "";
    v = NULL;
    for (double t0 = e2e_now(); e2e_now() - t0 < 30 && !reason[0]; usleep(100 * 1000)) {
        json_decref(v);
        v = e2e_get_ok(c, path, g.token[0], 200);
        reason = e2e_jstr(v, "stopped_reason");
    }
    ck_assert_msg(strstr(reason, "the address bounced: 5.1.1"), "the seat's view: %s", reason);
    json_decref(v);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A person who only uses mail takes their seat by answering the invitation: "join Bobby", or "join" alone
 * (the address's local part as the name). Only the invited address joins; a wrong first line is answered
 * with how to do it; the same mail twice takes one seat; the join that takes the last place starts the game,
 * and each seat's mail brings its private link once. */
START_TEST(join_by_replying_to_the_invitation)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    char id[40], path[200], needle[200];
    create_waiting(c, "{\"players\":[{\"name\":\"Ann\",\"email\":\"alice@example.org\"},"
                      "{\"invite\":true,\"email\":\"bob@example.org\"},"
                      "{\"invite\":true,\"email\":\"carol@example.org\"}]}",
                   id, NULL);
    snprintf(path, sizeof path, "/v1/games/%s", id);
    mail inv_bob, inv_carol;
    place_mail("bob", id, "open-seat", 1, &inv_bob);
    place_mail("carol", id, "open-seat", 1, &inv_carol);
    ck_assert_str_ne(inv_bob.reply_to, inv_carol.reply_to);   /* a tag per place */

    /* another address than the invited one: ignored, and told nothing */
    char *m1 = reply_text("mallory@example.net", inv_bob.reply_to, inv_bob.msg_id, NULL, NULL, "join Mallory\r\n");
    ck_assert_int_eq(mail_in(d, NULL, m1, strlen(m1)), 0);
    free(m1);
    char *log = mail_in_log(d);
    ck_assert_msg(strstr(log, "not the address the invitation was mailed to"), "logged: %s", log);
    free(log);
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_int_eq(json_integer_value(json_object_get(v, "open")), 2);
    json_decref(v);

    /* Bob's first line is not "join": answered with how, and that answer may be answered again */
    char *m2 = reply_text("Bob@Example.org", inv_bob.reply_to, inv_bob.msg_id, NULL, NULL, "count me in!\r\n");
    ck_assert_int_eq(mail_in(d, NULL, m2, strlen(m2)), 0);
    free(m2);
    mail a;
    place_mail("bob", id, "join-answer", 1, &a);   /* the answer to a reply that took no seat */
    ck_assert_str_eq(a.subject, "Your reply took no seat");
    ck_assert_msg(strstr(a.text, "\"count me in!\", not \"join\"") && strstr(a.text, "join Bob"), "%s", a.text);
    ck_assert_str_eq(a.reply_to, inv_bob.reply_to);
    free(a.text);
    /* a name that is none (longer than 64 characters): answered too, and may be answered again */
    char long_join[200];
    snprintf(long_join, sizeof long_join, "join %070d\r\n", 7);
    char *m2b = reply_text("bob@example.org", inv_bob.reply_to, inv_bob.msg_id, NULL, NULL, long_join);
    ck_assert_int_eq(mail_in(d, NULL, m2b, strlen(m2b)), 0);
    free(m2b);
    place_mail("bob", id, "join-answer", 2, &a);   /* the answer to a name that is none */
    ck_assert_msg(strstr(a.text, "the name after \"join\": more than 64 characters"), "%s", a.text);
    ck_assert_str_eq(a.reply_to, inv_bob.reply_to);
    free(a.text);
    v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_int_eq(json_integer_value(json_object_get(v, "open")), 2);
    json_decref(v);

    /* "join Bobby": seat 1, a mail with the seat's private link; the same mail again takes nothing more */
    char *m3 = reply_text("bob@example.org", inv_bob.reply_to, inv_bob.msg_id, "bob-joins@client.example.net", NULL,
                          "Join Bobby\r\n\r\n> Ann invites you\r\n");
    ck_assert_int_eq(mail_in(d, NULL, m3, strlen(m3)), 0);
    ck_assert_int_eq(mail_in(d, NULL, m3, strlen(m3)), 0);
    free(m3);
    log = mail_in_log(d);
    ck_assert_msg(strstr(log, "joined: seat 1 as Bobby") && strstr(log, "handled before"), "%s", log);
    free(log);
    place_mail("bob", id, "join-answer", 3, &a);   /* the joined mail */
    ck_assert_str_eq(a.subject, "You have joined the game as Bobby");
    ck_assert_msg(strstr(a.text, "seat 1") && strstr(a.text, "The game starts when"), "%s", a.text);
    char bob_token[80];
    token_in(a.text, bob_token, sizeof bob_token);
    free(a.text);
    v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "waiting");
    ck_assert_int_eq(json_integer_value(json_object_get(v, "open")), 1);
    ck_assert_str_eq(e2e_jstr(v, "players.1.name"), "Bobby");
    json_decref(v);

    /* Carol's "join" alone takes the last seat under her address's name and starts the game; her first
     * seat mail carries her private link and the seat's own reply address */
    char *m4 = reply_text("carol@example.org", inv_carol.reply_to, inv_carol.msg_id, NULL, NULL, "join\r\n");
    ck_assert_int_eq(mail_in(d, NULL, m4, strlen(m4)), 0);
    free(m4);
    snprintf(needle, sizeof needle, "carcd.%s.2.invitation.", id);
    char *raw = wait_mail("carol", needle, 20);
    ck_assert_msg(raw, "carol's seat mail once the game starts");
    mail_parse(raw, &a);
    free(raw);
    ck_assert_msg(strstr(a.text, "you play as carol") || strstr(a.subject, "you play as carol"), "%s", a.subject);
    char carol_token[80];
    token_in(a.text, carol_token, sizeof carol_token);
    ck_assert_msg(strncmp(a.reply_to, "play+", 5) == 0 && strcmp(a.reply_to, inv_carol.reply_to) != 0,
                  "the seat's reply address, not the invitation's: %s", a.reply_to);
    free(a.text);
    snprintf(needle, sizeof needle, "carcd.%s.1.invitation.", id);
    raw = wait_mail("bob", needle, 20);
    ck_assert_msg(raw, "bob's seat mail at the start");
    free(raw);
    v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "active");
    json_decref(v);
    /* the mailed links are the seats' keys */
    snprintf(path, sizeof path, "/v1/games/%s/email", id);
    v = e2e_get_ok(c, path, bob_token, 200);
    ck_assert_str_eq(e2e_jstr(v, "email"), "bob@example.org");
    json_decref(v);
    v = e2e_get_ok(c, path, carol_token, 200);
    ck_assert_str_eq(e2e_jstr(v, "email"), "carol@example.org");
    json_decref(v);

    /* Carol answers her invitation again: the game is under way, and she is told so */
    char *m5 = reply_text("carol@example.org", inv_carol.reply_to, inv_carol.msg_id, NULL, NULL, "join\r\n");
    ck_assert_int_eq(mail_in(d, NULL, m5, strlen(m5)), 0);
    free(m5);
    place_mail("carol", id, "join-answer", 1, &a);   /* the answer to a join after the start */
    ck_assert_msg(strstr(a.text, "under way") && !strstr(a.text, "answer this mail"), "%s", a.text);
    ck_assert_str_eq(a.reply_to, "");
    free(a.text);
    free(inv_bob.text);
    free(inv_carol.text);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* Creations that mail invitations have a rate limit of their own (CARCD_RATE_INVITE_MAILS), besides the
 * creation's; a server that mails nothing refuses an address rather than let the creator think it went. */
START_TEST(invitation_mails_limited_and_refused_without_mail)
{
    static char smtp[300];
    snprintf(smtp, sizeof smtp, "CARCD_SMTP_URL=%s", smtp_url);
    const char *env[] = {smtp, "CARCD_MAIL_FROM=carcd@example.org", "CARCD_PUBLIC_URL=http://carcd.example.org",
                         "CARCD_MAIL_SECRET=" SECRET, "CARCD_RATE_INVITE_MAILS=1/1", NULL};
    e2e_daemon *d = e2e_daemon_up(env);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    const char *mailed = "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true,\"email\":\"dave@example.org\"}]}";
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, mailed, NULL, &r), 201);
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, mailed, NULL, &r), 429);
    ck_assert_str_eq(e2e_jstr(r.json, "type"), "/problems/rate-limited");
    char ra[16];
    ck_assert_msg(e2e_header(&r, "Retry-After", ra, sizeof ra) && atoi(ra) >= 1, "Retry-After");
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true}]}",
                             NULL, &r),
                     201);   /* a creation that mails nothing is not held back by it */
    e2e_resp_free(&r);
    const char *bad = "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true,\"email\":\"no address\"}]}";
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, bad, NULL, &r), 400);
    ck_assert_str_eq(e2e_jstr(r.json, "field"), "players[1].email");
    e2e_resp_free(&r);
    e2e_client_free(c);
    e2e_daemon_down(d);

    d = e2e_daemon_up(NULL);   /* no CARCD_SMTP_URL: no mail at all */
    c = e2e_client_new(d);
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, mailed, NULL, &r), 400);
    ck_assert_str_eq(e2e_jstr(r.json, "field"), "players[1].email");
    ck_assert_msg(strstr(e2e_jstr(r.json, "detail"), "mails no invitations"), "says why: %s",
                  e2e_jstr(r.json, "detail"));
    e2e_resp_free(&r);
    json_t *games = e2e_get_ok(c, "/v1/admin/games", d->admin, 200);
    ck_assert_int_eq((int)json_array_size(json_object_get(games, "games")), 0);   /* nothing was created */
    json_decref(games);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* POST /v1/games/{id}/invites/mail: the creator mails an invitation later, naming it by its code; only the
 * creator, only an open place; mailed again (a typo put right), the newest address is the seat's. */
START_TEST(invitation_mailed_later_by_the_creator)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true},{\"invite\":true}]}", NULL, &r),
                     201);
    char id[40], code0[64], code1[64], creator[80], ann[80], page1[300];
    snprintf(id, sizeof id, "%s", e2e_jstr(r.json, "id"));
    snprintf(code0, sizeof code0, "%s", e2e_jstr(r.json, "invites.0.invite"));
    snprintf(code1, sizeof code1, "%s", e2e_jstr(r.json, "invites.1.invite"));
    snprintf(page1, sizeof page1, "%s", e2e_jstr(r.json, "invites.1.page_url"));
    snprintf(creator, sizeof creator, "%s", e2e_jstr(r.json, "creator_token"));
    snprintf(ann, sizeof ann, "%s", e2e_jstr(r.json, "players.0.token"));
    e2e_resp_free(&r);
    char path[200], body[300];
    snprintf(path, sizeof path, "/v1/games/%s/invites/mail", id);
    snprintf(body, sizeof body, "{\"invite\":\"%s\",\"email\":\"dave@example.org\"}", code1);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, body, NULL, &r), 401);
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", path, ann, body, NULL, &r), 403);   /* a seat, not the creator */
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", path, creator, "{\"invite\":\"iv_nothing\",\"email\":\"dave@example.org\"}",
                             NULL, &r),
                     400);
    ck_assert_str_eq(e2e_jstr(r.json, "field"), "invite");
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", path, creator, body, NULL, &r), 202);
    ck_assert_int_eq(e2e_jint(r.json, "place"), 1);
    ck_assert_str_eq(e2e_jstr(r.json, "mailed_to"), "dave@example.org");
    e2e_resp_free(&r);
    mail m;
    place_mail("dave", id, "open-seat", 1, &m);
    char line[320];
    snprintf(line, sizeof line, "\n%s\n", page1);
    ck_assert_msg(strstr(m.text, line), "the second invitation's link (%s): %s", page1, m.text);
    ck_assert_msg(strstr(m.text, "Ann invites you") && strstr(m.text, "3 players, the base game, no clock"),
                  "who and what: %s", m.text);
    free(m.text);

    /* Bob takes place 0 without mail: it can no longer be mailed */
    char join[200], jbody[200];
    snprintf(join, sizeof join, "/v1/games/%s/join", id);
    snprintf(jbody, sizeof jbody, "{\"name\":\"Bob\",\"invite\":\"%s\"}", code0);
    ck_assert_int_eq(e2e_req(c, "POST", join, NULL, jbody, NULL, &r), 201);
    e2e_resp_free(&r);
    snprintf(body, sizeof body, "{\"invite\":\"%s\",\"email\":\"dave@example.org\"}", code0);
    ck_assert_int_eq(e2e_req(c, "POST", path, creator, body, NULL, &r), 409);
    ck_assert_str_eq(e2e_jstr(r.json, "type"), "/problems/no-open-seat");
    e2e_resp_free(&r);
    /* place 1 mailed again, to carol: hers is the seat's address once joined */
    snprintf(body, sizeof body, "{\"invite\":\"%s\",\"email\":\"carol@example.org\"}", code1);
    ck_assert_int_eq(e2e_req(c, "POST", path, creator, body, NULL, &r), 202);
    e2e_resp_free(&r);
    place_mail("carol", id, "open-seat", 1, &m);   /* the invitation mailed again */
    free(m.text);
    snprintf(jbody, sizeof jbody, "{\"name\":\"Carol\",\"invite\":\"%s\"}", code1);
    ck_assert_int_eq(e2e_req(c, "POST", join, NULL, jbody, NULL, &r), 201);
    ck_assert_str_eq(e2e_jstr(r.json, "status"), "active");
    ck_assert_str_eq(e2e_jstr(r.json, "email"), "carol@example.org");
    int seat = (int)json_integer_value(json_object_get(r.json, "seat"));
    e2e_resp_free(&r);
    char needle[200];
    snprintf(needle, sizeof needle, "carcd.%s.%d.invitation.", id, seat);
    char *raw = wait_mail("carol", needle, 20);
    ck_assert_msg(raw, "the seat's first mail at the newest address");
    free(raw);
    ck_assert_int_eq(e2e_req(c, "POST", path, creator, body, NULL, &r), 409);   /* started: nothing to mail */
    e2e_resp_free(&r);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A public game with a mailed invitation: a join from the lobby takes another open place first, and never
 * the invitee's address, even when it takes the mailed place because no other is left. carcd then mails the
 * invitee nothing of its own accord (the invitation said it would not write again), but the invitee's reply
 * "join" is answered with what became of the seat, and their link's join is refused saying so. */
START_TEST(lobby_join_never_takes_an_invitees_address)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true,\"email\":\"bob@example.org\"},"
                             "{\"invite\":true},{\"invite\":true}],\"public\":true}",
                             NULL, &r),
                     201);
    char id[40], code0[64];
    snprintf(id, sizeof id, "%s", e2e_jstr(r.json, "id"));
    snprintf(code0, sizeof code0, "%s", e2e_jstr(r.json, "invites.0.invite"));
    e2e_resp_free(&r);
    char path[200], view[200];
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    snprintf(view, sizeof view, "/v1/games/%s", id);
    mail inv;
    place_mail("bob", id, "open-seat", 1, &inv);
    const char *names[] = {"Eve", "Fay"};
    for (int k = 0; k < 2; k++) {   /* two strangers from the lobby: places 1 and 2, Bob's left for him */
        ck_assert_int_eq(e2e_req(c, "POST", "/v1/players", NULL, "{\"name\":\"x\"}", NULL, &r), 201);
        char key[80], body[200];
        snprintf(key, sizeof key, "%s", e2e_jstr(r.json, "key"));
        e2e_resp_free(&r);
        snprintf(body, sizeof body, "{\"name\":\"%s\"}", names[k]);
        ck_assert_int_eq(e2e_req(c, "POST", path, key, body, NULL, &r), 201);
        ck_assert_str_eq(e2e_jstr(r.json, "email"), "");
        e2e_resp_free(&r);
    }
    json_t *v = e2e_get_ok(c, view, NULL, 200);
    ck_assert(json_is_null(json_object_get(json_array_get(json_object_get(v, "places"), 0), "seat")));
    ck_assert_int_eq(e2e_jint(v, "places.1.seat"), 1);
    ck_assert_int_eq(e2e_jint(v, "places.2.seat"), 2);
    json_decref(v);
    /* a third stranger: only the mailed place is left; it is taken, without the address */
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/players", NULL, "{\"name\":\"x\"}", NULL, &r), 201);
    char key[80];
    snprintf(key, sizeof key, "%s", e2e_jstr(r.json, "key"));
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", path, key, "{\"name\":\"Gil\"}", NULL, &r), 201);
    ck_assert_str_eq(e2e_jstr(r.json, "email"), "");
    ck_assert_str_eq(e2e_jstr(r.json, "status"), "active");
    char gil[80];
    snprintf(gil, sizeof gil, "%s", e2e_jstr(r.json, "token"));
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/email", id);
    v = e2e_get_ok(c, path, gil, 200);
    ck_assert_msg(json_is_null(json_object_get(v, "email")), "Gil's seat has no address");
    json_decref(v);
    char needle[200];
    snprintf(needle, sizeof needle, "carcd.%s.3.", id);   /* Gil's seat: nothing goes to Bob for it */
    ck_assert_msg(wait_mail("bob", needle, 1.5) == NULL, "no mail of Gil's seat at Bob's address");
    snprintf(needle, sizeof needle, "carcd.%s.-1.join-answer.", id);   /* nor anything unasked */
    ck_assert_msg(wait_mail("bob", needle, 1.5) == NULL, "carcd wrote to Bob unasked");
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    char body[200];
    snprintf(body, sizeof body, "{\"name\":\"Bob\",\"invite\":\"%s\"}", code0);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, body, NULL, &r), 409);   /* started without him */
    e2e_resp_free(&r);
    /* Bob answers his invitation: told that a player from the lobby took his seat, with no way to answer again;
     * a stranger's reply to the same address is still ignored */
    char *m = reply_text("mallory@example.net", inv.reply_to, inv.msg_id, NULL, NULL, "join Mallory\r\n");
    ck_assert_int_eq(mail_in(d, NULL, m, strlen(m)), 0);
    free(m);
    m = reply_text("Bob@example.org", inv.reply_to, inv.msg_id, NULL, NULL, "join Bob\r\n");
    ck_assert_int_eq(mail_in(d, NULL, m, strlen(m)), 0);
    free(m);
    char *log = mail_in_log(d);
    ck_assert_msg(strstr(log, "not the address the invitation was mailed to") &&
                  strstr(log, "one of them took the seat your invitation kept for you"), "%s", log);
    free(log);
    mail a;
    place_mail("bob", id, "join-answer", 1, &a);   /* the answer to the displaced invitee's join */
    ck_assert_str_eq(a.subject, "Your reply took no seat");
    ck_assert_msg(strstr(a.text, "players in this server's lobby") && strstr(a.text, "for another invitation") &&
                  !strstr(a.text, "answer this mail"), "%s", a.text);
    ck_assert_str_eq(a.reply_to, "");
    free(a.text);
    free(inv.text);
    /* while the game still waits (another mailed place open), Bob's link says who took his seat */
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true,\"email\":\"bob@example.org\"},"
                             "{\"invite\":true,\"email\":\"carol@example.org\"}],\"public\":true}",
                             NULL, &r),
                     201);
    snprintf(id, sizeof id, "%s", e2e_jstr(r.json, "id"));
    snprintf(code0, sizeof code0, "%s", e2e_jstr(r.json, "invites.0.invite"));
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/players", NULL, "{\"name\":\"x\"}", NULL, &r), 201);
    snprintf(key, sizeof key, "%s", e2e_jstr(r.json, "key"));
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", path, key, "{\"name\":\"Hal\"}", NULL, &r), 201);
    ck_assert_str_eq(e2e_jstr(r.json, "status"), "waiting");
    e2e_resp_free(&r);
    snprintf(body, sizeof body, "{\"name\":\"Bob\",\"invite\":\"%s\"}", code0);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, body, NULL, &r), 409);
    ck_assert_msg(strstr(e2e_jstr(r.json, "detail"), "taken already, by a player from the lobby"), "%s",
                  e2e_jstr(r.json, "detail"));
    e2e_resp_free(&r);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* An invitation's stop link: its page (a GET changes nothing), the one-click POST, then no invitation to that
 * address (in any case of letters) from a creation or from the creator later. */
START_TEST(invitation_stop_link)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true,\"email\":\"dave@example.org\"}]}",
                             NULL, &r),
                     201);
    char id[40];
    snprintf(id, sizeof id, "%s", e2e_jstr(r.json, "id"));
    e2e_resp_free(&r);
    mail m;
    place_mail("dave", id, "open-seat", 1, &m);
    free(m.text);
    const char *at = strstr(m.unsubscribe, "/v1/mail/invitations/stop/");
    ck_assert_ptr_nonnull(at);
    char path[200];
    snprintf(path, sizeof path, "%.*s", (int)(strchr(at, '>') - at), at);

    static const char *const html[] = {"Accept: text/html,application/xhtml+xml,*/*;q=0.8", NULL};
    ck_assert_int_eq(e2e_req(c, "GET", path, NULL, NULL, html, &r), 200);   /* the page: a button, nothing done */
    ck_assert_msg(strstr(r.body, "<form method=\"post\">") && !strstr(r.body, "dave"), "%s", r.body);
    e2e_resp_free(&r);
    const char *again = "{\"players\":[{\"name\":\"Bo\"},{\"invite\":true,\"email\":\"DAVE@example.org\"}]}";
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, again, NULL, &r), 201);   /* the GET stopped nothing */
    e2e_resp_free(&r);

    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, NULL, NULL, &r), 200);   /* one-click, as a mail program */
    ck_assert(json_is_true(json_object_get(r.json, "stopped")));
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, NULL, html, &r), 200);   /* a browser's form, again: a page */
    ck_assert_msg(strstr(r.body, "will not mail an invitation to this address again"), "%s", r.body);
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/mail/invitations/stop/st_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                             NULL, NULL, NULL, &r),
                     404);
    e2e_resp_free(&r);

    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, again, NULL, &r), 400);
    ck_assert_str_eq(e2e_jstr(r.json, "field"), "players[1].email");
    ck_assert_msg(strstr(e2e_jstr(r.json, "detail"), "asked not to get invitations"), "%s", e2e_jstr(r.json, "detail"));
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"players\":[{\"name\":\"Bo\"},{\"invite\":true}]}", NULL, &r),
                     201);
    char creator[80], code[80], mpath[200], body[300];
    snprintf(creator, sizeof creator, "%s", e2e_jstr(r.json, "creator_token"));
    snprintf(code, sizeof code, "%s", e2e_jstr(r.json, "invites.0.invite"));
    snprintf(mpath, sizeof mpath, "/v1/games/%s/invites/mail", e2e_jstr(r.json, "id"));
    e2e_resp_free(&r);
    snprintf(body, sizeof body, "{\"invite\":\"%s\",\"email\":\"Dave@Example.org\"}", code);
    ck_assert_int_eq(e2e_req(c, "POST", mpath, creator, body, NULL, &r), 400);
    ck_assert_str_eq(e2e_jstr(r.json, "field"), "email");
    e2e_resp_free(&r);
    snprintf(body, sizeof body, "{\"invite\":\"%s\",\"email\":\"carol@example.org\"}", code);
    ck_assert_int_eq(e2e_req(c, "POST", mpath, creator, body, NULL, &r), 202);   /* another address still can */
    e2e_resp_free(&r);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A program's mail (an out-of-office answer, a list's) to a seat's or an open place's reply address is logged
 * and nothing else: no move, no seat, no answer, so that carcd and an autoresponder never write each other for
 * ever. The same reply from the person plays. */
START_TEST(automatic_replies_ignored)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    mail turn;
    first_turn(c, d, "alice", "bob", &g, &turn);
    static const char *const autos[] = {
        "Auto-Submitted: auto-replied\r\nContent-Type: text/plain; charset=utf-8\r\n",
        "X-Autoreply: yes\r\nContent-Type: text/plain; charset=utf-8\r\n",
    };
    for (int i = 0; i < 2; i++) {
        char *rp = reply_text("alice@example.org", turn.reply_to, turn.msg_id, NULL, autos[i],
                              i == 0 ? "1\r\n" : "I am out of the office until Monday.\r\n");
        ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
        free(rp);
    }
    char *log = mail_in_log(d);
    ck_assert_msg(strstr(log, "an automatic mail (Auto-Submitted: auto-replied): not read as a reply") &&
                      strstr(log, "an automatic mail (X-Autoreply)"),
                  "%s", log);
    free(log);
    ck_assert_int_eq(game_seq(c, &g), 0);

    /* an open place's invitation answered by a program: no seat, no answer */
    char id[40];
    create_waiting(c, "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true,\"email\":\"carol@example.org\"}]}", id,
                   NULL);
    mail inv;
    place_mail("carol", id, "open-seat", 1, &inv);
    char *rp = reply_text("carol@example.org", inv.reply_to, inv.msg_id, NULL,
                          "Precedence: bulk\r\nContent-Type: text/plain; charset=utf-8\r\n", "join\r\n");
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    free(inv.text);
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s", id);
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_int_eq(e2e_jint(v, "open"), 1);
    json_decref(v);

    /* the person's own reply plays; and no answer went to any of the programs' mails */
    rp = reply_text("alice@example.org", turn.reply_to, turn.msg_id, NULL, NULL, "1\r\n");
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    ck_assert_int_eq(game_seq(c, &g), 1);
    usleep(1000 * 1000);   /* anything the ignored mails had caused was committed before the move */
    ck_assert_int_eq(seat_mails("alice", g.id, 0, "refused"), 0);
    ck_assert_int_eq(seat_mails("carol", id, -1, "join-answer"), 0);
    free(turn.text);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A responder that ignores Auto-Submitted and answers every answer, or a person who keeps sending what cannot
 * be played: at most 10 answers an hour to one address of one seat (outbox.h), the rest logged unanswered;
 * another seat's address is answered as before. */
START_TEST(answers_limited_per_hour)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    mail turn, inv;
    first_turn(c, d, "alice", "bob", &g, &turn);
    seat_mail("bob", g.id, 1, "invitation", 1, &inv);
    for (int i = 0; i < 11; i++) {   /* out of turn: each refused */
        char *rp = reply_text("bob@example.org", inv.reply_to, inv.msg_id, NULL, NULL, "1\r\n");
        ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
        free(rp);
    }
    char *rp = reply_text("bob@example.org", inv.reply_to, inv.msg_id, NULL, NULL, "status\r\n");
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    char *log = mail_in_log(d);
    ck_assert_msg(strstr(log, "(not answered: 10 answers went to this address in the last hour)") &&
                      strstr(log, "the game at move 0: not answered, 10 answers went to this address"),
                  "%s", log);
    free(log);
    mail m;
    seat_mail("bob", g.id, 1, "refused", 10, &m);   /* the tenth came */
    free(m.text);
    /* Alice's address is another's: her refused reply is answered */
    rp = reply_text("alice@example.org", turn.reply_to, turn.msg_id, NULL, NULL, "E 40,40 r0\r\n");
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    seat_mail("alice", g.id, 0, "refused", 1, &m);
    free(m.text);
    usleep(1000 * 1000);   /* Bob's were written before Alice's answer */
    ck_assert_int_eq(seat_mails("bob", g.id, 1, "refused"), 10);
    ck_assert_int_eq(seat_mails("bob", g.id, 1, "status"), 0);

    /* an open place's invitation: ten refusals answered, the eleventh not; a join is answered all the same */
    char id[40];
    create_waiting(c, "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true,\"email\":\"carol@example.org\"},"
                      "{\"invite\":true}]}",
                   id, NULL);
    mail place;
    place_mail("carol", id, "open-seat", 1, &place);
    for (int i = 0; i < 11; i++) {
        rp = reply_text("carol@example.org", place.reply_to, place.msg_id, NULL, NULL, "hello there\r\n");
        ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
        free(rp);
    }
    log = mail_in_log(d);
    ck_assert_msg(strstr(log, "not \\\"join\\\" (not answered: 10 answers went to this address"), "%s",   /* JSON */
                  log + (strlen(log) > 800 ? strlen(log) - 800 : 0));
    free(log);
    rp = reply_text("carol@example.org", place.reply_to, place.msg_id, NULL, NULL, "join Carol\r\n");
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    place_mail("carol", id, "join-answer", 11, &m);   /* ten refusals, then the join's */
    ck_assert_str_eq(m.subject, "You have joined the game as Carol");
    free(m.text);
    free(place.text);
    free(inv.text);
    free(turn.text);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* "status" answered: the game as it is, to a seat whose turn it is not (whom it waits for, the board, no
 * moves) and to the seat whose turn it is (its legal moves, numbered: a number answering that mail plays). A
 * move out of turn is refused saying whom the game waits for. */
START_TEST(status_by_mail)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    mail turn, inv, st;
    first_turn(c, d, "carol", "dave", &g, &turn);
    seat_mail("dave", g.id, 1, "invitation", 1, &inv);
    ck_assert_msg(strstr(inv.text, "A reply \"status\" to any mail of this game"), "the invitation says it: %s",
                  inv.text);
    ck_assert_msg(strstr(turn.text, "\"status\" brings the game as it is"), "the turn mail says it: %s", turn.text);
    char *rp = reply_text("dave@example.org", inv.reply_to, inv.msg_id, NULL, NULL, "status\r\n");
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    seat_mail("dave", g.id, 1, "status", 1, &st);
    char want[200];
    snprintf(want, sizeof want, "Carcassonne game %.8s: the game at move 0", g.id);
    ck_assert_str_eq(st.subject, want);
    ck_assert_msg(strstr(st.text, "The game waits for Ann (seat 0): place a tile.") && strstr(st.text, "The board:") &&
                      !strstr(st.text, "Your legal moves") && !strstr(st.text, "(a move)"),
                  "%s", st.text);
    ck_assert_str_eq(st.reply_to, inv.reply_to);   /* the seat's own reply address */
    free(st.text);
    /* a move out of turn: refused, saying whom the game waits for */
    rp = reply_text("dave@example.org", inv.reply_to, inv.msg_id, NULL, NULL, "1\r\n");
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    seat_mail("dave", g.id, 1, "refused", 1, &st);
    ck_assert_msg(strstr(st.text, "Your reply was not played: the game does not wait for you now") &&
                      strstr(st.text, "The game waits for Ann (seat 0): place a tile."),
                  "%s", st.text);
    free(st.text);
    free(inv.text);
    ck_assert_int_eq(game_seq(c, &g), 0);

    rp = reply_text("carol@example.org", turn.reply_to, turn.msg_id, NULL, NULL, "Status\r\n");
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    seat_mail("carol", g.id, 0, "status", 1, &st);
    ck_assert_msg(strstr(st.text, "it is your turn (seat 0, move 0)") && strstr(st.text, "Your legal moves:\n   1. "),
                  "%s", st.text);
    char *log = mail_in_log(d);
    ck_assert_msg(strstr(log, "status: the game at move 0, answered"), "%s", log);
    free(log);
    rp = reply_text("carol@example.org", st.reply_to, st.msg_id, NULL, NULL, "1\r\n");   /* played from it */
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    ck_assert_int_eq(game_seq(c, &g), 1);
    free(st.text);
    free(turn.text);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* Replies as mail programs and people write them: a name outside ASCII in the mails (UTF-8 under a utf-8
 * label); a first line that only starts with "resign" refused, the game unchanged; a move below the quote
 * (bottom-posted, as mutt writes), as "2." copied from the list; a say of 200 two-byte characters kept whole;
 * a say from Thunderbird's format=flowed text unwrapped where its line was soft-broken. */
START_TEST(replies_as_mail_programs_write_them)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    long created = e2e_game_create_raw(c, d, 2, NULL,
                                       "{\"players\":[{\"name\":\"Jürgen\",\"email\":\"carol@example.org\"},"
                                       "{\"name\":\"Zoë\",\"email\":\"dave@example.org\"}]}",
                                       false, &g);
    ck_assert_int_eq(created, 201);
    mail turn, inv, rf;
    seat_mail("carol", g.id, 0, "turn", 1, &turn);
    ck_assert_msg(strstr(turn.text, "Jürgen, it is your turn (seat 0, move 0)"), "%s", turn.text);
    seat_mail("dave", g.id, 1, "invitation", 1, &inv);
    ck_assert_msg(strstr(inv.text, "Hello Zoë,"), "%s", inv.text);

    char *rp = reply_text("carol@example.org", turn.reply_to, turn.msg_id, NULL, NULL,
                          "resign later maybe, first: 2\r\n");
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    seat_mail("carol", g.id, 0, "refused", 1, &rf);
    ck_assert_msg(strstr(rf.text, "to resign, write \"resign\" alone on the first line"), "%s", rf.text);
    free(rf.text);
    int pending = -1;
    ck_assert_str_eq(status_of(c, &g, &pending), "active");
    ck_assert_int_eq(game_seq(c, &g), 0);

    rp = reply_text("carol@example.org", turn.reply_to, turn.msg_id, NULL, NULL,
                    "On Mon, 7 Dec 2026 at 08:26, carcd wrote:\r\n> Your legal moves:\r\n>    1. something\r\n"
                    "\r\n2.\r\n\r\n-- \r\nJürgen\r\n");
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    ck_assert_int_eq(game_seq(c, &g), 1);
    char *log = mail_in_log(d);
    ck_assert_msg(strstr(log, "moved: \\\"2.\\\" at move 0"), "%s", log);   /* the log line's JSON escapes */
    free(log);

    char say[4 + 400 + 3] = "say ";
    for (int i = 0; i < 200; i++)
        memcpy(say + 4 + 2 * i, "é", 2);
    memcpy(say + 404, "\r\n", 3);
    rp = reply_text("dave@example.org", inv.reply_to, inv.msg_id, NULL, NULL, say);
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    rp = reply_text("dave@example.org", inv.reply_to, inv.msg_id, NULL,
                    "Content-Type: text/plain; charset=UTF-8; format=flowed\r\n",
                    "say Good game so far, but that city in the north is going to \r\nbe mine!\r\n\r\n"
                    "> On Mon, Jürgen wrote:\r\n> 1\r\n");
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    char path[120];
    snprintf(path, sizeof path, "/v1/games/%s/messages", g.id);
    json_t *a = e2e_get_ok(c, path, g.token[0], 200);
    ck_assert_int_eq(json_array_size(json_object_get(a, "messages")), 2);
    say[404] = 0;
    ck_assert_str_eq(e2e_jstr(a, "messages.0.text"), say + 4);
    ck_assert_str_eq(e2e_jstr(a, "messages.1.text"),
                     "Good game so far, but that city in the north is going to be mine!");
    json_decref(a);
    /* "resign" alone, in whatever case a phone writes it, resigns: the other seat wins */
    rp = reply_text("carol@example.org", turn.reply_to, NULL, NULL, NULL, "Resign\r\n");
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    ck_assert_str_eq(status_of(c, &g, &pending), "finished");
    free(inv.text);
    free(turn.text);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* Who joined and who left, to one address, at most CD_MAIL_LOBBY_NOTICES_PER_HOUR (6) times an hour: a join
 * and a leave by one invitation code, again and again, filled the other seats' mailboxes with a name of the
 * sender's choosing (an outside audit sent 40 mails in half a second). The sixth says that no more come. */
START_TEST(waiting_game_mails_capped)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"players\":[{\"name\":\"Ann\",\"email\":\"alice@example.org\"},"
                             "{\"invite\":true},{\"invite\":true}]}",
                             NULL, &r),
                     201);
    char id[40], code[80], leave[200];
    snprintf(id, sizeof id, "%s", e2e_jstr(r.json, "id"));
    snprintf(code, sizeof code, "%s", e2e_jstr(r.json, "invites.0.invite"));
    e2e_resp_free(&r);
    snprintf(leave, sizeof leave, "/v1/games/%s/leave", id);
    for (int k = 0; k < 5; k++) {   /* ten notices' worth */
        char name[20], token[80];
        snprintf(name, sizeof name, "Visitor %d", k);
        ck_assert_int_eq(e2e_join_by_code(c, id, name, code, token), 1);
        ck_assert_int_eq(e2e_req(c, "POST", leave, token, NULL, NULL, &r), 200);
        e2e_resp_free(&r);
    }
    char sql[300];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM mail_outbox WHERE game_id = '%s' AND kind IN ('joined', 'left') "
             "AND rcpt = 'alice@example.org'", id);
    ck_assert_int_eq(e2e_db_long(d, sql), 6);
    mail m;
    seat_mail("alice", id, 0, "left", 3, &m);   /* joined, left, joined, left, joined, left: the sixth, newest */
    ck_assert_msg(strstr(m.text, "Visitor 2 left") && strstr(m.text, "carcd sends you no more of them this hour"),
                  "%s", m.text);
    free(m.text);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A waiting game's seats that have an address hear, by mail, who joins while it waits, and that it was
 * cancelled if it was (mail/waiting.h): the seats named with one at creation and those taken with a mailed
 * invitation; never the joiner, nor a seat whose join started the game (the start's mails say it). The
 * one-click unsubscribe of such a mail stops the seat's mail for good: the start mails it nothing. */
START_TEST(waiting_game_tells_its_seats_by_mail)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"players\":[{\"name\":\"Ann\",\"email\":\"alice@example.org\"},"
                             "{\"invite\":true,\"email\":\"bob@example.org\"},{\"invite\":true},{\"invite\":true}]}",
                             NULL, &r),
                     201);
    char id[40], creator[80], code1[80], path[200];
    snprintf(id, sizeof id, "%s", e2e_jstr(r.json, "id"));
    snprintf(creator, sizeof creator, "%s", e2e_jstr(r.json, "creator_token"));
    snprintf(code1, sizeof code1, "%s", e2e_jstr(r.json, "invites.1.invite"));
    e2e_resp_free(&r);
    mail inv, m;
    place_mail("bob", id, "open-seat", 1, &inv);

    /* Bob takes his place by mail: Ann hears it, Bob (the joiner) does not */
    char *rp = reply_text("bob@example.org", inv.reply_to, inv.msg_id, NULL, NULL, "join Bob\r\n");
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    free(inv.text);
    seat_mail("alice", id, 0, "joined", 1, &m);
    char subject[200];
    snprintf(subject, sizeof subject, "Carcassonne game %.8s: Bob joined, 2 seats open", id);
    ck_assert_str_eq(m.subject, subject);
    char words[300];
    snprintf(words, sizeof words, "Hello Ann,\n\nBob joined the Carcassonne game %s: 2 of 4 seats taken, 2 open.\n"
                                  "At the table so far: Ann and Bob.\n", id);
    ck_assert_msg(strncmp(m.text, words, strlen(words)) == 0, "%s", m.text);
    snprintf(words, sizeof words, "The game's page:\nhttp://");
    ck_assert_msg(strstr(m.text, words) && strstr(m.text, id), "the page's link: %s", m.text);
    ck_assert_msg(strstr(m.reply_to, "@"), "a reply can say leave: %s", m.reply_to);   /* the seat's own address */
    const char *u = strstr(m.unsubscribe, "/v1/mail/unsubscribe/");
    ck_assert_msg(u, "List-Unsubscribe: %s", m.unsubscribe);
    char ann_stop[200], ann_reply[200];
    snprintf(ann_stop, sizeof ann_stop, "%.*s", (int)strcspn(u, ">"), u);
    snprintf(ann_reply, sizeof ann_reply, "%s", m.reply_to);
    /* the stop link is not the reply address's tag (a link travels further than a mail; the tag plays moves) */
    char reply_tag[40];
    snprintf(reply_tag, sizeof reply_tag, "%.24s", strchr(ann_reply, '+') ? strchr(ann_reply, '+') + 1 : "");
    ck_assert_msg(strlen(reply_tag) == 24 && !strstr(ann_stop, reply_tag), "%s, %s", ann_stop, ann_reply);
    free(m.text);
    place_mail("bob", id, "join-answer", 1, &m);   /* Bob's own answer, with his link */
    free(m.text);

    /* Carl takes a place with its code (no address): Ann and Bob hear it */
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    char body[200];
    snprintf(body, sizeof body, "{\"name\":\"Carl\",\"invite\":\"%s\"}", code1);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, body, NULL, &r), 201);
    e2e_resp_free(&r);
    seat_mail("bob", id, 1, "joined", 1, &m);
    snprintf(words, sizeof words, "Hello Bob,\n\nCarl joined the Carcassonne game %s: 3 of 4 seats taken, 1 open.\n"
                                  "At the table so far: Ann, Bob and Carl.\n", id);
    ck_assert_msg(strncmp(m.text, words, strlen(words)) == 0, "%s", m.text);
    free(m.text);
    seat_mail("alice", id, 0, "joined", 2, &m);
    ck_assert_msg(strstr(m.subject, "Carl joined, 1 seat open"), "%s", m.subject);
    free(m.text);
    ck_assert_int_eq(seat_mails("bob", id, 1, "joined"), 1);   /* his own join told him nothing */

    /* a reply to the seat's address while the game waits: nothing to play, and said so */
    rp = reply_text("alice@example.org", ann_reply, NULL, NULL, NULL, "1\r\n");
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    char *log = mail_in_log(d);
    ck_assert_msg(strstr(log, "the game has not started"), "%s", log);
    free(log);

    /* Ann unsubscribes; the creator starts the game with its three seats: Bob's mail comes, Ann's never */
    const char *form[] = {"Content-Type: application/x-www-form-urlencoded", NULL};
    ck_assert_int_eq(e2e_req(c, "POST", ann_stop, NULL, "List-Unsubscribe=One-Click", form, &r), 200);
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/start", id);
    ck_assert_int_eq(e2e_req(c, "POST", path, creator, NULL, NULL, &r), 200);
    ck_assert_str_eq(e2e_jstr(r.json, "status"), "active");
    e2e_resp_free(&r);
    seat_mail("bob", id, 1, "invitation", 1, &m);   /* written in the start's transaction after Ann's would be */
    free(m.text);
    usleep(1500 * 1000);   /* and a moment more for anything sent after it */
    ck_assert_int_eq(seat_mails("alice", id, 0, "invitation") + seat_mails("alice", id, 0, "turn"), 0);
    ck_assert_int_eq(seat_mails("alice", id, 0, "joined"), 2);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* PUT .../email while the game waits: the seat hears who joins from then on, and its newest address gets the
 * start's mail; null stops it (the start mails it nothing); a game cancelled before its start refuses it. */
START_TEST(waiting_seat_gives_its_address)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    for (int round = 0; round < 2; round++) {   /* 0: an address changed; 1: stopped */
        ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                                 "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true},{\"invite\":true}]}", NULL, &r),
                         201);
        char id[40], token[80], codes[2][80], path[200], body[200];
        snprintf(id, sizeof id, "%s", e2e_jstr(r.json, "id"));
        snprintf(token, sizeof token, "%s", e2e_jstr(r.json, "players.0.token"));
        for (int i = 0; i < 2; i++)
            snprintf(codes[i], sizeof codes[i], "%s", e2e_jstr(r.json, i ? "invites.1.invite" : "invites.0.invite"));
        e2e_resp_free(&r);
        snprintf(path, sizeof path, "/v1/games/%s/email", id);
        ck_assert_int_eq(e2e_req(c, "PUT", path, token, "{\"email\":\"alice@example.org\"}", NULL, &r), 200);
        ck_assert_str_eq(e2e_jstr(r.json, "email"), "alice@example.org");
        e2e_resp_free(&r);
        /* the seat's view of the waiting game says it, as documented; the public's does not */
        snprintf(path, sizeof path, "/v1/games/%s", id);
        json_t *v = e2e_get_ok(c, path, token, 200);
        e2e_openapi_load();
        char why[600];
        ck_assert_msg(e2e_schema_validate(e2e_jget(e2e_openapi_doc(), "components.schemas.WaitingGameView"), v, "$",
                                          why, sizeof why),
                      "%s", why);
        ck_assert_int_eq(e2e_jint(v, "you.seat"), 0);
        ck_assert_str_eq(e2e_jstr(v, "mail.email"), "alice@example.org");
        json_decref(v);
        v = e2e_get_ok(c, path, NULL, 200);
        ck_assert_ptr_null(json_object_get(v, "mail"));
        ck_assert_ptr_null(json_object_get(v, "you"));
        json_decref(v);
        snprintf(path, sizeof path, "/v1/games/%s/join", id);
        snprintf(body, sizeof body, "{\"name\":\"Bob\",\"invite\":\"%s\"}", codes[0]);
        ck_assert_int_eq(e2e_req(c, "POST", path, NULL, body, NULL, &r), 201);
        e2e_resp_free(&r);
        mail m;
        seat_mail("alice", id, 0, "joined", 1, &m);   /* told from the PUT on */
        free(m.text);
        snprintf(path, sizeof path, "/v1/games/%s/email", id);
        ck_assert_int_eq(e2e_req(c, "PUT", path, token,
                                 round == 0 ? "{\"email\":\"dave@example.org\"}" : "{\"email\":null}", NULL, &r),
                         200);
        if (round == 1)
            ck_assert_str_eq(e2e_jstr(r.json, "stopped_reason"), "stopped by the seat");
        e2e_resp_free(&r);
        snprintf(path, sizeof path, "/v1/games/%s/join", id);
        snprintf(body, sizeof body, "{\"name\":\"Carl\",\"invite\":\"%s\"}", codes[1]);
        ck_assert_int_eq(e2e_req(c, "POST", path, NULL, body, NULL, &r), 201);
        ck_assert_str_eq(e2e_jstr(r.json, "status"), "active");
        e2e_resp_free(&r);
        if (round == 0) {   /* the newest address: its seat mail and first turn */
            seat_mail("dave", id, 0, "turn", 1, &m);
            free(m.text);
        } else {
            usleep(1500 * 1000);
        }
        ck_assert_int_eq(seat_mails("alice", id, 0, "invitation") + seat_mails("alice", id, 0, "turn"), 0);
    }
    /* cancelled before its start: the address is refused as the game's state says */
    char id[40], creator[80], path[200];
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true}]}",
                             NULL, &r),
                     201);
    snprintf(id, sizeof id, "%s", e2e_jstr(r.json, "id"));
    snprintf(creator, sizeof creator, "%s", e2e_jstr(r.json, "creator_token"));
    char token[80];
    snprintf(token, sizeof token, "%s", e2e_jstr(r.json, "players.0.token"));
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/cancel", id);
    ck_assert_int_eq(e2e_req(c, "POST", path, creator, NULL, NULL, &r), 200);
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/email", id);
    ck_assert_int_eq(e2e_req(c, "PUT", path, token, "{\"email\":\"alice@example.org\"}", NULL, &r), 409);
    e2e_resp_free(&r);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A game that began to wait before its seats' rows were written (before f919126: the addresses only in its
 * settings, the start mailing them): a seat's {"email": null} still stops its mail, where the start went on
 * to mail the creation's address. */
START_TEST(waiting_seat_without_row_stops)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"players\":[{\"name\":\"Ann\",\"email\":\"alice@example.org\"},"
                             "{\"name\":\"Bob\",\"email\":\"bob@example.org\"},{\"invite\":true}]}",
                             NULL, &r),
                     201);
    char id[40], token[80], code[80], path[200], body[200], sql[200];
    snprintf(id, sizeof id, "%s", e2e_jstr(r.json, "id"));
    snprintf(token, sizeof token, "%s", e2e_jstr(r.json, "players.0.token"));
    snprintf(code, sizeof code, "%s", e2e_jstr(r.json, "invites.0.invite"));
    e2e_resp_free(&r);
    snprintf(sql, sizeof sql,
             "WITH d AS (DELETE FROM mail_seats WHERE game_id = '%s' RETURNING 1) SELECT count(*) FROM d", id);
    ck_assert_int_eq(e2e_db_long(d, sql), 2);   /* as such a game was stored */
    snprintf(path, sizeof path, "/v1/games/%s/email", id);
    ck_assert_int_eq(e2e_req(c, "PUT", path, token, "{\"email\":null}", NULL, &r), 200);
    ck_assert_str_eq(e2e_jstr(r.json, "email"), "alice@example.org");
    ck_assert_str_eq(e2e_jstr(r.json, "stopped_reason"), "stopped by the seat");
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    snprintf(body, sizeof body, "{\"name\":\"Carl\",\"invite\":\"%s\"}", code);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, body, NULL, &r), 201);
    ck_assert_str_eq(e2e_jstr(r.json, "status"), "active");
    e2e_resp_free(&r);
    mail m;   /* Bob, who said nothing, still gets the start's mail at his creation address */
    seat_mail("bob", id, 1, "invitation", 1, &m);
    free(m.text);
    ck_assert_int_eq(seat_mails("alice", id, 0, "invitation") + seat_mails("alice", id, 0, "turn"), 0);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A waiting game cancelled, by its creator or by the admin with a reason: every seat with an address is told. */
START_TEST(waiting_game_cancelled_by_mail)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    char id[40], creator[80], path[200], words[400];
    create_waiting(c, "{\"players\":[{\"name\":\"Ann\",\"email\":\"alice@example.org\"},"
                      "{\"invite\":true,\"email\":\"carol@example.org\"},{\"invite\":true}]}",
                   id, creator);
    mail inv, m;
    place_mail("carol", id, "open-seat", 1, &inv);
    char *rp = reply_text("carol@example.org", inv.reply_to, inv.msg_id, NULL, NULL, "join\r\n");
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    free(inv.text);
    seat_mail("alice", id, 0, "joined", 1, &m);
    free(m.text);
    e2e_resp r;
    snprintf(path, sizeof path, "/v1/games/%s/cancel", id);
    ck_assert_int_eq(e2e_req(c, "POST", path, creator, NULL, NULL, &r), 200);
    ck_assert_str_eq(e2e_jstr(r.json, "cancelled_by"), "creator");
    e2e_resp_free(&r);
    const char *users[] = {"alice", "carol"}, *names[] = {"Ann", "carol"};
    for (int seat = 0; seat < 2; seat++) {
        seat_mail(users[seat], id, seat, "cancelled", 1, &m);
        snprintf(words, sizeof words, "Carcassonne game %.8s: cancelled before it started", id);
        ck_assert_str_eq(m.subject, words);
        ck_assert_str_eq(m.reply_to, "");   /* nothing a reply could do any more */
        snprintf(words, sizeof words,
                 "Hello %s,\n\nthe Carcassonne game %s was cancelled by the player who created it before it started, "
                 "with 2 of its 3 seats taken (Ann and carol). It will not be played, and carcd sends no more mail "
                 "about it.\n", names[seat], id);
        ck_assert_msg(strncmp(m.text, words, strlen(words)) == 0, "%s", m.text);
        ck_assert_msg(strstr(m.unsubscribe, "/v1/mail/unsubscribe/"), "%s", m.unsubscribe);
        free(m.text);
    }

    /* the admin's cancel, with a reason */
    create_waiting(c, "{\"players\":[{\"name\":\"Ann\",\"email\":\"alice@example.org\"},{\"invite\":true}]}",
                   id, NULL);
    snprintf(path, sizeof path, "/v1/admin/games/%s/cancel", id);
    ck_assert_int_eq(e2e_req(c, "POST", path, d->admin, "{\"reason\":\"a test game\"}", NULL, &r), 200);
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s", id);
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "cancelled_by"), "admin");
    json_decref(v);
    seat_mail("alice", id, 0, "cancelled", 1, &m);
    snprintf(words, sizeof words,
             "the Carcassonne game %s was cancelled by the server's administrator before it started, with 1 of its 2 "
             "seats taken (Ann): a test game. It will not be played", id);
    ck_assert_msg(strstr(m.text, words), "%s", m.text);
    free(m.text);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A waiting game nobody joins for CARCD_WAITING_TTL is cancelled by carcd, told as a creator's cancel, its seats
 * warned half the TTL before (a day, with the default); each join counts it anew (expires_at moves on), and a
 * game that started is never cancelled so. */
START_TEST(waiting_game_expires)
{
    e2e_daemon *d = mail_daemon_env(false, "CARCD_MAIL_REPLY_TO=" REPLY_TEMPLATE, "CARCD_WAITING_TTL=10");
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"public\":true,\"players\":[{\"name\":\"Ann\",\"email\":\"alice@example.org\"},"
                             "{\"invite\":true},{\"invite\":true}]}",
                             NULL, &r),
                     201);
    char id[40], code[80], code2[80], creator[80], path[200], body[200], words[400], first[40], later[40];
    snprintf(id, sizeof id, "%s", e2e_jstr(r.json, "id"));
    snprintf(code, sizeof code, "%s", e2e_jstr(r.json, "invites.0.invite"));
    snprintf(code2, sizeof code2, "%s", e2e_jstr(r.json, "invites.1.invite"));
    snprintf(creator, sizeof creator, "%s", e2e_jstr(r.json, "creator_token"));
    e2e_resp_free(&r);
    char started[40];   /* a game whose seats are all taken at once: it started, and never expires */
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, "{\"players\":[{\"name\":\"Ann\"},{\"invite\":true}]}",
                             NULL, &r),
                     201);
    snprintf(started, sizeof started, "%s", e2e_jstr(r.json, "id"));
    snprintf(path, sizeof path, "/v1/games/%s/join", started);
    snprintf(body, sizeof body, "{\"name\":\"Bob\",\"invite\":\"%s\"}", e2e_jstr(r.json, "invites.0.invite"));
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, body, NULL, &r), 201);
    e2e_resp_free(&r);

    snprintf(path, sizeof path, "/v1/games/%s", id);
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    snprintf(first, sizeof first, "%s", e2e_jstr(v, "expires_at"));
    json_decref(v);
    v = e2e_get_ok(c, "/v1/lobby", NULL, 200);
    json_t *g = json_array_get(json_object_get(v, "games"), 0);
    ck_assert_str_eq(e2e_jstr(g, "id"), id);
    ck_assert_str_eq(e2e_jstr(g, "expires_at"), first);
    json_decref(v);
    usleep(1500 * 1000);   /* a join well before the warning (5 s): the game counts again from it */
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    snprintf(body, sizeof body, "{\"name\":\"Bob\",\"invite\":\"%s\"}", code);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, body, NULL, &r), 201);
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s", id);
    v = e2e_get_ok(c, path, NULL, 200);
    snprintf(later, sizeof later, "%s", e2e_jstr(v, "expires_at"));
    ck_assert_str_eq(e2e_jstr(v, "status"), "waiting");
    json_decref(v);
    ck_assert_msg(strcmp(later, first) > 0, "expires_at %s after the join, %s before", later, first);
    /* a started game's row left counting (as no path of this carcd leaves it) is stopped, not cancelled, and
     * holds up no other game's expiry, though it comes first */
    char sql[300];
    snprintf(sql, sizeof sql, "WITH u AS (UPDATE game_waiting SET last_join_at = '2000-01-01Z' WHERE game_id = '%s' "
                              "RETURNING 1) SELECT count(*) FROM u", started);
    ck_assert_int_eq(e2e_db_long(d, sql), 1);

    mail m;   /* 5 s after the join: the warning */
    seat_mail("alice", id, 0, "expiring", 1, &m);
    snprintf(words, sizeof words, "Hello Ann,\n\nnobody has joined the Carcassonne game %s for 5 seconds. It has 2 of "
             "its 3 seats taken (Ann and Bob), and carcd cancels it on ", id);
    ck_assert_msg(strncmp(m.text, words, strlen(words)) == 0, "%s", m.text);
    ck_assert_msg(strstr(m.text, " UTC unless someone joins before: each join gives it as long again. The player "
                                 "who created it can keep it open for as long again, on the game's page where they "
                                 "created it, or start it now with the seats taken so far.\n"),
                  "%s", m.text);
    ck_assert_msg(strncmp(m.subject, "Carcassonne game ", 17) == 0 && strstr(m.subject, "unless someone joins"), "%s",
                  m.subject);
    ck_assert_msg(strstr(m.unsubscribe, "/v1/mail/unsubscribe/"), "%s", m.unsubscribe);
    free(m.text);
    seat_mail("alice", id, 0, "cancelled", 1, &m);
    snprintf(words, sizeof words,
             "the Carcassonne game %s was cancelled by carcd before it started, with 2 of its 3 seats taken (Ann and "
             "Bob): nobody joined it for 10 seconds. It will not be played",
             id);
    ck_assert_msg(strstr(m.text, words), "%s", m.text);
    free(m.text);
    ck_assert_int_eq(seat_mails("alice", id, 0, "expiring"), 1);   /* once: the join before it came in time */
    v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "cancelled");
    ck_assert_str_eq(e2e_jstr(v, "cancelled_by"), "expiry");
    ck_assert(json_is_null(json_object_get(v, "expires_at")));
    json_decref(v);
    /* who comes too late is told why */
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    snprintf(body, sizeof body, "{\"name\":\"Carl\",\"invite\":\"%s\"}", code2);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, body, NULL, &r), 409);
    ck_assert_str_eq(e2e_jstr(r.json, "detail"),
                     "the game has no open seat: it was cancelled: nobody joined it in time");
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/start", id);
    ck_assert_int_eq(e2e_req(c, "POST", path, creator, NULL, NULL, &r), 409);
    ck_assert_str_eq(e2e_jstr(r.json, "detail"), "the game was cancelled: nobody joined it in time");
    e2e_resp_free(&r);
    v = e2e_get_ok(c, "/v1/lobby", NULL, 200);
    ck_assert_int_eq(json_array_size(json_object_get(v, "games")), 0);
    json_decref(v);
    snprintf(path, sizeof path, "/v1/games/%s", started);
    v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "active");
    json_decref(v);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM game_waiting WHERE game_id = '%s' AND last_join_at IS NULL",
             started);
    ck_assert_int_eq(e2e_db_long(d, sql), 1);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* Its creator keeps a waiting game open (POST .../keep-open, the creator's or the admin's token): it counts anew
 * from then, as after a join; seats already warned are mailed the new date (kind kept_open), seats not yet
 * warned nothing, and the warning comes again before the new date. Refused without the creator's token, with a
 * body, and once the game no longer waits. */
START_TEST(waiting_game_kept_open)
{
    e2e_daemon *d = mail_daemon_env(false, "CARCD_MAIL_REPLY_TO=" REPLY_TEMPLATE, "CARCD_WAITING_TTL=16");
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"players\":[{\"name\":\"Ann\",\"email\":\"alice@example.org\"},{\"invite\":true}]}",
                             NULL, &r),
                     201);
    char id[40], creator[80], ann[80], path[200], view[200], first[40], kept[40], words[300];
    snprintf(id, sizeof id, "%s", e2e_jstr(r.json, "id"));
    snprintf(creator, sizeof creator, "%s", e2e_jstr(r.json, "creator_token"));
    snprintf(ann, sizeof ann, "%s", e2e_jstr(r.json, "players.0.token"));
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/keep-open", id);
    snprintf(view, sizeof view, "/v1/games/%s", id);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, NULL, NULL, &r), 401);
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", path, ann, NULL, NULL, &r), 403);   /* a seat is not its creator */
    ck_assert_str_eq(e2e_jstr(r.json, "detail"),
                     "this needs the game's creator token (creator_token of the creation's answer) or the admin token");
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", path, creator, "{\"days\":30}", NULL, &r), 400);
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games/00000000-0000-4000-8000-000000000000/keep-open", creator, NULL,
                             NULL, &r),
                     404);
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", path, creator, NULL, NULL, &r), 200);   /* before any warning: no mail */
    ck_assert_str_eq(e2e_jstr(r.json, "status"), "waiting");
    e2e_resp_free(&r);

    mail m;   /* 8 s on: the warning (a TTL long enough for the mail to come and the keep-open to beat the expiry) */
    seat_mail("alice", id, 0, "expiring", 1, &m);
    free(m.text);
    json_t *v = e2e_get_ok(c, view, NULL, 200);
    snprintf(first, sizeof first, "%s", e2e_jstr(v, "expires_at"));
    json_decref(v);
    usleep(1100 * 1000);   /* so that the new date is a later second */
    ck_assert_int_eq(e2e_req(c, "POST", path, creator, NULL, NULL, &r), 200);
    ck_assert_str_eq(e2e_jstr(r.json, "status"), "waiting");
    snprintf(kept, sizeof kept, "%s", e2e_jstr(r.json, "expires_at"));
    e2e_resp_free(&r);
    ck_assert_msg(strcmp(kept, first) > 0, "expires_at %s after keep-open, %s before", kept, first);
    v = e2e_get_ok(c, view, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "expires_at"), kept);
    json_decref(v);
    seat_mail("alice", id, 0, "kept_open", 1, &m);
    snprintf(words, sizeof words, "Hello Ann,\n\nthe Carcassonne game %s is kept open by the player who created it: "
             "carcd does not cancel it on the date of its last mail. It has 1 of its 2 seats taken (Ann), and it waits "
             "for the others until ", id);
    ck_assert_msg(strncmp(m.text, words, strlen(words)) == 0, "%s", m.text);
    /* the date said is expires_at's, to the minute: "2026-12-06T10:31:05.000Z" -> "2026-12-06 10:31 UTC" */
    char when[100];
    snprintf(when, sizeof when, "%.10s %.5s UTC; each join gives it as long again.\n", kept, kept + 11);
    ck_assert_msg(strstr(m.text, when), "%s has no %s", m.text, when);
    ck_assert_msg(strstr(m.subject, "kept open until"), "%s", m.subject);
    free(m.text);
    seat_mail("alice", id, 0, "expiring", 2, &m);   /* told again before the new date */
    free(m.text);
    ck_assert_int_eq(seat_mails("alice", id, 0, "kept_open"), 1);   /* the first keep-open came before a warning */
    /* the admin may too, and says so; once cancelled, nobody */
    ck_assert_int_eq(e2e_req(c, "POST", path, d->admin, NULL, NULL, &r), 200);
    e2e_resp_free(&r);
    seat_mail("alice", id, 0, "kept_open", 2, &m);
    ck_assert_msg(strstr(m.text, " is kept open by the server's administrator: "), "%s", m.text);
    free(m.text);
    snprintf(path, sizeof path, "/v1/games/%s/cancel", id);
    ck_assert_int_eq(e2e_req(c, "POST", path, creator, NULL, NULL, &r), 200);
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/keep-open", id);
    ck_assert_int_eq(e2e_req(c, "POST", path, creator, NULL, NULL, &r), 409);
    ck_assert_str_eq(e2e_jstr(r.json, "detail"), "the game was cancelled by its creator");
    e2e_resp_free(&r);
    v = e2e_get_ok(c, view, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "cancelled");
    ck_assert(json_is_null(json_object_get(v, "expires_at")));
    json_decref(v);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* The token of a mail's one-click stop link (List-Unsubscribe: <.../v1/mail/unsubscribe/TOKEN>): the game's id,
 * a dot, and 24 hex digits made of the seat's reply tag (mail/tag.h), so the same as long as the tag is. */
static void stop_tag(const mail *m, char out[80])
{
    const char *u = strstr(m->unsubscribe, "/v1/mail/unsubscribe/");
    ck_assert_msg(u, "List-Unsubscribe: %s", m->unsubscribe);
    u += strlen("/v1/mail/unsubscribe/");
    snprintf(out, 80, "%.*s", (int)strcspn(u, ">"), u);
    ck_assert_int_eq(strlen(out), 36 + 1 + 24);
}

/* A seat that joined leaves before the start (POST .../leave): the seats that stay are mailed, the later seats
 * move down with their reply tags (a stop link in an earlier mail still stops the same person) and their mail
 * threads (sql/031: a mail program shows one conversation still), the tag of the seat that left belongs to
 * nobody, and the next person to take a seat number gets a tag of their own. */
START_TEST(waiting_seat_leaves)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"players\":[{\"name\":\"Ann\",\"email\":\"alice@example.org\"},"
                             "{\"invite\":true,\"email\":\"carol@example.org\"},{\"invite\":true,\"email\":"
                             "\"bob@example.org\"},{\"invite\":true,\"email\":\"dave@example.org\"},{\"invite\":true}]}",
                             NULL, &r),
                     201);
    char id[40], creator[80], codes[3][80], tokens[4][80], path[200], body[300];
    snprintf(id, sizeof id, "%s", e2e_jstr(r.json, "id"));
    snprintf(creator, sizeof creator, "%s", e2e_jstr(r.json, "creator_token"));
    e2e_invite_codes(r.json, 3, codes);
    e2e_resp_free(&r);
    /* Carol (seat 1), Bob (seat 2) and Dave (seat 3) take the places mailed to them, by their codes */
    const char *names[] = {"Carol", "Bob", "Dave"};
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(e2e_join_by_code(c, id, names[i], codes[i], tokens[i + 1]), i + 1);
    mail m;
    char carol_tag[80], bob_tag[80], dave_tag[80];
    seat_mail("carol", id, 1, "joined", 1, &m);   /* Bob joined */
    stop_tag(&m, carol_tag);
    free(m.text);
    seat_mail("bob", id, 2, "joined", 1, &m);     /* Dave joined */
    stop_tag(&m, bob_tag);
    char bob_thread[300], dave_thread[300];
    snprintf(bob_thread, sizeof bob_thread, "carcd.%s.2@example.org", id);
    ck_assert_str_eq(m.thread, bob_thread);
    free(m.text);

    /* Carol leaves: Bob is seat 1 now, Dave seat 2; Ann, Bob and Dave are told, Carol is not */
    snprintf(path, sizeof path, "/v1/games/%s/leave", id);
    ck_assert_int_eq(e2e_req(c, "POST", path, tokens[1], NULL, NULL, &r), 200);
    e2e_resp_free(&r);
    seat_mail("alice", id, 0, "left", 1, &m);
    char subject[200], words[400];
    snprintf(subject, sizeof subject, "Carcassonne game %.8s: Carol left, 2 seats open", id);
    ck_assert_str_eq(m.subject, subject);
    snprintf(words, sizeof words,
             "Hello Ann,\n\nCarol left the Carcassonne game %s before it started: 3 of 5 seats taken, 2 open.\n"
             "At the table now: Ann, Bob and Dave.\n\nThe seat is open again.", id);
    ck_assert_msg(strncmp(m.text, words, strlen(words)) == 0, "%s", m.text);
    free(m.text);
    seat_mail("bob", id, 1, "left", 1, &m);   /* to Bob as seat 1, under the tag his mail as seat 2 had */
    char tag[80];
    stop_tag(&m, tag);
    ck_assert_str_eq(tag, bob_tag);
    ck_assert_str_eq(m.thread, bob_thread);   /* in the thread his mail as seat 2 began */
    ck_assert_msg(strncmp(m.text, "Hello Bob,\n\nCarol left", 22) == 0, "%s", m.text);
    free(m.text);
    seat_mail("dave", id, 2, "left", 1, &m);
    stop_tag(&m, dave_tag);
    ck_assert_str_ne(dave_tag, bob_tag);
    snprintf(dave_thread, sizeof dave_thread, "carcd.%s.3@example.org", id);
    ck_assert_str_eq(m.thread, dave_thread);
    free(m.text);

    /* Carol's old tag is nobody's now, not the seat 1 it named: its stop link stops nothing */
    const char *form[] = {"Content-Type: application/x-www-form-urlencoded", NULL};
    snprintf(path, sizeof path, "/v1/mail/unsubscribe/%s", carol_tag);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, "List-Unsubscribe=One-Click", form, &r), 404);
    e2e_resp_free(&r);

    /* Carol takes her place again, as seat 3, the number Dave's tag was made for: she gets a tag of her own */
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    snprintf(body, sizeof body, "{\"name\":\"Carol\",\"invite\":\"%s\"}", codes[0]);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, body, NULL, &r), 201);
    ck_assert_int_eq(e2e_jint(r.json, "seat"), 3);
    ck_assert_str_eq(e2e_jstr(r.json, "email"), "carol@example.org");
    snprintf(tokens[1], sizeof tokens[1], "%s", e2e_jstr(r.json, "token"));
    e2e_resp_free(&r);
    seat_mail("dave", id, 2, "joined", 1, &m);   /* Dave hears it under his own tag still */
    stop_tag(&m, tag);
    ck_assert_str_eq(tag, dave_tag);
    free(m.text);

    /* Bob's stop link from his mail as seat 2 stops Bob (seat 1 now), nobody else */
    snprintf(path, sizeof path, "/v1/mail/unsubscribe/%s", bob_tag);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, "List-Unsubscribe=One-Click", form, &r), 200);
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/email", id);
    json_t *v = e2e_get_ok(c, path, tokens[2], 200);
    ck_assert_str_eq(e2e_jstr(v, "email"), "bob@example.org");
    ck_assert_str_eq(e2e_jstr(v, "stopped_reason"), "unsubscribed");
    json_decref(v);
    v = e2e_get_ok(c, path, tokens[3], 200);
    ck_assert_str_eq(e2e_jstr(v, "email"), "dave@example.org");
    ck_assert(json_is_null(json_object_get(v, "stopped_at")));
    json_decref(v);

    /* the creator starts it: Dave's first game mail answers to his tag, Carol's to her new one; Bob's mail stays
     * stopped */
    snprintf(path, sizeof path, "/v1/games/%s/start", id);
    ck_assert_int_eq(e2e_req(c, "POST", path, creator, NULL, NULL, &r), 200);
    ck_assert_str_eq(e2e_jstr(r.json, "players.3.name"), "Carol");
    e2e_resp_free(&r);
    seat_mail("dave", id, 2, "invitation", 1, &m);
    stop_tag(&m, tag);   /* the same stop token: made of the same reply tag */
    ck_assert_str_eq(tag, dave_tag);
    ck_assert_str_eq(m.thread, dave_thread);   /* the game under way goes on in his thread too */
    free(m.text);
    seat_mail("carol", id, 3, "invitation", 1, &m);
    stop_tag(&m, tag);
    ck_assert_str_ne(tag, dave_tag);
    ck_assert_str_ne(tag, carol_tag);
    free(m.text);
    usleep(1500 * 1000);
    ck_assert_int_eq(seat_mails("bob", id, 1, "invitation"), 0);
    ck_assert_int_eq(seat_mails("carol", id, 1, "left"), 0);   /* the seat that left heard nothing of it */
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* The creator removes a seat that joined (POST .../seats/{seat}/remove): the removed person gets a last mail
 * in the seat's thread, with no stop link (the seat's tag went with it); the seats that stay are told that the
 * creator removed it; the place, whose mailed invitation the removed person had answered, opens to a new code. */
START_TEST(waiting_seat_removed)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"players\":[{\"name\":\"Ann\",\"email\":\"alice@example.org\"},"
                             "{\"invite\":true,\"email\":\"carol@example.org\"},{\"invite\":true,\"email\":"
                             "\"bob@example.org\"}]}",
                             NULL, &r),
                     201);
    char id[40], creator[80], codes[2][80], path[200], body[300];
    snprintf(id, sizeof id, "%s", e2e_jstr(r.json, "id"));
    snprintf(creator, sizeof creator, "%s", e2e_jstr(r.json, "creator_token"));
    e2e_invite_codes(r.json, 2, codes);
    e2e_resp_free(&r);
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    snprintf(body, sizeof body, "{\"name\":\"Carol\",\"invite\":\"%s\"}", codes[0]);
    ck_assert_int_eq(e2e_req(c, "POST", path, NULL, body, NULL, &r), 201);
    ck_assert_str_eq(e2e_jstr(r.json, "email"), "carol@example.org");
    e2e_resp_free(&r);
    mail m;
    seat_mail("alice", id, 0, "joined", 1, &m);   /* Carol joined: her seat's mail runs from here on */
    free(m.text);

    snprintf(path, sizeof path, "/v1/games/%s/seats/1/remove", id);
    ck_assert_int_eq(e2e_req(c, "POST", path, creator, NULL, NULL, &r), 200);
    ck_assert_int_eq(e2e_jint(r.json, "invite.place"), 0);   /* she had the place's code and its mail */
    e2e_resp_free(&r);
    seat_mail("carol", id, 1, "removed", 1, &m);
    char want[300];
    snprintf(want, sizeof want, "Carcassonne game %.8s: you were removed before it started", id);
    ck_assert_str_eq(m.subject, want);
    snprintf(want, sizeof want, "Hello Carol,\n\nthe player who created the Carcassonne game %s removed you", id);
    ck_assert_msg(strncmp(m.text, want, strlen(want)) == 0, "%s", m.text);
    ck_assert_str_eq(m.unsubscribe, "");
    ck_assert_str_eq(m.reply_to, "");
    free(m.text);
    seat_mail("alice", id, 0, "left", 1, &m);
    snprintf(want, sizeof want, "Carcassonne game %.8s: Carol was removed, 2 seats open", id);
    ck_assert_str_eq(m.subject, want);
    snprintf(want, sizeof want, "Hello Ann,\n\nCarol was removed by its creator from the Carcassonne game %s before it "
             "started: 1 of 3 seats taken, 2 open.", id);
    ck_assert_msg(strncmp(m.text, want, strlen(want)) == 0, "%s", m.text);
    free(m.text);
    /* the place keeps no address: the creator's view of its invitations says it was not mailed */
    snprintf(path, sizeof path, "/v1/games/%s/invites", id);
    json_t *v = e2e_get_ok(c, path, creator, 200);
    ck_assert(json_is_null(json_object_get(json_array_get(json_object_get(v, "places"), 0), "mailed_to")));
    ck_assert_str_eq(e2e_jstr(v, "places.1.mailed_to"), "bob@example.org");
    json_decref(v);
    usleep(1500 * 1000);
    ck_assert_int_eq(seat_mails("carol", id, 1, "left"), 0);   /* the removed seat hears the one mail */
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* A reply from `from` to the mail `to` (its reply address and thread) saying `body`, handled by mail-in; then
 * the k-th refused mail of seat `seat` of game `id` that reached `user`, into *m. */
static void reply_refused(const e2e_daemon *d, const char *from, const mail *to, const char *body, const char *user,
                          const char *id, int seat, int k, mail *m)
{
    char *rp = reply_text(from, to->reply_to, to->msg_id, NULL, NULL, body);
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    seat_mail(user, id, seat, "refused", k, m);
}

/* A waiting game's mails carry the seat's reply address: a seat that joined gives its seat back by replying
 * "leave" (and hears a last mail that says so), a named seat's "leave" and any other reply are answered with
 * what a reply can do before the start. */
START_TEST(waiting_seat_leaves_by_mail)
{
    e2e_daemon *d = mail_daemon(false);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL,
                             "{\"players\":[{\"name\":\"Ann\",\"email\":\"alice@example.org\"},"
                             "{\"invite\":true,\"email\":\"carol@example.org\"},{\"invite\":true,\"email\":"
                             "\"bob@example.org\"},{\"invite\":true}]}",
                             NULL, &r),
                     201);
    char id[40], codes[2][80], path[200], body[300], want[300];
    snprintf(id, sizeof id, "%s", e2e_jstr(r.json, "id"));
    e2e_invite_codes(r.json, 2, codes);
    e2e_resp_free(&r);
    const char *names[] = {"Carol", "Bob"};
    snprintf(path, sizeof path, "/v1/games/%s/join", id);
    for (int i = 0; i < 2; i++) {
        snprintf(body, sizeof body, "{\"name\":\"%s\",\"invite\":\"%s\"}", names[i], codes[i]);
        ck_assert_int_eq(e2e_req(c, "POST", path, NULL, body, NULL, &r), 201);
        e2e_resp_free(&r);
    }
    mail carol, ann, m;
    seat_mail("carol", id, 1, "joined", 1, &carol);   /* Bob joined */
    ck_assert_msg(carol.reply_to[0] && strstr(carol.text, "reply with the word leave"), "%s", carol.text);
    seat_mail("alice", id, 0, "joined", 2, &ann);

    /* Ann's seat was named: her "leave" is answered, and changes nothing */
    reply_refused(d, "alice@example.org", &ann, "leave\r\n", "alice", id, 0, 1, &m);
    snprintf(want, sizeof want, "Carcassonne game %.8s: your reply was not played", id);
    ck_assert_str_eq(m.subject, want);
    ck_assert_msg(strstr(m.text, "your reply was not played: your seat was named when the game was created"), "%s",
                  m.text);
    ck_assert_str_eq(m.reply_to, ann.reply_to);
    free(m.text);
    /* a move before the start: answered too */
    reply_refused(d, "carol@example.org", &carol, "1\r\n", "carol", id, 1, 1, &m);
    ck_assert_msg(strstr(m.text, "your reply was not played: the game has not started.") &&
                      strstr(m.text, "a reply can only say leave"),
                  "%s", m.text);
    free(m.text);
    /* a "leave" with Carol's tag from another address: her seat stays, and she (not the sender) hears why */
    reply_refused(d, "mallory@example.net", &carol, "leave\r\n", "carol", id, 1, 2, &m);
    ck_assert_msg(strstr(m.text, "your reply was not played: it came from mallory@example.net;") &&
                      strstr(m.text, "so reply from here"),
                  "%s", m.text);
    free(m.text);
    snprintf(path, sizeof path, "/v1/games/%s", id);
    json_t *v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_int_eq((int)json_array_size(json_object_get(v, "players")), 3);
    json_decref(v);

    /* Carol's "leave": her seat goes, Bob moves down to seat 1, the others are told, and Carol hears it once */
    char *rp = reply_text("carol@example.org", carol.reply_to, carol.msg_id, NULL, NULL, "Leave\r\n");
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    v = e2e_get_ok(c, path, NULL, 200);
    ck_assert_int_eq((int)json_array_size(json_object_get(v, "players")), 2);
    ck_assert_str_eq(e2e_jstr(v, "players.1.name"), "Bob");
    json_decref(v);
    seat_mail("carol", id, 1, "gone", 1, &m);
    snprintf(want, sizeof want, "Carcassonne game %.8s: you left before it started", id);
    ck_assert_str_eq(m.subject, want);
    ck_assert_msg(strstr(m.text, "you left the Carcassonne game"), "%s", m.text);
    ck_assert_str_eq(m.reply_to, "");
    ck_assert_str_eq(m.unsubscribe, "");
    free(m.text);
    seat_mail("alice", id, 0, "left", 1, &m);
    ck_assert_msg(strstr(m.text, "Carol left the Carcassonne game"), "%s", m.text);
    free(m.text);
    seat_mail("bob", id, 1, "left", 1, &m);
    free(m.text);
    char *log = mail_in_log(d);
    ck_assert_msg(strstr(log, "left: seat 1 gave its seat back before the start"), "%s", log);
    free(log);
    /* her tag is nobody's now: a second "leave" finds no seat, and is not answered */
    rp = reply_text("carol@example.org", carol.reply_to, carol.msg_id, NULL, NULL, "leave\r\n");
    ck_assert_int_eq(mail_in(d, NULL, rp, strlen(rp)), 0);
    free(rp);
    usleep(1500 * 1000);
    ck_assert_int_eq(seat_mails("carol", id, 1, "gone"), 1);
    ck_assert_int_eq(seat_mails("carol", id, 1, "refused"), 2);
    free(carol.text);
    free(ann.text);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

/* The count of game `id`'s mails in the outbox (sql/006), pending or not, that `where` ("AND ...") keeps. */
static void outbox_sql(char *sql, size_t n, const char *id, const char *where)
{
    snprintf(sql, n, "SELECT count(*) FROM mail_outbox o WHERE game_id = '%s' %s", id, where);
}

static long outbox_rows(const e2e_daemon *d, const char *id, const char *where)
{
    char sql[400];
    outbox_sql(sql, sizeof sql, id, where);
    return e2e_db_long(d, sql);
}

/* Waits up to `seconds` (times E2E_SLACK) for outbox_rows to come to `want`; what it came to. */
static long outbox_rows_until(const e2e_daemon *d, const char *id, const char *where, long want, double seconds)
{
    char sql[400];
    outbox_sql(sql, sizeof sql, id, where);
    return e2e_db_long_until(d, sql, want, seconds);
}

/* CARCD_DELIVERY_TTL after it was sent a mail is forgotten, bytes and all (sql/034), but what a game under way
 * still needs: each seat's newest turn or invitation mail, from which its next turn mail counts the messages
 * it tells. Once the game ended, those go too. So do the mails handled by `carcd mail-in` (sql/035): those
 * of no game after the TTL, a running game's only once it is over. */
START_TEST(sent_mails_forgotten)
{
    const double ttl_s = 8;   /* the mails are counted once all are sent, before the first is forgotten */
    int ttl = (int)(ttl_s * E2E_SLACK);
    char ttl_env[64];
    snprintf(ttl_env, sizeof ttl_env, "CARCD_DELIVERY_TTL=%d", ttl);
    e2e_daemon *d = mail_daemon_env(false, "CARCD_MAIL_REPLY_TO=" REPLY_TEMPLATE, ttl_env);
    e2e_client *c = e2e_client_new(d);
    e2e_game g;
    mail_game(c, d, "carol", "dave", &g);
    e2e_rng rng = {0x7717};
    play_until(c, &g, 1, &rng);
    play_until(c, &g, 0, &rng);
    play_until(c, &g, 1, &rng);
    /* three mails handled but not played: no reply address of ours, a tag of nobody's (both of no game), and a
     * reply to seat 0's address from another sender (of the game: kept while the game runs) */
    char tag[80], to[120], sql_tag[200];
    snprintf(sql_tag, sizeof sql_tag, "SELECT tag FROM mail_seats WHERE game_id = '%s' AND seat = 0", g.id);
    e2e_db_text(d, sql_tag, tag, sizeof tag);
    snprintf(to, sizeof to, "play+%s@example.org", tag);
    const char *const in[][2] = {{"carol@example.org", "someone@example.org"},
                                 {"carol@example.org", "play+nobodys0tag@example.org"},
                                 {"mallory@example.net", to}};
    for (size_t i = 0; i < 3; i++) {
        char *raw = reply_text(in[i][0], in[i][1], NULL, NULL, NULL, "1\r\n");
        ck_assert_int_eq(mail_in(d, NULL, raw, strlen(raw)), 0);
        free(raw);
    }
    char of_game[200];
    snprintf(of_game, sizeof of_game, "SELECT count(*) FROM mail_in WHERE game_id = '%s'", g.id);
    ck_assert_int_eq(e2e_db_long(d, "SELECT count(*) FROM mail_in"), 3);
    ck_assert_int_eq(e2e_db_long(d, of_game), 1);
    ck_assert_int_eq(outbox_rows_until(d, g.id, "AND state = 'pending'", 0, 30), 0);
    long sent = outbox_rows(d, g.id, "");
    ck_assert_msg(sent >= 5, "%ld mails: two invitations and three turn mails at least", sent);
    char sql[300];
    snprintf(sql, sizeof sql, "SELECT sum(pg_column_size(o.*)) FROM mail_outbox o WHERE game_id = '%s'", g.id);
    long bytes = e2e_db_long(d, sql);
    const char *newest = "AND o.kind IN ('turn', 'invitation') AND o.id = (SELECT max(n.id) FROM mail_outbox n "
                         "WHERE n.game_id = o.game_id AND n.seat = o.seat AND n.kind IN ('turn', 'invitation'))";
    ck_assert_int_eq(outbox_rows_until(d, g.id, "", 2, ttl_s + 20), 2);
    ck_assert_int_eq(outbox_rows(d, g.id, newest), 2);   /* the two kept are each seat's newest */
    fprintf(stderr, "test_mail: %ld mails of %ld bytes (stored, compressed) down to 2 of %ld after the TTL\n", sent,
            bytes, e2e_db_long(d, sql));
    /* the two mails of no game go; the running game's stays (a second delivery of a reply must not move) */
    ck_assert_int_eq(e2e_db_long_until(d, "SELECT count(*) FROM mail_in", 1, ttl_s + 20), 1);
    ck_assert_int_eq(e2e_db_long(d, of_game), 1);

    /* the admin cancels it: the game-over mails go out, and then everything goes */
    char path[200];
    snprintf(path, sizeof path, "/v1/admin/games/%s/cancel", g.id);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", path, d->admin, "{\"reason\":\"a test\"}", NULL, &r), 200);
    e2e_resp_free(&r);
    ck_assert_int_eq(outbox_rows_until(d, g.id, "AND kind = 'finished' AND state = 'sent'", 2, 30), 2);
    ck_assert_int_eq(outbox_rows_until(d, g.id, "", 0, ttl_s + 20), 0);
    ck_assert_int_eq(e2e_db_long_until(d, "SELECT count(*) FROM mail_in", 0, ttl_s + 20), 0);   /* over: it goes */
    char *log = e2e_daemon_log(d);
    ck_assert_msg(strstr(log, "\"deliveries: "), "the log does not say mails were forgotten");
    free(log);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    need_mail_servers();
    g_mime_init();
    Suite *s = suite_create("mail");
    TCase *tc = e2e_tcase("mail", 600);
    tcase_add_test(tc, whole_game_by_mail);
    tcase_add_test(tc, bad_tag_wrong_sender_duplicate_illegal);
    tcase_add_test(tc, html_only_and_large_reply);
    tcase_add_test(tc, refused_sender_stops_no_seat);
    tcase_add_test(tc, refused_address_and_unsubscribe);
    tcase_add_test(tc, clock_commands_by_mail);
    tcase_add_test(tc, status_by_mail);
    tcase_add_test(tc, replies_as_mail_programs_write_them);
    tcase_add_test(tc, automatic_replies_ignored);
    tcase_add_test(tc, answers_limited_per_hour);
    tcase_add_test(tc, waiting_game_mails_at_its_start);
    tcase_add_test(tc, waiting_game_tells_its_seats_by_mail);
    tcase_add_test(tc, waiting_game_mails_capped);
    tcase_add_test(tc, waiting_game_cancelled_by_mail);
    tcase_add_test(tc, waiting_seat_gives_its_address);
    tcase_add_test(tc, waiting_seat_without_row_stops);
    tcase_add_test(tc, waiting_game_expires);
    tcase_add_test(tc, sent_mails_forgotten);
    tcase_add_test(tc, waiting_game_kept_open);
    tcase_add_test(tc, waiting_seat_leaves);
    tcase_add_test(tc, waiting_seat_removed);
    tcase_add_test(tc, waiting_seat_leaves_by_mail);
    tcase_add_test(tc, invitation_to_an_open_seat_by_mail);
    tcase_add_test(tc, invitation_mails_limited_and_refused_without_mail);
    tcase_add_test(tc, invitation_mailed_later_by_the_creator);
    tcase_add_test(tc, lobby_join_never_takes_an_invitees_address);
    tcase_add_test(tc, invitation_stop_link);
    tcase_add_test(tc, join_by_replying_to_the_invitation);
    tcase_add_test(tc, invitation_refused_by_the_mail_server);
    tcase_add_test(tc, late_bounce_fails_the_mail);
    tcase_add_test(tc, admin_cancel_mails_game_over);
    tcase_add_test(tc, seat_left_to_bot_gets_no_turn_mail);
    tcase_add_test(tc, table_talk_by_mail);
    tcase_add_test(tc, postfix_pipe_transport);
    tcase_add_test(tc, two_processes_one_database);
    tcase_add_test(tc, imap_mail_too_large_logged);
    tcase_add_test(tc, smtp_down_for_a_while);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
