/*
 * build.c — mails built with GMime (build.h). Text goes out quoted-printable in UTF-8, the picture base64.
 */
#include "build.h"

#include <gmime/gmime.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The body's UTF-8 bytes as they are, labelled utf-8: g_mime_text_part_set_text would convert them to the
 * smallest charset that holds them (ISO-8859-1 for "Jürgen"), which a utf-8 label set after it then belies. */
static GMimeObject *text_part(const char *subtype, const char *body)
{
    GMimeTextPart *t = g_mime_text_part_new_with_subtype(subtype);
    GMimeStream *s = g_mime_stream_mem_new_with_buffer(body, strlen(body));
    GMimeDataWrapper *w = g_mime_data_wrapper_new_with_stream(s, GMIME_CONTENT_ENCODING_DEFAULT);
    g_mime_part_set_content(GMIME_PART(t), w);
    g_object_unref(w);
    g_object_unref(s);
    g_mime_text_part_set_charset(t, "utf-8");
    g_mime_part_set_content_encoding(GMIME_PART(t), GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE);
    return GMIME_OBJECT(t);
}

static GMimeObject *png_part(const unsigned char *png, size_t len)
{
    GMimePart *img = g_mime_part_new_with_type("image", "png");
    GMimeStream *s = g_mime_stream_mem_new_with_buffer((const char *)png, len);
    GMimeDataWrapper *w = g_mime_data_wrapper_new_with_stream(s, GMIME_CONTENT_ENCODING_DEFAULT);
    g_mime_part_set_content(img, w);
    g_object_unref(w);
    g_object_unref(s);
    g_mime_part_set_content_encoding(img, GMIME_CONTENT_ENCODING_BASE64);
    g_mime_part_set_content_id(img, CD_MAIL_PNG_CID);
    g_mime_object_set_disposition(GMIME_OBJECT(img), "inline");
    g_mime_part_set_filename(img, "board.png");
    return GMIME_OBJECT(img);
}

char *cd_mail_build(const cd_mail_parts *p)
{
    GMimeMessage *m = g_mime_message_new(TRUE);
    g_mime_message_add_mailbox(m, GMIME_ADDRESS_TYPE_FROM, "carcd", p->from);
    g_mime_message_add_mailbox(m, GMIME_ADDRESS_TYPE_TO, NULL, p->to);
    if (p->reply_to && p->reply_to[0])
        g_mime_message_add_mailbox(m, GMIME_ADDRESS_TYPE_REPLY_TO, NULL, p->reply_to);
    g_mime_message_set_subject(m, p->subject, "utf-8");
    g_mime_message_set_message_id(m, p->msg_id);
    GDateTime *now = g_date_time_new_now_utc();
    g_mime_message_set_date(m, now);
    g_date_time_unref(now);
    GMimeObject *mo = GMIME_OBJECT(m);
    bool answers = p->in_reply_to && p->in_reply_to[0];
    if (p->thread_id && strcmp(p->thread_id, p->msg_id) != 0) {
        char ref[300], refs[620];
        snprintf(ref, sizeof ref, "<%s>", answers ? p->in_reply_to : p->thread_id);
        if (answers)   /* under the player's mail, in the game's thread (RFC 5322 §3.6.4) */
            snprintf(refs, sizeof refs, "<%s> %s", p->thread_id, ref);
        else
            snprintf(refs, sizeof refs, "%s", ref);
        g_mime_object_set_header(mo, "In-Reply-To", ref, NULL);
        g_mime_object_set_header(mo, "References", refs, NULL);
    }
    if (p->unsubscribe && p->unsubscribe[0]) {
        char u[700];
        snprintf(u, sizeof u, "<%s>", p->unsubscribe);
        g_mime_object_set_header(mo, "List-Unsubscribe", u, NULL);
        /* as written, never as RFC 2047 encoded-words: GMime encodes an unstructured value with a word longer
         * than a line (a long public URL), which no mail program reads as a link; a header line may be 998
         * bytes, and the URL is far below that */
        char raw[720];
        snprintf(raw, sizeof raw, " %s\n", u);
        GMimeHeaderList *headers = g_mime_object_get_header_list(mo);
        g_mime_header_set_raw_value(g_mime_header_list_get_header(headers, "List-Unsubscribe"), raw);
        g_mime_object_set_header(mo, "List-Unsubscribe-Post", "List-Unsubscribe=One-Click", NULL);
    }
    g_mime_object_set_header(mo, "Auto-Submitted", "auto-generated", NULL);

    GMimeObject *body;
    if (p->html) {
        GMimeMultipart *alt = g_mime_multipart_new_with_subtype("alternative");
        GMimeObject *plain = text_part("plain", p->text);
        g_mime_multipart_add(alt, plain);
        g_object_unref(plain);
        GMimeObject *html = text_part("html", p->html);
        if (p->png) {
            GMimeMultipart *rel = g_mime_multipart_new_with_subtype("related");
            g_mime_object_set_content_type_parameter(GMIME_OBJECT(rel), "type", "text/html");
            g_mime_multipart_add(rel, html);
            GMimeObject *img = png_part(p->png, p->png_len);
            g_mime_multipart_add(rel, img);
            g_object_unref(img);
            g_mime_multipart_add(alt, GMIME_OBJECT(rel));
            g_object_unref(rel);
        } else {
            g_mime_multipart_add(alt, html);
        }
        g_object_unref(html);
        body = GMIME_OBJECT(alt);
    } else {
        body = text_part("plain", p->text);
    }
    g_mime_message_set_mime_part(m, body);
    g_object_unref(body);

    GMimeFormatOptions *fo = g_mime_format_options_clone(NULL);
    g_mime_format_options_set_newline_format(fo, GMIME_NEWLINE_FORMAT_DOS);
    char *s = g_mime_object_to_string(mo, fo);
    g_mime_format_options_free(fo);
    g_object_unref(m);
    if (!s)
        return NULL;
    char *out = strdup(s);   /* the caller frees with free(), not g_free() */
    g_free(s);
    if (!out)
        abort();
    return out;
}
