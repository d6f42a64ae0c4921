/*
 * mail.c — the mail settings (mail.h).
 */
#include "mail.h"

#include <curl/curl.h>
#include <gmime/gmime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "address.h"

static cd_mail_settings S;

/* An address template (CARCD_MAIL_REPLY_TO, CARCD_MAIL_RETURN_PATH): unset, or an address with {tag}, whose tags
 * need the key. false with err otherwise. */
static bool template_ok(const cd_config *cfg, const char *value, const char *name, const char *example, char *err,
                        size_t errlen)
{
    if (!value[0])
        return true;
    if (!strstr(value, "{tag}") || !strchr(value, '@')) {
        snprintf(err, errlen, "%s: expected an address with {tag}, e.g. %s", name, example);
        return false;
    }
    if (strlen(cfg->mail_secret) < 16) {
        snprintf(err, errlen, "%s needs CARCD_MAIL_SECRET (16 characters or more): the tags' key", name);
        return false;
    }
    return true;
}

int cd_mail_configure(const cd_config *cfg, char *err, size_t errlen)
{
    memset(&S, 0, sizeof S);
    S.cfg = cfg;
    S.enabled = cfg->smtp_url[0] != 0;
    /* refused at start: libcurl reads a URL without a scheme as http:// and would PUT the mail, private links
     * and all, to whatever listens there */
    if (S.enabled && strncasecmp(cfg->smtp_url, "smtp://", 7) != 0 && strncasecmp(cfg->smtp_url, "smtps://", 8) != 0) {
        snprintf(err, errlen, "CARCD_SMTP_URL: expected smtp://host[:port] or smtps://host[:port], not \"%s\"",
                 cfg->smtp_url);
        return -1;
    }
    /* every mail carries an unsubscribe link whose tag is an HMAC under this key (mail/tag.h): with none, anyone who
     * knows a game's id could make the tag and stop a seat's mail */
    if (S.enabled && strlen(cfg->mail_secret) < 16) {
        snprintf(err, errlen, "CARCD_SMTP_URL needs CARCD_MAIL_SECRET (16 characters or more, the same for every carcd "
                              "of a database): the key of the tags in the mail's unsubscribe links and reply addresses");
        return -1;
    }
    /* and every mail links to the seat's page and to that unsubscribe page: a mail without them could not be
     * stopped but by a reply */
    if (S.enabled && strncasecmp(cfg->public_url, "http://", 7) != 0 && strncasecmp(cfg->public_url, "https://", 8) != 0) {
        snprintf(err, errlen, "CARCD_SMTP_URL needs CARCD_PUBLIC_URL (http:// or https://, where people reach this "
                              "server): the address of the links in every mail (the seat's page, unsubscribe)");
        return -1;
    }
    if (S.enabled && !cd_mail_address_ok(cfg->mail_from)) {
        snprintf(err, errlen, "CARCD_MAIL_FROM: expected an address (name@example.org), not \"%s\"", cfg->mail_from);
        return -1;
    }
    g_mime_init();
    const char *at = strrchr(cfg->mail_from, '@');
    snprintf(S.domain, sizeof S.domain, "%s", at && at[1] ? at + 1 : "localhost");
    S.domain[strcspn(S.domain, "> ")] = 0;
    const char *p = cfg->mail_backoff;
    while (*p) {
        char *end;
        double v = strtod(p, &end);
        if (end == p || v < 0 || v > 7 * 86400.0 || S.nbackoff == CD_MAIL_MAX_BACKOFF) {
            snprintf(err, errlen, "CARCD_MAIL_BACKOFF: expected up to %d comma-separated seconds",
                     CD_MAIL_MAX_BACKOFF);
            return -1;
        }
        S.backoff[S.nbackoff++] = v;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') {
            snprintf(err, errlen, "CARCD_MAIL_BACKOFF: unexpected \"%s\"", end);
            return -1;
        }
    }
    if (!template_ok(cfg, cfg->mail_reply_to, "CARCD_MAIL_REPLY_TO", "play+{tag}@example.org", err, errlen) ||
        !template_ok(cfg, cfg->mail_return_path, "CARCD_MAIL_RETURN_PATH", "play+b{tag}@example.org", err, errlen))
        return -1;
    return 0;
}

const cd_mail_settings *cd_mail_settings_get(void)
{
    return &S;
}

long cd_mail_use_ssl(const char *url)
{
    CURLU *u = curl_url();
    char *host = NULL;
    bool loopback = false;
    if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK && host)
        loopback = strcmp(host, "localhost") == 0 || strncmp(host, "127.", 4) == 0 || strcmp(host, "[::1]") == 0;
    curl_free(host);
    curl_url_cleanup(u);
    return loopback ? (long)CURLUSESSL_TRY : (long)CURLUSESSL_ALL;
}
