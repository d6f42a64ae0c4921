/*
 * test_mail.c — the pure parts of play by e-mail, without a database or a mail server: reading replies with
 * GMime (the first unquoted line through quotes, "On ... wrote:", signatures; quoted-printable, base64 and
 * Latin-1 bodies; HTML-only mail with its quote in a blockquote; multipart with an attachment; the tag from
 * Delivered-To or To; the seq from In-Reply-To), reply tags (the HMAC, found in an address written from the
 * template, case folded), address checks, when TLS is required, and a built mail read back (headers, the
 * parts, the picture).
 */
#include <check.h>
#include <curl/curl.h>
#include <gmime/gmime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "carc.h"
#include "game/catalog.h"
#include "mail/build.h"
#include "mail/compose.h"
#include "mail/mail.h"
#include "mail/open_seat.h"
#include "mail/reply.h"
#include "mail/seat_mail.h"
#include "mail/tag.h"

#define GAME "6f1c2a9e-0b7d-4c55-9a3e-1d2f3a4b5c6d"

static cd_config cfg;

static void setup(void)
{
    char *argv[] = {"carcd", NULL};
    char err[200];
    ck_assert_int_eq(cd_config_load(&cfg, 1, argv, err, sizeof err), 0);
    snprintf(cfg.smtp_url, sizeof cfg.smtp_url, "smtp://127.0.0.1:1");
    snprintf(cfg.mail_from, sizeof cfg.mail_from, "carcd@games.example.org");
    snprintf(cfg.mail_reply_to, sizeof cfg.mail_reply_to, "play+{tag}@games.example.org");
    snprintf(cfg.mail_return_path, sizeof cfg.mail_return_path, "play+b{tag}@games.example.org");
    snprintf(cfg.mail_secret, sizeof cfg.mail_secret, "a-secret-of-twenty-chars");
    snprintf(cfg.public_url, sizeof cfg.public_url, "https://carcd.example.org");
    ck_assert_msg(cd_mail_configure(&cfg, err, sizeof err) == 0, "%s", err);
}

static void parse(const char *raw, cd_reply *r)
{
    ck_assert_int_eq(cd_reply_parse(raw, strlen(raw), r), 0);
}

START_TEST(first_line_rules)
{
    char out[CD_REPLY_LINE_MAX];
    cd_reply_first_line("\n\n  3  \n> 1. E 0,1 r1\n", out, sizeof out);
    ck_assert_str_eq(out, "3");
    cd_reply_first_line("> quoted first\n>> more\nmeeple city N\n", out, sizeof out);
    ck_assert_str_eq(out, "meeple city N");
    cd_reply_first_line("On Tue, 1 Dec 2026 at 10:00, carcd wrote:\n> 2\n", out, sizeof out);
    ck_assert_str_eq(out, "");
    cd_reply_first_line("\n-- \nAnn, sent from her phone\n", out, sizeof out);
    ck_assert_str_eq(out, "");
    cd_reply_first_line("\xEF\xBB\xBFpass\r\n", out, sizeof out);
    ck_assert_str_eq(out, "pass");
    cd_reply_first_line("\xC2\xA0 resign\xC2\xA0\n", out, sizeof out);
    ck_assert_str_eq(out, "resign");   /* no-break spaces (HTML's &nbsp;) trimmed like spaces */
    /* bottom-posted: the first unquoted line below the quote its "wrote:" line starts */
    cd_reply_first_line("On Tue, 1 Dec 2026 at 10:00, carcd wrote:\n> 2\n>\n\n 3 \n\n-- \nAnn\n", out, sizeof out);
    ck_assert_str_eq(out, "3");
    cd_reply_first_line("On Tue, 1 Dec 2026 at 10:00, carcd wrote:\n> 2\n\n-- \nAnn\n", out, sizeof out);
    ck_assert_str_eq(out, "");
    /* a line longer than the room is cut where a character starts: two-byte characters, an even length */
    char *longer = malloc(4 + 2 * 2100 + 1);
    memcpy(longer, "say ", 4);
    for (int i = 0; i < 2100; i++)
        memcpy(longer + 4 + 2 * i, "\xC3\xA9", 2);
    longer[4 + 2 * 2100] = 0;
    cd_reply_first_line(longer, out, sizeof out);
    ck_assert_uint_eq(strlen(out), CD_REPLY_LINE_MAX - 2);
    ck_assert_uint_eq((unsigned char)out[strlen(out) - 1], 0xA9);
    free(longer);
}
END_TEST

