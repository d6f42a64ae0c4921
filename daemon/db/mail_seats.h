/*
 * mail_seats.h — the seats that get mail (sql/006_mail.sql: mail_seats): their address, their reply tag, and
 * whether their mail was stopped (a permanent SMTP refusal, an unsubscribe). Typed rows; nobody outside db/
 * sees a PGresult.
 */
#ifndef CD_DB_MAIL_SEATS_H
#define CD_DB_MAIL_SEATS_H

#include <stdbool.h>

#include "db.h"

/* The outcome of a mail query: done, failed, or failed because the database cannot be reached. */
typedef enum { CD_MQ_OK, CD_MQ_FAILED, CD_MQ_DOWN } cd_mq;
/* The cd_mq of a cd_q (the mail query files build on db/query.h, whose shapes answer a cd_q). */
static inline cd_mq cd_mq_of(cd_q q)
{
    return q == CD_Q_OK ? CD_MQ_OK : q == CD_Q_DOWN ? CD_MQ_DOWN : CD_MQ_FAILED;
}

#define CD_EMAIL_MAX 254   /* RFC 5321's path limit less the brackets */
#define CD_MAIL_TAG_LEN 24 /* hex digits */

typedef struct {
    int seat;
    char email[CD_EMAIL_MAX + 1];
    char tag[CD_MAIL_TAG_LEN + 1];
    bool stopped;
    char stopped_at[40];           /* ISO; "" when not stopped */
    char stopped_reason[300];
    bool bot;                      /* a bot plays the seat now: its player left it (bot_after_leave); active and
                                    * by-tag rows only */
    int thread_seat;               /* the number its mail's thread root names (mail/compose.h): its own, or the one
                                    * it had before it moved down in a waiting game (sql/031); not in the admin's */
} cd_mail_seat;

/* ST_MAIL_SEATS_ACTIVE: the seats of game_id whose mail runs, in seat order, at most max; *n their number. */
cd_mq cd_mail_seats_active(cd_db *db, const char *game_id, cd_mail_seat *out, int max, int *n);
/* ST_MAIL_SEATS_ALL: every seat of game_id with an address (stopped ones too), for the admin's view. */
cd_mq cd_mail_seats_all(cd_db *db, const char *game_id, cd_mail_seat *out, int max, int *n);
/* ST_MAIL_SEAT_TAGS: the seats of game_id that have a reply tag, with only their seat and tag filled. */
cd_mq cd_mail_seat_tags(cd_db *db, const char *game_id, cd_mail_seat *out, int max, int *n);
/* ST_MAIL_SEAT_GET: seat's address; *found false when it has none. */
cd_mq cd_mail_seat_get(cd_db *db, const char *game_id, int seat, bool *found, cd_mail_seat *out);
/* ST_MAIL_SEAT_PUT / ST_MAIL_SEAT_DELETE: set a seat's address (its mail runs again), or remove it (email NULL).
 * row->tag is the tag for a seat with no row yet; a seat that has one keeps its own, which comes back in
 * row->tag (the mail it was sent still names it), with its thread_seat; row->seat is set, the rest left as it
 * was. */
cd_mq cd_mail_seat_put(cd_db *db, const char *game_id, int seat, const char *email, cd_mail_seat *row);
/* ST_MAIL_TAG_GEN: how many seats left the game while it waited (sql/029): a new tag's generation (mail/tag.h). */
cd_mq cd_mail_tag_gen(cd_db *db, const char *game_id, int *gen);
/* ST_MAIL_SEAT_BY_TAG: who a reply tag belongs to; *found false when nobody. game_id gets the game's uuid. */
cd_mq cd_mail_seat_by_tag(cd_db *db, const char *tag, bool *found, char game_id[37], cd_mail_seat *out);
/* ST_MAIL_SEAT_STOP: no more mail to `email` at that seat, for `reason` (when it is still that seat's address). */
cd_mq cd_mail_seat_stop(cd_db *db, const char *game_id, int seat, const char *email, const char *reason);

#endif
