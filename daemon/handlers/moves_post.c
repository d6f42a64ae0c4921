/*
 * moves_post.c — POST /v1/games/{id}/moves: one move per request, in one transaction: check the token and
 * lock the game row, replay a repeated Idempotency-Key (the first answer for the same request, 422 for another
 * request under the same key), check the expected seq and the seat, apply the move in
 * the engine, then cd_move_commit (the clock, the log, the snapshot, the NOTIFY, the webhook outbox) and commit;
 * only then answer. A move answered 200 is durable; a refused one changes nothing. A repeated key's answer is
 * derived from the log by replay (game/move_log.h: the answers are not stored), byte for byte the first one,
 * for CARCD_IDEMPOTENCY_TTL; after it the key is forgotten and the request is new (a stale seq, then).
 *
 * One round trip when this process holds the game's state at the expected seq (game/state_cache.h), knows the game
 * unclocked and without webhook endpoints, and knows the token as the pending seat's (its creation, a read or a move
 * under it showed so: the engine never tries a move for a token before that): the move is parsed, applied and its
 * writes rendered from that state before anything is read, and BEGIN, the row lock, a guard, the writes and COMMIT go
 * out in one pipeline (db/game_reads.h: cd_move_guard_deferred). The guard has PostgreSQL check under the lock what
 * the cache assumed (the seq, the token's seat, no webhook endpoint, no linked seat, the key unused); when it does not
 * hold (another carcd moved the game, an endpoint was added, the token is not the pending seat's, a repeated key) the
 * writes queued behind it are skipped and the move runs again the long way below. A move the engine refuses takes the
 * long way at once (the token is checked before a refusal is said). With play by e-mail on, the turn mail reads the
 * seats' addresses in the pipeline (mail/outbox.c), which makes the short way two round trips, the guard's answer
 * coming back with that read.
 * The long way is two round trips (db.c's pipeline): BEGIN + cd_move_lock (the token's seat and the game row,
 * locked; then the game's webhook endpoints and the key's stored answer, read after the lock is held); then the
 * deferred writes + COMMIT.
 *
 * When the mover also owes the next decision, the answer carries its legal moves (`legal_moves`, as GET
 * legal-moves would answer at the new seq): a client moving twice in a turn needs one GET, not two.
 *
 * The body names the move either as JSON (`move`, what a legal-moves answer lists, its self-description
 * members included) or as text (`notation`, engine/notation.h), never both. A notation that is no notation
 * is 400 and one that is no legal move now 422, both carrying `legal`: the notations of the decision. The
 * log stores the move as the engine encodes it, with its self-description, whichever way it came.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/games.h"
#include "handlers.h"
#include "base/crypto.h"
#include "base/json_out.h"
#include "base/metrics.h"
#include "game/move_commit.h"
#include "game/move_log.h"
#include "game/notations.h"
#include "game/state_cache.h"
#include "db/game_reads.h"
#include "base/timesrc.h"
#include "notation.h"

#define MAX_IDEM_KEY 200

typedef struct {
    const char *id;
    char token_hash[CD_HEX256_LEN];
    int seat;             /* the token's, once the lock has read it */
    long expected;        /* -1: none given */
    const char *idem;     /* NULL: none */
    char request_sha256[CD_HEX256_LEN];   /* of the canonical request, stored with the key (request_hash) */
    json_t *move;         /* borrowed from the body, or NULL when the move comes as a notation */
    const char *notation; /* borrowed from the body, or NULL */
    size_t notation_len;
    /* out */
    int status;           /* 200 or the problem to answer */
    cd_problem problem;
    char field[64];
    char detail[300];
    json_t *answer;       /* owned: a replayed answer */
    char *answer_text;    /* owned: a committed move's answer, as text (cd_move_answer_text) */
    json_t *legal;        /* owned: the decision's notations, for a refused notation's problem */
    int game_seq;         /* the game's seq, for a stale-seq problem (its "seq" member) */
    bool replayed;        /* the answer is a repeated key's first answer */
    carc_state *after;    /* owned: the state after the move, for the cache once committed */
    int after_seq;
    cd_cache_aux aux;     /* what the move read of the game besides, for the cache with `after` */
    bool one_trip_tried;  /* the one-round-trip attempt was made (at most once a request) */
    bool one_trip;        /* the last attempt was it */
} move_tx;

