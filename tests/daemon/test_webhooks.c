/*
 * test_webhooks.c — the pure parts of the webhooks, without a database or a network: the address guard
 * (netguard.h), URL checks on literal addresses, Standard Webhooks signatures (a published test vector and a
 * round trip through our own secrets), message ids, the retry schedule's parser, event sets, and the bodies
 * of the chat formats (escaping, mentions off) and the json format.
 */
#include <arpa/inet.h>
#include <check.h>
#include <jansson.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "webhooks/netguard.h"
#include "webhooks/webhooks.h"
#include "webhooks/whpayload.h"

static bool allows(const cd_netguard *g, const char *addr)
{
    struct sockaddr_storage ss = {0};
    if (strchr(addr, ':')) {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
        a->sin6_family = AF_INET6;
        ck_assert_int_eq(inet_pton(AF_INET6, addr, &a->sin6_addr), 1);
    } else {
        struct sockaddr_in *a = (struct sockaddr_in *)&ss;
        a->sin_family = AF_INET;
        ck_assert_int_eq(inet_pton(AF_INET, addr, &a->sin_addr), 1);
    }
    char why[200];
    return cd_netguard_allows(g, (struct sockaddr *)&ss, why, sizeof why);
}

START_TEST(guard_refuses_what_is_not_public)
{
    cd_netguard g;
    char err[200];
    ck_assert_int_eq(cd_netguard_parse(&g, "", err, sizeof err), 0);
    const char *refused[] = {"127.0.0.1", "127.255.0.9", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1",
                             "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255",
                             "198.18.0.1", "192.0.2.7", "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1",
                             "::ffff:127.0.0.1", "::ffff:10.0.0.1", "64:ff9b::a00:1", "2002:a00:1::1", "2001:db8::1",
                             "::127.0.0.1", "100::1", NULL};
    for (int i = 0; refused[i]; i++)
        ck_assert_msg(!allows(&g, refused[i]), "%s allowed", refused[i]);
    const char *allowed[] = {"1.1.1.1", "8.8.8.8", "172.32.0.1", "100.128.0.1", "93.184.216.34", "2606:4700::1111",
                             "::ffff:1.1.1.1", "64:ff9b::101:101", "2002:101:101::1", NULL};
    for (int i = 0; allowed[i]; i++)
        ck_assert_msg(allows(&g, allowed[i]), "%s refused", allowed[i]);
    char why[200];
    struct sockaddr sa = {.sa_family = AF_UNIX};
    ck_assert(!cd_netguard_allows(&g, &sa, why, sizeof why));
}
END_TEST

START_TEST(guard_allowlist_opens_ranges)
{
    cd_netguard g;
    char err[200];
    ck_assert_int_eq(cd_netguard_parse(&g, "127.0.0.1/32, 10.0.0.0/8,fd00::/8", err, sizeof err), 0);
    ck_assert_int_eq(g.n, 3);
    ck_assert(allows(&g, "127.0.0.1"));
    ck_assert(allows(&g, "::ffff:127.0.0.1"));
    ck_assert(!allows(&g, "127.0.0.2"));
    ck_assert(allows(&g, "10.200.3.4"));
    ck_assert(allows(&g, "fd00::5"));
    ck_assert(!allows(&g, "fc00::5"));
    ck_assert(!allows(&g, "::1"));
    ck_assert(!allows(&g, "192.168.0.1"));
    ck_assert_int_eq(cd_netguard_parse(&g, "::1", err, sizeof err), 0);
    ck_assert(allows(&g, "::1"));
    const char *bad[] = {"10.0.0.1/8", "10.0.0.0/33", "::/129", "localhost", "1.2.3", "10.0.0.0/", "10.0.0.0/x", NULL};
    for (int i = 0; bad[i]; i++)
        ck_assert_msg(cd_netguard_parse(&g, bad[i], err, sizeof err) != 0, "%s parsed", bad[i]);
}
END_TEST

