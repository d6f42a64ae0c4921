/*
 * test_upgrade.c — games stored by an older carcd come through `carcd migrate` and this carcd intact and playable.
 *
 * tests/db/fixtures/upgrade-from-028.sql is the database of carcd 53a26c9 (sql/028, the commit before the seat
 * leave of 029), made by tests/db/fixtures/make-upgrade-fixture.sh; upgrade-from-028.json holds the games' tokens
 * and what that carcd answered about them. Each test loads the dump into a fresh database, migrates it with this
 * carcd (001..028 are recorded there without their text's hash: carcd migrate fills it) and serves it:
 *   - every game (finished, in the middle, a mail seat's, a bot's under a 30-day turn clock, one its admin
 *     cancelled) verifies, and its view, admin view, export and the pending seat's legal moves hold every member
 *     the old carcd answered, with the same value, and no new member but those added_members names (options.river:
 *     false); so do the waiting game's view, its invitations and its creator's player stream;
 *   - the game in the middle (every expansion, four seats, figures out, a tile under a hill) answers its last
 *     move's retry with the same Idempotency-Key as it was answered, and plays on to its end;
 *   - its table talk reads as before (a message the admin hid stays hidden), seat 3's mute of seat 0 still holds
 *     (and can be lifted), and a new message goes to whom it should; its webhooks and the player key's games are
 *     listed as before;
 *   - the bot's game: the person moves, and this carcd's bot worker answers for the seat the old one set up;
 *   - the waiting game is joined with its two invitation codes (one of them mailed), starts, and plays to its end;
 *     or its creator starts it with the two seats it has;
 *   - the finished (compacted) game's log, page and board pictures are served;
 *   - the mail seat keeps its address, its turn is mailed to it, and its reply (to the reply address the old carcd
 *     mailed it) plays through `carcd mail-in`;
 *   - a seat that joined the waiting game leaves, another is removed by the creator (029, 030, 032 on a game that
 *     waited before them), and the game still fills from its codes and starts;
 *   - a second `carcd migrate` finds nothing to do, and every migration has its hash;
 *   - this carcd's clock worker, with short lives, expires the waiting game, forgets the old player events and
 *     idempotency key, and compacts the middle game once it is played out.
 *
 * The clock worker is off while the old answers are compared (CARCD_CLOCK_INTERVAL_MS=0), and this carcd's clocks
 * read the fixture's time (CARCD_TIME_FILE, a minute after it was made): a run weeks later must not find its
 * waiting game expired, its idempotency key or deliveries forgotten, or its turn clock run out.
 * Webhooks and mail go to ports where nothing listens, as in the fixture.
 */
#define _DEFAULT_SOURCE   /* timegm */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "e2e.h"

#define FIXTURE CARC_SOURCE_DIR "/tests/db/fixtures/upgrade-from-028"

static const char *const serve_env[] = {
    "CARCD_CLOCK_INTERVAL_MS=0",
    "CARCD_WEBHOOK_ALLOW=127.0.0.0/8",
    "CARCD_SMTP_URL=smtp://127.0.0.1:9",
    "CARCD_PUBLIC_URL=http://127.0.0.1:18421",
    "CARCD_MAIL_SECRET=upgrade-fixture-mail-secret-0123456789",   /* the fixture's: its reply tags are HMACs */
    "CARCD_MAIL_REPLY_TO=play+{tag}@example.org",
    "CARCD_BOT_INTERVAL_MS=50",
    NULL,
};

typedef struct {
    e2e_daemon *d;
    e2e_client *c;
    json_t *want;              /* upgrade-from-028.json */
    long long made_at;         /* the fixture's time, seconds since the epoch */
    char time_path[300];       /* CARCD_TIME_FILE's */
    char time_env[320];
    const char *env[24];       /* serve_env with the test's own settings and the time file */
} fx;

/* The fixture's time, a minute after its bot game's answer: the clocks of this carcd (turn clocks, the waiting
 * game's expiry, what the clock worker forgets) read it from CARCD_TIME_FILE, so that a run in a year finds the
 * fixture's 30-day turn clock as it was left. */
/* carcd's clocks say `after` seconds after the fixture's time from now on. */
static void set_time(fx *f, long after)
{
    char tmp[320];
    snprintf(tmp, sizeof tmp, "%s.new", f->time_path);
    FILE *t = fopen(tmp, "w");
    ck_assert(t != NULL);
    fprintf(t, "%lld\n", f->made_at + after);
    ck_assert_int_eq(fclose(t), 0);
    ck_assert_int_eq(rename(tmp, f->time_path), 0);   /* whole: carcd never reads half a number */
}

