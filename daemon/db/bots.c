/*
 * bots.c — see bots.h.
 */
#include "bots.h"

#include <stdio.h>

#include "query.h"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ---- */
static const cd_stmt_info stmts[] = {
    {ST_BOT_SEAT_SET, "bot_seat_set",
                      "UPDATE seats SET bot = $3::jsonb, left_to_bot = $4::boolean "
                      "WHERE game_id = $1::uuid AND seat = $2::integer",
                      4},
    {ST_BOT_GAME_FLAGS, "bot_game_flags",
                        "UPDATE games SET bots = true, bot_after_leave = $2::boolean WHERE id = $1::uuid", 2},
    /* the partial index games_bots_active keeps this to the active games that have bots */
    {ST_BOT_CLAIM, "bot_claim",
                   "UPDATE games SET bot_lease_until = to_timestamp($1::float8) + make_interval(secs => $2::float8) "
                   "WHERE id = (SELECT g.id FROM games g WHERE g.bots AND g.status = 'active' "
                   "AND g.pending_seat IS NOT NULL "
                   "AND (g.bot_lease_until IS NULL OR g.bot_lease_until <= to_timestamp($1::float8)) "
                   "AND (EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.seat = g.pending_seat "
                   "AND s.bot IS NOT NULL) "
                   "OR (g.clock->>'timeout' = 'bot' AND g.clock_deadline <= to_timestamp($1::float8))) "
                   "ORDER BY g.updated_at LIMIT 1 FOR UPDATE SKIP LOCKED) "
                   "RETURNING id, pending_seat, (SELECT s.bot::text FROM seats s WHERE s.game_id = games.id "
                   "AND s.seat = games.pending_seat)",
                   2},
    {ST_BOT_RELEASE, "bot_release", "UPDATE games SET bot_lease_until = NULL WHERE id = $1::uuid", 1},
    {ST_BOT_AFTER_LEAVE, "bot_after_leave", "SELECT bot_after_leave FROM games WHERE id = $1::uuid", 1},
    {ST_BOT_SEAT_MASK, "bot_seat_mask",
                       "SELECT coalesce(bit_or(1 << seat), 0) FROM seats WHERE game_id = $1::uuid AND bot IS NOT NULL",
                       1},
};
const cd_stmt_family cd_stmts_bots = {stmts, sizeof stmts / sizeof stmts[0]};

cd_q cd_bot_seat_set(cd_db *db, const char *game_id, int seat, const char *bot_json, bool left_to_bot)
{
    char s[16];
    snprintf(s, sizeof s, "%d", seat);
    const char *p[] = {game_id, s, bot_json, left_to_bot ? "true" : "false"};
    return cd_q_run(db, ST_BOT_SEAT_SET, 4, p);
}

cd_q cd_bot_game_flags(cd_db *db, const char *game_id, bool after_leave)
{
    const char *p[] = {game_id, after_leave ? "true" : "false"};
    return cd_q_run(db, ST_BOT_GAME_FLAGS, 2, p);
}

static void fill_claim(const PGresult *res, int i, void *row)
{
    cd_bot_claim_row *out = row;
    snprintf(out->game_id, sizeof out->game_id, "%s", PQgetvalue(res, i, 0));
    out->seat = cd_q_int(res, i, 1, -1);
    const char *bot = cd_q_text(res, i, 2);
    snprintf(out->bot, sizeof out->bot, "%s", bot ? bot : "");
}

cd_q cd_bot_claim(cd_db *db, double now, double lease_s, bool *found, cd_bot_claim_row *out)
{
    char now_s[32], lease[32];
    snprintf(now_s, sizeof now_s, "%.3f", now);
    snprintf(lease, sizeof lease, "%.3f", lease_s);
    const char *p[] = {now_s, lease};
    return cd_q_one(db, ST_BOT_CLAIM, 2, p, found, fill_claim, out);
}

cd_q cd_bot_release(cd_db *db, const char *game_id)
{
    const char *p[] = {game_id};
    return cd_q_run(db, ST_BOT_RELEASE, 1, p);
}

static void fill_bool(const PGresult *res, int i, void *row) { *(bool *)row = PQgetvalue(res, i, 0)[0] == 't'; }

cd_q cd_bot_after_leave(cd_db *db, const char *game_id, bool *after_leave)
{
    const char *p[] = {game_id};
    bool found = false;
    *after_leave = false;
    return cd_q_one(db, ST_BOT_AFTER_LEAVE, 1, p, &found, fill_bool, after_leave);
}

static void fill_mask(const PGresult *res, int i, void *row) { *(unsigned *)row = (unsigned)cd_q_int(res, i, 0, 0); }

cd_q cd_bot_seat_mask(cd_db *db, const char *game_id, unsigned *mask)
{
    const char *p[] = {game_id};
    bool found = false;
    *mask = 0;
    return cd_q_one(db, ST_BOT_SEAT_MASK, 1, p, &found, fill_mask, mask);
}
