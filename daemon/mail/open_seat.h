/*
 * open_seat.h — the invitation carcd mails for an open place of a waiting game (a creation's
 * {"invite": true, "email": "..."}): to a person who has no seat yet, the place's page link with the invite
 * code in its fragment, and what the game is. Written into the outbox in the creation's transaction, like
 * every mail (outbox.h), and sent at least once by mail/send.c.
 *
 * It is the one mail to an address that has not joined anything: it names no seat (the outbox row's seat is
 * -1, sql/019), has no thread, and says that nothing more will come unless the person joins. With a reply
 * address (CARCD_MAIL_REPLY_TO) its Reply-To carries the place's tag (tag.h, sql/021): answering "join" takes
 * the seat by mail alone (mailin/join_by_mail.h).
 * Once they join with its code, the address is their seat's (handlers/lobby.h). Its stop link (List-Unsubscribe
 * with RFC 8058's one-click, and in its text) keeps every later invitation from this server away from the
 * address (db/invite_optouts.h): a server that mails whoever a creator names must let them say no.
 */
#ifndef CD_MAIL_OPEN_SEAT_H
#define CD_MAIL_OPEN_SEAT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "db/db.h"

typedef struct {
    const char *game_id;
    int place;                  /* the open place the invitation is for (seat_invites.place) */
    const char *email;          /* the invited person's address (seat_mail.h's cd_mail_address_ok) */
    const char *inviter;        /* who invites, by the name of the game's first named seat; NULL: not known */
    const json_t *names;        /* the seats named so far, ["Ann", "greedy bot"] */
    int nseats;                 /* the seats the game asks for, named and open */
    const json_t *settings;     /* the waiting game's settings: expansions, clock (lobby.h) */
    const char *page_url;       /* the place's page link (cd_lobby_invite_page_url): absolute */
    const char *stop_url;       /* the address's stop link (cd_mail_enqueue_open_seat makes it); NULL: none */
    const char *reply_to;       /* the place's reply address (cd_mail_enqueue_open_seat makes it); NULL: none */
} cd_mail_open_seat;

/* The whole message (malloc'd) and its Message-ID (without brackets); NULL on failure. */
char *cd_mail_compose_open_seat(const cd_mail_open_seat *a, char *msg_id, size_t msg_id_len);

/* The mail into the outbox (kind "open-seat", seat -1) with a new stop link for its address and, when replies
 * are on, the place's reply tag stored (sql/021), and the sender woken at commit. CD_TX_COMMIT, or CD_TX_ERROR when a statement failed. Mail must be on in this process
 * (the creation refuses an address otherwise: mail.h). */
cd_tx_result cd_mail_enqueue_open_seat(cd_db *db, const cd_mail_open_seat *a);

/* The words of the refusal to mail an invitation to an address that opted out, after the field's name. */
#define CD_MAIL_OPTED_OUT_WORDS \
    "this address asked not to get invitations from this server; send the invitation's page_url yourself"

/* Whether the address used an invitation's stop link: then no invitation may be mailed to it. */
cd_q cd_mail_invite_opted_out(cd_db *db, const char *email, bool *out);
/* An invitation's stop link used (token from its URL): its address opted out; *found false for no such link. */
cd_q cd_mail_invite_stop(cd_db *db, const char *token, bool *found);

/* "3 players, Hills & Sheep, a day a move": the game page's words for a game's settings (page/panel.js's
 * gameSettings), for the mail's text. */
void cd_mail_settings_words(const json_t *settings, int nseats, char *out, size_t n);

#endif