static void write_time_file(fx *f)
{
    const char *now = e2e_jstr(json_object_get(json_object_get(f->want, "games"), "bot"), "view.clock.now");
    struct tm tm = {0};
    int ms = 0;
    ck_assert_msg(sscanf(now, "%d-%d-%dT%d:%d:%d.%dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
                         &tm.tm_sec, &ms) == 7, "the bot game's clock.now '%s'", now);
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    f->made_at = (long long)timegm(&tm);
    const char *tmp = getenv("TMPDIR");
    snprintf(f->time_path, sizeof f->time_path, "%s/carcd-upgrade-time.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(f->time_path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    set_time(f, 60);
    snprintf(f->time_env, sizeof f->time_env, "CARCD_TIME_FILE=%s", f->time_path);
}

/* Loads the fixture, migrates and serves it with serve_env, whose settings `extra` (may be NULL) overrides. */
static void fx_up_with(fx *f, const char *const *extra)
{
    memset(f, 0, sizeof *f);
    const char *url = getenv("CARCD_TEST_DATABASE_URL");
    if (!url || !*url)
        exit(77);   /* as e2e_daemon_up_from would, before a time file is left behind */
    json_error_t err;
    f->want = json_load_file(FIXTURE ".json", 0, &err);
    ck_assert_msg(f->want != NULL, "%s.json: %s (line %d)", FIXTURE, err.text, err.line);
    write_time_file(f);
    int n = 0;
    for (int i = 0; serve_env[i]; i++) {
        bool overridden = false;
        for (int k = 0; extra && extra[k]; k++)
            overridden |= strncmp(serve_env[i], extra[k], (size_t)(strchr(extra[k], '=') - extra[k] + 1)) == 0;
        if (!overridden)
            f->env[n++] = serve_env[i];
    }
    for (int k = 0; extra && extra[k]; k++)
        f->env[n++] = extra[k];
    f->env[n++] = f->time_env;
    f->env[n] = NULL;
    ck_assert_int_lt(n, 12);   /* e2e_daemon's extra_env holds 11 */
    f->d = e2e_daemon_up_from(FIXTURE ".sql", f->env);
    f->c = e2e_client_new(f->d);
}

static void fx_up(fx *f)
{
    fx_up_with(f, NULL);
}

static void fx_down(fx *f)
{
    e2e_client_free(f->c);
    e2e_daemon_down(f->d);
    json_decref(f->want);
    unlink(f->time_path);
}

static json_t *game(const fx *f, const char *name)
{
    json_t *g = json_object_get(json_object_get(f->want, "games"), name);
    ck_assert_msg(g != NULL, "the fixture has no game %s", name);
    return g;
}

static const char *token(const json_t *g, int seat)
{
    const char *t = json_string_value(json_array_get(json_object_get(g, "tokens"), (size_t)seat));
    ck_assert_msg(t != NULL, "no token for seat %d", seat);
    return t;
}

/* A member whose value the upgraded carcd changes by itself, and rightly: where it is it must be there, of the same
 * JSON type, but its value is not compared. An invitation's `mail` is its delivery's state ({state, tries, error,
 * sent_at}), which this carcd's mail sender moves on as soon as it runs (it tries the fixture's pending mail
 * again, against another dead port), as the old one did. */
static const char *const live_members[] = {
    "mail",
    "now", "time_left_s",   /* a turn clock's: the time of the answer, and a seat's time left at it */
};

static bool is_live(const char *key)
{
    for (size_t i = 0; i < sizeof live_members / sizeof live_members[0]; i++)
        if (strcmp(key, live_members[i]) == 0)
            return true;
    return false;
}

/* The members this carcd answers that 53a26c9 did not, each with what an old game shows in it. Any other new member
 * fails the comparison, so that a change to what an old game answers is written down here or fixed. */
static const struct {
    const char *key;
    const char *json;   /* its value in every old game; NULL: the caller checks it */
} added_members[] = {
    {"river", "false"},   /* options.river (the River, after 028): an old game never had it */
    {"clock", NULL},      /* an export's clock settings (30d1ef2): assert_game_kept holds them to the view's */
};

/* Asserts that `now` holds every member of `old` with the same value, recursively (arrays element by element, of
 * the same length), and no other member but those of added_members, with their value. */
static void assert_kept(const json_t *old, const json_t *now, const char *path)
{
    char *o = json_dumps(old, JSON_COMPACT | JSON_ENCODE_ANY), *n = json_dumps(now, JSON_COMPACT | JSON_ENCODE_ANY);
    if (json_is_object(old) && json_is_object(now)) {
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)old, k, v) {
            char sub[300];
            snprintf(sub, sizeof sub, "%s.%s", path, k);
            ck_assert_msg(json_object_get(now, k) != NULL, "%s is gone (was %.200s)", sub, o);
            if (is_live(k))
                ck_assert_msg(json_typeof(v) == json_typeof(json_object_get(now, k)), "%s: another type", sub);
            else
                assert_kept(v, json_object_get(now, k), sub);
        }
        json_object_foreach((json_t *)now, k, v) {
            if (json_object_get(old, k))
                continue;
            size_t i = 0, na = sizeof added_members / sizeof added_members[0];
            while (i < na && strcmp(added_members[i].key, k) != 0)
                i++;
            char *nv = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
            ck_assert_msg(i < na, "%s.%s is new (%.200s): name it in added_members", path, k, nv);
            if (added_members[i].json) {
                json_t *want = json_loads(added_members[i].json, JSON_DECODE_ANY, NULL);
                ck_assert_msg(json_equal(want, v), "%s.%s is %s, want %s", path, k, nv, added_members[i].json);
                json_decref(want);
            }
            free(nv);
        }
    } else if (json_is_array(old) && json_is_array(now)) {
        ck_assert_msg(json_array_size(old) == json_array_size(now), "%s: %zu items, were %zu:\nnow %.400s\nwas %.400s",
                      path, json_array_size(now), json_array_size(old), n, o);
        for (size_t i = 0; i < json_array_size(old); i++) {
            char sub[300];
            snprintf(sub, sizeof sub, "%s.%zu", path, i);
            assert_kept(json_array_get(old, i), json_array_get(now, i), sub);
        }
    } else {
        ck_assert_msg(json_equal((json_t *)old, (json_t *)now), "%s changed: was %.300s, is %.300s", path, o, n);
    }
    free(o);
    free(n);
}

