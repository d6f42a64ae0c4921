/*
 * webhooks.c — the process's webhook settings, endpoint specs, secrets and Standard Webhooks signatures,
 * and players[].webhook (webhooks.h).
 */
#include "webhooks.h"

#include <curl/curl.h>
#include <errno.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/crypto.h"

static const char *const event_names[CD_WH_NEVENTS] = {"turn.started",  "move.made",      "game.finished",
                                                       "turn.reminder", "message.posted", "player.joined",
                                                       "game.expiring", "game.kept_open", "player.left"};
static const char *const format_names[CD_WH_NFORMATS] = {"json", "discord", "slack"};

const char *cd_wh_event_name(unsigned ev)
{
    for (int i = 0; i < CD_WH_NEVENTS; i++)
        if (ev == 1u << i)
            return event_names[i];
    return NULL;
}

unsigned cd_wh_event_parse(const char *name)
{
    for (int i = 0; i < CD_WH_NEVENTS; i++)
        if (strcmp(name, event_names[i]) == 0)
            return 1u << i;
    return 0;
}

const char *cd_wh_format_name(int f)
{
    return f >= 0 && f < CD_WH_NFORMATS ? format_names[f] : "json";
}

int cd_wh_format_parse(const char *name)
{
    for (int i = 0; i < CD_WH_NFORMATS; i++)
        if (strcmp(name, format_names[i]) == 0)
            return i;
    return -1;
}

/* ---- settings ------------------------------------------------------------------------------------------ */
static cd_wh_settings settings;
static pthread_once_t settings_once = PTHREAD_ONCE_INIT;

static void settings_defaults(void)
{
    char err[200];
    memset(&settings, 0, sizeof settings);
    settings.nbackoff = cd_wh_backoff_parse(CD_WEBHOOK_BACKOFF_DEFAULT, settings.backoff,
                                            CD_WH_MAX_BACKOFF, err, sizeof err);
    settings.timeout_s = 15;
    settings.connect_s = 5;
    settings.concurrency = 32;
    curl_global_init(CURL_GLOBAL_DEFAULT);
}

const cd_wh_settings *cd_webhooks_settings(void)
{
    pthread_once(&settings_once, settings_defaults);
    return &settings;
}

int cd_wh_backoff_parse(const char *s, double *out, int max, char *err, size_t errlen)
{
    int n = 0;
    const char *p = s;
    while (*p) {
        char *end;
        errno = 0;
        double v = strtod(p, &end);
        if (end == p || errno || !(v >= 0 && v <= 7 * 86400.0) || (*end && *end != ',') || (*end == ',' && !end[1])) {
            snprintf(err, errlen, "expected seconds (0 to 604800) separated by commas, got \"%s\"", s);
            return -1;
        }
        if (n == max) {
            snprintf(err, errlen, "at most %d attempts", max);
            return -1;
        }
        out[n++] = v;
        p = *end ? end + 1 : end;
    }
    if (n == 0) {
        snprintf(err, errlen, "at least one delay (0: at once)");
        return -1;
    }
    return n;
}

int cd_webhooks_configure(const cd_config *cfg, char *err, size_t errlen)
{
    pthread_once(&settings_once, settings_defaults);
    char why[300];
    cd_wh_settings s = settings;
    if (cd_netguard_parse(&s.guard, cfg->webhook_allow, why, sizeof why) != 0) {
        snprintf(err, errlen, "CARCD_WEBHOOK_ALLOW: %s", why);
        return -1;
    }
    s.nbackoff = cd_wh_backoff_parse(cfg->webhook_backoff, s.backoff, CD_WH_MAX_BACKOFF, why, sizeof why);
    if (s.nbackoff < 0) {
        snprintf(err, errlen, "CARCD_WEBHOOK_BACKOFF: %s", why);
        return -1;
    }
    size_t n = strlen(cfg->public_url);
    while (n > 0 && cfg->public_url[n - 1] == '/')
        n--;
    if (n > 0 && strncmp(cfg->public_url, "http://", 7) != 0 && strncmp(cfg->public_url, "https://", 8) != 0) {
        snprintf(err, errlen, "CARCD_PUBLIC_URL: expected http://... or https://..., got \"%s\"", cfg->public_url);
        return -1;
    }
    snprintf(s.public_url, sizeof s.public_url, "%.*s", (int)n, cfg->public_url);
    s.timeout_s = cfg->webhook_timeout_s;
    s.connect_s = cfg->webhook_connect_s < cfg->webhook_timeout_s ? cfg->webhook_connect_s : cfg->webhook_timeout_s;
    s.concurrency = cfg->webhook_concurrency;
    settings = s;
    return 0;
}

