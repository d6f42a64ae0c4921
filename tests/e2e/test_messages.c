/*
 * test_messages.c — table talk (game/messages.h) through the real daemon: three seats write to each other and
 * read in order (a message is never a move: the seq and the view's ETag stay); who may read (seats, the
 * admin, spectators only with public_chat); the events long-poll and stream carry message entries only when
 * asked (messages_after) and a long-poll waiting for a move wakes for a message then; the per-seat rate
 * limit (429 with Retry-After); mute (reads, long-polls, webhooks of the muting seat only); the admin's hide,
 * in the audit log; hostile text refused (control characters, bidi controls, too long, invalid UTF-8, NUL)
 * or stored and served as text (HTML, Markdown), escaped in the Discord and Slack webhooks; a player key
 * writes and reads for its seat.
 */
#include <arpa/inet.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"

typedef struct {
    e2e_daemon *d;
    e2e_client *c;
    e2e_game g;
    char mpath[160];
} fx;

static const char *env[] = {"CARCD_WEBHOOK_ALLOW=127.0.0.1/32", NULL};

static void fx_up(fx *f, const char *extra)
{
    f->d = e2e_daemon_up(env);
    f->c = e2e_client_new(f->d);
    ck_assert_int_eq(e2e_game_create_raw(f->c, f->d, 3, NULL, extra, false, &f->g), 201);
    snprintf(f->mpath, sizeof f->mpath, "/v1/games/%s/messages", f->g.id);
}

static void fx_down(fx *f)
{
    e2e_client_free(f->c);
    e2e_daemon_down(f->d);
}

/* POSTs {"text": text} as seat (-1: no token, -2: the admin): the status; *r kept when r. */
static long say(fx *f, int seat, const char *text, e2e_resp *r)
{
    json_t *b = json_pack("{s:s}", "text", text);
    char *body = json_dumps(b, JSON_COMPACT);
    json_decref(b);
    e2e_resp tmp;
    e2e_resp *x = r ? r : &tmp;
    const char *tok = seat >= 0 ? f->g.token[seat] : seat == -2 ? f->d->admin : NULL;
    long st = e2e_req(f->c, "POST", f->mpath, tok, body, NULL, x);
    free(body);
    if (!r)
        e2e_resp_free(&tmp);
    return st;
}

static long say_raw(fx *f, int seat, const char *body, size_t len, e2e_resp *r)
{
    return e2e_reqn(f->c, "POST", f->mpath, f->g.token[seat], body, len, NULL, r);
}

/* GET .../messages?after=N as token (NULL: public): the body (asserts want). */
static json_t *read_msgs(fx *f, const char *token, long long after, long want)
{
    char p[200];
    snprintf(p, sizeof p, "%s?after=%lld", f->mpath, after);
    return e2e_get_ok(f->c, p, token, want);
}

/* The texts of a messages answer, joined by '|' (into buf). */
static const char *texts(const json_t *answer, char *buf, size_t n)
{
    buf[0] = 0;
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(answer, "messages"), i, m) {
        size_t k = strlen(buf);
        snprintf(buf + k, n - k, "%s%s", k ? "|" : "", e2e_jstr(m, "text"));
    }
    return buf;
}

static int game_seq(fx *f)
{
    char p[160];
    snprintf(p, sizeof p, "/v1/games/%s", f->g.id);
    json_t *v = e2e_get_ok(f->c, p, NULL, 200);
    int s = (int)e2e_jint(v, "seq");
    json_decref(v);
    return s;
}

