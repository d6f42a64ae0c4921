-- 020_invite_optouts.sql — the stop link of every invitation carcd mails (mail/open_seat.h) and the
-- addresses that used one (db/invite_optouts.h).
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- A person who does not want carcd's invitations: every invitation mail carries a stop link (List-Unsubscribe,
-- RFC 8058 one-click, and in its text) whose random token is kept here hashed with the address's hash; using
-- it puts the address's hash into invite_optouts, and a creation or POST .../invites/mail naming that address
-- is refused (400). Only hashes: SHA-256 hex of the token, and of the address folded to lower case.
CREATE TABLE invite_stop_links (
    token_hash text PRIMARY KEY,
    email_hash text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE invite_optouts (
    email_hash text PRIMARY KEY,
    at         timestamptz NOT NULL DEFAULT now()
);
