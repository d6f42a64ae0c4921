/*
 * reply.c — reading a reply mail (reply.h).
 */
#include "reply.h"

#include <ctype.h>
#include <gmime/gmime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/utf8.h"
#include "compose.h"
#include "tag.h"

static void trim_into(const char *s, size_t len, char *out, size_t n)
{
    while (len > 0 && (isspace((unsigned char)*s) || (unsigned char)*s == 0xC2)) {
        /* 0xC2 0xA0 is a no-break space */
        if ((unsigned char)*s == 0xC2 && len > 1 && (unsigned char)s[1] == 0xA0) {
            s += 2;
            len -= 2;
            continue;
        }
        if ((unsigned char)*s == 0xC2)
            break;
        s++;
        len--;
    }
    for (;;) {   /* trailing spaces, no-break ones too */
        if (len > 0 && isspace((unsigned char)s[len - 1]))
            len--;
        else if (len > 1 && (unsigned char)s[len - 2] == 0xC2 && (unsigned char)s[len - 1] == 0xA0)
            len -= 2;
        else
            break;
    }
    len = cd_utf8_cut(s, len, n - 1);   /* a say's text cut stays UTF-8, and too long (game/messages.h) */
    memcpy(out, s, len);
    out[len] = 0;
}

int cd_reply_shown(const char *command)
{
    return (int)cd_utf8_cut(command, strlen(command), 160);
}

void cd_reply_first_word(const char *command, char *out, size_t n)
{
    size_t i = 0;
    for (; command[i] && !isspace((unsigned char)command[i]) && i + 1 < n; i++)
        out[i] = (char)tolower((unsigned char)command[i]);
    out[i] = 0;
}

void cd_reply_first_line(const char *text, char *out, size_t n)
{
    out[0] = 0;
    const char *p = text;
    if ((unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB && (unsigned char)p[2] == 0xBF)
        p += 3;   /* a byte order mark */
    bool attributed = false;   /* past an "On ... wrote:" line */
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char line[CD_REPLY_LINE_MAX];
        if (len > 0 && p[len - 1] == '\r')
            len--;
        if (len == 3 && strncmp(p, "-- ", 3) == 0)
            return;   /* the signature */
        trim_into(p, len, line, sizeof line);
        size_t l = strlen(line);
        if (line[0] && line[0] != '>') {
            /* "On Tue, 1 Dec 2026, Ann wrote:" starts the quoted mail: nothing was written above it, so the
             * reply is below the quote (bottom-posted, as mutt and many lists write), or there is none */
            if (!attributed && l > 6 && strcmp(line + l - 6, "wrote:") == 0) {
                attributed = true;
            } else {
                snprintf(out, n, "%s", line);
                return;
            }
        }
        if (!e)
            break;
        p = e + 1;
    }
}

static bool tag_is(const char *p, const char *name)
{
    size_t n = strlen(name);
    return strncasecmp(p, name, n) == 0 && (p[n] == '>' || p[n] == ' ' || p[n] == '/' || p[n] == '\t' ||
                                            p[n] == '\n' || p[n] == '\r');
}

/* "&#160;" or "&#xA0;" at p as UTF-8 into out (never longer than the entity), *n grown by its length: the
 * entity's length, or 0 when p is no such entity (or names no character a reply could use). */
static size_t numeric_entity(const char *p, char *out, size_t *n)
{
    if (p[1] != '#')
        return 0;
    bool hex = p[2] == 'x' || p[2] == 'X';
    const char *d = p + (hex ? 3 : 2);
    char *end;
    unsigned long cp = strtoul(d, &end, hex ? 16 : 10);
    if (end == d || *end != ';' || end - d > 7 || cp < 0x20 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) ||
        !isxdigit((unsigned char)*d))
        return 0;
    size_t k = 0;
    if (cp < 0x80) {
        out[k++] = (char)cp;
    } else if (cp < 0x800) {
        out[k++] = (char)(0xC0 | cp >> 6);
        out[k++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out[k++] = (char)(0xE0 | cp >> 12);
        out[k++] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[k++] = (char)(0x80 | (cp & 0x3F));
    } else {
        out[k++] = (char)(0xF0 | cp >> 18);
        out[k++] = (char)(0x80 | (cp >> 12 & 0x3F));
        out[k++] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[k++] = (char)(0x80 | (cp & 0x3F));
    }
    *n += k;
    return (size_t)(end + 1 - p);
}

