/*
 * reply.h — what a reply mail says, read with GMime: its Message-ID (the idempotency key), its sender, the
 * tag of the reply address it was sent to, the seq of the turn mail it answers (from In-Reply-To), and its
 * command: the first line of the body that is not quoted. The body is the first text/plain part that is not
 * an attachment, else the first text/html part turned into text (quoted blocks left out); GMime decodes the
 * transfer encoding (quoted-printable, base64) and the charset into UTF-8. Lines starting with '>' are
 * quotes, a line "-- " starts the signature, "On ... wrote:" starts the quoted mail (the reply is the first
 * unquoted line below it, or there is none). A format=flowed text (RFC 3676) is unwrapped first. A mail to a
 * return path of carcd's (a bounce) is read for its delivery status report (message/delivery-status) instead.
 * A mail a program wrote (an out-of-office answer) is marked as such (`automatic`).
 */
#ifndef CD_MAIL_REPLY_H
#define CD_MAIL_REPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "db/mail_seats.h"

/* the first unquoted line's room: "say" and a message of 1 000 characters of up to 4 bytes each
 * (game/messages.h), so that a longer one is refused as too long, never cut short */
#define CD_REPLY_LINE_MAX 4100

typedef struct {
    char message_id[300];           /* without brackets; "" when the mail has none */
    char from[CD_EMAIL_MAX + 1];    /* the From mailbox */
    bool has_tag;
    char tag[CD_MAIL_TAG_LEN + 1];
    char to[CD_EMAIL_MAX + 1];      /* the address the tag was found in */
    int in_reply_seq;               /* -1: not an answer to a mail of ours */
    char command[CD_REPLY_LINE_MAX];/* the first unquoted line, trimmed; "" when there is none */
    /* written by a program, not a person (RFC 3834: Auto-Submitted other than "no"; Precedence bulk, junk,
     * list or auto_reply; X-Autoreply, X-Autorespond): an out-of-office answer to a turn mail, a list's
     * digest. carcd acts on none and answers none, so that two responders never mail each other for ever.
     * `automatic` names the header that said so ("Auto-Submitted: auto-replied"); "" for a person's mail. */
    char automatic[80];
    /* a bounce: sent to a mail's return path (CARCD_MAIL_RETURN_PATH, tag.h), with its delivery status
     * (RFC 3464: the first recipient's Action, Status and Diagnostic-Code; "" when the mail has none) */
    bool has_bounce_tag;            /* its HMAC checked: the mail it names is bounce_id */
    char bounce_tag[CD_MAIL_TAG_LEN + 1];
    long long bounce_id;            /* the outbox row of the mail that bounced */
    char dsn_action[16];            /* failed, delayed, delivered, relayed, expanded (lower case) */
    char dsn_status[16];            /* e.g. 5.1.1 */
    char dsn_diagnostic[300];       /* e.g. smtp; 550 5.1.1 <bob@example.net>: no such user */
} cd_reply;

/* 0, or -1 when the bytes are no mail GMime can read. */
int cd_reply_parse(const char *data, size_t len, cd_reply *out);

/* The command of a plain text: its first unquoted line (reply.c's rules), trimmed, into out. */
void cd_reply_first_line(const char *text, char *out, size_t n);
/* The printf precision ("%.*s") that repeats a command in an answer or a log line: whole, or its first 160
 * bytes cut where a character starts (a detail goes into a text column and a mail, which refuse or garble half a
 * character). */
int cd_reply_shown(const char *command);
/* The command's first word, lower case, cut to n - 1 bytes: what it asks for ("resign", "say", "join"). */
void cd_reply_first_word(const char *command, char *out, size_t n);
/* HTML as text: tags dropped, <br>, </p>, </div> and </li> as line ends, the source's own line breaks as
 * spaces, <blockquote>, <style>, <head> and <script> left out, a few named entities and every numeric one
 * decoded. malloc'd. */
char *cd_reply_html_text(const char *html);

#endif