/* GET path (token may be NULL) must answer 200 and keep everything of the old answer g[member]. */
static json_t *get_kept(fx *f, const json_t *g, const char *member, const char *path, const char *token)
{
    json_t *now = e2e_get_ok(f->c, path, token, 200);
    json_t *old = json_object_get(g, member);
    ck_assert_msg(old != NULL, "the fixture has no %s", member);
    char what[420];   /* a member name and a path of 200 */
    snprintf(what, sizeof what, "%s (%s)", member, path);
    assert_kept(old, now, what);
    return now;
}

/* The view, admin view, export (and with `legal`, the pending seat's legal moves) of a started game as they were;
 * it verifies at its seq. The game's seq. */
static int assert_game_kept(fx *f, const char *name, bool legal)
{
    json_t *g = game(f, name);
    const char *id = json_string_value(json_object_get(g, "id"));
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s", id);
    json_t *view = get_kept(f, g, "view", path, NULL);
    int seq = (int)e2e_jint(view, "seq");
    snprintf(path, sizeof path, "/v1/admin/games/%s", id);
    json_decref(get_kept(f, g, "admin_view", path, f->d->admin));
    snprintf(path, sizeof path, "/v1/admin/games/%s/export", id);
    json_t *exp = get_kept(f, g, "export", path, f->d->admin);
    /* the export's clock, new since 028, is the game's settings as the old view showed them */
    json_t *clock = json_object_get(json_object_get(g, "view"), "clock"), *eclock = json_object_get(exp, "clock");
    ck_assert_msg(json_is_object(clock) == json_is_object(eclock), "%s: the export's clock", name);
    const char *k;
    json_t *v;
    json_object_foreach(eclock, k, v) {
        json_t *was = json_object_get(clock, k);   /* 2592000 there, 2592000.0 here: the same number */
        bool same = json_is_number(v) && json_is_number(was) ? json_number_value(v) == json_number_value(was)
                                                             : json_equal(v, was);
        ck_assert_msg(same, "%s: the export's clock.%s", name, k);
    }
    json_decref(exp);
    if (legal) {
        snprintf(path, sizeof path, "/v1/games/%s/legal-moves", id);
        json_decref(get_kept(f, g, "legal", path, token(g, (int)e2e_jint(view, "pending.seat"))));
    }
    ck_assert_int_eq(e2e_verify_ok(f->c, f->d, id), seq);
    json_decref(view);
    return seq;
}

/* The fixture's game as an e2e_game, for the play helpers. */
static void as_game(const json_t *g, e2e_game *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->id, sizeof out->id, "%s", json_string_value(json_object_get(g, "id")));
    out->nplayers = (int)json_array_size(json_object_get(g, "tokens"));
    for (int i = 0; i < out->nplayers; i++)
        snprintf(out->token[i], sizeof out->token[i], "%s", token(g, i));
}

/* ---- the migration ----------------------------------------------------------------------------------------------- */
START_TEST(migrates_once_with_hashes)
{
    fx f;
    fx_up(&f);
    ck_assert_int_eq(e2e_db_long(f.d, "SELECT count(*) FROM schema_versions WHERE sha256 IS NULL"), 0);
    ck_assert_int_eq(e2e_db_long(f.d, "SELECT count(*) FROM schema_versions WHERE version <= 28 AND "
                                      "applied_at < (SELECT min(applied_at) FROM schema_versions WHERE version > 28)"),
                     28);   /* 001..028 are the fixture's own rows, kept; the rest applied now */
    e2e_daemon_migrate(f.d);   /* again: nothing to apply, and the daemon keeps serving */
    char *log = e2e_daemon_log(f.d);
    ck_assert_msg(strstr(log, "applied 029_seat_leave.sql") && strstr(log, "applied 036_"), "%s", log);
    ck_assert_msg(strstr(log, "nothing to apply") != NULL, "the second migrate applied something:\n%s", log);
    free(log);
    fx_down(&f);
}
END_TEST