START_TEST(url_checks)
{
    cd_netguard none, local;
    char err[200], msg[400];
    ck_assert_int_eq(cd_netguard_parse(&none, "", err, sizeof err), 0);
    ck_assert_int_eq(cd_netguard_parse(&local, "127.0.0.1/32,::1/128", err, sizeof err), 0);
    ck_assert_int_eq(cd_netguard_check_url(&none, "https://1.1.1.1/hook?x=1", msg, sizeof msg), 0);
    ck_assert_int_eq(cd_netguard_check_url(&none, "http://[2606:4700::1111]:8080/h", msg, sizeof msg), 0);
    ck_assert_int_eq(cd_netguard_check_url(&none, "http://127.0.0.1:9/h", msg, sizeof msg), -1);
    ck_assert_msg(strstr(msg, "loopback") && strstr(msg, "CARCD_WEBHOOK_ALLOW"), "%s", msg);
    ck_assert_int_eq(cd_netguard_check_url(&local, "http://127.0.0.1:9/h", msg, sizeof msg), 0);
    ck_assert_int_eq(cd_netguard_check_url(&none, "http://[::1]/h", msg, sizeof msg), -1);
    ck_assert_int_eq(cd_netguard_check_url(&none, "http://169.254.169.254/latest/meta-data", msg, sizeof msg), -1);
    ck_assert_int_eq(cd_netguard_check_url(&none, "http://0x7f000001/h", msg, sizeof msg), -1);
    ck_assert_int_eq(cd_netguard_check_url(&none, "http://2130706433/h", msg, sizeof msg), -1);
    const char *bad[] = {"ftp://1.1.1.1/x", "file:///etc/passwd", "gopher://1.1.1.1/", "1.1.1.1/x", "http://",
                         "https://1.1.1.1/a#frag", "http://1.1.1.1/a b", "", NULL};
    for (int i = 0; bad[i]; i++) {
        ck_assert_msg(cd_netguard_check_url(&local, bad[i], msg, sizeof msg) == -1, "%s accepted", bad[i]);
        ck_assert_msg(strncmp(msg, "url: ", 5) == 0, "message: %s", msg);
    }
    char *longurl = malloc(CD_WEBHOOK_URL_MAX + 40);
    snprintf(longurl, CD_WEBHOOK_URL_MAX + 40, "https://1.1.1.1/%0*d", CD_WEBHOOK_URL_MAX, 0);
    ck_assert_int_eq(cd_netguard_check_url(&none, longurl, msg, sizeof msg), -1);
    free(longurl);
}
END_TEST

