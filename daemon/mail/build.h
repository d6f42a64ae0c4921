/*
 * build.h — one mail as RFC 5322 text, built with GMime: the headers a game's mail carries (threading,
 * List-Unsubscribe with RFC 8058 one-click), a plain-text part always, and, when there is a picture, an HTML
 * part with the picture inline: multipart/alternative { text/plain, multipart/related { text/html, image/png } }.
 */
#ifndef CD_MAIL_BUILD_H
#define CD_MAIL_BUILD_H

#include <stddef.h>

/* The picture's Content-ID, which the HTML part shows as <img src="cid:board.png@carcd">: a msg-id, with its
 * '@' (RFC 2392, RFC 5322 §3.6.4). */
#define CD_MAIL_PNG_CID "board.png@carcd"

typedef struct {
    const char *from;           /* CARCD_MAIL_FROM */
    const char *to;             /* the seat's address */
    const char *reply_to;       /* the seat's reply address; NULL or "": none */
    const char *subject;        /* UTF-8 */
    const char *msg_id;         /* without angle brackets */
    const char *thread_id;      /* the game thread's first Message-ID (In-Reply-To, References); NULL: none */
    const char *in_reply_to;    /* the player's mail this answers (In-Reply-To; References after thread_id);
                                   NULL or "": none, the mail answers the thread */
    const char *unsubscribe;    /* the one-click URL (List-Unsubscribe, List-Unsubscribe-Post); NULL: none */
    const char *text;           /* the plain-text body, UTF-8, "\n" line ends */
    const char *html;           /* NULL: text only */
    const unsigned char *png;   /* the board, shown by the HTML as cid:CD_MAIL_PNG_CID; NULL: none */
    size_t png_len;
} cd_mail_parts;

/* The whole message, CRLF line ends, NUL-terminated (malloc'd; free()). NULL only when GMime failed. */
char *cd_mail_build(const cd_mail_parts *p);

#endif
