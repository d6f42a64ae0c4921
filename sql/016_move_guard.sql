-- 016_move_guard.sql — carcd_guard(ok): true, or the error CD001 when ok is not true. A move whose game this
-- process holds in its state cache is sent in one round trip (daemon/handlers/moves_post.c): BEGIN, the game row
-- locked, a guard that the locked game is as the cache holds it, the move's writes and COMMIT, in one pipeline.
-- When the guard finds the game otherwise (another process moved it, a webhook endpoint was added, the token is
-- not the pending seat's, ...) it raises CD001, PostgreSQL skips the writes queued behind it, and carcd rolls
-- back and runs the move again the long way (two round trips: read, then write). An error is the only way a
-- statement can stop the statements already queued behind it in a pipeline; a distinct SQLSTATE tells the
-- guard's refusal from any real failure.
-- Applied by `carcd migrate` like 001; never edit an applied migration: add a new numbered file instead.

CREATE FUNCTION carcd_guard(ok boolean) RETURNS boolean
    LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
AS $$
BEGIN
    IF ok IS NOT TRUE THEN
        RAISE EXCEPTION 'carcd: the game is not as this carcd process holds it' USING ERRCODE = 'CD001';
    END IF;
    RETURN true;
END
$$;
