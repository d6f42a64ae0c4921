/*
 * compose.h — what each mail of a game says, for one seat, from that seat's view only (carc_view_to_json for
 * the seat: whatever the seat cannot see cannot reach its mail): the invitation, the turn mail, the clock's
 * reminder, game over, the answer to a refused reply, and to a reply asking for the game's status. Each is built
 * into a whole message (build.h).
 *
 * Message-IDs: <carcd.GAME.SEAT.KIND.SEQ.RANDOM@domain>; every mail of a seat names the seat's thread root
 * <carcd.GAME.N@domain> in In-Reply-To and References, so a mail client shows one thread per game, and
 * a reply's In-Reply-To tells which turn mail (which seq) it answers. N is the seat's number, or the one it had
 * when it moved down in a waiting game (its row's thread_seat, sql/031): its thread goes on.
 */
#ifndef CD_MAIL_COMPOSE_H
#define CD_MAIL_COMPOSE_H

#include <jansson.h>
#include <stdbool.h>

#include "carc.h"
#include "db/mail_seats.h"

typedef enum {
    CD_MAIL_INVITATION,
    CD_MAIL_TURN,
    CD_MAIL_REMINDER,
    CD_MAIL_FINISHED,
    CD_MAIL_REFUSED,
    CD_MAIL_STATUS,   /* the answer to a reply "status": the game as it is, whoever it waits for */
} cd_mail_kind;

const char *cd_mail_kind_name(cd_mail_kind k);

typedef struct {
    cd_mail_kind kind;
    const char *game_id;
    const cd_mail_seat *to;     /* the seat's mail row: its number, address, reply tag and thread */
    const carc_state *st;       /* the game now */
    int seq;
    const json_t *names;        /* ["Ann","Bob"] by seat; may be NULL */
    const char *deadline;       /* ISO; NULL or "": no clock */
    const char *token;          /* invitation: the seat's token, for its private link */
    const char *last_move;      /* turn: what happened since (one line per move); NULL: nothing to tell */
    const char *talk;           /* turn: "  Ann wrote: ..." lines, the table talk since; NULL: none */
    const char *refusal;        /* refused: the reason */
    bool cancelled;             /* the admin cancelled the game (st is as it was then): no winner; a finished,
                                   status or refused mail says so */
    const char *reason;         /* cancelled: the admin's reason; NULL: none given */
    const char *in_reply_to;    /* refused, status: the Message-ID of the player's mail it answers; NULL: none */
} cd_mail_about;

/* The whole message for `a` (malloc'd) and its Message-ID (msg_id, without brackets). NULL on failure. */
char *cd_mail_compose(const cd_mail_about *a, char *msg_id, size_t msg_id_len);

/* The thread root Message-ID of a seat's mail: carcd.GAME.N@domain, N its row's thread_seat. */
void cd_mail_thread_id(const char *game_id, const cd_mail_seat *to, char *out, size_t n);
/* A new Message-ID of ours (without brackets): carcd.GAME.SEAT.KIND.SEQ.RANDOM@domain; seat -1 for a mail to a
 * person with no seat (an open place's invitation, the answer to a reply for it). */
void cd_mail_msg_id(const char *game_id, int seat, const char *kind, int seq, char *out, size_t n);
/* The seq a Message-ID of ours names (carcd.GAME.SEAT.KIND.SEQ.*), or -1. */
int cd_mail_msg_id_seq(const char *msg_id);

#endif
