/*
 * lobby_start.c — see lobby_start.h. A waiting game keeps its settings as asked for (expansions and options as
 * the engine normalised them at creation, the clock as requested) in game_waiting; the start reads them back
 * through the same decoders a creation uses, so a game started from the lobby is set up exactly as one created
 * with the same seats.
 */
#include "lobby_start.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/json_out.h"
#include "base/log.h"
#include "base/timesrc.h"
#include "db/moves.h"
#include "db/player_events.h"
#include "game/catalog.h"
#include "game/event_cache.h"
#include "game/games.h"
#include "mail/waiting.h"
#include "webhooks/outbox.h"

json_t *cd_setup_json(const carc_setup *s, const json_t *script)
{
    json_t *o = json_object();
    json_object_set_new(o, "nplayers", json_integer(s->nplayers));
    json_object_set_new(o, "expansions", carc_expansions_to_json(s->expansions));
    json_object_set_new(o, "options", carc_options_to_json(s->opt));
    if (script)
        json_object_set(o, "script", (json_t *)script);
    return o;
}

/* The settings back into a carc_setup for n seats and a clock; false with detail when they do not decode
 * (stored by carcd, so only for an engine that changed its mind about them). */
static bool settings_setup(const json_t *settings, int n, const char *seed_hex, carc_setup *s, bool *clocked,
                           cd_clock *clock, char *detail, size_t detlen)
{
    carc_setup_defaults(s);
    s->nplayers = n;
    json_t *exp = json_object_get(settings, "expansions"), *opt = json_object_get(settings, "options");
    char err[256] = "";
    if ((exp && carc_expansions_from_json(&s->expansions, exp, err, sizeof err) != 0) ||
        (opt && carc_options_from_json(s->opt, opt, true, err, sizeof err) != 0) ||
        !cd_unhex(seed_hex, s->seed, sizeof s->seed)) {
        snprintf(detail, detlen, "the game's stored settings do not decode: %s", err);
        return false;
    }
    json_t *cj = json_object_get(settings, "clock");
    *clocked = cj && !json_is_null(cj);
    char field[64];
    if (*clocked && !cd_clock_from_request(cj, clock, field, sizeof field, detail, detlen))
        return false;
    return true;
}

cd_tx_result cd_lobby_start(cd_db *db, const char *id, const cd_waiting_lock_row *w, int token_seat,
                            const char *token, char *detail, size_t detlen)
{
    cd_waiting_seat seats[CD_LOBBY_MAX_SEATS];
    cd_invite inv[CD_LOBBY_MAX_SEATS];
    int n = 0, ninv = 0;
    if (cd_waiting_seats(db, id, seats, &n) != CD_Q_OK || cd_invites_get(db, id, inv, &ninv) != CD_Q_OK)
        return CD_TX_ERROR;
    if (n < CARC_MIN_PLAYERS) {
        snprintf(detail, detlen, "%d seat%s taken: a game starts with at least %d", n, n == 1 ? "" : "s",
                 CARC_MIN_PLAYERS);
        return CD_TX_ROLLBACK;
    }
    json_t *settings = json_loads(w->settings, 0, NULL);
    carc_setup s;
    bool clocked = false;
    cd_clock clock;
    carc_state *st = malloc(sizeof *st);
    carc_events ev = {0};
    cd_tx_result out = CD_TX_ROLLBACK;
    char err[256];
    json_t *setup = NULL, *snap = NULL, *events = NULL, *names = json_array();
    char *setup_s = NULL, *snap_s = NULL, *events_s = NULL, *clock_s = NULL;
    if (!settings || !st) {
        snprintf(detail, detlen, "the game's stored settings do not decode");
        goto done;
    }
    if (!settings_setup(settings, n, w->seed, &s, &clocked, &clock, detail, detlen))
        goto done;
    if (carc_game_new(st, cd_catalog(), &s, &ev, err, sizeof err) != 0) {
        snprintf(detail, detlen, "the game cannot be set up for %d seats: %s", n, err);
        goto done;
    }
    char deadline_iso[32] = "";
    if (clocked) {
        cd_clock_start(&clock, st, 0, cd_wall_now());
        if (cd_clock_deadline(&clock) >= 0)
            cd_iso_time(cd_clock_deadline(&clock), deadline_iso);
        json_t *cj = cd_clock_to_json(&clock);
        clock_s = cd_json_dumps(cj, JSON_COMPACT);
        json_decref(cj);
    }
    setup = cd_setup_json(&s, NULL);
    snap = cd_snapshot_for_store(st);
    events = carc_events_to_json(st, &ev, CARC_VIEW_ADMIN);
    setup_s = cd_json_dumps(setup, JSON_COMPACT);
    snap_s = cd_json_dumps(snap, JSON_COMPACT);
    events_s = cd_json_dumps(events, JSON_COMPACT);
    const cd_game_start_row row = {.setup = setup_s, .snapshot = snap_s, .finished = st->status == CARC_FINISHED,
                                   .pending_seat = st->pending.seat, .clock = clock_s,
                                   .deadline = clock_s ? cd_clock_deadline(&clock) : -1,
                                   .due = clock_s ? cd_clock_due(&clock) : -1};
    out = CD_TX_ERROR;
    /* the opening's events are derived (game/move_log.h), and kept in the event cache meanwhile */
    if (cd_game_start_store(db, id, &row) != CD_Q_OK || cd_moves_insert_opening(db, id, NULL) != CD_Q_OK ||
        cd_moves_notify(db, id, 0) != CD_Q_OK)
        goto done;
    char *opening_key = cd_event_cache_move_key(NULL);
    cd_event_cache_put(id, 0, -1, opening_key, events_s);
    free(opening_key);
    /* as a creation: turn.started to the endpoints the seats registered while they waited */
    out = cd_outbox_game_created(db, id, st, w->seed, deadline_iso[0] ? deadline_iso : NULL, NULL);
    for (int i = 0; i < n; i++)
        json_array_append_new(names, json_string(seats[i].name));
    const char *addr[CD_LOBBY_MAX_SEATS];   /* what the creation and the joins said, by seat */
    cd_mail_waiting_addresses(settings, inv, ninv, n, addr);
    if (out == CD_TX_COMMIT)
        out = cd_mail_waiting_started(db, id, st, names, addr, token_seat, token, deadline_iso);
    if (out == CD_TX_COMMIT)
        out = cd_lobby_on_started(db, id, n);
done:
    carc_events_free(&ev);
    free(st);
    json_decref(settings);
    json_decref(setup);
    json_decref(snap);
    json_decref(events);
    json_decref(names);
    free(setup_s);
    free(snap_s);
    free(events_s);
    free(clock_s);
    return out;
}

cd_tx_result cd_lobby_on_started(cd_db *db, const char *game_id, int nseats)
{
    cd_log("info", "game %s started with %d seats", game_id, nseats);
    /* the linked players' streams (GET /v1/me/events): the game started, and whose turn it is first */
    bool ok = cd_player_events_for_seats_deferred(db, game_id, 0, -1, CD_PEV_GAME_STARTED, NULL) &&
              cd_player_events_for_seats_deferred(db, game_id, 0, CD_PEV_PENDING_SEAT, CD_PEV_TURN, NULL);
    return ok ? CD_TX_COMMIT : CD_TX_ERROR;
}

