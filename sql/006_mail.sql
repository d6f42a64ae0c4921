-- 006_mail.sql — play by e-mail (daemon/mail/): the seats' addresses, the outbox of mails to send, and the
-- replies already handled. Applied by `carcd migrate` like 001; never edit an applied migration.
--
-- The mail outbox works as the webhook outbox does (002): a move's transaction writes the mails it causes,
-- fully built (the exact bytes sent), so a mail exists exactly when its move committed; the sender of any
-- carcd process claims due rows with FOR UPDATE SKIP LOCKED and leases them; only the lease's holder records
-- the outcome. Delivery is at least once: a carcd that dies between the server's 250 and the record sends
-- that mail again when the lease ends.

-- A seat that gets mail. Never shown to another seat.
CREATE TABLE mail_seats (
    game_id        uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat           integer NOT NULL,
    email          text NOT NULL,
    tag            text NOT NULL UNIQUE,     -- the reply address's tag: HMAC over game and seat (mail/tag.c)
    stopped_at     timestamptz,              -- a permanent refusal (5xx) or an unsubscribe: nothing more is sent
    stopped_reason text,
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE mail_outbox (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id    uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       integer NOT NULL,
    kind       text NOT NULL,                -- invitation, turn, reminder, finished, refused
    seq        integer NOT NULL,             -- the game's seq the mail is about
    msg_id     text NOT NULL UNIQUE,         -- its Message-ID, without the angle brackets
    rcpt       text NOT NULL,                -- the envelope recipient
    body       text NOT NULL,                -- the whole RFC 5322 message, CRLF line ends
    state      text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
    tries      integer NOT NULL DEFAULT 0,
    due_at     timestamptz NOT NULL DEFAULT now(),   -- pending: next attempt, or the end of the lease
    lease      uuid,
    created_at timestamptz NOT NULL DEFAULT now(),
    sent_at    timestamptz,
    last_error text
);
CREATE INDEX mail_outbox_due ON mail_outbox (due_at) WHERE state = 'pending';
CREATE INDEX mail_outbox_seat ON mail_outbox (game_id, seat, id);

-- Every reply handled, by its Message-ID: a mail delivered twice (or fetched by two pollers) moves once.
CREATE TABLE mail_in (
    message_id text PRIMARY KEY,
    game_id    uuid,
    seat       integer,
    outcome    text NOT NULL,                -- moved, refused, ignored (wrong tag or sender)
    detail     text,
    at         timestamptz NOT NULL DEFAULT now()
);