START_TEST(signature_test_vector)
{
    /* the example of the Standard Webhooks / Svix documentation */
    char sig[CD_WH_SIG_LEN + 1];
    const char *body = "{\"test\": 2432232314}";
    ck_assert_int_eq(cd_wh_sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330,
                                body, strlen(body), sig),
                     0);
    ck_assert_str_eq(sig, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    ck_assert_int_eq(cd_wh_sign("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "m", 1, "x", 1, sig), -1);
    ck_assert_int_eq(cd_wh_sign("whsec_", "m", 1, "x", 1, sig), -1);
    ck_assert_int_eq(cd_wh_sign("whsec_abc", "m", 1, "x", 1, sig), -1);
}
END_TEST

START_TEST(secrets_sign_as_a_verifier_expects)
{
    for (int round = 0; round < 20; round++) {
        char secret[CD_WH_SECRET_LEN + 1], sig[CD_WH_SIG_LEN + 1], id[CD_WH_MSGID_LEN + 1];
        cd_wh_secret_new(secret);
        cd_wh_msg_id_new(id);
        ck_assert_int_eq(strlen(secret), CD_WH_SECRET_LEN);
        ck_assert(strncmp(secret, "whsec_", 6) == 0);
        ck_assert_int_eq(strlen(id), CD_WH_MSGID_LEN);
        ck_assert(strncmp(id, "msg_", 4) == 0 && strspn(id + 4, "abcdefghijklmnopqrstuvwxyz234567") == 26);
        /* the verifier's way: decode the base64 after whsec_, HMAC "<id>.<ts>.<body>" */
        unsigned char key[64];
        int klen = EVP_DecodeBlock(key, (const unsigned char *)secret + 6, 44);
        ck_assert_int_eq(klen, 33);   /* 32 bytes and one padding byte */
        const char *body = "{\"type\":\"turn.started\"}";
        char content[200];
        int n = snprintf(content, sizeof content, "%s.%d.%s", id, 1700000000 + round, body);
        unsigned char mac[32];
        unsigned int maclen = 0;
        HMAC(EVP_sha256(), key, 32, (unsigned char *)content, (size_t)n, mac, &maclen);
        char want[CD_WH_SIG_LEN + 1] = "v1,";
        EVP_EncodeBlock((unsigned char *)want + 3, mac, 32);
        ck_assert_int_eq(cd_wh_sign(secret, id, 1700000000 + round, body, strlen(body), sig), 0);
        ck_assert_str_eq(sig, want);
    }
}
END_TEST

START_TEST(backoff_and_events)
{
    double d[CD_WH_MAX_BACKOFF];
    char err[200];
    ck_assert_int_eq(cd_wh_backoff_parse(CD_WEBHOOK_BACKOFF_DEFAULT, d, CD_WH_MAX_BACKOFF, err, sizeof err), 8);
    ck_assert(d[0] == 0 && d[1] == 5 && d[7] == 86400);
    ck_assert_int_eq(cd_wh_backoff_parse("0,1,1", d, CD_WH_MAX_BACKOFF, err, sizeof err), 3);
    ck_assert_int_eq(cd_wh_backoff_parse("0.5", d, CD_WH_MAX_BACKOFF, err, sizeof err), 1);
    const char *bad[] = {"", "x", "1,,2", "-1", "1,", "999999999", "nan", "inf", NULL};
    for (int i = 0; bad[i]; i++)
        ck_assert_msg(cd_wh_backoff_parse(bad[i], d, CD_WH_MAX_BACKOFF, err, sizeof err) < 0, "'%s' parsed", bad[i]);
    char pg[CD_WH_EVENTS_PG_LEN];
    for (unsigned ev = 1; ev <= CD_WH_ALL_EVENTS; ev++) {
        cd_wh_events_pg(ev, pg, sizeof pg);
        ck_assert_uint_eq(cd_wh_events_from_pg(pg), ev);
        ck_assert_uint_eq(cd_wh_events_from_pg(pg + 1), ev);   /* without the braces too */
    }
    ck_assert_uint_eq(cd_wh_events_from_pg("{move.made.x,turn.started}"), CD_WH_TURN_STARTED);
    ck_assert_uint_eq(cd_wh_event_parse("game.finished"), CD_WH_GAME_FINISHED);
    ck_assert_uint_eq(cd_wh_event_parse("game"), 0);
    ck_assert_int_eq(cd_wh_format_parse("slack"), CD_WH_SLACK);
    ck_assert_int_eq(cd_wh_format_parse("teams"), -1);
}
END_TEST

/* A context as outbox.c builds it, from hand-written public JSON. */
static cd_whp_ctx ctx_of(json_t *names, json_t *view, json_t *events)
{
    return (cd_whp_ctx){.game_id = "0123abcd-0000-4000-8000-000000000000", .seq = 7, .names = names, .view = view,
                        .events = events, .seat = 0, .seed = "ab", .seed_sha256 = "cd",
                        .timestamp = "2030-01-01T00:00:00.000Z", .base_url = "https://carc.example"};
}

START_TEST(chat_texts_are_inert)
{
    json_t *names = json_pack("[s, s]", "@everyone *Ann*", "<!channel> & Bob");
    json_t *view = json_loads("{\"status\":\"active\",\"pending\":{\"kind\":\"place\",\"seat\":1,\"tile\":\"U\"},"
                              "\"players\":[{\"seat\":0,\"score\":3},{\"seat\":1,\"score\":5}]}",
                              0, NULL);
    json_t *events = json_loads("[{\"type\":\"piece_placed\",\"seat\":0,\"tile\":\"D\",\"x\":1,\"y\":0,\"rot\":0},"
                                "{\"type\":\"score\",\"seats\":[0,1],\"points\":4,\"feature\":\"city\","
                                "\"reason\":\"completed\",\"spaces\":[]}]",
                                0, NULL);
    cd_whp_ctx c = ctx_of(names, view, events);

    char *b = cd_whp_render(CD_WH_TURN_STARTED, CD_WH_SLACK, &c);
    json_t *j = json_loads(b, 0, NULL);
    const char *text = json_string_value(json_object_get(j, "text"));
    ck_assert_msg(text && strstr(text, "&lt;!channel&gt; &amp; Bob") && !strstr(text, "<!channel>"), "%s", b);
    ck_assert_msg(strstr(text, "place tile U") && !strstr(text, "/legal-moves"), "%s", b);
    /* a browser's links: the game page and the board picture, not a JSON route that answers it 401 */
    ck_assert_msg(strstr(text, "https://carc.example/games/0123abcd-0000-4000-8000-000000000000 ") &&
                      strstr(text, "https://carc.example/v1/games/0123abcd-0000-4000-8000-000000000000/board.png?seq=7"),
                  "%s", b);
    ck_assert_int_eq(json_object_size(j), 1);
    json_decref(j);
    free(b);

    b = cd_whp_render(CD_WH_MOVE_MADE, CD_WH_DISCORD, &c);
    j = json_loads(b, 0, NULL);
    text = json_string_value(json_object_get(j, "content"));
    ck_assert_msg(text && strstr(text, "\\@everyone \\*Ann\\*") && strstr(text, "placed tile D at (1, 0)"), "%s", b);
    ck_assert_msg(strstr(text, "scored 4"), "%s", b);
    ck_assert(json_is_array(json_object_get(json_object_get(j, "allowed_mentions"), "parse")));
    ck_assert_int_eq(json_array_size(json_object_get(json_object_get(j, "allowed_mentions"), "parse")), 0);
    json_decref(j);
    free(b);

    b = cd_whp_render(CD_WH_TURN_STARTED, CD_WH_JSON, &c);
    j = json_loads(b, 0, NULL);
    ck_assert_str_eq(json_string_value(json_object_get(j, "type")), "turn.started");
    json_t *data = json_object_get(j, "data");
    ck_assert_int_eq(json_integer_value(json_object_get(data, "seat")), 1);
    ck_assert_str_eq(json_string_value(json_object_get(data, "player")), "<!channel> & Bob");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(data, "decision"), "kind")), "place");
    ck_assert(json_is_null(json_object_get(data, "deadline")));
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(data, "links"), "legal_moves")),
                     "https://carc.example/v1/games/0123abcd-0000-4000-8000-000000000000/legal-moves");
    json_decref(j);
    free(b);

    b = cd_whp_render(CD_WH_GAME_FINISHED, CD_WH_JSON, &c);
    j = json_loads(b, 0, NULL);
    data = json_object_get(j, "data");
    ck_assert_int_eq(json_array_size(json_object_get(data, "winners")), 1);
    ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(data, "winners"), 0)), 1);
    ck_assert_str_eq(json_string_value(json_object_get(data, "seed")), "ab");
    json_decref(j);
    free(b);
    json_decref(names);
    json_decref(view);
    json_decref(events);
}
END_TEST

