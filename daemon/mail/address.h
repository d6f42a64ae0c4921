/*
 * address.h — whether a text is a mail address carcd sends to or from: a seat's (seat_mail.h) and
 * CARCD_MAIL_FROM (mail.c). A check of the text alone, so that every mail file may use it.
 */
#ifndef CD_MAIL_ADDRESS_H
#define CD_MAIL_ADDRESS_H

#include <stdbool.h>

/* Whether s looks like a mail address: 3 to 254 bytes, local@domain, the domain with a dot or "localhost",
 * no spaces, control characters or any of <>()[]\,;:" (an address, not a display name). */
bool cd_mail_address_ok(const char *s);

#endif