/* ---- three seats talk ------------------------------------------------------------------------------------ */
START_TEST(three_seats_talk)
{
    fx f;
    fx_up(&f, NULL);
    char gp[160], etag0[128], etag1[128];
    snprintf(gp, sizeof gp, "/v1/games/%s", f.g.id);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(f.c, "GET", gp, NULL, NULL, NULL, &r), 200);
    ck_assert_ptr_nonnull(e2e_header(&r, "ETag", etag0, sizeof etag0));
    e2e_resp_free(&r);

    ck_assert_int_eq(say(&f, 0, "hello from Ann's seat", &r), 201);
    ck_assert_int_eq(e2e_jint(r.json, "seat"), 0);
    ck_assert_str_eq(e2e_jstr(r.json, "name"), "P0");
    ck_assert_int_eq(e2e_jint(r.json, "seq"), 0);
    ck_assert(e2e_jint(r.json, "id") > 0);
    ck_assert(strlen(e2e_jstr(r.json, "at")) >= 20);
    long long first = e2e_jint(r.json, "id");
    e2e_resp_free(&r);
    ck_assert_int_eq(say(&f, 1, "nice city!", NULL), 201);
    ck_assert_int_eq(say(&f, 2, "away until Monday\nback on Tuesday", NULL), 201);

    /* a message is no move: the seq and the ETag stay */
    ck_assert_int_eq(game_seq(&f), 0);
    ck_assert_int_eq(e2e_req(f.c, "GET", gp, NULL, NULL, NULL, &r), 200);
    ck_assert_str_eq(e2e_header(&r, "ETag", etag1, sizeof etag1), etag0);
    e2e_resp_free(&r);

    char buf[2000];
    for (int s = 0; s < 3; s++) {   /* every seat reads the three, in order */
        json_t *a = read_msgs(&f, f.g.token[s], 0, 200);
        ck_assert_str_eq(texts(a, buf, sizeof buf), "hello from Ann's seat|nice city!|away until Monday\nback on Tuesday");
        ck_assert_int_eq(e2e_jint(a, "messages.1.seat"), 1);
        ck_assert_int_eq(e2e_jint(a, "messages.2.seat"), 2);
        ck_assert(e2e_jint(a, "messages.0.id") < e2e_jint(a, "messages.1.id"));
        ck_assert_int_eq(json_array_size(json_object_get(a, "muted")), 0);
        ck_assert_int_eq(e2e_jint(a, "last"), e2e_jint(a, "messages.2.id"));
        ck_assert_ptr_null(e2e_jget(a, "messages.0.hidden"));
        json_decref(a);
    }
    json_t *a = read_msgs(&f, f.g.token[1], first, 200);   /* the cursor */
    ck_assert_str_eq(texts(a, buf, sizeof buf), "nice city!|away until Monday\nback on Tuesday");
    long long last = e2e_jint(a, "last");
    json_decref(a);
    a = read_msgs(&f, f.g.token[1], last, 200);
    ck_assert_int_eq(json_array_size(json_object_get(a, "messages")), 0);
    ck_assert_int_eq(e2e_jint(a, "last"), last);
    json_decref(a);

    /* after a move, a message carries the new seq */
    e2e_rng rng = {7};
    e2e_play p;
    ck_assert_int_eq(e2e_play_random(f.c, &f.g, &rng, NULL, &p), 200);
    int mover = p.seat;
    e2e_play_free(&p);
    int seq = game_seq(&f);
    ck_assert_int_ge(seq, 1);
    ck_assert_int_eq(say(&f, mover, "your turn", &r), 201);
    ck_assert_int_eq(e2e_jint(r.json, "seq"), seq);
    e2e_resp_free(&r);
    ck_assert_int_eq(game_seq(&f), seq);

    /* the admin reads all, marked; spectators read none of a game without public_chat */
    a = read_msgs(&f, f.d->admin, 0, 200);
    ck_assert_int_eq(json_array_size(json_object_get(a, "messages")), 4);
    ck_assert(json_is_false(e2e_jget(a, "messages.0.hidden")));
    ck_assert_ptr_null(json_object_get(a, "muted"));
    json_decref(a);
    ck_assert_int_eq(e2e_req(f.c, "GET", f.mpath, NULL, NULL, NULL, &r), 403);
    e2e_assert_problem(&r, 403, "Authorization", "a spectator's read");
    ck_assert(e2e_problem_is(&r, "chat-closed"));
    e2e_resp_free(&r);

    /* who may write: a seat token only */
    ck_assert_int_eq(say(&f, -1, "anonymous", &r), 401);
    e2e_resp_free(&r);
    ck_assert_int_eq(say(&f, -2, "the admin", &r), 403);
    e2e_resp_free(&r);
    e2e_game other;
    ck_assert_int_eq(e2e_game_create_raw(f.c, f.d, 2, NULL, NULL, false, &other), 201);
    ck_assert_int_eq(e2e_req(f.c, "POST", f.mpath, other.token[0], "{\"text\":\"x\"}", NULL, &r), 403);
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(f.c, "GET", f.mpath, other.token[0], NULL, NULL, &r), 403);
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(f.c, "GET", "/v1/games/00000000-0000-4000-8000-000000000000/messages", f.d->admin, NULL,
                             NULL, &r), 404);
    e2e_resp_free(&r);
    /* bodies and arguments */
    static const char *const bad[] = {"{}", "{\"text\":5}", "{\"text\":\"hi\",\"seat\":1}", "[\"hi\"]", NULL};
    for (int i = 0; bad[i]; i++) {
        ck_assert_int_eq(say_raw(&f, 0, bad[i], strlen(bad[i]), &r), 400);
        e2e_resp_free(&r);
    }
    char p2[200];
    snprintf(p2, sizeof p2, "%s?after=-1", f.mpath);
    ck_assert_int_eq(e2e_req(f.c, "GET", p2, f.g.token[0], NULL, NULL, &r), 400);
    e2e_assert_problem(&r, 400, "after", "after=-1");
    e2e_resp_free(&r);

    /* a game created with public_chat: spectators read along */
    e2e_game pub;
    ck_assert_int_eq(e2e_game_create_raw(f.c, f.d, 2, NULL, "{\"public_chat\":true}", false, &pub), 201);
    char pp[160];
    snprintf(pp, sizeof pp, "/v1/games/%s/messages", pub.id);
    ck_assert_int_eq(e2e_req(f.c, "POST", pp, pub.token[1], "{\"text\":\"gg\"}", NULL, &r), 201);
    e2e_resp_free(&r);
    a = e2e_get_ok(f.c, pp, NULL, 200);
    ck_assert_str_eq(texts(a, buf, sizeof buf), "gg");
    ck_assert_ptr_null(json_object_get(a, "muted"));
    json_decref(a);
    ck_assert_int_eq(e2e_game_create_raw(f.c, f.d, 2, NULL, "{\"public_chat\":\"yes\"}", false, &pub), 400);
    fx_down(&f);
}
END_TEST

