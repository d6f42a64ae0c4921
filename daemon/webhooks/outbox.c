/*
 * outbox.c — webhook messages written inside the transaction of the event that causes them (outbox.h).
 *
 * Cost when a game has no endpoint: one indexed SELECT per move (none when the caller knows there is none:
 * move_commit.c). With endpoints: the public view and the public events rendered once, each (event, format)
 * body rendered once, one INSERT per message and endpoint and one NOTIFY, deferred (cd_db_defer): they go out
 * with the transaction's COMMIT, in its round trip.
 */
#include "outbox.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "base/crypto.h"
#include "base/log.h"
#include "db/games_table.h"
#include "db/messages.h"
#include "db/webhook_endpoints.h"
#include "db/webhook_outbox.h"
#include "whpayload.h"

typedef struct {
    char id[37];
    int seat;          /* -1: the whole game */
    int format;
    unsigned events;
} endpoint_row;

/* Whether endpoint e receives event ev when the game waits for pending_seat after a move of seat `mover` (-1:
 * no move). A seat is not told it is its turn when it still is: after its tile, the follower decision (or any
 * other of the same turn) is in the move's answer, and a second notification a second later is noise. */
static bool wants(const endpoint_row *e, unsigned ev, int pending_seat, int mover)
{
    if (!(e->events & ev))
        return false;
    bool turn = ev == CD_WH_TURN_STARTED || ev == CD_WH_TURN_REMINDER;
    if (!turn || e->seat < 0)
        return true;
    return e->seat == pending_seat && !(ev == CD_WH_TURN_STARTED && mover == pending_seat);
}

static json_t *load_names(cd_db *db, const char *game_id)
{
    cd_seat_names rows;
    if (cd_seat_names_read(db, game_id, &rows) != CD_Q_OK)
        return NULL;
    json_t *names = json_array();
    for (int i = 0; i < rows.n; i++)
        json_array_append_new(names, json_string(rows.name[i]));
    cd_seat_names_free(&rows);
    return names;
}

/* SHA-256 of the seed's bytes, in hex: the commitment the game published. "" when seed_hex is not a seed. */
static void seed_commitment(const char *seed_hex, char out[CD_HEX256_LEN])
{
    uint8_t seed[32], md[32];
    unsigned int n = 0;
    out[0] = 0;
    if (seed_hex && cd_unhex(seed_hex, seed, sizeof seed) && EVP_Digest(seed, sizeof seed, md, &n, EVP_sha256(), NULL))
        cd_hex(md, sizeof md, out);
}

static int event_index(unsigned ev)
{
    return ev == CD_WH_TURN_STARTED ? 0 : ev == CD_WH_MOVE_MADE ? 1 : ev == CD_WH_GAME_FINISHED ? 2 : 3;
}

/* The messages `which` (cd_wh_event bits) of game_id at seq, for every endpoint that wants them. */
static cd_tx_result enqueue(cd_db *db, const char *game_id, int seq, const carc_state *st, int seat,
                           const json_t *events_admin, const char *seed_hex, unsigned which, const char *deadline,
                           double time_left_s, bool cancelled)
{
    cd_active_endpoint_rows rows;
    if (cd_endpoints_active(db, game_id, &rows) != CD_Q_OK)
        return CD_TX_ERROR;
    int n = rows.n;
    if (n == 0) {
        cd_active_endpoint_rows_free(&rows);
        return CD_TX_COMMIT;
    }
    int pending_seat = st->status == CARC_FINISHED || cancelled ? -1 : st->pending.seat;
    endpoint_row *eps = calloc((size_t)n, sizeof *eps);
    if (!eps)
        abort();
    bool any = false;
    for (int i = 0; i < n; i++) {
        endpoint_row *e = &eps[i];
        snprintf(e->id, sizeof e->id, "%s", rows.v[i].id);
        e->seat = rows.v[i].seat;
        e->format = cd_wh_format_parse(rows.v[i].format);
        if (e->format < 0)
            e->format = CD_WH_JSON;
        e->events = cd_wh_events_from_pg(rows.v[i].events);
        for (unsigned ev = 1; ev <= CD_WH_TURN_REMINDER; ev <<= 1)
            any = any || ((which & ev) && wants(e, ev, pending_seat, seat));
    }
    cd_active_endpoint_rows_free(&rows);
    if (!any) {
        free(eps);
        return CD_TX_COMMIT;
    }

    /* what every message is made of: public information only (and the seed once the game is over) */
    cd_tx_result out = CD_TX_ERROR;
    json_t *names = load_names(db, game_id);
    json_t *view = carc_view_to_json(st, CARC_VIEW_PUBLIC);
    json_t *events = events_admin ? carc_events_json_filter(events_admin, CARC_VIEW_PUBLIC) : json_array();
    bool over = st->status == CARC_FINISHED && !cancelled;   /* a cancelled game keeps its seed secret */
    char stamp[40], commitment[CD_HEX256_LEN];
    cd_log_timestamp(stamp, sizeof stamp);
    seed_commitment(over || cancelled ? seed_hex : NULL, commitment);   /* a cancel says the hash, not the seed */
    double delay = cd_webhooks_settings()->backoff[0];
    cd_whp_ctx ctx = {.game_id = game_id, .seq = seq, .names = names, .view = view, .events = events,
                      .seat = seat, .seed = over ? seed_hex : NULL, .seed_sha256 = commitment,
                      .timestamp = stamp, .base_url = cd_webhooks_settings()->public_url,
                      .deadline = deadline, .time_left_s = time_left_s, .cancelled = cancelled};
    char *body[CD_WH_NEVENTS][CD_WH_NFORMATS] = {{NULL}};
    int written = 0;
    if (!names)
        goto done;
    for (int i = 0; i < n; i++) {
        const endpoint_row *e = &eps[i];
        /* in the order a reader expects: what happened, then what comes next */
        static const unsigned order[] = {CD_WH_MOVE_MADE, CD_WH_GAME_FINISHED, CD_WH_TURN_STARTED,
                                         CD_WH_TURN_REMINDER};
        for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {   /* message.posted has its own call */
            unsigned ev = order[k];
            if (!(which & ev) || !wants(e, ev, pending_seat, seat))
                continue;
            char **b = &body[event_index(ev)][e->format];
            if (!*b)
                *b = cd_whp_render(ev, e->format, &ctx);
            char msg_id[CD_WH_MSGID_LEN + 1];
            cd_wh_msg_id_new(msg_id);
            /* sent with the COMMIT (db.h) */
            if (!cd_outbox_insert_deferred(db, e->id, msg_id, cd_wh_event_name(ev), game_id, seq, *b, delay))
                goto done;
            written++;
        }
    }
    if (written > 0) {
        if (!cd_outbox_wake_deferred(db, game_id))
            goto done;
    }
    out = CD_TX_COMMIT;
done:
    for (int k = 0; k < CD_WH_NEVENTS; k++)
        for (int f = 0; f < CD_WH_NFORMATS; f++)
            free(body[k][f]);
    json_decref(names);
    json_decref(view);
    json_decref(events);
    free(eps);
    return out;
}

