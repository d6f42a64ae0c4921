/*
 * mail_in.h — a reply mail acted on: `carcd mail-in` (one RFC 5322 message on stdin, for an MTA's pipe
 * transport) and the IMAP poller both hand each mail to cd_mail_in_handle.
 *
 * What a reply does, all in one transaction with the mail's Message-ID recorded in mail_in (so a mail
 * delivered twice, or fetched by two pollers, acts once; a mail without a Message-ID is known by the SHA-256
 * of its bytes):
 *   - no tag of ours in its recipients, a tag nobody has, a tag that is not the HMAC of its game and seat, or
 *     a sender that is not the seat's address: nothing changes, the mail is logged and recorded "ignored";
 *   - its command (reply.h: the first unquoted line): the number of a move listed in the turn mail it
 *     answers, a notation, or "resign": played as the seat would through the API, and the next turn mail
 *     commits with the move; "pause", "resume", "vacation N": the clock changes as through the API;
 *   - anything else (an unknown command, an illegal or stale move, not the seat's turn, the game over, a
 *     clock command in a game without a clock): refused, with an answer mail that quotes the reason and
 *     lists the legal moves again;
 *   - a tag that is an open place's, from the reply address of that place's mailed invitation: "join" takes
 *     the seat (join_by_mail.h), recorded "joined", or "refused" with an answer saying why;
 *   - a mail to a return path of carcd's (CARCD_MAIL_RETURN_PATH, mail/tag.h), a bounce: a delivery status
 *     report that says "failed" fails the mail it names and stops its seat's address, recorded "bounced";
 *     anything else sent there is recorded "ignored".
 */
#ifndef CD_MAIL_IN_H
#define CD_MAIL_IN_H

#include <stddef.h>

#include "base/config.h"

#define CD_MAIL_IN_TEMPFAIL 75   /* EX_TEMPFAIL: the MTA keeps the mail and tries again */

/* Handles one mail: 0 once handled (played, refused, ignored, or handled before), CD_MAIL_IN_TEMPFAIL when
 * the database cannot be reached or the transaction failed (nothing changed; try again). what gets one line
 * saying what happened. */
int cd_mail_in_handle(const cd_config *cfg, const char *data, size_t len, char *what, size_t n);

/* `carcd mail-in`: reads stdin (at most 64 MiB), handles it, logs what happened: the exit status. */
int cd_mail_in_main(const cd_config *cfg);

#endif
