-- 034_deliveries_forgotten.sql — sent mails and ended webhook deliveries are forgotten after a while.
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- The outboxes (002, 006) kept every mail and every webhook message for good, each with the exact bytes sent:
-- a turn mail's board picture alone is tens of kilobytes, so a game played by mail kept megabytes after it
-- ended. The clock worker's upkeep now deletes a row CARCD_DELIVERY_TTL after its last attempt, once it is
-- no longer pending (db/deliveries_forget.c), and a gone endpoint (033) once its messages are gone too. A row
-- that ended has the time of its outcome in due_at (the senders set it, db/mail_outbox.c and
-- db/webhook_worker.c), so these indexes list the rows in the order they may go; a pending row is in none of
-- them, so a move's outbox rows cost nothing more to write.
CREATE INDEX mail_outbox_ended ON mail_outbox (due_at) WHERE state <> 'pending';
CREATE INDEX webhook_outbox_ended ON webhook_outbox (due_at) WHERE state <> 'pending';
CREATE INDEX webhook_endpoints_gone ON webhook_endpoints (gone_at) WHERE gone_at IS NOT NULL;
