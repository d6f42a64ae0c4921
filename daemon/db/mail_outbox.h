/*
 * mail_outbox.h — the outbox of mails (sql/006_mail.sql: mail_outbox): written in the transaction of the
 * event that causes a mail, claimed and recorded by the senders (mail/send.c). Typed rows.
 */
#ifndef CD_DB_MAIL_OUTBOX_H
#define CD_DB_MAIL_OUTBOX_H

#include <stdbool.h>
#include <stddef.h>

#include "db.h"
#include "mail_seats.h"

/* ST_MAIL_OUTBOX_INSERT (deferred: it travels with the transaction's next statement or COMMIT) and, once per
 * transaction that wrote any, ST_MAIL_NOTIFY. false when it could not be queued. */
bool cd_mail_outbox_add(cd_db *db, const char *game_id, int seat, const char *kind, int seq, const char *msg_id,
                        const char *rcpt, const char *body);
bool cd_mail_outbox_notify(cd_db *db);

/* A claimed mail: leased until the lease ends; only the lease may record its outcome. */
typedef struct {
    long long id;
    char lease[40];
    char rcpt[CD_EMAIL_MAX + 1];
    char *body;          /* malloc'd */
    size_t body_len;
    int tries;           /* this one included */
    char game_id[37];
    int seat;
    bool stopped;        /* the seat's mail to rcpt was stopped since: not to be sent */
} cd_mail_claimed;

/* ST_MAIL_CLAIM: the oldest due mail leased for lease_s seconds; *found false when none is due. */
cd_mq cd_mail_claim(cd_db *db, double lease_s, bool *found, cd_mail_claimed *out);
/* ST_MAIL_DONE: its outcome: state "sent", "failed" or "pending" (again after delay_s). *still_ours false when
 * the lease had run out (another sender has it now). */
cd_mq cd_mail_done(cd_db *db, const cd_mail_claimed *m, const char *state, double delay_s, const char *error,
                   bool *still_ours);

/* ST_MAIL_BOUNCED: the mail of outbox row id bounced after its server took it (a delivery status report came
 * back to its return path, mail/tag.h): failed, with error. out->found false when there is no such row. */
typedef struct {
    bool found;
    char game_id[37];
    int seat;                      /* -1: a person with no seat (an open place's invitation) */
    char rcpt[CD_EMAIL_MAX + 1];
} cd_mail_bounced;
cd_q cd_mail_outbox_bounced(cd_db *db, long long id, const char *error, cd_mail_bounced *out);

/* ST_MAIL_ANSWERS_RECENT: how many answers to replies (kinds refused, status, join-answer) went to rcpt for
 * seat of game_id (-1: an open place's) in the last hour; written but uncommitted ones of this transaction
 * included. */
cd_q cd_mail_answers_recent(cd_db *db, const char *game_id, int seat, const char *rcpt, int *n);
/* ST_MAIL_LOBBY_RECENT: how many mails saying who joined or left the waiting game_id went to rcpt in the last
 * hour (by address: seat numbers move as seats leave); uncommitted ones of this transaction included. */
cd_q cd_mail_lobby_recent(cd_db *db, const char *game_id, const char *rcpt, int *n);

/* ST_OPEN_SEAT_MAILS: the newest invitation mail (mail/open_seat.h: seat -1, kind open-seat) to each address
 * of a game, for its creator to see which went and which a mail server refused. */
typedef struct {
    char rcpt[CD_EMAIL_MAX + 1];
    char state[8];         /* pending, sent, failed */
    int tries;
    char error[400];       /* the last attempt's error; "" when none */
    char sent_at[24];      /* ISO, UTC; "" until sent */
} cd_open_seat_mail;
cd_q cd_open_seat_mails(cd_db *db, const char *game_id, cd_open_seat_mail *out, int max, int *n);

#endif
