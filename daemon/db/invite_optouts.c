/*
 * invite_optouts.c — see invite_optouts.h.
 */
#include "invite_optouts.h"

#include "query.h"

/* ---- its statements: their SQL, prepared on every connection (store.h collects the families) ---- */
static const cd_stmt_info stmts[] = {
    {ST_INVITE_STOP_LINK, "invite_stop_link",
                          "INSERT INTO invite_stop_links (token_hash, email_hash) VALUES ($1, $2)", 2},
    /* the link's address into the opt-outs, and a row back when the link exists */
    {ST_INVITE_STOP, "invite_stop",
                     "WITH l AS (SELECT email_hash FROM invite_stop_links WHERE token_hash = $1), "
                     "o AS (INSERT INTO invite_optouts (email_hash) SELECT email_hash FROM l ON CONFLICT DO NOTHING) "
                     "SELECT 1 FROM l",
                     1},
    {ST_INVITE_OPTED_OUT, "invite_opted_out", "SELECT 1 FROM invite_optouts WHERE email_hash = $1", 1},
};
const cd_stmt_family cd_stmts_invite_optouts = {stmts, sizeof stmts / sizeof stmts[0]};

cd_q cd_invite_stop_link_add(cd_db *db, const char *token_hash, const char *email_hash)
{
    const char *p[] = {token_hash, email_hash};
    return cd_db_defer(db, ST_INVITE_STOP_LINK, 2, p) ? CD_Q_OK : CD_Q_FAILED;
}

cd_q cd_invite_stop(cd_db *db, const char *token_hash, bool *found)
{
    const char *p[] = {token_hash};
    int n = 0;
    cd_q q = cd_q_count(db, ST_INVITE_STOP, 1, p, &n);
    *found = n > 0;
    return q;
}

cd_q cd_invite_opted_out(cd_db *db, const char *email_hash, bool *out)
{
    const char *p[] = {email_hash};
    int n = 0;
    cd_q q = cd_q_count(db, ST_INVITE_OPTED_OUT, 1, p, &n);
    *out = n > 0;
    return q;
}
