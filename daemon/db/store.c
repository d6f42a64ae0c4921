/*
 * store.c — the statement families of the query files of db/, collected: statement id -> its row (store.h).
 * The SQL itself is in the file that runs it; this file only knows which files have statements.
 */
#include "store.h"

#include <pthread.h>
#include <stddef.h>

const cd_stmt_family *const cd_stmt_families[] = {
    &cd_stmts_db,           &cd_stmts_games_table,      &cd_stmts_game_reads,        &cd_stmts_moves,
    &cd_stmts_audit_log,    &cd_stmts_webhook_outbox,   &cd_stmts_webhook_endpoints, &cd_stmts_webhook_deliveries,
    &cd_stmts_webhook_worker, &cd_stmts_clocks,         &cd_stmts_players,           &cd_stmts_gauges,
    &cd_stmts_mail_seats,   &cd_stmts_mail_outbox,      &cd_stmts_mail_in,          &cd_stmts_move_log,
    &cd_stmts_lobby,        &cd_stmts_bots,             &cd_stmts_messages,     &cd_stmts_player_events,
    &cd_stmts_admin_cancel, &cd_stmts_invite_optouts, &cd_stmts_deliveries_forget,
};
const int cd_nstmt_families = (int)(sizeof cd_stmt_families / sizeof cd_stmt_families[0]);
const int cd_nstmts = CD_NSTMTS;

/* id -> row, built once; an id two families claim keeps the first row (tests/db checks there is none) */
static const cd_stmt_info *by_id[CD_NSTMTS];
static pthread_once_t by_id_once = PTHREAD_ONCE_INIT;

static void collect(void)
{
    for (int f = 0; f < cd_nstmt_families; f++)
        for (int i = 0; i < cd_stmt_families[f]->n; i++) {
            const cd_stmt_info *s = &cd_stmt_families[f]->rows[i];
            if ((int)s->id >= 0 && (int)s->id < CD_NSTMTS && !by_id[s->id])
                by_id[s->id] = s;
        }
}

const cd_stmt_info *cd_stmt_row(int id)
{
    pthread_once(&by_id_once, collect);
    return id >= 0 && id < CD_NSTMTS ? by_id[id] : NULL;
}
