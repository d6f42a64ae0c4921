-- 007_attempt_worker.sql — what webhook_attempts.worker holds now.
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- 002 documented the column as the host:pid of the carcd that made the attempt. Endpoint owners read the
-- attempts (GET .../deliveries), so a worker now names itself by a random id per process instead, and its
-- log line at start-up maps that id to host:pid (webhooks/deliver.c). The column's meaning is said here,
-- where a database already migrated past 002 can see it.
COMMENT ON COLUMN webhook_attempts.worker IS
    'the delivery worker that made the attempt: a random id per carcd process (w- and 16 hex digits); carcd''s log at start-up names its host:pid';