START_TEST(html_as_text)
{
    char *t = cd_reply_html_text("<html><head><style>p{}</style></head><body><div>7&nbsp;</div><div>thanks</div>"
                                 "<blockquote type=\"cite\"><div>4. pass</div></blockquote></body></html>");
    char out[CD_REPLY_LINE_MAX];
    cd_reply_first_line(t, out, sizeof out);
    ck_assert_str_eq(out, "7");
    ck_assert_msg(strstr(t, "4. pass") == NULL, "the quote is left out: %s", t);
    free(t);
    /* the source's line breaks are spaces (Outlook wraps its HTML anywhere); numeric entities decoded */
    t = cd_reply_html_text("<div>V 5,5\r\nr0&#160;</div><div>&#x41;&#66;&#65536;&#0;&#x;&#xD800;</div>");
    cd_reply_first_line(t, out, sizeof out);
    ck_assert_str_eq(out, "V 5,5 r0");
    ck_assert_msg(strstr(t, "\nAB\xF0\x90\x80\x80&#0;&#x;&#xD800;"), "%s", t);
    free(t);
}
END_TEST

START_TEST(replies_decoded)
{
    char tag[CD_MAIL_TAG_LEN + 1], to[200];
    cd_mail_tag(GAME, 1, 0, tag);
    cd_mail_reply_address(tag, to, sizeof to);
    char raw[4000];
    cd_reply r;
    /* quoted-printable, the tag in Delivered-To only (the visible To is a list's), In-Reply-To names seq 12 */
    snprintf(raw, sizeof raw,
             "Delivered-To: %s\r\nFrom: Ann <Ann@Example.ORG>\r\nTo: games@lists.example.org\r\n"
             "Message-ID: <abc@client>\r\nIn-Reply-To: <carcd." GAME ".1.turn.12.aabbccddeeff@games.example.org>\r\n"
             "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
             "meeple=20city=20N\r\n\r\n> 1. E 0,1 r1\r\n", to);
    parse(raw, &r);
    ck_assert_str_eq(r.message_id, "abc@client");
    ck_assert_str_eq(r.from, "ann@example.org");
    ck_assert(r.has_tag);
    ck_assert_str_eq(r.tag, tag);
    ck_assert_int_eq(r.in_reply_seq, 12);
    ck_assert_str_eq(r.command, "meeple city N");
    /* base64 Latin-1, the tag upper-cased by some mail system in To */
    char upper[200];
    snprintf(upper, sizeof upper, "%s", to);
    for (char *c = upper; *c; c++)
        if (*c >= 'a' && *c <= 'z')
            *c = (char)(*c - 32);
    gchar *b64 = g_base64_encode((const guchar *)"  2\n\nmerci, \xe0 bient\xf4t\n", 24);
    snprintf(raw, sizeof raw,
             "From: bob@example.org\r\nTo: %s\r\nMessage-ID: <b64@client>\r\n"
             "Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: base64\r\n\r\n%s\r\n", upper,
             b64);
    g_free(b64);
    parse(raw, &r);
    ck_assert(r.has_tag);
    ck_assert_str_eq(r.tag, tag);
    ck_assert_str_eq(r.command, "2");
    ck_assert_int_eq(r.in_reply_seq, -1);
    /* multipart/alternative: the plain part wins; an attachment's text is never read */
    snprintf(raw, sizeof raw,
             "From: bob@example.org\r\nTo: %s\r\nMessage-ID: <mp@client>\r\nMIME-Version: 1.0\r\n"
             "Content-Type: multipart/mixed; boundary=\"m\"\r\n\r\n"
             "--m\r\nContent-Type: text/plain; name=\"notes.txt\"\r\nContent-Disposition: attachment; "
             "filename=\"notes.txt\"\r\n\r\n99\r\n"
             "--m\r\nContent-Type: multipart/alternative; boundary=\"a\"\r\n\r\n"
             "--a\r\nContent-Type: text/html\r\n\r\n<p>5</p>\r\n--a\r\nContent-Type: text/plain\r\n\r\n4\r\n--a--\r\n"
             "--m--\r\n", to);
    parse(raw, &r);
    ck_assert_str_eq(r.command, "4");
    /* format=flowed (RFC 3676): a soft-broken line goes on in the next, space-stuffing undone; DelSp=yes drops
     * the break's space */
    snprintf(raw, sizeof raw,
             "From: bob@example.org\r\nTo: %s\r\nMessage-ID: <ff@client>\r\n"
             "Content-Type: text/plain; charset=utf-8; format=flowed\r\n\r\n"
             "say that city is \r\n going to \r\nbe mine\r\n\r\n> On Mon, x wrote: \r\n> 1\r\n", to);
    parse(raw, &r);
    ck_assert_str_eq(r.command, "say that city is going to be mine");
    snprintf(raw, sizeof raw,
             "From: bob@example.org\r\nTo: %s\r\nMessage-ID: <ds@client>\r\n"
             "Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\r\n\r\n"
             "say Donau \r\ndampf \r\nschiff\r\n", to);
    parse(raw, &r);
    ck_assert_str_eq(r.command, "say Donaudampfschiff");
    /* a plain part with nothing written in it: the HTML part is read */
    snprintf(raw, sizeof raw,
             "From: bob@example.org\r\nTo: %s\r\nMessage-ID: <ep@client>\r\nMIME-Version: 1.0\r\n"
             "Content-Type: multipart/alternative; boundary=\"a\"\r\n\r\n"
             "--a\r\nContent-Type: text/plain\r\n\r\n\r\n--a\r\nContent-Type: text/html\r\n\r\n<p>6</p>\r\n--a--\r\n",
             to);
    parse(raw, &r);
    ck_assert_str_eq(r.command, "6");
    /* no tag of ours anywhere */
    parse("From: x@example.org\r\nTo: play@games.example.org\r\n\r\n1\r\n", &r);
    ck_assert(!r.has_tag);
    ck_assert_str_eq(r.message_id, "");
}
END_TEST

