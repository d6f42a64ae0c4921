-- 030_seat_remove.sql — the creator of a waiting game removes a seat that a join took
-- (POST /v1/games/{id}/seats/{seat}/remove). Applied by `carcd migrate` like 001; never edit an applied migration:
-- add a new numbered file instead.
--
-- The seat goes as a leave's does (carcd_seat_leave, 029). What is new: the game remembers the removed player, so
-- that their player key cannot take a seat again from the lobby (a new invite code from the creator still lets
-- them in: that is the creator's own choice), and the removed player hears of it in their event stream.
--
-- A place remembers how it was taken (by_code): with its code or a reply to its mailed invitation, or from the
-- lobby, which never showed the joiner the code. A removed seat's place gets a new code only in the first case,
-- so that the creator's link for a place a stranger took from the lobby still works. NULL: taken before 030, or
-- open (carcd_seat_leave leaves it as it was; it is read only while the place is taken).

CREATE TABLE seat_removals (
    game_id    uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player_id  uuid NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    removed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, player_id)
);

ALTER TABLE seat_invites ADD COLUMN by_code boolean;

-- seat_removed: the creator removed the player's seat of a waiting game (to the removed player alone)
ALTER TABLE player_events DROP CONSTRAINT player_events_kind_check;
ALTER TABLE player_events ADD CONSTRAINT player_events_kind_check
    CHECK (kind IN ('game_started', 'turn', 'invitation', 'game_over', 'player_joined', 'game_expiring',
                    'game_kept_open', 'player_left', 'seat_removed'));
