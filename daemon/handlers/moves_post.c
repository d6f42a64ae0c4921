/*
 * moves_post.c — POST /v1/games/{id}/moves: one move per request, in one transaction: lock the game row,
 * replay a repeated Idempotency-Key, check the expected seq and the seat, apply the move in the engine,
 * append it to the log, store the new snapshot, notify listeners, commit; only then answer. A move
 * answered 200 is durable; a refused one changes nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../games.h"
#include "../handlers.h"
#include "../metrics.h"
#include "../state_cache.h"
#include "../outbox.h"
#include "../store.h"

#define MAX_IDEM_KEY 200

typedef struct {
    const char *id;
    int seat;
    long expected;        /* -1: none given */
    const char *idem;     /* NULL: none */
    json_t *move;         /* borrowed from the body */
    /* out */
    int status;           /* 200 or the problem to answer */
    cd_problem problem;
    char field[64];
    char detail[300];
    json_t *answer;       /* owned */
    bool replayed;        /* the answer is a repeated key's first answer */
    carc_state *after;    /* owned: the state after the move, for the cache once committed */
    int after_seq;
} move_tx;

static cd_tx_result refuse(move_tx *t, cd_problem p, const char *field, const char *detail)
{
    t->problem = p;
    t->status = cd_problems[p].status;
    snprintf(t->field, sizeof t->field, "%s", field ? field : "");
    snprintf(t->detail, sizeof t->detail, "%s", detail);
    return CD_TX_ROLLBACK;
}

/* A stored answer for this seat's key: the first answer again. */
static bool replay_idempotent(cd_db *db, move_tx *t, cd_tx_result *out)
{
    char seat[16];
    snprintf(seat, sizeof seat, "%d", t->seat);
    const char *p[] = {t->id, seat, t->idem};
    PGresult *res = cd_db_exec(db, ST_MOVE_BY_IDEM, 3, p);
    if (!cd_db_ok(res)) {
        PQclear(res);
        *out = CD_TX_ERROR;
        return true;
    }
    if (PQntuples(res) == 0) {
        PQclear(res);
        return false;
    }
    t->answer = json_loads(PQgetvalue(res, 0, 0), 0, NULL);
    PQclear(res);
    t->status = 200;
    t->replayed = true;
    *out = t->answer ? CD_TX_ROLLBACK : CD_TX_ERROR;   /* nothing to write: roll back the lock */
    return true;
}

static cd_tx_result store_move(cd_db *db, move_tx *t, const carc_state *st, json_t *events_admin)
{
    char seq[16], seat[16], pending[16];
    snprintf(seq, sizeof seq, "%d", t->answer ? (int)json_integer_value(json_object_get(t->answer, "seq")) : 0);
    snprintf(seat, sizeof seat, "%d", t->seat);
    snprintf(pending, sizeof pending, "%d", st->pending.seat);
    bool over = st->status == CARC_FINISHED;
    json_t *snap = cd_snapshot_for_store(st);
    char *move = json_dumps(t->move, JSON_COMPACT), *events = json_dumps(events_admin, JSON_COMPACT);
    char *answer = json_dumps(t->answer, JSON_COMPACT), *snapshot = json_dumps(snap, JSON_COMPACT);
    json_decref(snap);
    cd_tx_result out = CD_TX_ERROR;
    const char *p1[] = {t->id, seq, seat, move, events, t->idem, answer};
    PGresult *res = cd_db_exec(db, ST_MOVE_INSERT, 7, p1);
    if (!cd_db_ok(res))
        goto done;
    PQclear(res);
    const char *p2[] = {t->id, seq, snapshot, over ? "finished" : "active", over ? NULL : pending};
    res = cd_db_exec(db, ST_GAME_UPDATE, 5, p2);
    if (!cd_db_ok(res))
        goto done;
    PQclear(res);
    char payload[64];
    snprintf(payload, sizeof payload, "%s:%s", t->id, seq);
    const char *p3[] = {payload};
    res = cd_db_exec(db, ST_NOTIFY_MOVE, 1, p3);
    if (cd_db_ok(res))
        out = CD_TX_COMMIT;
done:
    PQclear(res);
    free(move);
    free(events);
    free(answer);
    free(snapshot);
    return out;
}

