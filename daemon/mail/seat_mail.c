/*
 * seat_mail.c — a seat's address (seat_mail.h).
 */
#include "seat_mail.h"

#include <stdio.h>
#include <string.h>

#include "db/mail_seats.h"
#include "outbox.h"
#include "tag.h"

/* The seat's row (sql/006: its address and reply tag, tag.h), written and read back into row: its tag a new
 * one, or the row's own. */
static bool put_row(cd_db *db, const char *game_id, int seat, const char *email, cd_mail_seat *row)
{
    int gen = 0;
    if (cd_mail_tag_gen(db, game_id, &gen) != CD_MQ_OK)
        return false;
    *row = (cd_mail_seat){0};
    snprintf(row->email, sizeof row->email, "%s", email ? email : "");
    cd_mail_tag(game_id, seat, gen, row->tag);
    return cd_mail_seat_put(db, game_id, seat, email, row) == CD_MQ_OK;
}

cd_tx_result cd_mail_seat_hold(cd_db *db, const char *game_id, int seat, const char *email)
{
    cd_mail_seat row;
    return put_row(db, game_id, seat, email, &row) ? CD_TX_COMMIT : CD_TX_ERROR;
}

cd_tx_result cd_mail_seat_set(cd_db *db, const char *game_id, const carc_state *st, int seq, const json_t *names,
                              int seat, const char *email, const char *token, const char *deadline)
{
    cd_mail_seat row;
    if (!put_row(db, game_id, seat, email, &row))
        return CD_TX_ERROR;
    if (!email)
        return CD_TX_COMMIT;
    return cd_mail_enqueue_invitation(db, game_id, st, seq, names, &row, token, deadline);
}