cd_tx_result cd_outbox_enqueue_move(cd_db *db, const cd_outbox_game *g, int seq, int seat, const json_t *events_admin)
{
    unsigned which = CD_WH_MOVE_MADE | (g->st->status == CARC_FINISHED ? CD_WH_GAME_FINISHED : CD_WH_TURN_STARTED);
    return enqueue(db, g->id, seq, g->st, seat, events_admin, g->seed, which, g->deadline[0] ? g->deadline : NULL, 0,
                   false);
}

cd_tx_result cd_outbox_enqueue_reminder(cd_db *db, const cd_outbox_game *g, const char *deadline, double time_left_s)
{
    return enqueue(db, g->id, g->seq, g->st, -1, NULL, g->seed, CD_WH_TURN_REMINDER, deadline, time_left_s, false);
}

cd_tx_result cd_outbox_enqueue_cancel(cd_db *db, const char *game_id, int seq, const carc_state *st,
                                      const char *seed_hex)
{
    return enqueue(db, game_id, seq, st, -1, NULL, seed_hex, CD_WH_GAME_FINISHED, NULL, 0, true);
}

/* Whether endpoint e (of seat e_seat, -1: the whole game) is to get the event; false with *err on a failed read. */
typedef bool (*skip_fn)(cd_db *db, const void *arg, int e_seat, bool *err);

/* One event outside a move (message.posted, player.joined, a waiting game's cancel) for every endpoint of
 * game_id that asked for ev and that skip (NULL: none) does not pass over: each format's body rendered once
 * from ctx (its names read here), one row per endpoint, one wake-up. */
static cd_tx_result fan_out(cd_db *db, const char *game_id, unsigned ev, cd_whp_ctx *ctx, skip_fn skip,
                            const void *arg)
{
    cd_active_endpoint_rows rows;
    if (cd_endpoints_active(db, game_id, &rows) != CD_Q_OK)
        return CD_TX_ERROR;
    cd_tx_result out = CD_TX_COMMIT;
    char *body[CD_WH_NFORMATS] = {NULL};
    json_t *names = NULL;
    char stamp[40];
    cd_log_timestamp(stamp, sizeof stamp);
    double delay = cd_webhooks_settings()->backoff[0];
    ctx->game_id = game_id;
    ctx->timestamp = stamp;
    ctx->base_url = cd_webhooks_settings()->public_url;
    int written = 0;
    for (int i = 0; i < rows.n && out == CD_TX_COMMIT; i++) {
        const cd_active_endpoint_row *e = &rows.v[i];
        bool err = false;
        if (!(cd_wh_events_from_pg(e->events) & ev) || (skip && skip(db, arg, e->seat, &err))) {
            if (err)
                out = CD_TX_ERROR;
            continue;
        }
        int format = cd_wh_format_parse(e->format);
        if (format < 0)
            format = CD_WH_JSON;
        if (!names && !(names = load_names(db, game_id))) {
            out = CD_TX_ERROR;
            break;
        }
        ctx->names = names;   /* read once, for the first endpoint that takes the event */
        if (!body[format])
            body[format] = cd_whp_render(ev, format, ctx);
        char msg_id[CD_WH_MSGID_LEN + 1];
        cd_wh_msg_id_new(msg_id);
        if (!cd_outbox_insert_deferred(db, e->id, msg_id, cd_wh_event_name(ev), game_id, ctx->seq, body[format],
                                       delay))
            out = CD_TX_ERROR;
        written++;
    }
    if (out == CD_TX_COMMIT && written > 0 && !cd_outbox_wake_deferred(db, game_id))
        out = CD_TX_ERROR;
    for (int f = 0; f < CD_WH_NFORMATS; f++)
        free(body[f]);
    json_decref(names);
    cd_active_endpoint_rows_free(&rows);
    return out;
}