static cd_tx_result run_move(cd_db *db, void *arg)
{
    move_tx *t = arg;
    json_decref(t->answer);   /* a retried attempt starts from scratch */
    t->answer = NULL;
    free(t->after);
    t->after = NULL;
    t->status = 0;
    t->replayed = false;
    cd_game g;
    cd_load_result lr = cd_game_lock(db, t->id, &g);
    cd_tx_result out;
    if (lr != CD_LOAD_OK) {
        cd_game_free(&g);
        if (lr == CD_LOAD_NOT_FOUND)
            return refuse(t, CD_P_NOT_FOUND, NULL, "no game with that id");
        return CD_TX_ERROR;
    }
    if (t->idem && replay_idempotent(db, t, &out)) {
        cd_game_free(&g);
        return out;
    }
    char msg[256];
    if (g.finished) {
        out = refuse(t, CD_P_GAME_OVER, NULL, "the game is over");
    } else if (t->expected != g.seq) {
        snprintf(msg, sizeof msg, "expected_seq is %ld but the game is at seq %d", t->expected, g.seq);
        out = refuse(t, CD_P_STALE_SEQ, "expected_seq", msg);
    } else if (t->seat != g.st->pending.seat) {
        snprintf(msg, sizeof msg, "the game waits for seat %d", g.st->pending.seat);
        out = refuse(t, CD_P_NOT_YOUR_TURN, NULL, msg);
    } else {
        carc_move m;
        char err[200];
        int rc = carc_move_from_json(g.st, t->move, &m, err, sizeof err);
        carc_events ev = {0};
        if (rc == CARC_OK)
            rc = carc_apply(g.st, t->seat, &m, &ev, err, sizeof err);
        if (rc == CARC_E_INVALID) {
            snprintf(msg, sizeof msg, "move.%s", err);
            out = refuse(t, CD_P_INVALID, "move", msg);
        } else if (rc != CARC_OK) {
            out = refuse(t, CD_P_ILLEGAL_MOVE, "move", err);
        } else {
            t->answer = json_pack("{s:i, s:o}", "seq", g.seq + 1, "events",
                                  carc_events_to_json(g.st, &ev, t->seat));
            json_t *events_admin = carc_events_to_json(g.st, &ev, CARC_VIEW_ADMIN);
            out = store_move(db, t, g.st, events_admin);
            if (out == CD_TX_COMMIT)   /* webhooks: their outbox rows commit with the move (outbox.h) */
                out = cd_outbox_enqueue_move(db, &g, g.seq + 1, t->seat, events_admin);
            json_decref(events_admin);
            t->status = out == CD_TX_COMMIT ? 200 : 0;
            if (out == CD_TX_COMMIT) {   /* keep the state: it is cached once the commit succeeds */
                free(t->after);
                t->after = g.st;
                t->after_seq = g.seq + 1;
                g.st = NULL;
            }
        }
        carc_events_free(&ev);
    }
    cd_game_free(&g);
    return out;
}

/* expected_seq from the body, or from If-Match ("7" or "\"7\""); -1 with a reply when neither is usable. */
static long expected_seq(cd_req *r, json_t *body)
{
    json_t *e = json_object_get(body, "expected_seq");
    if (e) {
        if (!json_is_integer(e) || json_integer_value(e) < 0 || json_integer_value(e) > INT32_MAX) {
            cd_reply_problem(r, CD_P_INVALID, "expected_seq", "expected_seq: expected a non-negative integer");
            return -1;
        }
        return (long)json_integer_value(e);
    }
    const char *h = cd_req_header(r, "If-Match");
    if (h) {
        char *end;
        long v = strtol(h + (h[0] == '"'), &end, 10);
        if (end != h + (h[0] == '"') && v >= 0 && (*end == 0 || (*end == '"' && end[1] == 0)))
            return v;
        cd_reply_problem(r, CD_P_INVALID, "If-Match", "If-Match: expected the game's seq as an ETag");
        return -1;
    }
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

static bool body_keys_ok(cd_req *r, json_t *body)
{
    const char *key;
    json_t *v;
    json_object_foreach(body, key, v) {
        if (strcmp(key, "expected_seq") != 0 && strcmp(key, "move") != 0) {
            cd_reply_problem(r, CD_P_INVALID, key, "unknown field %s", key);
            return false;
        }
    }
    if (!json_is_object(json_object_get(body, "move"))) {
        cd_reply_problem(r, CD_P_INVALID, "move", "move: expected an object");
        return false;
    }
    return true;
}

enum MHD_Result h_moves_post(cd_req *r)
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
    cd_db *db = cd_req_db(r);
    if (!db)
        goto out;
    int viewer;
    if (!cd_viewer_of(r, db, id, &viewer))
        goto out;
    if (viewer < 0) {
        ret = viewer == CARC_VIEW_ADMIN
                  ? cd_reply_problem(r, CD_P_FORBIDDEN, "Authorization", "moves are made with a seat token")
                  : cd_reply_problem(r, CD_P_UNAUTHENTICATED, "Authorization", "moves need a seat token");
        goto out;
    }
    t.seat = viewer;
    bool down = false;
    cd_tx_result tr = cd_db_tx(db, run_move, &t, &down);
    /* 200 only for a committed move or a replayed answer: a failed COMMIT is no move */
    if (t.status == 200 && t.answer && (tr == CD_TX_COMMIT || (t.replayed && tr == CD_TX_ROLLBACK))) {
        if (!t.replayed) {
            cd_metrics_move_applied();
            if (t.after)
                cd_cache_put(id, t.after_seq, t.after);
        }
        ret = cd_reply_json(r, 200, t.answer, NULL);
        t.answer = NULL;
    } else if (t.status != 0 && t.status != 200) {
        ret = cd_reply_problem(r, t.problem, t.field[0] ? t.field : NULL, "%s", t.detail);
    } else {
        ret = cd_reply_problem(r, down ? CD_P_UNAVAILABLE : CD_P_INTERNAL, NULL,
                               down ? "the database cannot be reached" : "the move could not be stored");
    }
out:
    free(t.after);
    json_decref(t.answer);
    json_decref(body);
    return ret;
}
