/*
 * log_move.c — see log_move.h.
 */
#include "log_move.h"

#include <stdio.h>
#include <string.h>

#include "json.h"

/* A cancel is told by its JSON: a compact line always has a seat, and no move of a seat has kind "cancel". */
bool cd_log_json_is_cancel(const json_t *j)
{
    const char *kind = json_string_value(json_object_get(j, "kind"));
    return kind && strcmp(kind, "cancel") == 0;
}

bool cd_log_move_is_cancel(const cd_log_move *m)
{
    if (m->has_seat || !m->json)
        return false;
    json_t *j = json_loads(m->json, 0, NULL);
    bool cancel = cd_log_json_is_cancel(j);
    json_decref(j);
    return cancel;
}

int cd_log_move_apply(carc_state *st, const cd_log_move *m, carc_events *ev, json_t **described,
                      char notation[CARC_NOTATION_MAX], char *why, size_t whylen)
{
    if (described)
        *described = NULL;
    bool leave, to_bot;
    carc_move mv;
    int rc = CARC_OK;
    if (m->text) {
        leave = m->text_len == strlen(CD_LEAVE_NOTATION) && memcmp(m->text, CD_LEAVE_NOTATION, m->text_len) == 0;
        to_bot = m->text_len == strlen(CD_TO_BOT_NOTATION) && memcmp(m->text, CD_TO_BOT_NOTATION, m->text_len) == 0;
        if (!leave && !to_bot && st->pending.seat != m->seat) {
            snprintf(why, whylen, "the log has seat %d move, the game waits for seat %d", m->seat, st->pending.seat);
            return CARC_E_ILLEGAL;
        }
        if (!leave && !to_bot)
            rc = carc_notation_parse(st, m->text, m->text_len, &mv, why, whylen);
    } else {
        json_t *j = m->json ? json_loads(m->json, 0, NULL) : NULL;
        if (!j) {
            snprintf(why, whylen, "the logged move is not JSON");
            return CARC_E_INVALID;
        }
        if (!m->has_seat) {   /* only the admin's cancel has no seat: it ends the log and changes nothing */
            if (!cd_log_json_is_cancel(j) || notation) {
                snprintf(why, whylen, notation ? "a cancel has no compact line" : "the logged move has no seat");
                json_decref(j);
                return CARC_E_INVALID;
            }
            if (described)
                *described = j;
            else
                json_decref(j);
            return CARC_OK;
        }
        leave = carc_move_is_leave(j);
        to_bot = carc_move_is_leave_to_bot(j);
        if (!leave && !to_bot)
            rc = carc_move_from_json(st, j, &mv, why, whylen);
        json_decref(j);
    }
    if (rc != CARC_OK)
        return rc;
    if (leave) {
        if (notation)
            snprintf(notation, CARC_NOTATION_MAX, "%s", CD_LEAVE_NOTATION);
        rc = carc_leave(st, m->seat, ev, why, whylen);
        if (rc == CARC_OK && described)
            *described = json_pack("{s:s}", "kind", "leave");
        return rc;
    }
    if (to_bot) {   /* the seat stays in the game: only its event */
        if (notation)
            snprintf(notation, CARC_NOTATION_MAX, "%s", CD_TO_BOT_NOTATION);
        rc = carc_leave_to_bot(st, m->seat, ev, why, whylen);
        if (rc == CARC_OK && described)
            *described = json_pack("{s:s}", "kind", "leave_to_bot");
        return rc;
    }
    /* named against the state the move is made in, as moves_post.c logs it */
    if (notation && carc_move_notation(st, &mv, notation, CARC_NOTATION_MAX) < 0) {
        snprintf(why, whylen, "the move has no notation");
        return CARC_E_INVALID;
    }
    json_t *d = described ? carc_move_to_json_described(st, &mv) : NULL;
    if (described && !d) {
        snprintf(why, whylen, "the move cannot be named");
        return CARC_E_INVALID;
    }
    rc = carc_apply(st, m->seat, &mv, ev, why, whylen);
    if (rc != CARC_OK) {
        json_decref(d);
        return rc;
    }
    if (described)
        *described = d;
    return CARC_OK;
}
