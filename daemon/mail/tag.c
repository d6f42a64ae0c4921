/*
 * tag.c — reply tags (tag.h).
 */
#include "tag.h"

#include <ctype.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "mail.h"

/* The first CD_MAIL_TAG_LEN hex digits of HMAC-SHA256(CARCD_MAIL_SECRET, msg). */
static void tag_of(const char *msg, int n, char out[CD_MAIL_TAG_LEN + 1])
{
    const char *key = cd_mail_settings_get()->cfg ? cd_mail_settings_get()->cfg->mail_secret : "";
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    HMAC(EVP_sha256(), key, (int)strlen(key), (const unsigned char *)msg, (size_t)n, md, &len);
    for (int i = 0; i < CD_MAIL_TAG_LEN / 2; i++)
        snprintf(out + 2 * i, 3, "%02x", md[i]);
}

void cd_mail_tag(const char *game_id, int seat, char out[CD_MAIL_TAG_LEN + 1])
{
    char msg[64];
    int n = snprintf(msg, sizeof msg, "%s:%d", game_id, seat);
    tag_of(msg, n, out);
}

void cd_mail_place_tag(const char *game_id, int place, char out[CD_MAIL_TAG_LEN + 1])
{
    char msg[64];   /* "place:" keeps it apart from every seat's tag of every game */
    int n = snprintf(msg, sizeof msg, "%s:place:%d", game_id, place);
    tag_of(msg, n, out);
}

bool cd_mail_place_tag_ok(const char *game_id, int place, const char *tag)
{
    char want[CD_MAIL_TAG_LEN + 1];
    cd_mail_place_tag(game_id, place, want);
    return strlen(tag) == CD_MAIL_TAG_LEN && CRYPTO_memcmp(want, tag, CD_MAIL_TAG_LEN) == 0;
}

bool cd_mail_tag_ok(const char *game_id, int seat, const char *tag)
{
    char want[CD_MAIL_TAG_LEN + 1];
    cd_mail_tag(game_id, seat, want);
    return strlen(tag) == CD_MAIL_TAG_LEN && CRYPTO_memcmp(want, tag, CD_MAIL_TAG_LEN) == 0;
}

void cd_mail_reply_address(const char *tag, char *out, size_t n)
{
    const char *t = cd_mail_settings_get()->cfg ? cd_mail_settings_get()->cfg->mail_reply_to : "";
    const char *at = strstr(t, "{tag}");
    if (!at) {
        snprintf(out, n, "%s", "");
        return;
    }
    snprintf(out, n, "%.*s%s%s", (int)(at - t), t, tag, at + 5);
}

bool cd_mail_tag_from_address(const char *address, char out[CD_MAIL_TAG_LEN + 1])
{
    const char *t = cd_mail_settings_get()->cfg ? cd_mail_settings_get()->cfg->mail_reply_to : "";
    const char *at = strstr(t, "{tag}");
    if (!at)
        return false;
    size_t pre = (size_t)(at - t), post = strlen(at + 5), len = strlen(address);
    if (len != pre + CD_MAIL_TAG_LEN + post || strncasecmp(address, t, pre) != 0 ||
        strcasecmp(address + pre + CD_MAIL_TAG_LEN, at + 5) != 0)
        return false;
    for (int i = 0; i < CD_MAIL_TAG_LEN; i++) {
        char c = (char)tolower((unsigned char)address[pre + (size_t)i]);
        if (!isxdigit((unsigned char)c))
            return false;
        out[i] = c;
    }
    out[CD_MAIL_TAG_LEN] = 0;
    return true;
}
