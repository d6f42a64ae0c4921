/*
 * config.c — carcd's settings from defaults, then the environment, then the command line.
 *
 * One table (`opts`) lists every setting once: its flag, its environment variable, how its value is parsed,
 * its range and its help line. cd_config_load and cd_config_usage both walk it, so `carcd --help` cannot
 * forget a setting and no setting can be read two different ways. An empty environment variable counts as
 * unset; a flag takes its value as `--flag value` or `--flag=value`.
 */
#include "config.h"

#include "netaddr.h"
#include "rate.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef enum { OPT_STRING, OPT_LISTEN, OPT_INT, OPT_SIZE } opt_kind;

typedef struct {
    const char *flag;
    const char *env;
    opt_kind kind;
    size_t offset;      /* of the field in cd_config */
    size_t size;        /* OPT_STRING: the field's capacity */
    long long min, max; /* OPT_INT, OPT_SIZE */
    const char *arg;    /* what the value looks like, for --help */
    const char *help;
} opt;

#define FIELD(f) offsetof(cd_config, f)
#define CAPACITY(f) sizeof(((cd_config *)0)->f)

static const opt opts[] = {
    {"--database-url", "CARCD_DATABASE_URL", OPT_STRING, FIELD(database_url), CAPACITY(database_url), 0, 0,
     "URL", "libpq connection string (default: empty, libpq's defaults and PG* variables)"},
    {"--listen", "CARCD_LISTEN", OPT_LISTEN, 0, 0, 0, 0, "HOST:PORT",
     "address to serve on; [::1]:8080 for IPv6, :8080 for every address, unix:PATH for a unix socket (for a "
     "reverse proxy on the same machine; a stale socket file there is replaced) (default 127.0.0.1:8080)"},
    {"--admin-token", "CARCD_ADMIN_TOKEN", OPT_STRING, FIELD(admin_token), CAPACITY(admin_token), 0, 0, "TOKEN",
     "bearer token of the admin endpoints (default: empty, no admin access)"},
    {"--metrics-token", "CARCD_METRICS_TOKEN", OPT_STRING, FIELD(metrics_token), CAPACITY(metrics_token), 0, 0,
     "TOKEN", "bearer token GET /metrics asks for (default: empty, /metrics is open to anyone who can reach it)"},
    {"--body-limit", "CARCD_BODY_LIMIT", OPT_SIZE, FIELD(body_limit), 0, 1, 1LL << 30, "BYTES",
     "largest request body accepted, larger ones get 413 (default 65536)"},
    {"--threads", "CARCD_THREADS", OPT_INT, FIELD(threads), 0, 1, 1024, "N",
     "HTTP worker threads, each with one database connection (default 4)"},
    {"--max-wait", "CARCD_MAX_WAIT", OPT_INT, FIELD(max_wait_s), 0, 0, 3600, "SECONDS",
     "longest ?wait= a long-poll on the events endpoint may ask for (default 60)"},
    {"--listen-linger", "CARCD_LISTEN_LINGER", OPT_INT, FIELD(listen_linger_s), 0, 0, 3600, "SECONDS",
     "carcd LISTENs for moves only while a long-poll or event stream waits, and for this long after the last "
     "one went, so that clients coming back at once find it listening (default 30)"},
    {"--conn-timeout", "CARCD_CONN_TIMEOUT", OPT_INT, FIELD(conn_timeout_s), 0, 0, 86400, "SECONDS",
     "idle timeout while a request is handled and its answer sent, 0 for none; a waiting long-poll or event "
     "stream has none, its ?wait bounds it (default 90)"},
    {"--header-timeout", "CARCD_HEADER_TIMEOUT", OPT_INT, FIELD(header_timeout_s), 0, 1, 3600, "SECONDS",
     "idle timeout of a connection until its request is complete (headers and body) and between requests: a client "
     "that pauses longer than this gives its slot up (one that keeps sending, however slowly, keeps it) (default 10)"},
    {"--max-connections", "CARCD_MAX_CONNECTIONS", OPT_INT, FIELD(max_connections), 0, 1, 1000000, "N",
     "most simultaneous client connections being read, handled or kept alive, and as many waiting long-polls and "
     "streams besides, held apart (default 1024)"},
    {"--per-ip-connections", "CARCD_PER_IP_CONNECTIONS", OPT_INT, FIELD(per_ip_connections), 0, 0, 1000000, "N",
     "most simultaneous connections from one address, and as many waiting long-polls and streams besides; 0 for no "
     "limit, as behind a reverse proxy, whose connections all come from its address (default 128)"},
    {"--create", "CARCD_CREATE", OPT_STRING, FIELD(create_mode), CAPACITY(create_mode), 0, 0, "WHO",
     "who may create games: anyone, players (a player key or the admin token) or admin (default anyone)"},
    {"--rate-create", "CARCD_RATE_CREATE", OPT_STRING, FIELD(rate_create), CAPACITY(rate_create), 0, 0,
     "B/M[,B/M]", "games created: a token bucket of B at most, refilled by M a minute, per client address and "
     "per key (address,key when two); 0 for none; the admin token is not limited (default "
     CD_RATE_CREATE_DEFAULT ")"},
    {"--rate-moves", "CARCD_RATE_MOVES", OPT_STRING, FIELD(rate_moves), CAPACITY(rate_moves), 0, 0, "B/M[,B/M]",
     "moves, per client address and per seat token or player key, as --rate-create (default "
     CD_RATE_MOVES_DEFAULT ")"},
    {"--rate-joins", "CARCD_RATE_JOINS", OPT_STRING, FIELD(rate_joins), CAPACITY(rate_joins), 0, 0, "B/M[,B/M]",
     "joins of open seats, per client address and per player key, as --rate-create (default "
     CD_RATE_JOINS_DEFAULT ")"},
    {"--rate-invite-mails", "CARCD_RATE_INVITE_MAILS", OPT_STRING, FIELD(rate_invite_mails),
     CAPACITY(rate_invite_mails), 0, 0, "B/M[,B/M]",
     "creations that mail invitations ({\"invite\": true, \"email\": ...}, up to 5 mails each), per client "
     "address and per key, as --rate-create, besides it (default " CD_RATE_INVITE_MAILS_DEFAULT ")"},
    {"--trusted-proxies", "CARCD_TRUSTED_PROXIES", OPT_STRING, FIELD(trusted_proxies), CAPACITY(trusted_proxies),
     0, 0, "CIDRS", "comma-separated addresses and ranges (IPv4, IPv6; unix for the unix socket) of reverse "
     "proxies whose X-Forwarded-For names the client; from any other peer the header is ignored (default none)"},
    {"--public-url", "CARCD_PUBLIC_URL", OPT_STRING, FIELD(public_url), CAPACITY(public_url), 0, 0, "URL",
     "base URL of the links in webhook payloads and mails, e.g. https://carc.example.org (default: empty, relative "
     "links; needed with --smtp-url)"},
    {"--webhook-allow", "CARCD_WEBHOOK_ALLOW", OPT_STRING, FIELD(webhook_allow), CAPACITY(webhook_allow), 0, 0,
     "CIDRS", "comma-separated ranges webhooks may reach although loopback, private or link-local (default none)"},
    {"--webhook-backoff", "CARCD_WEBHOOK_BACKOFF", OPT_STRING, FIELD(webhook_backoff), CAPACITY(webhook_backoff), 0,
     0, "SECONDS,...", "delay before each webhook attempt, the first after the event (default "
     CD_WEBHOOK_BACKOFF_DEFAULT ")"},
    {"--webhook-timeout", "CARCD_WEBHOOK_TIMEOUT", OPT_INT, FIELD(webhook_timeout_s), 0, 1, 300, "SECONDS",
     "longest webhook attempt, connecting included (default 15)"},
    {"--webhook-connect-timeout", "CARCD_WEBHOOK_CONNECT_TIMEOUT", OPT_INT, FIELD(webhook_connect_s), 0, 1, 300,
     "SECONDS", "longest wait for a webhook receiver to accept the connection (default 5)"},
    {"--webhook-concurrency", "CARCD_WEBHOOK_CONCURRENCY", OPT_INT, FIELD(webhook_concurrency), 0, 0, 1024, "N",
     "webhook attempts in flight at once; 0: this carcd delivers none (default 32)"},
    {"--log-flush-ms", "CARCD_LOG_FLUSH_MS", OPT_INT, FIELD(log_flush_ms), 0, 0, 10000, "MS",
     "the requests' log lines are gathered and written together at most this long after they were made (at once "
     "when 64 KiB wait; warnings and errors at once, after them; at exit and on a crash too); 0: each line is "
     "written as it is made (default 100)"},
    {"--clock-interval-ms", "CARCD_CLOCK_INTERVAL_MS", OPT_INT, FIELD(clock_interval_ms), 0, 0, 3600000, "MS",
     "how often the clock worker looks for due reminders and timeouts, and compacts finished games and "
     "forgets expired idempotency answers and old deliveries; 0: this carcd does none of it "
     "(default 1000)"},
    {"--idempotency-ttl", "CARCD_IDEMPOTENCY_TTL", OPT_INT, FIELD(idempotency_ttl_s), 0, 1, 366 * 86400, "SECONDS",
     "how long a move's stored answer serves a retry with the same Idempotency-Key; after it the key is "
     "forgotten, and a retry is a new request (which the seq check refuses as stale) (default 86400)"},
    {"--delivery-ttl", "CARCD_DELIVERY_TTL", OPT_INT, FIELD(delivery_ttl_s), 0, 0, 366 * 86400, "SECONDS",
     "how long a mail that was sent or failed, and a webhook message that was delivered or failed, are kept "
     "after their last attempt (their bytes, attempts and place in the deliveries list); then the clock worker "
     "deletes them, but what a game under way still needs; a mail handled (a reply) is kept as long after it "
     "was handled once its game is over, and a player's event (GET /v1/me/events) as long after it was written; "
     "0: kept for ever (default 604800, 7 days)"},
    {"--waiting-ttl", "CARCD_WAITING_TTL", OPT_INT, FIELD(waiting_ttl_s), 0, 0, 366 * 86400, "SECONDS",
     "a game that waits for its seats (open places, a rematch offer) is cancelled by the clock worker once "
     "nobody has joined it for this long, counted from its creation or its latest join; its seats are told as "
     "of a creator's cancel; 0: never (default 1209600, 14 days)"},
    {"--snapshot-every", "CARCD_SNAPSHOT_EVERY", OPT_INT, FIELD(snapshot_every), 0, 1, 1000, "N",
     "a game row's snapshot is a checkpoint, written after every Nth move and the last; a carcd that does not "
     "hold a game's state decodes it and applies the moves after it (at most N-1, and an admin's cancel) "
     "(default 16; 1: after every move, as before sql/017)"},
    {"--bot-interval-ms", "CARCD_BOT_INTERVAL_MS", OPT_INT, FIELD(bot_interval_ms), 0, 0, 3600000, "MS",
     "how often the bot worker looks for a move a bot makes; 0: this carcd plays no bots (default 500)"},
    {"--bot-workers", "CARCD_BOT_WORKERS", OPT_INT, FIELD(bot_workers), 0, 1, CD_BOT_WORKERS_MAX, "N",
     "bot worker threads: how many bot games this carcd thinks for at once, each on its own database "
     "connection (default: the number of cores online)"},
    {"--time-file", "CARCD_TIME_FILE", OPT_STRING, FIELD(time_file), CAPACITY(time_file), 0, 0, "PATH",
     "for tests: the clocks' time is read from this file (seconds since the epoch) at every use "
     "(default: empty, the real clock)"},
    {"--smtp-url", "CARCD_SMTP_URL", OPT_STRING, FIELD(smtp_url), CAPACITY(smtp_url), 0, 0, "URL",
     "mail server for the players' mail: smtp://host:587 (STARTTLS) or smtps://host:465; TLS is required "
     "unless the server is on loopback (default: empty, no mail is sent)"},
    {"--smtp-user", "CARCD_SMTP_USER", OPT_STRING, FIELD(smtp_user), CAPACITY(smtp_user), 0, 0, "NAME",
     "SMTP login (default: empty, none)"},
    {"--smtp-password", "CARCD_SMTP_PASSWORD", OPT_STRING, FIELD(smtp_password), CAPACITY(smtp_password), 0, 0,
     "PASSWORD", "SMTP password"},
    {"--mail-from", "CARCD_MAIL_FROM", OPT_STRING, FIELD(mail_from), CAPACITY(mail_from), 0, 0, "ADDRESS",
     "From address of the players' mail (default carcd@localhost)"},
    {"--mail-reply-to", "CARCD_MAIL_REPLY_TO", OPT_STRING, FIELD(mail_reply_to), CAPACITY(mail_reply_to), 0, 0,
     "TEMPLATE", "per-seat reply address, {tag} replaced by the seat's tag, e.g. play+{tag}@example.org "
     "(default: empty, mails say to play on the web)"},
    {"--mail-return-path", "CARCD_MAIL_RETURN_PATH", OPT_STRING, FIELD(mail_return_path),
     CAPACITY(mail_return_path), 0, 0, "TEMPLATE",
     "per-mail envelope sender, {tag} replaced by the mail's bounce tag, e.g. play+b{tag}@example.org: a bounce "
     "comes back to carcd's mail-in (or IMAP mailbox) and stops that mail's address (default: empty, "
     "CARCD_MAIL_FROM, and bounces go there unread)"},
    {"--mail-secret", "CARCD_MAIL_SECRET", OPT_STRING, FIELD(mail_secret), CAPACITY(mail_secret), 0, 0, "KEY",
     "key of the tags in reply addresses and unsubscribe links (HMAC-SHA256 over game and seat), 16 characters or "
     "more; needed with --smtp-url; the same in every carcd of a database"},
    {"--mail-backoff", "CARCD_MAIL_BACKOFF", OPT_STRING, FIELD(mail_backoff), CAPACITY(mail_backoff), 0, 0,
     "SECONDS,...", "delay before each retry of a mail the server did not take (default "
     CD_MAIL_BACKOFF_DEFAULT ")"},
    {"--imap-url", "CARCD_IMAP_URL", OPT_STRING, FIELD(imap_url), CAPACITY(imap_url), 0, 0, "URL",
     "mailbox of the replies, polled: imaps://user:password@host/INBOX (default: empty, no polling; "
     "`carcd mail-in` reads one mail from stdin instead)"},
    {"--imap-interval-ms", "CARCD_IMAP_INTERVAL_MS", OPT_INT, FIELD(imap_interval_ms), 0, 100, 3600000, "MS",
     "how often the IMAP poller looks for new replies (default 5000)"},
};
#define NOPTS (sizeof opts / sizeof opts[0])