/* ---- the events long-poll and stream --------------------------------------------------------------------- */
typedef struct {
    fx *f;
    int seat;
    const char *text;
    double delay_s;
    e2e_client *c;
} later_say;

static void *say_later(void *arg)
{
    later_say *l = arg;
    struct timespec ts = {(time_t)l->delay_s, (long)((l->delay_s - (double)(time_t)l->delay_s) * 1e9)};
    nanosleep(&ts, NULL);
    char body[300];
    snprintf(body, sizeof body, "{\"text\":\"%s\"}", l->text);
    e2e_resp r;
    e2e_req(l->c, "POST", l->f->mpath, l->f->g.token[l->seat], body, NULL, &r);
    e2e_resp_free(&r);
    return NULL;
}

/* GET /events?... as token; the answer (asserts 200), *secs how long it took. */
static json_t *events(fx *f, const char *query, const char *token, double *secs)
{
    char p[300];
    snprintf(p, sizeof p, "/v1/games/%s/events?%s", f->g.id, query);
    double t0 = e2e_now();
    json_t *j = e2e_get_ok(f->c, p, token, 200);
    if (secs)
        *secs = e2e_now() - t0;
    return j;
}

static int count_type(const json_t *entries, const char *type)
{
    int n = 0;
    size_t i;
    json_t *e;
    json_array_foreach(entries, i, e) n += strcmp(e2e_jstr(e, "type"), type) == 0;
    return n;
}

