/*
 * deliveries_forget.c — see deliveries_forget.h.
 */
#include "deliveries_forget.h"

#include <stdio.h>

#include "query.h"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ---- */
/* The ended rows come from sql/034's partial indexes in the order they ended; a mail a running game still
 * needs is passed over, which costs a look at each such row every tick: at most a seat's newest turn mail
 * and a waiting game's invitations, of games whose mail is older than the TTL. */
static const cd_stmt_info stmts[] = {
    {ST_MAIL_FORGET, "mail_forget",
                     "WITH old AS (SELECT o.id FROM mail_outbox o JOIN games g ON g.id = o.game_id "
                     "WHERE o.state <> 'pending' AND o.due_at < to_timestamp($1::float8) "
                     "AND NOT (g.status IN ('waiting', 'active') AND (o.kind = 'open-seat' OR "
                     "o.kind IN ('turn', 'invitation') AND NOT EXISTS (SELECT 1 FROM mail_outbox n "
                     "WHERE n.game_id = o.game_id AND n.seat = o.seat AND n.kind IN ('turn', 'invitation') "
                     "AND n.id > o.id))) "
                     "ORDER BY o.due_at LIMIT $2::integer FOR UPDATE OF o SKIP LOCKED) "
                     "DELETE FROM mail_outbox m USING old WHERE m.id = old.id",
                     2},
    {ST_WH_FORGET, "wh_forget",
                   "WITH old AS (SELECT id FROM webhook_outbox WHERE state <> 'pending' "
                   "AND due_at < to_timestamp($1::float8) ORDER BY due_at LIMIT $2::integer FOR UPDATE SKIP LOCKED) "
                   "DELETE FROM webhook_outbox o USING old WHERE o.id = old.id",
                   2},
    {ST_WH_GONE_FORGET, "wh_gone_forget",
                        "WITH old AS (SELECT e.id FROM webhook_endpoints e WHERE e.gone_at < to_timestamp($1::float8) "
                        "AND NOT EXISTS (SELECT 1 FROM webhook_outbox o WHERE o.endpoint_id = e.id) "
                        "ORDER BY e.gone_at LIMIT $2::integer FOR UPDATE SKIP LOCKED) "
                        "DELETE FROM webhook_endpoints e USING old WHERE e.id = old.id",
                        2},
    /* a mail of no game (not ours, a tag of nobody's, a bounce of a mail gone), or of a game that can take no
     * move any more: a second delivery of it, should one still come, is refused or ignored, never played */
    {ST_MAIL_IN_FORGET, "mail_in_forget",
                        "WITH old AS (SELECT m.message_id FROM mail_in m LEFT JOIN games g ON g.id = m.game_id "
                        "WHERE m.at < to_timestamp($1::float8) AND g.status IS DISTINCT FROM 'waiting' "
                        "AND g.status IS DISTINCT FROM 'active' "
                        "ORDER BY m.at LIMIT $2::integer FOR UPDATE OF m SKIP LOCKED) "
                        "DELETE FROM mail_in i USING old WHERE i.message_id = old.message_id",
                        2},
    {ST_PLAYER_EVENTS_FORGET, "player_events_forget",
                              "WITH old AS (SELECT player_id, n FROM player_events WHERE at < to_timestamp($1::float8) "
                              "ORDER BY at LIMIT $2::integer FOR UPDATE SKIP LOCKED) "
                              "DELETE FROM player_events e USING old WHERE e.player_id = old.player_id AND e.n = old.n",
                              2},
};
const cd_stmt_family cd_stmts_deliveries_forget = {stmts, sizeof stmts / sizeof stmts[0]};

/* One of the statements above; *n = the rows it deleted (a DELETE's count). */
static cd_q forget(cd_db *db, int stmt, double before, int limit, int *n)
{
    char b[32], l[16];
    snprintf(b, sizeof b, "%.3f", before);
    snprintf(l, sizeof l, "%d", limit);
    const char *p[] = {b, l};
    return cd_q_changed(db, stmt, 2, p, n);
}

cd_q cd_mail_forget(cd_db *db, double before, int limit, int *n)
{
    return forget(db, ST_MAIL_FORGET, before, limit, n);
}

cd_q cd_webhook_forget(cd_db *db, double before, int limit, int *n)
{
    return forget(db, ST_WH_FORGET, before, limit, n);
}

cd_q cd_gone_endpoints_forget(cd_db *db, double before, int limit, int *n)
{
    return forget(db, ST_WH_GONE_FORGET, before, limit, n);
}

cd_q cd_mail_in_forget(cd_db *db, double before, int limit, int *n)
{
    return forget(db, ST_MAIL_IN_FORGET, before, limit, n);
}

cd_q cd_player_events_forget(cd_db *db, double before, int limit, int *n)
{
    return forget(db, ST_PLAYER_EVENTS_FORGET, before, limit, n);
}
