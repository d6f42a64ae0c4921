/*
 * messages_get.c — GET /v1/games/{id}/messages?after=N&limit=L: the game's messages after id N (default 0:
 * from the first), oldest first, at most L (default 100, at most 500).
 *
 * Who reads what: a seat (its token) gets every message but those of the seats it muted (and the hidden
 * ones), and "muted", the seats it muted; the admin gets all, hidden ones marked "hidden": true (the read is
 * in the audit log, like the admin's other reads of a game); without a token only a game created with
 * "public_chat": true answers (else 403 chat-closed), with what a seat that muted nobody gets.
 * "last" is the cursor: the highest id this answer passed, muted and hidden ones included, or `after` when
 * none; the next read is ?after=<last>.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "game/audit.h"
#include "game/messages.h"
#include "handlers.h"
#include "db/messages.h"

#define MSG_PAGE_DEFAULT 100
#define MSG_PAGE_MAX 500

enum MHD_Result h_messages_get(cd_req *r)
{
    const char *raw_id = r->params[0];
    if (!cd_uuid_valid(raw_id))
        return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
    r->game_id = raw_id;
    char id[37];
    for (int i = 0; i < 37; i++)
        id[i] = (char)tolower((unsigned char)raw_id[i]);
    long long after = 0;
    const char *a = cd_req_arg(r, "after");
    if (a) {
        char *end;
        errno = 0;
        after = isdigit((unsigned char)a[0]) ? strtoll(a, &end, 10) : -1;
        if (after < 0 || errno || *end)
            return cd_reply_problem(r, CD_P_INVALID, "after", "after: expected an integer >= 0 (the last id seen)");
    }
    long limit;
    if (!cd_req_limit(r, MSG_PAGE_DEFAULT, MSG_PAGE_MAX, &limit))
        return MHD_YES;
    cd_db *db = cd_req_db(r);
    if (!db)
        return MHD_YES;
    int viewer;
    if (!cd_viewer_of(r, db, id, &viewer))
        return MHD_YES;
    if (viewer < 0) {   /* the admin or the public: does the game exist, and is its chat open */
        bool found = false, open = false;
        cd_q q = cd_msg_game_chat(db, id, &found, &open);
        if (q != CD_Q_OK)
            return cd_reply_db_failure(r, q == CD_Q_DOWN, "the game could not be read");
        if (!found)
            return cd_reply_problem(r, CD_P_NOT_FOUND, NULL, "no game with that id");
        if (viewer == CARC_VIEW_PUBLIC && !open)
            return cd_reply_problem(r, CD_P_CHAT_CLOSED, "Authorization",
                                    "this game's messages are for its seats: send a seat token");
    }
    bool admin = viewer == CARC_VIEW_ADMIN;
    if (admin && !cd_audit(r, db, NULL, id, json_pack("{s:I}", "after", (json_int_t)after)))
        return MHD_YES;
    cd_msg_rows rows;
    cd_q q = cd_msgs_after(db, id, after, viewer >= 0 ? viewer : -1, admin, (int)limit, &rows);
    if (q != CD_Q_OK)
        return cd_reply_db_failure(r, q == CD_Q_DOWN, "the messages could not be read");
    json_t *list = json_array();
    long long last = after;
    for (int i = 0; i < rows.n; i++) {
        if (rows.v[i].visible)
            json_array_append_new(list, cd_msg_json(&rows.v[i], admin));
        last = rows.v[i].id;
    }
    cd_msg_rows_free(&rows);
    json_t *answer = json_pack("{s:s, s:I, s:o}", "game", id, "last", (json_int_t)last, "messages", list);
    if (viewer >= 0) {
        unsigned muted = 0;
        q = cd_mutes_of(db, id, viewer, &muted);
        if (q != CD_Q_OK) {
            json_decref(answer);
            return cd_reply_db_failure(r, q == CD_Q_DOWN, "the mutes could not be read");
        }
        json_t *m = json_array();
        for (int s = 0; s < 32; s++)
            if (muted >> s & 1)
                json_array_append_new(m, json_integer(s));
        json_object_set_new(answer, "muted", m);
    }
    return cd_reply_json(r, 200, answer, NULL);
}