char *cd_reply_html_text(const char *html)
{
    size_t cap = strlen(html) + 1;
    char *out = malloc(cap);
    if (!out)
        abort();
    size_t n = 0;
    int skip = 0;   /* depth inside blockquote, style, script, head */
    for (const char *p = html; *p;) {
        if (*p == '<') {
            const char *q = p + 1;
            bool closing = *q == '/';
            if (closing)
                q++;
            static const char *const hidden[] = {"blockquote", "style", "script", "head"};
            for (size_t i = 0; i < sizeof hidden / sizeof hidden[0]; i++)
                if (tag_is(q, hidden[i]))
                    skip += closing ? (skip > 0 ? -1 : 0) : 1;
            if (!skip && (tag_is(q, "br") || (closing && (tag_is(q, "p") || tag_is(q, "div") || tag_is(q, "li") ||
                                                           tag_is(q, "tr")))))
                out[n++] = '\n';
            const char *gt = strchr(p, '>');
            p = gt ? gt + 1 : p + strlen(p);
            continue;
        }
        if (skip) {
            p++;
            continue;
        }
        if (*p == '&') {
            static const struct { const char *ent; char c; } ents[] = {
                {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&nbsp;", ' '}};
            bool done = false;
            for (size_t i = 0; i < sizeof ents / sizeof ents[0] && !done; i++)
                if (strncmp(p, ents[i].ent, strlen(ents[i].ent)) == 0) {
                    out[n++] = ents[i].c;
                    p += strlen(ents[i].ent);
                    done = true;
                }
            size_t used = done ? 0 : numeric_entity(p, out + n, &n);
            if (done || used) {
                p += used;
                continue;
            }
        }
        if (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') {
            /* white space, the source's line breaks too (a mail program wraps its HTML anywhere), is one space */
            if (n > 0 && out[n - 1] != ' ' && out[n - 1] != '\n')
                out[n++] = ' ';
            p++;
            continue;
        }
        out[n++] = *p++;
    }
    out[n] = 0;
    return out;
}

/* A format=flowed text (RFC 3676, what Thunderbird sends) as the lines its writer typed: an unquoted line that
 * ends in a space goes on in the next unquoted line (its space dropped too with DelSp=yes), and a line's
 * leading space is space-stuffing. Quoted lines, and the signature's "-- ", stay as they are. malloc'd. */
static char *unflow(const char *text, bool delsp)
{
    char *out = malloc(strlen(text) + 1);
    if (!out)
        abort();
    size_t n = 0;
    bool joining = false;   /* the line before was soft-broken: this one goes on from it */
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len > 0 && p[len - 1] == '\r')
            len--;
        bool quoted = p[0] == '>';
        if (joining && quoted)
            out[n++] = '\n';   /* a flowed paragraph does not go on into a quote */
        const char *s = p;
        if (!quoted && len > 0 && s[0] == ' ') {
            s++;
            len--;
        }
        bool soft = !quoted && len > 0 && s[len - 1] == ' ' && !(len == 3 && strncmp(s, "-- ", 3) == 0);
        memcpy(out + n, s, len);
        n += len;
        if (soft && delsp)
            n--;
        joining = soft && e;
        if (!joining && e)
            out[n++] = '\n';
        p = e ? e + 1 : p + strlen(p);
    }
    out[n] = 0;
    return out;
}

/* The reply's first line in part: a plain part's (unflowed when format=flowed), an HTML part's as text. */
static void command_of(GMimeTextPart *part, bool html, char *out, size_t n)
{
    out[0] = 0;
    char *text = g_mime_text_part_get_text(part);
    if (!text)
        return;
    GMimeObject *o = GMIME_OBJECT(part);
    const char *format = g_mime_object_get_content_type_parameter(o, "format");
    char *t = NULL;
    if (html) {
        t = cd_reply_html_text(text);
    } else if (format && strcasecmp(format, "flowed") == 0) {
        const char *delsp = g_mime_object_get_content_type_parameter(o, "delsp");
        t = unflow(text, delsp && strcasecmp(delsp, "yes") == 0);
    }
    cd_reply_first_line(t ? t : text, out, n);
    free(t);
    g_free(text);
}