/* ---- endpoints ----------------------------------------------------------------------------------------- */
json_t *cd_wh_events_json(unsigned events)
{
    json_t *a = json_array();
    for (int i = 0; i < CD_WH_NEVENTS; i++)
        if (events & (1u << i))
            json_array_append_new(a, json_string(event_names[i]));
    return a;
}

void cd_wh_events_pg(unsigned events, char *out, size_t len)
{
    size_t k = (size_t)snprintf(out, len, "{");
    for (int i = 0; i < CD_WH_NEVENTS && k < len; i++)
        if (events & (1u << i))
            k += (size_t)snprintf(out + k, len - k, "%s%s", k > 1 ? "," : "", event_names[i]);
    if (k < len)
        snprintf(out + k, len - k, "}");
}

unsigned cd_wh_events_from_pg(const char *text)
{
    unsigned bits = 0;
    for (int i = 0; i < CD_WH_NEVENTS; i++) {
        size_t n = strlen(event_names[i]);
        for (const char *p = strstr(text, event_names[i]); p; p = strstr(p + 1, event_names[i]))
            if ((p == text || p[-1] == '{' || p[-1] == ',') && (p[n] == ',' || p[n] == '}' || p[n] == 0))
                bits |= 1u << i;
    }
    return bits;
}

static bool field_error(cd_wh_error *err, const char *where, const char *key, const char *detail)
{
    snprintf(err->field, sizeof err->field, "%s%s", where, key);
    snprintf(err->detail, sizeof err->detail, "%s%s", where, detail);
    return false;
}

bool cd_wh_spec_parse(const json_t *j, const char *where, unsigned default_events, cd_wh_spec *out,
                      cd_wh_error *err)
{
    memset(out, 0, sizeof *out);
    if (!json_is_object(j)) {
        size_t n = strlen(where);
        snprintf(err->field, sizeof err->field, "%.*s", (int)(n > 0 && where[n - 1] == '.' ? n - 1 : n), where);
        snprintf(err->detail, sizeof err->detail, "%s: expected an object {\"url\", \"format\"}",
                 err->field[0] ? err->field : "the body");
        return false;
    }
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)j, key, v) {
        if (strcmp(key, "url") != 0 && strcmp(key, "format") != 0 && strcmp(key, "events") != 0) {
            char detail[160];
            snprintf(detail, sizeof detail, "%s: unknown field", key);
            return field_error(err, where, key, detail);
        }
    }
    const json_t *url = json_object_get(j, "url");
    if (!json_is_string(url))
        return field_error(err, where, "url", "url: expected an http or https URL");
    snprintf(out->url, sizeof out->url, "%s", json_string_value(url));
    if (strlen(json_string_value(url)) > CD_WEBHOOK_URL_MAX)
        return field_error(err, where, "url", "url: longer than 2000 characters");
    const json_t *fmt = json_object_get(j, "format");
    out->format = CD_WH_JSON;
    if (fmt && (!json_is_string(fmt) || (out->format = cd_wh_format_parse(json_string_value(fmt))) < 0))
        return field_error(err, where, "format", "format: expected \"json\", \"discord\" or \"slack\"");
    const json_t *evs = json_object_get(j, "events");
    out->events = default_events;
    if (evs) {
        if (!json_is_array(evs) || json_array_size(evs) == 0)
            return field_error(err, where, "events",
                               "events: expected a non-empty array of turn.started, move.made, game.finished, "
                               "turn.reminder, message.posted, player.joined, game.expiring, game.kept_open, "
                               "player.left");
        out->events = 0;
        size_t i;
        json_t *e;
        json_array_foreach(evs, i, e) {
            unsigned bit = json_is_string(e) ? cd_wh_event_parse(json_string_value(e)) : 0;
            if (!bit || (out->events & bit))
                return field_error(err, where, "events",
                                   "events: each one of turn.started, move.made, game.finished, turn.reminder, "
                                   "message.posted, player.joined, game.expiring, game.kept_open, player.left, "
                                   "once");
            out->events |= bit;
        }
    }
    char msg[400];
    if (cd_netguard_check_url(&cd_webhooks_settings()->guard, out->url, msg, sizeof msg) != 0)
        return field_error(err, where, "url", msg);
    return true;
}

