-- 021_invite_reply_tags.sql — a mailed invitation's reply tag (mail/open_seat.h, mailin/join_by_mail.h): the
-- part of its Reply-To address that says which open place a reply is for, so that a person who only uses mail
-- can take the seat by answering the invitation with "join".
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- The tag is an HMAC of the game and the place under CARCD_MAIL_SECRET (mail/tag.h), as a seat's tag is; it
-- is kept here only to find the place a reply names. A reply joins only from the address the invitation was
-- mailed to (seat_invites.email, 019).

ALTER TABLE seat_invites ADD COLUMN reply_tag text;   -- NULL: no invitation mailed, or no reply address
CREATE UNIQUE INDEX seat_invites_reply_tag ON seat_invites (reply_tag) WHERE reply_tag IS NOT NULL;
