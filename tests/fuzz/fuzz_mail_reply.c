/*
 * fuzz_mail_reply.c — a reply mail's bytes, as `carcd mail-in` or the IMAP poller would receive them, read by
 * mail/reply.c (GMime's parser, the text part's decoding, the HTML-as-text reader, the first-line rules, and a
 * bounce's delivery status report: corpus/bounce.eml is one to a return path valid under this secret):
 * whatever arrives must never crash carcd, and what is read must fit its fields.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "mail/mail.h"
#include "mail/reply.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static cd_config cfg;
    static int ready;
    if (!ready) {
        char *argv[] = {"carcd", NULL};
        char err[200];
        if (cd_config_load(&cfg, 1, argv, err, sizeof err) != 0)
            abort();
        strcpy(cfg.mail_reply_to, "play+{tag}@example.org");
        strcpy(cfg.mail_return_path, "play+b{tag}@example.org");
        strcpy(cfg.mail_secret, "fuzzing-secret-0123456789");
        if (cd_mail_configure(&cfg, err, sizeof err) != 0)
            abort();
        ready = 1;
    }
    cd_reply r;
    if (cd_reply_parse((const char *)data, size, &r) == 0) {
        if (strlen(r.command) >= sizeof r.command || strlen(r.message_id) >= sizeof r.message_id)
            abort();
        if (r.has_tag && strlen(r.tag) != CD_MAIL_TAG_LEN)
            abort();
        if (r.has_bounce_tag && (strlen(r.bounce_tag) != CD_MAIL_TAG_LEN || r.has_tag ||
                                 strlen(r.dsn_action) >= sizeof r.dsn_action ||
                                 strlen(r.dsn_status) >= sizeof r.dsn_status ||
                                 strlen(r.dsn_diagnostic) >= sizeof r.dsn_diagnostic))
            abort();
    }
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = 0;
    char *plain = cd_reply_html_text(text);
    char line[CD_REPLY_LINE_MAX];
    cd_reply_first_line(plain, line, sizeof line);
    free(plain);
    free(text);
    return 0;
}
