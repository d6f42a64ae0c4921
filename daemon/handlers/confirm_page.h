/*
 * confirm_page.h — the small HTML page behind a link in a mail that changes something when followed: a GET
 * must change nothing (mail scanners and link previews follow links), so the link opens this page, whose one
 * button posts to the page's own address. The stop link of an invitation (invite_stop.c) and the unsubscribe
 * link of a seat's mails (mail_unsubscribe.c) use it, and the page that says the POST was done.
 */
#ifndef CD_HANDLERS_CONFIRM_PAGE_H
#define CD_HANDLERS_CONFIRM_PAGE_H

#include "request.h"

/* 200 text/html: title as the heading, text below it, and when button is not NULL a form that posts to the
 * page's own address with that label. Not cached; nothing but its own form and inline style may load. */
enum MHD_Result cd_reply_confirm_page(cd_req *r, const char *title, const char *text, const char *button);

#endif