/* The length of UTF-8 text in UTF-16 code units, as chat platforms count at most. */
static size_t u16len(const char *s)
{
    size_t k = 0;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        k += (c & 0xC0) == 0x80 ? 0 : c >= 0xF0 ? 2 : 1;
    }
    return k;
}

/* The chat text of a rendered body: Discord's content or Slack's text. */
static char *chat_of(unsigned ev, int format, const cd_whp_ctx *c)
{
    char *b = cd_whp_render(ev, format, c);
    json_t *j = json_loads(b, 0, NULL);   /* jansson refuses invalid UTF-8: a name cut mid-character fails here */
    ck_assert_msg(j != NULL, "not JSON (or not UTF-8): %.300s", b);
    char *t = strdup(json_string_value(json_object_get(j, format == CD_WH_DISCORD ? "content" : "text")));
    json_decref(j);
    free(b);
    return t;
}

/* Six seats with 64-character names (multi-byte, markup), a final move with every kind of line many times: each
 * chat text stays under its platform's cap, cuts names at a character boundary, says "…" for the lines it
 * dropped, keeps the links, and never prints the seed. */
START_TEST(chat_texts_fit_their_platform)
{
    json_t *names = json_array();
    for (int i = 0; i < 6; i++) {
        char n[200];
        if (i % 3 == 0)   /* "a" then 31 two-byte characters: a byte cut would end mid-character */
            snprintf(n, sizeof n, "a%s", "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                                         "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                                         "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                                         "\xc3\xa9");
        else if (i % 3 == 1)
            snprintf(n, sizeof n, "%d*b*_i_~s~`c`<@x>&%040d", i, 0);
        else   /* 64 characters of four bytes each: two UTF-16 units apiece */
            snprintf(n, sizeof n, "%s", "\xf0\x9f\x82\xa1\xf0\x9f\x82\xa2\xf0\x9f\x82\xa3\xf0\x9f\x82\xa4"
                                        "\xf0\x9f\x82\xa1\xf0\x9f\x82\xa2\xf0\x9f\x82\xa3\xf0\x9f\x82\xa4"
                                        "\xf0\x9f\x82\xa1\xf0\x9f\x82\xa2\xf0\x9f\x82\xa3\xf0\x9f\x82\xa4"
                                        "\xf0\x9f\x82\xa1\xf0\x9f\x82\xa2\xf0\x9f\x82\xa3\xf0\x9f\x82\xa4");
        json_array_append_new(names, json_string(n));
    }
    json_t *view = json_loads("{\"status\":\"finished\",\"pending\":{\"kind\":\"none\"},\"players\":[{\"score\":90},"
                              "{\"score\":91},{\"score\":91},{\"score\":12},{\"score\":0},{\"score\":91}]}",
                              0, NULL);
    json_t *events = json_array();
    for (int i = 0; i < 300; i++)
        json_array_append_new(events, json_pack("{s:s, s:[i,i,i,i,i,i], s:i, s:s, s:s}", "type", "score", "seats",
                                                0, 1, 2, 3, 4, 5, "points", i, "feature", "field", "reason",
                                                "final"));
    static const char seed[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    cd_whp_ctx c = {.game_id = "0123abcd-0000-4000-8000-000000000000", .seq = 77, .names = names, .view = view,
                    .events = events, .seat = 5, .seed = seed, .seed_sha256 = "cd",
                    .timestamp = "2030-01-01T00:00:00.000Z", .base_url = "https://carc.example"};
    static const unsigned evs[] = {CD_WH_MOVE_MADE, CD_WH_GAME_FINISHED};
    for (int f = 0; f < 2; f++) {
        int format = f ? CD_WH_SLACK : CD_WH_DISCORD;
        size_t cap = f ? 4000 : 2000;
        for (int k = 0; k < 2; k++) {
            char *t = chat_of(evs[k], format, &c);
            ck_assert_msg(u16len(t) <= cap, "%s text of %zu characters: over %zu", f ? "slack" : "discord", u16len(t),
                          cap);
            ck_assert_msg(!strstr(t, seed) && !strstr(t, "Seed"), "the seed is in the chat text: %.200s", t);
            ck_assert_msg(strstr(t, "https://carc.example/games/0123abcd-0000-4000-8000-000000000000") &&
                              strstr(t, "/board.png?seq=77"),
                          "no links at the end: %s", t + strlen(t) - (strlen(t) > 200 ? 200 : strlen(t)));
            ck_assert_msg(!strstr(t, "/legal-moves"), "%s", t);
            /* names cut to 23 characters and "…"; never the 24th "é" */
            ck_assert_msg(strstr(t, "a\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                                    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                                    "\xc3\xa9\xc3\xa9\xe2\x80\xa6"),
                          "the name is not cut at 23 characters + \"\xe2\x80\xa6\": %.300s", t);
            if (evs[k] == CD_WH_MOVE_MADE)   /* 300 lines cannot fit: the dropped ones are said */
                ck_assert_msg(strstr(t, "\n\xe2\x80\xa6\n"), "no \"\xe2\x80\xa6\" line for the lines dropped");
            else   /* the winners, every seat's score */
                ck_assert_msg(strstr(t, "Winners:") && strstr(t, ": 12\n"), "%s", t);
            if (format == CD_WH_SLACK) {
                ck_assert_msg(strstr(t, "\xe2\x80\x8b*\xe2\x80\x8b" "b\xe2\x80\x8b*\xe2\x80\x8b") &&
                                  strstr(t, "\xe2\x80\x8b_\xe2\x80\x8bi") && strstr(t, "\xe2\x80\x8b~\xe2\x80\x8bs") &&
                                  strstr(t, "&lt;@x&gt;&amp;"),
                              "a name's markup is live in slack: %.300s", t);
            } else {
                ck_assert_msg(strstr(t, "\\*b\\*\\_i\\_\\~s\\~\\`c\\`\\<\\@x\\>&"), "%.300s", t);
            }
            free(t);
        }
    }
    /* the json format keeps every name and line whole, and the seed */
    char *b = cd_whp_render(CD_WH_GAME_FINISHED, CD_WH_JSON, &c);
    ck_assert_msg(strstr(b, seed) != NULL, "the json format lost the seed");
    free(b);
    json_decref(names);
    json_decref(view);
    json_decref(events);
}
END_TEST


/* message.posted: 1 000 characters that all need escaping, on 1 000 lines or on one, stay under each
 * platform's limit, cut with "…", links kept; nothing of them is live markup; json keeps the text whole. */
START_TEST(message_texts_fit_and_are_inert)
{
    json_t *names = json_pack("[s, s]", "Ann", "*Bob*");
    static const char *const kinds[] = {"*", "&", "<", "\n", "\xf0\x9f\x82\xa1", "a"};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        char *text = malloc(4 * 1000 + 8);
        text[0] = 'x';   /* a text of line feeds only is not allowed; one visible character */
        size_t n = 1;
        for (int i = 1; i < 1000; i++) {
            size_t l = strlen(kinds[k]);
            memcpy(text + n, kinds[k], l);
            n += l;
        }
        text[n] = 0;
        cd_whp_ctx c = {.game_id = "0123abcd-0000-4000-8000-000000000000", .seq = 3, .names = names, .seat = 1,
                        .timestamp = "2030-01-01T00:00:00.000Z", .base_url = "https://carc.example",
                        .message_id = 42, .text = text};
        for (int f = 0; f < 2; f++) {
            int format = f ? CD_WH_SLACK : CD_WH_DISCORD;
            size_t cap = f ? 4000 : 2000;
            char *t = chat_of(CD_WH_MESSAGE_POSTED, format, &c);
            ck_assert_msg(u16len(t) <= cap, "%s: %zu units over %zu", kinds[k], u16len(t), cap);
            ck_assert_msg(strstr(t, "https://carc.example/games/0123abcd-0000-4000-8000-000000000000"), "no link: %s", t);
            ck_assert_msg(strstr(t, " wrote in game "), "%.200s", t);
            /* the message's lines: between the first line (who) and the last (the links) */
            const char *from = strchr(t, '\n'), *to = strrchr(t, '\n');
            ck_assert_msg(from && to && from < to, "%.200s", t);
            for (const char *p = from + 1; p < to; p++) {
                if (format == CD_WH_DISCORD && strchr("\\*_~`|>#[]()<@:", *p) && *p)
                    ck_assert_msg(p[-1] == '\\' || (*p == '\\' && p[1] && strchr("\\*_~`|>#[]()<@:-+", p[1])),
                                  "an unescaped %c in discord: %.300s", *p, from);
                if (format == CD_WH_SLACK) {
                    ck_assert_msg(*p != '<' && *p != '>', "a live %c in slack", *p);
                    if (*p == '&')
                        ck_assert_msg(!strncmp(p, "&amp;", 5) || !strncmp(p, "&lt;", 4) || !strncmp(p, "&gt;", 4),
                                      "a bare & in slack: %.40s", p);
                }
            }
            if (format == CD_WH_DISCORD)
                ck_assert_msg(strstr(t, "\\*Bob\\*"), "%.200s", t);
            char k0 = kinds[k][0];   /* escaped past what the cap leaves: 999 characters of 2 (discord), 4 or 5 units */
            if ((format == CD_WH_DISCORD && (k0 == '*' || k0 == '<')) || (format == CD_WH_SLACK && (k0 == '&' || k0 == '<')))
                ck_assert_msg(strstr(t, "\xe2\x80\xa6"), "a cut text ends in \xe2\x80\xa6");
            free(t);
        }
        char *b = cd_whp_render(CD_WH_MESSAGE_POSTED, CD_WH_JSON, &c);
        json_t *j = json_loads(b, 0, NULL);
        ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "data"), "text")), text);
        ck_assert_str_eq(json_string_value(json_object_get(j, "type")), "message.posted");
        ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(j, "data"), "id")), 42);
        json_decref(j);
        free(b);
        free(text);
    }
    json_decref(names);
}
END_TEST