/* A program's mail (RFC 3834's Auto-Submitted, and what older responders write) is marked, with the header
 * that says so; a person's, and "Auto-Submitted: no", are not. */
START_TEST(automatic_mails_marked)
{
    static const struct {
        const char *headers, *want;
    } cases[] = {
        {"Auto-Submitted: auto-replied\r\n", "Auto-Submitted: auto-replied"},
        {"Auto-Submitted: Auto-Generated (vacation)\r\n", "Auto-Submitted: Auto-Generated"},
        {"Auto-Submitted: no\r\n", ""},
        {"Precedence: bulk\r\n", "Precedence: bulk"},
        {"Precedence: list\r\n", "Precedence: list"},
        {"Precedence: auto_reply\r\n", "Precedence: auto_reply"},
        {"Precedence: first-class\r\n", ""},
        {"X-Autoreply: yes\r\n", "X-Autoreply"},
        {"X-Autorespond: Out of office\r\n", "X-Autorespond"},
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char raw[600];
        snprintf(raw, sizeof raw,
                 "From: ann@example.org\r\nTo: play+0123@games.example.org\r\nSubject: Re: your turn\r\n"
                 "Message-ID: <auto-%zu@example.org>\r\n%s\r\nI am away until Monday.\r\n",
                 i, cases[i].headers);
        cd_reply r;
        parse(raw, &r);
        ck_assert_msg(strcmp(r.automatic, cases[i].want) == 0, "%s: \"%s\"", cases[i].headers, r.automatic);
        ck_assert_str_eq(r.command, "I am away until Monday.");
    }
}
END_TEST

START_TEST(tags_and_addresses)
{
    char a[CD_MAIL_TAG_LEN + 1], b[CD_MAIL_TAG_LEN + 1], c[CD_MAIL_TAG_LEN + 1], out[CD_MAIL_TAG_LEN + 1];
    cd_mail_tag(GAME, 0, 0, a);
    cd_mail_tag(GAME, 1, 0, b);
    ck_assert_int_eq(strlen(a), CD_MAIL_TAG_LEN);
    ck_assert_str_ne(a, b);
    /* after a leave (sql/029) the same seat number gets another tag: the one a moved seat's mail names is its */
    char g1[CD_MAIL_TAG_LEN + 1], g2[CD_MAIL_TAG_LEN + 1];
    cd_mail_tag(GAME, 1, 1, g1);
    cd_mail_tag(GAME, 1, 2, g2);
    ck_assert_int_eq(strlen(g1), CD_MAIL_TAG_LEN);
    ck_assert_str_ne(g1, b);
    ck_assert_str_ne(g1, g2);
    ck_assert_str_ne(g1, a);
    /* an open place's tag is neither its number's seat's nor another place's */
    char p0[CD_MAIL_TAG_LEN + 1], p1[CD_MAIL_TAG_LEN + 1];
    cd_mail_place_tag(GAME, 0, p0);
    cd_mail_place_tag(GAME, 1, p1);
    ck_assert_int_eq(strlen(p0), CD_MAIL_TAG_LEN);
    ck_assert_str_ne(p0, a);
    ck_assert_str_ne(p0, p1);
    ck_assert(cd_mail_place_tag_ok(GAME, 0, p0) && !cd_mail_place_tag_ok(GAME, 1, p0));
    ck_assert_str_ne(p0, g1);
    ck_assert(!cd_mail_place_tag_ok(GAME, 0, a) && !cd_mail_place_tag_ok(GAME, 1, b));
    snprintf(cfg.mail_secret, sizeof cfg.mail_secret, "another-secret-entirely");
    cd_mail_tag(GAME, 0, 0, c);
    ck_assert_str_ne(a, c);   /* the key makes the tag */
    snprintf(cfg.mail_secret, sizeof cfg.mail_secret, "a-secret-of-twenty-chars");
    char addr[200];
    cd_mail_reply_address(a, addr, sizeof addr);
    ck_assert(strncmp(addr, "play+", 5) == 0 && strstr(addr, "@games.example.org"));
    ck_assert(cd_mail_tag_from_address(addr, out));
    ck_assert_str_eq(out, a);
    ck_assert(!cd_mail_tag_from_address("play@games.example.org", out));
    ck_assert(!cd_mail_tag_from_address("play+zzzzzzzzzzzzzzzzzzzzzzzz@games.example.org", out));
    ck_assert(!cd_mail_tag_from_address("play+0123@games.example.org", out));
    ck_assert(cd_mail_address_ok("ann@example.org"));
    ck_assert(cd_mail_address_ok("ann+games@mail.example.co.uk"));
    ck_assert(cd_mail_address_ok("root@localhost"));
    ck_assert(!cd_mail_address_ok("ann"));
    ck_assert(!cd_mail_address_ok("ann@example"));
    ck_assert(!cd_mail_address_ok("Ann <ann@example.org>"));
    ck_assert(!cd_mail_address_ok("ann@@example.org"));
    ck_assert(!cd_mail_address_ok("ann@example.org\r\nBcc: x@y.org"));
    ck_assert_int_eq(cd_mail_msg_id_seq("carcd." GAME ".0.turn.7.00ff@x"), 7);
    ck_assert_int_eq(cd_mail_msg_id_seq("carcd." GAME ".0@x"), -1);
    ck_assert_int_eq(cd_mail_msg_id_seq("someone@else"), -1);
    /* TLS: required across a network, used when offered on loopback */
    ck_assert_int_eq(cd_mail_use_ssl("smtp://mail.example.org:587"), CURLUSESSL_ALL);
    ck_assert_int_eq(cd_mail_use_ssl("imaps://u:p@imap.example.org/INBOX"), CURLUSESSL_ALL);
    ck_assert_int_eq(cd_mail_use_ssl("smtp://127.0.0.1:25025"), CURLUSESSL_TRY);
    ck_assert_int_eq(cd_mail_use_ssl("imap://play:pw@localhost:25143/INBOX"), CURLUSESSL_TRY);
    ck_assert_int_eq(cd_mail_use_ssl("not a url"), CURLUSESSL_ALL);
}
END_TEST

