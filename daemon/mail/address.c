/*
 * address.c — see address.h.
 */
#include "address.h"

#include <string.h>

#include "db/mail_seats.h"   /* CD_EMAIL_MAX, the column's bound */

bool cd_mail_address_ok(const char *s)
{
    size_t n = strlen(s);
    if (n < 3 || n > CD_EMAIL_MAX)
        return false;
    const char *at = strrchr(s, '@');
    if (!at || at == s || !at[1] || strchr(s, '@') != at)
        return false;
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c <= 0x20 || c == 0x7f || strchr("<>()[]\\,;:\"", c))
            return false;
    }
    const char *dom = at + 1;
    return (strchr(dom, '.') && dom[0] != '.' && dom[strlen(dom) - 1] != '.') || strcmp(dom, "localhost") == 0;
}