START_TEST(events_carry_messages)
{
    fx f;
    fx_up(&f, NULL);
    e2e_rng rng = {11};
    e2e_play p;
    ck_assert_int_eq(say(&f, 0, "before any move", NULL), 201);
    ck_assert_int_eq(e2e_play_random(f.c, &f.g, &rng, NULL, &p), 200);
    e2e_play_free(&p);
    ck_assert_int_eq(say(&f, 1, "after the first", NULL), 201);

    /* without messages_after: the moves, exactly as before */
    json_t *j = events(&f, "after=-1", f.g.token[2], NULL);
    ck_assert_int_eq(count_type(json_object_get(j, "entries"), "message"), 0);
    ck_assert_ptr_null(json_object_get(j, "messages_last"));
    json_decref(j);
    /* with it: merged in order, seq 0's message after entry 0, seq 1's after entry 1 */
    j = events(&f, "after=-1&messages_after=0", f.g.token[2], NULL);
    json_t *en = json_object_get(j, "entries");
    ck_assert_int_eq(json_array_size(en), 4);
    ck_assert_int_eq(e2e_jint(json_array_get(en, 0), "seq"), 0);
    ck_assert_str_eq(e2e_jstr(json_array_get(en, 1), "type"), "message");
    ck_assert_str_eq(e2e_jstr(json_array_get(en, 1), "message.text"), "before any move");
    ck_assert_int_eq(e2e_jint(json_array_get(en, 2), "seq"), 1);
    ck_assert_ptr_null(json_object_get(json_array_get(en, 2), "type"));
    ck_assert_str_eq(e2e_jstr(json_array_get(en, 3), "message.text"), "after the first");
    ck_assert_int_eq(e2e_jint(json_array_get(en, 3), "seat"), 1);
    long long mlast = e2e_jint(j, "messages_last");
    ck_assert_int_eq(mlast, e2e_jint(json_array_get(en, 3), "message.id"));
    ck_assert_int_eq(e2e_jint(j, "seq"), 1);
    json_decref(j);

    /* a long-poll waiting for a move wakes for a message, with messages_after */
    later_say l = {.f = &f, .seat = 0, .text = "wake up", .delay_s = 0.5, .c = e2e_client_new(f.d)};
    pthread_t th;
    pthread_create(&th, NULL, say_later, &l);
    char q[160];
    snprintf(q, sizeof q, "after=1&messages_after=%lld&wait=20", mlast);
    double secs;
    j = events(&f, q, f.g.token[1], &secs);
    pthread_join(th, NULL);
    ck_assert_msg(secs < 10, "the long-poll took %.1f s", secs);
    en = json_object_get(j, "entries");
    ck_assert_int_eq(json_array_size(en), 1);
    ck_assert_str_eq(e2e_jstr(json_array_get(en, 0), "message.text"), "wake up");
    ck_assert_int_eq(e2e_jint(j, "seq"), 1);   /* the move cursor did not move */
    mlast = e2e_jint(j, "messages_last");
    json_decref(j);
    /* without messages_after it does not: a message is not a move */
    l.text = "not for you";
    pthread_create(&th, NULL, say_later, &l);
    j = events(&f, "after=1&wait=2", f.g.token[1], &secs);
    pthread_join(th, NULL);
    ck_assert_int_eq(json_array_size(json_object_get(j, "entries")), 0);
    ck_assert_msg(secs >= 1.5, "the long-poll answered after %.1f s", secs);
    json_decref(j);

    /* the stream: message frames, ids "<seq>.<message id>", Last-Event-ID of that form */
    char p2[300];
    snprintf(p2, sizeof p2, "/v1/games/%s/events?after=-1&messages_after=0&wait=1", f.g.id);
    const char *const sse[] = {"Accept: text/event-stream", NULL};
    e2e_resp r;
    ck_assert_int_eq(e2e_req(f.c, "GET", p2, f.g.token[2], NULL, sse, &r), 200);
    ck_assert_ptr_nonnull(strstr(r.body, "event: message\n"));
    ck_assert_ptr_nonnull(strstr(r.body, "id: 0.1\nevent: message\n"));
    ck_assert_ptr_nonnull(strstr(r.body, "id: 1.1\nevent: move\n"));
    char want[64];
    snprintf(want, sizeof want, "id: 1.%lld\nevent: message\n", mlast + 1);
    ck_assert_msg(strstr(r.body, want) != NULL, "no %s in %s", want, r.body);
    e2e_resp_free(&r);
    const char *const resume[] = {"Accept: text/event-stream", "Last-Event-ID: 1.1", NULL};
    snprintf(p2, sizeof p2, "/v1/games/%s/events?wait=1", f.g.id);
    ck_assert_int_eq(e2e_req(f.c, "GET", p2, f.g.token[2], NULL, resume, &r), 200);
    ck_assert_ptr_null(strstr(r.body, "before any move"));
    ck_assert_ptr_nonnull(strstr(r.body, "after the first"));
    ck_assert_ptr_null(strstr(r.body, "event: move"));
    e2e_resp_free(&r);
    const char *const bad[] = {"Accept: text/event-stream", "Last-Event-ID: 1.x", NULL};
    ck_assert_int_eq(e2e_req(f.c, "GET", p2, f.g.token[2], NULL, bad, &r), 400);
    e2e_resp_free(&r);
    snprintf(p2, sizeof p2, "/v1/games/%s/events?messages_after=-1", f.g.id);
    ck_assert_int_eq(e2e_req(f.c, "GET", p2, f.g.token[2], NULL, NULL, &r), 400);
    e2e_assert_problem(&r, 400, "messages_after", "messages_after=-1");
    e2e_resp_free(&r);

    /* spectators get no message entry of a game without public_chat */
    j = events(&f, "after=-1&messages_after=0", NULL, NULL);
    ck_assert_int_eq(count_type(json_object_get(j, "entries"), "message"), 0);
    ck_assert_int_eq(e2e_jint(j, "messages_last"), 0);
    json_decref(j);
    e2e_client_free(l.c);
    fx_down(&f);
}
END_TEST

/* ---- rate limit -------------------------------------------------------------------------------------------- */
START_TEST(rate_limit_per_seat)
{
    fx f;
    fx_up(&f, NULL);
    e2e_resp r;
    int ok = 0;
    for (int i = 0; i < 30; i++) {
        char t[32];
        snprintf(t, sizeof t, "message %d", i);
        long st = say(&f, 0, t, &r);
        if (st == 429) {
            e2e_assert_problem(&r, 429, NULL, "the limit");
            ck_assert(e2e_problem_is(&r, "rate-limited"));
            char ra[32];
            ck_assert_ptr_nonnull(e2e_header(&r, "Retry-After", ra, sizeof ra));
            ck_assert_int_ge(atoi(ra), 1);
            ck_assert_int_le(atoi(ra), 60);
            e2e_resp_free(&r);
            break;
        }
        ck_assert_int_eq(st, 201);
        e2e_resp_free(&r);
        ok++;
    }
    ck_assert_int_eq(ok, 8);
    ck_assert_int_eq(say(&f, 0, "still limited", NULL), 429);
    ck_assert_int_eq(say(&f, 1, "another seat is not", NULL), 201);   /* per seat */
    json_t *a = read_msgs(&f, f.g.token[2], 0, 200);
    ck_assert_int_eq(json_array_size(json_object_get(a, "messages")), 9);   /* the refused ones were not stored */
    json_decref(a);
    fx_down(&f);
}
END_TEST

