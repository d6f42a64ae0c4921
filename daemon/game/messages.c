/*
 * messages.c (game/) — see messages.h.
 */
#include "messages.h"

#include <stdio.h>
#include <string.h>

#include "base/utf8.h"
#include "webhooks/outbox.h"

bool cd_msg_text_ok(const char *text, size_t len, char *why, size_t whylen)
{
    return cd_utf8_text_ok(text, len, CD_MSG_MAX_CHARS, true, "text", why, whylen);
}

json_t *cd_msg_json(const cd_msg_row *m, bool admin)
{
    json_t *o = json_pack("{s:I, s:i, s:s, s:i, s:s, s:s}", "id", (json_int_t)m->id, "seat", m->seat, "name",
                          m->name, "seq", m->seq, "text", m->text, "at", m->at);
    if (admin)
        json_object_set_new(o, "hidden", json_boolean(m->hidden));
    return o;
}

typedef struct {
    const char *game_id, *text, *origin;
    const char *bearer_hash;   /* NULL: the seat alone */
    int seat;
    double now;
    cd_msg_inserted ins;
    bool no_seat;
} post_tx;

static cd_tx_result run_post(cd_db *db, void *arg)
{
    post_tx *t = arg;
    t->no_seat = false;
    bool found = false;
    if (cd_msg_seat_lock(db, t->game_id, t->seat, t->bearer_hash, &found) != CD_Q_OK)
        return CD_TX_ERROR;
    if (!found) {
        t->no_seat = true;
        return CD_TX_ROLLBACK;
    }
    if (cd_msg_insert(db, t->game_id, t->seat, t->text, t->origin, t->now, CD_MSG_RATE_WINDOW_S, CD_MSG_RATE_MAX,
                      &t->ins) != CD_Q_OK)
        return CD_TX_ERROR;
    if (!t->ins.inserted)
        return CD_TX_ROLLBACK;
    if (!cd_msg_notify_deferred(db, t->game_id, t->ins.id))
        return CD_TX_ERROR;
    cd_outbox_message m = {.game_id = t->game_id, .id = t->ins.id, .seq = t->ins.seq, .seat = t->seat,
                           .name = t->ins.name, .text = t->text, .at = t->ins.at};
    return cd_outbox_enqueue_message(db, &m);
}

cd_tx_result cd_msg_post_tx(cd_db *db, const char *game_id, int seat, const char *text, const char *origin,
                            double now, cd_msg_post_result *res, cd_msg_inserted *ins)
{
    post_tx t = {.game_id = game_id, .text = text, .origin = origin, .seat = seat, .now = now};
    cd_tx_result out = run_post(db, &t);
    *res = out == CD_TX_COMMIT ? CD_MSG_POSTED
           : out == CD_TX_ROLLBACK ? (t.no_seat ? CD_MSG_NO_SEAT : CD_MSG_RATE_LIMITED)
                                   : CD_MSG_FAILED;
    *ins = t.ins;
    return out;
}

cd_msg_post_result cd_msg_post(cd_db *db, const char *game_id, int seat, const char *bearer_hash, const char *text,
                               const char *origin, double now, json_t **out, double *retry_s, bool *down)
{
    post_tx t = {.game_id = game_id, .text = text, .origin = origin, .bearer_hash = bearer_hash, .seat = seat,
                 .now = now};
    *down = false;
    if (out)
        *out = NULL;
    cd_tx_result tr = cd_db_tx(db, run_post, &t, down);
    if (tr == CD_TX_ROLLBACK && t.no_seat)
        return CD_MSG_NO_SEAT;
    if (tr == CD_TX_ROLLBACK) {
        *retry_s = t.ins.retry_s > 0 ? t.ins.retry_s : 1;
        return CD_MSG_RATE_LIMITED;
    }
    if (tr != CD_TX_COMMIT)
        return CD_MSG_FAILED;
    if (out) {
        cd_msg_row row = {.id = t.ins.id, .seat = seat, .name = t.ins.name, .seq = t.ins.seq, .text = text,
                          .at = t.ins.at};
        *out = cd_msg_json(&row, false);
    }
    return CD_MSG_POSTED;
}