/* ---- every game as the old carcd answered ------------------------------------------------------------------------ */
START_TEST(games_answer_as_before)
{
    fx f;
    fx_up(&f);
    ck_assert_int_eq(assert_game_kept(&f, "finished", false), e2e_jint(game(&f, "finished"), "view.seq"));
    ck_assert_int_eq(assert_game_kept(&f, "middle", true), e2e_jint(game(&f, "middle"), "view.seq"));
    ck_assert_int_eq(assert_game_kept(&f, "mail", true), e2e_jint(game(&f, "mail"), "view.seq"));
    ck_assert_int_eq(assert_game_kept(&f, "bot", true), e2e_jint(game(&f, "bot"), "view.seq"));
    ck_assert_int_eq(assert_game_kept(&f, "cancelled", false), e2e_jint(game(&f, "cancelled"), "view.seq"));
    ck_assert_str_eq(e2e_jstr(game(&f, "cancelled"), "view.status"), "cancelled");
    ck_assert_str_eq(e2e_jstr(game(&f, "finished"), "view.status"), "finished");

    json_t *w = game(&f, "waiting");
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s", e2e_jstr(w, "id"));
    json_decref(get_kept(&f, w, "view", path, NULL));
    snprintf(path, sizeof path, "/v1/games/%s/invites", e2e_jstr(w, "id"));
    json_decref(get_kept(&f, w, "invites", path, e2e_jstr(w, "creator_token")));
    json_decref(get_kept(&f, w, "me_events", "/v1/me/events", e2e_jstr(w, "player_key")));
    fx_down(&f);
}
END_TEST

/* ---- the game in the middle -------------------------------------------------------------------------------------- */
START_TEST(middle_game_retries_and_plays_to_end)
{
    fx f;
    fx_up(&f);
    json_t *m = game(&f, "middle");
    /* figures on the board and a tile under a hill, as the fixture promises, and its log read from the moves */
    ck_assert_int_ge((long)json_array_size(json_object_get(json_object_get(m, "view"), "figures")), 4);
    long status = 0;
    json_t *log = e2e_events_log(f.c, e2e_jstr(m, "id"), NULL, &status);
    ck_assert_msg(log != NULL, "events: %ld", status);
    e2e_assert_log_complete(log, (int)e2e_jint(m, "view.seq"), "the middle game's log");
    char *text = json_dumps(log, JSON_COMPACT);
    ck_assert_msg(strstr(text, "\"hill_covered\"") != NULL, "no tile went under a hill");
    free(text);
    json_decref(log);

    /* the last move's retry, with its key, is answered as it was (not a stale-seq: the key was kept) */
    char path[200], key[120];
    e2e_game g;
    as_game(m, &g);
    snprintf(path, sizeof path, "/v1/games/%s/moves", g.id);
    snprintf(key, sizeof key, "Idempotency-Key: %s", e2e_jstr(m, "last_move.idempotency_key"));
    const char *hdrs[] = {key, NULL};
    e2e_resp r;
    long st = e2e_req(f.c, "POST", path, g.token[e2e_jint(m, "last_move.seat")], e2e_jstr(m, "last_move.request"),
                      hdrs, &r);
    ck_assert_msg(st == 200, "retry: %ld %s", st, r.body);
    json_t *was = json_loads(e2e_jstr(m, "last_move.answer"), 0, NULL);
    assert_kept(was, r.json, "the retried move's answer");
    json_decref(was);
    e2e_resp_free(&r);

    e2e_rng rng = {20261207};
    int moves = e2e_play_to_end(f.c, &g, &rng);
    ck_assert_int_gt(moves, 20);
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    json_t *v = e2e_get_ok(f.c, path, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "finished");
    int seq = (int)e2e_jint(v, "seq");
    ck_assert_int_eq(e2e_verify_ok(f.c, f.d, g.id), seq);
    log = e2e_events_log(f.c, g.id, NULL, &status);
    ck_assert_msg(log != NULL, "events: %ld", status);
    e2e_assert_log_complete(log, seq, "the upgraded middle game's log");
    json_decref(log);
    json_decref(v);
    snprintf(path, sizeof path, "/v1/admin/games/%s/export", g.id);
    v = e2e_get_ok(f.c, path, f.d->admin, 200);
    ck_assert_int_eq((long)json_array_size(json_object_get(v, "moves")), seq);
    json_decref(v);
    fx_down(&f);
}
END_TEST

/* ---- table talk, webhooks, the player key ------------------------------------------------------------------------ */
static int count_texts(const json_t *list, const char *text)
{
    int n = 0;
    json_t *msg;
    size_t i;
    json_array_foreach(json_object_get(list, "messages"), i, msg)
        n += strcmp(e2e_jstr(msg, "text"), text) == 0;
    return n;
}

