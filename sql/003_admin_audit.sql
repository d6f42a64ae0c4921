-- 003_admin_audit.sql — the audit log of admin actions: every request made with the admin token that reads
-- hidden state or an admin view (admin endpoints, a game's view, events or pictures as the admin) or that
-- changes something (a game created with a chosen seed or script), written before the answer is given.
-- Rows are only ever inserted. game_id has no foreign key: the record outlives a deleted game.

CREATE TABLE admin_audit (
    id          bigserial PRIMARY KEY,                  -- the cursor of GET /v1/admin/audit
    at          timestamptz NOT NULL DEFAULT now(),
    action      text NOT NULL,                          -- the route's name: admin.games.get, games.board.svg ...
    game_id     uuid,                                   -- the game concerned, if any
    actor       text NOT NULL,                          -- 'admin:' + 16 hex of SHA-256(admin token)
    actor_name  text,                                   -- X-Carcd-Actor as the client claimed it (carcctl sends $USER)
    remote_addr text,
    user_agent  text,
    detail      jsonb NOT NULL DEFAULT '{}'             -- method, path and what the action saw or did
);
CREATE INDEX admin_audit_game ON admin_audit (game_id, id);
CREATE INDEX admin_audit_action ON admin_audit (action, id);
