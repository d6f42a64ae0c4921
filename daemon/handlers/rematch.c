/*
 * rematch.c — POST /v1/games/{id}/rematch and POST /v1/games/{id}/rematch/accept, both with a seat's token
 * (or the player key linked to it) of a finished game.
 *
 * The offer creates a new waiting game (lobby.h) with the finished game's settings (expansions, options,
 * the turn clock's settings) and one place per seat of it, each for that seat only (no invite code); the
 * offering seat takes its place at once. The answer carries the new game's id, the offerer's new seat token
 * and a creator token (start it with fewer, or cancel it). Every other seat accepts with .../rematch/accept
 * on the finished game, which answers its new token; the last acceptance starts the game. New seats are
 * numbered in the order they are taken, so the offerer moves first. A game has at most one rematch.
 *
 * Bots: a seat made for a bot at creation is a bot again, the same kind and think time, taken at once and
 * numbered first (as a creation numbers named seats before joined ones), so the rematch starts when its
 * people have accepted; a seat a bot took over from a player who left (bot_after_leave, seats.left_to_bot)
 * is offered back to that player, whose old token or key still offers and accepts (cd_req_seat_or_left).
 * bot_after_leave and the clock's "bot" timeout carry over with the other settings.
 */
#include <stdio.h>
#include <string.h>

#include "db/bots.h"
#include "db/lobby.h"
#include "game/clock.h"
#include "game/lobby_join.h"
#include "handlers.h"
#include "handlers/lobby.h"

/* Seconds as a request writes them: whole ones as integers. */
static json_t *seconds(double s)
{
    return s == (double)(json_int_t)s ? json_integer((json_int_t)s) : json_real(s);
}

/* The clock's settings as a creation request gives them (cd_clock_from_request reads them back). */
static json_t *clock_request(const cd_clock *c)
{
    static const char *const timeouts[] = {"none", "skip", "forfeit", "bot"};   /* cd_timeout's order */
    return json_pack("{s:o, s:o, s:s, s:o, s:i}", "per_move_s", seconds(c->per_move_s), "reserve_s",
                     seconds(c->reserve_s), "timeout",
                     timeouts[c->timeout], "remind_at", c->remind_at > 0 ? json_real(c->remind_at) : json_null(),
                     "vacation_days", c->vacation_days);
}

typedef struct {
    const char *old_id;
    int seat;                 /* the caller's seat of the finished game */
    char token_hash[CD_HEX256_LEN], creator_hash[CD_HEX256_LEN];
    /* out */
    cd_refusal no;
    char id[37];              /* the new game */
    int new_seat;
    bool started;
} rematch_tx;

/* Takes the place of old seat t->seat in the waiting game t->id (locked by the caller: w), by its offer
 * (run_offer) or by an acceptance (run_accept), which is a join like any other (game/lobby_join.h) while the
 * rematch waits on; starts the game when it was the last open place. */
static cd_tx_result take_place(cd_db *db, rematch_tx *t, const cd_waiting_lock_row *w, const cd_waiting_seat *old,
                               bool accepting)
{
    cd_invite inv[CD_LOBBY_MAX_SEATS];
    cd_waiting_seat seats[CD_LOBBY_MAX_SEATS];
    int ninv = 0, nseats = 0;
    if (cd_invites_get(db, t->id, inv, &ninv) != CD_Q_OK || cd_waiting_seats(db, t->id, seats, &nseats) != CD_Q_OK)
        return CD_TX_ERROR;
    int place = -1, open = 0;
    for (int i = 0; i < ninv; i++) {
        open += inv[i].seat < 0;
        if (inv[i].old_seat == t->seat)
            place = i;
    }
    if (place < 0)
        return cd_refuse(&t->no, CD_P_FORBIDDEN, NULL, "the rematch has no place for this seat");
    if (inv[place].seat >= 0)
        return cd_refuse(&t->no, CD_P_ALREADY_SEATED, NULL, "this seat has accepted the rematch already");
    t->new_seat = nseats;
    if (cd_seat_insert_player(db, t->id, t->new_seat, old->name, t->token_hash, old->player_id) != CD_Q_OK ||
        cd_invite_take(db, t->id, inv[place].place, t->new_seat, true) != CD_Q_OK)
        return CD_TX_ERROR;
    if (open > 1)
        return accepting ? cd_lobby_joined(db, t->id, t->new_seat, nseats + 1, nseats + open) : CD_TX_COMMIT;
    cd_tx_result out = cd_lobby_start(db, t->id, w, -1, NULL, t->no.detail, sizeof t->no.detail);
    if (out == CD_TX_ROLLBACK)
        t->no.problem = CD_P_INTERNAL;
    t->started = out == CD_TX_COMMIT;
    return out;
}