START_TEST(chat_mutes_webhooks_and_keys_hold)
{
    fx f;
    fx_up(&f);
    json_t *m = game(&f, "middle");
    const char *id = e2e_jstr(m, "id");
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s/messages", id);
    json_t *r3 = get_kept(&f, m, "messages_seat3", path, token(m, 3));
    json_t *r1 = get_kept(&f, m, "messages_seat1", path, token(m, 1));
    ck_assert_int_eq(count_texts(r3, "good luck all"), 0);   /* seat 3 muted seat 0 before the upgrade */
    ck_assert_int_eq(count_texts(r1, "good luck all"), 1);
    ck_assert_int_eq(e2e_jint(r3, "muted.0"), 0);
    json_decref(r3);
    json_decref(r1);

    e2e_resp r;
    ck_assert_int_eq(e2e_req(f.c, "POST", path, token(m, 0), "{\"text\":\"after the upgrade\"}", NULL, &r), 201);
    e2e_resp_free(&r);
    r3 = e2e_get_ok(f.c, path, token(m, 3), 200);
    r1 = e2e_get_ok(f.c, path, token(m, 1), 200);
    ck_assert_int_eq(count_texts(r3, "after the upgrade"), 0);
    ck_assert_int_eq(count_texts(r1, "after the upgrade"), 1);
    json_decref(r3);
    json_decref(r1);
    char mp[200];
    snprintf(mp, sizeof mp, "/v1/games/%s/mutes/0", id);
    ck_assert_int_eq(e2e_req(f.c, "DELETE", mp, token(m, 3), NULL, NULL, &r), 204);
    e2e_resp_free(&r);
    r3 = e2e_get_ok(f.c, path, token(m, 3), 200);
    ck_assert_int_eq(count_texts(r3, "good luck all"), 1);
    ck_assert_int_eq(count_texts(r3, "after the upgrade"), 1);
    json_decref(r3);

    snprintf(path, sizeof path, "/v1/games/%s/webhooks", id);
    json_decref(get_kept(&f, m, "webhooks_seat0", path, token(m, 0)));
    snprintf(path, sizeof path, "/v1/games/%s/webhooks/%s/deliveries", id, e2e_jstr(m, "webhook.id"));
    json_t *dl = e2e_get_ok(f.c, path, token(m, 0), 200);
    ck_assert_int_gt((long)json_array_size(json_object_get(dl, "deliveries")), 0);
    json_decref(dl);
    json_decref(get_kept(&f, m, "me_games", "/v1/me/games", e2e_jstr(m, "player_key")));

    /* a move after the upgrade is a new message for the game's endpoint (its receiver is down: it stays) */
    long before = e2e_db_long(f.d, "SELECT count(*) FROM webhook_outbox");
    e2e_game g;
    as_game(m, &g);
    e2e_rng rng = {7};
    e2e_play p;
    ck_assert_int_eq(e2e_play_random(f.c, &g, &rng, NULL, &p), 200);
    e2e_play_free(&p);
    ck_assert_int_gt(e2e_db_long(f.d, "SELECT count(*) FROM webhook_outbox"), before);
    fx_down(&f);
}
END_TEST

/* ---- the bot ----------------------------------------------------------------------------------------------------- */
START_TEST(bot_game_plays_on)
{
    fx f;
    fx_up(&f);
    json_t *b = game(&f, "bot");
    e2e_game g;
    as_game(b, &g);
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    int seq0 = (int)e2e_jint(b, "view.seq");
    e2e_rng rng = {11};
    /* the person moves; this carcd's bot worker answers for seat 1, which the old carcd set up */
    for (int turn = 0; turn < 4; turn++) {
        e2e_play p;
        ck_assert_int_eq(e2e_play_random(f.c, &g, &rng, NULL, &p), 200);
        e2e_play_free(&p);
        json_t *v = NULL;
        for (double t0 = e2e_now(); e2e_now() - t0 < 10 * E2E_SLACK;) {
            json_decref(v);
            v = e2e_get_ok(f.c, path, NULL, 200);
            if (e2e_jint(v, "pending.seat") == 0 || strcmp(e2e_jstr(v, "status"), "active") != 0)
                break;
            struct timespec nap = {0, 50 * 1000 * 1000};
            nanosleep(&nap, NULL);
        }
        ck_assert_int_eq(e2e_jint(v, "pending.seat"), 0);
        json_decref(v);
    }
    char ev[200];
    snprintf(ev, sizeof ev, "/v1/games/%s/events?after=%d", g.id, seq0);
    json_t *log = e2e_get_ok(f.c, ev, NULL, 200);
    char *text = json_dumps(log, JSON_COMPACT);
    ck_assert_msg(e2e_count(text, "\"by\":\"bot\"") >= 4, "%s", text);
    free(text);
    json_decref(log);
    e2e_verify_ok(f.c, f.d, g.id);
    fx_down(&f);
}
END_TEST

