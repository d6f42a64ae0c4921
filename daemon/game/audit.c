/*
 * audit.c — writing the audit log of admin actions (see audit.h).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "audit.h"
#include "games.h"
#include "base/json_out.h"
#include "base/utf8.h"
#include "db/audit_log.h"
#include "http/limits.h"

void cd_audit_actor(const char *token, char out[24])
{
    char hex[CD_HEX256_LEN];
    cd_sha256_hex(token ? token : "", hex);
    snprintf(out, 24, "admin:%.16s", hex);
}

/* A header's value cut to `max` bytes at a UTF-8 boundary, control characters dropped; NULL when absent. */
static char *header_text(cd_req *r, const char *name, size_t max)
{
    const char *v = cd_req_header(r, name);
    if (!v || !*v)
        return NULL;
    size_t n = cd_utf8_cut(v, strlen(v), max);
    char *out = malloc(n + 1);
    if (!out)
        abort();
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)v[i] >= 0x20 && v[i] != 0x7f)
            out[k++] = v[i];
    out[k] = 0;
    /* text that is not UTF-8 would make PostgreSQL refuse the row: keep ASCII only then */
    json_t *probe = json_string(out);
    if (!probe) {
        k = 0;
        for (size_t i = 0; out[i]; i++)
            if ((unsigned char)out[i] < 0x80)
                out[k++] = out[i];
        out[k] = 0;
    }
    json_decref(probe);
    return out;
}

bool cd_audit_write(cd_req *r, cd_db *db, const char *action, const char *game_id, json_t *detail, bool *down)
{
    if (!detail)
        detail = json_object();
    json_object_set_new(detail, "method", json_string(r->method));
    json_t *path = json_string(r->path);
    json_object_set_new(detail, "path", path ? path : json_string("?"));
    char *detail_text = cd_json_dumps(detail, JSON_COMPACT);
    json_decref(detail);
    char actor[24], addr[CD_ADDR_TEXT];
    cd_audit_actor(r->bearer, actor);
    cd_req_client_addr(r, addr);   /* X-Forwarded-For from a trusted proxy (http/limits.h) */
    char *name = header_text(r, CD_AUDIT_ACTOR_HEADER, 128), *agent = header_text(r, "User-Agent", 256);
    const cd_audit_entry e = {.action = action ? action : (r->route ? r->route->name : "unknown"),
                              .game_id = game_id, .actor = actor, .actor_name = name,
                              .remote_addr = addr[0] ? addr : NULL, .user_agent = agent, .detail = detail_text};
    cd_q q = cd_audit_insert(db, &e);
    bool ok = q == CD_Q_OK;
    if (down)
        *down = q == CD_Q_DOWN;
    free(name);
    free(agent);
    free(detail_text);
    return ok;
}