/* ---- mute -------------------------------------------------------------------------------------------------- */
START_TEST(mute_is_for_oneself)
{
    fx f;
    fx_up(&f, NULL);
    char mp[200];
    snprintf(mp, sizeof mp, "/v1/games/%s/mutes/1", f.g.id);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(f.c, "PUT", mp, f.g.token[0], NULL, NULL, &r), 204);
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(f.c, "PUT", mp, f.g.token[0], NULL, NULL, &r), 204);   /* twice is no error */
    e2e_resp_free(&r);
    ck_assert_int_eq(say(&f, 1, "spam from 1", NULL), 201);
    ck_assert_int_eq(say(&f, 2, "hello from 2", NULL), 201);
    char buf[500];
    json_t *a = read_msgs(&f, f.g.token[0], 0, 200);
    ck_assert_str_eq(texts(a, buf, sizeof buf), "hello from 2");
    ck_assert_int_eq(json_array_size(json_object_get(a, "muted")), 1);
    ck_assert_int_eq(e2e_jint(a, "muted.0"), 1);
    json_decref(a);
    a = read_msgs(&f, f.g.token[2], 0, 200);   /* nobody else is affected */
    ck_assert_str_eq(texts(a, buf, sizeof buf), "spam from 1|hello from 2");
    json_decref(a);
    /* the muting seat's events and long-polls leave the muted seat out */
    json_t *j = events(&f, "after=-1&messages_after=0", f.g.token[0], NULL);
    ck_assert_int_eq(count_type(json_object_get(j, "entries"), "message"), 1);
    long long mlast = e2e_jint(j, "messages_last");
    json_decref(j);
    later_say l = {.f = &f, .seat = 1, .text = "more spam", .delay_s = 0.3, .c = e2e_client_new(f.d)};
    pthread_t th;
    pthread_create(&th, NULL, say_later, &l);
    char q[160];
    snprintf(q, sizeof q, "after=0&messages_after=%lld&wait=2", mlast);
    double secs;
    j = events(&f, q, f.g.token[0], &secs);
    pthread_join(th, NULL);
    ck_assert_int_eq(json_array_size(json_object_get(j, "entries")), 0);
    ck_assert_msg(secs >= 1.5, "woken by a muted seat after %.1f s", secs);
    ck_assert_int_eq(e2e_jint(j, "messages_last"), mlast + 1);   /* the cursor passed it */
    json_decref(j);
    /* unmute: the seat reads it all again */
    ck_assert_int_eq(e2e_req(f.c, "DELETE", mp, f.g.token[0], NULL, NULL, &r), 204);
    e2e_resp_free(&r);
    a = read_msgs(&f, f.g.token[0], 0, 200);
    ck_assert_str_eq(texts(a, buf, sizeof buf), "spam from 1|hello from 2|more spam");
    json_decref(a);
    /* a seat cannot mute itself nor a seat the game does not have; the admin and spectators mute nobody */
    snprintf(mp, sizeof mp, "/v1/games/%s/mutes/0", f.g.id);
    ck_assert_int_eq(e2e_req(f.c, "PUT", mp, f.g.token[0], NULL, NULL, &r), 400);
    e2e_assert_problem(&r, 400, "seat", "muting oneself");
    e2e_resp_free(&r);
    snprintf(mp, sizeof mp, "/v1/games/%s/mutes/3", f.g.id);
    ck_assert_int_eq(e2e_req(f.c, "PUT", mp, f.g.token[0], NULL, NULL, &r), 400);
    e2e_resp_free(&r);
    static const char *const not_seats[] = {"x", "+1", "1x"};   /* digits only: not "+1" */
    for (size_t i = 0; i < sizeof not_seats / sizeof not_seats[0]; i++) {
        snprintf(mp, sizeof mp, "/v1/games/%s/mutes/%s", f.g.id, not_seats[i]);
        ck_assert_int_eq(e2e_req(f.c, "PUT", mp, f.g.token[0], NULL, NULL, &r), 400);
        e2e_assert_problem(&r, 400, "seat", mp);
        e2e_resp_free(&r);
    }
    snprintf(mp, sizeof mp, "/v1/games/%s/mutes/1", f.g.id);
    ck_assert_int_eq(e2e_req(f.c, "PUT", mp, f.d->admin, NULL, NULL, &r), 403);
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(f.c, "PUT", mp, NULL, NULL, NULL, &r), 401);
    e2e_resp_free(&r);
    e2e_client_free(l.c);
    fx_down(&f);
}
END_TEST