/* raw as GMime reads a mail (g_object_unref it). */
static GMimeMessage *parsed(const char *raw)
{
    GMimeStream *s = g_mime_stream_mem_new_with_buffer(raw, strlen(raw));
    GMimeParser *ps = g_mime_parser_new_with_stream(s);
    GMimeMessage *m = g_mime_parser_construct_message(ps, NULL);
    ck_assert_ptr_nonnull(m);
    g_object_unref(ps);
    g_object_unref(s);
    return m;
}

/* The text/plain part of a mail whose body is multipart/alternative with the text first, decoded; g_free it. */
static char *text_part(const char *raw)
{
    GMimeMessage *m = parsed(raw);
    GMimeObject *alt = g_mime_message_get_mime_part(m);
    char *text = g_mime_text_part_get_text(GMIME_TEXT_PART(g_mime_multipart_get_part(GMIME_MULTIPART(alt), 0)));
    g_object_unref(m);
    return text;
}

START_TEST(built_mail_reads_back)
{
    static const unsigned char png[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 0};
    cd_mail_parts p = {.from = "carcd@games.example.org", .to = "ann@example.org",
                       .reply_to = "play+00112233445566778899aabb@games.example.org",
                       .subject = "Carcassonne: your turn, Zoë", .msg_id = "carcd.x.0.turn.3.aa@games.example.org",
                       .thread_id = "carcd.x.0@games.example.org",
                       .unsubscribe = "https://carc.example.org/v1/mail/unsubscribe/00112233445566778899aabb",
                       .text = "Jürgen, your legal moves:\n   1. pass\n", .html = "<p>Zoë, your legal moves</p>",
                       .png = png,
                       .png_len = sizeof png};
    char *raw = cd_mail_build(&p);
    ck_assert_ptr_nonnull(raw);
    ck_assert_msg(strstr(raw, "\r\n") && !strstr(raw, "\n\n"), "CRLF line ends");
    ck_assert(strstr(raw, "In-Reply-To: <carcd.x.0@games.example.org>"));
    ck_assert(strstr(raw, "References: <carcd.x.0@games.example.org>"));
    ck_assert(strstr(raw, "List-Unsubscribe-Post: List-Unsubscribe=One-Click"));
    ck_assert(strstr(raw, "multipart/alternative") && strstr(raw, "multipart/related"));
    GMimeMessage *m = parsed(raw);
    ck_assert_str_eq(g_mime_message_get_subject(m), "Carcassonne: your turn, Zoë");
    ck_assert_str_eq(g_mime_message_get_message_id(m), "carcd.x.0.turn.3.aa@games.example.org");
    GMimeObject *alt = g_mime_message_get_mime_part(m);
    ck_assert(GMIME_IS_MULTIPART(alt));
    GMimeObject *plain = g_mime_multipart_get_part(GMIME_MULTIPART(alt), 0);
    /* the text's own UTF-8 bytes under a utf-8 label, in both parts: ü is =C3=BC, not Latin-1's =FC */
    ck_assert_str_eq(g_mime_object_get_content_type_parameter(plain, "charset"), "utf-8");
    ck_assert_msg(strstr(raw, "J=C3=BCrgen") && strstr(raw, "Zo=C3=AB") && !strstr(raw, "=FC") && !strstr(raw, "=EB"),
                  "%s", raw);
    char *text = g_mime_text_part_get_text(GMIME_TEXT_PART(plain));
    ck_assert_msg(strncmp(text, "Jürgen, your legal moves:\r\n   1. pass", 37) == 0, "%s", text);
    g_free(text);
    GMimeObject *rel = g_mime_multipart_get_part(GMIME_MULTIPART(alt), 1);
    GMimeObject *html = g_mime_multipart_get_part(GMIME_MULTIPART(rel), 0);
    ck_assert_str_eq(g_mime_object_get_content_type_parameter(html, "charset"), "utf-8");
    text = g_mime_text_part_get_text(GMIME_TEXT_PART(html));
    ck_assert_str_eq(text, "<p>Zoë, your legal moves</p>");
    g_free(text);
    GMimeObject *img = g_mime_multipart_get_part(GMIME_MULTIPART(rel), 1);
    ck_assert_str_eq(g_mime_part_get_content_id(GMIME_PART(img)), CD_MAIL_PNG_CID);
    ck_assert(strstr(raw, "Content-Id: <board.png@carcd>") || strstr(raw, "Content-ID: <board.png@carcd>"));
    g_object_unref(m);
    free(raw);
}
END_TEST

