/*
 * waiting_reply.c — see waiting_reply.h.
 */
#include "waiting_reply.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "db/lobby.h"
#include "game/lobby_leave.h"
#include "mail/outbox.h"
#include "mail/waiting.h"

/* "leave": the seat given up, when a join took it. *why the refusal (NULL: it left). */
static cd_tx_result leave(cd_db *db, const char *game_id, const cd_mail_seat *seat, const char **why)
{
    *why = NULL;
    cd_waiting_lock_row w;
    if (cd_waiting_lock(db, game_id, &w) != CD_Q_OK)
        return CD_TX_ERROR;
    cd_invite inv[CD_LOBBY_MAX_SEATS];   /* a seat a join took has a place; a named one has none */
    int ninv = 0;
    cd_tx_result out = CD_TX_ERROR;
    if (cd_invites_get(db, game_id, inv, &ninv) != CD_Q_OK)
        goto done;
    bool joined = false;
    for (int i = 0; i < ninv; i++)
        joined = joined || inv[i].seat == seat->seat;
    if (!w.found || strcmp(w.status, "waiting") != 0) {   /* the caller's lock says it waits: a bug if not */
        *why = "the game no longer waits for its seats";
        out = CD_TX_COMMIT;
    } else if (!joined) {
        *why = "your seat was named when the game was created, not taken by a join: only the game's creator can "
               "change who plays, by cancelling it";
        out = CD_TX_COMMIT;
    } else {
        cd_waiting_seat who;
        out = cd_lobby_leave(db, game_id, &w, seat->seat, false, &who);
        if (out == CD_TX_COMMIT && !seat->stopped)
            out = cd_mail_enqueue_gone(db, game_id, seat, who.name, false);
    }
done:
    cd_waiting_lock_row_free(&w);
    return out;
}

cd_tx_result cd_mail_in_waiting(cd_db *db, const cd_reply *r, const char *game_id, const cd_mail_seat *seat,
                                char *outcome, size_t on, char *detail, size_t dn)
{
    char word[16];
    cd_reply_first_word(r->command, word, sizeof word);
    const char *why = NULL;
    if (strcmp(word, "leave") == 0 && strcasecmp(r->command, "leave") != 0) {
        why = "to give your seat back, write \"leave\" alone on the first line";
    } else if (strcmp(word, "leave") == 0) {   /* the whole line, as "resign" in a game under way */
        cd_tx_result out = leave(db, game_id, seat, &why);
        if (out != CD_TX_COMMIT)
            return out;
        if (!why) {
            snprintf(outcome, on, "left");
            snprintf(detail, dn, "seat %d gave its seat back before the start", seat->seat);
            return CD_TX_COMMIT;
        }
    } else
        why = r->command[0] ? "the game has not started" : "the reply has no word on its first line";
    snprintf(outcome, on, "refused");
    const char *quiet;
    if (cd_mail_answer_blocked(db, game_id, seat, &quiet) != CD_MQ_OK)
        return CD_TX_ERROR;
    snprintf(detail, dn, "%s (%s%s)", why, quiet ? "not answered: " : "answered", quiet ? quiet : "");
    return quiet ? CD_TX_COMMIT : cd_mail_enqueue_waiting_answer(db, game_id, seat, why);
}
