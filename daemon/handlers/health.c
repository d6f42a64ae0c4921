/*
 * health.c — GET /healthz (the process answers) and GET /readyz (and can reach its database).
 */
#include "db/db.h"
#include "handlers.h"
#include "base/log.h"

enum MHD_Result h_healthz(cd_req *r)
{
    return cd_reply_json(r, 200, json_pack("{s:s}", "status", "ok"), NULL);
}

enum MHD_Result h_readyz(cd_req *r)
{
    char err[256];
    cd_db *db = cd_db_thread(r->cfg, err, sizeof err);
    if (!db) {
        cd_log("warn", "readyz: %s", err);
        return cd_reply_problem(r, CD_P_UNAVAILABLE, NULL, "the database cannot be reached");
    }
    if (!cd_db_ping(db))
        return cd_reply_problem(r, CD_P_UNAVAILABLE, NULL, "the database does not answer");
    return cd_reply_json(r, 200, json_pack("{s:s}", "status", "ready"), NULL);
}