/* The invitation's play link, the only copy of the seat's token a person gets: whole on a line of its own in the
 * text part, a link in the HTML part (where it had been text that a mail program may or may not link). The seat
 * moved down from seat 2 while the game waited (sql/031): its mail stays in the thread of seat 2. */
START_TEST(invitation_link)
{
    snprintf(cfg.public_url, sizeof cfg.public_url, "https://carcd.example.org");
    char err[200];
    ck_assert_msg(cd_mail_configure(&cfg, err, sizeof err) == 0, "%s", err);
    carc_state *st = malloc(sizeof *st);
    ck_assert_ptr_nonnull(st);
    carc_setup setup;
    carc_setup_defaults(&setup);
    carc_events ev = {0};
    ck_assert_msg(carc_game_new(st, cd_catalog(), &setup, &ev, err, sizeof err) == 0, "%s", err);
    carc_events_free(&ev);
    static const char token[] = "cs_rQpoj-5TcFUr56QSIeldfDDRFfYaRM_PAH0CQDdT_0Y";
    const cd_mail_seat bob = {.seat = 1, .email = "bob@example.org", .tag = "00112233445566778899aabb",
                              .thread_seat = 2};
    cd_mail_about a = {.kind = CD_MAIL_INVITATION, .game_id = GAME, .to = &bob, .st = st, .token = token};
    char msg_id[200];
    char *raw = cd_mail_compose(&a, msg_id, sizeof msg_id);
    ck_assert_ptr_nonnull(raw);
    ck_assert_msg(strncmp(msg_id, "carcd." GAME ".1.invitation.0.", 58) == 0, "%s", msg_id);
    ck_assert_msg(strstr(raw, "\nIn-Reply-To: <carcd." GAME ".2@") && strstr(raw, "\nReferences: <carcd." GAME ".2@"),
                  "not in seat 2's thread:\n%.800s", raw);
    GMimeMessage *m = parsed(raw);
    GMimeObject *alt = g_mime_message_get_mime_part(m);
    char *text = g_mime_text_part_get_text(GMIME_TEXT_PART(g_mime_multipart_get_part(GMIME_MULTIPART(alt), 0)));
    static const char url[] = "https://carcd.example.org/games/" GAME "#token=cs_rQpoj-5TcFUr56QSIeldfDDRFfYaRM_PAH0CQDdT_0Y";
    const char *at = strstr(text, url);
    ck_assert_msg(at && at > text && at[-1] == '\n' && (at[strlen(url)] == '\r' || at[strlen(url)] == '\n'),
                  "no link on a line of its own in:\n%s", text);
    g_free(text);
    GMimeObject *rel = g_mime_multipart_get_part(GMIME_MULTIPART(alt), 1);
    char *html = g_mime_text_part_get_text(GMIME_TEXT_PART(g_mime_multipart_get_part(GMIME_MULTIPART(rel), 0)));
    static const char anchor[] = "<a href=\"https://carcd.example.org/games/" GAME
                                 "#token=cs_rQpoj-5TcFUr56QSIeldfDDRFfYaRM_PAH0CQDdT_0Y\">";
    ck_assert_msg(strstr(html, anchor) != NULL, "no link in:\n%s", html);
    g_free(html);
    g_object_unref(m);
    free(raw);
    free(st);
}
END_TEST

/* An open place's invitation (mail/open_seat.h): the game's settings in words, the inviter's name escaped in
 * the HTML part (a name is the creator's own text), the link whole on its line, and none of a seat's headers. */
