/*
 * deliveries_forget.h — the outboxes' ended rows forgotten after CARCD_DELIVERY_TTL (sql/034): sent or failed
 * mails, delivered or failed webhook messages with their attempts, and gone endpoints (sql/033) with nothing
 * left to send; the replies handled by mail that no move can come of again (sql/035); and the players' events
 * (GET /v1/me/events), which told the same news (sql/036). Run by the clock
 * worker's upkeep, a batch a statement; rows another transaction holds (a redeliver, a bounce being recorded,
 * a reply being handled) are left for the next time (SKIP LOCKED).
 */
#ifndef CD_DB_DELIVERIES_FORGET_H
#define CD_DB_DELIVERIES_FORGET_H

#include "db.h"

/* ST_MAIL_FORGET: up to limit mails that ended before `before` (epoch s) deleted; *n how many. A game that is
 * still waiting or under way keeps its open places' invitations (its creator's view lists them) and each
 * seat's newest turn or invitation mail (the next turn mail tells the messages written since it). */
cd_q cd_mail_forget(cd_db *db, double before, int limit, int *n);
/* ST_WH_FORGET: up to limit webhook messages that ended before `before` deleted, their attempts with them. */
cd_q cd_webhook_forget(cd_db *db, double before, int limit, int *n);
/* ST_WH_GONE_FORGET: up to limit endpoints gone before `before` with no message left deleted. */
cd_q cd_gone_endpoints_forget(cd_db *db, double before, int limit, int *n);
/* ST_MAIL_IN_FORGET: up to limit mail_in rows handled before `before` deleted, of no game or of a game gone,
 * over or cancelled; a waiting or running game's are kept (a second delivery of a reply must not act again). */
cd_q cd_mail_in_forget(cd_db *db, double before, int limit, int *n);
/* ST_PLAYER_EVENTS_FORGET: up to limit players' events written before `before` deleted. */
cd_q cd_player_events_forget(cd_db *db, double before, int limit, int *n);

#endif