/* game.expiring and game.kept_open: when, and who is at the table, the names inert in chat and whole in json. */
START_TEST(expiring_texts)
{
    json_t *names = json_pack("[s, s]", "@everyone *Ann*", "<!channel> & Bob");
    cd_whp_ctx c = {.game_id = "0123abcd-0000-4000-8000-000000000000", .seq = 0, .names = names, .seat = -1,
                    .timestamp = "2030-01-01T00:00:00.000Z", .base_url = "https://carc.example", .seats = 4,
                    .taken = 2, .expires_at = "2030-01-02T00:00:00.000Z", .since = "13 days"};
    char *t = chat_of(CD_WH_GAME_EXPIRING, CD_WH_DISCORD, &c);
    ck_assert_str_eq(t, "Game `0123abcd` is cancelled on 2030-01-02T00:00:00.000Z unless someone joins: nobody "
                        "joined it for 13 days; 2 of 4 seats taken (\\@everyone \\*Ann\\* and \\<!channel\\> & Bob), "
                        "2 open.\nGame: https://carc.example/games/0123abcd-0000-4000-8000-000000000000");
    free(t);
    t = chat_of(CD_WH_GAME_EXPIRING, CD_WH_SLACK, &c);
    ck_assert_msg(strstr(t, " and &lt;!channel&gt; &amp; Bob), 2 open.") && !strstr(t, "<!channel>"), "%s", t);
    free(t);
    char *b = cd_whp_render(CD_WH_GAME_EXPIRING, CD_WH_JSON, &c);
    json_t *j = json_loads(b, 0, NULL);
    ck_assert_str_eq(json_string_value(json_object_get(j, "type")), "game.expiring");
    json_t *data = json_object_get(j, "data");
    ck_assert_str_eq(json_string_value(json_object_get(data, "expires_at")), "2030-01-02T00:00:00.000Z");
    ck_assert(json_equal(json_object_get(data, "players"), names));
    ck_assert_int_eq(json_integer_value(json_object_get(data, "open")), 2);
    json_decref(j);
    free(b);
    c.since = NULL;   /* its creator kept it open after all */
    t = chat_of(CD_WH_GAME_KEPT_OPEN, CD_WH_DISCORD, &c);
    ck_assert_str_eq(t, "Game `0123abcd` is kept open by its creator until 2030-01-02T00:00:00.000Z: 2 of 4 seats "
                        "taken (\\@everyone \\*Ann\\* and \\<!channel\\> & Bob), 2 open.\nGame: "
                        "https://carc.example/games/0123abcd-0000-4000-8000-000000000000");
    free(t);
    b = cd_whp_render(CD_WH_GAME_KEPT_OPEN, CD_WH_JSON, &c);
    j = json_loads(b, 0, NULL);
    ck_assert_str_eq(json_string_value(json_object_get(j, "type")), "game.kept_open");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "data"), "expires_at")),
                     "2030-01-02T00:00:00.000Z");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "data"), "kept_by")), "creator");
    json_decref(j);
    free(b);
    c.kept_by_admin = true;
    t = chat_of(CD_WH_GAME_KEPT_OPEN, CD_WH_SLACK, &c);
    ck_assert_msg(strstr(t, " is kept open by the server's admin until 2030-01-02T00:00:00.000Z: "), "%s", t);
    free(t);
    json_decref(names);
}
END_TEST