START_TEST(open_seat_invitation)
{
    char w[200];
    json_t *st = json_pack("{s:[s,s], s:{s:i}}", "expansions", "hills_sheep", "halflings", "clock", "per_move_s", 259200);
    cd_mail_settings_words(st, 4, w, sizeof w);
    ck_assert_str_eq(w, "4 players, Hills & Sheep, Halb so wild II, 3 days a move");
    json_decref(st);
    st = json_pack("{s:[], s:{s:i}}", "expansions", "clock", "per_move_s", 7200);
    cd_mail_settings_words(st, 2, w, sizeof w);
    ck_assert_str_eq(w, "2 players, the base game, 2 h a move");
    json_decref(st);
    st = json_pack("{s:[s]}", "expansions", "fruit_trees");
    cd_mail_settings_words(st, 3, w, sizeof w);
    ck_assert_str_eq(w, "3 players, Fruit Trees, no clock");

    static const char url[] = "https://carcd.example.org/games/" GAME "#invite=iv_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_ABCDE";
    json_t *names = json_pack("[s,s]", "<b>Ann</b>", "greedy bot");
    const cd_mail_open_seat a = {.game_id = GAME, .email = "bob@example.org", .inviter = "<b>Ann</b>", .names = names,
                                 .nseats = 3, .settings = st, .page_url = url};
    char msg_id[300];
    char *raw = cd_mail_compose_open_seat(&a, msg_id, sizeof msg_id);
    ck_assert_ptr_nonnull(raw);
    ck_assert_msg(strncmp(msg_id, "carcd." GAME ".-1.open-seat.0.", strlen("carcd." GAME ".-1.open-seat.0.")) == 0,
                  "%s", msg_id);
    ck_assert_msg(!strstr(raw, "\nReply-To:") && !strstr(raw, "\nList-Unsubscribe") && !strstr(raw, "\nIn-Reply-To:"),
                  "no reply address, unsubscribe or thread:\n%.600s", raw);
    GMimeMessage *m = parsed(raw);
    ck_assert_str_eq(g_mime_message_get_subject(m), "<b>Ann</b> invites you to a game of Carcassonne");
    GMimeObject *alt = g_mime_message_get_mime_part(m);
    ck_assert_int_eq(g_mime_multipart_get_count(GMIME_MULTIPART(alt)), 2);   /* text and HTML, no picture */
    char *text = g_mime_text_part_get_text(GMIME_TEXT_PART(g_mime_multipart_get_part(GMIME_MULTIPART(alt), 0)));
    ck_assert_msg(strstr(text, "<b>Ann</b> invites you to a game of Carcassonne: 3 players, Fruit Trees, no clock."),
                  "%s", text);
    ck_assert_msg(strstr(text, "At the table so far: <b>Ann</b>, greedy bot."), "%s", text);
    const char *at = strstr(text, url);
    ck_assert_msg(at && at[-1] == '\n' && (at[strlen(url)] == '\r' || at[strlen(url)] == '\n'),
                  "the link on a line of its own:\n%s", text);
    g_free(text);
    char *html = g_mime_text_part_get_text(GMIME_TEXT_PART(g_mime_multipart_get_part(GMIME_MULTIPART(alt), 1)));
    ck_assert_msg(!strstr(html, "<b>Ann") && strstr(html, "&lt;b&gt;Ann&lt;/b&gt; invites you"), "escaped:\n%s", html);
    ck_assert_msg(strstr(html, "<a href=\"https://carcd.example.org/games/" GAME "#invite=iv_"), "a link:\n%s", html);
    g_free(html);
    g_object_unref(m);
    free(raw);

    /* its stop link, as mail programs find it: a long public URL stays one raw header line (GMime would write
     * a word longer than a line as RFC 2047 encoded-words, which no mail program reads as a link) */
    static const char stop[] = "https://carcassonne.games.example.org/some/prefix/v1/mail/invitations/stop/"
                               "st_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_ABCDE";
    cd_mail_open_seat b = a;
    b.stop_url = stop;
    raw = cd_mail_compose_open_seat(&b, msg_id, sizeof msg_id);
    ck_assert_ptr_nonnull(raw);
    char want[300];
    snprintf(want, sizeof want, "\r\nList-Unsubscribe: <%s>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n",
             stop);
    ck_assert_msg(strstr(raw, want), "the header whole:\n%.900s", raw);
    char *plain = text_part(raw);
    ck_assert_msg(!strstr(plain, "word join"), "no reply address, no joining by mail:\n%s", plain);
    g_free(plain);
    free(raw);

    /* with the place's reply address: its Reply-To, and how to take the seat by answering */
    b.reply_to = "play+0123456789abcdef01234567@games.example.org";
    raw = cd_mail_compose_open_seat(&b, msg_id, sizeof msg_id);
    ck_assert_ptr_nonnull(raw);
    ck_assert_msg(strstr(raw, "\r\nReply-To: play+0123456789abcdef01234567@games.example.org\r\n"), "%.900s", raw);
    char *body = text_part(raw);
    ck_assert_msg(strstr(body, "answer this mail with the word join on the first line"), "%s", body);
    g_free(body);
    free(raw);
    json_decref(names);
    json_decref(st);
}
END_TEST