static void defaults(cd_config *c)
{
    memset(c, 0, sizeof *c);
    c->command = CD_CMD_SERVE;
    strcpy(c->listen_host, "127.0.0.1");
    c->listen_port = 8080;
    c->body_limit = 65536;
    c->threads = 4;
    c->max_wait_s = 60;
    c->listen_linger_s = 30;
    c->conn_timeout_s = 90;
    c->header_timeout_s = 10;
    c->max_connections = 1024;
    c->per_ip_connections = 128;
    strcpy(c->create_mode, "anyone");
    strcpy(c->rate_create, CD_RATE_CREATE_DEFAULT);
    strcpy(c->rate_moves, CD_RATE_MOVES_DEFAULT);
    strcpy(c->rate_joins, CD_RATE_JOINS_DEFAULT);
    strcpy(c->rate_invite_mails, CD_RATE_INVITE_MAILS_DEFAULT);
    strcpy(c->webhook_backoff, CD_WEBHOOK_BACKOFF_DEFAULT);
    c->webhook_timeout_s = 15;
    c->webhook_connect_s = 5;
    c->webhook_concurrency = 32;
    c->log_flush_ms = 100;
    c->clock_interval_ms = 1000;
    c->idempotency_ttl_s = 86400;
    c->delivery_ttl_s = 7 * 86400;
    c->waiting_ttl_s = 14 * 86400;
    c->snapshot_every = 16;
    c->bot_interval_ms = 500;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);   /* a think keeps one core busy: one worker per core */
    c->bot_workers = cores < 1 ? 1 : cores > CD_BOT_WORKERS_MAX ? CD_BOT_WORKERS_MAX : (int)cores;
    strcpy(c->mail_from, "carcd@localhost");
    strcpy(c->mail_backoff, CD_MAIL_BACKOFF_DEFAULT);
    c->imap_interval_ms = 5000;
}