/* player.left: who left, before the start, and the table as it is now, the names inert for each format. */
START_TEST(left_texts)
{
    json_t *names = json_pack("[s, s]", "Ann", "<!channel> & Cy");
    cd_whp_ctx c = {.game_id = "0123abcd-0000-4000-8000-000000000000", .seq = 0, .names = names, .seat = 1,
                    .timestamp = "2030-01-01T00:00:00.000Z", .base_url = "https://carc.example", .seats = 4,
                    .taken = 2, .left_name = "@here Bob"};
    char *t = chat_of(CD_WH_PLAYER_LEFT, CD_WH_DISCORD, &c);
    ck_assert_str_eq(t, "**\\@here Bob** left game `0123abcd` before it started: 2 of 4 seats taken (Ann and "
                        "\\<!channel\\> & Cy), 2 open.\nGame: https://carc.example/games/"
                        "0123abcd-0000-4000-8000-000000000000");
    free(t);
    t = chat_of(CD_WH_PLAYER_LEFT, CD_WH_SLACK, &c);
    ck_assert_msg(strstr(t, " left game ") && strstr(t, "(Ann and &lt;!channel&gt; &amp; Cy), 2 open.") &&
                      !strstr(t, "<!channel>"),
                  "%s", t);
    free(t);
    char *b = cd_whp_render(CD_WH_PLAYER_LEFT, CD_WH_JSON, &c);
    json_t *j = json_loads(b, 0, NULL);
    ck_assert_str_eq(json_string_value(json_object_get(j, "type")), "player.left");
    json_t *data = json_object_get(j, "data");
    ck_assert_str_eq(json_string_value(json_object_get(data, "player")), "@here Bob");
    ck_assert_int_eq(json_integer_value(json_object_get(data, "seat")), 1);
    ck_assert(json_equal(json_object_get(data, "players"), names));
    ck_assert_int_eq(json_integer_value(json_object_get(data, "taken")), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(data, "open")), 2);
    ck_assert(json_is_false(json_object_get(data, "removed")));
    json_decref(j);
    free(b);
    /* removed by the game's creator: said so in both forms */
    c.removed = true;
    t = chat_of(CD_WH_PLAYER_LEFT, CD_WH_DISCORD, &c);
    const char *want = "**\\@here Bob** was removed by its creator from game `0123abcd` before it started: 2 of 4 "
                       "seats taken (Ann and \\<!channel\\> & Cy), 2 open.";
    ck_assert_msg(strncmp(t, want, strlen(want)) == 0, "%s", t);
    free(t);
    b = cd_whp_render(CD_WH_PLAYER_LEFT, CD_WH_JSON, &c);
    j = json_loads(b, 0, NULL);
    ck_assert(json_is_true(json_object_get(json_object_get(j, "data"), "removed")));
    json_decref(j);
    free(b);
    json_decref(names);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("webhooks");
    TCase *tc = tcase_create("webhooks");
    tcase_add_test(tc, guard_refuses_what_is_not_public);
    tcase_add_test(tc, guard_allowlist_opens_ranges);
    tcase_add_test(tc, url_checks);
    tcase_add_test(tc, signature_test_vector);
    tcase_add_test(tc, secrets_sign_as_a_verifier_expects);
    tcase_add_test(tc, backoff_and_events);
    tcase_add_test(tc, chat_texts_are_inert);
    tcase_add_test(tc, chat_texts_fit_their_platform);
    tcase_add_test(tc, message_texts_fit_and_are_inert);
    tcase_add_test(tc, expiring_texts);
    tcase_add_test(tc, left_texts);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
