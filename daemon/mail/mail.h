/*
 * mail.h — play by e-mail: the settings every part of daemon/mail/ reads, set once per process from the
 * configuration (CARCD_SMTP_URL, CARCD_MAIL_FROM, CARCD_MAIL_REPLY_TO, CARCD_MAIL_SECRET, CARCD_MAIL_BACKOFF,
 * CARCD_PUBLIC_URL) before any thread starts, read-only afterwards.
 *
 * Mail is on in a process when CARCD_SMTP_URL is set: then its moves write the mails they cause into the
 * outbox (mail/outbox.h) and its sender sends them (mail/send.h). Every carcd of one database, and every
 * `carcd mail-in`, needs the same mail settings: a process without them writes no mail for its moves.
 */
#ifndef CD_MAIL_H
#define CD_MAIL_H

#include <stdbool.h>
#include <stddef.h>

#include "base/config.h"

#define CD_MAIL_MAX_BACKOFF 16

typedef struct {
    bool enabled;                 /* CARCD_SMTP_URL is set */
    const cd_config *cfg;
    char domain[200];             /* the right side of Message-IDs: the From address's domain */
    double backoff[CD_MAIL_MAX_BACKOFF];
    int nbackoff;
} cd_mail_settings;

/* Reads the settings (GMime is initialised here too). 0, or -1 with err (a bad backoff list, a reply template
 * without {tag}, reply addresses without CARCD_MAIL_SECRET). cfg must outlive the process's mail. */
int cd_mail_configure(const cd_config *cfg, char *err, size_t errlen);
const cd_mail_settings *cd_mail_settings_get(void);

/* libcurl's CURLOPT_USE_SSL for a mail server's URL: TLS required (STARTTLS, or implicit with smtps:// and
 * imaps://) unless the server is on this machine's loopback, where it is used when offered. A password never
 * crosses a network in the clear. */
long cd_mail_use_ssl(const char *url);

#endif