static cd_tx_result refuse(move_tx *t, cd_problem p, const char *field, const char *detail)
{
    t->problem = p;
    t->status = cd_problems[p].status;
    snprintf(t->field, sizeof t->field, "%s", field ? field : "");
    snprintf(t->detail, sizeof t->detail, "%s", detail);
    return CD_TX_ROLLBACK;
}

/* The field a refusal of the posted move names: "notation", or the member of "move" the engine's message starts
 * with ("x: expected an integer ..." names move.x), so that a bot need not parse the detail; else "move" (also
 * for the engine's "move: not a legal move now"). */
static void refused_field(bool notation, const char *err, char *field, size_t n)
{
    size_t k = strspn(err, "abcdefghijklmnopqrstuvwxyz_.");
    if (notation)
        snprintf(field, n, "notation");
    else if (k > 0 && err[k] == ':' && strncmp(err, "move:", 5) != 0 && k + sizeof "move." <= n)
        snprintf(field, n, "move.%.*s", (int)k, err);
    else
        snprintf(field, n, "move");
}

/* The posted move (its notation or its JSON) decoded against st, described as the log keeps it (*stored,
 * encoded before it is applied) and applied by seat: CARC_OK, or the engine's refusal with err. *stored and
 * *ev are the caller's to free either way. */
static int apply_posted(const move_tx *t, carc_state *st, int seat, json_t **stored, carc_events *ev, char *err,
                        size_t errlen)
{
    carc_move m;
    int rc = t->notation ? carc_notation_parse(st, t->notation, t->notation_len, &m, err, errlen)
                         : carc_move_from_json(st, t->move, &m, err, errlen);
    if (rc == CARC_OK && !(*stored = carc_move_to_json_described(st, &m)))
        rc = CARC_E_INVALID;
    if (rc == CARC_OK)
        rc = carc_apply(st, seat, &m, ev, err, errlen);
    return rc;
}

/* The applied move committed inside the transaction (cd_move_commit); the state after it kept for the cache. */
static cd_tx_result commit_applied(cd_db *db, move_tx *t, cd_game *g, json_t *stored, const carc_events *ev)
{
    const cd_move_commit_args a = {.seat = t->seat, .move = stored, .ev = ev, .origin = "seat",
                                   .now = g->clocked ? cd_wall_now() : 0, .idem = t->idem,
                                   .request_sha256 = t->request_sha256, .legal_moves = true,
                                   .answer_text = &t->answer_text};
    cd_tx_result out = cd_move_commit(db, g, &a, &t->answer);
    t->status = out == CD_TX_COMMIT ? 200 : 0;
    if (out == CD_TX_COMMIT) {   /* keep the state: it is cached once the commit succeeds */
        t->after = g->st;
        t->after_seq = g->seq;
        g->st = NULL;
        t->aux = (cd_cache_aux){.known = true, .unclocked = !g->clocked,
                                .no_hooks = g->hooks_known && g->hooks == 0,
                                .no_linked = g->linked_known && g->linked == 0};
        memcpy(t->aux.seat_token[t->seat], t->token_hash, CD_HEX256_LEN);   /* the commit showed it the seat's */
    }
    return out;
}

/* The move in one round trip (the file's header): from *held, the state held at the expected seq, applied by
 * the pending seat, its writes queued behind the row lock and the guard. false when it cannot go so (nothing
 * held, a clock or webhooks, another seq, a token not known to be the pending seat's, a move the engine
 * refuses): nothing was sent, *held is a copy of the cache's again (untouched, or taken anew after the engine
 * refused on it), and the caller takes the long way. true: *out is the transaction's result, *held consumed. */
