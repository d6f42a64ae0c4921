/*
 * config.h — carcd's configuration: command-line flags override environment variables override defaults.
 * Every setting has both spellings (`--listen` / CARCD_LISTEN); `carcd --help` prints the table.
 */
#ifndef CD_CONFIG_H
#define CD_CONFIG_H

#include <stddef.h>
#include <stdio.h>

/* the Standard Webhooks schedule: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h */
#define CD_WEBHOOK_BACKOFF_DEFAULT "0,5,300,1800,7200,18000,36000,86400"

typedef enum { CD_CMD_SERVE, CD_CMD_MIGRATE, CD_CMD_HELP, CD_CMD_MAIL_IN } cd_command;

/* the rate limits' defaults (README, "Limits"): per address, then per key; generous, so that nothing that
 * works without them breaks (the test suite, bench/'s 1 300 moves/s from one address) */
#define CD_RATE_CREATE_DEFAULT "300/3000,60/600"
#define CD_RATE_MOVES_DEFAULT "3000/180000,300/6000"
#define CD_RATE_JOINS_DEFAULT "300/3000,60/600"
/* creations that mail invitations (up to 5 mails each): strangers' addresses, so not generous */
#define CD_RATE_INVITE_MAILS_DEFAULT "10/2"

/* mail's retry schedule: 5 s, 30 s, 5 min, 30 min, 2 h, 10 h, 24 h */
#define CD_MAIL_BACKOFF_DEFAULT "5,30,300,1800,7200,36000,86400"
#define CD_BOT_WORKERS_MAX 64   /* CARCD_BOT_WORKERS: threads, each with its own database connection */