static cd_tx_result run_offer(cd_db *db, void *arg)
{
    rematch_tx *t = arg;
    cd_refusal_clear(&t->no);
    t->started = false;
    cd_game g;
    cd_load_result lr = cd_game_lock(db, t->old_id, &g);
    if (lr == CD_LOAD_NOT_FOUND || lr == CD_LOAD_WAITING) {
        cd_game_free(&g);
        return lr == CD_LOAD_WAITING ? cd_refuse(&t->no, CD_P_NOT_FINISHED, NULL, "the game has not even started")
                                     : cd_refuse(&t->no, CD_P_NOT_FOUND, NULL, "no game with that id");
    }
    if (lr != CD_LOAD_OK) {
        cd_game_free(&g);
        return CD_TX_ERROR;
    }
    cd_tx_result out;
    bool found = false;
    char other[37];
    cd_waiting_seat old[CD_LOBBY_MAX_SEATS];
    int nold = 0;
    json_t *settings = NULL;
    if (!g.finished) {
        out = cd_refuse(&t->no, CD_P_NOT_FINISHED, NULL, "the game is not over: a rematch is offered once it is");
        goto done;
    }
    if (cd_rematch_of(db, t->old_id, &found, other) != CD_Q_OK || cd_waiting_seats(db, t->old_id, old, &nold) != CD_Q_OK) {
        out = CD_TX_ERROR;
        goto done;
    }
    if (found) {
        out = cd_refuse(&t->no, CD_P_REMATCH_OFFERED, NULL,
                        "a rematch is on offer already: accept it with POST .../rematch/accept");
        goto done;
    }
    settings = json_pack("{s:o, s:o, s:[]}", "expansions", carc_expansions_to_json(g.st->expansions), "options",
                         carc_options_to_json(g.st->opt), "emails");
    if (g.clocked)
        json_object_set_new(settings, "clock", clock_request(&g.clock));
    cd_waiting_new w = {.nseats = nold, .nopen = 0, .settings = settings, .creator_hash = t->creator_hash,
                        .rematch_of = t->old_id, .seed_hex = NULL, .seed_sha = NULL};
    /* the bots made at creation are named seats, taken now; every other seat gets a place of its own */
    char bot_hash[CD_LOBBY_MAX_SEATS][CD_HEX256_LEN];
    int bot_of[CD_LOBBY_MAX_SEATS];   /* by new named seat: its old seat's index in old[] */
    for (int i = 0; i < nold; i++) {
        if (old[i].bot[0] && !old[i].left_to_bot) {
            char token[CD_TOKEN_LEN + 1];   /* nobody holds it: a bot seat's token only reads */
            cd_token_new(token);
            cd_sha256_hex(token, bot_hash[w.nnamed]);
            w.names[w.nnamed] = old[i].name;
            w.token_hash[w.nnamed] = bot_hash[w.nnamed];
            w.key_hash[w.nnamed] = NULL;
            bot_of[w.nnamed++] = i;
        } else {
            w.old_seat[w.nopen++] = old[i].seat;
        }
    }
    bool after_leave = false;
    if (cd_bot_after_leave(db, t->old_id, &after_leave) != CD_Q_OK) {
        out = CD_TX_ERROR;
        goto done;
    }
    uint8_t seed[32], md[32];   /* a fresh seed, its hash published with the offer */
    char seed_hex[CD_HEX256_LEN], seed_sha[CD_HEX256_LEN];
    cd_random_bytes(seed, sizeof seed);
    cd_hex(seed, sizeof seed, seed_hex);
    cd_sha256_bytes(seed, sizeof seed, md);
    cd_hex(md, sizeof md, seed_sha);
    w.seed_hex = seed_hex;
    w.seed_sha = seed_sha;
    out = cd_lobby_store_waiting(db, &w);
    if (out != CD_TX_COMMIT)
        goto done;
    memcpy(t->id, w.id, sizeof t->id);
    for (int i = 0; i < w.nnamed && out == CD_TX_COMMIT; i++)
        if (cd_bot_seat_set(db, t->id, i, old[bot_of[i]].bot, false) != CD_Q_OK)
            out = CD_TX_ERROR;
    if (out == CD_TX_COMMIT && (w.nnamed > 0 || after_leave || (g.clocked && g.clock.timeout == CD_TIMEOUT_BOT)) &&
        cd_bot_game_flags(db, t->id, after_leave) != CD_Q_OK)
        out = CD_TX_ERROR;
    if (out != CD_TX_COMMIT)
        goto done;
    cd_waiting_lock_row wl;
    if (cd_waiting_lock(db, t->id, &wl) != CD_Q_OK) {
        out = CD_TX_ERROR;
        goto done;
    }
    const cd_waiting_seat *me = NULL;
    for (int i = 0; i < nold; i++)
        if (old[i].seat == t->seat)
            me = &old[i];
    out = me ? take_place(db, t, &wl, me, false) : cd_refuse(&t->no, CD_P_FORBIDDEN, NULL, "no such seat in the game");
    cd_waiting_lock_row_free(&wl);
    for (int i = 0; i < nold && out == CD_TX_COMMIT; i++)
        if (old[i].seat != t->seat && old[i].player_id[0] && (!old[i].bot[0] || old[i].left_to_bot))
            out = cd_lobby_on_invited(db, t->id, old[i].player_id, old[i].seat);
done:
    json_decref(settings);
    cd_game_free(&g);
    return out;
}