static bool run_move_one_trip(cd_db *db, move_tx *t, cd_held *held, cd_tx_result *out)
{
    if (!held->st || !held->aux.known || !held->aux.unclocked || !held->aux.no_hooks || held->seq != t->expected ||
        held->st->status != CARC_ACTIVE)
        return false;
    /* before any engine work: whether the move is legal must reach nobody but the pending seat (state_cache.h) */
    const char *pending_token = held->aux.seat_token[held->st->pending.seat];
    if (!pending_token[0] || !cd_secret_equal(pending_token, t->token_hash, CD_HEX256_LEN))
        return false;
    cd_game g;
    cd_game_from_held(&g, t->id, held);
    int seat = g.st->pending.seat;
    char err[280];
    carc_events ev = {0};
    json_t *stored = NULL;
    if (apply_posted(t, g.st, seat, &stored, &ev, err, sizeof err) != CARC_OK) {   /* refused: said the long way, once the token is known to be a seat's */
        json_decref(stored);
        carc_events_free(&ev);
        cd_game_free(&g);
        *held = cd_held_take(t->id);   /* the engine may have worked on the copy: the long way takes a new one */
        return false;
    }
    t->seat = seat;
    t->one_trip = true;
    *out = cd_move_guard_deferred(db, t->id, t->token_hash, g.seq, seat, t->idem, g.linked_known)
               ? commit_applied(db, t, &g, stored, &ev)
               : CD_TX_ERROR;
    json_decref(stored);
    carc_events_free(&ev);
    cd_game_free(&g);
    return true;
}

