/*
 * ids.c — see ids.h.
 */
#include "ids.h"

#include <string.h>

#include "utf8.h"

static bool hexval_ok(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool cd_uuid_valid(const char *s)
{
    static const int dash[] = {8, 13, 18, 23};
    if (strlen(s) != 36)
        return false;
    for (int i = 0, d = 0; i < 36; i++) {
        if (d < 4 && i == dash[d]) {
            if (s[i] != '-')
                return false;
            d++;
        } else if (!hexval_ok(s[i])) {
            return false;
        }
    }
    return true;
}

bool cd_name_ok(const char *s, const char *field, char *why, size_t whylen)
{
    return cd_utf8_text_ok(s, strlen(s), CD_NAME_MAX, false, field, why, whylen);
}