/* A bounce as Postfix writes one, to return path `to`, its report's Action `action`. */
static void postfix_dsn(const char *to, const char *action, char *out, size_t n)
{
    snprintf(out, n,
             "Return-Path: <MAILER-DAEMON>\r\nDelivered-To: %s\r\nFrom: MAILER-DAEMON@mail.example.org "
             "(Mail Delivery System)\r\nSubject: Undelivered Mail Returned to Sender\r\nTo: %s\r\n"
             "Message-ID: <20261205.ABC@mail.example.org>\r\nMIME-Version: 1.0\r\n"
             "Content-Type: multipart/report; report-type=delivery-status; boundary=\"B\"\r\n\r\n"
             "--B\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\nI'm sorry to have to inform you...\r\n"
             "Action: delivered\r\n"   /* words in the human part are not the report */
             "--B\r\nContent-Description: Delivery report\r\nContent-Type: message/delivery-status\r\n\r\n"
             "Reporting-MTA: dns; mail.example.org\r\nArrival-Date: Sat,  5 Dec 2026 20:03:07 +0000 (UTC)\r\n\r\n"
             "Final-Recipient: rfc822; zed@bounce.example.net\r\nOriginal-Recipient: rfc822;zed@bounce.example.net"
             "\r\nAction: %s\r\nStatus: 5.1.1\r\nDiagnostic-Code: x-unix; user unknown\r\n\r\n"
             "--B\r\nContent-Type: text/rfc822-headers\r\n\r\nFrom: carcd@games.example.org\r\n"
             "Subject: your turn\r\n\r\n--B--\r\n",
             to, to, action);
}

/* A mail's return path names its outbox row and only carcd can write one; a bounce to it is read for its
 * delivery status report (RFC 3464), as Postfix writes one, and for nothing else. */
START_TEST(bounces)
{
    char tag[CD_MAIL_TAG_LEN + 1], out[CD_MAIL_TAG_LEN + 1], addr[200];
    long long id = 0;
    cd_mail_bounce_tag(4711, tag);
    ck_assert_int_eq(strlen(tag), CD_MAIL_TAG_LEN);
    ck_assert(strncmp(tag, "000000001267", 12) == 0);   /* 4711 in hex */
    ck_assert(cd_mail_bounce_tag_id(tag, &id));
    ck_assert_int_eq(id, 4711);
    char forged[CD_MAIL_TAG_LEN + 1];
    memcpy(forged, tag, sizeof forged);
    forged[11] = '8';   /* another row's id with this row's HMAC */
    ck_assert(!cd_mail_bounce_tag_id(forged, &id));
    /* pinned: a bounce of a mail sent before an upgrade must still name it (and tests/fuzz/corpus's
     * bounce.eml is a return path valid under the fuzzer's secret) */
    snprintf(cfg.mail_secret, sizeof cfg.mail_secret, "fuzzing-secret-0123456789");
    char pinned[CD_MAIL_TAG_LEN + 1];
    cd_mail_bounce_tag(1, pinned);
    ck_assert_str_eq(pinned, "0000000000017fbd2a662e49");
    snprintf(cfg.mail_secret, sizeof cfg.mail_secret, "a-secret-of-twenty-chars");
    cd_mail_return_path(4711, addr, sizeof addr);
    ck_assert(strncmp(addr, "play+b", 6) == 0 && strstr(addr, "@games.example.org"));
    ck_assert(cd_mail_bounce_tag_from_address(addr, out));
    ck_assert_str_eq(out, tag);
    ck_assert(!cd_mail_tag_from_address(addr, out));   /* not a reply address: a seat's tag is never read there */
    /* the template is checked where the settings are read */
    char err[200];
    snprintf(cfg.mail_return_path, sizeof cfg.mail_return_path, "bounces@games.example.org");
    ck_assert_int_eq(cd_mail_configure(&cfg, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "CARCD_MAIL_RETURN_PATH: expected an address with {tag}"), "%s", err);
    snprintf(cfg.mail_return_path, sizeof cfg.mail_return_path, "play+b{tag}@games.example.org");
    ck_assert_int_eq(cd_mail_configure(&cfg, err, sizeof err), 0);
    cd_reply r;
    char dsn[4000];
    postfix_dsn(addr, "failed", dsn, sizeof dsn);
    parse(dsn, &r);
    ck_assert(r.has_bounce_tag && !r.has_tag);
    ck_assert_str_eq(r.bounce_tag, tag);
    ck_assert_int_eq(r.bounce_id, 4711);
    ck_assert_str_eq(r.dsn_action, "failed");
    ck_assert_str_eq(r.dsn_status, "5.1.1");
    ck_assert_str_eq(r.dsn_diagnostic, "x-unix; user unknown");
    ck_assert_str_eq(r.command, "");
    postfix_dsn(addr, "delayed", dsn, sizeof dsn);   /* said as it is: mail-in acts on "failed" only */
    parse(dsn, &r);
    ck_assert_str_eq(r.dsn_action, "delayed");
    /* a mail to the return path with no report in it: no action, whatever its text says */
    snprintf(dsn, sizeof dsn, "From: someone@example.net\r\nTo: %s\r\nSubject: hi\r\n\r\nAction: failed\r\n", addr);
    parse(dsn, &r);
    ck_assert(r.has_bounce_tag);
    ck_assert_str_eq(r.dsn_action, "");
    /* a forged return path is no bounce: with both templates the same, a seat's reply is still a reply */
    snprintf(cfg.mail_return_path, sizeof cfg.mail_return_path, "play+{tag}@games.example.org");
    char seat_tag[CD_MAIL_TAG_LEN + 1], seat_addr[200];
    cd_mail_tag(GAME, 1, 0, seat_tag);
    cd_mail_reply_address(seat_tag, seat_addr, sizeof seat_addr);
    snprintf(dsn, sizeof dsn, "From: bob@example.org\r\nTo: %s\r\nSubject: Re\r\n\r\n1\r\n", seat_addr);
    parse(dsn, &r);
    ck_assert(!r.has_bounce_tag && r.has_tag);
    ck_assert_str_eq(r.tag, seat_tag);
    ck_assert_str_eq(r.command, "1");
    snprintf(cfg.mail_return_path, sizeof cfg.mail_return_path, "play+b{tag}@games.example.org");
}
END_TEST