static cd_tx_result run_move(cd_db *db, void *arg)
{
    move_tx *t = arg;
    json_decref(t->answer);   /* a retried attempt starts from scratch */
    t->answer = NULL;
    free(t->answer_text);
    t->answer_text = NULL;
    json_decref(t->legal);
    t->legal = NULL;
    free(t->after);
    t->after = NULL;
    t->status = 0;
    t->replayed = false;
    if (t->one_trip) {   /* the attempt in one round trip did not commit: its guard was refused, or it failed */
        cd_metrics_move_one_round_trip(false);
        cd_cache_seat_token(t->id, t->seat, NULL);   /* perhaps renewed elsewhere: known again once it commits */
    }
    t->one_trip = false;
    cd_held held = cd_held_take(t->id);   /* one copy an attempt, whichever way it goes */
    if (!t->one_trip_tried) {
        t->one_trip_tried = true;
        cd_tx_result out;
        if (run_move_one_trip(db, t, &held, &out))
            return out;
    }
    cd_move_lock_read lock;
    if (cd_move_lock(db, t->id, t->token_hash, held.seq_text, t->idem, &lock) != CD_Q_OK) {
        free(held.st);
        return CD_TX_ERROR;
    }
    cd_tx_result out;
    if (!lock.token.found) {   /* nobody's, or a seat given up before the start (seat-removed, seat-given-up) */
        cd_refusal no;
        cd_refusal_clear(&no);
        out = cd_refusal_no_seat(db, t->id, t->token_hash, &no) == CD_Q_OK ? refuse(t, no.problem, no.field, no.detail)
                                                                            : CD_TX_ERROR;
    } else if (!lock.token.same_game) {
        out = refuse(t, CD_P_FORBIDDEN, "Authorization", "the bearer token is a seat of another game");
    } else if (lock.token_gone) {   /* read behind the lock: a renewal (or a leave) committed while this waited */
        out = refuse(t, CD_P_UNAUTHENTICATED, "Authorization", "the bearer token was replaced while the move waited");
    } else if (lock.bot_seat) {   /* left to a bot (bot_after_leave), or made for one: the bot moves, not the token */
        out = refuse(t, CD_P_SEAT_LEFT, "Authorization",
                     "a bot plays this seat (its player left it to the bot, or it was made for one): its token "
                     "and player key only read");
    } else {
        t->seat = lock.token.seat;
        out = CD_TX_COMMIT;
    }
    if (out != CD_TX_COMMIT) {
        free(held.st);
        cd_move_lock_read_free(&lock);
        return out;
    }
    cd_game g;
    cd_load_result lr = cd_game_lock_row(&g, t->id, &lock.game, &held);
    g.hooks_known = true;
    g.hooks = lock.hooks;
    g.linked_known = true;
    g.linked = lock.linked;
    /* this seat's key made a move: its answer was stored (rows before 010_compact_log) or is derived from the
     * log (move_log.h), until the key expires (CARCD_IDEMPOTENCY_TTL; then it is a new request) */
    bool replay = t->idem && (lock.stored_answer || lock.key_seq >= 0);
    int key_seq = lock.key_seq;
    /* the key's answer is for the request it came with; a row stored before the hash was kept has none */
    bool same_request = !replay || !lock.stored_request_sha256 ||
                        strcmp(lock.stored_request_sha256, t->request_sha256) == 0;
    if (lr == CD_LOAD_OK && replay && same_request) {   /* the first answer again */
        if (lock.stored_answer)
            t->answer = json_loads(lock.stored_answer, 0, NULL);
        else if (cd_log_answer(db, t->id, key_seq, t->seat, &t->answer) != CD_LOAD_OK)
            t->answer = NULL;   /* logged; a 500 below */
        t->status = 200;
        t->replayed = true;
    }
    cd_move_lock_read_free(&lock);
    if (lr != CD_LOAD_OK) {
        cd_game_free(&g);
        if (lr == CD_LOAD_NOT_FOUND)
            return refuse(t, CD_P_NOT_FOUND, NULL, "no game with that id");
        if (lr == CD_LOAD_WAITING)
            return refuse(t, CD_P_NOT_STARTED, NULL,
                          "the game has not started: it waits for its open seats, and takes no moves until then");
        return CD_TX_ERROR;
    }
    if (!same_request) {
        cd_game_free(&g);
        return refuse(t, CD_P_IDEMPOTENCY_REUSED, "Idempotency-Key",
                      "this Idempotency-Key was used with another request (another move or expected seq): use a new key");
    }
    if (replay) {
        cd_game_free(&g);
        return t->answer ? CD_TX_ROLLBACK : CD_TX_ERROR;   /* nothing to write: roll back the lock */
    }
    char msg[300];
    if (g.cancelled) {
        out = refuse(t, CD_P_GAME_CANCELLED, NULL, "the game was cancelled by the admin");
    } else if (g.finished) {
        out = refuse(t, CD_P_GAME_OVER, NULL, "the game is over");
    } else if (t->expected != g.seq) {
        snprintf(msg, sizeof msg, "expected_seq is %ld but the game is at seq %d", t->expected, g.seq);
        t->game_seq = g.seq;
        out = refuse(t, CD_P_STALE_SEQ, "expected_seq", msg);
    } else if (t->seat != g.st->pending.seat) {
        snprintf(msg, sizeof msg, "the game waits for seat %d", g.st->pending.seat);
        out = refuse(t, CD_P_NOT_YOUR_TURN, NULL, msg);
    } else {
        char err[280];
        carc_events ev = {0};
        json_t *stored = NULL;
        int rc = apply_posted(t, g.st, t->seat, &stored, &ev, err, sizeof err);
        if (rc != CARC_OK && t->notation)
            t->legal = cd_legal_notations(g.st, t->seat);
        char field[48];
        refused_field(t->notation != NULL, err, field, sizeof field);
        if (rc == CARC_E_INVALID) {
            snprintf(msg, sizeof msg, "%s%s", t->notation ? "" : "move.", err);
            out = refuse(t, CD_P_INVALID, field, msg);
        } else if (rc != CARC_OK) {
            out = refuse(t, CD_P_ILLEGAL_MOVE, field, err);
        } else {
            out = commit_applied(db, t, &g, stored, &ev);
        }
        json_decref(stored);
        carc_events_free(&ev);
    }
    cd_game_free(&g);
    return out;
}

/* The seq an If-Match names ("7" or "\"7\"", or a clocked game's view tag "\"7.3\"": its seq counts, the clock's
 * version does not); -1 with a reply when it is no such tag. */