/* "host:port", "[v6]:port", ":port" or "unix:PATH" into c. */
static int parse_listen(cd_config *c, const char *v, const char *who, char *err, size_t errlen)
{
    const char *host = v, *colon;
    size_t hostlen;
    c->listen_unix[0] = '\0';
    if (strncmp(v, "unix:", 5) == 0) {   /* behind a reverse proxy on the same machine */
        if (!v[5] || strlen(v + 5) >= sizeof c->listen_unix) {
            snprintf(err, errlen, "%s: unix:PATH needs a path of 1 to %zu bytes", who, sizeof c->listen_unix - 1);
            return -1;
        }
        snprintf(c->listen_unix, sizeof c->listen_unix, "%s", v + 5);
        return 0;
    }
    if (v[0] == '[') {
        const char *close = strchr(v, ']');
        if (!close || close[1] != ':') {
            snprintf(err, errlen, "%s: expected [IPv6]:PORT, got \"%s\"", who, v);
            return -1;
        }
        host = v + 1;
        hostlen = (size_t)(close - host);
        colon = close + 1;
    } else {
        colon = strrchr(v, ':');
        if (!colon) {
            snprintf(err, errlen, "%s: expected HOST:PORT, got \"%s\"", who, v);
            return -1;
        }
        if (memchr(v, ':', (size_t)(colon - v))) {
            snprintf(err, errlen, "%s: write an IPv6 address in brackets, e.g. [::1]:8080", who);
            return -1;
        }
        hostlen = (size_t)(colon - v);
    }
    if (hostlen >= sizeof c->listen_host) {
        snprintf(err, errlen, "%s: host name too long", who);
        return -1;
    }
    const char *port = colon + 1;
    char *end;
    errno = 0;
    long p = strtol(port, &end, 10);
    if (*port < '0' || *port > '9' || *end || errno || p < 0 || p > 65535) {
        snprintf(err, errlen, "%s: port must be a number 0..65535, got \"%s\"", who, port);
        return -1;
    }
    memcpy(c->listen_host, host, hostlen);
    c->listen_host[hostlen] = '\0';
    c->listen_port = (int)p;
    return 0;
}