/* ---- the waiting game -------------------------------------------------------------------------------------------- */
START_TEST(waiting_game_fills_starts_and_plays)
{
    fx f;
    fx_up(&f);
    json_t *w = game(&f, "waiting");
    e2e_game g;
    memset(&g, 0, sizeof g);
    snprintf(g.id, sizeof g.id, "%s", e2e_jstr(w, "id"));
    snprintf(g.token[0], sizeof g.token[0], "%s", token(w, 0));
    snprintf(g.token[1], sizeof g.token[1], "%s", token(w, 1));
    /* the two open places' codes (place 0's was Wait1's), the mailed one last: the second join takes the last seat
     * and starts the game */
    json_t *codes = json_object_get(w, "invite_codes");
    ck_assert_int_eq((long)json_array_size(codes), 3);
    for (int i = 0; i < 2; i++) {
        char name[16];
        snprintf(name, sizeof name, "Late%d", i);
        int seat = e2e_join_by_code(f.c, g.id, name, json_string_value(json_array_get(codes, (size_t)i + 1)),
                                    g.token[2 + i]);
        ck_assert_int_eq(seat, 2 + i);
    }
    g.nplayers = 4;
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s", g.id);
    json_t *v = e2e_get_ok(f.c, path, NULL, 200);
    ck_assert_str_eq(e2e_jstr(v, "status"), "active");
    ck_assert_int_eq((long)json_array_size(json_object_get(v, "players")), 4);
    ck_assert_str_eq(e2e_jstr(v, "players.0.name"), "Wait0");
    ck_assert_str_eq(e2e_jstr(v, "players.1.name"), "Wait1");
    ck_assert_str_eq(e2e_jstr(v, "seed_sha256"), e2e_jstr(w, "view.seed_sha256"));   /* the seed drawn then */
    json_decref(v);
    e2e_rng rng = {28};
    ck_assert_int_gt(e2e_play_to_end(f.c, &g, &rng), 40);
    e2e_verify_ok(f.c, f.d, g.id);
    fx_down(&f);
}
END_TEST

START_TEST(waiting_game_starts_by_its_creator)
{
    fx f;
    fx_up(&f);
    json_t *w = game(&f, "waiting");
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s/start", e2e_jstr(w, "id"));
    e2e_resp r;
    ck_assert_int_eq(e2e_req(f.c, "POST", path, e2e_jstr(w, "creator_token"), NULL, NULL, &r), 200);
    ck_assert_str_eq(e2e_jstr(r.json, "status"), "active");
    ck_assert_int_eq((long)json_array_size(json_object_get(r.json, "players")), 2);
    e2e_resp_free(&r);
    e2e_game g;
    as_game(w, &g);
    e2e_rng rng = {29};
    e2e_play_to_end(f.c, &g, &rng);
    e2e_verify_ok(f.c, f.d, g.id);
    fx_down(&f);
}
END_TEST

/* A GET of the game's view with a gone seat's token: 403 with that problem. */
static void assert_gone(fx *f, const char *id, const char *tok, const char *slug)
{
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s", id);
    e2e_resp r;
    e2e_req(f->c, "GET", path, tok, NULL, NULL, &r);
    ck_assert_msg(r.status == 403 && e2e_problem_is(&r, slug), "%s: %ld %s", slug, r.status, r.body);
    e2e_resp_free(&r);
}

/* What came after 028 (leave 029, remove 030, seats_gone 032) works on a game that waited before it */
START_TEST(waiting_seat_leaves_and_is_removed)
{
    fx f;
    fx_up(&f);
    json_t *w = game(&f, "waiting");
    const char *id = e2e_jstr(w, "id"), *creator = e2e_jstr(w, "creator_token");
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s/leave", id);
    e2e_resp r;
    ck_assert_int_eq(e2e_req(f.c, "POST", path, token(w, 1), NULL, NULL, &r), 200);
    e2e_resp_free(&r);
    assert_gone(&f, id, token(w, 1), "seat-given-up");
    /* the creator's player hears it in its stream, whose rows began before 029 let a player_left in */
    json_t *ev = e2e_me_events_all(f.c, e2e_jstr(w, "player_key"));
    char *text = json_dumps(ev, JSON_COMPACT);
    ck_assert_msg(strstr(text, "\"player_joined\"") && strstr(text, "\"player_left\""), "%s", text);
    free(text);
    json_decref(ev);
    /* its place opens again to its code */
    char again[80];
    ck_assert_int_eq(e2e_join_by_code(f.c, id, "Again", e2e_jstr(w, "invite_codes.0"), again), 1);
    snprintf(path, sizeof path, "/v1/games/%s/seats/1/remove", id);
    ck_assert_int_eq(e2e_req(f.c, "POST", path, creator, NULL, NULL, &r), 200);
    e2e_resp_free(&r);
    assert_gone(&f, id, again, "seat-removed");
    snprintf(path, sizeof path, "/v1/games/%s", id);
    json_t *v = e2e_get_ok(f.c, path, NULL, 200);
    ck_assert_int_eq(e2e_jint(v, "open"), 3);
    ck_assert_int_eq((long)json_array_size(json_object_get(v, "players")), 1);
    json_decref(v);
    /* the mailed place's code still takes a seat; the creator starts with two */
    e2e_game g;
    memset(&g, 0, sizeof g);
    snprintf(g.id, sizeof g.id, "%s", id);
    snprintf(g.token[0], sizeof g.token[0], "%s", token(w, 0));
    ck_assert_int_eq(e2e_join_by_code(f.c, id, "Mailed", e2e_jstr(w, "invite_codes.2"), g.token[1]), 1);
    g.nplayers = 2;
    snprintf(path, sizeof path, "/v1/games/%s/start", id);
    ck_assert_int_eq(e2e_req(f.c, "POST", path, creator, NULL, NULL, &r), 200);
    ck_assert_str_eq(e2e_jstr(r.json, "players.1.name"), "Mailed");
    e2e_resp_free(&r);
    e2e_rng rng = {30};
    e2e_play_to_end(f.c, &g, &rng);
    e2e_verify_ok(f.c, f.d, id);
    fx_down(&f);
}
END_TEST