/* message.posted skips its author's own endpoints and those of a seat that muted the author. */
static bool skip_for_message(cd_db *db, const void *arg, int e_seat, bool *err)
{
    const cd_outbox_message *m = arg;
    if (e_seat == m->seat)
        return true;
    unsigned muted = 0;
    if (e_seat >= 0 && cd_mutes_of(db, m->game_id, e_seat, &muted) != CD_Q_OK) {
        *err = true;
        return true;
    }
    return m->seat < 32 && (muted >> m->seat & 1);
}

cd_tx_result cd_outbox_enqueue_message(cd_db *db, const cd_outbox_message *m)
{
    cd_whp_ctx ctx = {.seq = m->seq, .seat = m->seat, .message_id = m->id, .text = m->text};
    return fan_out(db, m->game_id, CD_WH_MESSAGE_POSTED, &ctx, skip_for_message, m);
}

/* player.joined skips the joiner's own endpoints (a seat just taken has none yet; one registered in the same
 * instant would learn nothing). */
static bool skip_for_joined(cd_db *db, const void *arg, int e_seat, bool *err)
{
    (void)db;
    (void)err;
    return e_seat >= 0 && e_seat == *(const int *)arg;
}

cd_tx_result cd_outbox_enqueue_joined(cd_db *db, const char *game_id, int seat, int taken, int nseats)
{
    cd_whp_ctx ctx = {.seq = 0, .seat = seat, .seats = nseats, .taken = taken};
    return fan_out(db, game_id, CD_WH_PLAYER_JOINED, &ctx, skip_for_joined, &seat);
}

cd_tx_result cd_outbox_enqueue_left(cd_db *db, const char *game_id, int seat, const char *name, bool removed,
                                    int taken, int nseats)
{
    cd_whp_ctx ctx = {.seq = 0, .seat = seat, .seats = nseats, .taken = taken, .left_name = name, .removed = removed};
    return fan_out(db, game_id, CD_WH_PLAYER_LEFT, &ctx, NULL, NULL);
}

cd_tx_result cd_outbox_enqueue_expiry(cd_db *db, unsigned ev, const char *game_id, const char *expires_at,
                                      const char *since, bool by_admin, int taken, int nseats)
{
    cd_whp_ctx ctx = {.seq = 0, .seat = -1, .seats = nseats, .taken = taken, .expires_at = expires_at, .since = since,
                      .kept_by_admin = by_admin};
    return fan_out(db, game_id, ev, &ctx, NULL, NULL);
}

cd_tx_result cd_outbox_game_created(cd_db *db, const char *game_id, const carc_state *st, const char *seed_hex,
                                    const char *deadline, cd_player_hooks *hooks)
{
    for (int i = 0; hooks && i < hooks->nplayers; i++) {
        if (!hooks->has[i])
            continue;
        char events[CD_WH_EVENTS_PG_LEN], created_at[40];
        cd_wh_events_pg(hooks->spec[i].events, events, sizeof events);
        if (cd_endpoint_insert(db, game_id, i, hooks->spec[i].url, cd_wh_format_name(hooks->spec[i].format), events,
                               hooks->secret[i], hooks->id[i], created_at) != CD_Q_OK)
            return CD_TX_ERROR;
    }
    unsigned which = st->status == CARC_FINISHED ? CD_WH_GAME_FINISHED : CD_WH_TURN_STARTED;
    return enqueue(db, game_id, 0, st, -1, NULL, seed_hex, which, deadline, 0, false);
}

cd_tx_result cd_outbox_enqueue_waiting_cancel(cd_db *db, const char *game_id, const char *seed_hex,
                                              cd_cancel_by by)
{
    char commitment[CD_HEX256_LEN];
    seed_commitment(seed_hex, commitment);
    cd_whp_ctx ctx = {.seq = 0, .seat = -1, .seed_sha256 = commitment, .cancelled = true, .never_started = true,
                      .cancelled_by = by};
    return fan_out(db, game_id, CD_WH_GAME_FINISHED, &ctx, NULL, NULL);
}