/* Sets option o from value v; `who` names where v came from, for the message. */
static int set_opt(cd_config *c, const opt *o, const char *v, const char *who, char *err, size_t errlen)
{
    char *field = (char *)c + o->offset;
    switch (o->kind) {
    case OPT_STRING:
        if (strlen(v) >= o->size) {
            snprintf(err, errlen, "%s: longer than %zu characters", who, o->size - 1);
            return -1;
        }
        strcpy(field, v);
        return 0;
    case OPT_LISTEN:
        return parse_listen(c, v, who, err, errlen);
    case OPT_INT:
    case OPT_SIZE: {
        char *end;
        errno = 0;
        long long n = strtoll(v, &end, 10);
        if (*v < '0' || *v > '9' || *end || errno || n < o->min || n > o->max) {
            snprintf(err, errlen, "%s: expected a whole number %lld..%lld, got \"%s\"", who, o->min, o->max, v);
            return -1;
        }
        if (o->kind == OPT_INT)
            *(int *)(void *)field = (int)n;
        else
            *(size_t *)(void *)field = (size_t)n;
        return 0;
    }
    }
    return -1;
}

static const opt *find_flag(const char *arg, size_t namelen)
{
    for (size_t i = 0; i < NOPTS; i++)
        if (strlen(opts[i].flag) == namelen && strncmp(opts[i].flag, arg, namelen) == 0)
            return &opts[i];
    return NULL;
}