/* ---- hide -------------------------------------------------------------------------------------------------- */
START_TEST(admin_hides_audited)
{
    fx f;
    fx_up(&f, NULL);
    e2e_resp r;
    ck_assert_int_eq(say(&f, 2, "something rude", &r), 201);
    long long mid = e2e_jint(r.json, "id");
    e2e_resp_free(&r);
    ck_assert_int_eq(say(&f, 1, "something kind", NULL), 201);
    char hp[220];
    snprintf(hp, sizeof hp, "/v1/admin/games/%s/messages/%lld/hide", f.g.id, mid);
    ck_assert_int_eq(e2e_req(f.c, "POST", hp, f.g.token[0], "{}", NULL, &r), 403);
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(f.c, "POST", hp, NULL, "{}", NULL, &r), 401);
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(f.c, "POST", hp, f.d->admin, "{\"reason\":\"reported by seat 0\"}", NULL, &r), 200);
    ck_assert_int_eq(e2e_jint(r.json, "seat"), 2);
    ck_assert(json_is_false(json_object_get(r.json, "already")));
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(f.c, "POST", hp, f.d->admin, NULL, NULL, &r), 200);
    ck_assert(json_is_true(json_object_get(r.json, "already")));
    e2e_resp_free(&r);
    char buf[500];
    for (int s = 0; s < 3; s++) {   /* the author too */
        json_t *a = read_msgs(&f, f.g.token[s], 0, 200);
        ck_assert_str_eq(texts(a, buf, sizeof buf), "something kind");
        json_decref(a);
        json_t *j = events(&f, "after=-1&messages_after=0", f.g.token[s], NULL);
        ck_assert_int_eq(count_type(json_object_get(j, "entries"), "message"), 1);
        json_decref(j);
    }
    json_t *a = read_msgs(&f, f.d->admin, 0, 200);
    ck_assert_str_eq(texts(a, buf, sizeof buf), "something rude|something kind");
    ck_assert(json_is_true(e2e_jget(a, "messages.0.hidden")));
    json_decref(a);
    /* in the audit log, with its reason */
    char ap[200];
    snprintf(ap, sizeof ap, "/v1/admin/audit?game=%s&action=admin.games.messages.hide", f.g.id);
    json_t *log = e2e_get_ok(f.c, ap, f.d->admin, 200);
    json_t *items = json_object_get(log, "items");
    if (!items)
        items = json_object_get(log, "entries");
    ck_assert_msg(json_array_size(items) == 2, "audit: %s", json_dumps(log, 0));
    char *dump = json_dumps(log, 0);
    ck_assert_ptr_nonnull(strstr(dump, "reported by seat 0"));
    free(dump);
    json_decref(log);
    snprintf(hp, sizeof hp, "/v1/admin/games/%s/messages/%lld/hide", f.g.id, mid + 100);
    ck_assert_int_eq(e2e_req(f.c, "POST", hp, f.d->admin, NULL, NULL, &r), 404);
    e2e_resp_free(&r);
    snprintf(hp, sizeof hp, "/v1/admin/games/%s/messages/%lld/hide", f.g.id, mid);
    ck_assert_int_eq(e2e_req(f.c, "POST", hp, f.d->admin, "{\"reason\":7}", NULL, &r), 400);
    e2e_resp_free(&r);
    fx_down(&f);
}
END_TEST

/* ---- hostile text ------------------------------------------------------------------------------------------ */
static json_t *outbox_bodies(fx *f, const char *wid)
{
    PGconn *c = PQconnectdb(f->d->dburl);
    ck_assert_msg(PQstatus(c) == CONNECTION_OK, "%s", PQerrorMessage(c));
    const char *params[] = {wid};
    PGresult *res = PQexecParams(c, "SELECT body FROM webhook_outbox WHERE endpoint_id = $1::uuid "
                                    "AND event = 'message.posted' ORDER BY id",
                                 1, NULL, params, NULL, NULL, 0);
    ck_assert_msg(PQresultStatus(res) == PGRES_TUPLES_OK, "%s", PQerrorMessage(c));
    json_t *a = json_array();
    for (int i = 0; i < PQntuples(res); i++)
        json_array_append_new(a, json_loads(PQgetvalue(res, i, 0), 0, NULL));
    PQclear(res);
    PQfinish(c);
    return a;
}

static int free_port(void)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(bind(s, (struct sockaddr *)&a, sizeof a), 0);
    socklen_t len = sizeof a;
    ck_assert_int_eq(getsockname(s, (struct sockaddr *)&a, &len), 0);
    close(s);
    return ntohs(a.sin_port);
}

/* a webhook endpoint to a closed port (deliveries fail, the rows stay to be read): its id */
static void hook(fx *f, const char *token, const char *format, const char *events, char wid[40])
{
    char p[160], body[300];
    snprintf(p, sizeof p, "/v1/games/%s/webhooks", f->g.id);
    snprintf(body, sizeof body, "{\"url\":\"http://127.0.0.1:%d/h\",\"format\":\"%s\",\"events\":%s}", free_port(),
             format, events);
    e2e_resp r;
    long st = e2e_req(f->c, "POST", p, token, body, NULL, &r);
    ck_assert_msg(st == 201, "POST %s %s: %ld %.300s", p, body, st, r.body);
    snprintf(wid, 40, "%s", e2e_jstr(r.json, "id"));
    e2e_resp_free(&r);
}

