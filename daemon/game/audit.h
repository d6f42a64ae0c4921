/*
 * audit.h — the audit log of admin actions (sql/003_admin_audit.sql): who looked at hidden state, who
 * verified, exported or created what. Handlers call cd_audit (handlers/request.h) for every request served
 * with the admin token
 * that reads an admin view or changes something, *before* they answer, so nothing is shown unrecorded: when
 * the row cannot be written the request fails (503 / 500) instead.
 *
 * The actor is the admin token's fingerprint (never the token), plus the name the client claims in the
 * X-Carcd-Actor header (carcctl sends the user's name; it is a label, not an authentication), the peer's
 * address and User-Agent.
 */
#ifndef CD_AUDIT_H
#define CD_AUDIT_H

#include <jansson.h>
#include <stdbool.h>

#include "db/db.h"
#include "http/http.h"

#define CD_AUDIT_ACTOR_HEADER "X-Carcd-Actor"

/* Writes one row for request r: action (NULL: the route's name), the game (may be NULL) and `detail` (an
 * object, stolen, may be NULL; method and path are added). True when written; else *down (may be NULL) tells
 * whether the database was unreachable (inside a transaction the caller fails it; handlers answer through
 * cd_audit, handlers/request.h). */
bool cd_audit_write(cd_req *r, cd_db *db, const char *action, const char *game_id, json_t *detail, bool *down);

/* The actor of an admin request as stored: "admin:" + the first 16 hex digits of SHA-256(token). */
void cd_audit_actor(const char *token, char out[24]);

#endif