static long if_match_seq(cd_req *r, const char *h)
{
    char *end;
    bool quoted = h[0] == '"';
    long v = strtol(h + quoted, &end, 10);
    bool ok = end != h + quoted && v >= 0 && v <= INT32_MAX;
    if (ok && *end == '.') {   /* the clock's version: digits */
        const char *d = end + 1;
        while (*d >= '0' && *d <= '9')
            d++;
        ok = d > end + 1;
        end = (char *)d;
    }
    if (ok && (quoted ? *end == '"' && end[1] == 0 : *end == 0))
        return v;
    cd_reply_problem(r, CD_P_INVALID, "If-Match", "If-Match: expected the game's seq as an ETag");
    return -1;
}

/* expected_seq from the body, or from If-Match; both may be given only when they name the same seq (a client
 * whose two disagree would have one of its preconditions ignored); -1 with a reply when neither is usable. */
static long expected_seq(cd_req *r, json_t *body)
{
    json_t *e = json_object_get(body, "expected_seq");
    const char *h = cd_req_header(r, "If-Match");
    long from_header = h ? if_match_seq(r, h) : -1;
    if (h && from_header < 0)
        return -1;
    if (e) {
        if (!json_is_integer(e) || json_integer_value(e) < 0 || json_integer_value(e) > INT32_MAX) {
            cd_reply_problem(r, CD_P_INVALID, "expected_seq", "expected_seq: expected a non-negative integer");
            return -1;
        }
        long v = (long)json_integer_value(e);
        if (h && from_header != v) {
            cd_reply_problem(r, CD_P_INVALID, "If-Match",
                             "If-Match names seq %ld, expected_seq %ld: give one of them, or both the same",
                             from_header, v);
            return -1;
        }
        return v;
    }
    if (h)
        return from_header;
    cd_reply_problem(r, CD_P_PRECONDITION, "expected_seq", "give expected_seq in the body or If-Match");
    return -1;
}

static bool idem_key_ok(const char *k)
{
    size_t n = strlen(k);
    if (n == 0 || n > MAX_IDEM_KEY)
        return false;
    for (size_t i = 0; i < n; i++)
        if (k[i] < 0x21 || k[i] > 0x7e)
            return false;
    return true;
}

/* The key's request as a hash: its expected seq (from the body or If-Match) and its move (the object, or the
 * notation text), as compact JSON with sorted keys, so a retry that spells the same request in another order
 * or spacing is the same request. */