/* The server's URL must be a mail URL (libcurl reads one without a scheme as http://, and would PUT the mail
 * there), and the sender an address: both refused where the settings are read. */
START_TEST(settings_refused)
{
    static const char *const urls[] = {"192.0.2.2:18464", "http://mail.example.org", "bogus", NULL};
    char err[300];
    for (int i = 0; urls[i]; i++) {
        snprintf(cfg.smtp_url, sizeof cfg.smtp_url, "%s", urls[i]);
        ck_assert_int_eq(cd_mail_configure(&cfg, err, sizeof err), -1);
        ck_assert_msg(strstr(err, "CARCD_SMTP_URL") != NULL, "%s: %s", urls[i], err);
    }
    snprintf(cfg.smtp_url, sizeof cfg.smtp_url, "SMTPS://mail.example.org:465");
    ck_assert_msg(cd_mail_configure(&cfg, err, sizeof err) == 0, "%s", err);
    snprintf(cfg.mail_from, sizeof cfg.mail_from, "carcd at example");
    ck_assert_int_eq(cd_mail_configure(&cfg, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "CARCD_MAIL_FROM") != NULL, "%s", err);
    snprintf(cfg.mail_from, sizeof cfg.mail_from, "carcd@games.example.org");
    /* mail without the tags' key: every unsubscribe link's tag would be anyone's to make */
    static const char *const weak[] = {"", "fifteen-chars!!", NULL};
    for (int i = 0; weak[i]; i++) {
        snprintf(cfg.mail_secret, sizeof cfg.mail_secret, "%s", weak[i]);
        ck_assert_int_eq(cd_mail_configure(&cfg, err, sizeof err), -1);
        ck_assert_msg(strstr(err, "CARCD_SMTP_URL needs CARCD_MAIL_SECRET") != NULL, "\"%s\": %s", weak[i], err);
    }
    snprintf(cfg.mail_secret, sizeof cfg.mail_secret, "a-secret-of-twenty-chars");
    /* nor without the address of the links every mail carries */
    static const char *const urls_out[] = {"", "carcd.example.org", NULL};
    for (int i = 0; urls_out[i]; i++) {
        snprintf(cfg.public_url, sizeof cfg.public_url, "%s", urls_out[i]);
        ck_assert_int_eq(cd_mail_configure(&cfg, err, sizeof err), -1);
        ck_assert_msg(strstr(err, "CARCD_SMTP_URL needs CARCD_PUBLIC_URL") != NULL, "\"%s\": %s", urls_out[i], err);
    }
    snprintf(cfg.public_url, sizeof cfg.public_url, "https://carcd.example.org");
    ck_assert_msg(cd_mail_configure(&cfg, err, sizeof err) == 0, "%s", err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mail");
    TCase *tc = tcase_create("mail");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, first_line_rules);
    tcase_add_test(tc, html_as_text);
    tcase_add_test(tc, replies_decoded);
    tcase_add_test(tc, tags_and_addresses);
    tcase_add_test(tc, automatic_mails_marked);
    tcase_add_test(tc, built_mail_reads_back);
    tcase_add_test(tc, invitation_link);
    tcase_add_test(tc, open_seat_invitation);
    tcase_add_test(tc, bounces);
    tcase_add_test(tc, settings_refused);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
