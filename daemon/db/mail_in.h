/*
 * mail_in.h — the replies already handled (sql/006_mail.sql: mail_in), by Message-ID: the idempotency key of
 * a mail move.
 */
#ifndef CD_DB_MAIL_IN_H
#define CD_DB_MAIL_IN_H

#include <stdbool.h>

#include "db.h"
#include "mail_seats.h"

/* ST_MAIL_IN_INSERT inside the transaction that acts on the mail: *fresh false when that Message-ID was handled
 * before (the transaction then does nothing else). game_id NULL and seat < 0 for a mail of nobody's. */
cd_mq cd_mail_in_record(cd_db *db, const char *message_id, const char *game_id, int seat, const char *outcome,
                        const char *detail, bool *fresh);

#endif
