-- 031_mail_thread.sql — a seat's mail stays in one thread when the seat moves down. Applied by `carcd migrate`
-- like 001; never edit an applied migration: add a new numbered file instead.
--
-- Every mail of a seat names a thread root made of the game and the seat's number (daemon/mail/compose.h), so
-- that a mail program shows one thread per game. A seat of a waiting game moves down when an earlier one leaves
-- (029), and its later mail named the new number: a second thread, in the middle of its conversation. A moved
-- seat's row now keeps the number its thread started under (set as it moves: carcd_seat_gone, 032). NULL: its
-- own number, as for every seat that never moved (and every row before 031, whose mail named that number too).

ALTER TABLE mail_seats ADD COLUMN thread_seat integer;