/* The first text part (plain preferred over HTML) that is not an attachment, depth first. */
static void find_text(GMimeObject *o, GMimeTextPart **plain, GMimeTextPart **html)
{
    if (GMIME_IS_MULTIPART(o)) {
        GMimeMultipart *mp = GMIME_MULTIPART(o);
        for (int i = 0; i < g_mime_multipart_get_count(mp); i++)
            find_text(g_mime_multipart_get_part(mp, i), plain, html);
        return;
    }
    if (GMIME_IS_MESSAGE_PART(o) || !GMIME_IS_TEXT_PART(o))
        return;
    if (GMIME_IS_PART(o) && g_mime_part_is_attachment(GMIME_PART(o)))
        return;
    GMimeContentType *ct = g_mime_object_get_content_type(o);
    if (g_mime_content_type_is_type(ct, "text", "plain") && !*plain)
        *plain = GMIME_TEXT_PART(o);
    else if (g_mime_content_type_is_type(ct, "text", "html") && !*html)
        *html = GMIME_TEXT_PART(o);
}

static void copy_lower(char *out, size_t n, const char *s)
{
    size_t i = 0;
    for (; s && s[i] && i + 1 < n; i++)
        out[i] = (char)tolower((unsigned char)s[i]);
    out[i] = 0;
}

/* Looks for a reply tag in every mailbox of list. */
static bool tag_in(InternetAddressList *list, cd_reply *r)
{
    for (int i = 0; list && i < internet_address_list_length(list); i++) {
        InternetAddress *ia = internet_address_list_get_address(list, i);
        if (!INTERNET_ADDRESS_IS_MAILBOX(ia))
            continue;
        const char *addr = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia));
        /* a return path carcd wrote (its HMAC checked, so that a reply template and a return path template
         * may even be the same): a bounce */
        if (addr && cd_mail_bounce_tag_from_address(addr, r->bounce_tag) &&
            cd_mail_bounce_tag_id(r->bounce_tag, &r->bounce_id)) {
            copy_lower(r->to, sizeof r->to, addr);
            return r->has_bounce_tag = true;
        }
        if (addr && cd_mail_tag_from_address(addr, r->tag)) {
            copy_lower(r->to, sizeof r->to, addr);
            return r->has_tag = true;
        }
    }
    return false;
}

/* A header naming the envelope recipient (Delivered-To, X-Original-To, Envelope-To): the tag in it. */
static bool tag_in_header(GMimeObject *mo, const char *name, cd_reply *r)
{
    const char *v = g_mime_object_get_header(mo, name);
    if (!v)
        return false;
    InternetAddressList *l = internet_address_list_parse(NULL, v);
    bool found = tag_in(l, r);
    if (l)
        g_object_unref(l);
    return found;
}

/* The first line of text that starts with "name:" (any case); NULL when none. */
static const char *field_line(const char *text, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncasecmp(p, name, len) == 0 && p[len] == ':')
            return p;
    return NULL;
}

/* The value of text's first "name: value" line, trimmed; "" when none. */
static void dsn_field(const char *text, const char *name, char *out, size_t n)
{
    const char *p = field_line(text, name);
    out[0] = 0;
    if (!p)
        return;
    const char *v = p + strlen(name) + 1;
    while (*v == ' ' || *v == '\t')
        v++;
    snprintf(out, n, "%.*s", (int)strcspn(v, "\r\n"), v);
}

/* The first message/delivery-status part under o, as text (g_free it); NULL when none. */
static char *delivery_status(GMimeObject *o)
{
    if (GMIME_IS_MULTIPART(o)) {
        for (int i = 0; i < g_mime_multipart_get_count(GMIME_MULTIPART(o)); i++) {
            char *t = delivery_status(g_mime_multipart_get_part(GMIME_MULTIPART(o), i));
            if (t)
                return t;
        }
        return NULL;
    }
    GMimeContentType *ct = g_mime_object_get_content_type(o);
    if (!ct || !g_mime_content_type_is_type(ct, "message", "delivery-status"))
        return NULL;
    return g_mime_object_to_string(o, NULL);   /* its headers, then the report's fields */
}