/* ---- the clock worker on the old rows ---------------------------------------------------------------------------- */
/* With this carcd's clock worker and short lives: the waiting game expires, the player events written before the
 * upgrade are forgotten (036), the old idempotency key is swept, and the middle game played to its end is
 * compacted with its export unchanged. */
START_TEST(clock_worker_keeps_up_old_rows)
{
    const char *const shorter[] = {"CARCD_CLOCK_INTERVAL_MS=100", "CARCD_WAITING_TTL=1", "CARCD_DELIVERY_TTL=1",
                                   "CARCD_IDEMPOTENCY_TTL=1", NULL};
    fx f;
    fx_up_with(&f, shorter);

    json_t *w = game(&f, "waiting");
    char path[200], sql[300];
    snprintf(path, sizeof path, "/v1/games/%s", e2e_jstr(w, "id"));
    /* time passes, a minute every tenth of a second: the game is warned, then cancelled (never unwarned) */
    json_t *v = NULL;
    for (int i = 1; i <= 100; i++) {
        json_decref(v);
        v = e2e_get_ok(f.c, path, NULL, 200);
        if (strcmp(e2e_jstr(v, "status"), "cancelled") == 0)
            break;
        set_time(&f, 60 + 60L * i);
        struct timespec nap = {0, 100 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    ck_assert_str_eq(e2e_jstr(v, "status"), "cancelled");
    ck_assert_str_eq(e2e_jstr(v, "cancelled_by"), "expiry");
    json_decref(v);
    /* the fixture's events: the view rounds their time to the millisecond */
    snprintf(sql, sizeof sql, "SELECT count(*) FROM player_events WHERE at < timestamptz '%s' + interval '1 ms'",
             e2e_jstr(w, "me_events.entries.0.at"));
    ck_assert_int_eq((long)json_array_size(json_object_get(json_object_get(w, "me_events"), "entries")), 1);
    ck_assert_int_eq(e2e_db_long_until(f.d, sql, 0, 10), 0);
    ck_assert_str_ne(e2e_jstr(game(&f, "middle"), "last_move.idempotency_key"), "");   /* the fixture's one key */
    ck_assert_int_eq(e2e_db_long_until(f.d, "SELECT count(*) FROM moves WHERE idempotency_key IS NOT NULL", 0, 10),
                     0);

    json_t *m = game(&f, "middle");
    e2e_game g;
    as_game(m, &g);
    e2e_rng rng = {36};
    e2e_play_to_end(f.c, &g, &rng);
    snprintf(path, sizeof path, "/v1/admin/games/%s/export", g.id);
    json_t *before = e2e_get_ok(f.c, path, f.d->admin, 200);
    /* the game finished now, by PostgreSQL's clock; carcd's must pass that by the idempotency keys' life to compact */
    set_time(&f, (long)((long long)time(NULL) - f.made_at + 60));
    snprintf(sql, sizeof sql, "SELECT count(*) FROM games WHERE id = '%s' AND log IS NULL", g.id);
    ck_assert_int_eq(e2e_db_long_until(f.d, sql, 0, 10), 0);
    json_t *after = e2e_get_ok(f.c, path, f.d->admin, 200);
    ck_assert_msg(json_equal(before, after), "the export changed with the compaction");
    json_decref(before);
    json_decref(after);
    e2e_verify_ok(f.c, f.d, g.id);
    fx_down(&f);
}
END_TEST

/* ---- the finished game ------------------------------------------------------------------------------------------- */
START_TEST(finished_game_renders)
{
    fx f;
    fx_up(&f);
    json_t *fin = game(&f, "finished");
    const char *id = e2e_jstr(fin, "id");
    /* compacted by the old carcd's clock worker: its moves are in its games row, none in moves */
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM games WHERE id = '%s' AND log IS NOT NULL", id);
    ck_assert_int_eq(e2e_db_long(f.d, sql), 1);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM moves WHERE game_id = '%s'", id);
    ck_assert_int_eq(e2e_db_long(f.d, sql), 0);

    long status = 0;
    json_t *log = e2e_events_log(f.c, id, NULL, &status);
    ck_assert_msg(log != NULL, "events: %ld", status);
    e2e_assert_log_complete(log, (int)e2e_jint(fin, "view.seq"), "the finished game's log");
    json_decref(log);
    const struct {
        const char *fmt, *type, *needle;
    } pages[] = {
        {"/games/%s", "text/html", "Fin0"},
        {"/v1/games/%s/board.svg", "image/svg+xml", "<svg"},
        {"/v1/games/%s/board.png", "image/png", "\x89PNG"},
    };
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        char path[200];
        snprintf(path, sizeof path, pages[i].fmt, id);
        e2e_resp r;
        ck_assert_int_eq(e2e_req(f.c, "GET", path, NULL, NULL, NULL, &r), 200);
        ck_assert_msg(strncmp(r.content_type, pages[i].type, strlen(pages[i].type)) == 0, "%s: %s", path,
                      r.content_type);
        ck_assert_msg(r.len > 200, "%s: %zu bytes", path, r.len);
        ck_assert_msg(i == 2 ? memcmp(r.body, pages[i].needle, 4) == 0 : strstr(r.body, pages[i].needle) != NULL,
                      "%s: no %s", path, pages[i].needle);
        e2e_resp_free(&r);
    }
    fx_down(&f);
}
END_TEST

/* ---- the mail seat ----------------------------------------------------------------------------------------------- */
/* `carcd mail-in` with `message` on stdin, with the settings the daemon serves with: its exit status. */
static int mail_in(const fx *f, const char *message)
{
    char url[1300];
    snprintf(url, sizeof url, "CARCD_DATABASE_URL=%s", f->d->dburl);
    const char *env[32] = {url};
    int n = 1;
    for (int i = 0; f->env[i] && n < 31; i++)
        env[n++] = f->env[i];
    return e2e_carcd_stdin(f->d, "mail-in", env, message, strlen(message));
}

START_TEST(mail_seat_plays_by_reply)
{
    fx f;
    fx_up(&f);
    json_t *ml = game(&f, "mail");
    const char *id = e2e_jstr(ml, "id");
    char path[200];
    snprintf(path, sizeof path, "/v1/games/%s/email", id);
    json_decref(get_kept(&f, ml, "email_seat1", path, token(ml, 1)));
    /* the web seat plays until it is seat 1's turn, which is mailed to it (queued: nothing listens on the SMTP
     * port) */
    char sql[300];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM mail_outbox WHERE game_id = '%s' AND seat = 1 AND kind = 'turn' "
             "AND rcpt = 'mail1@example.org'", id);
    ck_assert_int_eq(e2e_db_long(f.d, sql), 0);
    e2e_game g;
    as_game(ml, &g);
    e2e_rng rng = {3};
    snprintf(path, sizeof path, "/v1/games/%s", id);
    json_t *v = e2e_get_ok(f.c, path, NULL, 200);
    for (int i = 0; i < 6 && e2e_jint(v, "pending.seat") != 1; i++) {
        e2e_play p;
        ck_assert_int_eq(e2e_play_random(f.c, &g, &rng, NULL, &p), 200);
        e2e_play_free(&p);
        json_decref(v);
        v = e2e_get_ok(f.c, path, NULL, 200);
    }
    ck_assert_int_eq(e2e_jint(v, "pending.seat"), 1);
    ck_assert_int_ge(e2e_db_long(f.d, sql), 1);
    int seq = (int)e2e_jint(v, "seq");
    json_decref(v);

    /* seat 1 answers with a notation, to the reply address the old carcd gave it in its invitation mail */
    char tag[80];
    snprintf(sql, sizeof sql, "SELECT substring(body from 'Reply-To: play\\+([0-9a-f]+)@') FROM mail_outbox "
             "WHERE game_id = '%s' AND seat = 1 AND kind = 'invitation'", id);
    e2e_db_text(f.d, sql, tag, sizeof tag);
    ck_assert_msg(strlen(tag) >= 16, "no reply tag in the fixture's invitation mail: '%s'", tag);
    snprintf(path, sizeof path, "/v1/games/%s/legal-moves", id);
    json_t *legal = e2e_get_ok(f.c, path, token(ml, 1), 200);
    char reply[1200];
    snprintf(reply, sizeof reply,
             "From: Mail One <mail1@example.org>\r\nTo: play+%s@example.org\r\nSubject: Re: your turn\r\n"
             "Message-ID: <upgrade-reply-%d@client.example.net>\r\nMIME-Version: 1.0\r\n"
             "Content-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
             tag, (int)getpid(), e2e_jstr(legal, "moves.0.notation"));
    json_decref(legal);
    ck_assert_int_eq(mail_in(&f, reply), 0);
    snprintf(path, sizeof path, "/v1/games/%s/events?after=%d", id, seq);
    v = e2e_get_ok(f.c, path, NULL, 200);
    ck_assert_msg(e2e_jint(v, "entries.0.seq") == seq + 1 && e2e_jint(v, "entries.0.seat") == 1,
                  "the reply did not move: %s", json_dumps(v, JSON_COMPACT));
    json_decref(v);
    ck_assert_int_ge(e2e_verify_ok(f.c, f.d, id), seq + 1);
    fx_down(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("upgrade");
    TCase *tc = e2e_tcase("from-028", 240);
    tcase_add_test(tc, migrates_once_with_hashes);
    tcase_add_test(tc, games_answer_as_before);
    tcase_add_test(tc, middle_game_retries_and_plays_to_end);
    tcase_add_test(tc, chat_mutes_webhooks_and_keys_hold);
    tcase_add_test(tc, bot_game_plays_on);
    tcase_add_test(tc, waiting_game_fills_starts_and_plays);
    tcase_add_test(tc, waiting_game_starts_by_its_creator);
    tcase_add_test(tc, waiting_seat_leaves_and_is_removed);
    tcase_add_test(tc, finished_game_renders);
    tcase_add_test(tc, clock_worker_keeps_up_old_rows);
    tcase_add_test(tc, mail_seat_plays_by_reply);
    suite_add_tcase(s, tc);
    return e2e_run(s);
}
