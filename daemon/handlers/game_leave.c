/*
 * game_leave.c — POST /v1/games/{id}/leave with a seat's token (or its player key): the seat, taken by a join,
 * is given up before the game starts (game/lobby_leave.h). The seats taken after it move down by one; their
 * tokens stay theirs. The answer is the game's lobby view without the seat. A game under way is left by
 * resigning (409 not-waiting says so), and a seat named at the game's creation cannot leave (409 named-seat):
 * its creator cancels the game instead.
 */
#include <string.h>

#include "game/lobby_cancel.h"
#include "game/lobby_leave.h"
#include "handlers.h"
#include "handlers/lobby.h"

typedef struct {
    const char *id;
    const char *token_hash;
    cd_refusal no;   /* out */
} leave_tx;

static cd_tx_result leave_locked(cd_db *db, leave_tx *t, const cd_waiting_lock_row *w)
{
    if (!w->found)
        return cd_refuse(&t->no, CD_P_NOT_FOUND, NULL, "no game with that id");
    /* read under the lock: an earlier leave may have moved this seat down */
    cd_token_seat tok;
    if (cd_token_lookup(db, t->token_hash, t->id, &tok) != CD_Q_OK)
        return CD_TX_ERROR;
    if (!tok.found)   /* nobody's, or its seat left already (in a request that raced this one, say) */
        return cd_refusal_no_seat(db, t->id, t->token_hash, &t->no) == CD_Q_OK ? CD_TX_ROLLBACK : CD_TX_ERROR;
    if (!tok.same_game)
        return cd_refuse(&t->no, CD_P_FORBIDDEN, "Authorization", "the bearer token is a seat of another game");
    if (strcmp(w->status, "waiting") != 0) {
        if (strcmp(w->status, "cancelled") == 0) {
            char why[100];
            cd_lobby_not_waiting_words(w, why, sizeof why);
            return cd_refuse(&t->no, CD_P_NOT_WAITING, NULL, why);
        }
        return cd_refuse(&t->no, CD_P_NOT_WAITING, NULL,
                         "the game has started: a seat leaves a game under way by resigning "
                         "(POST /v1/games/{id}/resign)");
    }
    cd_invite inv[CD_LOBBY_MAX_SEATS];   /* a seat a join took has a place; a named one has none */
    int ninv = 0;
    if (cd_invites_get(db, t->id, inv, &ninv) != CD_Q_OK)
        return CD_TX_ERROR;
    bool joined = false;
    for (int i = 0; i < ninv; i++)
        joined = joined || inv[i].seat == tok.seat;
    if (!joined)
        return cd_refuse(&t->no, CD_P_NAMED_SEAT, NULL,
                         "this seat was named when the game was created, not taken by a join: only the game's "
                         "creator can change who plays (by cancelling it)");
    return cd_lobby_leave(db, t->id, w, tok.seat, false, NULL);
}

static cd_tx_result run_leave(cd_db *db, void *arg)
{
    leave_tx *t = arg;
    cd_refusal_clear(&t->no);
    cd_waiting_lock_row w;
    if (cd_waiting_lock(db, t->id, &w) != CD_Q_OK)
        return CD_TX_ERROR;
    cd_tx_result out = leave_locked(db, t, &w);
    cd_waiting_lock_row_free(&w);
    return out;
}

enum MHD_Result h_game_leave(cd_req *r)
{
    if (!cd_req_body_empty(r))
        return MHD_YES;
    /* a leave costs what a join does (http/limits.h): a join and a leave by one code, again and again, each mail
     * the other seats (mail/waiting.c caps those too) */
    if (!cd_rate_check(r, CD_RATE_JOIN, NULL))
        return MHD_YES;
    leave_tx t = {.id = r->params[0]};
    if (!cd_uuid_valid(t.id))
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
    r->game_id = t.id;
    if (!r->bearer)
        return cd_reply_problem(r, CD_P_UNAUTHENTICATED, "Authorization", "leaving needs the seat's token");
    if (r->is_admin)
        return cd_reply_problem(r, CD_P_FORBIDDEN, "Authorization",
                                "a seat leaves with its own token or its player key, not the admin token");
    cd_db *db = cd_req_db(r);
    if (!db)
        return MHD_YES;
    char hash[CD_HEX256_LEN];
    if (!cd_req_seat_hash(r, db, t.id, hash))
        return MHD_YES;
    t.token_hash = hash;
    bool down = false;
    cd_tx_result tr = cd_db_tx(db, run_leave, &t, &down);
    if (tr == CD_TX_COMMIT)
        return cd_lobby_reply_view(r, db, t.id, NULL);
    return cd_reply_refusal_or_failure(r, &t.no, down, "the seat could not leave");
}
