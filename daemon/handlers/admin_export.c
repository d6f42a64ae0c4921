/*
 * admin_export.c — GET /v1/admin/games/{id}/export: everything needed to play a game again elsewhere:
 * its stored set-up, the seed, the whole tile stack in draw order (replayed from seed and set-up), the seats'
 * names and the move log as posted, plus the replayed state after the last move as a snapshot (no seed) to
 * compare with. Admin token only; audited
 * (`audited` says whether the audit row was written: not while the database refuses writes).
 *
 * `carcctl import` creates a game from it on another server (admin token: the seed, and the stack as a
 * script, so the same tiles come in the same order even if the shuffle changed) and posts the moves with the
 * new seats' tokens.
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "game/audit.h"
#include "game/games.h"
#include "handlers.h"
#include "game/replay.h"

#define CD_EXPORT_FORMAT "carcd-export/1"

enum MHD_Result h_admin_export(cd_req *r)
{
    cd_db *db;
    int viewer;
    cd_game g;
    if (!cd_game_open(r, CD_OPEN_ADMIN, &db, &viewer, &g))
        return MHD_YES;
    const char *id = r->game_id;
    /* The export is how games leave a database that has gone read-only (or full): it answers even when its
     * audit row cannot be written then, says so (`audited`: false), and the log line keeps the record. Any
     * other audit failure refuses the export, as every audited admin read does. */
    bool down = false, audited = cd_audit_write(r, db, NULL, id, json_pack("{s:i}", "seq", g.seq), &down);
    cd_db_error e;
    if (!audited && !(cd_db_last_error(&e) && e.refuses_writes && !down)) {
        cd_game_free(&g);
        return cd_reply_db_failure(r, down, "the admin action could not be recorded in the audit log");
    }
    if (!audited) {
        char actor[24];
        cd_audit_actor(r->bearer, actor);
        cd_log("warn", "audit: %s exported game %s at seq %d; not recorded in the audit log (SQLSTATE %s: %s)", actor,
               id, g.seq, e.sqlstate, e.message);
    }
    carc_state *st = malloc(sizeof *st);
    if (!st)
        abort();
    char why[256] = "";
    json_t *stack = NULL;
    if (cd_replay_start(&g, st, why, sizeof why)) {
        stack = json_array();
        for (int i = 0; i < st->stack_len; i++)
            json_array_append_new(stack, json_string(cd_catalog()->types[st->stack[i]].id));
    }
    int nmoves = 0;
    bool db_error = false;
    json_t *moves = NULL;
    int bad = stack ? cd_replay(db, &g, -1, st, &nmoves, &moves, why, sizeof why, &db_error) : 0;
    /* the state after the last move, as a snapshot is stored: the stored one is a checkpoint (sql/017) */
    json_t *snapshot = !db_error && bad < 0 ? cd_snapshot_for_store(st) : NULL;
    free(st);
    if (!stack || db_error || bad >= 0) {
        json_decref(stack);
        json_decref(moves);
        cd_game_free(&g);
        if (db_error)
            return cd_reply_problem(r, CD_P_UNAVAILABLE, NULL, "the move log could not be read");
        return cd_reply_problem(r, CD_P_INTERNAL, NULL, "the game does not replay (seq %d): verify it", bad);
    }
    json_t *players = json_array();
    for (size_t i = 0; i < json_array_size(g.names); i++)
        json_array_append_new(players, json_pack("{s:i, s:O}", "seat", (int)i, "name", json_array_get(g.names, i)));
    json_t *answer = json_pack("{s:s, s:s, s:i, s:s, s:s, s:O, s:s, s:o, s:o, s:o, s:o}", "format", CD_EXPORT_FORMAT,
                               "id", g.id, "seq", g.seq, "status", g.cancelled ? "cancelled" : g.finished ? "finished" : "active", "created_at",
                               g.created_at, "setup", g.setup, "seed", g.seed, "stack", stack, "players", players,
                               "moves", moves, "snapshot", snapshot);
    json_object_set_new(answer, "audited", json_boolean(audited));
    if (g.clocked)   /* its settings, which an import gives the copy (its clock starts at the import) */
        json_object_set_new(answer, "clock", cd_clock_settings_json(&g.clock));
    cd_game_free(&g);
    return cd_reply_json(r, 200, answer, NULL);
}