static int load_raw(cd_config *c, int argc, char **argv, char *err, size_t errlen);

/* The settings whose values have a shape of their own, checked once everything is read. */
static int check_limits(const cd_config *c, char *err, size_t errlen)
{
    if (strcmp(c->create_mode, "anyone") != 0 && strcmp(c->create_mode, "players") != 0 &&
        strcmp(c->create_mode, "admin") != 0) {
        snprintf(err, errlen, "CARCD_CREATE: anyone, players or admin, got \"%s\"", c->create_mode);
        return -1;
    }
    const struct {
        const char *name, *v;
    } rates[] = {{"CARCD_RATE_CREATE", c->rate_create}, {"CARCD_RATE_MOVES", c->rate_moves},
                 {"CARCD_RATE_JOINS", c->rate_joins}, {"CARCD_RATE_INVITE_MAILS", c->rate_invite_mails}};
    char why[200];
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
        cd_rate_spec a, k;
        if (!cd_rate_pair_parse(rates[i].v, &a, &k, why, sizeof why)) {
            snprintf(err, errlen, "%s: %s", rates[i].name, why);
            return -1;
        }
    }
    cd_net_ranges cidrs;
    if (!cd_ranges_parse(c->trusted_proxies, &cidrs, why, sizeof why)) {
        snprintf(err, errlen, "CARCD_TRUSTED_PROXIES: %s", why);
        return -1;
    }
    return 0;
}