START_TEST(hostile_text)
{
    fx f;
    fx_up(&f, NULL);
    e2e_resp r;
    /* refused: control characters (but \n), bidi controls, white space only, too long, NUL, invalid UTF-8 */
    static const char *const refused[] = {
        "{\"text\":\"\"}", "{\"text\":\"bell\\u0007\"}", "{\"text\":\"cr\\r\\nlf\"}", "{\"text\":\"tab\\there\"}",
        "{\"text\":\"esc\\u001b[31m\"}", "{\"text\":\"del\\u007f\"}", "{\"text\":\"c1\\u0085\"}",
        "{\"text\":\"abc\\u202edcba\"}", "{\"text\":\"\\u2066isolate\"}", "{\"text\":\" \\n \"}", NULL};
    for (int i = 0; refused[i]; i++) {
        ck_assert_msg(say_raw(&f, 0, refused[i], strlen(refused[i]), &r) == 400, "%s: %ld", refused[i], r.status);
        e2e_assert_problem(&r, 400, "text", refused[i]);
        e2e_resp_free(&r);
    }
    static const char *const bad_json[] = {"{\"text\":\"nul\\u0000\"}", "{\"text\":\"\xff\xfe\"}",
                                           "{\"text\":\"\xc0\xaf\"}", "{\"text\":\"\\ud800\"}", NULL};
    for (int i = 0; bad_json[i]; i++) {
        ck_assert_msg(say_raw(&f, 0, bad_json[i], strlen(bad_json[i]), &r) == 400, "%s: %ld", bad_json[i], r.status);
        e2e_resp_free(&r);
    }
    char wd[40], ws[40], wj[40];
    hook(&f, f.d->admin, "discord", "[\"message.posted\"]", wd);
    hook(&f, f.d->admin, "slack", "[\"message.posted\"]", ws);
    hook(&f, f.g.token[2], "json", "[\"message.posted\",\"move.made\"]", wj);
    /* 1 000 characters (2 000 bytes) are fine, 1 001 and 10 kB are not */
    char *big = malloc(12000);
    strcpy(big, "{\"text\":\"");
    for (int i = 0; i < 1000; i++)
        strcat(big, "\xc3\xa9");
    strcat(big, "\"}");
    ck_assert_int_eq(say_raw(&f, 1, big, strlen(big), &r), 201);
    ck_assert_int_eq(strlen(e2e_jstr(r.json, "text")), 2000);
    e2e_resp_free(&r);
    strcpy(big + strlen(big) - 2, "e\"}");
    ck_assert_int_eq(say_raw(&f, 1, big, strlen(big), &r), 400);
    e2e_assert_problem(&r, 400, "text", "1001 characters");
    e2e_resp_free(&r);
    strcpy(big, "{\"text\":\"");
    memset(big + 9, 'x', 10240);
    strcpy(big + 9 + 10240, "\"}");
    ck_assert_int_eq(say_raw(&f, 1, big, strlen(big), &r), 400);
    e2e_resp_free(&r);
    free(big);

    /* HTML and Markdown are stored and served as text; the chat webhooks escape them */
    const char *html = "<script>alert(1)</script> & <b>bold</b>";
    const char *md = "**bold** _it_ @everyone [click](http://evil.example) `code`\n- list\n# head\n> quote";
    ck_assert_int_eq(say(&f, 0, html, NULL), 201);
    ck_assert_int_eq(say(&f, 0, md, NULL), 201);
    char buf[8000];
    json_t *a = read_msgs(&f, f.g.token[1], 0, 200);
    char want[8000];
    snprintf(want, sizeof want, "%s|%s|%s", e2e_jstr(a, "messages.0.text"), html, md);
    ck_assert_str_eq(texts(a, buf, sizeof buf), want);
    json_decref(a);
    ck_assert_int_eq(e2e_req(f.c, "GET", f.mpath, f.g.token[1], NULL, NULL, &r), 200);
    ck_assert_str_eq(r.content_type, "application/json");
    e2e_resp_free(&r);

    json_t *d = outbox_bodies(&f, wd), *s = outbox_bodies(&f, ws), *j = outbox_bodies(&f, wj);
    ck_assert_int_eq(json_array_size(d), 3);
    ck_assert_int_eq(json_array_size(s), 3);
    ck_assert_int_eq(json_array_size(j), 3);
    /* Discord: Markdown escaped, mentions off, within 2 000 characters even for 1 000 é */
    const char *c0 = e2e_jstr(json_array_get(d, 0), "content");
    ck_assert_msg(strlen(c0) > 1000 && strlen(c0) < 2 * 2000, "%s", c0);
    const char *c2 = e2e_jstr(json_array_get(d, 2), "content");
    ck_assert_msg(strstr(c2, "\\*\\*bold\\*\\* \\_it\\_ \\@everyone \\[click\\]\\(http\\://evil.example\\) \\`code\\`") != NULL,
                  "%s", c2);
    ck_assert_msg(strstr(c2, "\n\\- list\n\\# head\n\\> quote") != NULL, "%s", c2);
    ck_assert_msg(strstr(c2, "**P0** wrote in game") != NULL || strstr(c2, "P0") != NULL, "%s", c2);
    ck_assert_int_eq(json_array_size(e2e_jget(json_array_get(d, 2), "allowed_mentions.parse")), 0);
    const char *c1 = e2e_jstr(json_array_get(d, 1), "content");
    ck_assert_msg(strstr(c1, "\\<script\\>alert\\(1\\)\\</script\\>") != NULL, "%s", c1);
    /* Slack: &, <, > as entities, markup characters broken up */
    const char *s1 = e2e_jstr(json_array_get(s, 1), "text");
    ck_assert_msg(strstr(s1, "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;") != NULL, "%s", s1);
    ck_assert_ptr_null(strstr(s1, "<script"));
    const char *s2 = e2e_jstr(json_array_get(s, 2), "text");
    ck_assert_ptr_null(strstr(s2, "**bold**"));
    ck_assert_ptr_null(strstr(s2, "<http"));
    /* json: the text as written */
    ck_assert_str_eq(e2e_jstr(json_array_get(j, 1), "data.text"), html);
    ck_assert_str_eq(e2e_jstr(json_array_get(j, 1), "type"), "message.posted");
    ck_assert_int_eq(e2e_jint(json_array_get(j, 1), "data.seat"), 0);
    json_decref(d);
    json_decref(s);
    json_decref(j);

    /* a seat's endpoint: never its own messages, not those of a seat it muted */
    ck_assert_int_eq(say(&f, 2, "my own words", NULL), 201);
    char mp[200];
    snprintf(mp, sizeof mp, "/v1/games/%s/mutes/1", f.g.id);
    ck_assert_int_eq(e2e_req(f.c, "PUT", mp, f.g.token[2], NULL, NULL, &r), 204);
    e2e_resp_free(&r);
    ck_assert_int_eq(say(&f, 1, "muted words", NULL), 201);
    ck_assert_int_eq(say(&f, 0, "last words", NULL), 201);
    j = outbox_bodies(&f, wj);
    ck_assert_int_eq(json_array_size(j), 4);
    ck_assert_str_eq(e2e_jstr(json_array_get(j, 3), "data.text"), "last words");
    json_decref(j);
    d = outbox_bodies(&f, wd);
    ck_assert_int_eq(json_array_size(d), 6);   /* the admin's endpoint gets them all */
    json_decref(d);
    fx_down(&f);
}
END_TEST


