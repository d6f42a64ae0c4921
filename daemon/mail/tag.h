/*
 * tag.h — a seat's reply tag: the part of its reply address (CARCD_MAIL_REPLY_TO's {tag}) that says which
 * game and seat a reply is for, and that nobody can guess: HMAC-SHA256 over "game:seat" under
 * CARCD_MAIL_SECRET (over "game:seat:G" once G seats have left the game while it waited, sql/029), its first 12
 * bytes in hex (lower case: mail systems may fold the case of addresses). A tag is made once, when the seat's
 * address is first stored (mail_seats), and found by its stored value from then on: a seat that moves down when
 * an earlier one leaves keeps the tag its mail names, and the generation keeps the next person to take a seat
 * number from being handed a tag that someone else's mail already carries.
 * An open place's mailed invitation has one too, over "game:place:P" (a reply "join" takes that place,
 * mailin/join_by_mail.h); a tag names a seat or a place, never both.
 */
#ifndef CD_MAIL_TAG_H
#define CD_MAIL_TAG_H

#include <stdbool.h>
#include <stddef.h>

#include "db/mail_seats.h"

/* The tag of a seat's address stored now; gen: cd_mail_tag_gen's count (0 writes the tag as before sql/029). */
void cd_mail_tag(const char *game_id, int seat, int gen, char out[CD_MAIL_TAG_LEN + 1]);
/* The reply tag of the invitation carcd mailed for an open place of a waiting game, and its check. */
void cd_mail_place_tag(const char *game_id, int place, char out[CD_MAIL_TAG_LEN + 1]);
bool cd_mail_place_tag_ok(const char *game_id, int place, const char *tag);
/* A seat's unsubscribe link's token: "<game_id>.<24 hex of HMAC(CARCD_MAIL_SECRET, "unsubscribe:" + reply tag)>".
 * Not the reply tag itself: a link travels (a proxy's log, a link scanner, a browser's history), and the reply
 * tag with a forged From plays the seat's moves by mail; this opens the unsubscribe and nothing else. */
#define CD_MAIL_UNSUB_LEN (36 + 1 + CD_MAIL_TAG_LEN)
void cd_mail_unsub_token(const char *game_id, const char *reply_tag, char out[CD_MAIL_UNSUB_LEN + 1]);
/* Whether token is reply_tag's unsubscribe token (its HMAC compared in constant time). */
bool cd_mail_unsub_token_ok(const char *token, const char *reply_tag);
/* The unsubscribe link of a seat's mails, out of public_url and its reply tag. */
void cd_mail_unsub_url(const char *public_url, const char *game_id, const char *reply_tag, char *out, size_t n);
/* The seat's reply address from the template; "" when there is no template. */
void cd_mail_reply_address(const char *tag, char *out, size_t n);
/* Finds a tag in an address written from the template ("play+<tag>@example.org"): true and the tag, or false. */
bool cd_mail_tag_from_address(const char *address, char out[CD_MAIL_TAG_LEN + 1]);

/* A mail's bounce tag (CARCD_MAIL_RETURN_PATH's {tag}): which outbox row a bounce is about, and that carcd
 * wrote it: the row's id in 12 hex digits, then 12 of an HMAC over it. A bounce goes to the envelope sender,
 * so each mail is sent from its own return path (mail/send.c) and its bounce names the mail it answers. */
void cd_mail_bounce_tag(long long outbox_id, char out[CD_MAIL_TAG_LEN + 1]);
/* true with the outbox row's id when tag is a bounce tag carcd made (its HMAC checked in constant time). */
bool cd_mail_bounce_tag_id(const char *tag, long long *outbox_id);
/* The envelope sender of outbox row outbox_id from the template; "" when there is no template. */
void cd_mail_return_path(long long outbox_id, char *out, size_t n);
/* Finds a bounce tag in an address written from CARCD_MAIL_RETURN_PATH. */
bool cd_mail_bounce_tag_from_address(const char *address, char out[CD_MAIL_TAG_LEN + 1]);

#endif
