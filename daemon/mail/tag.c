/*
 * tag.c — reply tags (tag.h).
 */
#include "tag.h"

#include <ctype.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <stdlib.h>
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

void cd_mail_tag(const char *game_id, int seat, int gen, char out[CD_MAIL_TAG_LEN + 1])
{
    char msg[80];
    int n = gen > 0 ? snprintf(msg, sizeof msg, "%s:%d:%d", game_id, seat, gen)
                    : snprintf(msg, sizeof msg, "%s:%d", game_id, seat);
    tag_of(msg, n, out);
}

void cd_mail_place_tag(const char *game_id, int place, char out[CD_MAIL_TAG_LEN + 1])
{
    char msg[64];   /* "place:" keeps it apart from every seat's tag of every game */
    int n = snprintf(msg, sizeof msg, "%s:place:%d", game_id, place);
    tag_of(msg, n, out);
}

/* Whether tag is want, compared in constant time. */
static bool same_tag(const char want[CD_MAIL_TAG_LEN + 1], const char *tag)
{
    return strlen(tag) == CD_MAIL_TAG_LEN && CRYPTO_memcmp(want, tag, CD_MAIL_TAG_LEN) == 0;
}

bool cd_mail_place_tag_ok(const char *game_id, int place, const char *tag)
{
    char want[CD_MAIL_TAG_LEN + 1];
    cd_mail_place_tag(game_id, place, want);
    return same_tag(want, tag);
}

void cd_mail_unsub_token(const char *game_id, const char *reply_tag, char out[CD_MAIL_UNSUB_LEN + 1])
{
    char msg[64];   /* "unsubscribe:" keeps it apart from every reply tag, which are over "game:..." */
    int n = snprintf(msg, sizeof msg, "unsubscribe:%s", reply_tag);
    char mac[CD_MAIL_TAG_LEN + 1];
    tag_of(msg, n, mac);
    snprintf(out, CD_MAIL_UNSUB_LEN + 1, "%.36s.%s", game_id, mac);
}

bool cd_mail_unsub_token_ok(const char *token, const char *reply_tag)
{
    char want[CD_MAIL_UNSUB_LEN + 1];
    cd_mail_unsub_token(token, reply_tag, want);   /* its game id is the token's own: the MAC decides */
    return strlen(token) == CD_MAIL_UNSUB_LEN && CRYPTO_memcmp(want, token, CD_MAIL_UNSUB_LEN) == 0;
}

void cd_mail_unsub_url(const char *public_url, const char *game_id, const char *reply_tag, char *out, size_t n)
{
    char token[CD_MAIL_UNSUB_LEN + 1];
    cd_mail_unsub_token(game_id, reply_tag, token);
    snprintf(out, n, "%s/v1/mail/unsubscribe/%s", public_url, token);
}

/* The address a template ("play+{tag}@example.org") makes of tag; "" when the template has no {tag}. */
static void address_of(const char *t, const char *tag, char *out, size_t n)
{
    const char *at = strstr(t, "{tag}");
    if (!at) {
        snprintf(out, n, "%s", "");
        return;
    }
    snprintf(out, n, "%.*s%s%s", (int)(at - t), t, tag, at + 5);
}

/* The tag in an address the template made, or false. */
static bool tag_of_address(const char *t, const char *address, char out[CD_MAIL_TAG_LEN + 1])
{
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

static const char *reply_template(void)
{
    return cd_mail_settings_get()->cfg ? cd_mail_settings_get()->cfg->mail_reply_to : "";
}

static const char *return_path_template(void)
{
    return cd_mail_settings_get()->cfg ? cd_mail_settings_get()->cfg->mail_return_path : "";
}

void cd_mail_reply_address(const char *tag, char *out, size_t n)
{
    address_of(reply_template(), tag, out, n);
}

bool cd_mail_tag_from_address(const char *address, char out[CD_MAIL_TAG_LEN + 1])
{
    return tag_of_address(reply_template(), address, out);
}

/* The bounce tag's HMAC half: over "bounce:<id>", its first 6 bytes in hex. */
static void bounce_mac(long long id, char out[CD_MAIL_TAG_LEN / 2 + 1])
{
    char msg[48], full[CD_MAIL_TAG_LEN + 1];
    int n = snprintf(msg, sizeof msg, "bounce:%lld", id);
    tag_of(msg, n, full);
    memcpy(out, full, CD_MAIL_TAG_LEN / 2);
    out[CD_MAIL_TAG_LEN / 2] = 0;
}

void cd_mail_bounce_tag(long long outbox_id, char out[CD_MAIL_TAG_LEN + 1])
{
    char mac[CD_MAIL_TAG_LEN / 2 + 1];
    bounce_mac(outbox_id, mac);
    snprintf(out, CD_MAIL_TAG_LEN + 1, "%012llx%s", (unsigned long long)outbox_id & 0xffffffffffffULL, mac);
}

bool cd_mail_bounce_tag_id(const char *tag, long long *outbox_id)
{
    if (strlen(tag) != CD_MAIL_TAG_LEN)
        return false;
    char hex[13], mac[CD_MAIL_TAG_LEN / 2 + 1];
    memcpy(hex, tag, 12);
    hex[12] = 0;
    long long id = (long long)strtoull(hex, NULL, 16);
    bounce_mac(id, mac);
    if (CRYPTO_memcmp(mac, tag + 12, CD_MAIL_TAG_LEN / 2) != 0)
        return false;
    *outbox_id = id;
    return true;
}

void cd_mail_return_path(long long outbox_id, char *out, size_t n)
{
    char tag[CD_MAIL_TAG_LEN + 1];
    cd_mail_bounce_tag(outbox_id, tag);
    address_of(return_path_template(), tag, out, n);
}

bool cd_mail_bounce_tag_from_address(const char *address, char out[CD_MAIL_TAG_LEN + 1])
{
    return tag_of_address(return_path_template(), address, out);
}