/* ---- a player key acts for its seat (the lobby's cd_req_seat_hash) ------------------------------------------- */
START_TEST(player_key_writes_and_reads)
{
    e2e_daemon *d = e2e_daemon_up(NULL);
    e2e_client *c = e2e_client_new(d);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/players", NULL, "{\"name\":\"Ann\"}", NULL, &r), 201);
    char key[80];
    snprintf(key, sizeof key, "%s", e2e_jstr(r.json, "key"));
    e2e_resp_free(&r);
    ck_assert_msg(strncmp(key, "pk_", 3) == 0, "a player key: %s", key);
    char body[300];
    snprintf(body, sizeof body, "{\"players\":[{\"name\":\"Ann\",\"player_key\":\"%s\"},{\"name\":\"Bob\"}]}", key);
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/games", NULL, body, NULL, &r), 201);
    char id[40], bob[80], mp[160];
    snprintf(id, sizeof id, "%s", e2e_jstr(r.json, "id"));
    snprintf(bob, sizeof bob, "%s", e2e_jstr(r.json, "players.1.token"));
    e2e_resp_free(&r);
    snprintf(mp, sizeof mp, "/v1/games/%s/messages", id);
    ck_assert_int_eq(e2e_req(c, "POST", mp, key, "{\"text\":\"written with my key\"}", NULL, &r), 201);
    ck_assert_int_eq(e2e_jint(r.json, "seat"), 0);
    e2e_resp_free(&r);
    json_t *a = e2e_get_ok(c, mp, bob, 200);
    ck_assert_str_eq(e2e_jstr(a, "messages.0.text"), "written with my key");
    json_decref(a);
    a = e2e_get_ok(c, mp, key, 200);   /* and reads as its seat: "muted" is a seat's */
    ck_assert_ptr_nonnull(json_object_get(a, "muted"));
    json_decref(a);
    ck_assert_int_eq(e2e_req(c, "POST", "/v1/players", NULL, "{\"name\":\"Eve\"}", NULL, &r), 201);
    char eve[80];
    snprintf(eve, sizeof eve, "%s", e2e_jstr(r.json, "key"));
    e2e_resp_free(&r);
    ck_assert_int_eq(e2e_req(c, "POST", mp, eve, "{\"text\":\"not my game\"}", NULL, &r), 403);   /* no seat here */
    e2e_resp_free(&r);
    e2e_client_free(c);
    e2e_daemon_down(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2e_messages");
    TCase *tc = e2e_tcase("messages", 180);
    tcase_add_test(tc, three_seats_talk);
    tcase_add_test(tc, events_carry_messages);
    tcase_add_test(tc, rate_limit_per_seat);
    tcase_add_test(tc, mute_is_for_oneself);
    tcase_add_test(tc, admin_hides_audited);
    tcase_add_test(tc, hostile_text);
    tcase_add_test(tc, player_key_writes_and_reads);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
