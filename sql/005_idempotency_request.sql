-- 005_idempotency_request.sql — what an Idempotency-Key's stored answer was an answer to.
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.
--
-- A key used again with another request must not get the first request's answer (the IETF
-- idempotency-key draft: 422): the move's row keeps the SHA-256 of the canonical request (expected seq and
-- move, handlers/moves_post.c) beside its answer. Rows stored before this column have no hash; their key
-- answers as before (the stored answer for any body).
ALTER TABLE moves ADD COLUMN request_sha256 text;