static cd_tx_result run_accept(cd_db *db, void *arg)
{
    rematch_tx *t = arg;
    cd_refusal_clear(&t->no);
    t->started = false;
    bool found = false;
    cd_waiting_seat old[CD_LOBBY_MAX_SEATS];
    int nold = 0;
    if (cd_rematch_of(db, t->old_id, &found, t->id) != CD_Q_OK || cd_waiting_seats(db, t->old_id, old, &nold) != CD_Q_OK)
        return CD_TX_ERROR;
    if (!found)
        return cd_refuse(&t->no, CD_P_NOT_FOUND, NULL,
                         "no rematch of this game is on offer (POST .../rematch offers one)");
    cd_waiting_lock_row w;
    if (cd_waiting_lock(db, t->id, &w) != CD_Q_OK)
        return CD_TX_ERROR;
    cd_tx_result out;
    const cd_waiting_seat *me = NULL;
    for (int i = 0; i < nold; i++)
        if (old[i].seat == t->seat)
            me = &old[i];
    if (!w.found || strcmp(w.status, "waiting") != 0)
        out = cd_refuse(&t->no, CD_P_NO_OPEN_SEAT, NULL,
                        "the rematch no longer waits for its seats (it started or was cancelled)");
    else if (!me)
        out = cd_refuse(&t->no, CD_P_FORBIDDEN, NULL, "no such seat in the game");
    else
        out = take_place(db, t, &w, me, true);
    cd_waiting_lock_row_free(&w);
    return out;
}

static enum MHD_Result rematch(cd_req *r, bool offer)
{
    if (!cd_req_body_empty(r))
        return MHD_YES;
    cd_db *db;
    int seat = cd_req_seat_or_left(r, &db);   /* a player who left the seat to a bot plays the rematch */
    if (seat < 0)
        return MHD_YES;
    rematch_tx t = {.old_id = r->params[0], .seat = seat};
    char token[CD_TOKEN_LEN + 1], creator[CD_TOKEN_LEN + 1];
    cd_token_new(token);
    cd_sha256_hex(token, t.token_hash);
    cd_lobby_secret("ct_", creator);
    cd_sha256_hex(creator, t.creator_hash);
    bool down = false;
    cd_tx_result tr = cd_db_tx(db, offer ? run_offer : run_accept, &t, &down);
    if (tr == CD_TX_COMMIT) {
        json_t *a = json_pack("{s:s, s:i, s:s, s:s, s:s}", "game_id", t.id, "seat", t.new_seat, "token", token,
                              "status", t.started ? "active" : "waiting", "rematch_of", t.old_id);
        if (offer)
            json_object_set_new(a, "creator_token", json_string(creator));
        return cd_reply_json(r, 201, a, NULL);
    }
    return cd_reply_refusal_or_failure(r, &t.no, down, "the rematch could not be stored");
}

static enum MHD_Result make_offer(cd_req *r)
{
    return rematch(r, true);
}

static enum MHD_Result accept_offer(cd_req *r)
{
    return rematch(r, false);
}

enum MHD_Result h_game_rematch(cd_req *r)
{
    return cd_in_json_arena(r, make_offer);
}

enum MHD_Result h_game_rematch_accept(cd_req *r)
{
    return cd_in_json_arena(r, accept_offer);
}