int cd_config_load(cd_config *c, int argc, char **argv, char *err, size_t errlen)
{
    int rc = load_raw(c, argc, argv, err, errlen);
    return rc == 0 && c->command != CD_CMD_HELP ? check_limits(c, err, errlen) : rc;
}

static int load_raw(cd_config *c, int argc, char **argv, char *err, size_t errlen)
{
    defaults(c);
    for (size_t i = 0; i < NOPTS; i++) {
        const char *v = getenv(opts[i].env);
        if (v && *v && set_opt(c, &opts[i], v, opts[i].env, err, errlen) != 0)
            return -1;
    }
    bool have_command = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            c->command = CD_CMD_HELP;
            return 0;
        }
        if (strncmp(a, "--", 2) == 0) {
            const char *eq = strchr(a, '=');
            size_t namelen = eq ? (size_t)(eq - a) : strlen(a);
            const opt *o = find_flag(a, namelen);
            if (!o) {
                snprintf(err, errlen, "unknown flag %.*s", (int)namelen, a);
                return -1;
            }
            const char *v = eq ? eq + 1 : NULL;
            if (!v) {
                if (i + 1 >= argc) {
                    snprintf(err, errlen, "%s needs a value (%s)", o->flag, o->arg);
                    return -1;
                }
                v = argv[++i];
            }
            if (set_opt(c, o, v, o->flag, err, errlen) != 0)
                return -1;
            continue;
        }
        if (a[0] == '-') {
            snprintf(err, errlen, "unknown flag %s", a);
            return -1;
        }
        if (have_command) {
            snprintf(err, errlen, "unexpected argument \"%s\"", a);
            return -1;
        }
        have_command = true;
        if (strcmp(a, "serve") == 0)
            c->command = CD_CMD_SERVE;
        else if (strcmp(a, "migrate") == 0)
            c->command = CD_CMD_MIGRATE;
        else if (strcmp(a, "mail-in") == 0)
            c->command = CD_CMD_MAIL_IN;
        else if (strcmp(a, "help") == 0)
            c->command = CD_CMD_HELP;
        else {
            snprintf(err, errlen, "unknown command \"%s\" (serve, migrate, mail-in or help)", a);
            return -1;
        }
    }
    return 0;
}

void cd_config_usage(FILE *f)
{
    fputs("usage: carcd [serve|migrate|mail-in] [flags]\n"
          "\n"
          "  serve     serve the HTTP API (the default); refuses to start on an old database schema\n"
          "  migrate   apply the database migrations this binary carries, then exit\n"
          "  mail-in   handle one reply mail (RFC 5322) from stdin: exit 0 once handled, 75 to be tried again\n"
          "\n"
          "Every flag has an environment variable of the same meaning; a flag wins over its variable.\n"
          "\n",
          f);
    for (size_t i = 0; i < NOPTS; i++) {
        char left[64];
        snprintf(left, sizeof left, "%s %s", opts[i].flag, opts[i].arg);
        fprintf(f, "  %-28s %-22s %s\n", left, opts[i].env, opts[i].help);
    }
    fprintf(f, "  %-28s %-22s %s\n", "-h, --help", "", "print this and exit");
}