/* ---- secrets and signatures ------------------------------------------------------------------------------ */
void cd_wh_secret_new(char out[CD_WH_SECRET_LEN + 1])
{
    uint8_t raw[CD_WH_SECRET_BYTES];
    cd_random_bytes(raw, sizeof raw);
    memcpy(out, "whsec_", 6);
    EVP_EncodeBlock((unsigned char *)out + 6, raw, sizeof raw);   /* 44 characters and a NUL */
    OPENSSL_cleanse(raw, sizeof raw);
}

void cd_wh_msg_id_new(char out[CD_WH_MSGID_LEN + 1])
{
    static const char b32[] = "abcdefghijklmnopqrstuvwxyz234567";
    uint8_t raw[16];
    cd_random_bytes(raw, sizeof raw);
    memcpy(out, "msg_", 4);
    unsigned acc = 0, bits = 0;
    int k = 4;
    for (size_t i = 0; i < sizeof raw; i++) {
        acc = (acc << 8) | raw[i];
        bits += 8;
        while (bits >= 5) {
            out[k++] = b32[(acc >> (bits - 5)) & 31];
            bits -= 5;
        }
    }
    if (bits > 0)
        out[k++] = b32[(acc << (5 - bits)) & 31];
    out[k] = 0;
}

int cd_wh_sign(const char *secret, const char *msg_id, long long timestamp, const char *body, size_t len,
               char out[CD_WH_SIG_LEN + 1])
{
    out[0] = 0;
    if (strncmp(secret, "whsec_", 6) != 0)
        return -1;
    const char *b64 = secret + 6;
    size_t n = strlen(b64);
    if (n == 0 || n % 4 != 0 || n > 88)
        return -1;
    unsigned char key[66];
    int klen = EVP_DecodeBlock(key, (const unsigned char *)b64, (int)n);
    if (klen < 0)
        return -1;
    /* EVP_DecodeBlock counts the padding as zero bytes */
    klen -= (b64[n - 1] == '=') + (b64[n - 2] == '=');
    char head[160];
    int hl = snprintf(head, sizeof head, "%s.%lld.", msg_id, timestamp);
    if (hl < 0 || (size_t)hl >= sizeof head) {
        OPENSSL_cleanse(key, sizeof key);
        return -1;
    }
    unsigned char *content = malloc((size_t)hl + len);
    if (!content)
        abort();
    memcpy(content, head, (size_t)hl);
    memcpy(content + hl, body, len);
    unsigned char mac[32];
    unsigned int maclen = 0;
    const unsigned char *ok = HMAC(EVP_sha256(), key, klen, content, (size_t)hl + len, mac, &maclen);
    OPENSSL_cleanse(key, sizeof key);
    free(content);
    if (!ok || maclen != 32)
        return -1;
    memcpy(out, "v1,", 3);
    EVP_EncodeBlock((unsigned char *)out + 3, mac, 32);
    return 0;
}

/* ---- players[].webhook ------------------------------------------------------------------------------------ */
bool cd_player_hooks_parse(const json_t *players, cd_player_hooks *h, cd_wh_error *err)
{
    memset(h, 0, sizeof *h);
    size_t i;
    json_t *p;
    json_array_foreach(players, i, p) {
        if (i >= CARC_MAX_PLAYERS)
            break;
        h->nplayers = (int)i + 1;
        const json_t *hook = json_object_get(p, "webhook");
        if (!hook || json_is_null(hook))
            continue;
        char where[40];
        snprintf(where, sizeof where, "players[%zu].webhook.", i);
        if (!cd_wh_spec_parse(hook, where, CD_WH_PLAYER_EVENTS, &h->spec[i], err))
            return false;
        h->has[i] = true;
        cd_wh_secret_new(h->secret[i]);
    }
    return true;
}

void cd_player_hooks_answer(const cd_player_hooks *h, json_t *answer)
{
    json_t *players = json_object_get(answer, "players");
    for (int i = 0; i < h->nplayers; i++) {
        json_t *p = json_array_get(players, (size_t)i);
        if (!h->has[i] || !p)
            continue;
        json_object_set_new(p, "webhook",
                            json_pack("{s:s, s:s, s:s, s:s, s:o}", "id", h->id[i], "secret", h->secret[i], "url",
                                      h->spec[i].url, "format", cd_wh_format_name(h->spec[i].format), "events",
                                      cd_wh_events_json(h->spec[i].events)));
    }
}
