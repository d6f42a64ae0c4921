/*
 * lobby_expire.c — see lobby_expire.h.
 */
#include "lobby_expire.h"

#include <stdio.h>
#include <string.h>

#include "base/log.h"
#include "db/lobby.h"
#include "lobby_cancel.h"

#define EXPIRE_BATCH 32   /* ids read at a time; each is then its own transaction */

typedef struct {
    const char *id;
    double before;
    const char *reason;
    bool expired;   /* out: cancelled */
} expire_tx;

static cd_tx_result expire_one(cd_db *db, void *arg)
{
    expire_tx *t = arg;
    t->expired = false;
    cd_waiting_lock_row w;
    if (cd_waiting_lock(db, t->id, &w) != CD_Q_OK)
        return CD_TX_ERROR;
    cd_tx_result out = CD_TX_ROLLBACK;
    bool still = false;
    if (w.found && strcmp(w.status, "waiting") == 0) {
        if (cd_waiting_still_expired(db, t->id, t->before, &still) != CD_Q_OK)
            out = CD_TX_ERROR;
        else if (still)
            out = cd_lobby_cancel(db, t->id, &w, CD_CANCEL_BY_EXPIRY, t->reason);
    } else if (w.found) {   /* no longer waiting, its row still counting: stop it, or it would come first again */
        cd_waiting_lock_row_free(&w);
        return cd_waiting_ended(db, t->id) == CD_Q_OK ? CD_TX_COMMIT : CD_TX_ERROR;
    }
    t->expired = out == CD_TX_COMMIT;
    cd_waiting_lock_row_free(&w);
    return out;
}

void cd_lobby_ttl_words(int ttl_s, char *out, size_t n)
{
    static const struct {
        int s;
        const char *unit;
    } units[] = {{86400, "day"}, {3600, "hour"}, {60, "minute"}, {1, "second"}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (ttl_s % units[i].s == 0 || units[i].s == 1) {
            int k = ttl_s / units[i].s;
            snprintf(out, n, "%d %s%s", k, units[i].unit, k == 1 ? "" : "s");
            return;
        }
}

bool cd_lobby_expire(cd_db *db, double now, int ttl_s, int max, int *done)
{
    *done = 0;
    char words[40], reason[80];
    cd_lobby_ttl_words(ttl_s, words, sizeof words);
    snprintf(reason, sizeof reason, "nobody joined it for %s", words);
    while (*done < max) {
        char ids[EXPIRE_BATCH][37];
        int n = 0;
        int want = max - *done < EXPIRE_BATCH ? max - *done : EXPIRE_BATCH;
        if (cd_waiting_expired(db, now - ttl_s, want, ids, &n) != CD_Q_OK)
            return false;
        int cancelled = 0;
        for (int i = 0; i < n; i++) {
            expire_tx t = {.id = ids[i], .before = now - ttl_s, .reason = reason};
            bool down = false;
            cd_tx_result r = cd_db_tx(db, expire_one, &t, &down);
            if (r == CD_TX_ERROR)
                return false;
            if (t.expired) {
                cancelled++;
                cd_log("info", "lobby: game %s cancelled: %s", ids[i], reason);
            }
        }
        *done += cancelled;
        if (n < want || cancelled == 0)   /* none left, or all of them joined or ended meanwhile */
            return true;
    }
    return true;
}
