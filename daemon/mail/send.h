/*
 * send.h — the mail sender: one thread per carcd process that sends the mail outbox's due rows through SMTP
 * (libcurl: CARCD_SMTP_URL smtp:// with STARTTLS, or smtps://; TLS is required unless the server is on
 * loopback, where STARTTLS is used when offered (mail.h: cd_mail_use_ssl); CARCD_SMTP_USER and
 * CARCD_SMTP_PASSWORD when set; the envelope sender CARCD_MAIL_FROM).
 *
 * Claiming is the webhook worker's (webhooks/deliver.h): one statement picks the oldest due row that no
 * other sender holds (FOR UPDATE SKIP LOCKED) and leases it (due_at moves past the send's timeout, a fresh
 * lease id); only that lease records the outcome. So several carcd processes on one database send each mail
 * once; delivery is at least once, and exactly once unless a process dies (or loses the database) between
 * the server's acceptance and the record, when the mail goes out again once the lease ends.
 *
 * Outcomes: accepted: sent. A 5xx answer (permanent: no such mailbox, refused): the mail failed, and the
 * seat's mail to that address is stopped (mail_seats.stopped_at, its reason shown in the seat's and the
 * admin's view); no more mail goes there until the seat sets an address again. Anything else (4xx, the
 * server unreachable, a timeout): again after the next delay of CARCD_MAIL_BACKOFF, failed after the last.
 */
#ifndef CD_MAIL_SEND_H
#define CD_MAIL_SEND_H

#include "base/config.h"

/* Starts the sender (none when mail is off). 0, or -1 with err. */
int cd_mail_send_start(const cd_config *cfg, char *err, size_t errlen);
/* Stops it after the mail in flight. */
void cd_mail_send_stop(void);

#endif