static void request_hash(long expected, const json_t *move, const json_t *notation, char out[CD_HEX256_LEN])
{
    json_t *canon = json_pack("{s:I}", "expected_seq", (json_int_t)expected);
    if (move)
        json_object_set(canon, "move", (json_t *)move);
    if (notation)
        json_object_set(canon, "notation", (json_t *)notation);
    char *text = cd_json_dumps(canon, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(canon);
    if (!text)
        abort();   /* out of memory (docs/STYLE.md) */
    cd_sha256_hex(text, out);
    free(text);
}

static bool body_keys_ok(cd_req *r, json_t *body)
{
    static const char *const keys[] = {"expected_seq", "move", "notation", NULL};
    if (json_object_get(body, "type") && !json_object_get(body, "move") && !json_object_get(body, "notation")) {
        /* a legal move posted as the whole body: say where it goes rather than "unknown field type" */
        cd_reply_problem(r, CD_P_INVALID, "type",
                         "the body is {\"move\": <a move of legal-moves>, \"expected_seq\": N} or "
                         "{\"notation\": \"E 0,-1 r2\", \"expected_seq\": N}; this one looks like a bare move");
        return false;
    }
    if (!cd_req_only_keys(r, body, keys, ""))
        return false;
    json_t *move = json_object_get(body, "move"), *notation = json_object_get(body, "notation");
    if (move && notation) {
        cd_reply_problem(r, CD_P_INVALID, "notation", "give the move as \"move\" or as \"notation\", not both");
        return false;
    }
    if (notation) {
        if (!json_is_string(notation)) {
            cd_reply_problem(r, CD_P_INVALID, "notation", "notation: expected a string like \"E 0,-1 r2\"");
            return false;
        }
        return true;
    }
    if (!json_is_object(move)) {
        cd_reply_problem(r, CD_P_INVALID, "move", "move: expected an object (or give \"notation\")");
        return false;
    }
    return true;
}

static enum MHD_Result moves_post(cd_req *r)
{
    const char *id = r->params[0];
    if (!cd_uuid_valid(id))
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
    r->game_id = id;
    json_t *body = cd_req_json_body(r);
    if (!body)
        return MHD_YES;
    move_tx t = {.id = id, .idem = cd_req_header(r, "Idempotency-Key")};
    enum MHD_Result ret = MHD_YES;
    if (!body_keys_ok(r, body))
        goto out;
    if (t.idem && !idem_key_ok(t.idem)) {
        ret = cd_reply_problem(r, CD_P_INVALID, "Idempotency-Key", "Idempotency-Key: 1 to %d visible ASCII characters",
                               MAX_IDEM_KEY);
        goto out;
    }
    t.expected = expected_seq(r, body);
    if (t.expected < 0)
        goto out;
    t.move = json_object_get(body, "move");
    json_t *notation = json_object_get(body, "notation");
    if (notation) {
        t.notation = json_string_value(notation);
        t.notation_len = json_string_length(notation);
    }
    if (t.idem)
        request_hash(t.expected, t.move, notation, t.request_sha256);
    cd_db *db = cd_req_db(r);
    if (!db)
        goto out;
    if (r->is_admin || !r->bearer) {
        ret = r->is_admin ? cd_reply_problem(r, CD_P_FORBIDDEN, "Authorization", "moves are made with a seat token")
                          : cd_reply_problem(r, CD_P_UNAUTHENTICATED, "Authorization", "moves need a seat token");
        goto out;
    }
    if (!cd_rate_check(r, CD_RATE_MOVE, r->bearer))   /* per address and per token or key (http/limits.h) */
        goto out;
    /* the seat token (a player key's seat's) is checked under the lock (cd_move_lock) */
    if (!cd_req_seat_hash(r, db, id, t.token_hash))
        goto out;
    bool down = false;
    cd_tx_result tr = cd_db_tx(db, run_move, &t, &down);
    /* 200 only for a committed move or a replayed answer: a failed COMMIT is no move */
    if (t.status == 200 && (t.replayed ? t.answer && (tr == CD_TX_COMMIT || tr == CD_TX_ROLLBACK)
                                        : t.answer_text && tr == CD_TX_COMMIT)) {
        if (!t.replayed) {
            cd_metrics_move_applied();
            if (t.one_trip)
                cd_metrics_move_one_round_trip(true);
            if (t.after)
                cd_cache_give(id, t.after_seq, &t.after, &t.aux);   /* t.after: the state it replaced, freed below */
            ret = cd_reply_json_text(r, 200, t.answer_text, NULL);   /* written once: the answer is not stored */
            t.answer_text = NULL;
        } else {
            ret = cd_reply_json(r, 200, t.answer, NULL);   /* derived from the log (move_log.h) */
            t.answer = NULL;
        }
    } else if (t.status != 0 && t.status != 200) {
        json_t *ext = NULL;   /* what a bot needs next without reading the detail */
        if (t.legal)
            ext = json_pack("{s:O}", "legal", t.legal);
        else if (t.problem == CD_P_STALE_SEQ)
            ext = json_pack("{s:i}", "seq", t.game_seq);
        ret = cd_reply_problem_ext(r, t.problem, t.field[0] ? t.field : NULL, ext, "%s", t.detail);
    } else {
        ret = cd_reply_db_failure(r, down, "the move could not be stored");
    }
out:
    free(t.after);
    json_decref(t.answer);
    free(t.answer_text);
    json_decref(t.legal);
    json_decref(body);
    return ret;
}

/* The move is parsed, applied, stored and answered: the JSON of it all lives in this request's arena (json_arena.h) */
enum MHD_Result h_moves_post(cd_req *r)
{
    return cd_in_json_arena(r, moves_post);
}
