-- 022_invite_displaced.sql — the address of a mailed invitation whose place a join from the lobby took.
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- A public game's join from the lobby takes a place whose invitation carcd mailed only when no other place is
-- open, and never its address (seat_invites.email, 019, which would make the newcomer's mail go there): the
-- address moves here. carcd mails it nothing on its own (the invitation promised that it would not write again
-- unless its reader joins); a reply "join" from it is answered with what became of the seat
-- (daemon/mailin/join_by_mail.c), where without it the reply came from an address the place no longer knew and
-- went unanswered.

ALTER TABLE seat_invites ADD COLUMN email_displaced text;   -- NULL: the place's invitation kept its seat