/* RFC 3464: the per-message fields come first, then a block per recipient; the first recipient's. */
static void read_dsn(GMimeMessage *m, cd_reply *r)
{
    GMimeObject *body = g_mime_message_get_mime_part(m);
    char *report = body ? delivery_status(body) : NULL;
    if (!report)
        return;
    const char *rcpt = field_line(report, "Final-Recipient");
    const char *block = rcpt ? rcpt : report;
    char action[16] = "";
    dsn_field(block, "Action", action, sizeof action);
    copy_lower(r->dsn_action, sizeof r->dsn_action, action);
    dsn_field(block, "Status", r->dsn_status, sizeof r->dsn_status);
    dsn_field(block, "Diagnostic-Code", r->dsn_diagnostic, sizeof r->dsn_diagnostic);
    g_free(report);
}

/* RFC 3834 §2 and what responders that predate it write: the header that marks mo as a program's, into out
 * ("" for a person's). */
static void automatic_of(GMimeObject *mo, char *out, size_t n)
{
    out[0] = 0;
    const char *v = g_mime_object_get_header(mo, "Auto-Submitted");
    char word[24];
    if (v) {
        while (*v == ' ' || *v == '\t')
            v++;
        snprintf(word, sizeof word, "%.*s", (int)strcspn(v, " \t;("), v);
        if (strcasecmp(word, "no") != 0)
            snprintf(out, n, "Auto-Submitted: %s", word);
        return;
    }
    v = g_mime_object_get_header(mo, "Precedence");
    if (v) {
        while (*v == ' ' || *v == '\t')
            v++;
        snprintf(word, sizeof word, "%.*s", (int)strcspn(v, " \t;"), v);
        if (strcasecmp(word, "bulk") == 0 || strcasecmp(word, "junk") == 0 || strcasecmp(word, "list") == 0 ||
            strcasecmp(word, "auto_reply") == 0) {
            snprintf(out, n, "Precedence: %s", word);
            return;
        }
    }
    static const char *const flags[] = {"X-Autoreply", "X-Autorespond"};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (g_mime_object_get_header(mo, flags[i])) {
            snprintf(out, n, "%s", flags[i]);
            return;
        }
}

int cd_reply_parse(const char *data, size_t len, cd_reply *out)
{
    memset(out, 0, sizeof *out);
    out->in_reply_seq = -1;
    GMimeStream *s = g_mime_stream_mem_new_with_buffer(data, len);
    GMimeParser *p = g_mime_parser_new_with_stream(s);
    GMimeMessage *m = g_mime_parser_construct_message(p, NULL);
    g_object_unref(p);
    g_object_unref(s);
    if (!m)
        return -1;
    GMimeObject *mo = GMIME_OBJECT(m);
    const char *mid = g_mime_message_get_message_id(m);
    snprintf(out->message_id, sizeof out->message_id, "%s", mid ? mid : "");
    InternetAddressList *from = g_mime_message_get_from(m);
    for (int i = 0; from && i < internet_address_list_length(from); i++) {
        InternetAddress *ia = internet_address_list_get_address(from, i);
        if (INTERNET_ADDRESS_IS_MAILBOX(ia)) {
            copy_lower(out->from, sizeof out->from, internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia)));
            break;
        }
    }
    /* the envelope recipient first (what the mail server delivered to), then the visible ones */
    if (!tag_in_header(mo, "Delivered-To", out) && !tag_in_header(mo, "X-Original-To", out) &&
        !tag_in_header(mo, "Envelope-To", out)) {
        InternetAddressList *all = g_mime_message_get_all_recipients(m);
        tag_in(all, out);
        if (all)
            g_object_unref(all);
    }
    if (out->has_bounce_tag) {   /* a bounce says nothing to play: its report is what matters */
        read_dsn(m, out);
        g_object_unref(m);
        return 0;
    }
    automatic_of(mo, out->automatic, sizeof out->automatic);
    const char *irt = g_mime_object_get_header(mo, "In-Reply-To");
    if (irt) {
        char *id = g_mime_utils_decode_message_id(irt);
        if (id) {
            out->in_reply_seq = cd_mail_msg_id_seq(id);
            g_free(id);
        }
    }
    GMimeTextPart *plain = NULL, *html = NULL;
    GMimeObject *body = g_mime_message_get_mime_part(m);
    if (body)
        find_text(body, &plain, &html);
    if (plain)
        command_of(plain, false, out->command, sizeof out->command);
    if (html && !out->command[0])   /* HTML only, or a plain part with nothing written in it */
        command_of(html, true, out->command, sizeof out->command);
    g_object_unref(m);
    return 0;
}
