/*
 * admin_cancel.h — the admin's cancel of a game (sql/009): the game row ended with no winner, its clock
 * stopped, and the cancel's entry in its log, with the NOTIFY that wakes its long-polls and streams.
 */
#ifndef CD_DB_ADMIN_CANCEL_H
#define CD_DB_ADMIN_CANCEL_H

#include <stdbool.h>

#include "db.h"

/* Inside the transaction that locked the game at seq (cd_game_lock): queues (cd_db_defer) the update to
 * status 'cancelled' at seq + 1 (pending seat, clock deadline and due time cleared, finished_at now), the log
 * entry seq + 1 (seat NULL, origin 'admin', move `move_json`, no events) and the NOTIFY. false when they
 * could not be sent. */
bool cd_admin_cancel_deferred(cd_db *db, const char *game_id, int seq, const char *move_json);

#endif
