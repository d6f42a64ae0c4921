/*
 * imap_poll.h — the IMAP poller: one thread per carcd process that reads the replies from a mailbox through
 * libcurl (CARCD_IMAP_URL, imaps://user:password@host/INBOX; imap:// on loopback), every
 * CARCD_IMAP_INTERVAL_MS: UID SEARCH UNSEEN, then each message fetched (which marks it \Seen) and handed to
 * cd_mail_in_handle (mail_in.h). A message the database could not take is marked unseen again, to be fetched
 * at the next look. Several carcd processes may poll one mailbox: a message two of them fetch acts once, by
 * its Message-ID (mail_in.h).
 */
#ifndef CD_MAIL_IMAP_POLL_H
#define CD_MAIL_IMAP_POLL_H

#include <stddef.h>

#include "base/config.h"

/* Starts the poller (none without CARCD_IMAP_URL). 0, or -1 with err. */
int cd_imap_poll_start(const cd_config *cfg, char *err, size_t errlen);
void cd_imap_poll_stop(void);

#endif
