-- 019_invite_mail.sql — an open place's invitation mailed by carcd (handlers/games_create.c,
-- mail/open_seat.h): the address it went to, which becomes the seat's mail address once the place is taken.
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- A creation's {"invite": true, "email": "..."} mails the place's page link (the invite code in its fragment)
-- to that address, in the creation's transaction, as every mail is written (006). Whoever joins with that code
-- gets the game's mail at the address from the game's start, as a seat named with an address at creation
-- does; every mail carries its one-click unsubscribe. The address is never shown to anyone but the creator's
-- own answer and the joiner's.

ALTER TABLE seat_invites ADD COLUMN email text;   -- NULL: the invitation was not mailed by carcd

-- A mail to a person who has no seat yet (an open place's invitation) is written with seat -1: it names no
-- seat's thread, stop or tag.
COMMENT ON COLUMN mail_outbox.seat IS 'the seat the mail is for; -1: a person with no seat yet (an open place''s invitation, 019)';