typedef struct {
    cd_command command;
    char database_url[1024];  /* CARCD_DATABASE_URL / --database-url: a libpq connection string */
    char listen_host[256];    /* CARCD_LISTEN / --listen host:port, default 127.0.0.1:8080 */
    int listen_port;
    char listen_unix[108];    /* CARCD_LISTEN unix:PATH: a unix socket instead (sun_path's size); "" = TCP */
    char admin_token[256];    /* CARCD_ADMIN_TOKEN / --admin-token; empty = no admin access */
    char metrics_token[256];  /* CARCD_METRICS_TOKEN / --metrics-token: bearer token /metrics asks; empty = open */
    size_t body_limit;        /* CARCD_BODY_LIMIT / --body-limit bytes, default 65536 */
    int threads;              /* CARCD_THREADS / --threads: MHD worker threads = DB connections, default 4 */
    int max_wait_s;           /* CARCD_MAX_WAIT / --max-wait: cap of ?wait= on events, default 60 */
    int listen_linger_s;      /* CARCD_LISTEN_LINGER / --listen-linger: how long the notify thread stays LISTENing
                                 after its last waiter went (db/notify.h), default 30 */
    int conn_timeout_s;       /* CARCD_CONN_TIMEOUT / --conn-timeout: idle timeout while a request is handled and
                                 answered, default 90 (a waiting long-poll or SSE stream has none) */
    int header_timeout_s;     /* CARCD_HEADER_TIMEOUT / --header-timeout: idle timeout of a connection before its
                                 request is complete (headers, body) and between requests, default 10 */
    int max_connections;      /* CARCD_MAX_CONNECTIONS / --max-connections, default 1024 */
    int per_ip_connections;   /* CARCD_PER_IP_CONNECTIONS / --per-ip-connections: from one address, 0 = no
                                 limit, default 128 */
    /* limits for a public server (http/limits.h) */
    char create_mode[16];     /* CARCD_CREATE / --create: who may create games: anyone, players or admin */
    char rate_create[64];     /* CARCD_RATE_CREATE: BURST/PER_MINUTE[,BURST/PER_MINUTE] per address[, per key] */
    char rate_moves[64];      /* CARCD_RATE_MOVES: the same for moves */
    char rate_joins[64];      /* CARCD_RATE_JOINS: the same for joining a game */
    char rate_invite_mails[64]; /* CARCD_RATE_INVITE_MAILS: the same for creations that mail invitations */
    char trusted_proxies[1024]; /* CARCD_TRUSTED_PROXIES: addresses/CIDRs whose X-Forwarded-For is believed */
    /* webhooks (webhooks.h, deliver.h) */
    char public_url[512];     /* CARCD_PUBLIC_URL / --public-url: base of the links in webhook payloads */
    char webhook_allow[1024]; /* CARCD_WEBHOOK_ALLOW / --webhook-allow: CIDR ranges opened to deliveries */
    char webhook_backoff[256];/* CARCD_WEBHOOK_BACKOFF / --webhook-backoff: seconds before each attempt */
    int webhook_timeout_s;    /* CARCD_WEBHOOK_TIMEOUT / --webhook-timeout: one attempt, in all, default 15 */
    int webhook_connect_s;    /* CARCD_WEBHOOK_CONNECT_TIMEOUT / --webhook-connect-timeout, default 5 */
    int webhook_concurrency;  /* CARCD_WEBHOOK_CONCURRENCY / --webhook-concurrency: sends at once, 0 = none */
    /* turn clocks (clock.h, clock_worker.h) */
    int bot_interval_ms;      /* CARCD_BOT_INTERVAL_MS / --bot-interval-ms: bot worker's look for bot moves */
    int bot_workers;          /* CARCD_BOT_WORKERS / --bot-workers: bot games thought for at once, default
                                 the cores online */
    int log_flush_ms;         /* CARCD_LOG_FLUSH_MS / --log-flush-ms: how long a request's log line may wait */
    int clock_interval_ms;    /* CARCD_CLOCK_INTERVAL_MS / --clock-interval-ms: worker's look for due clocks */
    int idempotency_ttl_s;    /* CARCD_IDEMPOTENCY_TTL / --idempotency-ttl: how long a move's answer serves a
                                 repeated Idempotency-Key, default 86400 (the clock worker then forgets it) */
    int delivery_ttl_s;       /* CARCD_DELIVERY_TTL / --delivery-ttl: how long a sent mail or an ended webhook
                                 message is kept after its last attempt (sql/034), a mail handled of a game
                                 over or of none after it was handled (sql/035), and a player's event after it
                                 was written (sql/036), default 7 days; 0 = for ever */
    int waiting_ttl_s;        /* CARCD_WAITING_TTL / --waiting-ttl: a game that waits for its seats is cancelled
                                 once nobody joined it for this long (game/lobby_expire.h), default 14 days;
                                 0 = never */
    int snapshot_every;       /* CARCD_SNAPSHOT_EVERY / --snapshot-every: a game row's snapshot is written at every
                                 seq divisible by it and when the game ends (sql/017), default 16 */
    char time_file[512];      /* CARCD_TIME_FILE / --time-file: tests' time source (timesrc.h); empty = real */
    /* play by e-mail (mail/) */
    char smtp_url[512];       /* CARCD_SMTP_URL: smtp://host:587 (STARTTLS when offered) or smtps://; "" = no mail */
    char smtp_user[256];      /* CARCD_SMTP_USER */
    char smtp_password[256];  /* CARCD_SMTP_PASSWORD */
    char mail_from[256];      /* CARCD_MAIL_FROM: the From address of every mail */
    char mail_reply_to[256];  /* CARCD_MAIL_REPLY_TO: template with {tag}, e.g. play+{tag}@example.org */
    char mail_return_path[256]; /* CARCD_MAIL_RETURN_PATH: envelope sender template with {tag} (bounces) */
    char mail_secret[256];    /* CARCD_MAIL_SECRET: the key of the reply tags' HMAC */
    char mail_backoff[256];   /* CARCD_MAIL_BACKOFF: seconds before each retry of a mail */
    char imap_url[512];       /* CARCD_IMAP_URL: imaps://user:pass@host/INBOX to poll for replies; "" = none */
    int imap_interval_ms;     /* CARCD_IMAP_INTERVAL_MS: how often the poller looks (default 5000) */
} cd_config;

/* Fills c from defaults, then the environment, then argv ("carcd [serve|migrate] [flags]").
 * Returns 0, or -1 with a message in err (unknown flag, bad number). */
int cd_config_load(cd_config *c, int argc, char **argv, char *err, size_t errlen);
void cd_config_usage(FILE *f);

#endif
